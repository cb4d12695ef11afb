// Reads a lane's operands: registers, special registers, variables' addresses, packed vectors.
#include "kernel/LaneValues.hpp"

#include "kernel/Arith.hpp"

namespace ptxmc::kernel {

Val LaneValues::read(const Lane& L, const std::string& raw) const {
    bool negate = !raw.empty() && raw[0] == '!';
    std::string name = negate ? raw.substr(1) : raw;
    Val v;
    if (auto it = L.regs.find(name); it != L.regs.end())
        v = it->second;
    else if (auto sp = specialRegister(name, ThreadPlace{L.cta, L.tid, L.lane, L.warp}, shape_))
        v = *sp;
    else if (auto sh = layout_.shared.find(name); sh != layout_.shared.end())
        v = Val::of(sharedBase(L.cta) | sh->second.offset);
    else if (auto lo = layout_.local.find(name); lo != layout_.local.end())
        v = Val::of(Layout::kLocal + lo->second.offset);
    else if (auto pa = layout_.params.find(name); pa != layout_.params.end())
        v = Val::of(Layout::kGenericParam + pa->second.offset);
    if (negate && v.known) v.v = v.v == 0 ? 1 : 0;
    if (negate && v.way) v.wayNegated = !v.wayNegated;
    return v;
}

Val LaneValues::value(const Lane& L, const litmus::Operand& o) const {
    switch (o.kind) {
    case litmus::Operand::Kind::Integer:
        return Val::of(static_cast<std::uint64_t>(o.value));
    case litmus::Operand::Kind::Name:
        return read(L, o.name);
    case litmus::Operand::Kind::Memory:
        return address(L, o);
    case litmus::Operand::Kind::Vector: {
        // {lo, hi} packs registers low part first (mov.b64 d, {a, b}).
        std::uint64_t v = 0;
        std::uint32_t probe = 0;
        int width = o.elements.empty() ? 0 : 64 / static_cast<int>(o.elements.size());
        for (std::size_t i = 0; i < o.elements.size(); ++i) {
            Val e = value(L, o.elements[i]);
            if (!e.known) return e;
            v |= mask(e.v, width) << (static_cast<int>(i) * width);
            if (!probe) probe = e.probe;
        }
        Val packed = Val::of(v);
        packed.probe = probe;
        return packed;
    }
    case litmus::Operand::Kind::Sink:
        return Val{};
    }
    return Val{};
}

Val LaneValues::address(const Lane& L, const litmus::Operand& o) const {
    Val base = o.name.empty() ? Val::of(0) : read(L, o.name);
    if (!base.known) return base;
    return Val::of(base.v + static_cast<std::uint64_t>(o.value));
}

RawOperand LaneValues::resolve(const Lane& L, const litmus::Operand& o) const {
    RawOperand r;
    r.loc = o.loc;
    switch (o.kind) {
    case litmus::Operand::Kind::Integer:
        r.kind = RawOperand::Kind::Imm;
        r.value = Val::of(static_cast<std::uint64_t>(o.value));
        break;
    case litmus::Operand::Kind::Sink:
        r.kind = RawOperand::Kind::Sink;
        break;
    case litmus::Operand::Kind::Name:
        r.kind = RawOperand::Kind::Reg;
        r.reg = o.name;
        r.value = read(L, o.name);
        for (const auto& e : o.elements)
            r.elements.push_back(resolve(L, e));
        break;
    case litmus::Operand::Kind::Memory:
        r.kind = RawOperand::Kind::Addr;
        r.value = address(L, o);
        r.reg = o.name;
        for (const auto& e : o.elements)
            r.elements.push_back(resolve(L, e));
        break;
    case litmus::Operand::Kind::Vector:
        r.kind = RawOperand::Kind::Vec;
        for (const auto& e : o.elements)
            r.elements.push_back(resolve(L, e));
        break;
    }
    return r;
}

std::uint32_t LaneValues::fieldOf(const Lane& L, const litmus::Instruction& in) const {
    for (std::size_t i = 1; i < in.operands.size(); ++i)
        if (Val v = value(L, in.operands[i]); !v.known && v.field) return v.field;
    return 0;
}

void LaneValues::set(Lane& L, const litmus::Operand& o, Val v) {
    Val unknown{false, v.known ? 0 : v.field, 0, v.probe};
    if (o.kind == litmus::Operand::Kind::Name && !o.name.empty() && o.name[0] != '!')
        L.regs[o.name] = v;
    if (o.kind == litmus::Operand::Kind::Name)
        for (const auto& e : o.elements)
            L.regs[e.name] = unknown;
    if (o.kind == litmus::Operand::Kind::Vector)
        for (const auto& e : o.elements)
            if (e.kind == litmus::Operand::Kind::Name) L.regs[e.name] = unknown;
}

void LaneValues::unknownDests(Lane& L, const litmus::Instruction& in, std::uint32_t field) {
    if (!in.operands.empty()) set(L, in.operands[0], Val{false, field, 0});
}

} // namespace ptxmc::kernel
