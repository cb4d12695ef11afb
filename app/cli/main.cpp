// ptxmc's entry point: the root command line, subcommands, and the last-resort error handling.
#include "check/LeftBehind.hpp"
#include "cli/Axioms.hpp"
#include "cli/Check.hpp"
#include "cli/Compare.hpp"
#include "cli/Diff.hpp"
#include "cli/Differential.hpp"
#include "cli/Explain.hpp"
#include "cli/Fences.hpp"
#include "cli/GenCuda.hpp"
#include "cli/HugePages.hpp"
#include "cli/Kernel.hpp"
#include "cli/Matrix.hpp"
#include "cli/Patterns.hpp"
#include "engine/Budget.hpp"
#include "support/SourceLoc.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace {

/** Edit distance (insertions, deletions, substitutions) between two short words. */
std::size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
            diagonal = above;
        }
    }
    return row[b.size()];
}

/**
 * `ptxmc chek ...`: CLI11 would only say that a subcommand is required. Names the closest
 * subcommand instead; nullopt when the first word is an option or a subcommand.
 */
std::optional<std::string> unknownSubcommand(const CLI::App& app, int argc, char** argv) {
    if (argc < 2 || argv[1][0] == '-') return std::nullopt;
    const std::string word = argv[1];
    std::string best;
    std::size_t bestDistance = 0;
    for (const CLI::App* sub : app.get_subcommands({})) {
        if (sub->get_name() == word) return std::nullopt;
        std::size_t d = editDistance(word, sub->get_name());
        if (best.empty() || d < bestDistance) best = sub->get_name(), bestDistance = d;
    }
    std::string message = "ptxmc: unknown subcommand '" + word + "'";
    if (bestDistance <= std::max<std::size_t>(2, word.size() / 3))
        message += "; did you mean '" + best + "'?";
    return message + " (ptxmc --help lists the subcommands)";
}

const char* const kExamples = R"(Examples:
  ptxmc check litmus/                    check the corpus against its expected.txt files
  ptxmc check --jobs 2 litmus/tcgen05    one folder, two tests at a time
  ptxmc check --json --no-time t.litmus  one test, as JSON without timings
  ptxmc check --help                     every option of check)";

/** Built with AddressSanitizer (engine/Budget.hpp tells): its leak check runs at a normal exit. */
#ifdef PTXMC_ASAN
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

} // namespace

namespace {

int runMain(int argc, char** argv) {
    CLI::App app{"ptxmc: a model checker for PTX memory-consistency litmus tests "
                 "(tcgen05, async proxy, mbarriers)",
                 "ptxmc"};
    app.require_subcommand(1);
    app.set_version_flag("--version", std::string("ptxmc ") + PTXMC_VERSION);
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
    ptxmc::cli::setupPatterns(app);
    ptxmc::cli::setupKernel(app);
    if (auto unknown = unknownSubcommand(app, argc, argv)) {
        std::cerr << *unknown << '\n';
        return 2;
    }
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

} // namespace

int main(int argc, char** argv) {
    ptxmc::cli::restartWithHugePages(argv);
    int code = runMain(argc, argv);
    // A search that ignored its interrupt still runs: exiting normally would destroy what it
    // uses under it (its answer is already Unknown). Otherwise only the last search's solver
    // context is left, which the system frees faster than Z3 deletes it (seconds on a large
    // test: smt/Z3Engine.cpp). Under the sanitizers the exit stays normal, for the leak check.
    if (ptxmc::engine::searchesLeftBehind() > 0 || !kSanitized) {
        std::cout.flush();
        std::cerr.flush();
        std::_Exit(code);
    }
    return code;
}
