// Control flow: a thread's paths (labels, branches, guards), unrolled and merged where they meet.
#include "ir/BaseRelations.hpp"
#include "lower/Instructions.hpp"
#include "lower/Lowerer.hpp"
#include "ptx/Print.hpp"
#include "ptx/Sections.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <functional>
#include <iterator>
#include <map>
#include <numeric>

namespace ptxmc::lower {

using ir::Value;
using ir::ValuePtr;
using Op = ir::Value::Op;

namespace {

/** A path condition and one more condition (null: always; a false result is a Const 0). */
ValuePtr conj(const ValuePtr& guard, const ValuePtr& c) {
    if (c->isConst()) return c->constant != 0 ? guard : c;
    return guard ? Value::make(Op::LAnd, {guard, c}) : c;
}

bool isFalse(const ValuePtr& guard) {
    return guard && guard->isConst() && guard->constant == 0;
}

/**
 * The condition of two paths that split at one branch (g && c and g && !c: g; c and !c: always,
 * a null guard), or nothing when they did not.
 */
std::optional<ValuePtr> joined(const ValuePtr& a, const ValuePtr& b) {
    auto negates = [](const ValuePtr& x, const ValuePtr& y) {
        return y->op == Op::Not && y->args[0] == x;
    };
    if (negates(a, b) || negates(b, a)) return ValuePtr{};
    if (a->op == Op::LAnd && b->op == Op::LAnd && a->args[0] == b->args[0] &&
        (negates(a->args[1], b->args[1]) || negates(b->args[1], a->args[1])))
        return a->args[0];
    return std::nullopt;
}

/**
 * Joins the first two of `guards` that are the sides of one branch back into the condition
 * before it (null where that is always true); false where no two are.
 */
bool joinOnePair(std::vector<ValuePtr>& guards) {
    for (std::size_t i = 0; i < guards.size(); ++i)
        for (std::size_t j = i + 1; j < guards.size(); ++j)
            if (auto g = joined(guards[i], guards[j])) {
                guards[i] = *g;
                guards.erase(guards.begin() + static_cast<std::ptrdiff_t>(j));
                return true;
            }
    return false;
}

/**
 * The condition of all the paths that meet at one point: sides of one branch join back into
 * the condition before it, in whatever order they arrived, so a branch that every path
 * leaves again adds no condition (and no dependency) after the join.
 */
ValuePtr joinAll(std::vector<ValuePtr> guards) {
    auto alwaysTrue = [&] {
        return std::find(guards.begin(), guards.end(), nullptr) != guards.end();
    };
    while (!alwaysTrue() && guards.size() > 1 && joinOnePair(guards)) {
    }
    if (alwaysTrue()) return nullptr;
    ValuePtr out = guards.front();
    for (std::size_t i = 1; i < guards.size(); ++i)
        out = Value::make(Op::LOr, {out, guards[i]});
    return out;
}

/**
 * Do `guards` (some paths' conditions and the conditions of loop cuts) cover every execution?
 * Disjunctions are split and the sides of one branch joined back, as at a join point, until
 * one condition is always true (null).
 */
bool coverAll(std::vector<ValuePtr> guards) {
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t i = 0; i < guards.size(); ++i) {
            if (!guards[i]) return true;
            if (guards[i]->op == Op::LOr) {
                ValuePtr g = guards[i];
                guards[i] = g->args[0];
                guards.push_back(g->args[1]);
                changed = true;
            }
        }
        if (!changed) changed = joinOnePair(guards);
    }
    return false;
}

