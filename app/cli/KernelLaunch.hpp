// The launch options of a kernel's PTX (`kernel`, `explain`): one spelling and one parse each.
#pragma once

#include "engine/Result.hpp"
#include "ir/Program.hpp"
#include "kernel/Extract.hpp"
#include "kernel/Launch.hpp"
#include "kernel/Module.hpp"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace ptxmc::cli {

/** --entry, --block, --cluster, --grid, --param, --param-bytes, --params, --global,
 *  --dynamic-smem, --tiles, --max-steps
 *  as given (text until launchOf checks them). */
struct LaunchArgs {
    std::string entry;
    std::string block, cluster, grid;
    std::vector<std::string> params;
    std::vector<std::string> paramBytes; ///< --param-bytes NAME=FILE
    std::string paramsFile;              ///< --params FILE
    std::vector<std::string> globals;
    std::uint64_t dynamicSmem = kernel::Launch{}.dynamicShared;
    std::uint64_t maxSteps = kernel::Launch{}.maxSteps;
    int tiles = kernel::Launch{}.tiles;
};

/** Adds the launch options to `sub`; returns them, so a caller can tell which were given. */
std::vector<CLI::Option*> addLaunchOptions(CLI::App& sub, LaunchArgs& args);

/** The launch the options describe; a malformed value is an InputError naming its option. */
kernel::Launch launchOf(const LaunchArgs& args);

/** A PTX module rather than a litmus test: the name ends in .ptx, or the first line that is not
 *  blank or a // comment is a .version directive (what nvcc and cuobjdump write first). */
bool isPtxModule(const std::string& path);

/** Extracts `m`'s entry under `launch`; an entry with nothing to check is an InputError. */
kernel::KernelProgram extractEntry(const kernel::Module& m, const kernel::Launch& launch);

/** Parses the module at `path` and extracts its entry under `launch` (as `ptxmc kernel` does);
 *  an entry with nothing to check is an InputError. */
kernel::KernelProgram extractKernelFile(const std::string& path, const kernel::Launch& launch);

/** The `.loc` line of the PTX line an event is at, when the module has one. */
const kernel::CudaLine* cudaLineOf(const engine::EventRef& e, const kernel::KernelProgram& k);

/** Which run of its PTX instruction an event is, in its thread (1-based), of how many: a
 *  loop the extraction unrolled gives one instruction several runs. {0, 0} for initial writes. */
struct InstructionRun {
    int run = 0;
    int of = 0;
};

/** The run of each event of `p` (indexed by event id). */
std::vector<InstructionRun> instructionRuns(const ir::Program& p);

/**
 * "CTA 0 warp 4: mbarrier.try_wait... at gemm.ptx:120:5 (pipeline.h:88)": the innermost CUDA
 * line; `chain` adds its call sites, ", inlined at gemm.cu:40" (one line, for JSON); with
 * `runs`, " (run 1 of 8)" where its instruction runs more than once in the thread.
 */
std::string kernelEventText(const engine::EventRef& e, const kernel::KernelProgram& k,
                            bool chain = false, const std::vector<InstructionRun>* runs = nullptr);

/** "gemm.ptx:120:5 (sync.cuh:25, inlined at gemm.cu:88)": where the extracted program's PTX
 *  line `line` is, in the module and, through its .loc lines, in the CUDA source: the innermost
 *  line and the call sites out to the kernel, on one line. */
std::string kernelLineText(int line, const kernel::KernelProgram& k);

} // namespace ptxmc::cli
