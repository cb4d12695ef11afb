// Follows a lane's parameter loads, .local accesses and loads of bytes the host wrote.
#include "kernel/LaneMemory.hpp"

#include <fmt/format.h>

namespace ptxmc::kernel {

void LaneMemory::paramLoad(Lane& L, const litmus::Instruction& in, Val addr) {
    const litmus::Operand& d = in.operands[0];
    std::uint64_t bytes = ParamFields::loadBytes(in.parts);
    if (d.kind != litmus::Operand::Kind::Vector) {
        LaneValues::set(L, d, params_.load(L.pc, addr, 0, bytes, out_.paramReads));
        return;
    }
    for (std::size_t i = 0; i < d.elements.size(); ++i)
        if (d.elements[i].kind == litmus::Operand::Kind::Name)
            L.regs[d.elements[i].name] =
                params_.load(L.pc, addr, i * bytes, bytes, out_.paramReads);
}

bool LaneMemory::hostLoad(Lane& L, const litmus::Instruction& in, std::uint64_t addr) {
    // global memory: a .global load, or a generic one below the shared and param windows
    bool global = ptx::hasQualifier(in.parts, "global") ||
                  (!ptx::hasQualifier(in.parts, "shared") &&
                   !ptx::hasQualifier(in.parts, "local") && !ptx::hasQualifier(in.parts, "const") &&
                   !ptx::hasQualifier(in.parts, "param") && addr < Layout::kGenericShared);
    if (launch_.globals.empty() || !global) return false;
    const litmus::Operand& d = in.operands[0];
    std::uint64_t bytes = ParamFields::loadBytes(in.parts);
    std::size_t count = d.kind == litmus::Operand::Kind::Vector ? d.elements.size() : 1;
    auto it = launch_.globals.upper_bound(addr);
    if (it == launch_.globals.begin()) return false;
    --it;
    const std::vector<std::uint8_t>& buf = it->second;
    std::uint64_t at = addr - it->first;
    if (at >= buf.size()) return false;
    if (at + bytes * count > buf.size())
        throw InputError(in.loc, fmt::format("this {}-byte load at 0x{:x} reads past the end of "
                                             "the {} bytes --global gives at 0x{:x}",
                                             bytes * count, addr, buf.size(), it->first));
    auto element = [&](std::size_t i) {
        std::uint64_t v = 0;
        for (std::uint64_t b = 0; b < bytes && b < 8; ++b)
            v |= std::uint64_t{buf[at + i * bytes + b]} << (8 * b);
        return Val::of(v);
    };
    if (d.kind == litmus::Operand::Kind::Vector) {
        for (std::size_t i = 0; i < count; ++i)
            if (d.elements[i].kind == litmus::Operand::Kind::Name)
                L.regs[d.elements[i].name] = element(i);
    } else {
        LaneValues::set(L, d, element(0));
    }
    return true;
}

bool LaneMemory::localAccess(Lane& L, const litmus::Instruction& in, bool store) {
    if (in.operands.size() < 2) return false;
    const litmus::Operand& m = in.operands[store ? 0 : 1];
    if (m.kind != litmus::Operand::Kind::Memory) return false;
    Val a = values_.address(L, m);
    bool local = ptx::hasQualifier(in.parts, "local") ||
                 (a.known && a.v >= Layout::kLocal && a.v < Layout::kLocal + (1ULL << 32));
    if (!local) return false;
    if (!a.known) // the lane's own memory at an address it cannot tell: data
        failOnValue(m.loc, "the .local address of this " + in.opcode + " depends on ", out_, a,
                    "data", ": ptxmc follows .local memory at addresses the launch decides");
    std::uint64_t bytes = ParamFields::loadBytes(in.parts);
    const litmus::Operand& r = in.operands[store ? 1 : 0];
    std::vector<const litmus::Operand*> regs;
    if (r.kind == litmus::Operand::Kind::Vector)
        for (const auto& e : r.elements)
            regs.push_back(&e);
    else
        regs.push_back(&r);
    for (std::size_t i = 0; i < regs.size(); ++i) {
        std::uint64_t at = a.v + i * bytes;
        if (store) {
            L.local[at] = values_.value(L, *regs[i]);
        } else if (regs[i]->kind == litmus::Operand::Kind::Name) {
            auto it = L.local.find(at);
            L.regs[regs[i]->name] = it == L.local.end() ? Val{} : it->second;
        }
    }
    return true;
}

} // namespace ptxmc::kernel
