// The built-in readings folded into one model answer, reading by reading, as the variant models.
#include "cat/EmbeddedModel.hpp"
#include "cat/Loader.hpp"
#include "cat/Readings.hpp"
#include "cat/Resolver.hpp"
#include "check/Check.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

using namespace ptxmc;

namespace {

const cat::ResolvedModel& combined() {
    static auto model = cat::resolveModel(cat::builtinModelWithReadings());
    return *model;
}

/** The one-rule tests a variant's expectation file lists: those whose answer it changes. */
std::vector<std::string> testsChangedBy(const std::string& variant) {
    std::string stem = variant.substr(9, variant.size() - 9 - 4); // variants/NAME.cat
    std::ifstream in(std::string(PTXMC_SOURCE_DIR) + "/litmus/expected." + stem + ".txt");
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#' || line.rfind("kernels/", 0) == 0) continue;
        out.push_back(std::string(PTXMC_SOURCE_DIR) + "/litmus/" + line.substr(0, line.find(' ')));
    }
    return out;
}

/** `action` throws InputError at a known place, its message containing `part`. */
void requireRefused(const std::function<void()>& action, const std::string& part) {
    try {
        action();
    } catch (const InputError& e) {
        INFO(e.what());
        CHECK(e.loc().line > 0);
        CHECK_THAT(e.message(), Catch::Contains(part));
        return;
    }
    FAIL("no error was reported");
}

} // namespace

TEST_CASE("every built-in variant is a reading of the combined model", "[readings]") {
    std::vector<std::string> names;
    for (const auto& f : cat::embeddedModelFiles())
        if (f.path.rfind("variants/", 0) == 0) names.push_back(f.path);
    std::vector<std::string> readings;
    for (const cat::ReadingInfo& r : combined().readings) {
        readings.push_back(r.reading.modelFile());
        REQUIRE_FALSE(r.decisions.empty());
        // "Q1 (9.7.18.6.3)" or a named decision, "WG-FENCE-ORDERS-MMA (9.7.17.7.1)": the
        // question and its section
        for (const auto& [name, label] : r.decisions) {
            INFO(label);
            REQUIRE(!label.empty());
            REQUIRE((label[0] >= 'A' && label[0] <= 'Z'));
            REQUIRE(label.find(" (") != std::string::npos);
            REQUIRE(label.back() == ')');
        }
    }
    REQUIRE(readings == names);
}

TEST_CASE("each reading answers as its variant model alone, with both engines",
          "[readings][corpus]") {
    const cat::ResolvedModel& model = combined();
    std::size_t compared = 0;
    for (std::size_t k = 1; k <= model.readings.size(); ++k) {
        const std::string name = model.readings[k - 1].reading.modelFile();
        auto alone = cat::resolveModel(cat::loadBuiltinModel(name));
        for (const std::string& path : testsChangedBy(name)) {
            const ir::Program program = lower::lowerTest(litmus::parseLitmusFile(path));
            for (auto kind : {engine::EngineKind::Z3, engine::EngineKind::Enumerate}) {
                engine::CheckOptions options;
                options.engine = kind;
                options.timeoutSeconds = 60;
                std::vector<engine::CheckResult> all =
                    engine::checkReadings(program, model, options);
                INFO(path << " under " << name << " engine " << static_cast<int>(kind));
                REQUIRE(all.size() == model.readings.size() + 1);
                REQUIRE(engine::sameAnswer(all[k], engine::check(program, *alone, options)));
                // The default reading is the built-in model's answer, which differs here.
                REQUIRE_FALSE(engine::sameAnswer(all[0], all[k]));
                ++compared;
            }
        }
    }
    REQUIRE(compared > 40);
}