/** Two paths meeting: the condition of either, registers chosen by which one was taken. */
void merge(PathState& into, PathState&& other, const std::function<void(const char*)>& fail) {
    // A copy issued on one path only is in the next group on that path: each copy is an event
    // with its own guard, so the group holds it in the executions that issue it. A commit on
    // one path only would number the groups after it differently on each.
    if (into.committedGroups != other.committedGroups)
        fail("async-groups differ between the paths that meet here (a commit_group runs on "
             "some of them only)");
    if (into.pendingWgmma != other.pendingWgmma)
        fail("wgmma groups differ between the paths that meet here (a wgmma.mma_async runs on "
             "some of them only)");
    auto unite = [](std::vector<int>& a, const std::vector<int>& b) {
        std::vector<int> out;
        std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
        a = std::move(out);
    };
    unite(into.pendingBulk, other.pendingBulk);
    unite(into.pendingCpAsync, other.pendingCpAsync);
    if (into.arrivals.empty()) into.arrivals.push_back(into.guard);
    const ValuePtr zero = Value::makeConst(0); // herd and Dat3M start registers at 0
    auto pick = [&](const ValuePtr& mine, const ValuePtr& theirs) {
        if (mine == theirs) return mine;
        if (!other.guard) return theirs;
        return Value::make(Op::Ite, {asPredicate(other.guard), theirs, mine});
    };
    std::map<std::string, ValuePtr> regs;
    for (auto& [name, v] : into.registers) {
        auto o = other.registers.find(name);
        regs[name] = pick(v, o == other.registers.end() ? zero : o->second);
    }
    for (auto& [name, v] : other.registers)
        if (!into.registers.count(name)) regs[name] = pick(zero, v);
    into.registers = std::move(regs);
    into.arrivals.push_back(other.guard);
    into.guard = joinAll(into.arrivals);
    into.ctrl.insert(other.ctrl.begin(), other.ctrl.end());
    for (const auto& [pc, n] : other.enteredAt) {
        auto [it, fresh] = into.enteredAt.emplace(pc, n);
        if (!fresh) it->second = std::min(it->second, n);
    }
    for (const auto& [pc, og] : other.guardAt) {
        auto [it, fresh] = into.guardAt.emplace(pc, og);
        // Paths that met here had different conditions there: a fresh value equals no guard.
        if (!fresh && it->second != og) it->second = Value::makeConst(-1);
    }
}

/** Where a path stands: how often it took each backward branch, then the instruction. */
struct Point {
    /// Per backward branch (by its pc): how often the path took it since it entered that
    /// loop; a path that moves past the branch has left the loop, and its count goes back to 0
    std::vector<int> taken;
    std::size_t pc = 0;
    /** Earlier instructions first: the paths leaving a loop after different numbers of
     *  iterations meet after it before it is lowered (a point already lowered that another
     *  path reaches later is lowered again for that path: more events, the same meaning). */
    bool operator<(const Point& o) const {
        if (pc != o.pc) return pc < o.pc;
        return taken < o.taken;
    }
};

/** Operand positions an instruction writes: its destination registers. */
std::vector<std::size_t> destinations(const ptx::Insn& i) {
    if (i.is<ptx::Elect>()) return {0, 1};
    if (i.is<ptx::Vote>() || i.is<ptx::Match>() || i.is<ptx::Activemask>() || i.is<ptx::Redux>())
        return {0};
    if (const auto* b = i.as<ptx::Barrier>(); b && b->red) return {0};
    const auto* a = i.as<ptx::Atom>();
    if (i.is<ptx::Ld>() || (a && a->returns()) || i.is<ptx::Arith>() || i.is<ptx::Setp>() ||
        i.is<ptx::Mov>() || i.is<ptx::MbarrierWait>() || i.is<ptx::Nondet>() ||
        i.is<ptx::ClcQueryCancel>())
        return {0};
    return {};
}

void sourcesOf(const ValuePtr& v, std::set<int>& out) {
    for (int e : ir::valueSources(v))
        out.insert(e);
}

/**
 * Can an iteration of the loop [from, to] that writes no memory be left out of an execution
 * (ir::Cut)? Its instructions touch only memory (no barrier, mbarrier or async operation,
 * whose state a later iteration would see); no register it writes is read before the
 * iteration writes it (no state carried round), and it writes registers only before its
 * first branch out of the loop (what the last iteration leaves is what every one would).
 */
