// Axiom deletion: weakened models built from the parsed model, one axiom removed at a time.
#include "cli/Axioms.hpp"

#include "cat/Resolver.hpp"
#include "check/Check.hpp"
#include "cli/CommonOptions.hpp"
#include "cli/Inputs.hpp"
#include "cli/Pipeline.hpp"

#include <algorithm>
#include <iostream>
#include <map>

namespace ptxmc::cli {

namespace {

struct AxiomsArgs {
    PipelineOptions pipeline;         ///< --model, --reading, --unroll, --timeout, limits, --engine
    std::vector<std::string> implied; ///< axioms claimed to follow from the others
    bool firstChange = false;         ///< stop at the first test an axiom's deletion changes
    std::vector<std::string> paths;
};

/** A test's answer reduced to what deleting an axiom can change. */
std::string fingerprint(const engine::CheckResult& r) {
    std::string s = engine::toString(r.observation);
    for (const auto& st : r.states) {
        s += " [";
        for (auto v : st.values)
            s += std::to_string(v) + ",";
        s += "]";
    }
    for (const auto& f : r.flags)
        s += " " + f.name;
    return s;
}

/** The corpus, lowered once: every weakened model checks the same programs. */
using Programs = std::vector<std::pair<std::string, ir::Program>>;

/** Each test's answer under `model`, by file; how many checks a limit stopped, and which
 *  tests the unroll bound left Unknown. */
struct Answers {
    std::map<std::string, std::string> byFile;
    std::size_t stopped = 0;
    std::vector<std::string> bounded;
};

/**
 * The answers under `model`, in the order of `programs`; with `reference`, stops at the first
 * test whose answer differs from it.
 */
Answers runAll(const Programs& programs, const cat::ResolvedModel& model,
               const engine::CheckOptions& options, const Answers* reference = nullptr) {
    Answers out;
    for (const auto& [file, program] : programs) {
        engine::CheckResult r = checkProgram(program, model, options);
        out.stopped += r.stoppedByLimit() ? 1 : 0;
        if (r.observation == engine::Observation::Unknown && !r.boundReached.empty())
            out.bounded.push_back(file);
        out.byFile[file] = fingerprint(r);
        if (reference != nullptr && out.byFile[file] != reference->byFile.at(file)) break;
    }
    return out;
}

int runAxioms(const AxiomsArgs& args) {
    auto model = loadModel(args.pipeline);
    const engine::CheckOptions options = checkOptionsOf(args.pipeline);
    Inputs inputs = expandInputs(args.paths);
    for (const auto& e : inputs.errors)
        std::cerr << e << '\n';
    if (!inputs.errors.empty()) return 2;
    Programs tests;
    for (const auto& path : inputs.tests) {
        litmus::Test test = readTest(path);
        tests.emplace_back(test.file, lowerTest(test, args.pipeline));
    }
    Answers full = runAll(tests, *model, options);
    std::size_t stopped = full.stopped;
    // With --first-change the smallest tests (fewest events: the quickest, and an order
    // that does not depend on timing) go first, so that a deletion stops early.
    Programs quickFirst = std::move(tests);
    std::stable_sort(quickFirst.begin(), quickFirst.end(), [](const auto& a, const auto& b) {
        return a.second.events.size() < b.second.events.size();
    });
    int useless = 0, wrongClaims = 0;
    for (const auto& name : args.implied)
        if (std::none_of(model->axioms.begin(), model->axioms.end(),
                         [&](const cat::Axiom& a) { return !a.flag && a.name == name; }))
            throw InputError(SourceLoc{},
                             "--implied names '" + name + "', which is not an axiom of the model");
    for (const auto& axiom : model->axioms) {
        if (axiom.flag) continue;
        bool claimedImplied =
            std::find(args.implied.begin(), args.implied.end(), axiom.name) != args.implied.end();
        cat::ResolvedModel weaker = *model;
        std::erase_if(weaker.axioms, [&](const cat::Axiom& a) { return a.name == axiom.name; });
        // A claimed-implied axiom must change nothing: every test is checked for it.
        const bool early = args.firstChange && !claimedImplied;
        Answers answers = runAll(quickFirst, weaker, options, early ? &full : nullptr);
        stopped += answers.stopped;
        std::vector<std::string> changed;
        for (const auto& [file, answer] : answers.byFile)
            if (answer != full.byFile.at(file)) changed.push_back(file);
        std::cout << axiom.name << (claimedImplied ? " (claimed implied)" : "") << ": ";
        if (early)
            std::cout << (changed.empty() ? "no test changes" : "some test changes")
                      << " without it";
        else
            std::cout << changed.size() << " test(s) change without it";
        if (!changed.empty()) std::cout << ", e.g. " << changed.front();
        std::cout << '\n';
        if (changed.empty() && !claimedImplied) ++useless;
        if (!changed.empty() && claimedImplied) ++wrongClaims;
    }
    if (useless > 0)
        std::cerr << "ptxmc: " << useless
                  << " axiom(s) change no verdict of these tests: add a "
                     "test that needs them, or remove them\n";
    if (wrongClaims > 0)
        std::cerr << "ptxmc: " << wrongClaims << " axiom(s) claimed implied change a verdict\n";
    // Within the bound the answers still compare, but a deletion may change only what lies
    // beyond it; a check a limit stopped compares as "Unknown", which says nothing.
    if (!full.bounded.empty())
        std::cerr << "ptxmc: warning: " << full.bounded.size()
                  << " test(s) Unknown under the model at the unroll bound, e.g. "
                  << full.bounded.front() << ": rerun with a larger --unroll\n";
    if (stopped > 0)
        std::cerr << "ptxmc: " << stopped
                  << " check(s) stopped by a limit (--timeout, --memory-limit, --rlimit): "
                     "their answers are Unknown\n";
    return useless + wrongClaims + stopped > 0 ? 1 : 0;
}

} // namespace

void setupAxioms(CLI::App& app) {
    auto args = std::make_shared<AxiomsArgs>();
    CLI::App* sub = app.add_subcommand(
        "axioms",
        "Check that deleting any one named axiom of the model changes some test's answer");
    PipelineHelp help;
    help.engines = {engine::EngineKind::Z3, engine::EngineKind::Enumerate};
    help.engine = "z3 (default, as in every subcommand) or enumerate (the explicit engine)";
    help.timeout = "wall-clock limit per check (each test under each model); a check that hits "
                   "it is Unknown, and the run fails";
    addPipelineOptions(*sub, args->pipeline, help);
    sub->add_option("--implied", args->implied,
                    "an axiom claimed to follow from the others: it must change NO answer "
                    "(repeat the option for several)")
        ->expected(1) // one name per --implied, so a PATH after it is never taken for one
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
        ->option_text("AXIOM");
    sub->add_flag("--first-change", args->firstChange,
                  "stop checking a deleted axiom at the first test whose answer changes (the "
                  "quickest tests first): no count of the tests it changes, a fraction of the "
                  "time");
    sub->add_option("PATH", args->paths, "test files, folders or @index files")->required();
    sub->footer("Example:\n  ptxmc axioms litmus/    every axiom of the default model must matter");
    sub->callback([args]() {
        int status = runAxioms(*args);
        if (status != 0) throw CLI::RuntimeError(status);
    });
}

} // namespace ptxmc::cli
