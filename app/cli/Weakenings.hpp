// A test checked once as written and once per weakening of each synchronising instruction.
#pragma once

#include "cat/Resolver.hpp"
#include "cli/Pipeline.hpp"
#include "engine/Result.hpp"
#include "litmus/Ast.hpp"
#include "ptx/Mutation.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ptxmc::cli {

using Values = std::vector<std::int64_t>;

/** What one weakening changed against the test as written. */
struct Effect {
    ptx::Mutation mutation;
    std::optional<engine::CheckResult> result;
    std::string error; ///< the mutant could not be checked (lowering refused it)
    std::vector<Values> newStates, lostStates;
    std::vector<std::string> newFlags, goneFlags;
    bool verdictChanged = false;
    /// With WeakeningOptions::readings: the readings under which this weakening is
    /// load-bearing where under the default it is redundant, or the other way round
    std::vector<engine::ReadingResult> readingsOtherwise;
    /// Parallel to readingsOtherwise: the answer of the test as written under that reading
    /// where it differs from the default one's (the weakening may then have nothing to break)
    std::vector<std::string> readingBaseAnswers;

    bool unknown() const { return !result || result->observation == engine::Observation::Unknown; }
    bool loadBearing() const {
        return !unknown() && (!newStates.empty() || !lostStates.empty() || !newFlags.empty() ||
                              !goneFlags.empty() || verdictChanged);
    }
};

/** One test: its own answer and, per synchronising instruction, its weakenings. */
struct TestRun {
    std::string path;
    litmus::Test test;
    std::optional<engine::CheckResult> base;
    std::string parseError;      ///< set before the checks start; they only read it
    std::string baseError;       ///< the test as written could not be checked
    std::vector<Effect> effects; ///< in allMutations order: by thread, instruction, strength
};

struct WeakeningOptions {
    PipelineOptions pipeline; ///< how each test and mutant is lowered and checked
    unsigned jobs = 1;
    /// Check every test and weakening under every reading of the model (its
    /// cat::ReadingInfo): Effect::readingsOtherwise says where the default's verdict on the
    /// weakening does not hold
    bool readings = false;
};

/**
 * Checks every test and each of its weakenings, `jobs` at a time, and calls `done` once per
 * test in input order, its effects compared with its own answer (unless that is missing or
 * Unknown).
 */
void weakenTests(const std::vector<std::string>& paths, const cat::ResolvedModel& model,
                 const WeakeningOptions& options, const std::function<void(TestRun&)>& done);

/** What broke, in words: "load-bearing: ..." or "redundant under this model". */
std::string effectText(const Effect& e, const engine::CheckResult& base);
/** The instruction as written, operands included. */
std::string instructionText(const litmus::Instruction& inst);
const litmus::Instruction& instructionOf(const litmus::Test& t, const ptx::Mutation& m);
/** "; redundant under variants/x.cat (Q1 (<section>)), ..." for Effect::readingsOtherwise
 *  ("; no effect under ... where the test as written gives ..." where it is broken already);
 *  "" when the default's verdict on the weakening holds under every reading. */
std::string readingsText(const Effect& e);
/** "Never, no flags, 1 state"-style answer of a result. */
std::string answerOf(const engine::CheckResult& r);

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

} // namespace ptxmc::cli
