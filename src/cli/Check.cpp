// `ptxmc check`: parse, check and report each test; exit status sums up the whole run.
#include "cli/Check.hpp"

#include "Checker.hpp"
#include "cat/Resolver.hpp"
#include "cli/Inputs.hpp"
#include "cli/ModelArg.hpp"
#include "cli/Parallel.hpp"
#include "litmus/Parser.hpp"
#include "report/Expectations.hpp"
#include "report/HerdPrinter.hpp"
#include "report/JsonPrinter.hpp"

#include <chrono>
#include <cmath>
#include <iostream>
#include <memory>
#include <optional>

namespace ptxmc::cli {

namespace {

const char* const kCheckExamples = R"(Examples:
  ptxmc check litmus/                     every test under litmus/, against its expected.txt
  ptxmc check --jobs 2 litmus/@all        the tests a herd index file lists, two at a time
  ptxmc check --json --no-time t.litmus   JSON, without timings (reproducible)
  ptxmc check --model my.cat t.litmus     another model (cat file) instead of the built-in one
  ptxmc check --expectations-only litmus  only check that expected.txt covers every test

Exit status: 0 all matched, 1 a mismatch, missing expectation or Unknown,
2 an input error (bad path, parse error, bad model), 3 an internal error.)";

struct Tally {
    std::size_t tests = 0, matched = 0, mismatched = 0, unknown = 0, errors = 0;
    bool internal = false;

    int status() const {
        if (internal) return 3;
        if (errors > 0) return 2;
        return mismatched > 0 || unknown > 0 ? 1 : 0;
    }
    void printSummary() const {
        std::cout.flush();
        std::cerr << "ptxmc: " << tests << " tests, " << matched << " matched, " << mismatched
                  << " mismatched, " << unknown << " unknown, " << errors << " errors\n";
    }
};

// What one worker produced for one test: a result, or the message of the error that stopped it.
struct Outcome {
    std::optional<report::CheckResult> result;
    std::string error;
    bool internal = false;
};

Outcome checkOne(const std::string& path, const cat::ResolvedModel& model,
                 const CheckOptions& options, const report::ExpectationCheck& expectation) {
    Outcome out;
    try {
        auto start = std::chrono::steady_clock::now();
        litmus::Test test = litmus::parseLitmusFile(path);
        report::CheckResult r = runEngines(test, model, options);
        std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
        if (r.seconds == 0) r.seconds = elapsed.count();
        if (r.file.empty()) r.file = path;
        if (r.testName.empty()) r.testName = test.name;
        report::applyExpectation(r, expectation);
        out.result = std::move(r);
    } catch (const InputError& e) {
        out.error = e.what();
    } catch (const std::exception& e) {
        out.error = path + ": internal error: " + e.what();
        out.internal = true;
    } catch (...) {
        out.error = path + ": internal error: unknown exception";
        out.internal = true;
    }
    return out;
}

// CLI11's own range checks print huge bounds and let "-5" wrap around in an unsigned option.
CLI::Validator nonNegative(bool integer) {
    return CLI::Validator(
        [integer](std::string& text) -> std::string {
            bool digits = !text.empty() && text.find_first_not_of("0123456789") == text.npos;
            if (integer) return digits ? "" : "expected a whole number >= 0, got '" + text + "'";
            try {
                std::size_t used = 0;
                double value = std::stod(text, &used);
                if (std::isfinite(value) && value >= 0 && used == text.size()) return "";
            } catch (const std::exception&) {
            }
            return "expected a number >= 0, got '" + text + "'";
        },
        integer ? "UINT" : "NUMBER");
}

void count(Tally& tally, const report::CheckResult& r) {
    const report::ExpectationCheck& e = r.expectation;
    if (r.observation == report::Observation::Unknown)
        ++tally.unknown;
    else if (e.governed && e.matches)
        ++tally.matched;
    else if (e.governed)
        ++tally.mismatched; // also a governed test without a line: the corpus is incomplete
}

} // namespace

