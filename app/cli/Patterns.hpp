// `ptxmc patterns`: the generated document of kernel protocols (docs/patterns.md).
#pragma once

#include <CLI/CLI.hpp>

namespace ptxmc::cli {

/** Adds the `patterns` subcommand. */
void setupPatterns(CLI::App& app);

} // namespace ptxmc::cli
