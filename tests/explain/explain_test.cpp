// Explanations: witnesses for allowed outcomes, minimal named axioms for forbidden ones.
#include "../unit/BuiltinModel.hpp"
#include "cat/Loader.hpp"
#include "cat/Resolver.hpp"
#include "explain/Explanation.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"
#include "report/WitnessText.hpp"

#include <catch2/catch.hpp>

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
