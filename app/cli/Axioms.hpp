// `ptxmc axioms`: does every named axiom of the model change some verdict of the corpus?
#pragma once

#include <CLI/CLI.hpp>

namespace ptxmc::cli {

/** Adds the `axioms` subcommand. */
void setupAxioms(CLI::App& app);

} // namespace ptxmc::cli
