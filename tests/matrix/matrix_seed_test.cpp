// The seed-guide check: its claimed syntax is rejected, the corrected syntax accepted.
#include "matrix/SeedCheck.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <set>

using namespace ptxmc::matrix;

TEST_CASE("each claimed syntax is rejected and its correction accepted", "[matrix][seed]") {
    std::set<std::string> ids;
    for (const SyntaxClaim& c : syntaxClaims()) {
        INFO(c.id << "\n" << c.test.text());
        CHECK(ids.insert(c.id).second);
        CHECK_FALSE(frontEndError(c.test).empty());
        INFO(c.fixed.text());
        CHECK(frontEndError(c.fixed).empty());
    }
}

TEST_CASE("known syntax verdicts", "[matrix][seed]") {
    auto errorOf = [](const std::string& id) {
        for (const SyntaxClaim& c : syntaxClaims())
            if (c.id == id) return frontEndError(c.test);
        FAIL("no claim " << id);
        return std::string();
    };
    CHECK_THAT(errorOf("wait.ld-operand"), Catch::Contains("takes no operands"));
    CHECK_THAT(errorOf("cta_group-4"), Catch::Contains("cta_group::4 does not exist"));
    CHECK_THAT(errorOf("ld-smem"), Catch::Contains("tensor memory into registers"));
    CHECK_THAT(errorOf("commit-no-arrive"), Catch::Contains(".mbarrier::arrive::one"));
}

TEST_CASE("the seed's dependency matrix as transcribed", "[matrix][seed]") {
    CHECK(seedMatrixOps().size() == 10);
    CHECK(seedMark("mma", "mma") == "✅");
    CHECK(seedMark("shift", "cp") == "✅");
    CHECK(seedMark("ld", "wait::ld") == "✅");
    CHECK(seedMark("st", "dealloc") == "❓");
    CHECK(seedMark("commit", "alloc") == "❌");
    CHECK(modelOpsOf("cp") == std::vector<Op>{Op::Cp128, Op::Cp4});
    CHECK(modelOpsOf("wait::st") == std::vector<Op>{Op::WaitSt});
}

TEST_CASE("every behaviour claim names a corpus test", "[matrix][seed]") {
    std::filesystem::path corpus = std::filesystem::path(PTXMC_SOURCE_DIR) / "litmus";
    for (const BehaviourClaim& c : behaviourClaims()) {
        INFO(c.test);
        CHECK(std::filesystem::is_regular_file(corpus / c.test));
        CHECK((c.holdsIf == "Never" || c.holdsIf == "Sometimes" || c.holdsIf == "Always"));
    }
}
