// Explanations: witnesses for allowed outcomes, minimal named axioms for forbidden ones.
#include "../unit/BuiltinModel.hpp"
#include "cat/Loader.hpp"
#include "cat/Resolver.hpp"
#include "check/Check.hpp"
#include "explain/Explanation.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"
#include "report/WitnessText.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>

using namespace ptxmc;
using engine::explain::Explanation;

namespace {

Explanation explainFile(const std::string& rel, std::optional<std::string> outcome = std::nullopt) {
    auto test = litmus::parseLitmusFile(std::string(PTXMC_SOURCE_DIR) + "/litmus/" + rel);
    return engine::explain::explainOutcome(lower::lowerTest(test), testing::builtinModel(), outcome,
                                           engine::CheckOptions{});
}

std::vector<std::string> axiomNames(const Explanation& ex) {
    std::vector<std::string> out;
    for (const auto& v : ex.violations)
        out.push_back(v.axiom);
    return out;
}

} // namespace

TEST_CASE("the stale tcgen05.ld after commit + wait + after_thread_sync breaks tensor-memory order",
          "[explain]") {
    auto ex = explainFile("tcgen05/commit/L17-MP+commit+fa.litmus");
    REQUIRE(ex.kind == Explanation::Kind::Forbidden);
    REQUIRE(axiomNames(ex) == std::vector<std::string>{"Tensor-Memory-Order"});
    CHECK_THAT(ex.violations[0].doc, Catch::Contains("9.7.18.6.1"));
    CHECK_THAT(ex.violations[0].evidence, Catch::StartsWith("cycle"));
    bool highlighted = false;
    for (const auto& e : ex.violations[0].closest.edges)
        highlighted = highlighted || e.highlight;
    CHECK(highlighted);
}

TEST_CASE("without after_thread_sync the stale read has a witness execution", "[explain]") {
    auto ex = explainFile("tcgen05/commit/L16-MP+commit-nofa.litmus");
    REQUIRE(ex.kind == Explanation::Kind::Allowed);
    bool staleRead = false;
    for (const auto& n : ex.witness.nodes)
        staleRead = staleRead || (n.label.find("tcgen05.ld (read") == 0 && n.value == 0);
    CHECK(staleRead);
    CHECK_THAT(report::toDot(ex.witness), Catch::Contains("digraph witness"));
}

TEST_CASE("message passing: the stale read is forbidden by Causality alone", "[explain]") {
    auto ex = explainFile("ptx/classic/MP+rel+acq.gpu.litmus");
    REQUIRE(ex.kind == Explanation::Kind::Forbidden);
    CHECK(axiomNames(ex) == std::vector<std::string>{"Causality"});
}

TEST_CASE("an explicit outcome the program cannot produce needs no axiom", "[explain]") {
    auto ex = explainFile("tcgen05/commit/L17-MP+commit+fa.litmus", "P1:r0=12345");
    REQUIRE(ex.kind == Explanation::Kind::Forbidden);
    CHECK(ex.violations.empty());
}

TEST_CASE("a deadlocked test names the wait that never succeeds", "[explain]") {
    auto ex = explainFile("tcgen05/cta-pair/L27-cg2-multicast-commit-mask01.litmus");
    REQUIRE(ex.kind == Explanation::Kind::Deadlock);
    REQUIRE(ex.blocked.size() == 1);
    REQUIRE(ex.blocked[0].wait);
    CHECK_THAT(ex.blocked[0].wait->text, Catch::StartsWith("mbarrier.try_wait"));
    CHECK(ex.blocked[0].wait->thread == 1);
}

TEST_CASE("outcomes must name observed values", "[explain]") {
    REQUIRE_THROWS_AS(explainFile("tcgen05/commit/L17-MP+commit+fa.litmus", "P7:r9=1"), InputError);
    REQUIRE_THROWS_AS(explainFile("tcgen05/commit/L17-MP+commit+fa.litmus", "P1:r0=abc"),
                      InputError);
}

// The fix search asks reachable() first and the minimal axioms only where it says no: the two
// must agree, or a fix would be missed (reachable wrongly true) or cost a whole explanation.
// [corpus]: three corpus folders, each test checked four ways (62 s under ASan, the longest unit
// test there); the cli/explain cases sanitize the same calls.
TEST_CASE("reachable agrees with the forbidding axioms and with the check's flags",
          "[explain][corpus]") {
    const std::string root = std::string(PTXMC_SOURCE_DIR) + "/litmus/";
    std::size_t reached = 0, forbidden = 0, flagged = 0;
    for (const char* folder : {"async/mbarrier", "async/proxy", "tcgen05/commit"}) {
        std::vector<std::filesystem::path> files;
        for (const auto& entry : std::filesystem::directory_iterator(root + folder))
            if (entry.path().extension() == ".litmus") files.push_back(entry.path());
        std::sort(files.begin(), files.end());
        for (const auto& file : files) {
            INFO(file.string());
            const ir::Program p = lower::lowerTest(litmus::parseLitmusFile(file.string()));
            if (p.events.size() > 16) continue;
            const engine::CheckOptions options;
            const auto& model = testing::builtinModel();
            const bool reaches = engine::explain::reachable(p, model, std::nullopt, "", options);
            const bool axioms =
                engine::explain::forbiddingAxioms(p, model, std::nullopt, options).has_value();
            const engine::CheckResult r = engine::check(p, model, options);
            // Where every execution blocks, neither holds: the search then checks whole.
            const bool completes = r.observation != engine::Observation::Deadlock;
            CHECK(!(reaches && axioms));
            if (completes && p.cuts.empty()) CHECK(reaches != axioms);
            (reaches ? reached : forbidden) += 1;
            for (const std::string flag : {"data-race", "mbarrier-misuse", "tmem-race"}) {
                bool raised = false;
                for (const auto& f : r.flags)
                    raised = raised || f.name == flag;
                INFO(flag);
                const bool flagReached =
                    engine::explain::reachable(p, model, std::nullopt, flag, options);
                CHECK((!flagReached || raised));
                if (completes) CHECK(flagReached == raised);
                flagged += raised;
            }
        }
    }
    // Both answers occur, so the test can fail either way.
    CHECK(reached > 5);
    CHECK(forbidden > 5);
    CHECK(flagged > 3);
}