TEST_CASE("a variant that is not the default model plus lets of its own is refused", "[readings]") {
    cat::Model base = cat::loadBuiltinModel();
    auto variant = [](const std::string& body) {
        return cat::Variant{cat::ReadingId{"bad"},
                            cat::parseModelText("include \"../decisions.cat\"\n" + body +
                                                    "include \"../tcgen05.cat\"\n",
                                                "<builtin>/variants/bad.cat")};
    };
    requireRefused([&] { cat::combineReadings(base, {variant("let no-such-decision = po\n")}); },
                   "redefines no earlier definition");
    requireRefused([&] { cat::combineReadings(base, {variant("acyclic po as extra\n")}); },
                   "may only redefine 'let's");
    // ptx.cat alone lacks tcgen05.cat's statements.
    cat::Variant other{
        cat::ReadingId{"other"},
        cat::parseModelText("include \"../ptx.cat\"\n", "<builtin>/variants/other.cat")};
    requireRefused([&] { cat::combineReadings(base, {other}); }, "variants/other.cat");
}

TEST_CASE("a reading is one id: its variant's file and --reading's spellings", "[readings]") {
    const cat::ReadingId q4{"q4-kind-not-required"};
    CHECK(q4.modelFile() == "variants/q4-kind-not-required.cat");
    CHECK(cat::ReadingId::ofModelFile("variants/q4-kind-not-required.cat") == q4);
    CHECK_FALSE(cat::ReadingId::ofModelFile("tcgen05.cat"));
    CHECK_FALSE(cat::ReadingId::ofModelFile("variants/README.md"));
    for (const char* spelled :
         {"q4-kind-not-required", "q4-kind-not-required.cat", "variants/q4-kind-not-required.cat"})
        CHECK(cat::ReadingId::ofArgument(spelled) == q4);
}

TEST_CASE("every reading at once: a kernel protocol keeps its mbarrier facts, and the default's "
          "proofs answer the readings they do not involve",
          "[readings][kernel-tier]") {
    // Before, --readings' one encoding gave no mbarrier facts (an axiom containing the mbarrier
    // order only while decision Q22's literal is false was taken as not containing it), and
    // asked every flag's proof again under every reading its encoding names: cute's Hopper
    // tutorial took 430 s against 6.5 s for the default alone.
    const std::string path =
        std::string(PTXMC_SOURCE_DIR) + "/litmus/kernels/hopper-tma/hopper-tma-s2.litmus";
    const ir::Program program = lower::lowerTest(litmus::parseLitmusFile(path));
    engine::CheckOptions options;
    options.stats = true;
    const engine::CheckResult alone =
        engine::check(program, *cat::resolveModel(cat::loadBuiltinModel()), options);
    const std::vector<engine::CheckResult> all =
        engine::checkReadings(program, combined(), options);
    // Decision Q22's variant orders each object on its own: its facts are each object's own
    // search's, asserted under its literal beside the default's.
    engine::CheckOptions perObject = options;
    perObject.reading = cat::ReadingId{"q22-mbarrier-order-per-object"};
    const engine::CheckResult q22 = engine::check(program, combined(), perObject);
    REQUIRE(alone.stats);
    REQUIRE(q22.stats);
    REQUIRE(all.at(0).stats);
    CHECK(alone.stats->mbarrierFacts > 0);
    CHECK(q22.stats->mbarrierFacts > 0);
    CHECK(all[0].stats->mbarrierFacts == alone.stats->mbarrierFacts + q22.stats->mbarrierFacts);
    std::size_t reused = 0;
    for (const engine::QueryTime& q : all[0].stats->queryTimes)
        if (q.purpose == "another reading's proof") reused += q.unsat;
    CHECK(reused > 0);
    // Each reading still answers as its variant model alone.
    for (std::size_t k = 1; k < all.size(); ++k) {
        const std::string name = combined().readings[k - 1].reading.modelFile();
        INFO(name);
        auto variant = cat::resolveModel(cat::loadBuiltinModel(name));
        CHECK(engine::sameAnswer(all[k], engine::check(program, *variant, {})));
    }
}
