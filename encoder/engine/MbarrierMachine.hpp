// The mbarrier object's state machine, written once over a value algebra.
#pragma once

#include "ir/Program.hpp"

#include <vector>

namespace ptxmc::engine::mbarrier {

/**
 * An mbarrier object between two operations. `stamp` counts phase completions and inits: it
 * names the phase instance an operation falls in (the phase number alone restarts at init).
 */
template <class V> struct State {
    typename V::Int phase, pending, expected, tx, stamp;
    typename V::Bool valid; ///< initialised
};

/** The object before its first operation: initialised by the test's setup when mbCount > 0. */
template <class V> State<V> initial(const V& v, const ir::Location& cell) {
    auto count = v.num(cell.mbCount);
    return {v.num(0), count, count, v.num(0), v.num(0), v.truth(cell.mbCount > 0)};
}

/** One operation's effect: the state after it, and the pending count an arrival left. */
template <class V> struct Step {
    State<V> after;
    typename V::Int pendingAfterArrival; ///< Arrive only: before a completion resets it
    /// Arrive only: undefined by its counts, an arrive_drop that leaves no expected arrival
    /// ({MbarrierArriveDrop}) or a .noComplete arrive that completes the phase ({MbarrierArrive})
    typename V::Bool countMisuse;
};

/** Whether `e` changes the object: every operation but a wait and a query (check_layout). */
inline bool changesObject(const ir::Event& e) {
    return e.mbOp != ir::MbOp::Wait && e.mbOp != ir::MbOp::Query && e.mbOp != ir::MbOp::None;
}

/** Arrivals and completed transactions are what can complete a phase ({MbarrierPhaseCompletion}).
 */
inline bool mayComplete(const ir::Event& e) {
    return e.mbOp == ir::MbOp::Arrive || e.mbOp == ir::MbOp::CompleteTx;
}

/** Applies operation `e` to `s`. Waits change nothing: they only observe the phase. */
template <class V> Step<V> apply(const V& v, const State<V>& s, const ir::Event& e) {
    State<V> n = s;
    auto amount = v.num(e.mbAmount);
    switch (e.mbOp) {
    case ir::MbOp::Init: // {MbarrierInit}: phase 0, expected count from the operand, tx-count 0
        n.phase = v.num(0);
        n.pending = amount;
        n.expected = amount;
        n.tx = v.num(0);
        n.valid = v.truth(true);
        n.stamp = s.stamp + 1;
        break;
    case ir::MbOp::Arrive: // {MbarrierArrive}: .expect_tx raises tx-count, then the arrivals count
        n.tx = s.tx + amount;
        n.pending = s.pending - v.num(e.mbArrivals);
        // {MbarrierArriveDrop}: arrive_drop first lowers the expected count of the next phases.
        if (e.mbDrop) n.expected = s.expected - v.num(e.mbArrivals);
        break;
    case ir::MbOp::Increment: // {CpAsyncMbarrierArrive}: cp.async.mbarrier.arrive without .noinc
        n.pending = s.pending + 1;
        break;
    case ir::MbOp::Inval: // {MbarrierInval}: the object is no longer an mbarrier
        n.valid = v.truth(false);
        break;
    case ir::MbOp::ExpectTx: // {MbarrierExpectTx}
        n.tx = s.tx + amount;
        break;
    case ir::MbOp::CompleteTx: // {MbarrierCompleteTx}: async copies completing bytes
        n.tx = s.tx - amount;
        break;
    case ir::MbOp::Wait:
    case ir::MbOp::Query: // {MbarrierCheckLayout}: reads the layout only
    case ir::MbOp::None:
        break;
    }
    Step<V> out{n, n.pending, v.truth(false)};
    if (mayComplete(e)) {
        // Phase completion: pending arrivals and tx-count both zero (PTX ISA
        // {MbarrierPhaseCompletion}); the next phase expects the init count again.
        auto done = n.pending == 0 && n.tx == 0;
        // An arrive_drop that makes the expected count zero is undefined (9.4: 9.7.15.16.17;
        // the count stays in the range of "Contents of the mbarrier object"). "A
        // mbarrier.arrive operation with .noComplete qualifier must not cause the mbarrier to
        // complete its current phase, otherwise the behavior is undefined" (9.7.15.16.16).
        if (e.mbDrop) out.countMisuse = n.expected < 1;
        if (e.mbNoComplete) out.countMisuse = out.countMisuse || done;
        // "The tx-count of an mbarrier object must be set to the total amount of asynchronous
        // memory operations ... to be tracked by the current phase" ({MbarrierTrackingAsync}):
        // every arrival in and more bytes completed than expected. Hardware completes a copy's
        // bytes in pieces, so such a phase may complete while the copy is still landing
        // (tensor-load-short-expect_tx on an H200).
        out.countMisuse = out.countMisuse || (n.pending == 0 && n.tx < 0);
        out.after.phase = v.select(done, s.phase + 1, s.phase);
        out.after.pending = v.select(done, n.expected, n.pending);
        out.after.stamp = v.select(done, s.stamp + 1, s.stamp);
    }
    return out;
}

/**
 * Undefined behaviour of `e` on the object as it found it, tokens aside: any operation on an
 * uninitialised object, init of an initialised one ({MbarrierInit}), an arrival beyond the
 * pending count ({MbarrierArrive}), and the count misuse `apply` found (arrive_drop,
 * .noComplete, a tx-count set short of the bytes its phase tracks).
 */
template <class V>
typename V::Bool misuse(const ir::Event& e, const typename V::Bool& validBefore,
                        const typename V::Int& pendingAfterArrival,
                        const typename V::Bool& countMisuse) {
    if (e.mbOp == ir::MbOp::Init) return validBefore;
    if (e.mbOp == ir::MbOp::Arrive) return !validBefore || pendingAfterArrival < 0 || countMisuse;
    if (e.mbOp == ir::MbOp::CompleteTx) return !validBefore || countMisuse;
    return !validBefore;
}

/** A state token is valid for the current or the immediately preceding phase only (PTX ISA
 *  {MbarrierTestWaitTryWait}): misuse of a wait that passes `token` while the object is in `phase`.
 */
template <class V>
typename V::Bool staleToken(const V& v, const typename V::Int& phase,
                            const typename V::Word& token) {
    auto t = v.unsignedOf(token);
    return phase != t && phase != t + 1;
}

/**
 * True once the phase the wait names completed ({MbarrierTestWaitTryWait}): a parity wait passes
 * when the current phase's parity differs from its operand, a token wait once the phase is past the
 * token's. `operand()` gives the parity or token; the concrete algebra only asks for it on a
 * valid object.
 */
template <class V, class Operand>
typename V::Bool waitCondition(const V& v, const ir::Event& wait, const typename V::Int& phase,
                               const typename V::Bool& valid, Operand operand) {
    if (wait.mbParity) return valid && v.parity(phase) != v.parity(v.unsignedOf(operand()));
    return valid && phase > v.unsignedOf(operand());
}

/**
 * A report-on operation on the object ({MbarrierReportOn}): a copy's complete-tx whose
 * inspection matched (`on`: it happened and matched), in the phase instance `stamp` names. The
 * primary phases do not depend on reports ({MbarrierPhaseCompletion}), so the conditional phase
 * and the payload report are read off the primary ones' stamps.
 */
template <class V> struct ReportOn {
    typename V::Bool on;
    typename V::Int stamp;
};

/**
 * How many of the `phase` phase instances completed since the last init, before an operation
 * that falls in instance `stamp`, had a report-on: their payload report was non-zero, so "the
 * conditional phase advances if the primary phase advances, and no asynchronous operation
 * tracked by the mbarrier prevents it via a report-on operation" ({MbarrierConditionalPhase})
 * did not advance it. Each instance counts once, however many copies reported in it.
 */
template <class V>
typename V::Int reportedPhases(const V& v, const std::vector<ReportOn<V>>& reports,
                               const typename V::Int& stamp, const typename V::Int& phase) {
    auto count = v.num(0);
    for (std::size_t i = 0; i < reports.size(); ++i) {
        auto first = reports[i].on;
        for (std::size_t j = 0; j < i; ++j)
            first = first && !(reports[j].on && reports[j].stamp == reports[i].stamp);
        auto completed = reports[i].stamp >= stamp - phase && reports[i].stamp < stamp;
        count = count + v.select(first && completed, v.num(1), v.num(0));
    }
    return count;
}

/**
 * The conditional phase an operation in instance `stamp` finds, `phase` being the primary one:
 * both start at 0 at init, and the conditional one advances with each primary completion whose
 * payload report was zero ({MbarrierPhaseCompletion}: "If the payload report associated with
 * the current primary phase of the mbarrier is zero, then the conditional phase advances").
 */
template <class V>
typename V::Int conditionalPhase(const V& v, const std::vector<ReportOn<V>>& reports,
                                 const typename V::Int& stamp, const typename V::Int& phase) {
    if (reports.empty()) return phase;
    return phase - reportedPhases(v, reports, stamp, phase);
}

/**
 * How many phase instances right before instance `stamp` (within the `phase` completed since the
 * last init) had a report-on: the primary phases completed since the conditional phase last
 * advanced.
 */
template <class V>
typename V::Int trailingReported(const V& v, const std::vector<ReportOn<V>>& reports,
                                 const typename V::Int& stamp, const typename V::Int& phase) {
    auto count = v.num(0);
    auto run = v.truth(true);
    for (std::size_t k = 1; k <= reports.size(); ++k) {
        const auto back = v.num(static_cast<std::int64_t>(k));
        auto reported = v.truth(false);
        for (const ReportOn<V>& r : reports)
            reported = reported || (r.on && r.stamp == stamp - back);
        run = run && reported && phase >= back;
        count = count + v.select(run, v.num(1), v.num(0));
    }
    return count;
}

/**
 * The primary phase up to which a True wait observed the object: its own for a primary wait; for
 * a conditional one the primary phase at which the conditional phase last advanced. "All memory
 * accesses ... requested prior, in program order, to mbarrier.arrive having release semantics
 * during the completed phase" ({MbarrierTestWaitTryWait}): the completed phase is the conditional
 * one, and the arrivals of the primary phases after its advance fall in its next phase, which has
 * not completed.
 */
template <class V>
typename V::Int observedPhase(const V& v, const ir::Event& wait,
                              const std::vector<ReportOn<V>>& reports, const typename V::Int& stamp,
                              const typename V::Int& phase) {
    if (!wait.mbConditional || reports.empty()) return phase;
    return phase - trailingReported(v, reports, stamp, phase);
}

/**
 * The reportPredicate a True wait in instance `stamp` returns: the payload report of the phase
 * it observed complete, the immediately preceding one (`phase` >= 1: not the init's), which a
 * report-on operation made non-zero ({MbarrierTracking}: "The payload report consists of a
 * report predicate (reportPredicate) and a report value (reportValue)").
 */
template <class V>
typename V::Bool observedReport(const V& v, const std::vector<ReportOn<V>>& reports,
                                const typename V::Int& stamp, const typename V::Int& phase) {
    auto out = v.truth(false);
    for (const ReportOn<V>& r : reports)
        out = out || (r.on && r.stamp == stamp - 1);
    return out && phase >= 1;
}

/**
 * Does wait `w` let arrive `a` go on under the phase rule: it happened, returned True, came
 * before `a` in mbo and fell in the same phase instance.
 */
template <class V>
typename V::Bool observes(const typename V::Bool& waitExists, const typename V::Bool& success,
                          const typename V::Bool& before, const typename V::Int& waitStamp,
                          const typename V::Int& arriveStamp) {
    return waitExists && success && before && waitStamp == arriveStamp;
}

/**
 * "For each phase of the mbarrier object, at least one test_wait or try_wait operation that
 * returns True must be performed before an arrive-on operation of the next phase" (PTX ISA
 * {MbarrierPhase}): an arrive after the first completion since init with no observing wait.
 */
template <class V>
typename V::Bool unobservedArrive(const typename V::Bool& exists, const typename V::Int& phase,
                                  const typename V::Bool& observed) {
    return exists && phase >= 1 && !observed;
}

/** mb-obs pairs: an operation that advances the object (not an init, not a wait) and a wait. */
inline bool mayBeObserved(const ir::Event& op, const ir::Event& wait) {
    return changesObject(op) && op.mbOp != ir::MbOp::Init && wait.mbOp == ir::MbOp::Wait;
}

/**
 * mb-obs: a True wait later in mbo saw a later phase than the one `op` contributed to, so
 * the phase `op` helped complete is the one the wait observed completing (or an earlier one).
 */
template <class V>
typename V::Bool observedBy(const typename V::Bool& before, const typename V::Bool& success,
                            const typename V::Int& opPhase, const typename V::Int& waitPhase) {
    return before && success && opPhase < waitPhase;
}

} // namespace ptxmc::engine::mbarrier
