// The warp collectives (vote, match.sync, activemask, redux.sync, bar.warp.sync) over the
// uniform warp a litmus thread stands for: values only, no event.
#include "ir/ValueSemantics.hpp"
#include "lower/Floats.hpp"
#include "lower/Instructions.hpp"
#include "ptx/Sections.hpp"

namespace ptxmc::lower {

using ir::Value;
using ir::ValuePtr;
using Op = ir::Value::Op;

namespace {

constexpr std::int64_t kAllLanes = 0xffffffff;

ValuePtr constant(std::int64_t c) {
    return Value::makeConst(ir::wrap32(c));
}

/**
 * The membermask operand: every lane of the warp. The litmus thread's 32 lanes all run the
 * instruction, and "The behavior of ... is undefined if the executing thread is not in the
 * membermask" (each of the four sections), so any other mask is undefined behaviour in every
 * execution that runs it: an input error, as is a mask no constant gives.
 */
void checkMembermask(Lowerer& l, const litmus::Operand& op, ptx::Sec section) {
    ValuePtr mask = l.value(op);
    const std::string why = "a litmus thread is a whole warp whose 32 lanes run each of its "
                            "instructions, and the behaviour is undefined where an executing "
                            "thread is not in the membermask (" +
                            ptx::cite(section) + ")";
    if (mask->op != Op::Const)
        l.fail(op.loc, "the membermask must be a constant (0xffffffff): " + why);
    if ((mask->constant & kAllLanes) != kAllLanes)
        l.fail(op.loc, "the membermask must hold every lane (0xffffffff): " + why);
}

/** redux.sync over 32 lanes that all hold `a` ({ReduxSync}). */
ValuePtr reduceUniform(const ptx::Redux& r, const ValuePtr& a) {
    if (r.type == ptx::Type{'f', 32}) {
        // "If .abs qualifier is specified, then the absolute value of the input is considered";
        // NaN inputs give "canonical NaN" with .NaN, and without it "when all inputs are NaNs".
        ValuePtr value = r.abs ? absF32(a) : a;
        return Value::make(Op::Ite, {isNanF32(a), constant(kCanonicalNanF32), value});
    }
    switch (r.op) {
    case ptx::ReduxOp::Add: // "For the .add operation result is truncated to 32 bits."
        return Value::make(Op::Mul, {a, constant(32)});
    case ptx::ReduxOp::Xor: // an even number of equal values
        return constant(0);
    case ptx::ReduxOp::Min:
    case ptx::ReduxOp::Max:
    case ptx::ReduxOp::And:
    case ptx::ReduxOp::Or:
        return a;
    }
    return a;
}

void lowerVote(Lowerer& l, const ptx::Vote& v) {
    l.expectOperands(v.sync ? 3 : 2);
    if (v.sync) checkMembermask(l, l.operand(2), ptx::Sec::VoteSync);
    ValuePtr a = asPredicate(l.value(l.operand(1))); // `!a` is negated by value()
    switch (v.mode) {
    case ptx::VoteMode::All: // "True if source predicate is True for all ... threads"
    case ptx::VoteMode::Any: // "True if source predicate is True for some thread"
        l.define(l.operand(0), a);
        return;
    case ptx::VoteMode::Uni: // "True if source predicate has the same value in all ... threads"
        l.define(l.operand(0), constant(1));
        return;
    case ptx::VoteMode::Ballot: // each lane's predicate at its lane's bit
        l.define(l.operand(0), Value::make(Op::Ite, {a, constant(kAllLanes), constant(0)}));
        return;
    }
}

void lowerMatch(Lowerer& l, const ptx::Match& m) {
    l.expectOperands(3);
    checkMembermask(l, l.operand(2), ptx::Sec::MatchSync);
    l.value(l.operand(1)); // defined, whatever its value: every lane holds the same
    const litmus::Operand& d = l.operand(0);
    if (!m.all && !d.elements.empty())
        l.fail(d.elements[0].loc,
               "match.any.sync writes one destination, d (" + ptx::cite(ptx::Sec::MatchSync) + ")");
    // .any: "mask of non-exited threads in membermask that have same value of operand a";
    // .all: that mask, and p true, "if all non-exited threads in membermask have same value".
    litmus::Operand mask = d;
    mask.elements.clear();
    l.define(mask, constant(kAllLanes));
    if (!d.elements.empty()) l.define(d.elements[0], constant(1));
}

} // namespace

bool isWarpCollective(const ptx::Insn& insn) {
    return insn.is<ptx::Vote>() || insn.is<ptx::Match>() || insn.is<ptx::Activemask>() ||
           insn.is<ptx::Redux>() || insn.is<ptx::BarWarpSync>();
}

void lowerWarpCollective(Lowerer& l, const ptx::Insn& insn) {
    if (const auto* v = insn.as<ptx::Vote>()) return lowerVote(l, *v);
    if (const auto* m = insn.as<ptx::Match>()) return lowerMatch(l, *m);
    if (insn.is<ptx::Activemask>()) { // every lane of the warp runs with the thread
        l.expectOperands(1);
        return l.define(l.operand(0), constant(kAllLanes));
    }
    if (const auto* r = insn.as<ptx::Redux>()) {
        l.expectOperands(3);
        checkMembermask(l, l.operand(2), ptx::Sec::ReduxSync);
        return l.define(l.operand(0), reduceUniform(*r, l.value(l.operand(1))));
    }
    // bar.warp.sync: the lanes it orders are one litmus thread, in program order already.
    l.expectOperands(1);
    checkMembermask(l, l.operand(0), ptx::Sec::BarWarpSync);
}

} // namespace ptxmc::lower
