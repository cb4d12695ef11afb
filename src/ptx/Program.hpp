// The decoded program: a litmus test's threads with every instruction decoded once.
#pragma once

#include "litmus/Ast.hpp"
#include "ptx/Insn.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ptxmc::ptx {

/** One cell of a thread's code: a label, or a decoded instruction with its guard. */
struct CodeItem {
    std::optional<std::string> label;       ///< `NAME:` (then there is no instruction)
    std::optional<litmus::Predicate> guard; ///< `@p` / `@!p` before the opcode
    SourceLoc loc;                          ///< the opcode's (or label's) first character
    /// The .cta_group the decoder met (tcgen05): lowering notes it where a path reaches it
    std::optional<int> ctaGroup;
    std::optional<Insn> decoded;
    /// Why the text did not decode: kept, not thrown, so that each consumer reports it where
    /// it reported it before (lowering: after the declarations and the threads before this one)
    std::optional<InputError> error;

    bool isLabel() const { return label.has_value(); }
    /** The decoded instruction; throws the decoder's InputError when the text was malformed. */
    const Insn& insn() const;
};

/** A thread with its placement (`P0@cta 0,gpu 0,cluster 1`). */
struct Thread {
    int id = 0;
    int cta = 0;
    int gpu = 0;
    std::optional<int> cluster; ///< absent: the CTA is its own cluster
    std::vector<CodeItem> code;
    SourceLoc loc;
};

/**
 * A test as the front ends deliver it: declarations, threads of decoded instructions and the
 * final condition as written (lowering resolves it). Nothing after it reads instruction text.
 */
struct Program {
    std::string name;
    std::string file;
    std::vector<std::string> docs;
    std::vector<litmus::LocationDecl> locations;
    std::vector<litmus::RegisterInit> registers;
    std::vector<Thread> threads;
    std::vector<litmus::Ref> observed; ///< `locations [x; P1:r0;]`
    std::optional<litmus::Condition> condition;
};

/** Decodes every instruction of `test` once; a malformed one keeps its error (CodeItem). */
Program decodeProgram(const litmus::Test& test);

/** Decodes one cell of a code table. */
CodeItem decodeItem(const litmus::Instruction& inst);

} // namespace ptxmc::ptx
