// `ptxmc compare`: hardware histograms (litmus runner results.json) against the model.
#pragma once

#include "cli/Pipeline.hpp"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace ptxmc::cli {

struct CompareArgs {
    PipelineOptions pipeline;    ///< --model, --reading, --unroll, --timeout, limits, --engine
    std::string root;            ///< test files in results are relative to this (empty: found)
    std::string mutants;         ///< --mutants FILE: why a forbidden test has no mutant run
    std::string format = "text"; ///< text, markdown or json
    std::string output;          ///< -o/--output FILE; empty: standard output
    unsigned jobs = 1;
    std::vector<std::string> results;
};

/** Adds the `compare` subcommand. */
void setupCompare(CLI::App& app);

/** 0: nothing unsound; 1: an unsound result (a forbidden outcome observed); 2: input error. */
int runCompare(const CompareArgs& args);

} // namespace ptxmc::cli
