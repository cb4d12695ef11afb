// `ptxmc compare`: checks each test of a results file with the model and classifies it.
#include "cli/Compare.hpp"

#include "cat/Resolver.hpp"
#include "cli/CommonOptions.hpp"
#include "cli/ModelArg.hpp"
#include "cli/Parallel.hpp"
#include "engine/Check.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"
#include "ptx/Mutation.hpp"
#include "support/SourceLoc.hpp"
#include "validate/Compare.hpp"

#include <filesystem>
#include <iostream>
#include <memory>

namespace ptxmc::cli {

namespace {

const char* const kCompareExamples = R"(Examples:
  ptxmc compare validate/results/h100/results.json          per test, in words
  ptxmc compare --format markdown validate/results/h100/results.json   the README table
  ptxmc compare --format json --jobs 2 results.json

Each test file named in the results is read relative to --root (default: the current
folder), mutated as the results say for a mutant, and checked with the model.
Exit status: 0 nothing unsound, 1 an outcome the model forbids was observed, 2 an input error.)";

validate::ModelAnswer answer(const validate::HwTest& t, const std::string& root,
                             const cat::ResolvedModel& model) {
    validate::ModelAnswer a;
    if (t.status != "ok") return a;
    try {
        std::string path = (std::filesystem::path(root) / t.file).lexically_normal().string();
        litmus::Test test = litmus::parseLitmusFile(path);
        if (!t.mutation.empty()) {
            auto m = ptx::parseMutation(t.mutation);
            if (!m) throw InputError(SourceLoc{path}, "unknown mutation '" + t.mutation + "'");
            test = ptx::applyMutation(test, *m);
        }
        a.result = engine::check(lower::lowerTest(test), model, engine::CheckOptions{});
    } catch (const std::exception& e) {
        a.error = e.what();
    }
    return a;
}

} // namespace

void setupCompare(CLI::App& app) {
    auto args = std::make_shared<CompareArgs>();
    CLI::App* sub = app.add_subcommand(
        "compare", "Compare GPU histograms (litmus runner results) with the model's outcomes");
    addModelOption(*sub, args->modelFile);
    sub->add_option("--root", args->root, "folder the results' test paths are relative to")
        ->option_text("DIR");
    sub->add_option("--format", args->format, "text, markdown or json (default: text)")
        ->check(CLI::IsMember({"text", "markdown", "json"}));
    addJobsOption(*sub, args->jobs, "check N tests at a time");
    sub->add_option("RESULTS", args->results, "results.json files written by litmus-runner")
        ->required()
        ->option_text("...");
    sub->footer(kCompareExamples);
    sub->callback([args] {
        if (int status = runCompare(*args); status != 0) throw CLI::RuntimeError(status);
    });
}

int runCompare(const CompareArgs& args) {
    std::shared_ptr<const cat::ResolvedModel> model;
    std::vector<validate::HwRun> runs;
    try {
        model = loadModelArg(args.modelFile);
        for (const std::string& r : args.results)
            runs.push_back(validate::readResults(r));
    } catch (const InputError& e) {
        std::cerr << e.what() << '\n';
        return 2;
    }
    bool unsound = false;
    for (const validate::HwRun& run : runs) {
        std::vector<validate::ModelAnswer> answers(run.tests.size());
        runInOrder(
            run.tests.size(), args.jobs,
            [&](std::size_t i) { answers[i] = answer(run.tests[i], args.root, *model); },
            [](std::size_t) {});
        std::vector<validate::Comparison> rows = validate::classify(run, answers);
        for (const auto& c : rows)
            unsound = unsound || c.verdict == validate::Verdict::Unsound;
        if (args.format == "markdown")
            std::cout << validate::markdownReport(run, rows);
        else if (args.format == "json")
            std::cout << validate::jsonReport(run, rows);
        else
            std::cout << validate::textReport(run, rows);
    }
    if (unsound)
        std::cerr << "ptxmc compare: UNSOUND: the device showed an outcome the model "
                     "forbids (see above)\n";
    return unsound ? 1 : 0;
}

} // namespace ptxmc::cli
