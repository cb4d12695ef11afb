// ptxmc's entry point: the root command line, subcommands, and the last-resort error handling.
#include "cli/Axioms.hpp"
#include "cli/Check.hpp"
#include "cli/Compare.hpp"
#include "cli/Diff.hpp"
#include "cli/Differential.hpp"
#include "cli/Explain.hpp"
#include "cli/Fences.hpp"
#include "cli/GenCuda.hpp"
#include "cli/Matrix.hpp"
#include "support/SourceLoc.hpp"

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

namespace {

const char* const kExamples = R"(Examples:
  ptxmc check litmus/                    check the corpus against its expected.txt files
  ptxmc check --jobs 2 litmus/tcgen05    one folder, two tests at a time
  ptxmc check --json --no-time t.litmus  one test, as JSON without timings
  ptxmc check --help                     every option of check)";

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"ptxmc: a model checker for PTX memory-consistency litmus tests "
                 "(tcgen05, async proxy, mbarriers)",
                 "ptxmc"};
    app.require_subcommand(1);
    app.footer(kExamples);
    ptxmc::cli::setupCheck(app);
    ptxmc::cli::setupDiff(app);
    ptxmc::cli::setupMatrix(app);
    ptxmc::cli::setupGenCuda(app);
    ptxmc::cli::setupCompare(app);
    ptxmc::cli::setupAxioms(app);
    ptxmc::cli::setupExplain(app);
    ptxmc::cli::setupDifferential(app);
    ptxmc::cli::setupFences(app);
    try {
        app.parse(argc, argv);
        return 0;
    } catch (const CLI::RuntimeError& e) {
        return e.get_exit_code(); // a subcommand's own status
    } catch (const CLI::ParseError& e) {
        // CLI11 has its own codes for usage errors; ptxmc promises 2 for every input error.
        int code = app.exit(e);
        return code == 0 ? 0 : 2;
    } catch (const ptxmc::InputError& e) {
        std::cerr << e.what() << '\n';
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "ptxmc: internal error: " << e.what() << '\n';
        return 3;
    } catch (...) {
        std::cerr << "ptxmc: internal error: unknown exception\n";
        return 3;
    }
}
