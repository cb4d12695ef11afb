// `ptxmc gen-cuda`: litmus tests -> CUDA sources of the hardware harness (validate/harness).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace ptxmc::cli {

struct GenCudaArgs {
    std::string arch = "all"; ///< sm_90a, sm_100a or all
    std::string outDir;
    std::string mutantsFile; ///< pairs to generate mutants for
    std::string deriveFile;  ///< where to write derived pairs (needs the model)
    std::string modelFile;
    std::vector<std::string> paths;
};

/** Adds the `gen-cuda` subcommand. */
void setupGenCuda(CLI::App& app);

/** 0: all generated; 1: some refused (listed in DIR/refused.txt); 2: input error. */
int runGenCuda(const GenCudaArgs& args);

} // namespace ptxmc::cli
