// `ptxmc gen-cuda`: litmus tests -> CUDA sources of the hardware harness (validate/harness).
#pragma once

#include "cli/Pipeline.hpp"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace ptxmc::cli {

struct GenCudaArgs {
    std::string arch = "all"; ///< sm_90a, sm_100a or all
    std::string outDir;
    std::string mutantsFile;  ///< pairs to generate mutants for
    std::string deriveFile;   ///< where to write derived pairs (needs the model)
    PipelineOptions pipeline; ///< how --derive-mutants checks: model, reading, limits
    bool strict = false;      ///< a refused test fails the run (CI)
    std::vector<std::string> paths;
};

/** Adds the `gen-cuda` subcommand. */
void setupGenCuda(CLI::App& app);

/** 0: generated (refused tests are a warning, listed in DIR/refused.txt); 1: some refused
 *  under --strict; 2: input error. */
int runGenCuda(const GenCudaArgs& args);

} // namespace ptxmc::cli
