// `ptxmc diff`: the tests whose allowed final states differ between two models.
#pragma once

#include <CLI/CLI.hpp>

namespace ptxmc::cli {

/** Adds the `diff` subcommand: 0 when it ran, 1 on an Unknown result, 2 on input errors. */
void setupDiff(CLI::App& app);

} // namespace ptxmc::cli