bool spinEligible(const std::vector<ptx::CodeItem>& code, std::size_t from, std::size_t to,
                  const std::function<bool(const std::string&)>& isRegister,
                  const std::function<std::optional<std::size_t>(const std::string&)>& labelAt) {
    std::set<std::string> bodyWrites;
    for (std::size_t k = from; k <= to; ++k) {
        if (code[k].label) continue;
        const ptx::Insn& insn = code[k].insn();
        for (std::size_t i : destinations(insn))
            if (i < insn.operands.size()) bodyWrites.insert(insn.operands[i].name);
    }
    std::set<std::string> written;
    bool exited = false;
    auto carried = [&](const std::string& r) {
        return isRegister(r) && bodyWrites.count(r) && !written.count(r);
    };
    bool straight = true; // still in the part every iteration runs from its start
    for (std::size_t k = from; k <= to; ++k) {
        const ptx::CodeItem& item = code[k];
        const std::optional<ptx::Insn>& insn = item.decoded;
        if (item.label) {
            straight = straight && k == from; // another path may join at a label
            continue;
        }
        bool memoryOnly = insn->family() == ptx::Family::Control ||
                          (insn->family() == ptx::Family::Generic && !insn->is<ptx::Barrier>());
        if (!memoryOnly || insn->is<ptx::Exit>()) return false;
        if (insn->is<ptx::Matrix>() || insn->is<ptx::ClcQueryCancel>())
            return false; // their registers may be a vector: not tracked here
        if (item.guard && carried(item.guard->reg)) return false;
        std::vector<std::size_t> dst = destinations(*insn);
        for (std::size_t i = 0; i < insn->operands.size(); ++i) {
            const auto& op = insn->operands[i];
            bool isDst = std::find(dst.begin(), dst.end(), i) != dst.end();
            if (!isDst && op.kind == litmus::Operand::Kind::Name && carried(op.name)) return false;
            if (op.indexReg && carried(*op.indexReg)) return false; // an address it computes
        }
        if (exited && !dst.empty()) return false;
        // Only a write every iteration makes before its reads sets a register afresh.
        if (straight && !item.guard)
            for (std::size_t i : dst)
                if (i < insn->operands.size()) written.insert(insn->operands[i].name);
        if (insn->is<ptx::Bra>() || insn->is<ptx::CompareBranch>()) {
            straight = false;
            auto target = labelAt(insn->operands.back().name);
            if (target && *target < from) return false; // code outside the loop's lines
            if (target && *target > to) exited = true;
        }
    }
    return true;
}

/** A guard's predicate register as an operand, read like any other. */
litmus::Operand guardOperand(const litmus::Predicate& guard) {
    litmus::Operand op;
    op.kind = litmus::Operand::Kind::Name;
    op.name = guard.reg;
    op.loc = guard.loc;
    return op;
}

/** The instruction with its guard, for reports: `@!p bra LC00`. */
std::string sourceText(const ptx::CodeItem& item) {
    std::string guard;
    if (item.guard)
        guard = "@" + std::string(item.guard->negated ? "!" : "") + item.guard->reg + " ";
    return guard + ptx::print(item.insn());
}

/** Where label `name` stands in a thread's code. */
std::optional<std::size_t> labelIndex(const std::vector<ptx::CodeItem>& code,
                                      const std::string& name) {
    for (std::size_t k = 0; k < code.size(); ++k)
        if (code[k].label == name) return k;
    return std::nullopt;
}

} // namespace

bool Lowerer::settled() const {
    if (!path_.guard) return true;
    std::vector<ValuePtr> guards{path_.guard};
    guards.insert(guards.end(), cutGuards_.begin(), cutGuards_.end());
    return coverAll(std::move(guards));
}

void Lowerer::checkConditional(const ptx::Insn& insn) const {
    if (!conditional() || settled()) return;
    bool generic = insn.family() == ptx::Family::Generic && !insn.is<ptx::Barrier>();
    if (generic || insn.family() == ptx::Family::Control) return;
    // One event each (and the events the operation performs), which happen when the guard
    // holds: the engines count an arrive, a tx change or a copy only in the executions that
    // issue it ({MbarrierArriveOn}); a copy joins the async-group of whichever path issued it.
    if (insn.is<ptx::MbarrierArrive>() || insn.is<ptx::MbarrierTx>() || insn.is<ptx::BulkCopy>() ||
        insn.is<ptx::CpAsync>() || insn.is<ptx::CpAsyncArrive>() || insn.is<ptx::ClcTryCancel>())
        return;
    // An mbarrier wait is one event whose result the engines compute where it happens, and a
    // blocking one blocks only where it happens (a blocked wait exists: ProgramEncoder,
    // waitsHold). tcgen05.ld/st/wait/fence are events the model orders by the relations of the
    // events that happen; none carries state the lowering matches across paths (an attention
    // kernel's O rescale under a branch on data).
    if (insn.is<ptx::MbarrierWait>() || insn.is<ptx::Tcgen05Ld>() || insn.is<ptx::Tcgen05St>() ||
        insn.is<ptx::Tcgen05Wait>() || insn.is<ptx::Tcgen05Fence>())
        return;
    fail(insn.loc,
         fmt::format(
             "'{}' runs only on some paths here (the condition at {} depends on a value "
             "read at run time, and the paths do not join again); under such branches "
             "ptxmc supports loads, stores, atomics, fences, register operations, mbarrier "
             "arrives, expect_tx/complete_tx, mbarrier waits, async copies, try_cancel "
             "and tcgen05.ld/st/wait/fence; barriers, commit/wait groups, mbarrier.init/inval "
             "and the other tcgen05 operations need a point every kept execution reaches, "
             "such as the exit of a spin loop (litmus/README.md, Control flow)",
             insn.opcode, path_.conditionLoc.str()));
}

