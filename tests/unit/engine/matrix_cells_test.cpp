// Known cells of the reordering tables, checked with the engine under the built-in models.
#include "cat/Loader.hpp"
#include "cat/Resolver.hpp"
#include "engine/Check.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"
#include "matrix/Cells.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;
using namespace ptxmc::matrix;
using report::Observation;

namespace {

const cat::ResolvedModel& model(const std::string& name = "tcgen05.cat") {
    static std::map<std::string, std::shared_ptr<const cat::ResolvedModel>> cache;
    auto& m = cache[name];
    if (!m) m = cat::resolveModel(cat::loadBuiltinModel(name));
    return *m;
}

// The observation of the cell's "B before A" condition: Never means ordered.
Observation observe(Op a, Op b, Sync s, const std::string& modelName = "tcgen05.cat") {
    Cell c = makeCell(a, b, s);
    INFO(c.id);
    REQUIRE(c.test);
    litmus::Test t = litmus::parseLitmus(c.test->text(), c.id + ".litmus");
    return engine::check(lower::lowerTest(t), model(modelName), engine::CheckOptions{}).observation;
}

} // namespace

TEST_CASE("mma -> mma with the same accumulator is ordered with nothing between (P1)", "[matrix]") {
    CHECK(observe(Op::Mma, Op::Mma, Sync::None) == Observation::Never);
    CHECK(observe(Op::Mma, Op::MmaAcc, Sync::None) == Observation::Sometimes);
    CHECK(observe(Op::Mma, Op::MmaShape, Sync::None) == Observation::Sometimes);
    CHECK(observe(Op::Mma, Op::MmaKind, Sync::None) == Observation::Sometimes);
}

TEST_CASE("mma -> ld needs commit, mbarrier wait and after_thread_sync", "[matrix]") {
    CHECK(observe(Op::Mma, Op::Ld, Sync::None) == Observation::Sometimes);
    CHECK(observe(Op::Mma, Op::Ld, Sync::Commit) == Observation::Sometimes);
    CHECK(observe(Op::Mma, Op::Ld, Sync::CommitFa) == Observation::Never);
}

TEST_CASE("ld -> st is ordered by wait::ld", "[matrix]") {
    CHECK(observe(Op::Ld, Op::St, Sync::None) == Observation::Sometimes);
    CHECK(observe(Op::Ld, Op::St, Sync::Wait) == Observation::Never);
    // commit tracks no ld, even with the fence after the wait
    CHECK(observe(Op::Ld, Op::St, Sync::CommitFa) == Observation::Sometimes);
}

TEST_CASE("P4 holds only for cp.4x256b", "[matrix]") {
    CHECK(observe(Op::Shift, Op::Cp4, Sync::None) == Observation::Never);
    CHECK(observe(Op::Shift, Op::Cp128, Sync::None) == Observation::Sometimes);
}

TEST_CASE("the completion columns: which wait waits for what", "[matrix]") {
    CHECK(observe(Op::St, Op::WaitSt, Sync::None) == Observation::Never);
    CHECK(observe(Op::St, Op::WaitLd, Sync::None) == Observation::Sometimes);
    CHECK(observe(Op::Cp128, Op::Commit, Sync::None) == Observation::Never);
    CHECK(observe(Op::St, Op::Commit, Sync::None) == Observation::Sometimes);
}

TEST_CASE("across threads a pipelined pair needs both fences", "[matrix]") {
    CHECK(observe(Op::Cp128, Op::Mma, Sync::Mbar) == Observation::Never);
    CHECK(observe(Op::Cp128, Op::Mma, Sync::Bar) == Observation::Never);
    CHECK(observe(Op::Cp128, Op::Mma, Sync::Flag) == Observation::Never);
    CHECK(observe(Op::Cp128, Op::Mma, Sync::MbarNoFb) == Observation::Sometimes);
    CHECK(observe(Op::Cp128, Op::Mma, Sync::MbarNoFa) == Observation::Sometimes);
    // not pipelined: the producer must wait for completion first
    CHECK(observe(Op::Ld, Op::Mma, Sync::Mbar) == Observation::Sometimes);
    CHECK(observe(Op::Ld, Op::Mma, Sync::Completion) == Observation::Never);
}

TEST_CASE("under variant q4 the kind does not matter for P1", "[matrix]") {
    CHECK(observe(Op::Mma, Op::MmaKind, Sync::None, "variants/q4-kind-not-required.cat") ==
          Observation::Never);
}

// The literal reading the generator cites for each cell is the default model's reading.
TEST_CASE("the default model agrees with the cited rule on every cell", "[matrix]") {
    for (const Cell& c : allCells()) {
        if (!c.test) continue;
        INFO(c.id);
        litmus::Test t = litmus::parseLitmus(c.test->text(), c.id + ".litmus");
        Observation o =
            engine::check(lower::lowerTest(t), model(), engine::CheckOptions{}).observation;
        CHECK((o == Observation::Never ? Verdict::Ordered : Verdict::MayReorder) == c.textReading);
        CHECK(o != Observation::Deadlock);
        CHECK(o != Observation::Unknown);
    }
}
