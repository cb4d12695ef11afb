// Checks a test once per weakening of each synchronising instruction and reports what breaks.
#include "cli/Fences.hpp"

#include "cat/Resolver.hpp"
#include "check/Check.hpp"
#include "cli/CommonOptions.hpp"
#include "cli/Inputs.hpp"
#include "cli/ModelArg.hpp"
#include "cli/Parallel.hpp"
#include "cli/Pipeline.hpp"
#include "cli/Readings.hpp"
#include "cli/Weakenings.hpp"
#include "ptx/Mutation.hpp"
#include "ptx/Print.hpp"
#include "report/Answer.hpp"
#include "report/JsonPrinter.hpp"

#include <algorithm>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

namespace ptxmc::cli {

namespace {

const char* const kFencesExamples = R"(Examples:
  ptxmc fences litmus/kernels/tma-umma/umma-1x2.litmus
  ptxmc fences --json --jobs 2 litmus/kernels/tma-umma
  ptxmc fences --model variants/q1-acquire-wait-orders-tcgen05.cat litmus/tcgen05/fences
  ptxmc fences --readings litmus/kernels/umma-acc/umma-acc-2x4.litmus

For every synchronising instruction (fence, wait, arrive, expect_tx, commit, barrier,
wait_group, release/acquire access) the test is checked again with that instruction dropped
and with each weaker form (.acquire -> .relaxed, .cluster -> .cta, fence.sc -> fence.acq_rel,
wait_group -> wait_group.read, arrive.expect_tx -> arrive). A weakening is load-bearing when
the answer changes: new or lost final states, a different verdict, new flags, a hang.
Mutant names (drop:P0:3) are the ones gen-cuda --derive-mutants and compare use.
Exit status: 0 every test and weakening was checked, 1 some check is Unknown (timeout or
resource limit) or a weakening could not be checked, 2 an input error.)";

struct FencesArgs {
    PipelineOptions pipeline;    ///< --model, --reading, --unroll, --timeout, limits, --engine
    std::string format = "text"; ///< --format text|json (--json)
    std::string output;          ///< -o/--output FILE; empty: standard output
    unsigned jobs = 1;
    bool readings = false;
    std::string shard; ///< --shard I/N: only every N-th test, from the I-th
    std::vector<std::string> paths;
};

void printText(const TestRun& run, const std::string& modelName) {
    const engine::CheckResult& base = *run.base;
    std::cout << "Test " << run.test.name << " (" << run.path << ") under " << modelName << ": "
              << answerOf(base) << '\n';
    std::size_t bearing = 0;
    perInstruction(run.effects, [&](std::size_t i, std::size_t j) {
        const litmus::Instruction& inst = instructionOf(run.test, run.effects[i].mutation);
        std::cout << "  P" << run.effects[i].mutation.thread << ":" << run.effects[i].mutation.index
                  << "  line " << inst.loc.line << "  " << instructionText(inst) << '\n';
        for (std::size_t k = i; k < j; ++k) {
            const Effect& e = run.effects[k];
            bearing += e.loadBearing() ? 1 : 0;
            std::string kind = ptx::kindName(e.mutation.kind);
            std::cout << "    " << kind
                      << std::string(8 - std::min<std::size_t>(7, kind.size()), ' ')
                      << effectText(e, base) << readingsText(e) << '\n';
        }
    });
    std::cout << "  " << bearing << " of " << run.effects.size()
              << " weakening(s) load-bearing\n\n";
}

nlohmann::ordered_json effectJson(const Effect& e, const engine::CheckResult& base) {
    nlohmann::ordered_json j;
    j["mutation"] = ptx::toString(e.mutation);
    j["kind"] = ptx::kindName(e.mutation.kind);
    j["loadBearing"] = e.loadBearing();
    if (e.result) {
        j["answer"] = answerOf(*e.result);
        j["observation"] = engine::toString(e.result->observation);
        if (e.unknown()) j["unknownReason"] = e.result->unknownReason.text;
    }
    if (!e.error.empty()) j["error"] = e.error;
    j["newStates"] = e.newStates;
    j["lostStates"] = e.lostStates;
    j["newFlags"] = e.newFlags;
    j["goneFlags"] = e.goneFlags;
    j["effect"] = effectText(e, base);
    if (!e.readingsOtherwise.empty()) {
        nlohmann::ordered_json other = nlohmann::ordered_json::array();
        for (std::size_t i = 0; i < e.readingsOtherwise.size(); ++i) {
            const engine::ReadingResult& r = e.readingsOtherwise[i];
            nlohmann::ordered_json o{
                {"model", r.reading.modelFile()},
                {"loadBearing", !e.loadBearing()},
                {"answer", report::answerText(r.observation, r.flags, r.states)},
                {"decisions", r.decisions}};
            if (!e.readingBaseAnswers[i].empty()) o["testAnswer"] = e.readingBaseAnswers[i];
            other.push_back(o);
        }
        j["readingsOtherwise"] = other;
    }
    return j;
}

nlohmann::ordered_json toJson(const TestRun& run) {
    const engine::CheckResult& base = *run.base;
    nlohmann::ordered_json j;
    j["test"] = run.test.name;
    j["file"] = run.path;
    j["observed"] = base.observed;
    j["answer"] = answerOf(base);
    j["states"] = report::stateValues(base);
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    perInstruction(run.effects, [&](std::size_t i, std::size_t k) {
        const litmus::Instruction& inst = instructionOf(run.test, run.effects[i].mutation);
        nlohmann::ordered_json ins;
        ins["thread"] = run.effects[i].mutation.thread;
        ins["index"] = run.effects[i].mutation.index;
        ins["line"] = inst.loc.line;
        ins["column"] = inst.loc.col;
        ins["instruction"] = instructionText(inst);
        ins["weakenings"] = nlohmann::ordered_json::array();
        for (std::size_t m = i; m < k; ++m)
            ins["weakenings"].push_back(effectJson(run.effects[m], base));
        list.push_back(ins);
    });
    j["instructions"] = list;
    return j;
}

int runFences(const FencesArgs& args) {
    StdoutTo redirect(args.output);
    if (args.readings && (!args.pipeline.model.empty() || !args.pipeline.reading.empty())) {
        std::cerr << "--readings: error: --readings weighs each weakening under the built-in "
                     "model's readings (model/variants); it takes no --model or --reading\n";
        return 2;
    }
    auto model = args.readings ? modelWithReadings() : loadModel(args.pipeline);
    std::string modelName = modelDisplayName(modelArgOf(args.pipeline));
    Inputs inputs = expandInputs(args.paths, args.shard);
    for (const auto& e : inputs.errors)
        std::cerr << e << '\n';
    WeakeningOptions options;
    options.pipeline = args.pipeline;
    options.jobs = args.jobs;
    options.readings = args.readings;
    std::size_t errors = inputs.errors.size(), unknowns = 0;
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    weakenTests(inputs.tests, *model, options, [&](TestRun& run) {
        if (!run.base) {
            std::cout.flush();
            std::cerr << (run.parseError.empty() ? run.baseError : run.parseError) << '\n';
            ++errors;
            return;
        }
        if (run.base->observation == engine::Observation::Unknown) {
            std::cout.flush();
            std::cerr << run.path << ": Unknown (" << run.base->unknownReason.text
                      << "): no weakening compared\n";
            ++unknowns;
            return;
        }
        for (const Effect& e : run.effects)
            unknowns += e.unknown() ? 1 : 0;
        if ((args.format == "json"))
            list.push_back(toJson(run));
        else
            printText(run, modelName);
    });
    if ((args.format == "json")) {
        nlohmann::ordered_json out;
        out["model"] = modelName;
        out["tests"] = list;
        std::cout << dumpJson(out);
    }
    std::cout.flush();
    if (errors > 0) return 2;
    return unknowns > 0 ? 1 : 0;
}

} // namespace

