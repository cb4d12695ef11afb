// The mbarrier object's state machine, written once over a value algebra.
#pragma once

#include "ir/Program.hpp"

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
