// Runs arithmetic and setp statements on a lane's registers.
#include "kernel/LaneArith.hpp"

#include "kernel/AddressWindows.hpp"
#include "kernel/Arith.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace ptxmc::kernel {

using ptx::ModuleOp;

namespace {

void unpack(Lane& L, const litmus::Instruction& in, const LaneValues& values) {
    const litmus::Operand& d = in.operands[0];
    Val src = in.operands.size() > 1 ? values.value(L, in.operands[1]) : Val{};
    int width = 64 / std::max<int>(1, static_cast<int>(d.elements.size()));
    for (std::size_t i = 0; i < d.elements.size(); ++i)
        if (d.elements[i].kind == litmus::Operand::Kind::Name) {
            Val part =
                src.known ? Val::of(mask(src.v >> (static_cast<int>(i) * width), width)) : src;
            part.probe = src.probe;
            L.regs[d.elements[i].name] = part;
        }
}

Val compute(const Statement& s, const std::vector<Val>& ins) {
    if (s.op == ModuleOp::Cvta) return cvtaAddress(s.insn.parts, ins);
    if (s.op == ModuleOp::Mapa) return mapaAddress(ins);
    if (s.op == ModuleOp::Getctarank) return ctarankOf(ins);
    bool known = false;
    if (auto r = arithmetic(s.op, s.value, ins, known)) return Val::of(*r);
    return Val{};
}

} // namespace

void runArith(Lane& L, const Statement& s, const LaneValues& values) {
    const litmus::Instruction& in = s.insn;
    if (in.operands.empty()) return;
    const litmus::Operand& d = in.operands[0];
    // ptxas refuses an arithmetic result written to a constant or to memory; taking it would
    // drop the result silently.
    if (d.kind == litmus::Operand::Kind::Integer || d.kind == litmus::Operand::Kind::Memory)
        throw InputError(
            d.loc,
            fmt::format("'{}' writes its result to a {}, not a register", in.opcode,
                        d.kind == litmus::Operand::Kind::Integer ? "constant" : "memory operand"));
    if (s.op == ModuleOp::Mov && d.kind == litmus::Operand::Kind::Vector)
        return unpack(L, in, values);
    std::vector<Val> ins;
    for (std::size_t i = 1; i < in.operands.size(); ++i)
        ins.push_back(values.value(L, in.operands[i]));
    Val out = compute(s, ins);
    for (const Val& v : ins) {
        if (!out.known && !out.field && !v.known) out.field = v.field;
        if (!out.probe) out.probe = v.probe;
    }
    if (out.known && s.op != ModuleOp::Mov && s.op != ModuleOp::Cvta && s.op != ModuleOp::Mapa) {
        // keep a result's width: the destination's type
        int bits = s.value.type ? std::min(s.value.type->bits, 64) : 64;
        if (s.op != ModuleOp::Cvt && s.value.product != ptx::ProductPart::Wide)
            out.v = mask(out.v, bits);
    }
    LaneValues::set(L, d, out);
}

void runSetp(Lane& L, const Statement& s, const LaneValues& values) {
    const litmus::Instruction& in = s.insn;
    if (in.operands.size() < 3) throw InputError(in.loc, "setp needs a predicate and two operands");
    Val a = values.value(L, in.operands[1]), b = values.value(L, in.operands[2]);
    std::optional<Val> c;
    if (in.operands.size() > 3) c = values.value(L, in.operands[3]); // .and/.or/.xor's predicate
    Val result = setpValue(s.value, a, b, c);
    const litmus::Operand& d = in.operands[0];
    if (d.kind == litmus::Operand::Kind::Name && d.name != "_") L.regs[d.name] = result;
    if (!d.elements.empty())
        L.regs[d.elements[0].name] = result.known ? Val::of(result.v == 0 ? 1 : 0) : result;
}

} // namespace ptxmc::kernel
