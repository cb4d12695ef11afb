// Checks each test under two models and prints the final states only one of them allows.
#include "cli/Diff.hpp"

#include "cat/Resolver.hpp"
#include "check/Check.hpp"
#include "cli/CommonOptions.hpp"
#include "cli/Inputs.hpp"
#include "cli/ModelArg.hpp"
#include "cli/Parallel.hpp"
#include "cli/Pipeline.hpp"
#include "report/Answer.hpp"
#include "report/JsonPrinter.hpp"
#include "support/Plural.hpp"

#include <algorithm>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

namespace ptxmc::cli {

namespace {

const char* const kDiffExamples = R"(Examples:
  ptxmc diff --model tcgen05.cat --model variants/q4-kind-not-required.cat litmus
  ptxmc diff --json --model model/tcgen05.cat --model my.cat litmus/tcgen05/pipeline

Each --model is a cat file or a built-in model name. Differences are the answer, not an
error: exit status 0 when every test was checked under both models, 1 when some result is
Unknown (a timeout or resource limit), 2 on an input error (bad path, parse error, bad model).
No --reading: both sides are --model options, and a reading is one by name
(--model variants/NAME.cat).)";

struct DiffArgs {
    std::vector<std::string> models;
    std::string format = "text"; ///< --format text|json (--json)
    std::string output;          ///< -o/--output FILE; empty: standard output
    unsigned jobs = 1;
    PipelineOptions pipeline; ///< --unroll, --timeout, limits, --engine (the models: above)
    std::string shard;        ///< --shard I/N: only every N-th test, from the I-th
    std::vector<std::string> paths;
};

using Values = std::vector<std::int64_t>;

// One test under both models, or the error that stopped it.
struct Pair {
    std::optional<engine::CheckResult> a, b;
    std::string error;
};

using report::statesOnlyIn;
using report::stateText;
using report::stateValues;

bool unknown(const engine::CheckResult& r) {
    return r.observation == engine::Observation::Unknown;
}

bool differs(const engine::CheckResult& a, const engine::CheckResult& b) {
    return a.observation != b.observation || stateValues(a) != stateValues(b);
}

std::string observationText(const engine::CheckResult& r) {
    std::string out = engine::toString(r.observation);
    if (r.observation != engine::Observation::Deadlock && !unknown(r))
        out += " " + std::to_string(r.positive) + " " + std::to_string(r.negative);
    for (const engine::RaisedFlag& f : r.flags)
        out += ", flag " + f.name;
    return out;
}

void printText(const std::string& file, const Pair& p, const std::string& nameA,
               const std::string& nameB) {
    const engine::CheckResult& a = *p.a;
    const engine::CheckResult& b = *p.b;
    std::cout << "Test " << a.testName << " (" << file << ")\n";
    std::cout << "  A " << nameA << ": " << observationText(a) << '\n';
    std::cout << "  B " << nameB << ": " << observationText(b) << '\n';
    auto list = [&](const char* label, const std::vector<Values>& states) {
        std::cout << "  only under " << label << ':';
        if (states.empty()) std::cout << " none";
        for (const Values& v : states)
            std::cout << "\n    " << stateText(a.observed, v);
        std::cout << '\n';
    };
    list("A", statesOnlyIn(stateValues(a), stateValues(b)));
    list("B", statesOnlyIn(stateValues(b), stateValues(a)));
    std::cout << '\n';
}

nlohmann::ordered_json side(const engine::CheckResult& r, const std::string& model) {
    nlohmann::ordered_json j;
    j["model"] = model;
    j["observation"] = engine::toString(r.observation);
    j["states"] = stateValues(r);
    nlohmann::ordered_json flags = nlohmann::ordered_json::array();
    for (const engine::RaisedFlag& f : r.flags)
        flags.push_back(f.name);
    j["flags"] = flags;
    return j;
}

nlohmann::ordered_json toJson(const std::string& file, const Pair& p, const std::string& nameA,
                              const std::string& nameB) {
    nlohmann::ordered_json j;
    j["test"] = p.a->testName;
    j["file"] = file;
    j["observed"] = p.a->observed;
    j["a"] = side(*p.a, nameA);
    j["b"] = side(*p.b, nameB);
    j["onlyA"] = statesOnlyIn(stateValues(*p.a), stateValues(*p.b));
    j["onlyB"] = statesOnlyIn(stateValues(*p.b), stateValues(*p.a));
    return j;
}

int runDiff(const DiffArgs& args) {
    StdoutTo redirect(args.output);
    Inputs inputs = expandInputs(args.paths, args.shard);
    std::size_t errors = 0, differing = 0, unknowns = 0;
    for (const std::string& e : inputs.errors) {
        std::cerr << e << '\n';
        ++errors;
    }
    std::shared_ptr<const cat::ResolvedModel> a, b;
    try {
        a = loadModelArg(args.models[0]);
        b = loadModelArg(args.models[1]);
    } catch (const InputError& e) {
        std::cerr << e.what() << '\n';
        return 2;
    }
    std::string nameA = modelDisplayName(args.models[0]);
    std::string nameB = modelDisplayName(args.models[1]);
    const engine::CheckOptions options = checkOptionsOf(args.pipeline);

    std::vector<Pair> pairs(inputs.tests.size());
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    auto work = [&](std::size_t i) {
        try {
            const ir::Program program = lowerTest(readTest(inputs.tests[i]), args.pipeline);
            pairs[i].a = checkProgram(program, *a, options);
            pairs[i].b = checkProgram(program, *b, options);
        } catch (const InputError& e) {
            pairs[i].error = e.what();
        }
    };
    auto emit = [&](std::size_t i) {
        Pair& p = pairs[i];
        if (!p.error.empty()) {
            std::cout.flush();
            std::cerr << p.error << '\n';
            ++errors;
            return;
        }
        if (unknown(*p.a) || unknown(*p.b)) {
            std::cout.flush();
            const bool underA = unknown(*p.a);
            std::cerr << inputs.tests[i] << ": Unknown under " << (underA ? nameA : nameB) << " ("
                      << (underA ? p.a : p.b)->unknownReason.text << "): not compared\n";
            ++unknowns;
        } else if (differs(*p.a, *p.b)) {
            ++differing;
            if ((args.format == "json"))
                list.push_back(toJson(inputs.tests[i], p, nameA, nameB));
            else
                printText(inputs.tests[i], p, nameA, nameB);
        }
        p = Pair{};
    };
    runInOrder(inputs.tests.size(), args.jobs, work, emit);
    if ((args.format == "json")) {
        nlohmann::ordered_json out;
        out["a"] = nameA;
        out["b"] = nameB;
        out["tests"] = inputs.tests.size();
        out["differences"] = list;
        std::cout << dumpJson(out);
    }
    std::cout.flush();
    std::size_t same = inputs.tests.size() - differing - unknowns - (errors - inputs.errors.size());
    std::cerr << "ptxmc diff: " << plural(inputs.tests.size(), "test") << ", " << differing
              << (differing == 1 ? " differs, " : " differ, ") << same
              << (same == 1 ? " agrees, " : " agree, ") << unknowns << " unknown, "
              << plural(errors, "error") << "\n";
    if (errors > 0) return 2;
    return unknowns > 0 ? 1 : 0;
}

} // namespace

