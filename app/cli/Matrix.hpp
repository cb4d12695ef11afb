// `ptxmc matrix`: the reordering tables, generated from the model by checking litmus tests.
#pragma once

#include <CLI/CLI.hpp>

namespace ptxmc::cli {

/** Adds the `matrix` subcommand: 0 when every cell has a verdict, 1 if one failed, 2 on input
 * errors. */
void setupMatrix(CLI::App& app);

} // namespace ptxmc::cli
