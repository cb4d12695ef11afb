// Checks a test once per weakening of each synchronising instruction and reports what breaks.
#include "cli/Fences.hpp"

#include "cat/Resolver.hpp"
#include "cli/CommonOptions.hpp"
#include "cli/Inputs.hpp"
#include "cli/ModelArg.hpp"
#include "cli/Parallel.hpp"
#include "engine/Check.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"
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

For every synchronising instruction (fence, wait, arrive, expect_tx, commit, barrier,
wait_group, release/acquire access) the test is checked again with that instruction dropped
and with each weaker form (.acquire -> .relaxed, .cluster -> .cta, fence.sc -> fence.acq_rel,
wait_group -> wait_group.read, arrive.expect_tx -> arrive). A weakening is load-bearing when
the answer changes: new or lost final states, a different verdict, new flags, a hang.
Mutant names (drop:P0:3) are the ones gen-cuda --derive-mutants and compare use.
Exit status: 0 every test and weakening was checked, 1 some check is Unknown (timeout or
resource limit) or a weakening could not be checked, 2 an input error.)";

struct FencesArgs {
    std::string model;
    std::string format = "text"; ///< --format text|json (--json)
    std::string output;          ///< -o/--output FILE; empty: standard output
    unsigned jobs = 1;
    double timeoutSeconds = 0;
    engine::EngineKind engine = engine::EngineKind::Z3;
    int unroll = lower::LowerOptions{}.unroll;
    std::vector<std::string> paths;
};

using Values = std::vector<std::int64_t>;

/** What one weakening changed against the test as written. */
struct Effect {
    ptx::Mutation mutation;
    std::optional<report::CheckResult> result;
    std::string error; ///< the mutant could not be checked (lowering refused it)
    std::vector<Values> newStates, lostStates;
    std::vector<std::string> newFlags, goneFlags;

    bool unknown() const { return !result || result->observation == report::Observation::Unknown; }
    bool loadBearing() const {
        return !unknown() && (!newStates.empty() || !lostStates.empty() || !newFlags.empty() ||
                              !goneFlags.empty() || verdictChanged);
    }
    bool verdictChanged = false;
};

/** One test: its own answer and, per synchronising instruction, its weakenings. */
struct TestRun {
    std::string path;
    litmus::Test test;
    std::optional<report::CheckResult> base;
    std::string parseError;      ///< set before the checks start; they only read it
    std::string baseError;       ///< the test as written could not be checked
    std::vector<Effect> effects; ///< in allMutations order: by thread, instruction, strength
};

using report::stateText;
using report::stateValues;

void compare(Effect& e, const report::CheckResult& base) {
    if (e.unknown()) return;
    const report::CheckResult& r = *e.result;
    e.newStates = report::statesOnlyIn(stateValues(r), stateValues(base));
    e.lostStates = report::statesOnlyIn(stateValues(base), stateValues(r));
    auto flagsR = report::flagNames(r.flags), flagsB = report::flagNames(base.flags);
    std::set_difference(flagsR.begin(), flagsR.end(), flagsB.begin(), flagsB.end(),
                        std::back_inserter(e.newFlags));
    std::set_difference(flagsB.begin(), flagsB.end(), flagsR.begin(), flagsR.end(),
                        std::back_inserter(e.goneFlags));
    e.verdictChanged = r.observation != base.observation;
}

std::string joined(const std::vector<std::string>& xs) {
    std::string s;
    for (const std::string& x : xs)
        s += (s.empty() ? "" : ", ") + x;
    return s;
}

/** `deadlock: ...` with the first wait that never succeeds and how many others there are. */
std::string deadlockText(const std::vector<std::string>& waits) {
    std::string s = "deadlock: no execution completes";
    if (waits.empty()) return s;
    s += " (" + waits.front();
    if (waits.size() > 1) s += ", and " + std::to_string(waits.size() - 1) + " more wait(s)";
    return s + ")";
}

