// Integer semantics of PTX's arithmetic, comparison and conversion instructions on known values.
#pragma once

#include "kernel/Machine.hpp"
#include "ptx/ModuleOps.hpp"
#include "ptx/ValueForm.hpp"

#include <optional>
#include <vector>

namespace ptxmc::kernel {

std::uint64_t mask(std::uint64_t v, int bits);
std::int64_t signExtend(std::uint64_t v, int bits);

/**
 * The value an arithmetic instruction writes to its first operand, given its inputs' values;
 * nullopt when PTX leaves it to data (floating point, an unknown input) or the opcode is not
 * arithmetic. `known` says whether the opcode is one this evaluator computes.
 */
std::optional<std::uint64_t> arithmetic(ptx::ModuleOp op, const ptx::ValueForm& form,
                                        const std::vector<Val>& in, bool& known);

/** setp's comparison of a and b under `type`; nullopt where it has no value (Comparison::None). */
std::optional<bool> compare(ptx::Comparison op, std::uint64_t a, std::uint64_t b,
                            std::optional<ptx::ScalarType> type);

/**
 * setp's predicate: a compared with b, then combined (.and, .or, .xor) with the predicate `c`
 * where the instruction has one. Unknown when an input is, unless the combination's known side
 * decides it; an unknown result keeps the parameter field and the probe it depends on.
 */
Val setpValue(const ptx::ValueForm& form, const Val& a, const Val& b, const std::optional<Val>& c);

} // namespace ptxmc::kernel
