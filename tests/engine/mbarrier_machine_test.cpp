// The mbarrier state machine (engine/MbarrierMachine.hpp) run directly in the concrete algebra.
#include "engine/MbarrierMachine.hpp"
#include "ir/ValueSemantics.hpp"

#include <catch2/catch.hpp>
#include <vector>

using namespace ptxmc;
using ir::ConcreteValues;
namespace mb = engine::mbarrier;

namespace {

using State = mb::State<ConcreteValues>;
constexpr ConcreteValues values{};

ir::Event op(ir::MbOp kind, std::int64_t amount = 0) {
    ir::Event e;
    e.mbOp = kind;
    e.mbAmount = amount;
    return e;
}

ir::Event parityWait(std::int64_t parity) {
    ir::Event e = op(ir::MbOp::Wait);
    e.mbParity = ir::Value::makeConst(parity);
    return e;
}

ir::Event tokenWait(std::int64_t token) {
    ir::Event e = op(ir::MbOp::Wait);
    e.mbToken = ir::Value::makeConst(token);
    return e;
}

/** A barrier the test's setup initialised with `count` (0: uninitialised). */
State fresh(std::int64_t count) {
    ir::Location cell;
    cell.mbCount = count;
    return mb::initial(values, cell);
}

/** Applies the operations in order, collecting the ones that are undefined behaviour. */
State run(State s, const std::vector<ir::Event>& ops, std::vector<std::size_t>* bad = nullptr) {
    for (std::size_t i = 0; i < ops.size(); ++i) {
        auto step = mb::apply(values, s, ops[i]);
        if (bad &&
            mb::misuse<ConcreteValues>(ops[i], s.valid, step.pendingAfterArrival, step.countMisuse))
            bad->push_back(i);
        s = step.after;
    }
    return s;
}

bool passes(const ir::Event& wait, const State& s) {
    return mb::waitCondition(values, wait, s.phase, s.valid, [&] {
        return (wait.mbParity ? wait.mbParity : wait.mbToken)->constant;
    });
}

} // namespace

TEST_CASE("init sets the expected count and starts phase 0", "[mbarrier]") {
    State s = run(fresh(0), {op(ir::MbOp::Init, 3)});
    REQUIRE(s.valid);
    REQUIRE(s.phase == 0);
    REQUIRE(s.pending == 3);
    REQUIRE(s.expected == 3);
    REQUIRE(s.tx == 0);
    REQUIRE(s.stamp == 1);
}

TEST_CASE("the last expected arrival completes the phase and rearms the count", "[mbarrier]") {
    State s = run(fresh(2), {op(ir::MbOp::Arrive)});
    REQUIRE(s.phase == 0);
    REQUIRE(s.pending == 1);
    s = run(s, {op(ir::MbOp::Arrive)});
    REQUIRE(s.phase == 1);
    REQUIRE(s.pending == 2);
    REQUIRE(s.stamp == 1);
}

TEST_CASE("a pending tx-count holds the phase open until complete_tx", "[mbarrier]") {
    State s = run(fresh(1), {op(ir::MbOp::ExpectTx, 64), op(ir::MbOp::Arrive)});
    REQUIRE(s.phase == 0);
    REQUIRE(s.pending == 0);
    REQUIRE(s.tx == 64);
    s = run(s, {op(ir::MbOp::CompleteTx, 32)});
    REQUIRE(s.phase == 0);
    s = run(s, {op(ir::MbOp::CompleteTx, 32)});
    REQUIRE(s.phase == 1);
    REQUIRE(s.pending == 1);
}

TEST_CASE("arrive.expect_tx raises the tx-count before its arrival counts", "[mbarrier]") {
    State s = run(fresh(1), {op(ir::MbOp::Arrive, 16)});
    REQUIRE(s.phase == 0);
    REQUIRE(s.tx == 16);
    s = run(s, {op(ir::MbOp::CompleteTx, 16)});
    REQUIRE(s.phase == 1);
}

TEST_CASE("parity waits pass once the phase of that parity completed", "[mbarrier]") {
    State s = fresh(1);
    REQUIRE_FALSE(passes(parityWait(0), s)); // phase 0 still running
    REQUIRE(passes(parityWait(1), s));       // the phase before 0 counts as completed
    s = run(s, {op(ir::MbOp::Arrive)});
    REQUIRE(passes(parityWait(0), s));
    REQUIRE_FALSE(passes(parityWait(1), s));
    s = run(s, {op(ir::MbOp::Arrive)}); // wrapped: phase 2 has parity 0 again
    REQUIRE(s.phase == 2);
    REQUIRE_FALSE(passes(parityWait(0), s));
    REQUIRE(passes(parityWait(1), s));
    REQUIRE_FALSE(passes(parityWait(1), fresh(0))); // an uninitialised object never passes
}

TEST_CASE("token waits pass once the token's phase completed", "[mbarrier]") {
    State s = fresh(1);
    REQUIRE_FALSE(passes(tokenWait(0), s));
    s = run(s, {op(ir::MbOp::Arrive)});
    REQUIRE(passes(tokenWait(0), s));
    REQUIRE_FALSE(passes(tokenWait(1), s));
}

TEST_CASE("misuse: uninitialised use, re-init, arrivals beyond the count", "[mbarrier]") {
    std::vector<std::size_t> bad;
    run(fresh(0), {op(ir::MbOp::Arrive), op(ir::MbOp::Init, 1), op(ir::MbOp::Init, 1)}, &bad);
    REQUIRE(bad == std::vector<std::size_t>{0, 2});
    bad.clear();
    // the tx-count holds the phase open, so a second arrival on a count of 1 overshoots
    run(fresh(1), {op(ir::MbOp::ExpectTx, 8), op(ir::MbOp::Arrive), op(ir::MbOp::Arrive)}, &bad);
    REQUIRE(bad == std::vector<std::size_t>{2});
}

