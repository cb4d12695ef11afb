// `ptxmc check`: checks litmus tests against the model and compares with expected.txt.
#pragma once

#include "cli/Pipeline.hpp"
#include "report/CiReports.hpp"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace ptxmc::cli {

struct CheckArgs {
    PipelineOptions pipeline;    ///< --model, --reading, --unroll, --timeout, limits, --engine
    std::string format = "text"; ///< --format text|json|sarif|junit (--json)
    std::string output;          ///< -o/--output FILE; empty: standard output
    unsigned jobs = 1;
    bool noTime = false;
    bool stats = false;
    std::string acyclicity = "auto";        ///< --acyclicity: auto, graph or clocks (Z3)
    std::string closures = "auto";          ///< --closures: auto, lazy, fixpoint or squaring (Z3)
    std::string mbarrierFacts = "on";       ///< --mbarrier-facts: on or off (Z3)
    std::string flagBounds = "on";          ///< --flag-bounds: on or off (Z3)
    std::string fixedOrders = "on";         ///< --fixed-orders: on or off (Z3)
    std::string decidedObservations = "on"; ///< --decided-observations: on or off (Z3)
    bool expectationsOnly = false;
    bool readings = false; ///< also check under every built-in variant model (model/variants)
    bool strict = false;   ///< with readings: every reading must match its expectation
    std::vector<std::string> failOnFlags; ///< flag names, or `any`: raising one fails the run
    std::string sarifOutput; ///< --sarif-output FILE: also the SARIF log, whatever --format
    std::string junitOutput; ///< --junit-output FILE: also the JUnit XML, whatever --format
    std::string shard;       ///< --shard I/N: only every N-th test, from the I-th; empty: all
    bool list = false;       ///< --list: print the tests selected, check nothing
    std::vector<std::string> paths;
};

/** Adds the `check` subcommand; its callback throws CLI::RuntimeError(status) when status != 0. */
void setupCheck(CLI::App& app);

/**
 * Runs `check`: 0 when every governed test matched, 1 on a mismatch / missing line / Unknown /
 * a flag named by --fail-on-flag, 2 on an input error (bad path, parse error, bad model), 3 on
 * an internal error.
 */
int runCheck(const CheckArgs& args);

/** The flags `model` can raise, with their cat comments (which cite their PTX sections). */
std::vector<report::FlagRule> flagRulesOf(const cat::ResolvedModel* model);

/** `check --expectations-only`: no solving, only the completeness of the expected.txt files. */
int runExpectationsOnly(const CheckArgs& args);

} // namespace ptxmc::cli