/** What broke, in words: verdict, hang, states, flags. */
std::string effectText(const Effect& e, const report::CheckResult& base) {
    if (!e.error.empty()) return "not checked: " + e.error;
    if (!e.result) return "not checked";
    const report::CheckResult& r = *e.result;
    if (r.observation == report::Observation::Unknown) return "unknown: " + r.unknownReason;
    if (!e.loadBearing()) return "redundant under this model";
    std::vector<std::string> parts;
    if (r.observation == report::Observation::Deadlock)
        parts.push_back(deadlockText(r.deadlockedWaits));
    else if (e.verdictChanged)
        parts.push_back(std::string(report::toString(base.observation)) + " becomes " +
                        report::toString(r.observation));
    if (!e.newStates.empty() && r.observation != report::Observation::Deadlock)
        parts.push_back(std::to_string(e.newStates.size()) + " new final state(s), e.g. " +
                        stateText(r.observed, e.newStates.front()));
    if (!e.lostStates.empty() && r.observation != report::Observation::Deadlock)
        parts.push_back(std::to_string(e.lostStates.size()) + " final state(s) lost");
    for (const std::string& f : e.newFlags)
        parts.push_back(f == "hang" ? "flag hang: some execution blocks forever"
                                    : "flag " + f + " raised");
    for (const std::string& f : e.goneFlags)
        parts.push_back("flag " + f + " no longer raised");
    return "load-bearing: " + joined(parts);
}

/** The instruction as written, operands included. */
std::string instructionText(const litmus::Instruction& inst) {
    std::string s = inst.opcode;
    for (std::size_t k = 0; k < inst.operands.size(); ++k)
        s += (k ? ", " : " ") + ptx::printOperand(inst.operands[k]);
    return s;
}

const litmus::Instruction& instructionOf(const litmus::Test& t, const ptx::Mutation& m) {
    return t.threads.at(static_cast<std::size_t>(m.thread))
        .code.at(static_cast<std::size_t>(m.index));
}

std::string answerOf(const report::CheckResult& r) {
    return report::answerText(r.observation, report::flagNames(r.flags), r.states.size());
}

/** Calls f(first, last) for each run of effects on the same instruction. */
template <class F> void perInstruction(const std::vector<Effect>& effects, F f) {
    for (std::size_t i = 0; i < effects.size();) {
        std::size_t j = i;
        while (j < effects.size() && effects[j].mutation.thread == effects[i].mutation.thread &&
               effects[j].mutation.index == effects[i].mutation.index)
            ++j;
        f(i, j);
        i = j;
    }
}

void printText(const TestRun& run, const std::string& modelName) {
    const report::CheckResult& base = *run.base;
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
                      << effectText(e, base) << '\n';
        }
    });
    std::cout << "  " << bearing << " of " << run.effects.size()
              << " weakening(s) load-bearing\n\n";
}

nlohmann::ordered_json effectJson(const Effect& e, const report::CheckResult& base) {
    nlohmann::ordered_json j;
    j["mutation"] = ptx::toString(e.mutation);
    j["kind"] = ptx::kindName(e.mutation.kind);
    j["loadBearing"] = e.loadBearing();
    if (e.result) {
        j["answer"] = answerOf(*e.result);
        j["observation"] = report::toString(e.result->observation);
        if (e.unknown()) j["unknownReason"] = e.result->unknownReason;
    }
    if (!e.error.empty()) j["error"] = e.error;
    j["newStates"] = e.newStates;
    j["lostStates"] = e.lostStates;
    j["newFlags"] = e.newFlags;
    j["goneFlags"] = e.goneFlags;
    j["effect"] = effectText(e, base);
    return j;
}

