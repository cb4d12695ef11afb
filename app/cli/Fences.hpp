// `ptxmc fences`: which synchronising instructions of a test are load-bearing under the model.
#pragma once

#include <CLI/CLI.hpp>

namespace ptxmc::cli {

/** Adds the `fences` subcommand. */
void setupFences(CLI::App& app);

} // namespace ptxmc::cli
