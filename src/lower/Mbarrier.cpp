// mbarrier instructions: init, arrive{.expect_tx}, expect_tx, complete_tx, test_wait/try_wait.
#include "lower/Instructions.hpp"
#include "ptx/Sections.hpp"

namespace ptxmc::lower {

using ir::Tag;
using ir::Value;

namespace {

void mbarrierEvent(Lowerer& l, ir::Event& e, const Address& a, ir::MbOp op) {
    e.tags.insert(Tag::MB);
    e.mbOp = op;
    l.access(e, a, ir::Proxy::Generic);
    e.tags.erase(Tag::M); // an mbarrier operation is not a data access
    e.space = ir::Space::Mbarrier;
}

ir::Scope mbScope(ptx::Scope s) {
    return s == ptx::Scope::None ? ir::Scope::Cta : s; // PTX default scope .cta
}

bool viaCluster(const ptx::MbarrierOperand& mb) {
    return mb.space == ptx::StateSpace::SharedCluster;
}

std::int64_t immediate(Lowerer& l, const litmus::Operand& op, std::int64_t lo, std::int64_t hi,
                       const char* what) {
    if (op.kind != litmus::Operand::Kind::Integer || op.value < lo || op.value > hi)
        l.fail(op.loc, std::string(what) + " must be an integer in [" + std::to_string(lo) + ", " +
                           std::to_string(hi) + "]");
    return op.value;
}

/**
 * The mbarriers a `.multicast::cluster::32b` operation acts on (PTX ISA 9.4 {MbarrierArrive},
 * {MbarrierExpectTx}, {MbarrierCompleteTx}): "each bit position in the 32-bit ctaMask operand
 * corresponds to the %cluster_ctarank of the target CTA", and the operation "is multicast to the
 * same CTA-relative offset as addr in the shared memory of each target CTA". As for
 * cp.async.bulk's and tcgen05.commit's masks, the mask is an immediate here; the targets come in
 * rank order.
 */
std::vector<Address> multicastTargets(Lowerer& l, const Address& a, const litmus::Operand& addrOp,
                                      const litmus::Operand& mask) {
    std::vector<Address> out;
    for (const auto& t : l.multicastTargets(mask, 32, {{a, &addrOp}})) {
        l.checkReach(t[0], addrOp, true);
        out.push_back(t[0]);
    }
    return out;
}

} // namespace

void lowerInit(Lowerer& l, const ptx::MbarrierInit& init) {
    if (init.inval) {
        // mbarrier.inval (PTX ISA {MbarrierInval}): operations other than init on the object are
        // undefined afterwards (MB_MISUSE).
        l.expectOperands(1);
        Address a = l.address(l.operand(0), ir::Space::Mbarrier);
        l.checkReach(a, l.operand(0), false);
        ir::Event& e = l.issue({Tag::MB_INVAL});
        mbarrierEvent(l, e, a, ir::MbOp::Inval);
        setOrdering(e, ir::Sem::Relaxed, ir::Scope::Cta);
        return;
    }
    l.expectOperands(2);
    Address a = l.address(l.operand(0), ir::Space::Mbarrier);
    l.checkReach(a, l.operand(0), false);
    // "[1, ..., 2^20 - 1] for mbarrier with .layout::v0, [1, ..., 2^9 - 1] for mbarrier with
    // .layout::v1" ({MbarrierInit#}); v1's payload report is changed only by report-on
    // operations, which no modelled instruction performs, so the layouts behave alike here
    std::int64_t count = immediate(
        l, l.operand(1), 1, init.layout == 1 ? (1 << 9) - 1 : (1 << 20) - 1, "mbarrier count");
    ir::Event& e = l.issue({Tag::MB_INIT});
    mbarrierEvent(l, e, a, ir::MbOp::Init);
    e.mbAmount = count;
    setOrdering(e, ir::Sem::Relaxed, ir::Scope::Cta);
}

namespace {

/** The arrive-on event of `arrive` on the mbarrier at `a`, with its tx bytes (release unless
 * .relaxed; {MbarrierArrive}, {MbarrierArriveDrop}). */
ir::Event& arriveEvent(Lowerer& l, const Address& a, const ptx::MbarrierArrive& arrive,
                       std::int64_t tx) {
    ir::Event& e = l.issue({Tag::MB_ARRIVE});
    mbarrierEvent(l, e, a, ir::MbOp::Arrive);
    setOrdering(e, arrive.sem == ptx::Sem::Relaxed ? ir::Sem::Relaxed : ir::Sem::Release,
                mbScope(arrive.scope));
    e.mbAmount = tx;
    e.mbDrop = arrive.drop;
    return e;
}

/**
 * The multicast arrive (PTX ISA 9.4 {MbarrierArrive}, {MbarrierArriveDrop}):
 * `_, [addr]{, count}, ctaMask` or, with .expect_tx, `_, [addr], txCount, ctaMask`. Each target
 * CTA's mbarrier gets the whole operation: {expect-tx then} arrive-on (arrive_drop: the drop too),
 * with the instruction's .sem and .scope; the operations are separate events of the thread, in
 * rank order, each a release pattern when .release. "mbarrier.arrive operation on an mbarrier
 * object located in .shared::cluster but not in .shared::cta cannot return a value": the
 * destination is the sink.
 */
void lowerMulticastArrive(Lowerer& l, const ptx::MbarrierArrive& arrive) {
    const auto& ops = l.inst().operands;
    const bool expect = arrive.expectTx;
    const bool counted = !expect && ops.size() == 4;
    l.expectOperands(expect || counted ? 4 : 3);
    if (l.operand(0).kind != litmus::Operand::Kind::Sink)
        l.fail(l.operand(0).loc, "a .multicast::cluster::32b arrive returns no state: use _ (" +
                                     ptx::cite(ptx::Sec::MbarrierArrive) + ")");
    Address a = l.address(l.operand(1), ir::Space::Mbarrier);
    std::int64_t tx = expect ? immediate(l, l.operand(2), 0, (1 << 20) - 1, "tx count") : 0;
    std::int64_t arrivals =
        counted ? immediate(l, l.operand(2), 1, (1 << 20) - 1, "arrival count") : 0;
    for (const Address& m : multicastTargets(l, a, l.operand(1), l.operand(ops.size() - 1))) {
        ir::Event& e = arriveEvent(l, m, arrive, tx);
        if (counted) e.mbArrivals = arrivals;
    }
}

} // namespace

void lowerArrive(Lowerer& l, const ptx::MbarrierArrive& arrive) {
    if (arrive.multicast) return lowerMulticastArrive(l, arrive);
    bool expect = arrive.expectTx;
    bool cluster = viaCluster(arrive.mb);
    // A plain arrive may name how many arrivals it counts (PTX ISA
    // #parallel-synchronization-and-communication-instructions-mbarrier-arrive: count).
    bool counted = !expect && l.inst().operands.size() == 3;
    // .noComplete takes the count: "mbarrier.arrive.noComplete ... state, [addr], count"
    // ({MbarrierArrive}, {MbarrierArriveDrop})
    if (arrive.noComplete && (expect || !counted))
        l.fail(l.inst().loc,
               "mbarrier.arrive.noComplete takes an arrival count and no .expect_tx (" +
                   ptx::cite(ptx::Sec::MbarrierArrive) + ")");
    l.expectOperands(expect || counted ? 3 : 2);
    Address a = l.address(l.operand(1), ir::Space::Mbarrier);
    l.checkReach(a, l.operand(1), cluster);
    if (a.cta != l.thread().cta && l.operand(0).kind != litmus::Operand::Kind::Sink)
        l.fail(l.operand(0).loc, "an arrive on another CTA's mbarrier returns no state: use _");
    std::int64_t tx = expect ? immediate(l, l.operand(2), 0, (1 << 20) - 1, "tx count") : 0;
    ir::Event& e = arriveEvent(l, a, arrive, tx);
    e.mbNoComplete = arrive.noComplete;
    if (counted) e.mbArrivals = immediate(l, l.operand(2), 1, (1 << 20) - 1, "arrival count");
    int id = e.id;
    auto tok = std::make_shared<Value>();
    tok->op = Value::Op::PhaseToken;
    tok->event = id;
    l.define(l.operand(0), tok);
}

void lowerTx(Lowerer& l, const ptx::MbarrierTx& t) {
    bool complete = t.complete;
    bool cluster = viaCluster(t.mb);
    // `[addr], txCount`, and with .multicast::cluster::32b (9.4) `[addr], txCount, ctaMask`:
    // the expect-tx / complete-tx on the mbarrier at addr's offset in each CTA of the mask
    // ({MbarrierExpectTx}, {MbarrierCompleteTx}), one relaxed event per target CTA.
    l.expectOperands(t.multicast ? 3 : 2);
    Address a = l.address(l.operand(0), ir::Space::Mbarrier);
    std::vector<Address> targets;
    if (t.multicast) {
        targets = multicastTargets(l, a, l.operand(0), l.operand(2));
    } else {
        l.checkReach(a, l.operand(0), cluster);
        targets.push_back(a);
    }
    std::int64_t tx = immediate(l, l.operand(1), 0, (1 << 20) - 1, "tx count");
    for (const Address& m : targets) {
        ir::Event& e = l.issue({complete ? Tag::MB_COMPLETE : Tag::MB_EXPECT});
        mbarrierEvent(l, e, m, complete ? ir::MbOp::CompleteTx : ir::MbOp::ExpectTx);
        setOrdering(e, ir::Sem::Relaxed, mbScope(t.scope));
        e.mbAmount = tx;
    }
}

void lowerWait(Lowerer& l, const ptx::MbarrierWait& w) {
    bool parity = w.parity;
    const auto& ops = l.inst().operands;
    // The 9.3 report form with .phase_type::primary: `waitComplete|reportPredicate{,
    // reportValue}, [addr], state|phaseParity{, timeHint}` ({MbarrierTestWaitTryWait}).
    const bool report = !ops.empty() && !ops[0].elements.empty();
    if (report && !w.phasePrimary)
        l.fail(ops[0].elements[0].loc,
               "reportPredicate and reportValue come with .phase_type::primary (" +
                   ptx::cite(ptx::Sec::MbarrierTestWaitTryWait) + ")");
    const bool reportValue =
        report && ops.size() >= 2 && ops[1].kind == litmus::Operand::Kind::Name;
    const std::size_t k = reportValue ? 1 : 0; // where [addr] is, less one
    // try_wait's optional `timeHint`: "the time limit, in nanoseconds, that may be used for the
    // time limit instead of the system-dependent limit" ({MbarrierTestWaitTryWait#}). A suspended
    // thread may resume before the phase completes either way, so the hint changes no outcome:
    // it is checked (a register or an immediate) and otherwise ignored.
    if (w.tryWait && ops.size() == 4 + k) {
        const auto& hint = ops[3 + k];
        if (hint.kind != litmus::Operand::Kind::Integer && hint.kind != litmus::Operand::Kind::Name)
            l.fail(hint.loc, "try_wait's suspend-time hint is a register or an immediate");
        l.value(hint);
    } else {
        l.expectOperands(3 + k);
    }
    Address a = l.address(l.operand(1 + k), ir::Space::Mbarrier);
    if (a.cta != l.thread().cta)
        l.fail(l.operand(1 + k).loc,
               "test_wait/try_wait act on an mbarrier of the thread's own CTA");
    const auto& argOp = l.operand(2 + k);
    if (parity && argOp.kind == litmus::Operand::Kind::Integer && argOp.value != 0 &&
        argOp.value != 1)
        l.fail(argOp.loc, "phase parity must be 0 or 1");
    ir::ValuePtr arg = l.value(argOp);
    // `_` waits until the phase completes; so does a loop that only retries the wait.
    bool blocking = l.operand(0).kind == litmus::Operand::Kind::Sink || l.spinWait();
    ir::Event& e = l.issue({Tag::MB_WAIT});
    mbarrierEvent(l, e, a, ir::MbOp::Wait);
    setOrdering(e, w.sem == ptx::Sem::Relaxed ? ir::Sem::Relaxed : ir::Sem::Acquire,
                mbScope(w.scope));
    if (parity)
        e.mbParity = arg;
    else
        e.mbToken = arg;
    e.blocking = blocking;
    e.mbConditional = w.phaseConditional;
    if (blocking) e.tags.insert(Tag::BLOCKING);
    auto res = std::make_shared<Value>();
    res->op = Value::Op::WaitResult;
    res->event = e.id;
    l.define(l.operand(0), res);
    if (report) {
        // "For .layout::v0, reportPredicate and reportValue are always zero"; a .layout::v1
        // report is non-zero after a report-on operation in the phase the wait observed
        // (engine/MbarrierMachine.hpp). "Note that the reportPredicate and reportValue operands
        // are undefined when waitComplete is False": the predicate is then either value (a
        // choice). The copies' report-on operations leave the report value as it was: it "is
        // altered in an idempotent way (atomically OR'ed with 0)" ({AsyncCopyReportMechanisms}),
        // so it is zero when waitComplete is True; when it is False ptxmc gives 0 too, one of
        // the 256 values a .b8 may hold (litmus/README.md says so).
        auto predicate = std::make_shared<Value>();
        predicate->op = Value::Op::WaitReport;
        predicate->event = e.id;
        const ir::ValuePtr undefined = l.newChoice(
            ops[0].elements[0].loc,
            l.inst().opcode + " (reportPredicate when waitComplete is False: undefined, " +
                ptx::cite(ptx::Sec::MbarrierTestWaitTryWait) + ")");
        l.define(ops[0].elements[0], Value::make(Value::Op::Ite, {res, predicate, undefined}));
        if (reportValue) l.define(ops[1], Value::makeConst(0));
    }
}

/**
 * cp.async.mbarrier.arrive{.noinc} (PTX ISA
 * #parallel-synchronization-and-communication-instructions-cp-async-mbarrier-arrive): "Causes an
 * arrive-on operation to be triggered by the system on the mbarrier object upon the completion of
 * all prior cp.async operations initiated by the executing thread"; without .noinc "the pending
 * count of the mbarrier object is incremented by 1 prior to the asynchronous arrive-on operation".
 * The issue raises the pending count (MbOp::Increment); the arrive-on is an exec event after the
 * copies (ptx.cat, cpa-tracked). A True acquire wait then sees those copies: "All cp.async
 * operations requested prior, in program order, to cp.async.mbarrier.arrive during the
 * completed phase ... are performed and made visible to the executing thread"
 * ({MbarrierTestWaitTryWait}), so the arrive-on is a release of what it tracks, at CTA scope (the
 * object is .shared::cta).
 */
void lowerCpAsyncArrive(Lowerer& l, const ptx::CpAsyncArrive& a) {
    l.expectOperands(1);
    Address mb = l.address(l.operand(0), ir::Space::Mbarrier);
    if (mb.cta != l.thread().cta)
        l.fail(l.operand(0).loc, "cp.async.mbarrier.arrive takes an mbarrier of the executing "
                                 "CTA (.shared::cta)");
    ir::Event& e = l.issue({Tag::CPA_ARRIVE});
    if (!a.noinc) {
        mbarrierEvent(l, e, mb, ir::MbOp::Increment);
        setOrdering(e, ir::Sem::Relaxed, ir::Scope::Cta);
    }
    int id = e.id;
    const std::string name = l.program().locations[static_cast<std::size_t>(mb.location)].name;
    ir::Event& arrive = l.exec(id, "arrive " + name, {Tag::MB_ARRIVE});
    mbarrierEvent(l, arrive, mb, ir::MbOp::Arrive);
    setOrdering(arrive, ir::Sem::Release, ir::Scope::Cta);
}

/**
 * mbarrier.check_layout ({MbarrierCheckLayout#}): "The instruction sets the predicate operand p
 * to True if the layout of the mbarrier object exactly matches the .layout qualifier." The
 * object's layout is the one of the init it holds (".layout::v0" by default, {MbarrierInit}; a
 * declaration with `, count N` is an init without .layout). The check is an operation on the
 * object, a query that changes nothing: on an uninitialised or invalidated object it is
 * mbarrier-misuse, as any operation but init is ({MbarrierInit}). Its result is the layout every
 * init of the object in the test writes; a test that initialises it with both layouts is
 * refused, since which init a check observes is not modelled.
 */
void lowerCheckLayout(Lowerer& l, const ptx::MbarrierCheckLayout& c) {
    l.expectOperands(2);
    const litmus::Operand& addr = l.operand(1);
    Address a = l.address(addr, ir::Space::Mbarrier);
    l.checkReach(a, addr, false);
    const std::set<int> layouts = l.initLayouts(a);
    const std::string where = " (" + ptx::cite(ptx::Sec::MbarrierCheckLayout) + ")";
    if (layouts.empty())
        l.fail(addr.loc, "mbarrier.check_layout: no init of '" + addr.name +
                             "' in the test (declare it with ', count N' or mbarrier.init it), so "
                             "it has no layout to check" +
                             where);
    if (layouts.size() > 1)
        l.fail(addr.loc, "mbarrier.check_layout: the test initialises '" + addr.name +
                             "' with both .layout::v0 and .layout::v1, and which init a check "
                             "observes is not modelled" +
                             where);
    ir::Event& e = l.issue({});
    mbarrierEvent(l, e, a, ir::MbOp::Query);
    setOrdering(e, ir::Sem::Relaxed, ir::Scope::Cta);
    l.define(l.operand(0), Value::makeConst(*layouts.begin() == c.layout ? 1 : 0));
}

/**
 * mbarrier.pending_count ({MbarrierPendingCount#}): "The state operand is a 64-bit register that
 * must be the result of a prior mbarrier.arrive.noComplete or mbarrier.arrive_drop.noComplete
 * instruction"; count is "the pending count of the mbarrier object prior to the arrive-on
 * operation from which the state register was obtained". It touches no memory and no mbarrier:
 * no event. ptxmc's state token carries the phase only, so the count is not modelled: the
 * destination must be the sink `_`.
 */
void lowerPendingCount(Lowerer& l, const ptx::MbarrierPendingCount&) {
    l.expectOperands(2);
    l.value(l.operand(1)); // the state: a defined register
    if (l.operand(0).kind != litmus::Operand::Kind::Sink)
        l.fail(l.operand(0).loc, "mbarrier.pending_count's count is not modelled (the state token "
                                 "holds the phase only): write _ (" +
                                     ptx::cite(ptx::Sec::MbarrierPendingCount) + ")");
}

} // namespace ptxmc::lower
