// Decoded litmus test -> one CUDA C++ file: the test kernel, the histogram kernel and the runner's
// entry.
#pragma once

#include "hw/Plan.hpp"
#include "litmus/Ast.hpp"
#include "ptx/Program.hpp"

#include <string>

namespace ptxmc::validate {

struct Generated {
    std::string id;   ///< C++ namespace and file stem, unique per test (and mutation)
    std::string name; ///< test name; a mutant's is NAME~MUTATION
    Arch arch = Arch::Sm90a;
    std::string code; ///< the whole .cu file
    /** compileOnly: what the kernel does not mirror (it is for ptxas, and the runner skips it) */
    std::string notFaithful;
};

/** Where a generated test came from: the file to record, and for a mutant its origin. */
struct Origin {
    std::string file;     ///< the litmus file as the runner should report it
    std::string mutantOf; ///< "" or the name of the forbidden test
    std::string mutation; ///< "" or the mutation text
};

/**
 * Generates the CUDA source of `test` (already mutated for a mutant). Throws InputError when the
 * test is malformed, Refused when it has no faithful mapping to hardware. With `compileOnly`,
 * emits what it can anyway (Generated::notFaithful says what is off): such a kernel is
 * ptxas-checked and never run.
 */
Generated generateCuda(const ptx::Program& test, const Origin& origin, bool compileOnly = false);
/** decodeProgram, then the above. */
Generated generateCuda(const litmus::Test& test, const Origin& origin, bool compileOnly = false);

/** The identifier the generator derives from a name: readable, and unique by a hash suffix. */
std::string testId(const std::string& name);

} // namespace ptxmc::validate
