// Known cells of the reordering tables, checked with the engine under the built-in models.
#include "cat/Loader.hpp"
#include "cat/Resolver.hpp"
#include "check/Check.hpp"
#include "engine/StaticRelations.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"
#include "matrix/Cells.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;
using namespace ptxmc::matrix;
using engine::Observation;

namespace {

const cat::ResolvedModel& model(const std::string& name = "tcgen05.cat") {
    static std::map<std::string, std::shared_ptr<const cat::ResolvedModel>> cache;
    auto& m = cache[name];
    if (!m) m = cat::resolveModel(cat::loadBuiltinModel(name));
    return *m;
}

// The model's relations, as `ptxmc matrix` gives them to the cells.
ModelRelation relations(const std::string& name = "tcgen05.cat") {
    return [&m = model(name)](const ir::Program& p, const std::string& rel) {
        return engine::staticRelation(p, m, rel);
    };
}

Cell cell(Op a, Op b, Sync s, const std::string& modelName = "tcgen05.cat") {
    return makeCell(a, b, s, relations(modelName));
}

// The observation of the cell's "B before A" condition: Never means ordered.
Observation observe(Op a, Op b, Sync s, const std::string& modelName = "tcgen05.cat") {
    Cell c = cell(a, b, s, modelName);
    INFO(c.id);
    REQUIRE(c.test);
    litmus::Test t = litmus::parseLitmus(c.test->text(), c.id + ".litmus");
    return engine::check(lower::lowerTest(t), model(modelName), engine::CheckOptions{}).observation;
}

// The 9.0/9.1 pipelined pairs (decision Q13)
const std::string q13 = "variants/q13-pipeline-9-1-pairs.cat";

} // namespace

TEST_CASE("mma -> mma with the same accumulator is ordered with nothing between (P1)", "[matrix]") {
    CHECK(observe(Op::Mma, Op::Mma, Sync::None) == Observation::Never);
    CHECK(observe(Op::Mma, Op::MmaAcc, Sync::None) == Observation::Sometimes);
    CHECK(observe(Op::Mma, Op::MmaShape, Sync::None) == Observation::Sometimes);
    CHECK(observe(Op::Mma, Op::MmaKind, Sync::None) == Observation::Sometimes);
}

TEST_CASE("the pipelined pairs come from the model", "[matrix]") {
    // the second mma reads as C what the first wrote as D: 9.4's pair 5
    Cell acc = cell(Op::Mma, Op::Mma, Sync::None);
    CHECK(acc.pair == "P5");
    CHECK(acc.rule == "pipelined");
    CHECK(acc.textReading == Verdict::Ordered);
    for (Op b : {Op::MmaAcc, Op::MmaShape, Op::MmaKind}) {
        Cell c = cell(Op::Mma, b, Sync::None);
        INFO(c.id);
        CHECK(c.pair.empty());
        CHECK(c.rule == "async");
        CHECK(c.textReading == Verdict::MayReorder);
    }
    CHECK(cell(Op::Cp128, Op::Mma, Sync::None).pair == "P7");
    CHECK(cell(Op::Shift, Op::Mma, Sync::Commit).pair == "P9");
    CHECK(cell(Op::Shift, Op::Cp4, Sync::None).pair == "P10");
    CHECK(cell(Op::Shift, Op::Cp128, Sync::None).pair.empty());
    CHECK(cell(Op::St, Op::Ld, Sync::None).pair == "P11");
    CHECK(cell(Op::St, Op::St, Sync::None).pair == "P12");
    CHECK(cell(Op::Ld, Op::St, Sync::None).pair == "P13");
    CHECK(cell(Op::Ld, Op::Mma, Sync::None).pair.empty());
    // "Instructions issued by different warps are always non-pipelined" (9.4)
    CHECK(cell(Op::Cp128, Op::Mma, Sync::Flag).pair.empty());
    CHECK(cell(Op::Mma, Op::Shift, Sync::Bar).pair.empty());
    // no test of its own (no wait for mma), but still the pair
    Cell noTest = cell(Op::Mma, Op::Mma, Sync::Wait);
    CHECK_FALSE(noTest.test);
    CHECK(noTest.pair == "P5");
}

TEST_CASE("under the 9.0/9.1 pairs (variant q13) other pairs, also across threads", "[matrix]") {
    CHECK(cell(Op::Cp128, Op::Mma, Sync::Flag, q13).pair == "P7");
    CHECK(cell(Op::Mma, Op::Shift, Sync::None, q13).pair == "pipelined"); // no 9.4 pair names it
    CHECK(cell(Op::Ld, Op::St, Sync::None, q13).pair.empty());
    CHECK(cell(Op::St, Op::St, Sync::None, q13).pair.empty());
}

