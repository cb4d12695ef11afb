// Repeated plain accesses of the extracted program kept once (the argument is in Repeats.hpp).
#include "kernel/Repeats.hpp"

#include "ptx/Decode.hpp"
#include "support/SourceLoc.hpp"

#include <optional>
#include <set>
#include <string>

namespace ptxmc::kernel {

namespace {

bool sameOperand(const litmus::Operand& a, const litmus::Operand& b) {
    if (a.kind != b.kind || a.name != b.name || a.value != b.value || a.cta != b.cta ||
        a.indexReg != b.indexReg || a.indexScale != b.indexScale ||
        a.elements.size() != b.elements.size())
        return false;
    for (std::size_t i = 0; i < a.elements.size(); ++i)
        if (!sameOperand(a.elements[i], b.elements[i])) return false;
    return true;
}

bool sameOperands(const litmus::Instruction& a, const litmus::Instruction& b, std::size_t from) {
    if (a.operands.size() != b.operands.size()) return false;
    for (std::size_t i = from; i < a.operands.size(); ++i)
        if (!sameOperand(a.operands[i], b.operands[i])) return false;
    return true;
}

enum class PlainAccess { None, Load, Store, Mma, InitFence };

/** `ld{.weak}.space.type r, [a]` or `st{.weak}.space.type [a], v`, unguarded and synchronous. */
PlainAccess plainAccess(const litmus::Instruction& in) {
    if (in.label || in.guard) return PlainAccess::None;
    std::optional<ptx::Insn> insn;
    try {
        insn = ptx::decode(in);
    } catch (const InputError&) {
        return PlainAccess::None; // the check reports it
    }
    auto weak = [](ptx::Sem s) { return s == ptx::Sem::None || s == ptx::Sem::Weak; };
    if (const auto* st = insn->as<ptx::St>())
        return st->name == ptx::StName::St && !st->async && !st->mmio && weak(st->sem)
                   ? PlainAccess::Store
                   : PlainAccess::None;
    if (const auto* ld = insn->as<ptx::Ld>())
        return ld->name == ptx::LdName::Ld && weak(ld->sem) ? PlainAccess::Load : PlainAccess::None;
    if (insn->is<ptx::WgmmaMma>()) return PlainAccess::Mma;
    if (const auto* f = insn->as<ptx::Fence>(); f && f->mbarrierInit) return PlainAccess::InitFence;
    return PlainAccess::None;
}

void collectNames(const litmus::Operand& o, std::set<std::string>& out) {
    if (o.kind == litmus::Operand::Kind::Name) out.insert(o.name);
    if (o.indexReg) out.insert(*o.indexReg);
    for (const auto& e : o.elements)
        collectNames(e, out);
}

/** The registers a thread's instructions read (every operand but a plain load's destination). */
std::set<std::string> registersRead(const litmus::Thread& t) {
    std::set<std::string> out;
    for (const auto& in : t.code) {
        if (in.guard) out.insert(in.guard->reg);
        const bool load = !in.operands.empty() && plainAccess(in) == PlainAccess::Load;
        for (std::size_t i = load ? 1 : 0; i < in.operands.size(); ++i)
            collectNames(in.operands[i], out);
    }
    return out;
}

/** Whether an instruction reads one of `regs` (an operand from `from` on, or its guard). */
bool readsAny(const litmus::Instruction& in, const std::set<std::string>& regs, std::size_t from) {
    if (in.guard && regs.count(in.guard->reg)) return true;
    std::set<std::string> names;
    for (std::size_t i = from; i < in.operands.size(); ++i)
        collectNames(in.operands[i], names);
    for (const std::string& n : names)
        if (regs.count(n)) return true;
    return false;
}

/**
 * Whether the values the wgmma.mma_async at `at` writes reach nothing but registers: its
 * accumulator, and what later wgmma.mma_async, mov and arithmetic instructions of the thread
 * compute from it. Dropping a repeated mma changes those values (one product fewer in the sum),
 * so it is dropped only where no store, address, guard, barrier count or other operand reads
 * them.
 */
bool valuesStayInRegisters(const litmus::Thread& t, std::size_t at) {
    std::set<std::string> reached;
    collectNames(t.code[at].operands.at(0), reached);
    for (std::size_t i = at + 1; i < t.code.size(); ++i) {
        const litmus::Instruction& in = t.code[i];
        if (in.operands.empty() || !readsAny(in, reached, 0)) continue;
        if (in.guard && reached.count(in.guard->reg)) return false;
        std::optional<ptx::Insn> insn;
        try {
            insn = ptx::decode(in);
        } catch (const InputError&) {
            return false;
        }
        const bool computes =
            insn->is<ptx::WgmmaMma>() || insn->is<ptx::Mov>() || insn->is<ptx::Arith>();
        if (!computes || in.operands[0].kind == litmus::Operand::Kind::Memory) return false;
        collectNames(in.operands[0], reached); // its destination now holds such a value
    }
    return true;
}

bool repeats(const litmus::Instruction& before, const litmus::Instruction& in,
             const std::set<std::string>& read) {
    if (before.opcode != in.opcode) return false;
    switch (plainAccess(in)) {
    case PlainAccess::Store:
        return plainAccess(before) == PlainAccess::Store && sameOperands(before, in, 0);
    case PlainAccess::Load:
        return plainAccess(before) == PlainAccess::Load && sameOperands(before, in, 1) &&
               in.operands.at(0).kind == litmus::Operand::Kind::Name &&
               !read.count(in.operands[0].name);
    case PlainAccess::Mma:
    case PlainAccess::InitFence:
        return plainAccess(before) == plainAccess(in) && sameOperands(before, in, 0);
    case PlainAccess::None:
        return false;
    }
    return false;
}

} // namespace

std::size_t dropRepeatedAccesses(litmus::Test& test) {
    if (test.condition && test.condition->prop &&
        test.condition->prop->kind != litmus::Prop::Kind::True)
        return 0; // a final condition may name any register: nothing is dropped
    if (!test.observed.empty()) return 0;
    std::size_t dropped = 0;
    for (litmus::Thread& t : test.threads) {
        const std::set<std::string> read = registersRead(t);
        std::vector<litmus::Instruction> kept;
        kept.reserve(t.code.size());
        for (std::size_t i = 0; i < t.code.size(); ++i) {
            litmus::Instruction& in = t.code[i];
            if (!kept.empty() && repeats(kept.back(), in, read) &&
                (plainAccess(in) != PlainAccess::Mma || valuesStayInRegisters(t, i))) {
                ++dropped;
                continue;
            }
            kept.push_back(std::move(in));
        }
        t.code = std::move(kept);
    }
    return dropped;
}

} // namespace ptxmc::kernel
