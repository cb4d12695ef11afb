// `ptxmc kernel`: checks the synchronization of a PTX module's entry as nvcc emitted it.
#pragma once

#include <CLI/CLI.hpp>

namespace ptxmc::cli {

/** Adds the `kernel` subcommand. */
void setupKernel(CLI::App& app);

} // namespace ptxmc::cli