TEST_CASE("misuse: more bytes completed than expected once every arrival is in", "[mbarrier]") {
    std::vector<std::size_t> bad;
    // expect 8, complete 16: the complete-tx passes zero with no arrival pending
    State s = run(fresh(1), {op(ir::MbOp::Arrive, 8), op(ir::MbOp::CompleteTx, 16)}, &bad);
    REQUIRE(bad == std::vector<std::size_t>{1});
    REQUIRE(s.phase == 0); // and the phase never completes
    REQUIRE(s.tx == -8);
    // the copy first: the arrival that follows leaves -8 with nothing pending
    bad.clear();
    run(fresh(1), {op(ir::MbOp::CompleteTx, 16), op(ir::MbOp::Arrive, 8)}, &bad);
    REQUIRE(bad == std::vector<std::size_t>{1});
    // a copy that completes before the arrive announcing it, while that arrival is pending: the
    // tx-count is set to the total before the phase can complete
    bad.clear();
    s = run(fresh(1), {op(ir::MbOp::CompleteTx, 16), op(ir::MbOp::Arrive, 16)}, &bad);
    REQUIRE(bad.empty());
    REQUIRE(s.phase == 1);
    // expecting too much is no misuse: the phase just never completes
    run(fresh(1), {op(ir::MbOp::Arrive, 32), op(ir::MbOp::CompleteTx, 16)}, &bad);
    REQUIRE(bad.empty());
}

TEST_CASE("stale tokens: only the current or the preceding phase", "[mbarrier]") {
    REQUIRE_FALSE(mb::staleToken(values, 3, ConcreteValues::word(3)));
    REQUIRE_FALSE(mb::staleToken(values, 3, ConcreteValues::word(2)));
    REQUIRE(mb::staleToken(values, 3, ConcreteValues::word(1)));
    REQUIRE(mb::staleToken(values, 3, ConcreteValues::word(4)));
}

TEST_CASE("phase rule: an arrive of a later phase needs an observing wait", "[mbarrier]") {
    REQUIRE_FALSE(mb::unobservedArrive<ConcreteValues>(true, 0, false)); // first phase: free
    REQUIRE(mb::unobservedArrive<ConcreteValues>(true, 1, false));
    bool observed = mb::observes<ConcreteValues>(true, true, true, 1, 1);
    REQUIRE(observed);
    REQUIRE_FALSE(mb::unobservedArrive<ConcreteValues>(true, 1, observed));
    REQUIRE_FALSE(mb::observes<ConcreteValues>(true, false, true, 1, 1)); // wait returned False
    REQUIRE_FALSE(mb::observes<ConcreteValues>(true, true, false, 1, 1)); // wait came after
    REQUIRE_FALSE(mb::observes<ConcreteValues>(true, true, true, 0, 1));  // an earlier phase
    REQUIRE_FALSE(mb::unobservedArrive<ConcreteValues>(false, 1, false)); // never happens
}

TEST_CASE("the conditional phase lags the primary one by the phases a report-on held back",
          "[engine][mbarrier]") {
    using Reports = std::vector<mb::ReportOn<ConcreteValues>>;
    // An init (stamp 1), then phases 0, 1, 2 and 3 completed (stamps 1..4 are their instances):
    // copies reported in phases 1 and 2 (two in phase 2), none in 0 and 3; one copy of phase 0
    // did not match. An operation now falls in instance 5, primary phase 4.
    const Reports reports{{false, 1}, {true, 2}, {true, 3}, {true, 3}};
    CHECK(mb::reportedPhases(values, reports, 5, 4) == 2); // phases 1 and 2, each once
    CHECK(mb::conditionalPhase(values, reports, 5, 4) == 2);
    CHECK(mb::trailingReported(values, reports, 5, 4) == 0); // phase 3 reported nothing
    CHECK_FALSE(mb::observedReport(values, reports, 5, 4));
    // After phase 2 (instance 4 current, primary phase 3): phases 1 and 2 reported, in a row.
    CHECK(mb::conditionalPhase(values, reports, 4, 3) == 1);
    CHECK(mb::trailingReported(values, reports, 4, 3) == 2);
    CHECK(mb::observedReport(values, reports, 4, 3));
    // Instances before the last init do not count: a re-init at stamp 3 leaves phase 0 there.
    CHECK(mb::reportedPhases(values, reports, 3, 0) == 0);
    CHECK_FALSE(mb::observedReport(values, reports, 3, 0));
    // With no report-on the conditional phase is the primary one.
    CHECK(mb::conditionalPhase(values, Reports{}, 5, 4) == 4);
}

TEST_CASE("a conditional wait observes the arrivals up to the conditional phase's last advance",
          "[engine][mbarrier]") {
    using Reports = std::vector<mb::ReportOn<ConcreteValues>>;
    ir::Event conditional = parityWait(0);
    conditional.mbConditional = true;
    const ir::Event primary = parityWait(0);
    // Phase 0 (instance 1) reported nothing, phase 1 (instance 2) reported: primary phase 2.
    const Reports reports{{false, 1}, {true, 2}};
    CHECK(mb::observedPhase(values, primary, reports, 3, 2) == 2);
    CHECK(mb::observedPhase(values, conditional, reports, 3, 2) == 1);
    // The arrive of phase 1 is observed by the primary wait only.
    CHECK(mb::observedBy<ConcreteValues>(true, true, 1, 2));
    CHECK_FALSE(mb::observedBy<ConcreteValues>(true, true, 1, 1));
}
