// `ptxmc compare`: checks each test of a results file with the model and classifies it.
#include "cli/Compare.hpp"

#include "cat/Resolver.hpp"
#include "check/Check.hpp"
#include "cli/CommonOptions.hpp"
#include "cli/ModelArg.hpp"
#include "cli/Parallel.hpp"
#include "hw/Compare.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"
#include "ptx/Mutation.hpp"
#include "support/Plural.hpp"
#include "support/SourceLoc.hpp"

#include <filesystem>
#include <iostream>
#include <memory>

namespace ptxmc::cli {

namespace {

const char* const kCompareExamples = R"(Examples:
  ptxmc compare validate/results/h100/results.json          per test, in words
  ptxmc compare --format markdown validate/results/h100/results.json   the README table
  ptxmc compare --format json --jobs 2 results.json

Each test file named in the results is read relative to --root; without it, relative to the
current folder when it is there, else to the results file's folder or the nearest folder above
it that holds it. It is mutated as the results say for a mutant and checked with the model.
Exit status: 0 nothing unsound, 1 an outcome the model forbids was observed, 2 an input error
(a results file, or a test it names, that cannot be read or checked).)";

namespace fs = std::filesystem;

/** Where test file `file` of results file `results` is (see kCompareExamples). */
std::string locate(const std::string& file, const std::string& root, const std::string& results) {
    if (!root.empty()) return (fs::path(root) / file).lexically_normal().string();
    std::error_code ec;
    if (fs::exists(file, ec)) return file;
    for (fs::path dir = fs::absolute(results, ec).parent_path(); !dir.empty();
         dir = dir.parent_path()) {
        if (fs::exists(dir / file, ec))
            return fs::relative(dir / file, fs::current_path(ec), ec).lexically_normal().string();
        if (dir == dir.root_path()) break;
    }
    return file; // reading it reports the error with the name as the results give it
}

validate::ModelAnswer answer(const validate::HwTest& t, const std::string& root,
                             const std::string& results, const cat::ResolvedModel& model) {
    validate::ModelAnswer a;
    if (t.status != "ok") return a;
    try {
        std::string path = locate(t.file, root, results);
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
    sub->add_option("--root", args->root,
                    "folder the results' test paths are relative to (default: found from the "
                    "current folder or the results file's)")
        ->option_text("DIR");
    addFormatOption(*sub, args->format, {"text", "markdown", "json"},
                    "text (the default), markdown or json");
    addOutputOption(*sub, args->output, "the report");
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
    StdoutTo redirect(args.output);
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
    std::size_t tests = 0, errors = 0;
    for (const validate::HwRun& run : runs) {
        std::vector<validate::ModelAnswer> answers(run.tests.size());
        runInOrder(
            run.tests.size(), args.jobs,
            [&](std::size_t i) { answers[i] = answer(run.tests[i], args.root, run.path, *model); },
            [](std::size_t) {});
        std::vector<validate::Comparison> rows = validate::classify(run, answers);
        tests += rows.size();
        for (std::size_t i = 0; i < answers.size(); ++i)
            if (!answers[i].error.empty()) {
                ++errors;
                std::cerr << answers[i].error << '\n';
            }
        for (const auto& c : rows)
            unsound = unsound || c.verdict == validate::Verdict::Unsound;
        if (args.format == "markdown")
            std::cout << validate::markdownReport(run, rows);
        else if (args.format == "json")
            std::cout << validate::jsonReport(run, rows);
        else
            std::cout << validate::textReport(run, rows);
    }
    std::cout.flush();
    if (unsound)
        std::cerr << "ptxmc compare: UNSOUND: the device showed an outcome the model "
                     "forbids (see above)\n";
    std::cerr << "ptxmc compare: " << plural(tests, "test") << ", " << plural(errors, "error")
              << (errors > 0 ? " (the model could not answer them: see above)" : "") << '\n';
    if (errors > 0) return 2;
    return unsound ? 1 : 0;
}

} // namespace ptxmc::cli