void setupFences(CLI::App& app) {
    auto args = std::make_shared<FencesArgs>();
    CLI::App* sub = app.add_subcommand(
        "fences", "Report which fences, waits, arrives and commits of a test are load-bearing");
    addFormatOption(*sub, args->format, {"text", "json"},
                    "text (the default) or json (one JSON object)");
    addOutputOption(*sub, args->output, "the report");
    addJobsOption(*sub, args->jobs, "check N mutants at a time; the output does not change");
    PipelineHelp help;
    help.timeout = "wall-clock limit per check; a weakening that hits it is reported unknown";
    help.engine = "z3 (default), enumerate or both";
    addPipelineOptions(*sub, args->pipeline, help);
    sub->add_flag("--readings", args->readings,
                  "also weigh each weakening under every reading of an open question of the "
                  "PTX text (model/variants) and say where it is load-bearing under one and "
                  "redundant under the other: which synchronization each reading needs");
    addShardOption(*sub, args->shard);
    sub->add_option("PATH", args->paths,
                    "a .litmus file, a folder (searched recursively) or a herd @index file")
        ->required()
        ->option_text("...");
    sub->footer(kFencesExamples);
    sub->callback([args] {
        if (int status = runFences(*args); status != 0) throw CLI::RuntimeError(status);
    });
}

} // namespace ptxmc::cli