namespace {

/** The comparison of setp and Dat3M's branches as a 0/1 value. */
/** `a cmp b`, 0 or 1: on 32-bit words, or on all 64 bits (`wide`: setp's .u64, .s64, .b64). */
ValuePtr compare(ptx::CmpOp cmp, bool isSigned, const ValuePtr& a, const ValuePtr& b,
                 bool wide = false) {
    const Op eq = wide ? Op::Eq64 : Op::Eq, ltu = wide ? Op::Ltu64 : Op::Ltu;
    const Op lt = isSigned ? (wide ? Op::Lt64 : Op::Lt) : ltu;
    switch (cmp) {
    case ptx::CmpOp::Eq:
        return Value::make(eq, {a, b});
    case ptx::CmpOp::Ne:
        return Value::make(Op::Not, {Value::make(eq, {a, b})});
    case ptx::CmpOp::Lt:
        return Value::make(lt, {a, b});
    case ptx::CmpOp::Lo:
        return Value::make(ltu, {a, b});
    case ptx::CmpOp::Le:
        return Value::make(Op::Not, {Value::make(lt, {b, a})});
    case ptx::CmpOp::Ls:
        return Value::make(Op::Not, {Value::make(ltu, {b, a})});
    case ptx::CmpOp::Gt:
        return Value::make(lt, {b, a});
    case ptx::CmpOp::Hi:
        return Value::make(ltu, {b, a});
    case ptx::CmpOp::Ge:
        return Value::make(Op::Not, {Value::make(lt, {a, b})});
    case ptx::CmpOp::Hs:
        return Value::make(Op::Not, {Value::make(ltu, {a, b})});
    }
    return Value::makeConst(0);
}

} // namespace

ValuePtr asPredicate(const ValuePtr& v) {
    switch (v->op) {
    case Op::Eq:
    case Op::Not:
    case Op::LAnd:
    case Op::LOr:
    case Op::Lt:
    case Op::Ltu:
    case Op::WaitResult:
    case Op::WaitReport:
    case Op::Choice:
        return v;
    default:
        return Value::make(Op::Not, {Value::make(Op::Not, {v})});
    }
}