void setupDiff(CLI::App& app) {
    auto args = std::make_shared<DiffArgs>();
    CLI::App* sub = app.add_subcommand(
        "diff", "List the tests whose allowed final states differ between two models");
    sub->add_option("--model", args->models,
                    "a model: cat file or built-in name (give --model exactly twice: A, then B)")
        ->required()
        ->expected(1) // one value per --model, so PATH is never taken for a model
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
        ->option_text("MODEL");
    addFormatOption(*sub, args->format, {"text", "json"},
                    "text (the default) or json (one JSON object)");
    addOutputOption(*sub, args->output, "the report");
    addJobsOption(*sub, args->jobs, "check N tests at a time; the output does not change");
    PipelineHelp help;
    // The two models are the two --model options above; a reading is one of them by name.
    help.options = kAllPipelineOptions & ~kModelOption & ~kReadingOption;
    help.timeout = "wall-clock limit per test and model; a test that hits it is not compared";
    addPipelineOptions(*sub, args->pipeline, help);
    addShardOption(*sub, args->shard);
    sub->add_option("PATH", args->paths,
                    "a .litmus file, a folder (searched recursively) or a herd @index file")
        ->required()
        ->option_text("...");
    sub->footer(kDiffExamples);
    sub->callback([args] {
        if (args->models.size() != 2)
            throw CLI::ValidationError("--model", "give exactly two models, A then B (got " +
                                                      std::to_string(args->models.size()) + ")");
        if (int status = runDiff(*args); status != 0) throw CLI::RuntimeError(status);
    });
}

} // namespace ptxmc::cli
