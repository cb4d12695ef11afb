// The reordering-table generator: every test parses and lowers, and ids are unique and stable.
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"
#include "matrix/Cells.hpp"
#include "matrix/Rules.hpp"

#include <catch2/catch.hpp>
#include <set>

using namespace ptxmc;
using namespace ptxmc::matrix;

namespace {

// A model in which no relation holds: generation does not depend on the model, only the
// classification does (the real model's pairs: tests/matrix/matrix_cells_test.cpp).
std::vector<std::pair<int, int>> noPairs(const ir::Program&, const std::string&) {
    return {};
}

} // namespace

TEST_CASE("every generated matrix test parses and lowers", "[matrix]") {
    std::vector<Cell> cells = allCells(noPairs);
    REQUIRE(cells.size() > 100);
    std::set<std::string> ids;
    for (const Cell& c : cells) {
        INFO(c.id);
        CHECK(ids.insert(c.id).second);
        CHECK_NOTHROW(rule(c.rule));
        CHECK(c.test.has_value() == c.reason.empty());
        if (!c.test) continue;
        CHECK(c.test->name == c.id);
        std::string text = c.test->text();
        INFO(text);
        litmus::Test t = litmus::parseLitmus(text, c.id + ".litmus");
        CHECK_NOTHROW(lower::lowerTest(t));
    }
}

TEST_CASE("generation is deterministic", "[matrix]") {
    std::vector<Cell> first = allCells(noPairs), second = allCells(noPairs);
    REQUIRE(first.size() == second.size());
    for (std::size_t i = 0; i < first.size(); ++i) {
        CHECK(first[i].id == second[i].id);
        if (first[i].test) CHECK(first[i].test->text() == second[i].test->text());
    }
}

TEST_CASE("mma then mma with the same accumulator", "[matrix]") {
    Cell c = makeCell(Op::Mma, Op::Mma, Sync::None, noPairs);
    REQUIRE(c.test);
    std::string text = c.test->text();
    CHECK_THAT(text, Catch::Contains("tcgen05.mma.cta_group::1.kind::f16 [t], [a], [b], I0, 0"));
    CHECK_THAT(text, Catch::Contains("tcgen05.mma.cta_group::1.kind::f16 [t], [a], [b], I0, 1"));
    // In program order t = 2*3 then t += 2*3.
    CHECK(c.test->condition == "exists (~(t == 12))");
}

TEST_CASE("cells with nothing to observe say why", "[matrix]") {
    CHECK_FALSE(notApplicableReason(Op::Ld, Op::Ld).empty());
    CHECK_FALSE(notApplicableReason(Op::WaitLd, Op::Mma).empty());
    CHECK_FALSE(notApplicableReason(Op::Alloc, Op::Ld).empty());
    CHECK_FALSE(notApplicableReason(Op::St, Op::Dealloc).empty());
    CHECK(notApplicableReason(Op::Ld, Op::St).empty());
    Cell c = makeCell(Op::Mma, Op::Ld, Sync::Wait, noPairs);
    CHECK_FALSE(c.reason.empty()); // no wait for mma exists
    CHECK_FALSE(c.test);
}

TEST_CASE("two-thread cells put A in P0 and B in P1", "[matrix]") {
    Cell c = makeCell(Op::Cp128, Op::Mma, Sync::Flag, noPairs);
    CHECK(c.twoThreads);
    REQUIRE(c.test);
    REQUIRE(c.test->threads.size() == 2);
    CHECK_THAT(c.test->threads[0].front(), Catch::StartsWith("tcgen05.cp"));
    CHECK_THAT(c.test->threads[1].back(), Catch::StartsWith("tcgen05.mma"));
    // The reordering only counts when the consumer saw the flag.
    CHECK_THAT(c.test->condition, Catch::StartsWith("exists (P1:r0 == 1 /\\ ~("));
}
