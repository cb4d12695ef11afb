// One test encoded for Z3: program choices, model axioms as named literals, observed values.
#pragma once

#include "cat/Resolver.hpp"
#include "engine/Execution.hpp"
#include "engine/Options.hpp"
#include "engine/Unknown.hpp"
#include "smt/ClosurePropagator.hpp"
#include "smt/MbarrierFacts.hpp"
#include "smt/ProgramEncoder.hpp"
#include "smt/ReadingProofs.hpp"
#include "smt/Z3Context.hpp"

#include <array>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>
#include <z3++.h>

namespace ptxmc::engine::smt {

/**
 * Z3's own words for why it stopped, with their kind. Z3 4.8 says "canceled" or "timeout" for
 * either of its limits (and for the watchdog's interrupt), newer ones name the resource; the
 * driver (cli::checkProgram) then says which of --timeout and --rlimit it was.
 */
UnknownReason z3Words(const std::string& words);

class Z3Session {
public:
    /** With `hangs`, the executions include those that block forever (ProgramEncoder). With
     *  `readings`, every reading of the model is a literal (chooseReading picks one);
     *  otherwise the encoding is that of options.reading alone. `wholeSearchTooLarge`, asked
     *  where the mbarrier facts would search every object's schedules together: true leaves
     *  that search out (MbarrierFactsPlan::assertAll). */
    Z3Session(Z3Context& ctx, const ir::Program& p, const cat::ResolvedModel& model,
              const CheckOptions& options, bool hangs = false, const Budget* budget = nullptr,
              bool readings = false, const std::function<bool()>& wholeSearchTooLarge = {});

    z3::solver& solver() { return solver_; }
    ProgramEncoder& encoder() { return *pe_; }
    z3::context& ctx() { return ctx_; }

    /** Later queries ask under reading `k`: 0 the default, else model.readings[k - 1]. */
    void chooseReading(std::size_t k);
    /** The readings (1-based) whose literal the encoding contains: the others cannot change
     *  any answer of this test. */
    std::set<std::size_t> readingsUsed() const;

    /** Literals enabling each named axiom (not flags); asserting one turns its axiom on. */
    const std::vector<std::pair<std::string, z3::expr>>& axioms() const { return axioms_; }
    const std::vector<std::pair<std::string, z3::expr>>& flags() const { return flags_; }
    /** Per flag (parallel to flags()): the event tuples that can raise it, with conditions. */
    using Witnesses = std::vector<std::pair<std::vector<int>, z3::expr>>;
    const std::vector<Witnesses>& flagWitnesses() const { return flagWitnesses_; }
    /** Holds in executions where every spinning wait returns True. */
    const z3::expr& progress() const { return progress_; }
    /** Final values of the program's observed registers and locations, in order. */
    const std::vector<z3::expr>& observed() const { return observed_; }

    /**
     * Every axiom literal (except those in `without`), plus progress when asked, plus the
     * literal that keeps executions within the unroll bound (ir::Cut) unless `beyondBound`,
     * plus the chosen reading's literals. Where mb-obs pairs were decided, every query must
     * assume all axioms and progress (this throws otherwise): the decided relation, and the
     * facts and flag bounds derived after it, hold only there. A query that builds its own
     * assumptions (explain's subsets of axioms) needs an encoding with decidedObservations off.
     */
    z3::expr_vector assumptions(bool withProgress, const std::set<std::string>& without = {},
                                bool beyondBound = false, bool spins = false) const;
    /** The literals that keep executions within the unroll bound and leave out spins. */
    std::vector<z3::expr> boundLiterals() const { return {withinBound_, noSpin_}; }
    /** Holds when the execution reaches some cut (spinning or beyond the bound). */
    const z3::expr& anyCut() const { return anyCut_; }
    /** Per Bound cut of the program: its index and when the execution reaches it. */
    const std::vector<std::pair<std::size_t, z3::expr>>& boundCuts() const { return boundCuts_; }

    /** The execution a satisfying model describes, in the explicit engine's terms. */
    Choices choices(const z3::model& m);

    /**
     * Whether some execution within the bound satisfies every axiom but `axiom`. An axiom whose
     * consequences the encoding fixes (fixedFrom) is left out of a second encoding built
     * without them, on first use; so is every axiom where the encoding decided mb-obs pairs
     * (decidedFrom): the query does not assume progress, on which they rest.
     */
    z3::check_result checkWithout(const std::string& axiom, const char* purpose);
    /** The solver checkWithout(axiom) asks (for its reason where the answer is unknown). */
    z3::solver& solverWithout(const std::string& axiom);
    /** The axioms whose consequences this encoding fixes (engine/FixedOrders.hpp): a query
     *  that leaves one out goes through checkWithout. */
    const std::vector<std::string>& fixedFrom() const { return fixedFrom_; }

