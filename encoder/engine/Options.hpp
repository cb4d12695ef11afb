// How a check runs: which engine, its limits and its switches (every engine reads these).
#pragma once

#include "cat/ReadingId.hpp"
#include "engine/Result.hpp"
#include "engine/SearchProgress.hpp"
#include "ir/Program.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>

namespace ptxmc::cat {
class ResolvedModel;
}

namespace ptxmc::engine {

/** Which engine answers: Z3, explicit enumeration, or both (which must agree). */
enum class EngineKind { Z3, Enumerate, Both };

using Clock = std::chrono::steady_clock;

/** A third of the machine's physical memory, in MiB (engine/Budget.cpp). A test stops at
 *  half of its limit, so two ptxmc processes at a time stay within a third of the machine. */
std::size_t defaultMemoryLimitMiB();

struct CheckOptions {
    EngineKind engine = EngineKind::Z3;
    double timeoutSeconds = 0; ///< wall-clock limit per test (0: none); hitting it gives Unknown
    /// Resident memory of the process above which a test stops as Unknown (0: none); by
    /// default a third of the machine's memory, so that no test can exhaust it.
    std::size_t memoryLimitMiB = defaultMemoryLimitMiB();
    std::uint64_t rlimit = 0; ///< deterministic Z3 resource limit per query (0: none)
    /// When the test's clock started: callers start it before lowering so that the limit and
    /// the reported seconds cover lowering too. Unset: when check() is called.
    std::optional<Clock::time_point> startedAt;
    /// Fill CheckResult::stats: encoding sizes, may/must pairs per relation, phase times.
    bool stats = false;
    /// Where the Z3 search reports how far it got (set by check(): the caller that may stop
    /// waiting reads it); none: no reports.
    std::shared_ptr<SearchProgress> progress;
    /// Z3: encode every closure exactly by repeated squaring, instead of fresh conditions
    /// bounded below where the model's polarity allows (cat/Polarity.hpp). For the bench's
    /// side-by-side comparison; the answers are the same.
    bool exactClosures = false;
    /// Z3: the lower bounds of closures are propagated inside the search by a user propagator
    /// (smt/ClosurePropagator.hpp) instead of asserted as clauses, where a test keeps at least
    /// lazyClosuresFrom of them. Off: the clauses, for the bench's side-by-side comparison; the
    /// answers are the same.
    bool lazyClosures = true;
    /// Below this many kept lemmas they stay clauses: Z3 takes a few thousand clauses in at
    /// once, and a propagator's callbacks cost more over thousands of small queries (SB12: 13 s
    /// as clauses, 17 s propagated; bench/history.md).
    std::size_t lazyClosuresFrom = 5000;
    /// Closures that may have this many pairs or more make each pair's condition when a check
    /// reads it (engine/LazyClosure.hpp), and only between the ends that branch
    /// (engine/ClosureChains.hpp): CUTLASS example 48's real-time closure `xo` has 13 million
    /// possible pairs over its 4,600 events, 3.7 GB made eagerly and the check stopped at its
    /// memory limit; made when read, the proxy rule's cycle makes none (Evaluator's CycleRow)
    /// and the check answers (bench/history.md, 2026-12-05 (2)). From 300,000 rather than 3
    /// million: a fresh condition is a Z3 constant of about 2 KB, and the multicast growth
    /// kernel at 4 CTAs held 260 MiB of them for the closures its irreflexive axioms read on the
    /// diagonal alone: peak 550 -> 203 MiB, example 70 1,641 -> 1,271 MiB (2026-12-05 (8)). Smaller
    /// closures stay eager: read whole, a lazy one is slower (example 70 with every closure lazy
    /// took 25 minutes, 2026-12-01 (9)). 0: every closure (the unit tests' comparison); -1: none.
    std::size_t lazyClosurePairsFrom = 300000;
    /// Z3: the acyclicity axioms are watched by the propagator's graphs (smt/CycleWatch.hpp),
    /// a cycle a conflict when its last edge comes, instead of an integer clock per event and a
    /// clock constraint per edge, where an axiom's relation has at least graphAcyclicFrom
    /// possible edges. Off: the clocks, for the bench's side-by-side comparison; the answers
    /// are the same. Below the threshold the clocks stay: over thousands of small queries the
    /// propagator's callbacks cost more than they save (SB12: 4.4 s with clocks, over 100 s
    /// as graphs; bench/history.md).
    bool graphAcyclic = true;
    std::size_t graphAcyclicFrom = 5000;
    /// Z3: assert the mbarrier facts that the model's acyclicity axioms imply
    /// (smt/MbarrierFacts.hpp). Off only for the bench's side-by-side comparison: states,
    /// verdicts and flags are the same; the execution the solver returns (a flag's witness)
    /// may differ.
    bool mbarrierFacts = true;
    /// Schedule states the mbarrier facts' search visits before it gives up (no facts then).
    /// The model's order leaves that search freer than real time (relaxed arrives of one thread
    /// interleave) and it runs with every encoding: an aid must stay cheap where it does not
    /// apply, and reach the rings with six stages (6x32 needs 222,251 states; without its facts
    /// the flag proofs took 214 s instead of 36: bench/history.md). Tests lower it to reach it.
    std::size_t mbarrierFactStates = 300000;
    /// Z3: leave out of each flag's query the members and pairs that no execution under the
    /// mbarrier facts raises, found on must/may bounds of the model (smt/FlagBounds.hpp). Off
    /// only for the bench's side-by-side comparison: the answers are the same.
    bool flagBounds = true;
    /// Z3: the mb-obs pairs that the mbarrier facts, searched before the axioms are encoded,
    /// decide are made constant (smt/DecidedObservations.hpp), so the closures over mb-obs
    /// hold only the synchronization some execution can have (CUTLASS example 48 under
    /// decision Q18's variant: Unknown at 8 GB, now an answer). Off for the encoding that
    /// answers queries without progress (Z3Session::exact), for explain, and for the bench's
    /// side-by-side comparison: the answers are the same.
    bool decidedObservations = true;
    /// Z3: write pairs that an axiom `irreflexive (co ; S)` with a static S fixes become
    /// constants of co instead of solver choices (engine/FixedOrders.hpp). Off for explain,
    /// whose queries leave axioms out, and for the bench's side-by-side comparison.
    bool fixedOrders = true;
    /// Z3: each raised flag's witness is its smallest (in event order) that some execution
    /// allows, found by a search over its candidates, so that it does not depend on which
    /// execution the solver returned first, which every earlier query (another reading, another
    /// flag) can change. `ptxmc kernel` asks for it: a finding the user fixes must not move when
    /// --readings is added. The default reading's only: the others' witnesses are not shown.
    bool canonicalWitnesses = false;
    /// Which of the model's readings (cat::ReadingInfo) its Reading choices take; none: the
    /// default model's definitions.
    std::optional<cat::ReadingId> reading;
};

} // namespace ptxmc::engine
