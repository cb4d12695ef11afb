// Explicit exploration of a program's real-time schedules: can a gate hold its thread forever?
#pragma once

#include "engine/Budget.hpp"
#include "ir/Program.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ptxmc::engine::schedules {

/**
 * What the exploration found. Exact for the programs it covers (NoHang and MayHang are the
 * answers of the solver's program-only hang query); the others say why it gave up.
 */
enum class Answer {
    NoHang,      ///< every schedule runs every event: no gate can hold its thread forever
    MayHang,     ///< some schedule ends with a gate that never lets its thread through
    Unsupported, ///< the program's gates depend on values read from memory, or it has loops
    TooLarge,    ///< more states than the limit
};

/** Schedule states a search visits before it gives up (a few hundred bytes each: about 100 MB
 *  at the limit). */
constexpr std::size_t kMaxStates = 300000;

/** Whether a search takes every enabled event from a state or a persistent set of them (the
 *  same end states and facts in fewer states; the full search is for tests). */
enum class Reduction { PersistentSets, None };

/** A schedule that ends where no event can run and some have not: an execution that hangs. */
struct HangSchedule {
    std::vector<int> schedule; ///< the events run, in order
    std::vector<int> stuck;    ///< the spinning waits its threads reached and never pass
};

struct Exploration {
    Answer answer = Answer::Unsupported;
    std::string why;        ///< Unsupported, TooLarge: the reason
    std::size_t states = 0; ///< distinct states visited
    /** The search passed its limit (answer TooLarge, unless another proof answered since). */
    bool cut = false;
    /** One schedule in which every event happens, as the order the events run in (empty
     *  when none was found): a sequentially consistent execution of the program. */
    std::vector<int> completeSchedule;
    /** Facts only: one schedule, every spinning wait returned, that ran a misuse on its way
     *  (gone past, or a first misuse and the schedule on from it that made it a premise;
     *  empty: none found): an execution that raises mbarrier-misuse where the model allows
     *  it. */
    std::vector<int> misuseSchedule;
    /** Facts only: schedules that end where no event can run and some spinning wait holds its
     *  thread, one per set of such waits (at most kHangSchedules): executions that hang, as
     *  far as they go. */
    std::vector<HangSchedule> hangSchedules;
    /** Hang searches: the threads taken up to a permutation (smt/ThreadSymmetry.hpp), each
     *  class as its members' thread numbers. */
    std::vector<std::vector<int>> interchangeableThreads;
};

/** How many hanging schedules a search keeps (Exploration::hangSchedules). */
constexpr std::size_t kHangSchedules = 16;

/**
 * Explores every interleaving of the program's events that real time allows (ir::realTimePairs:
 * program order, issue before what it performs, iico, bar.sync arrivals before completions),
 * applying each mbarrier operation to its object (engine/MbarrierMachine.hpp) and letting a
 * spinning wait through only while the phase it names has completed. A schedule that can go no
 * further with events left over has a gate that holds its thread forever. Events that neither
 * touch an mbarrier nor are gates commute with everything and are run as soon as they can be;
 * of the others, the search takes a persistent set from each state (operations of different
 * objects commute), which keeps every end state and every object's sequences of operations.
 * The hang search also takes two changes of one object by the same function (two warps'
 * arrivals) as commuting, and every wait and change of an object as commuting while its
 * current phase cannot complete (a guard: a change every completion needs is in the set or
 * after it; a 2-SM stage's bytes around its expect_tx arrival), and states up to a permutation
 * of interchangeable threads (a CTA's epilogue warps): these keep every hang, not every
 * object's sequence.
 *
 * A cta_group::2 alloc or dealloc runs once its peer's thread has reached the peer operation
 * (a dealloc that may block is taken as blocking: some execution hangs exactly when one with
 * every such dealloc blocking does). Covers programs without guards or loops whose spinning
 * waits' operands are constants (a phase token taken from an arrive is not: it depends on the
 * execution); `maxStates` bounds the search, `budget` (optional) is polled.
 */
