// What checking one litmus test produced: the engine fills it, the reporters print it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptxmc::report {

/** One distinct final state over the observed registers and locations. */
struct FinalState {
    std::vector<std::int64_t> values; ///< parallel to CheckResult::observed
    bool satisfies = false;           ///< does the condition's proposition hold in this state?
};

/** How often the condition's proposition holds, herd's Observation line plus ptxmc's extras. */
enum class Observation {
    Never,     ///< no allowed state satisfies the proposition
    Sometimes, ///< some do, some do not
    Always,    ///< every allowed state does
    Deadlock,  ///< no execution lets every blocking wait succeed: there is no final state
    Unknown,   ///< the solver gave up (see unknownReason); never a guess
};

const char* toString(Observation o);
std::optional<Observation> observationFromString(const std::string& s);

/**
 * An undefined-behaviour flag raised by at least one allowed execution (cat `flag`), or
 * `hang`: a spinning wait blocks forever in some execution.
 */
struct RaisedFlag {
    std::string name;
    std::string doc;
    /** What breaks the rule, one entry per witness: "P1: <instruction> (file:line:col)", pairs
     *  joined by " / ". The engines may pick different witnesses; names are what they agree on. */
    std::vector<std::string> events;
};

/** The expectation a corpus entry records, and whether the result met it. */
struct ExpectationCheck {
    bool present = false;  ///< an expectations file governs this test and names it
    bool governed = false; ///< an expectations file governs this test's folder
    Observation expected = Observation::Never;
    std::vector<std::string> expectedFlags; ///< flag names, sorted, no duplicates
    std::size_t expectedStates = 0;         ///< number of distinct allowed final states
    std::string reason;
    bool matches = false;
    std::string file; ///< expectations file that holds the entry
};

struct CheckResult {
    std::string testName;
    std::string file;
    std::string quantifier;            ///< "exists", "~exists" or "forall"
    std::string conditionText;         ///< the condition as herd prints it
    std::vector<std::string> observed; ///< "P1:r0", "x", "t@1[2]", ...
    std::vector<FinalState> states;    ///< sorted by values, no duplicates
    Observation observation = Observation::Never;
    bool ok = false; ///< herd's Ok/No: exists->Sometimes|Always, ~exists->Never, forall->Always
    std::size_t positive = 0; ///< states satisfying the proposition
    std::size_t negative = 0; ///< states not satisfying it
    std::vector<RaisedFlag> flags;
    std::string unknownReason; ///< with Observation::Unknown
    std::vector<std::string>
        deadlockedWaits; ///< with Observation::Deadlock: the waits that never succeed
    double seconds = 0.0;
    ExpectationCheck expectation;
};

} // namespace ptxmc::report
