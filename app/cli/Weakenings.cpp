// Checks a test and each weakening of its synchronising instructions, and says what changed.
#include "cli/Weakenings.hpp"

#include "cli/Inputs.hpp"
#include "cli/Parallel.hpp"
#include "cli/Readings.hpp"
#include "engine/Flags.hpp"
#include "ptx/Print.hpp"
#include "report/Answer.hpp"
#include "report/AnswerText.hpp"

#include <algorithm>

namespace ptxmc::cli {

namespace {

using report::stateText;
using report::stateValues;

void compare(Effect& e, const engine::CheckResult& base) {
    if (e.unknown()) return;
    const engine::CheckResult& r = *e.result;
    e.newStates = report::statesOnlyIn(stateValues(r), stateValues(base));
    e.lostStates = report::statesOnlyIn(stateValues(base), stateValues(r));
    auto flagsR = report::flagNames(r.flags), flagsB = report::flagNames(base.flags);
    std::set_difference(flagsR.begin(), flagsR.end(), flagsB.begin(), flagsB.end(),
                        std::back_inserter(e.newFlags));
    std::set_difference(flagsB.begin(), flagsB.end(), flagsR.begin(), flagsR.end(),
                        std::back_inserter(e.goneFlags));
    e.verdictChanged = r.observation != base.observation;
}

/** A result's answer under `reading`: its own where checkWithReadings recorded none. */
engine::ReadingResult answerUnder(const engine::CheckResult& r, const cat::ReadingId& reading) {
    if (r.readings)
        for (const engine::ReadingResult& v : *r.readings)
            if (v.reading == reading) return v;
    return {reading,         r.observation,          report::flagNames(r.flags),
            r.states.size(), report::stateValues(r), {}};
}

/**
 * The readings under which `e` is load-bearing where it is redundant under the default, or
 * the other way round: an answer is the verdict, the flags and the final states.
 */
void compareReadings(Effect& e, const engine::CheckResult& base,
                     const std::vector<cat::ReadingInfo>& readings) {
    if (e.unknown() || !base.readings || !e.result->readings) return;
    const bool byDefault = e.loadBearing();
    for (const cat::ReadingInfo& reading : readings) {
        engine::ReadingResult b = answerUnder(base, reading.reading);
        engine::ReadingResult m = answerUnder(*e.result, reading.reading);
        bool bearing = m.observation != b.observation || m.flags != b.flags || m.values != b.values;
        if (bearing == byDefault) continue;
        m.decisions.clear();
        for (const auto& [name, label] : reading.decisions)
            m.decisions.push_back(label);
        e.readingsOtherwise.push_back(std::move(m));
        const bool baseDiffers = b.observation != base.observation ||
                                 b.flags != report::flagNames(base.flags) ||
                                 b.values != report::stateValues(base);
        e.readingBaseAnswers.push_back(
            baseDiffers ? report::answerText(b.observation, b.flags, b.states) : "");
    }
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

/** One unit of work: the test as written (no effect) or one mutant of it. */
struct Job {
    std::size_t test;
    std::optional<std::size_t> effect;
};

} // namespace

/** What broke, in words: verdict, hang, states, flags. */
std::string effectText(const Effect& e, const engine::CheckResult& base) {
    if (!e.error.empty()) return "not checked: " + e.error;
    if (!e.result) return "not checked";
    const engine::CheckResult& r = *e.result;
    if (r.observation == engine::Observation::Unknown) return "unknown: " + r.unknownReason.text;
    if (!e.loadBearing()) return "redundant under this model";
    std::vector<std::string> parts;
    if (r.observation == engine::Observation::Deadlock)
        parts.push_back(deadlockText(report::blockedTexts(r.deadlockedWaits)));
    else if (e.verdictChanged)
        parts.push_back(std::string(engine::toString(base.observation)) + " becomes " +
                        engine::toString(r.observation));
    if (!e.newStates.empty() && r.observation != engine::Observation::Deadlock)
        parts.push_back(std::to_string(e.newStates.size()) + " new final state(s), e.g. " +
                        stateText(r.observed, e.newStates.front()));
    if (!e.lostStates.empty() && r.observation != engine::Observation::Deadlock)
        parts.push_back(std::to_string(e.lostStates.size()) + " final state(s) lost");
    for (const std::string& f : e.newFlags)
        parts.push_back("flag " + f +
                        (f == engine::kHangFlag ? ": some execution blocks forever" : " raised"));
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

std::string readingsText(const Effect& e) {
    auto named = [](const engine::ReadingResult& r) {
        std::string questions;
        for (const std::string& q : r.decisions)
            questions += std::string(questions.empty() ? "" : ", ") + q;
        return r.reading.modelFile() + (questions.empty() ? "" : " (" + questions + ")");
    };
    std::string same, broken;
    for (std::size_t i = 0; i < e.readingsOtherwise.size(); ++i) {
        const std::string& baseAnswer = e.readingBaseAnswers.at(i);
        if (baseAnswer.empty() || !e.loadBearing())
            same += (same.empty() ? "" : ", ") + named(e.readingsOtherwise[i]);
        else
            broken += std::string(broken.empty() ? "" : "; ") + "no effect under " +
                      named(e.readingsOtherwise[i]) + ", where the test as written gives " +
                      baseAnswer;
    }
    std::string s;
    if (!same.empty())
        s +=
            std::string("; ") + (e.loadBearing() ? "redundant" : "load-bearing") + " under " + same;
    if (!broken.empty()) s += "; " + broken;
    return s;
}

std::string answerOf(const engine::CheckResult& r) {
    return report::answerText(r.observation, report::flagNames(r.flags), r.states.size());
}

void weakenTests(const std::vector<std::string>& paths, const cat::ResolvedModel& model,
                 const WeakeningOptions& options, const std::function<void(TestRun&)>& done) {
    std::vector<TestRun> runs(paths.size());
    std::vector<Job> jobs;
    for (std::size_t t = 0; t < paths.size(); ++t) {
        runs[t].path = paths[t];
        jobs.push_back({t, std::nullopt});
        try {
            runs[t].test = readTest(paths[t]);
        } catch (const InputError& e) {
            runs[t].parseError = e.what();
            continue;
        }
        for (const ptx::Mutation& m : ptx::allMutations(runs[t].test)) {
            runs[t].effects.emplace_back().mutation = m;
            jobs.push_back({t, runs[t].effects.size() - 1});
        }
    }
    auto work = [&](std::size_t i) {
        TestRun& run = runs[jobs[i].test];
        if (!run.parseError.empty()) return;
        try {
            // Each check's clock starts before its lowering, as in every subcommand.
            auto checked = [&](const litmus::Test& test) {
                engine::CheckOptions timed = checkOptionsOf(options.pipeline);
                timed.startedAt = engine::Clock::now();
                return checkProgram(lowerTest(test, options.pipeline), model, timed,
                                    options.readings);
            };
            if (!jobs[i].effect) {
                run.base = checked(run.test);
                return;
            }
            Effect& e = run.effects[*jobs[i].effect];
            e.result = checked(ptx::applyMutation(run.test, e.mutation));
        } catch (const InputError& err) {
            if (!jobs[i].effect)
                run.baseError = err.what();
            else
                run.effects[*jobs[i].effect].error = err.what();
        }
    };
    auto emit = [&](std::size_t i) {
        bool last = i + 1 == jobs.size() || jobs[i + 1].test != jobs[i].test;
        if (!last) return;
        TestRun& run = runs[jobs[i].test];
        if (run.base && run.base->observation != engine::Observation::Unknown)
            for (Effect& e : run.effects) {
                compare(e, *run.base);
                compareReadings(e, *run.base, model.readings);
            }
        done(run);
        run = TestRun{};
    };
    runInOrder(jobs.size(), options.jobs, work, emit);
}

} // namespace ptxmc::cli
