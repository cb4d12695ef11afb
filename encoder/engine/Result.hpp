// What checking one litmus test produced: the engine fills it, the reporters print it.
#pragma once

#include "cat/ReadingId.hpp"
#include "engine/Unknown.hpp"
#include "ir/Condition.hpp"
#include "support/SourceLoc.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptxmc::engine {

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

/** An instruction of the program as an answer names it: a flag's witness, a wait, a loop cut. */
struct EventRef {
    int event = -1;   ///< id in ir::Program::events; -1: a point that is no event (a loop's cut)
    int thread = -1;  ///< the thread's number (P1: 1); -1: the initial state
    std::string text; ///< the instruction text
    SourceLoc loc;    ///< where the instruction is issued
    std::string note; ///< what qualifies it ("only jointly"); empty: nothing
    /// An mbarrier operation: the barrier it acts on (as declared, e.g. "full0"); else empty
    std::string barrier;
    std::optional<std::int64_t> parity; ///< an mbarrier wait's parity operand, when constant
    /// Which run of its instruction (0, 1, ...) when the instruction runs more than once (a
    /// loop, unrolled); -1 when it runs once
    int iteration = -1;
};

bool operator==(const EventRef& a, const EventRef& b);

/** What an mbarrier operation acts on, to follow its instruction: " on full0, parity 1"; the
 *  barrier is left out where the text names it already ("(arrive empty0)"); empty otherwise. */
std::string mbarrierText(const EventRef& e);

/** "P1: <instruction> on full0, parity 1 (file:line:col, iteration 2, <note>)" ("init: ..."
 *  for the initial state; the barrier, parity, iteration and note when there are): how every
 *  report names an instruction. */
std::string toString(const EventRef& e);

/** The events that together raise a flag once: a set member, or a relation pair. */
using FlagWitness = std::vector<EventRef>;

/**
 * An undefined-behaviour flag raised by at least one allowed execution (cat `flag`), or
 * `hang`: a spinning wait blocks forever in some execution.
 */
struct RaisedFlag {
    std::string name;
    std::string doc;
    /** What breaks the rule, up to three witnesses (every one for `hang`). The engines may
     *  pick different witnesses; names are what they agree on. */
    std::vector<FlagWitness> witnesses;
};

