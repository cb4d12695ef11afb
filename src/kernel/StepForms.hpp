// What a recorded step is, for the builder: its mbarrier operand, its kind of copy, its
// access width, and its opcode less the hints the checker does not read.
#pragma once

#include "kernel/Machine.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ptxmc::kernel {

/** The indices of `s`'s address operands. */
std::vector<std::size_t> addrOperands(const Step& s);
/** Which operand of `s` is an mbarrier, if any. */
std::optional<std::size_t> mbarrierOperand(const Step& s);

/** cp.async.bulk{.tensor} (with its commit_group and wait_group). */
bool isBulkCopy(const Step& s);
/** cp.reduce.async.bulk{.tensor}. */
bool isReduceBulk(const Step& s);
/** cp.async.bulk.tensor and cp.reduce.async.bulk.tensor: the global side is [tensorMap, {c...}]. */
bool isTensor(const Step& s);
/** cp.async.{ca,cg} and cp.async.mbarrier.arrive: the non-bulk copies and their arrive. */
bool isNonBulkAsync(const Step& s);

/** `in`'s opcode: `s`'s without the hints the checker does not read (and their operands). */
void stripHints(litmus::Instruction& in, std::vector<RawOperand>& ops, const Step& s);
/** A vector or 128-bit access as one access of its first element; false if `in` is neither. */
bool narrowWide(litmus::Instruction& in);
/** An 8- or 16-bit ld/st as a 32-bit access of its location (the location is a buffer). */
bool widenSubWord(litmus::Instruction& in);
/** tcgen05.ld/st .xN -> .x1; returns N. */
std::size_t oneRepetition(litmus::Instruction& in);

/** stmatrix .x1/.x2/.x4: how many lanes give row addresses (8, 16 or 32). */
std::size_t stmatrixAddressLanes(const Step& s);
/** The bytes one lane's access covers: its type's width times its vector length. */
int accessBytes(const Step& s);
/** The width of `s`'s last type qualifier (32 when none). */
int lastBits(const Step& s);

} // namespace ptxmc::kernel
