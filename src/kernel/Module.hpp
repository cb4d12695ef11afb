// A PTX module as nvcc writes it: entries, their parameters, declarations and statements.
#pragma once

#include "litmus/Ast.hpp"
#include "ptx/ModuleOps.hpp"
#include "ptx/ValueForm.hpp"
#include "support/SourceLoc.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ptxmc::kernel {

/** One line of a CUDA source file. */
struct SourceLine {
    std::string file; ///< the `.file` entry's path
    int line = 0;
};

/**
 * A `.loc FILE LINE COL` debug line: where in the CUDA source the next instructions came from,
 * the innermost line (inside the helpers inlined into the kernel), with the call sites it was
 * inlined through (nvcc -lineinfo: `function_name ..., inlined_at F L C`).
 */
struct CudaLine {
    std::string file; ///< the innermost line's file
    int line = 0;
    /// the call sites, innermost first; the last is in the kernel's own function
    std::vector<SourceLine> inlinedAt;

    /** The innermost line, then its call sites out to the kernel's own line. */
    std::vector<SourceLine> frames() const;
    /** The innermost line outside the CUDA toolkit's headers (code the user can change). */
    SourceLine userLine() const;
};

/** "a.cuh:40, inlined at k.cu:142": the innermost line first, each call site after it. */
std::string cudaText(const CudaLine& c);

/** A header of the CUDA toolkit (`.../cuda/include/...`, `targets/.../include`), not user code. */
bool isToolkitHeader(const std::string& path);

/** The state space a variable is declared in (5.1 "State Spaces"). */
enum class VarSpace { Shared, Global, Const, Local, Param };

/** A variable in a state space: `.shared .align 8 .b8 name[16];`, `.param .u64 name`. */
struct Variable {
    std::string name;
    VarSpace space = VarSpace::Global;
    std::uint64_t bytes = 0;
    std::uint64_t align = 1;
    bool isExtern = false; ///< `.extern .shared ... name[]`: dynamic shared memory
    SourceLoc loc;
};

/** One statement of an entry's body. */
struct Statement {
    enum class Kind { Label, Instruction };
    Kind kind = Kind::Instruction;
    std::string label;        ///< Label
    litmus::Instruction insn; ///< Instruction: opcode, parts, operands, guard, loc
    /// Instruction: its row of ptx/ModuleOps.def, looked up once when the module is parsed
    ptx::ModuleOp op = ptx::ModuleOp::Other;
    /// Instruction: what the evaluator does with it (a call's from its callee)
    ptx::ModuleRole role = ptx::ModuleRole::Data;
    /// Instruction: its types, comparison and other value qualifiers, decoded with `op`
    ptx::ValueForm value;
    int scope = 0;                ///< the innermost `{ }` block holding it (0: the body)
    std::optional<CudaLine> cuda; ///< the `.loc` in force
    SourceLoc loc;
};

/** A `{ }` block: labels inside are visible to branches inside it (inline asm reuses names). */
struct Scope {
    int parent = -1;
    std::map<std::string, std::size_t> labels; ///< label -> statement index
};

/** `.entry` (or `.func`) with its parameters, directives and body. */
struct Function {
    std::string name;
    bool isEntry = false;
    std::vector<Variable> params;
    std::vector<Variable> locals; ///< `.shared`/`.local` declared in the body
    std::optional<std::array<int, 3>> reqntid, maxntid, reqnctapercluster;
    std::vector<Statement> body;
    std::vector<Scope> scopes; ///< scopes[0] is the body
    SourceLoc loc;
};

struct Module {
    std::string file;
    std::string version, target;
    int addressSize = 64;
    std::vector<Variable> globals; ///< module-level `.shared`/`.global`/`.const`
    std::vector<Function> functions;
    std::map<int, std::string> files; ///< `.file K "path"`
};

/** Parses a PTX module; throws InputError at the first malformed construct. */
Module parseModule(const std::string& text, const std::string& file);
Module parseModuleFile(const std::string& path);

} // namespace ptxmc::kernel