/** Why a test deadlocks: a wait that never succeeds, or what lowering found blocks for good. */
struct BlockedWait {
    std::optional<EventRef> wait; ///< the wait; empty for a deadlock found before the search
    std::string reason;           ///< without `wait`: "barrier 1 (instance 0) in CTA 0 waits ..."
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

/** One relation of the model on this test: pairs fixed by the program, pairs the solver decides. */
struct RelationSize {
    std::string name;
    std::size_t must = 0; ///< pairs present in every execution (constant true)
    std::size_t may = 0;  ///< pairs that depend on the execution (a solver term each)
    /// Made by the checks: false where none reads the relation whole (an empty factor before
    /// it, a reflexive part that opens it), which --stats does not make for the report alone
    bool made = true;
};

/** What checking cost (`check --stats`): sizes of the program and its encoding, times. */
/** Solver time spent on one purpose (the first execution, flags, states, hangs, ...). */
struct QueryTime {
    std::string purpose;
    std::size_t sat = 0, unsat = 0, unknown = 0;
    double seconds = 0;
};

/** Seconds one step of building the encoding took (--stats). */
struct PhaseTime {
    std::string phase; ///< "program", "axiom Causality", "flag data-race", "closure lemmas", ...
    double seconds = 0;
};

struct Stats {
    std::size_t threads = 0;
    std::size_t events = 0;
    double lowerSeconds = 0; ///< from the test's clock start to the engine's start
    double encodeSeconds = 0;
    double solveSeconds = 0;
    std::size_t queries = 0;       ///< solver calls
    std::size_t assertions = 0;    ///< top-level assertions of the main encoding
    std::size_t lemmasKept = 0;    ///< closure lemmas asserted (the cone the checks depend on)
    std::size_t lemmasMade = 0;    ///< closure lemmas the relations' evaluation made
    std::size_t lemmasLazy = 0;    ///< of the kept ones, those a propagator watches (not clauses)
    std::size_t propagations = 0;  ///< what that propagator derived, over every query
    std::size_t acyclicGraphs = 0; ///< acyclicity axioms watched as graphs (smt/CycleWatch.hpp)
    std::size_t cyclesRefused = 0; ///< cycles those graphs reported as conflicts
    std::size_t edgesExcluded = 0; ///< edges they kept out before a cycle closed
    std::size_t mbarrierFacts = 0; ///< implied mbarrier assertions (smt/MbarrierFacts.hpp)
    std::size_t mbarrierFactStates = 0;  ///< schedule states explored to find them
    std::size_t mbarrierMisusesPast = 0; ///< misuses the facts' search went on past
    std::size_t mbarrierMisusesLeft = 0; ///< misuses the facts leave to the solver
    std::size_t flagWitnesses = 0;       ///< flag members and pairs encoded (smt/FlagBounds.hpp)
    std::size_t flagWitnessesPruned = 0; ///< of those, the ones the facts' bounds rule out
    std::size_t hangMbarrierFacts = 0;   ///< mbarrier facts of the hang encoding, if built
    std::size_t observationPairs = 0;    ///< mb-obs pairs possible (smt/DecidedObservations.hpp)
    std::size_t observationsDecided = 0; ///< of those, decided before the axioms
    std::size_t boolVars = 0;            ///< uninterpreted constants in those assertions, by sort
    std::size_t intVars = 0;
    std::size_t bitVectorVars = 0;
    std::vector<RelationSize> relations; ///< the model's named relations, in definition order
    std::vector<std::pair<std::string, std::string>> solver; ///< Z3's statistics, key and value
    std::vector<QueryTime> queryTimes;   ///< by purpose, in the order first asked
    std::vector<PhaseTime> encodePhases; ///< the main encoding's steps, in the order taken
};

/** The test under another reading of the PTX text: one built-in variant model (`--readings`). */
struct ReadingResult {
    cat::ReadingId reading; ///< printed as its file, "variants/q5-completion-orders-proxies.cat"
    Observation observation = Observation::Never;
    std::vector<std::string> flags; ///< names, sorted
    std::size_t states = 0;
    std::vector<std::vector<std::int64_t>> values; ///< the final states, sorted
    /// The open questions it reads the other way, each with its PTX section:
    /// "Q1 (<section> #<anchor>)", as the model file writes it
    std::vector<std::string> decisions;
};

struct CheckResult {
    std::string testName;
    std::string file;
    std::string hash; ///< herd7's `Hash=` of the test (ptx/TestHash.hpp); empty: not computed
    ir::Quantifier quantifier = ir::Quantifier::Exists;
    std::string conditionText;         ///< the condition as herd prints it
    std::vector<std::string> observed; ///< "P1:r0", "x", "t@1[2]", ...
    std::vector<FinalState> states;    ///< sorted by values, no duplicates
    Observation observation = Observation::Never;
    bool ok = false; ///< herd's Ok/No: exists->Sometimes|Always, ~exists->Never, forall->Always
    std::size_t positive = 0; ///< states satisfying the proposition
    std::size_t negative = 0; ///< states not satisfying it
    std::vector<RaisedFlag> flags;
    UnknownReason unknownReason; ///< with Observation::Unknown
    /// With --readings: the variant models under which the answer (observation, flags or the
    /// number of states) differs; empty when it is the same under every one (robust)
    std::optional<std::vector<ReadingResult>> readings;
    /// The model allows no execution at all (herd7: States 0): the axioms that each, deleted,
    /// would let one through ("Nothing", ...); empty when only several together forbid them all
    std::optional<std::vector<std::string>> forbiddenBy;
    /// Loops some allowed execution goes round more often than --unroll lets the check
    /// follow (their backward branches): the states listed are those of the executions
    /// within the bound.
    std::vector<EventRef> boundReached;
    std::vector<BlockedWait> deadlockedWaits; ///< with Observation::Deadlock: why
    double seconds = 0.0;
    std::optional<Stats> stats; ///< with CheckOptions::stats (Z3 engine)
    ExpectationCheck expectation;

    /**
     * Unknown because a limit stopped the check (--timeout, --memory-limit, --rlimit, or memory
     * ran out): nothing is known. Other Unknowns (the unroll bound, values from thin air, engines
     * disagreeing) are answers in their own right.
     */
    bool stoppedByLimit() const {
        return observation == Observation::Unknown && unknownReason.stoppedByLimit();
    }
};

} // namespace ptxmc::engine