void setupCheck(CLI::App& app) {
    auto args = std::make_shared<CheckArgs>();
    CLI::App* sub = app.add_subcommand(
        "check", "Enumerate every allowed final state of litmus tests under the model");
    sub->add_option("--model", args->modelFile,
                    "cat model file, or a built-in model such as variants/q4-kind-not-required.cat "
                    "(default: model/tcgen05.cat); expected.<name>.txt overrides expected.txt")
        ->option_text("MODEL");
    sub->add_flag("--json", args->json, "print a JSON array (one object per test)");
    sub->add_option("-j,--jobs", args->jobs,
                    "check N tests at a time; output order and content do not change")
        ->check(CLI::Range(1u, 1024u))
        ->option_text("N");
    sub->add_option("--timeout", args->timeoutSeconds,
                    "wall-clock limit per test; a test that hits it is Unknown (default: none)")
        ->check(nonNegative(false))
        ->option_text("SEC");
    sub->add_option("--engine", args->engine,
                    "z3 (default), enumerate (explicit reference engine) or both (they must agree)")
        ->check(CLI::IsMember({"z3", "enumerate", "both"}));
    sub->add_option("--rlimit", args->rlimit,
                    "deterministic Z3 resource limit per query; hitting it gives Unknown")
        ->check(nonNegative(true))
        ->option_text("N");
    sub->add_flag("--no-time", args->noTime, "leave timings out (reproducible output)");
    sub->add_flag("--expectations-only", args->expectationsOnly,
                  "solve nothing: check that every test has an expected.txt line and every "
                  "line names an existing test it governs");
    sub->add_option("PATH", args->paths,
                    "a .litmus file, a folder (searched recursively) or a herd @index file")
        ->required()
        ->option_text("...");
    sub->footer(kCheckExamples);
    sub->callback([args] {
        // CLI11's way of leaving parse() with a status: App::exit returns it without printing.
        if (int status = runCheck(*args); status != 0) throw CLI::RuntimeError(status);
    });
}

int runCheck(const CheckArgs& args) {
    if (args.expectationsOnly) return runExpectationsOnly(args);
    Tally tally;
    Inputs inputs = expandInputs(args.paths);
    tally.tests = inputs.tests.size();
    for (const std::string& e : inputs.errors) {
        std::cerr << e << '\n';
        ++tally.errors;
    }
    std::shared_ptr<const cat::ResolvedModel> model;
    std::vector<report::ExpectationCheck> expectations;
    try {
        model = loadModelArg(args.modelFile);
        // Looked up here, on one thread: the index caches files and is not thread-safe.
        // Under model X.cat, expected.X.txt (beside expected.txt) overrides the lines it lists.
        report::ExpectationIndex index(report::variantOfModel(args.modelFile));
        for (const std::string& test : inputs.tests)
            expectations.push_back(index.lookup(test));
    } catch (const InputError& e) {
        // Without a model or with a broken expected.txt no verdict would mean anything.
        std::cerr << e.what() << '\n';
        ++tally.errors;
        tally.printSummary();
        return tally.status();
    }

    CheckOptions options;
    options.timeoutSeconds = args.timeoutSeconds;
    options.rlimit = args.rlimit;
    options.engine = args.engine == "enumerate" ? Engine::Enumerate
                     : args.engine == "both"    ? Engine::Both
                                                : Engine::Z3;
    report::PrintOptions print;
    print.showTime = !args.noTime;
    report::HerdPrinter herd(print);
    report::JsonPrinter json(print);
    nlohmann::ordered_json array = nlohmann::ordered_json::array();

    std::vector<Outcome> outcomes(inputs.tests.size());
    auto work = [&](std::size_t i) {
        outcomes[i] = checkOne(inputs.tests[i], *model, options, expectations[i]);
    };
    auto emit = [&](std::size_t i) {
        Outcome& o = outcomes[i];
        if (!o.result) {
            std::cout.flush(); // keep stdout and stderr in input order on a terminal
            std::cerr << o.error << '\n';
            ++tally.errors;
            tally.internal = tally.internal || o.internal;
            return;
        }
        count(tally, *o.result);
        if (args.json)
            array.push_back(json.toJson(*o.result));
        else
            herd.print(std::cout, *o.result);
        std::cout.flush(); // show each block as soon as it is known
        o.result.reset();  // a corpus's results need not all stay in memory
    };
    runInOrder(inputs.tests.size(), args.jobs, work, emit);
    if (args.json) std::cout << array.dump(2) << '\n';
    tally.printSummary();
    return tally.status();
}

} // namespace ptxmc::cli
