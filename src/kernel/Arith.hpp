// Integer semantics of PTX's arithmetic, comparison and conversion instructions on known values.
#pragma once

#include "kernel/Machine.hpp"
#include "ptx/ModuleOps.hpp"

#include <string>
#include <vector>

namespace ptxmc::kernel {

/** An integer type qualifier: .u32 -> {32, false}; .s64 -> {64, true}; .pred -> {1, false}. */
struct IntType {
    int bits = 64;
    bool isSigned = false;
    bool isFloat = false;
};
std::optional<IntType> intType(const std::string& part);
/** The last type qualifier of an opcode's parts (`add.s32` -> s32). */
IntType lastType(const std::vector<std::string>& parts);

std::uint64_t mask(std::uint64_t v, int bits);
std::int64_t signExtend(std::uint64_t v, int bits);

/**
 * The value an arithmetic instruction writes to its first operand, given its inputs' values;
 * nullopt when PTX leaves it to data (floating point, an unknown input) or the opcode is not
 * arithmetic. `ok` says whether the opcode is one this evaluator knows.
 */
std::optional<std::uint64_t> arithmetic(const std::vector<std::string>& parts,
                                        const std::vector<Val>& in, bool& known);
/** The same for an instruction whose row of ptx/ModuleOps.def is known: `op`. */
std::optional<std::uint64_t> arithmetic(ptx::ModuleOp op, const std::vector<std::string>& parts,
                                        const std::vector<Val>& in, bool& known);

/** setp's comparison of a and b (`.eq`, `.lt`, `.lo`, ...) under `type`. */
std::optional<bool> compare(const std::string& op, std::uint64_t a, std::uint64_t b, IntType type);

/**
 * setp's predicate: a compared with b, then combined (.and, .or, .xor) with the predicate `c`
 * where the instruction has one. Unknown when an input is, unless the combination's known side
 * decides it; an unknown result keeps the parameter field and the probe it depends on.
 */
Val setpValue(const std::vector<std::string>& parts, const Val& a, const Val& b,
              const std::optional<Val>& c);

} // namespace ptxmc::kernel
