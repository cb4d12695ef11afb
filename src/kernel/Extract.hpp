// From a PTX module to the program ptxmc checks: one thread per warp that synchronizes, named
// locations for the mbarriers and async buffers, and notes on what was assumed.
#pragma once

#include "kernel/Launch.hpp"
#include "kernel/Machine.hpp"
#include "kernel/Module.hpp"
#include "litmus/Ast.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace ptxmc::kernel {

/** What the extraction did, for --stats and the report. */
struct KernelStats {
    int ctas = 0, warps = 0, threads = 0; ///< threads: litmus threads (warps that synchronize)
    std::size_t events = 0;               ///< instructions in the extracted program
    std::uint64_t executed = 0;           ///< instructions the evaluation executed
    std::size_t droppedData = 0;          ///< data accesses outside async buffers, not kept
    std::size_t repeatedAccesses = 0; ///< plain accesses and mmas repeating the one before, dropped
};

struct KernelProgram {
    litmus::Test test; ///< the extracted program; instruction positions point into the PTX
    std::vector<Note> notes;
    KernelStats stats;
    /// PTX line -> CUDA file:line, from the module's .loc lines
    std::map<int, CudaLine> cudaLines;
    /// parameter fields given that no load of the launch read (Extraction::unread)
    std::vector<Note> unread;
    /// per litmus thread: "CTA c warp w"
    std::vector<std::string> threadNames;
    /// PTX line -> the locations (barriers, buffers) its instructions name
    std::map<int, std::set<std::string>> locationsAt;
    /// location -> the first instruction in the module that names it (its PTX position and
    /// opcode): where a finding says the location comes from in the code
    std::map<std::string, std::pair<SourceLoc, std::string>> firstUse;
};

/** Parses nothing: evaluates `m`'s entry under `launch` and builds the program to check. */
KernelProgram extractKernel(const Module& m, const Launch& launch);

/** The program as a litmus test a user can read, edit and re-check with `ptxmc check`. */
std::string renderLitmus(const KernelProgram& k);

/**
 * A witness note in the kernel's terms: each "nondet.pred way_l56_1 (loc) is 1" of the
 * extracted program (the choice of a branch on data, Extract's way names) becomes "the guard
 * at line 56 holds (its run 2)" ("... fails" for 0: a branch falls through, an instruction is
 * skipped); any other text is kept.
 */
std::string wayWords(const std::string& note);

/** nvcc's local static `_ZZ4kernPfE8full_bar` -> `full_bar`; parameters `_Z4kernPf_param_1` ->
 * `param_1`. */
std::string shortName(const std::string& mangled);

} // namespace ptxmc::kernel