nlohmann::ordered_json toJson(const TestRun& run) {
    const report::CheckResult& base = *run.base;
    nlohmann::ordered_json j;
    j["test"] = run.test.name;
    j["file"] = run.path;
    j["observed"] = base.observed;
    j["answer"] = answerOf(base);
    j["states"] = stateValues(base);
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

/** One unit of work: the test as written (mutation empty) or one mutant of it. */
struct Job {
    std::size_t test;
    std::optional<std::size_t> effect;
};

int runFences(const FencesArgs& args) {
    StdoutTo redirect(args.output);
    auto model = loadModelArg(args.model);
    std::string modelName = modelDisplayName(args.model);
    Inputs inputs = expandInputs(args.paths);
    for (const auto& e : inputs.errors)
        std::cerr << e << '\n';
    std::vector<TestRun> runs(inputs.tests.size());
    std::vector<Job> jobs;
    for (std::size_t t = 0; t < inputs.tests.size(); ++t) {
        runs[t].path = inputs.tests[t];
        jobs.push_back({t, std::nullopt});
        try {
            runs[t].test = litmus::parseLitmusFile(inputs.tests[t]);
        } catch (const InputError& e) {
            runs[t].parseError = e.what();
            continue;
        }
        for (const ptx::Mutation& m : ptx::allMutations(runs[t].test)) {
            runs[t].effects.emplace_back().mutation = m;
            jobs.push_back({t, runs[t].effects.size() - 1});
        }
    }
    engine::CheckOptions options;
    options.engine = args.engine;
    options.timeoutSeconds = args.timeoutSeconds;
    const lower::LowerOptions lowering{args.unroll};
    auto work = [&](std::size_t i) {
        TestRun& run = runs[jobs[i].test];
        if (!run.parseError.empty()) return;
        try {
            if (!jobs[i].effect) {
                run.base = engine::check(lower::lowerTest(run.test, lowering), *model, options);
                return;
            }
            Effect& e = run.effects[*jobs[i].effect];
            e.result =
                engine::check(lower::lowerTest(ptx::applyMutation(run.test, e.mutation), lowering),
                              *model, options);
        } catch (const InputError& err) {
            if (!jobs[i].effect)
                run.baseError = err.what();
            else
                run.effects[*jobs[i].effect].error = err.what();
        }
    };
    std::size_t errors = inputs.errors.size(), unknowns = 0;
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    auto emit = [&](std::size_t i) {
        bool last = i + 1 == jobs.size() || jobs[i + 1].test != jobs[i].test;
        if (!last) return;
        TestRun& run = runs[jobs[i].test];
        if (!run.base) {
            std::cout.flush();
            std::cerr << (run.parseError.empty() ? run.baseError : run.parseError) << '\n';
            ++errors;
            return;
        }
        if (run.base->observation == report::Observation::Unknown) {
            std::cout.flush();
            std::cerr << run.path << ": Unknown (" << run.base->unknownReason
                      << "): no weakening compared\n";
            ++unknowns;
            return;
        }
        for (Effect& e : run.effects) {
            compare(e, *run.base);
            unknowns += e.unknown() ? 1 : 0;
        }
        if ((args.format == "json"))
            list.push_back(toJson(run));
        else
            printText(run, modelName);
        run = TestRun{};
    };
    runInOrder(jobs.size(), args.jobs, work, emit);
    if ((args.format == "json")) {
        nlohmann::ordered_json out;
        out["model"] = modelName;
        out["tests"] = list;
        std::cout << report::dumpJson(out);
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
    addModelOption(*sub, args->model);
    addFormatOption(*sub, args->format, {"text", "json"},
                    "text (the default) or json (one JSON object)");
    addOutputOption(*sub, args->output, "the report");
    addJobsOption(*sub, args->jobs, "check N mutants at a time; the output does not change");
    addUnrollOption(*sub, args->unroll);
    addTimeoutOption(*sub, args->timeoutSeconds,
                     "wall-clock limit per check; a weakening that hits it is reported unknown");
    addEngineOption(
        *sub, args->engine,
        {engine::EngineKind::Z3, engine::EngineKind::Enumerate, engine::EngineKind::Both},
        "z3 (default), enumerate or both");
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