TEST_CASE("what a commit tracks comes from the model", "[matrix]") {
    CHECK(cell(Op::Cp128, Op::Commit, Sync::None).textReading == Verdict::Ordered);
    // the probe after the commit (a ld of A's cell) is pipelined with the st (9.4's pair 11)
    Cell stCommit = cell(Op::St, Op::Commit, Sync::None);
    CHECK(stCommit.textReading == Verdict::Ordered);
    CHECK(stCommit.rule == "pipelined");
    CHECK(cell(Op::St, Op::Commit, Sync::None, q13).textReading == Verdict::MayReorder);
    CHECK(cell(Op::Mma, Op::Ld, Sync::Commit).rule == "inter-thread");
    CHECK(cell(Op::Ld, Op::St, Sync::Commit).rule == "pipelined");
    CHECK(cell(Op::Ld, Op::St, Sync::Commit, q13).rule == "mbarrier-completion");
    CHECK(cell(Op::Shift, Op::Ld, Sync::CommitFa).rule == "non-pipelined-same-thread");
    CHECK(cell(Op::Mma, Op::Ld, Sync::CommitFa).rule == "non-pipelined-same-thread");
}

TEST_CASE("under variant q4 the accumulator pair holds whatever the kind", "[matrix]") {
    const std::string q4 = "variants/q4-kind-not-required.cat";
    Cell kind = cell(Op::Mma, Op::MmaKind, Sync::None, q4);
    CHECK(kind.pair == "P5");
    CHECK(kind.rule == "pipelined");
    CHECK(kind.textReading == Verdict::Ordered);
    CHECK(cell(Op::Mma, Op::MmaShape, Sync::None, q4).pair.empty());
}

TEST_CASE("mma -> ld needs commit, mbarrier wait and after_thread_sync", "[matrix]") {
    CHECK(observe(Op::Mma, Op::Ld, Sync::None) == Observation::Sometimes);
    CHECK(observe(Op::Mma, Op::Ld, Sync::Commit) == Observation::Sometimes);
    CHECK(observe(Op::Mma, Op::Ld, Sync::CommitFa) == Observation::Never);
}

TEST_CASE("ld -> st: pipelined under 9.4, ordered only by wait::ld under the 9.1 pairs",
          "[matrix]") {
    CHECK(observe(Op::Ld, Op::St, Sync::None) == Observation::Never);
    CHECK(observe(Op::Ld, Op::St, Sync::None, q13) == Observation::Sometimes);
    CHECK(observe(Op::Ld, Op::St, Sync::Wait, q13) == Observation::Never);
    // commit tracks no ld, even with the fence after the wait
    CHECK(observe(Op::Ld, Op::St, Sync::CommitFa, q13) == Observation::Sometimes);
}

TEST_CASE("P4 holds only for cp.4x256b", "[matrix]") {
    CHECK(observe(Op::Shift, Op::Cp4, Sync::None) == Observation::Never);
    CHECK(observe(Op::Shift, Op::Cp128, Sync::None) == Observation::Sometimes);
}

TEST_CASE("the completion columns: which wait waits for what", "[matrix]") {
    CHECK(observe(Op::St, Op::WaitSt, Sync::None) == Observation::Never);
    CHECK(observe(Op::St, Op::WaitLd, Sync::None, q13) == Observation::Sometimes);
    CHECK(observe(Op::Cp128, Op::Commit, Sync::None) == Observation::Never);
    CHECK(observe(Op::St, Op::Commit, Sync::None, q13) == Observation::Sometimes);
}

TEST_CASE("across threads: no pipeline under 9.4, both fences under the 9.1 pairs", "[matrix]") {
    for (Sync s : {Sync::Mbar, Sync::Bar, Sync::Flag}) {
        CHECK(observe(Op::Cp128, Op::Mma, s) == Observation::Sometimes);
        CHECK(observe(Op::Cp128, Op::Mma, s, q13) == Observation::Never);
    }
    CHECK(observe(Op::Cp128, Op::Mma, Sync::MbarNoFb, q13) == Observation::Sometimes);
    CHECK(observe(Op::Cp128, Op::Mma, Sync::MbarNoFa, q13) == Observation::Sometimes);
    // not pipelined: the producer must wait for completion first
    CHECK(observe(Op::Ld, Op::Mma, Sync::Mbar) == Observation::Sometimes);
    CHECK(observe(Op::Ld, Op::Mma, Sync::Completion) == Observation::Never);
}

TEST_CASE("under variant q4 the kind does not matter for P1", "[matrix]") {
    CHECK(observe(Op::Mma, Op::MmaKind, Sync::None, "variants/q4-kind-not-required.cat") ==
          Observation::Never);
}

// The literal reading the generator cites for each cell is the default model's reading.
TEST_CASE("the default model agrees with the cited rule on every cell", "[matrix][corpus]") {
    for (const Cell& c : allCells(relations())) {
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