void Lowerer::step(std::size_t pc, std::vector<std::pair<std::size_t, ValuePtr>>& jumps,
                   bool& fallsThrough) {
    const ptx::CodeItem& inst = thread_->code[pc];
    fallsThrough = true;
    if (inst.label) return;
    const ptx::Insn& insn = inst.insn();
    if (inst.ctaGroup) noteCtaGroup(*inst.ctaGroup, inst.loc);
    auto label = [&](std::size_t i) -> std::size_t {
        const litmus::Operand& op = operand(i);
        if (op.kind != litmus::Operand::Kind::Name) fail(op.loc, "expected a label");
        if (auto k = labelIndex(thread_->code, op.name)) return *k;
        fail(op.loc, "no label '" + op.name + "' in P" + std::to_string(thread_->id));
    };
    if (insn.is<ptx::Bra>()) {
        // `@p bra L`: the guard is the branch's condition (lowerThread does not split on it).
        expectOperands(1);
        ValuePtr c = Value::makeConst(1);
        if (inst.guard) {
            c = asPredicate(value(guardOperand(*inst.guard)));
            if (inst.guard->negated) c = Value::make(Op::Not, {c});
        }
        jumps.emplace_back(label(0), c);
        fallsThrough = inst.guard.has_value();
    } else if (const auto* b = insn.as<ptx::CompareBranch>()) {
        expectOperands(3);
        ValuePtr c = compare(b->cmp, true, value(operand(0)), value(operand(1)));
        jumps.emplace_back(label(2), c);
    } else if (const auto* s = insn.as<ptx::Setp>()) {
        expectOperands(3);
        if (s->type.bits == 64)
            define(operand(0),
                   compare(s->cmp, s->type.kind == 's', value64(operand(1), s->type.kind == 's'),
                           value64(operand(2), s->type.kind == 's'), true));
        else
            define(operand(0),
                   compare(s->cmp, s->type.kind == 's', value(operand(1)), value(operand(2))));
    } else if (const auto* m = insn.as<ptx::Mov>()) {
        expectOperands(2);
        // a 64-bit mov makes a 64-bit register; a 32-bit one keeps the low half
        define(operand(0), m->type.bits == 64 ? value64(operand(1), m->type.kind == 's')
                                              : narrowed(value(operand(1))));
    } else if (insn.is<ptx::Elect>()) {
        // A litmus thread is a warp's elected lane: lane 0, and the predicate is true.
        expectOperands(3);
        value(operand(2));
        define(operand(0), Value::makeConst(0));
        define(operand(1), Value::makeConst(1));
    } else if (isWarpCollective(insn)) {
        lowerWarpCollective(*this, insn);
    } else if (insn.is<ptx::Nondet>()) {
        // 0 or 1, a choice of its own each time the path runs it (an unrolled loop's iterations
        // choose apart): the engines explore both (Value::Op::Choice).
        expectOperands(1);
        define(operand(0), newChoice(inst.loc, "nondet.pred " + operand(0).name));
    } else if (insn.is<ptx::Nanosleep>()) {
        // A delay: no event, no register, no condition (PTX ISA {Nanosleep}); its operand and
        // guard are checked like any other's.
        expectOperands(1);
        value(operand(0));
        if (inst.guard) value(guardOperand(*inst.guard));
    } else if (insn.is<ptx::Setmaxnreg>()) {
        // A register-count hint: no event and no ordering ({Setmaxnreg#}). "The value of
        // imm-reg-count must be in the range 24 to 256 (both inclusive) and must be a multiple
        // of 8."
        expectOperands(1);
        const auto& n = operand(0);
        if (n.kind != litmus::Operand::Kind::Integer || n.value < 24 || n.value > 256 ||
            n.value % 8 != 0)
            fail(n.loc, "setmaxnreg's register count is an immediate from 24 to 256, a multiple "
                        "of 8 (" +
                            ptx::cite(ptx::Sec::Setmaxnreg) + ")");
    } else if (insn.is<ptx::Griddepcontrol>()) {
        // Orders nothing within one grid ({Griddepcontrol#}): no event.
        expectOperands(0);
    } else if (insn.is<ptx::Exit>()) {
        expectOperands(0); // the thread ends: its path goes to the end of the code
        if (!path_.guard) exited_.insert(threadIndex_); // on every path: barriers stop counting it
        jumps.emplace_back(thread_->code.size(), Value::makeConst(1));
        fallsThrough = false;
    } else {
        checkConditional(insn);
        ++instance_;
        if (lowerInsn(*this, insn)) return;
        fail(inst.loc, "unknown instruction '" + insn.opcode + "'");
    }
}

