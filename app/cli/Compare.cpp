// `ptxmc compare`: checks each test of a results file with the model and classifies it.
#include "cli/Compare.hpp"

#include "cat/Resolver.hpp"
#include "check/Check.hpp"
#include "cli/CommonOptions.hpp"
#include "cli/Parallel.hpp"
#include "cli/Pipeline.hpp"
#include "hw/Compare.hpp"
#include "ptx/Mutation.hpp"
#include "report/Answer.hpp"
#include "report/Expectations.hpp"
#include "support/Plural.hpp"
#include "support/SourceLoc.hpp"

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

namespace ptxmc::cli {

namespace {

const char* const kCompareExamples = R"(Examples:
  ptxmc compare validate/results/h100/results.json          per test, in words
  ptxmc compare --format markdown validate/results/h100/results.json   the README table
  ptxmc compare --format json --jobs 2 results.json
  ptxmc compare --mutants validate/mutants.txt results.json   why a test's mutant did not run

Each test file named in the results is read relative to --root; without it, relative to the
current folder when it is there, else to the results file's folder or the nearest folder above
it that holds it. It is mutated as the results say for a mutant and checked with the model.
The model's answer for a test (not a mutant) is judged against its expected.txt line as check
judges it (expected.NAME.txt under --model/--reading NAME): a difference is a warning.
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

/** One test of the results, found and read: its file, and the mutation the results name. */
struct ToCheck {
    std::string path;
    litmus::Test test;
    std::string error; ///< it could not be read (or mutated)
};

ToCheck readOne(const validate::HwTest& t, const std::string& root, const std::string& results) {
    ToCheck c;
    c.path = locate(t.file, root, results);
    try {
        c.test = readTest(c.path);
        if (!t.mutation.empty()) {
            auto m = ptx::parseMutation(t.mutation);
            if (!m) throw InputError(SourceLoc{c.path}, "unknown mutation '" + t.mutation + "'");
            c.test = ptx::applyMutation(c.test, *m);
        }
    } catch (const std::exception& e) {
        c.error = e.what();
    }
    return c;
}

validate::ModelAnswer answer(const validate::HwTest& t, const ToCheck& c,
                             const cat::ResolvedModel& model, const PipelineOptions& pipeline,
                             const engine::ExpectationCheck& expectation) {
    validate::ModelAnswer a;
    if (t.status != "ok") return a;
    if (!c.error.empty()) {
        a.error = c.error;
        return a;
    }
    try {
        a.result =
            checkTest(c.test, c.path, model, pipeline, checkOptionsOf(pipeline), expectation);
    } catch (const std::exception& e) {
        a.error = e.what();
    }
    return a;
}

/**
 * Each test's expectation (expected.txt, or expected.<name>.txt under that model); none for a
 * test that did not run or was not read, nor for a mutant, which its original's line does not
 * describe.
 */
std::vector<engine::ExpectationCheck> expectationsOf(const validate::HwRun& run,
                                                     const std::vector<ToCheck>& read,
                                                     const std::string& modelArg) {
    auto judged = [&](std::size_t i) {
        return run.tests[i].status == "ok" && run.tests[i].mutation.empty() &&
               read[i].error.empty();
    };
    std::vector<std::string> files;
    for (std::size_t i = 0; i < run.tests.size(); ++i)
        if (judged(i)) files.push_back(read[i].path);
    std::vector<engine::ExpectationCheck> found = cli::expectationsOf(files, modelArg);
    std::vector<engine::ExpectationCheck> out(run.tests.size());
    for (std::size_t i = 0, k = 0; i < run.tests.size(); ++i)
        if (judged(i)) out[i] = found[k++];
    return out;
}

/** The model's answers that differ from what the tests' expected.txt lines record. */
void warnMismatches(const std::vector<validate::ModelAnswer>& answers) {
    for (const validate::ModelAnswer& a : answers) {
        if (!a.result || a.result->observation == engine::Observation::Unknown) continue;
        const engine::ExpectationCheck& e = a.result->expectation;
        if (!e.present || e.matches) continue;
        std::cerr << a.result->file << ": warning: the model's answer "
                  << report::answerText(a.result->observation, report::flagNames(a.result->flags),
                                        a.result->states.size())
                  << " differs from " << report::displayPath(e.file) << ", which records "
                  << report::expectedAnswer(e) << '\n';
    }
}

} // namespace

void setupCompare(CLI::App& app) {
    auto args = std::make_shared<CompareArgs>();
    CLI::App* sub = app.add_subcommand(
        "compare", "Compare GPU histograms (litmus runner results) with the model's outcomes");
    addPipelineOptions(*sub, args->pipeline);
    sub->add_option("--root", args->root,
                    "folder the results' test paths are relative to (default: found from the "
                    "current folder or the results file's)")
        ->option_text("DIR");
    sub->add_option("--mutants", args->mutants,
                    "the mutants file gen-cuda derived (validate/mutants.txt): an inconclusive "
                    "test then says why no mutant of it ran")
        ->option_text("FILE");
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
    std::optional<validate::MutantList> mutants;
    try {
        model = loadModel(args.pipeline);
        if (!args.mutants.empty()) mutants = validate::readMutantList(args.mutants);
        for (const std::string& r : args.results)
            runs.push_back(validate::readResults(r));
    } catch (const InputError& e) {
        std::cerr << e.what() << '\n';
        return 2;
    }
    bool unsound = false;
    std::size_t tests = 0, errors = 0;
    for (const validate::HwRun& run : runs) {
        std::vector<ToCheck> read(run.tests.size());
        for (std::size_t i = 0; i < run.tests.size(); ++i)
            if (run.tests[i].status == "ok") read[i] = readOne(run.tests[i], args.root, run.path);
        std::vector<engine::ExpectationCheck> expected;
        try {
            expected = expectationsOf(run, read, modelArgOf(args.pipeline));
        } catch (const InputError& e) {
            std::cerr << e.what() << '\n';
            return 2;
        }
        std::vector<validate::ModelAnswer> answers(run.tests.size());
        runInOrder(
            run.tests.size(), args.jobs,
            [&](std::size_t i) {
                answers[i] = answer(run.tests[i], read[i], *model, args.pipeline, expected[i]);
            },
            [](std::size_t) {});
        std::vector<validate::Comparison> rows =
            validate::classify(run, answers, mutants ? &*mutants : nullptr);
        tests += rows.size();
        for (std::size_t i = 0; i < answers.size(); ++i)
            if (!answers[i].error.empty()) {
                ++errors;
                std::cerr << answers[i].error << '\n';
            }
        warnMismatches(answers);
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