Exploration explore(const ir::Program& p, std::size_t maxStates, const Budget* budget = nullptr,
                    Reduction reduction = Reduction::PersistentSets);

/**
 * One schedule in which every event happens under `order` (pairs a before b): the search of
 * explore() under that order, stopped at the first schedule that runs every event (empty
 * completeSchedule when none does within `maxStates`, or the order has a cycle). Only that
 * schedule counts: a search stopped early says nothing of hangs, whatever its answer.
 */
Exploration firstSchedule(const ir::Program& p, const std::vector<std::pair<int, int>>& order,
                          std::size_t maxStates, const Budget* budget = nullptr);

/**
 * What every schedule of the program under a given order shows of its mbarrier objects:
 * the phases each operation may find its object in, and the operations of the same object
 * that always run before it. A cta_group::2 alloc or dealloc runs here without waiting for its
 * peer: more schedules than executions have, so the facts still hold in each. Taken over every step
 * the search takes (complete schedules or not), so a fact holds in every schedule that runs each
 * event once in an order containing `order` and lets a spinning wait through only once its phase
 * completed.
 */
struct MbarrierFacts {
    bool known = false;     ///< the search ran to the end over a supported program
    std::string why;        ///< otherwise: the reason
    std::size_t states = 0; ///< distinct states visited
    std::map<int, std::set<std::int64_t>> phases; ///< mbarrier op -> phases it may see
    std::map<int, std::vector<int>> alwaysAfter;  ///< op -> same-object ops always run before it
    /** Whether each step's misuse is a function of the object's state: every wait's operand
     *  is a constant (a stale token needs the token's value). Then the search ends a schedule
     *  at a misuse only where no schedule on from it has every spinning wait return
     *  (`endedAt`), and goes on past every other misuse (`misusesPast`): the state machine
     *  (engine/MbarrierMachine.hpp) defines what a misused operation leaves, for the encoding
     *  and the search alike; where going past multiplies the states, the search starts again
     *  and ends each schedule at its first misuse instead (`firstMisuses`). Without
     *  misuseKnown the search goes on past every misuse. */
    bool misuseKnown = false;
    /** With misuseKnown: the operations some step of the search ran as undefined behaviour
     *  (MB_MISUSE's operations: before init, init twice, an arrival beyond the pending count,
     *  a count misuse, a stale token, an arrive of a later phase with no True wait in the
     *  phase before) and went on past. The facts hold in schedules with these misuses too. */
    std::set<int> misusesPast;
    /** Where going past misuses multiplied the states (observeMbarriers), the search instead
     *  ends each schedule at its first misuse: those with a schedule on to every spinning
     *  wait returning, and the facts hold where none of them is misuse (a premise). */
    std::set<int> firstMisuses;
    /** The searches for a schedule on from a misuse to every spinning wait returning reached
     *  the search's bound: the misuses they did not finish are gone past, so misusesPast may
     *  hold more (and the facts say less) than a larger bound would give. */
    bool completionsCut = false;
    /** With misuseKnown: every operation at which some schedule of the search ended, a misuse
     *  with no schedule on from it to every spinning wait returning (or, not going past, any
     *  misuse: firstMisuses are among them). The facts hold in every prefix of a schedule, up
     *  to a state the search must reach (one where no event can run), that runs none of these
     *  as a misuse; where every spinning wait returns and none of firstMisuses is misuse, that
     *  is every schedule. */
    std::set<int> endedAt;
    /** The gates some state where no event can run has not run (a gate outside it runs in
     *  every schedule that reaches such a state without a misuse first). */
    std::set<int> leftAtEnd;
    /** With misuseKnown: the mbarrier ops in neither misusesPast nor firstMisuses, which are
     *  no misuse where none of endedAt is (so wherever every spinning wait returns and none of
     *  firstMisuses is misuse). */
    std::set<int> misuseFree;
    /** One schedule under the order in which every event ran (empty: none found), kept when
     *  the search gave up too: it respects the model's order, where real time alone misses
     *  orders the model imposes (tcgen05 pipelining, completions). */
    std::vector<int> completeSchedule;
    /** Exploration::misuseSchedule of the search whose facts these are. */
    std::vector<int> misuseSchedule;
    /** Exploration::hangSchedules of that search. */
    std::vector<HangSchedule> hangSchedules;
};