void Lowerer::lowerThread(std::size_t index) {
    threadIndex_ = index;
    thread_ = &test_.threads[index];
    cutGuards_.clear();
    const auto& code = thread_->code;
    std::set<std::string> labels;
    for (const auto& inst : code)
        if (inst.label && !labels.insert(*inst.label).second)
            fail(inst.loc,
                 "label '" + *inst.label + "' defined twice in P" + std::to_string(thread_->id));
    // Every instruction is checked, also those no path reaches (a constant branch skips them).
    for (const auto& item : code) {
        if (item.label) continue;
        const ptx::Insn& insn = item.insn(); // a malformed instruction is reported here
        bool branches = insn.is<ptx::Bra>() || insn.is<ptx::CompareBranch>();
        if (branches && !insn.operands.empty()) {
            const litmus::Operand& target = insn.operands.back();
            if (target.kind == litmus::Operand::Kind::Name && !labels.count(target.name))
                fail(target.loc,
                     "no label '" + target.name + "' in P" + std::to_string(thread_->id));
        }
    }
    auto isRegister = [&](const std::string& n) { return !labels.count(n) && !decls_.count(n); };
    auto labelAt = [&](const std::string& n) { return labelIndex(code, n); };
    std::map<Point, PathState> open;
    PathState start;
    start.registers = initialRegisters_[thread_->id];
    std::optional<PathState> finished;
    auto arrive = [&](Point at, PathState&& s, const SourceLoc& where) {
        for (std::size_t site = 0; site < at.pc && site < at.taken.size(); ++site)
            at.taken[site] = 0; // loops whose backward branch lies behind are left
        if (at.pc >= code.size()) {
            if (!finished)
                finished = std::move(s);
            else
                merge(*finished, std::move(s), [&](const char* m) { fail(where, m); });
            return;
        }
        auto it = open.find(at);
        if (it == open.end())
            open.emplace(std::move(at), std::move(s));
        else
            merge(it->second, std::move(s), [&](const char* m) { fail(code[at.pc].loc, m); });
    };
    arrive(Point{std::vector<int>(code.size(), 0), 0}, std::move(start), thread_->loc);
    while (!open.empty()) {
        auto node = open.extract(open.begin());
        Point at = node.key();
        path_ = std::move(node.mapped());
        path_.arrivals.clear();
        path_.enteredAt[at.pc] = threadInfo().events.size();
        path_.guardAt[at.pc] = path_.guard;
        const ptx::CodeItem& inst = code[at.pc];
        inst_ = inst.decoded ? &*inst.decoded : nullptr;
        instIndex_ = static_cast<int>(at.pc);
        // A guard `@p` is a branch around the instruction: skipped when p is 0.
        PathState skipped;
        bool skips = false;
        bool branch = inst.decoded && inst.decoded->is<ptx::Bra>();
        // A guard on nanosleep decides only whether the thread sleeps: the paths would be the
        // same, so it splits none and adds no condition or dependency.
        bool sleeps = inst.decoded && inst.decoded->is<ptx::Nanosleep>();
        if (inst.guard && !branch) {
            auto it = registers_.find(inst.guard->reg);
            if (it == registers_.end())
                fail(inst.guard->loc, "predicate '" + inst.guard->reg + "' is never set in P" +
                                          std::to_string(thread_->id));
            ValuePtr c = asPredicate(it->second);
            if (inst.guard->negated) c = Value::make(Op::Not, {c});
            ValuePtr runs = conj(path_.guard, c);
            if (sleeps) {
                runs = path_.guard;
            } else if (!c->isConst()) {
                skipped = path_;
                skipped.guard = conj(path_.guard, Value::make(Op::Not, {c}));
                skipped.conditionLoc = inst.guard->loc;
                sourcesOf(c, skipped.ctrl);
                path_.conditionLoc = inst.guard->loc;
                sourcesOf(c, path_.ctrl);
                skips = true;
            } else if (isFalse(runs)) {
                arrive(Point{at.taken, at.pc + 1}, std::move(path_), inst.loc);
                continue;
            }
            path_.guard = runs;
        }
        std::vector<std::pair<std::size_t, ValuePtr>> jumps;
        bool fallsThrough = true;
        spinWait_ = false;
        // `L: mbarrier.try_wait p, [mb], ph; @!p bra L` is how kernels wait: one blocking wait,
        // also when they back off with nanosleep between the try and the retry (a delay only).
        std::size_t retry = at.pc + 1;
        while (retry < code.size() && !code[retry].label && code[retry].decoded &&
               code[retry].decoded->is<ptx::Nanosleep>())
            ++retry;
        if (!inst.label && retry < code.size() && at.pc > 0 && code[at.pc - 1].label) {
            const auto& next = code[retry];
            const auto& nextInsn = next.decoded;
            const ptx::Insn& insn = inst.insn();
            bool waits = insn.is<ptx::MbarrierWait>();
            bool retries = nextInsn && nextInsn->is<ptx::Bra>() && nextInsn->operands.size() == 1 &&
                           nextInsn->operands[0].name == *code[at.pc - 1].label;
            if (waits && retries && !inst.guard && next.guard && next.guard->negated &&
                !insn.operands.empty() && next.guard->reg == insn.operands[0].name) {
                spinWait_ = true;
                step(at.pc, jumps, fallsThrough);
                spinWait_ = false;
                for (std::size_t k = at.pc + 1; k < retry; ++k) { // the sleeps, checked
                    inst_ = &*code[k].decoded;
                    step(k, jumps, fallsThrough);
                }
                arrive(Point{at.taken, retry + 1}, std::move(path_), inst.loc);
                if (skips) arrive(Point{at.taken, at.pc + 1}, std::move(skipped), inst.loc);
                continue;
            }
            // CUTLASS's form (ClusterBarrier::wait): `L: try_wait p, [mb], ph; @p bra D;
            // bra L; D:`, the same blocking wait, leaving for D.
            std::optional<std::size_t> done;
            if (waits && !inst.guard && retry + 1 < code.size() && nextInsn &&
                nextInsn->is<ptx::Bra>() && next.guard && !next.guard->negated &&
                !insn.operands.empty() && next.guard->reg == insn.operands[0].name &&
                nextInsn->operands.size() == 1) {
                const auto& back = code[retry + 1];
                if (!back.label && back.decoded && back.decoded->is<ptx::Bra>() && !back.guard &&
                    back.decoded->operands.size() == 1 &&
                    back.decoded->operands[0].name == *code[at.pc - 1].label)
                    done = labelIndex(code, nextInsn->operands[0].name);
            }
            if (done && *done > retry + 1) {
                spinWait_ = true;
                step(at.pc, jumps, fallsThrough);
                spinWait_ = false;
                for (std::size_t k = at.pc + 1; k < retry; ++k) { // the sleeps, checked
                    inst_ = &*code[k].decoded;
                    step(k, jumps, fallsThrough);
                }
                arrive(Point{at.taken, *done}, std::move(path_), inst.loc);
                if (skips) arrive(Point{at.taken, at.pc + 1}, std::move(skipped), inst.loc);
                continue;
            }
        }
        step(at.pc, jumps, fallsThrough);
        for (auto& [target, cond] : jumps) {
            if (!cond->isConst()) sourcesOf(cond, path_.ctrl);
            PathState taken = path_;
            taken.guard = conj(path_.guard, cond);
            if (isFalse(taken.guard)) continue;
            if (!cond->isConst()) taken.conditionLoc = inst.loc;
            Point to{at.taken, target};
            if (target <= at.pc) {
                int& count = to.taken[at.pc];
                // The loop runs a fixed number of times when the way round adds no condition
                // on run-time values: the branch's own, or one taken inside the body.
                auto head = path_.guardAt.find(target);
                bool fixed =
                    cond->isConst() && head != path_.guardAt.end() && head->second == path_.guard;
                if (fixed && count >= kMaxConstantIterations)
                    fail(inst.loc, fmt::format("this loop runs more than {} times (its condition "
                                               "does not depend on run-time values)",
                                               kMaxConstantIterations));
                if (!fixed && count >= options_.unroll) {
                    ir::Cut cut;
                    cut.spinEligible = spinEligible(code, target, at.pc, isRegister, labelAt);
                    // The writes of the last iteration: what the path did since it entered the
                    // loop (other paths' events in that range never happen with it).
                    const auto& events = threadInfo().events;
                    // (A path that never reached the head, or went through code outside the
                    // loop's lines, has all its writes since then counted.)
                    auto entered = path_.enteredAt.find(target);
                    std::size_t from = entered == path_.enteredAt.end() ? 0 : entered->second;
                    for (std::size_t k = from; k < events.size(); ++k) {
                        const ir::Event& e = program_.events[static_cast<std::size_t>(events[k])];
                        if (e.has(ir::Tag::W)) cut.effects.push_back(e.id);
                    }
                    cut.thread = static_cast<int>(threadIndex_);
                    cut.position = static_cast<int>(threadInfo().events.size());
                    cut.guard = taken.guard;
                    cut.loc = inst.loc;
                    cut.text = sourceText(inst);
                    cutGuards_.push_back(cut.guard);
                    program_.cuts.push_back(std::move(cut));
                    continue;
                }
                ++count;
            }
            arrive(std::move(to), std::move(taken), inst.loc);
        }
        if (fallsThrough) {
            bool stays = true;
            for (auto& [target, cond] : jumps)
                if (cond->isConst() && cond->constant != 0) stays = false;
            if (stays) {
                ValuePtr notTaken = path_.guard;
                for (auto& [target, cond] : jumps)
                    if (!cond->isConst()) {
                        notTaken = conj(notTaken, Value::make(Op::Not, {cond}));
                        path_.conditionLoc = inst.loc;
                    }
                path_.guard = notTaken;
                if (!isFalse(path_.guard))
                    arrive(Point{at.taken, at.pc + 1}, std::move(path_), inst.loc);
            }
        }
        if (skips) arrive(Point{at.taken, at.pc + 1}, std::move(skipped), inst.loc);
    }
    if (finished) {
        threadInfo().finalRegisters = finished->registers;
    } else {
        threadInfo().finalRegisters = initialRegisters_[thread_->id];
    }
    path_ = PathState{};
}

} // namespace ptxmc::lower