    /** This session, or where it decided mb-obs pairs under premises (DecidedObservations.hpp)
     *  an encoding without them, built on first use: for the queries that do not assume
     *  progress (the deadlock questions). */
    Z3Session& exact();
    /** The axioms the decided mb-obs pairs rest on (with progress); empty: none decided. */
    const std::vector<std::string>& decidedFrom() const { return decidedFrom_; }
    /** mb-obs pairs decided before the axioms were encoded, of those possible. */
    std::pair<std::size_t, std::size_t> observationCounts() const { return observationCounts_; }

    /** solver().check(assumptions), counted and (with timeQueries) timed under `purpose`. */
    z3::check_result check(const z3::expr_vector& assumptions, const char* purpose = "other");
    /** --stats: each later query's time goes to `sink`, by purpose. */
    void timeQueries(std::vector<engine::QueryTime>* sink) { queryTimes_ = sink; }
    std::vector<engine::QueryTime>* queryTimeSink() const { return queryTimes_; }
    /** Queries asked, this encoding's and those of the one without fixed orders or decided
     *  observations (checkWithout, exact()). */
    std::size_t queries() const { return queries_ + (unfixed_ ? unfixed_->queries() : 0); }
    /** With CheckOptions::stats: may/must pairs of each relation the model defines. */
    const std::vector<engine::RelationSize>& relationSizes() const { return relationSizes_; }
    /** With CheckOptions::stats: the seconds of each step of this encoding's construction. */
    const std::vector<engine::PhaseTime>& encodePhases() const { return phases_; }
    /** Closure lemmas propagated lazily (smt/ClosurePropagator.hpp) and their propagations. */
    std::pair<std::size_t, std::size_t> lazyCounts() const {
        return propagator_ ? std::pair{propagator_->lemmas(), propagator_->propagations()}
                           : std::pair<std::size_t, std::size_t>{0, 0};
    }
    /** Acyclicity axioms watched as graphs; the cycles they refused and the edges they kept
     *  out, over every query. */
    std::array<std::size_t, 3> graphCounts() const {
        return {graphs_, propagator_ ? propagator_->cycleConflicts() : 0,
                propagator_ ? propagator_->exclusions() : 0};
    }
    /** Closure lemmas asserted (smt/LemmaCone.hpp) and made. */
    std::pair<std::size_t, std::size_t> lemmaCounts() const { return {lemmasKept_, lemmasMade_}; }
    /** The implied mbarrier facts asserted, over every acyclicity axiom (facts and states). */
    const MbarrierFactsSummary& mbarrierFacts() const { return mbarrierFacts_; }
    const FlagBoundsSummary& flagBounds() const { return flagBounds_; }
    /**
     * Where flag members were ruled out under the mbarrier facts' condition (smt/FlagBounds.hpp),
     * whether some execution `base` allows breaks that condition (a misuse the facts' search
     * met first); where none does, the condition is asserted under `base`, and the ruled-out
     * members' conditions fold to false in every later query. False: the solver gave up.
     * `allowedRun`: a complete schedule whose run the model allows (engine/ScheduledRun.hpp),
     * asked first with its choices assumed: where it breaks the condition, no search is needed.
     */
    bool settleFlagBounds(const z3::expr_vector& base, const std::vector<int>& allowedRun = {});
    /**
     * Whether flag `i` is raised by some execution `base` allows: unsat without a query where
     * settleFlagBounds proved the premises under this reading and these assumptions and the
     * bounds rule out every member of the flag here (FlagBoundsSummary::settled); its answer
     * is a disjunction of those members' conditions, each false under the premises.
     */
    z3::check_result checkFlag(std::size_t i, const z3::expr_vector& base, const char* purpose);

private:
    /** Whether `m` satisfies every assertion and the propagator's lemmas and graphs. */
    bool modelHolds(const z3::model& m) const;
    /** The session's propagator, made on first use or after the program's constraints where a
     *  graph may follow (Z3 takes one per solver). */
    ClosurePropagator& propagator();
    /** `acyclic r` under `lit`: in the propagator's graphs or as clocks (CheckOptions). */
    void assertAcyclic(const z3::expr& lit, const Z3Rel& r, const std::string& tag);