/**
 * `absent` (by event, optional): one way of the program's choices (smt/MbarrierFacts.cpp,
 * programWays), the events whose guards fail in it; the others' guards hold. The search then covers
 * guarded mbarrier operations and gates too, as the program runs that way.
 *
 * The mbarrier facts of the schedules that respect `order` (pairs a before b) instead of
 * real time: the same fragment, limit and reduction as explore(). An order that every
 * execution of a model respects together with its mbarrier order (smt/MbarrierFacts.hpp)
 * makes these facts hold in every execution of the model where every spinning wait returns.
 */
MbarrierFacts observeMbarriers(const ir::Program& p, const std::vector<std::pair<int, int>>& order,
                               std::size_t maxStates, const Budget* budget = nullptr,
                               Reduction reduction = Reduction::PersistentSets,
                               std::vector<bool> absent = {});

/**
 * The mbarrier facts of each object on its own: for each object, observeMbarriers on the
 * program where every other object's operations and every gate are plain events (they run once
 * their predecessors ran, never wait and change nothing), under `order` and the pairs of
 * `ownOrder` between that object's operations, merged. They hold in every execution where each
 * object's operations are performed in an order that contains those pairs of `ownOrder` and that
 * no path of `order` contradicts (decision Q22's variant, Mbarrier-Real-Time with `order` a
 * part of xo): such an order and `order` have no cycle between them (a path of `order` between
 * two of the object's operations is a pair of xo, which the object's order keeps), so some
 * schedule of the relaxed program runs that object's operations in that order, each wait after
 * the phase it returned in, and the facts of that schedule's steps are the execution's.
 *
 * In rounds, where `observedInOrder` says that every mb-obs pair is one of the relation `order`
 * is taken from (xo's xsync): a spinning wait returns after the operations of the phases it
 * observed complete, and the facts of one round say which those are in every execution
 * (observedPairs); the next round adds them to `order`, so that a thread's wait on one object
 * holds its operations on another behind the arrivals it waits for, until a round adds none
 * (a ring's hand-offs may take a round per wrap) or the rounds' states pass `maxStates`. Each
 * round's facts hold where the earlier rounds' do, so every round's premises (firstMisuses) are the
 * result's. Objects whose search gave up have no facts; `why` names the first such one, and `known`
 * says every search finished. An object whose search reads the same of a round's order as of the
 * last (scheduledOrder) keeps that search's facts and is not searched again.
 */
MbarrierFacts observeEachObject(const ir::Program& p, const std::vector<std::pair<int, int>>& order,
                                const std::vector<std::pair<int, int>>& ownOrder,
                                bool observedInOrder, std::size_t maxStates,
                                const Budget* budget = nullptr, std::vector<bool> absent = {});

/**
 * What a search of `p` under `order` (without the `absent` events) reads of the order: for
 * each event it schedules (an mbarrier operation or a gate, in event order), the scheduled
 * events before it in the order's transitive closure, as a row of bits. The other events run
 * as soon as their predecessors have, so two orders with the same rows let the same schedules
 * of the scheduled events, and their searches find the same facts. Empty where the order has a
 * cycle (or `p` schedules no event).
 */
std::vector<std::uint64_t> scheduledOrder(const ir::Program& p,
                                          const std::vector<std::pair<int, int>>& order,
                                          const std::vector<bool>& absent = {});

} // namespace ptxmc::engine::schedules
