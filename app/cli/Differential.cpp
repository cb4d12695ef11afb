// Differential testing: seeded random tests, the Z3 engine against explicit enumeration.
#include "cli/Differential.hpp"

#include "cat/Resolver.hpp"
#include "check/Check.hpp"
#include "cli/CommonOptions.hpp"
#include "cli/Parallel.hpp"
#include "cli/Pipeline.hpp"
#include "gen/RandomLitmus.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <sstream>

namespace ptxmc::cli {

namespace {

struct DifferentialArgs {
    std::uint64_t seed = 1;
    std::uint64_t count = 100;
    unsigned jobs = 1;
    double limit = 20;        ///< seconds the explicit engine may spend on one test
    PipelineOptions pipeline; ///< --model, --reading, --unroll, --timeout, limits (no engine)
    bool verbose = false;
    bool printTests = false;
};

struct Case {
    std::string text;
    std::string verdict; ///< "agree", "skipped: ...", or the disagreement report
    bool disagrees = false;
    bool skipped = false;
};

std::string statesOf(const engine::CheckResult& r) {
    std::ostringstream out;
    out << engine::toString(r.observation);
    if (!r.unknownReason.empty()) out << " (" << r.unknownReason.text << ")";
    out << "\n";
    for (const auto& s : r.states) {
        out << "    ";
        for (std::size_t i = 0; i < s.values.size(); ++i)
            out << r.observed[i] << "=" << s.values[i] << "; ";
        out << "\n";
    }
    out << "    flags:";
    for (const auto& f : r.flags)
        out << " " << f.name;
    out << "\n";
    return out.str();
}

Case compareEngines(std::uint64_t seed, const cat::ResolvedModel& model,
                    const DifferentialArgs& args, Case c);

/** One seed; an internal error of either engine is reported with the test, like a
 *  disagreement, instead of ending the run. */
Case runCase(std::uint64_t seed, const cat::ResolvedModel& model, const DifferentialArgs& args) {
    Case c;
    c.text = gen::randomLitmus(seed);
    try {
        return compareEngines(seed, model, args, c);
    } catch (const std::exception& e) {
        c.disagrees = true;
        c.verdict = std::string("INTERNAL ERROR: ") + e.what() + "\n";
        return c;
    }
}

Case compareEngines(std::uint64_t seed, const cat::ResolvedModel& model,
                    const DifferentialArgs& args, Case c) {
    std::string file = "random-" + std::to_string(seed) + ".litmus";
    litmus::Test test = readTestText(c.text, file);
    const ir::Program program = lowerTest(test, args.pipeline);
    engine::CheckOptions z3Options = checkOptionsOf(args.pipeline);
    z3Options.engine = engine::EngineKind::Z3;
    engine::CheckResult z3 = checkProgram(program, model, z3Options);
    engine::CheckOptions enumOptions = z3Options;
    enumOptions.engine = engine::EngineKind::Enumerate;
    // --limit bounds the explicit engine alone; --timeout, when tighter, both.
    enumOptions.timeoutSeconds =
        z3Options.timeoutSeconds > 0 ? std::min(args.limit, z3Options.timeoutSeconds) : args.limit;
    engine::CheckResult ex = checkProgram(program, model, enumOptions);
    for (const engine::CheckResult* r : {&z3, &ex})
        if (r->stoppedByLimit()) {
            c.skipped = true;
            c.verdict = "skipped: " + r->unknownReason.text;
            return c;
        }
    if (engine::sameAnswer(z3, ex)) {
        c.verdict = "agree";
        return c;
    }
    c.disagrees = true;
    c.verdict = "DISAGREE\n  z3:        " + statesOf(z3) + "  enumerate: " + statesOf(ex);
    return c;
}

int runDifferential(const DifferentialArgs& args) {
    auto model = loadModel(args.pipeline);
    std::vector<Case> cases(args.count);
    std::size_t disagreements = 0, skipped = 0;
    auto start = std::chrono::steady_clock::now();
    runInOrder(
        args.count, args.jobs,
        [&](std::size_t i) { cases[i] = runCase(args.seed + i, *model, args); },
        [&](std::size_t i) {
            const Case& c = cases[i];
            std::uint64_t seed = args.seed + i;
            if (c.disagrees) {
                ++disagreements;
                std::cout << "seed " << seed << ": " << c.verdict << "--- test (regenerate with "
                          << "`ptxmc differential --seed " << seed << " --count 1`):\n"
                          << c.text << "---\n";
            } else if (c.skipped) {
                ++skipped;
                std::cout << "seed " << seed << ": " << c.verdict << "\n";
            } else if (args.verbose) {
                std::cout << "seed " << seed << ": agree\n";
            }
            if (args.printTests && !c.disagrees) std::cout << c.text;
            cases[i] = Case{}; // keep memory flat on long runs
        });
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "ptxmc differential: seeds " << args.seed << ".." << args.seed + args.count - 1
              << ", " << args.count - skipped - disagreements << " agree, " << disagreements
              << " disagree, " << skipped << " skipped, " << seconds << " s\n";
    return disagreements > 0 ? 1 : 0;
}

} // namespace

void setupDifferential(CLI::App& app) {
    auto args = std::make_shared<DifferentialArgs>();
    CLI::App* sub = app.add_subcommand(
        "differential", "Run seeded random litmus tests through both engines; they must agree");
    sub->add_option("--seed", args->seed, "first seed (default 1)");
    sub->add_option("--count", args->count, "number of tests (default 100)")
        ->check(CLI::Range(1, 100000000));
    addJobsOption(*sub, args->jobs, "tests checked at a time (default 1)");
    sub->add_option("--limit", args->limit,
                    "seconds the explicit engine may spend on one test (default 20)")
        ->check(CLI::PositiveNumber);
    PipelineHelp help;
    // Both engines answer every test: that is the point of the run. Generated spin loops
    // (a load until it reads nonzero, then a barrier, arrive or copy) unroll to --unroll.
    help.options = kAllPipelineOptions & ~kEngineOption;
    help.timeout = "wall-clock limit per test and engine; a test that hits it is skipped "
                   "(--limit still bounds the explicit engine alone)";
    addPipelineOptions(*sub, args->pipeline, help);
    sub->add_flag("-v,--verbose", args->verbose, "print every seed, not only disagreements");
    sub->add_flag("--print-tests", args->printTests, "print every generated test");
    sub->footer("Example:\n  ptxmc differential --seed 1 --count 300 --jobs 2\n"
                "A disagreement prints the seed, both engines' state sets and the generated test.\n"
                "No --engine: every test is checked by both engines, which must agree. Spin "
                "loops in the generated tests are unrolled to --unroll (default 2).");
    sub->callback([args]() {
        int status = runDifferential(*args);
        if (status != 0) throw CLI::RuntimeError(status);
    });
}

} // namespace ptxmc::cli