    Z3Context& ctx_;
    const ir::Program& program_;
    const cat::ResolvedModel& model_;
    CheckOptions options_;
    bool hangs_, readings_;
    std::size_t reading_ = 0; ///< chooseReading's last choice
    std::vector<std::string> fixedFrom_;
    /// Whether mb-obs pairs were decided (smt/DecidedObservations.hpp): queries without
    /// progress or without an axiom then go to unfixed_
    bool decided_ = false;
    std::vector<std::string> decidedFrom_; ///< DecidedObservations::premises
    std::pair<std::size_t, std::size_t> observationCounts_{0, 0};
    /// checkWithout's and exact()'s encoding, without fixed orders or decided observations
    std::unique_ptr<Z3Session> unfixed_;
    /** unfixed_, made on first use. */
    Z3Session& unfixed();
    bool withoutNeedsUnfixed(const std::string& axiom) const;
    /// The closure lemmas with lazy closures; declared before the solver, which refers to it
    /// and so goes first.
    std::unique_ptr<ClosurePropagator> propagator_;
    z3::solver solver_;
    std::unique_ptr<ProgramEncoder> pe_;
    std::vector<std::pair<std::string, z3::expr>> axioms_, flags_;
    std::vector<Witnesses> flagWitnesses_;
    z3::expr progress_;
    z3::expr withinBound_, noSpin_, anyCut_;
    std::vector<std::pair<std::size_t, z3::expr>> boundCuts_;
    std::vector<z3::expr> observed_;
    std::vector<z3::expr> readingLits_; ///< per model reading, with `readings`
    /// The readings whose literal the assertions made while encoding name, the flags' bounds
    /// left out (implied by the others, and naming the readings they rule members out under).
    /// Taken at the end of the encoding, before any query: Z3 keeps its own rewritten copy of
    /// each assertion, so positions and terms after a query need not be the ones added. Later
    /// assertions are a proved premise's lemma (implied) and enumeration's blocking clauses
    /// (no reading's literal).
    std::set<std::size_t> assertedReadings_;
    /// The readings (by index, 0 none) whose literal a term under `roots` names
    std::set<std::size_t> readingsNamed(std::vector<z3::expr> roots) const;
    /// Whether the last query's answer is the solver's own (not another reading's proof)
    bool provenBySolver_ = true;
    /// The reading and the assumptions (ids) under which settleFlagBounds last proved the
    /// premises of the flags' bounds
    std::optional<std::pair<std::size_t, std::vector<unsigned>>> settled_;
    std::vector<z3::expr> chosen_; ///< the chosen reading: each literal or its negation
    ReadingProofs readingProofs_;  ///< with `readings`: unsat answers and their cores
    std::size_t queries_ = 0;
    std::vector<engine::QueryTime>* queryTimes_ = nullptr;
    const Budget* budget_;
    std::vector<engine::RelationSize> relationSizes_;
    std::vector<engine::PhaseTime> phases_;
    /// Edge conditions only the propagator's graphs read: roots of the lemma cone.
    std::vector<z3::expr> graphAtoms_;
    /** With CheckOptions::stats: adds the seconds since the last lap to `phase`'s entry. */
    void lap(const std::string& phase);
    std::chrono::steady_clock::time_point lapStart_ = std::chrono::steady_clock::now();
    std::size_t lemmasKept_ = 0, lemmasMade_ = 0, graphs_ = 0;
    MbarrierFactsSummary mbarrierFacts_;
    FlagBoundsSummary flagBounds_;
};

/** A query answered sat with a model that violates the encoding (a Z3 4.8 propagator fault):
 *  the test is checked again without a propagator. */
struct InvalidModel : std::runtime_error {
    explicit InvalidModel(const std::string& purpose)
        : std::runtime_error("Z3 returned an invalid model (" + purpose + ")") {}
};

/** Adds one query's answer and seconds to the entry for `purpose`. */
void recordQuery(std::vector<engine::QueryTime>& times, const char* purpose,
                 z3::check_result answer, double seconds);

/** Counts the uninterpreted constants of the solver's assertions, by sort, into `stats`. */
void countEncoding(const z3::solver& s, engine::Stats& stats);

/** A copy of `base` with one more literal (z3::expr_vector copies share their contents). */
z3::expr_vector withLiteral(const z3::expr_vector& base, const z3::expr& extra);

/** A copy of `base` with the literals of `extra` after it. */
z3::expr_vector withAll(const z3::expr_vector& base, const z3::expr_vector& extra);

/** A 32-bit value of the model, read as signed. */
std::int64_t modelValue(const z3::model& m, const z3::expr& e);

} // namespace ptxmc::engine::smt
