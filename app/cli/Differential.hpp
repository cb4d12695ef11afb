// `ptxmc differential`: random litmus tests through both engines, which must agree.
#pragma once

#include <CLI/CLI.hpp>

namespace ptxmc::cli {

/** Adds the `differential` subcommand. */
void setupDifferential(CLI::App& app);

} // namespace ptxmc::cli
