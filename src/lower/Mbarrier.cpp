// mbarrier instructions: init, arrive{.expect_tx}, expect_tx, complete_tx, test_wait/try_wait.
#include "lower/Lowerer.hpp"

namespace ptxmc::lower {

using ir::Value;

namespace {

void mbarrierEvent(Lowerer& l, ir::Event& e, const Address& a, ir::MbOp op) {
    e.tags.insert("MB");
    e.mbOp = op;
    l.access(e, a, ir::Proxy::Generic);
    e.tags.erase("M"); // an mbarrier operation is not a data access
    e.space = ir::Space::Mbarrier;
}

void setMbOrdering(ir::Event& e, ir::Sem sem, ir::Scope scope) {
    e.sem = sem;
    e.scope = scope;
    e.tags.insert(semTag(sem));
    e.tags.insert(scopeTag(scope));
}

ir::Scope takeMbScope(Qualifiers& q) {
    auto s = q.takeOneOf({"cta", "cluster"});
    return s ? parseScope(*s) : ir::Scope::Cta; // PTX default scope .cta
}

/** Consumes the state space and .b64; returns true for .shared::cluster (remote allowed). */
bool takeMbSpace(Lowerer& l, Qualifiers& q) {
    auto space = q.takeOneOf({"shared", "shared::cta", "shared::cluster"});
    if (!q.take("b64")) {
        if (auto t = q.takePrefixed("b")) l.fail(l.inst().loc, "mbarrier operations use .b64");
    }
    return space && *space == "shared::cluster";
}

std::int64_t immediate(Lowerer& l, const litmus::Operand& op, std::int64_t lo, std::int64_t hi,
                       const char* what) {
    if (op.kind != litmus::Operand::Kind::Integer || op.value < lo || op.value > hi)
        l.fail(op.loc, std::string(what) + " must be an integer in [" + std::to_string(lo) + ", " +
                           std::to_string(hi) + "]");
    return op.value;
}

void lowerInit(Lowerer& l, Qualifiers& q) {
    takeMbSpace(l, q);
    q.finish();
    l.expectOperands(2);
    Address a = l.address(l.operand(0), ir::Space::Mbarrier);
    l.checkReach(a, l.operand(0), false);
    std::int64_t count = immediate(l, l.operand(1), 1, (1 << 20) - 1, "mbarrier count");
    ir::Event& e = l.issue({"MB_INIT"});
    mbarrierEvent(l, e, a, ir::MbOp::Init);
    e.mbAmount = count;
    setMbOrdering(e, ir::Sem::Relaxed, ir::Scope::Cta);
}

void lowerArrive(Lowerer& l, Qualifiers& q) {
    bool expect = q.take("expect_tx");
    if (q.take("noComplete")) l.fail(l.inst().loc, "mbarrier.arrive.noComplete is not supported");
    auto sem = q.takeOneOf({"release", "relaxed"});
    ir::Scope scope = takeMbScope(q);
    bool cluster = takeMbSpace(l, q);
    q.finish();
    l.expectOperands(expect ? 3 : 2);
    Address a = l.address(l.operand(1), ir::Space::Mbarrier);
    l.checkReach(a, l.operand(1), cluster);
    if (a.cta != l.thread().cta && l.operand(0).kind != litmus::Operand::Kind::Sink)
        l.fail(l.operand(0).loc, "an arrive on another CTA's mbarrier returns no state: use _");
    std::int64_t tx = expect ? immediate(l, l.operand(2), 0, (1 << 20) - 1, "tx count") : 0;
    ir::Event& e = l.issue({"MB_ARRIVE"});
    mbarrierEvent(l, e, a, ir::MbOp::Arrive);
    setMbOrdering(e, sem && *sem == "relaxed" ? ir::Sem::Relaxed : ir::Sem::Release, scope);
    e.mbAmount = tx;
    int id = e.id;
    auto tok = std::make_shared<Value>();
    tok->op = Value::Op::PhaseToken;
    tok->event = id;
    l.define(l.operand(0), tok);
}

void lowerTx(Lowerer& l, Qualifiers& q, bool complete) {
    q.take("relaxed");
    ir::Scope scope = takeMbScope(q);
    bool cluster = takeMbSpace(l, q);
    q.finish();
    l.expectOperands(2);
    Address a = l.address(l.operand(0), ir::Space::Mbarrier);
    l.checkReach(a, l.operand(0), cluster);
    std::int64_t tx = immediate(l, l.operand(1), 0, (1 << 20) - 1, "tx count");
    ir::Event& e = l.issue({complete ? "MB_COMPLETE" : "MB_EXPECT"});
    mbarrierEvent(l, e, a, complete ? ir::MbOp::CompleteTx : ir::MbOp::ExpectTx);
    setMbOrdering(e, ir::Sem::Relaxed, scope);
    e.mbAmount = tx;
}

void lowerWait(Lowerer& l, Qualifiers& q) {
    bool parity = q.take("parity");
    auto sem = q.takeOneOf({"acquire", "relaxed"});
    ir::Scope scope = takeMbScope(q);
    takeMbSpace(l, q);
    q.finish();
    if (l.inst().operands.size() == 4)
        l.fail(l.inst().operands[3].loc, "the suspend-time hint of try_wait is not supported");
    l.expectOperands(3);
    Address a = l.address(l.operand(1), ir::Space::Mbarrier);
    if (a.cta != l.thread().cta)
        l.fail(l.operand(1).loc, "test_wait/try_wait act on an mbarrier of the thread's own CTA");
    const auto& argOp = l.operand(2);
    if (parity && argOp.kind == litmus::Operand::Kind::Integer && argOp.value != 0 &&
        argOp.value != 1)
        l.fail(argOp.loc, "phase parity must be 0 or 1");
    ir::ValuePtr arg = l.value(argOp);
    bool blocking = l.operand(0).kind == litmus::Operand::Kind::Sink;
    ir::Event& e = l.issue({"MB_WAIT"});
    mbarrierEvent(l, e, a, ir::MbOp::Wait);
    setMbOrdering(e, sem && *sem == "relaxed" ? ir::Sem::Relaxed : ir::Sem::Acquire, scope);
    if (parity)
        e.mbParity = arg;
    else
        e.mbToken = arg;
    e.blocking = blocking;
    if (blocking) e.tags.insert("BLOCKING");
    auto res = std::make_shared<Value>();
    res->op = Value::Op::WaitResult;
    res->event = e.id;
    l.define(l.operand(0), res);
}

} // namespace

bool lowerMbarrier(Lowerer& l) {
    const auto& parts = l.inst().parts;
    if (parts[0] != "mbarrier") return false;
    if (parts.size() < 2) l.fail(l.inst().loc, "incomplete mbarrier instruction");
    Qualifiers q(l.inst(), 2);
    const std::string& op = parts[1];
    if (op == "init")
        lowerInit(l, q);
    else if (op == "arrive")
        lowerArrive(l, q);
    else if (op == "expect_tx")
        lowerTx(l, q, false);
    else if (op == "complete_tx")
        lowerTx(l, q, true);
    else if (op == "test_wait" || op == "try_wait")
        lowerWait(l, q);
    else
        l.fail(l.inst().loc, "unknown instruction '" + l.inst().opcode + "'");
    return true;
}

} // namespace ptxmc::lower
