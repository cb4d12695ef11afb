// Mbarrier facts that an acyclicity axiom implies: each operation's phases and order, asserted.
#pragma once

#include "engine/Budget.hpp"
#include "smt/FlagBounds.hpp"
#include "smt/ProgramEncoder.hpp"

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>
#include <z3++.h>

namespace ptxmc::engine::smt {

/** What assertMbarrierFacts found and asserted (for --stats). */
struct MbarrierFactsSummary {
    bool explored = false;  ///< the relation qualified and the search ran to the end
    std::string why;        ///< otherwise: the reason
    std::size_t states = 0; ///< schedule states visited
    std::size_t facts = 0;  ///< assertions added
    /// Misuses the search went on past (schedules::MbarrierFacts::misusesPast): the facts
    /// hold in executions with them too
    std::size_t misusesPast = 0;
    /// Misuses the facts hold only without (schedules::MbarrierFacts::firstMisuses where the
    /// search did not go past them; the hang encoding's endedAt), which is the solver's to show
    std::size_t misusesLeft = 0;
    /// A schedule that runs every event under the first kept order and real time together, or
    /// else the facts' search's own complete schedule, re-sorted under every acyclicity
    /// axiom's certain pairs where they allow it (empty: none found)
    std::vector<int> completeSchedule;
    /// A schedule of the facts' search that ran a misuse and then every spinning wait
    /// (schedules::Exploration::misuseSchedule), re-sorted as completeSchedule (empty: none)
    std::vector<int> misuseSchedule;
    /// The hang encoding's: schedules of the search under real time that hang
    /// (schedules::MbarrierFacts::hangSchedules), hints for the executions that hang
    std::vector<schedules::HangSchedule> hangSchedules;
};

/**
 * The mbarrier facts an encoding's axioms imply, gathered axiom by axiom and asserted once all
 * are encoded.
 *
 * An acyclicity axiom whose relation `r` contains every pair of the mbarrier order (each mbo
 * condition, or true, among its condition's disjuncts) orders every execution with its literal
 * along the pairs `r` surely contains (condition true) together with each object's mbo. An axiom
 * `irreflexive (mbo ; x)` (or `x ; mbo`) adds mbo pairs: mbo is a total order of each object's
 * operations, so a pair of one object's operations that `x` surely contains is in mbo wherever
 * the axiom holds (Mbarrier-Coherence puts a thread's operations on one object in program order).
 * Each execution with these literals where every spinning wait returns (`progress`) is then a
 * schedule that smt/Schedules.hpp's observeMbarriers explores under that order, so its facts
 * hold in it: the phases an operation may see, the operations of its object before it, and
 * (where every wait's operand is a constant) that an operation no schedule makes undefined
 * behaviour is not in MB_MISUSE. The search goes on past a misuse (the state machine says what
 * it leaves) unless no schedule on from it has every spinning wait return, which `progress`
 * rules out. They are asserted under the literals and `progress`: implied
 * constraints that spare the solver the search for mbarrier orders and phases no execution has
 * (the phase of a parity wait is an integer it otherwise bounds by case splits over every mbo
 * slot).
 *
 * Where that search passes its limit, and where the only axiom that ties mbo to an order is
 * `irreflexive (m ; x+)` with `m` each object's mbo (decision Q22's variant), the facts are
 * each object's own (schedules::observeEachObject): weaker, and they need only that no path of
 * the order contradicts one object's mbo.
 */
class MbarrierFactsPlan {
public:
    /** With --readings' one encoding, its reading literals (each false under the default):
     *  an axiom that contains the mbarrier order only while some are false gets facts that
     *  hold under those readings alone. */
    explicit MbarrierFactsPlan(const std::vector<z3::expr>& readingLiterals = {});
    /** The program's mb-obs relation, before the axioms are added: an order that contains it
     *  lets each object's search order a wait after the arrivals it observed. */
    void observations(Z3Rel mbObs) { mbObs_ = std::move(mbObs); }
    /** An acyclicity axiom's relation, enforced by `lit`: kept if it contains the mbo pairs
     *  (under the default reading). Its certain pairs order the schedule of the concrete
     *  first run whatever it contains. */
    void addAcyclic(const ProgramEncoder& pe, const Z3Rel& r, const z3::expr& lit);
    /** The `x` of `irreflexive (mbo ; x)`, enforced by `lit`. */
    void addMboCoherence(const ProgramEncoder& pe, const Z3Rel& x, const z3::expr& lit);
    /** An axiom `irreflexive (m ; x)`, enforced by `lit`, whose `m` (between the mbarrier
     *  operations) may be each object's mbo (decision Q22's variant, Mbarrier-Real-Time: no
     *  operation of an object is performed before one that precedes it in `x`); `xBase`: a
     *  relation whose transitive closure is `x`'s (cat::cycleBase). Where `m` is every object's mbo
     *  under some reading literals, each object's facts (schedules::observeEachObject) are
     *  searched under `xBase`'s certain pairs and asserted under those literals. */
    void addPerObjectOrder(const ProgramEncoder& pe, const Z3Rel& m, const Z3Rel& xBase,
                           const z3::expr& lit);
    /** Searches each kept order (with the coherence pairs) and asserts what it finds; each
     *  order's facts and the condition they are asserted under go to `found` (if given).
     *  Where every object's schedules together pass the search's limit, each object's own
     *  facts instead; `wholeSearchTooLarge` (asked where the program has one way) true: the
     *  search of every real-time schedule passed it, and the search of every object together
     *  is not tried. That search keeps each object's order of operations (the hang search
     *  keeps fewer: symmetric threads, commuting arrivals), so on the same schedules it meets
     *  more states; its order adds the axiom's certain pairs, so this is a prediction, not a
     *  proof, and the facts are then each object's: weaker, and sound either way. */
    MbarrierFactsSummary assertAll(z3::solver& solver, const ProgramEncoder& pe,
                                   const z3::expr& progress, std::size_t maxStates,
                                   const Budget* budget, std::vector<FactsUnder>* found = nullptr,
                                   const std::function<bool()>& wholeSearchTooLarge = {}) const;

private:
    struct Order {
        z3::expr lit;
        std::vector<std::pair<int, int>> pairs;
        /// every mb-obs pair is one of the order's relation: observeEachObject's rounds hold
        bool observed = false;
    };
    /** Whether every pair of mb-obs_ is one of `r` wherever it holds (the default reading). */
    bool containsObservations(const Z3Rel& r) const;
    Z3Rel mbObs_; ///< the program's mb-obs pairs (observations)
    std::vector<Order> orders_;
    std::vector<Order> perObject_;          ///< addPerObjectOrder's, searched object by object
    std::map<unsigned, z3::expr> readings_; ///< reading literals by id
    std::vector<z3::expr> coherenceLits_;
    std::vector<std::pair<int, int>> coherent_; ///< mbo pairs wherever coherenceLits_ hold
    /// The certain pairs of every acyclicity axiom (under the default reading, whose run the
    /// others try first): a sequentially consistent run of a schedule
    /// that breaks one of them breaks that axiom.
    std::vector<std::pair<int, int>> certainOrder_;
    std::string why_ = "no acyclicity axiom contains the mbarrier order";
};

/**
 * The mbarrier facts of an encoding whose executions may hang (ProgramEncoder with hangs, which
 * orders every event in real time with each object's mbo inside it), asserted: the facts of
 * the program's real-time schedules (schedules::observeMbarriers under ir::realTimePairs), each
 * about an operation that ran (it happens and, a wait, returned).
 *
 * Why they hold: an execution runs its events in real time, a schedule the search could take,
 * and stops in a state where no event can run (what remains is a wait whose phase never
 * completes, what follows a gate, a bar.sync missing an arrival). The search's persistent sets
 * reach every such state by a schedule with the same operations of each object in the same
 * order, so each operation found the phase and predecessors it recorded; unless that schedule
 * ended early at a misuse the execution runs (the premise: none of the operations a schedule
 * ended at is misuse). A cta_group::2 alloc or dealloc runs in the search without its peer:
 * with one, an execution that waits for a peer forever stops where the search goes on, so
 * the facts are kept only where no schedule ended at a misuse.
 */
MbarrierFactsSummary assertHangFacts(z3::solver& solver, const ProgramEncoder& pe,
                                     std::size_t maxStates, const Budget* budget);

} // namespace ptxmc::engine::smt
