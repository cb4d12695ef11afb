// Canonical PTX text of a typed instruction: generators build an Insn and print it.
#pragma once

#include "ptx/Insn.hpp"

#include <string>

namespace ptxmc::ptx {

/** The dotted opcode with its qualifiers in PTX order, e.g. `ld.acquire.gpu.global.u32`. */
std::string printOpcode(const Op& op);
/** An operand as a litmus test writes it: `r0`, `5`, `[x@1+2]`, `{r0, r1}`, `_`. */
std::string printOperand(const litmus::Operand& o);
/** The whole instruction: opcode, then the operands separated by ", ". */
std::string print(const Insn& insn);
/** Writes `i` into a litmus instruction: canonical opcode text, its parts, the operands. */
void writeBack(const Insn& i, litmus::Instruction& inst);

} // namespace ptxmc::ptx
