// `ptxmc explain`: a witness execution for an allowed outcome, the axioms that forbid one.
#pragma once

#include <CLI/CLI.hpp>

namespace ptxmc::cli {

/** Adds the `explain` subcommand. */
void setupExplain(CLI::App& app);

} // namespace ptxmc::cli
