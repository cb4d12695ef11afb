// Operand builders for generators that assemble a ptx::Insn to print.
#pragma once

#include "ptx/Insn.hpp"

#include <initializer_list>
#include <string>

namespace ptxmc::ptx {

inline litmus::Operand reg(const std::string& name) {
    litmus::Operand o;
    o.kind = litmus::Operand::Kind::Name;
    o.name = name;
    return o;
}

inline litmus::Operand imm(std::int64_t value) {
    litmus::Operand o;
    o.kind = litmus::Operand::Kind::Integer;
    o.value = value;
    return o;
}

/** `[name]`, or `[name+offset]` for a non-zero offset. */
inline litmus::Operand mem(const std::string& name, std::int64_t offset = 0) {
    litmus::Operand o;
    o.kind = litmus::Operand::Kind::Memory;
    o.name = name;
    o.value = offset;
    return o;
}

inline litmus::Operand vec(std::initializer_list<std::string> names) {
    litmus::Operand o;
    o.kind = litmus::Operand::Kind::Vector;
    for (const std::string& n : names)
        o.elements.push_back(reg(n));
    return o;
}

inline litmus::Operand sink() {
    litmus::Operand o;
    o.kind = litmus::Operand::Kind::Sink;
    return o;
}

/** An instruction to print: `op` with `operands`. */
inline Insn make(Op op, std::vector<litmus::Operand> operands = {}) {
    return Insn{std::move(op), std::move(operands), {}, {}};
}

} // namespace ptxmc::ptx
