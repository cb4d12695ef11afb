// The explicit engine's search: final states from finishing executions, then the hangs.
#include "enumerate/EnumerateEngine.hpp"

#include "engine/Budget.hpp"
#include "engine/ConcreteModel.hpp"
#include "engine/ResultBuilder.hpp"
#include "enumerate/Candidates.hpp"

#include <set>

namespace ptxmc::engine::enumerate {

namespace {

const std::string kStopped = "explicit enumeration stopped: ";

/** What one search has found so far. */
class Search {
public:
    Search(const ir::Program& p, const cat::ResolvedModel& model,
           const std::optional<cat::ReadingId>& reading, EnumerationLimit& limit)
        : p_(p), cm_(p, model, reading), limit_(limit) {
        for (const auto& e : p.events)
            if (e.has(ir::Tag::MB_WAIT) && e.blocking) blocking_.push_back(e.id);
    }

    /**
     * Final states come only from executions where every spinning wait succeeds, so look at
     * those first; only when there are none does the whole space tell Deadlock from Unknown.
     */
    void finishing() {
        for (bool onlyProgress : {true, false}) {
            forEachCandidate(p_, limit_, onlyProgress,
                             [&](const Choices& c, Outcome& o) { return visitFinishing(c, o); });
            if (!states_.empty() || limit_.hit || thinAir_) break;
        }
    }

    /** The Budget's reason ("timeout: ..." or "memory limit: ..."), for differential to skip. */
    UnknownReason pastLimit() const { return limit_.reason.prefixed(kStopped); }

    /** Fills `r` when the finishing executions already decide the answer; false otherwise. */
    bool decided(engine::CheckResult& r) const {
        if (limit_.hit || thinAir_) {
            r.observation = engine::Observation::Unknown;
            r.unknownReason = limit_.hit ? pastLimit()
                                         : UnknownReason(UnknownKind::ThinAir,
                                                         "the model allows an execution whose "
                                                         "values depend on themselves (thin "
                                                         "air): explicit enumeration cannot "
                                                         "list its values");
            return true;
        }
        if (!anyConsistent_ && reachesCut_) {
            r.observation = engine::Observation::Unknown;
            r.unknownReason = noExecutionWithinBound(p_);
            return true;
        }
        if (!anyConsistent_) {
            // The model forbids every execution: herd7's States 0, and the axioms that do it.
            std::vector<std::string> forbidding = forbiddingAxioms();
            if (limit_.hit) {
                r.observation = engine::Observation::Unknown;
                r.unknownReason = pastLimit();
                return true;
            }
            setNoExecution(r, p_, std::move(forbidding));
            return true;
        }
        if (!states_.empty()) return false;
        setDeadlock(r, p_, blocking_,
                    [&](std::size_t i) { return !everSucceeded_.count(blocking_[i]); });
        setBoundReached(r, p_, beyondBound_);
        return true;
    }

    /**
     * When no execution is consistent: the axioms that some candidate violates alone, so that
     * deleting that one axiom would let it through (sorted, as the Z3 engine reports them).
     */
    std::vector<std::string> forbiddingAxioms() const {
        std::set<std::string> out;
        forEachCandidate(p_, limit_, false, [&](const Choices& c, Outcome& o) {
            if (o.valueCycle || !cutsReached(p_, c, o).empty()) return true;
            ConcreteVerdict v = cm_.check(c, o);
            if (v.failedAxioms.size() == 1) out.insert(v.failedAxioms.front());
            return true;
        });
        return {out.begin(), out.end()};
    }

    /** Executions that block forever: which waits can hang, and the flags they raise. */
    void hangs() {
        forEachBlockedSet(p_, [&](const std::set<int>& blocked) {
            std::vector<bool> happens = gateExistence(p_, blocked);
            for (int w : blocked)
                if (!gateReached(p_, blocked, w)) return true; // held back by another
            std::vector<int> stuck = stuckGates(p_, blocked);
            forEachCandidate(
                p_, limit_, false,
                [&](const Choices& c, Outcome& o) { return visitHanging(c, o, stuck); }, blocked);
            return !limit_.hit;
        });
    }

    void fill(engine::CheckResult& r, const cat::ResolvedModel& model) const {
        if (limit_.hit) {
            r.observation = engine::Observation::Unknown;
            r.unknownReason = pastLimit();
            return;
        }
        setStates(r, p_, states_);
        setFlags(r, p_, model, flags_);
        setBoundReached(r, p_, beyondBound_);
    }

    /** A Deadlock's flag (after hangs()): mbarrier-misuse in an execution that hangs. */
    void deadlockFlags(engine::CheckResult& r, const cat::ResolvedModel& model) const {
        if (limit_.hit) {
            setStopped(r, p_, pastLimit());
            return;
        }
        FlagWitnesses raised;
        if (flags_.count(kDeadlockFlag)) raised[kDeadlockFlag] = flags_.at(kDeadlockFlag);
        setFlags(r, p_, model, raised);
    }

private:
    /**
     * Leaves out executions that reach a cut (ir::Cut); true when `c` is one. A Bound cut
     * reached by a consistent execution whose waits all succeed is noted (setBoundReached).
     */
    bool beyondCut(const Choices& c, Outcome& o, bool consistent) {
        std::vector<std::size_t> cuts = cutsReached(p_, c, o);
        if (cuts.empty()) return false;
        if (consistent && !o.valueCycle) reachesCut_ = true;
        bool spins = false;
        std::vector<std::size_t> beyond;
        for (std::size_t i : cuts) {
            if (cutSpins(p_, i, o))
                spins = true;
            else
                beyond.push_back(i);
        }
        bool progress = true;
        for (int w : blocking_) // a wait whose guard fails (or path is not taken) never spins
            progress = progress && (!o.exists[static_cast<std::size_t>(w)] || o.waitSuccess.at(w));
        if (consistent && progress && !spins && !o.valueCycle)
            beyondBound_.insert(beyond.begin(), beyond.end());
        return true;
    }

    bool visitFinishing(const Choices& c, Outcome& o) {
        ConcreteVerdict v = cm_.check(c, o, {}, true);
        if (beyondCut(c, o, v.consistent)) return true;
        if (!v.consistent) return true;
        anyConsistent_ = true;
        bool progress = true;
        for (int w : blocking_) {
            if (!o.exists[static_cast<std::size_t>(w)]) continue; // its guard fails: not run
            if (o.waitSuccess.at(w))
                everSucceeded_.insert(w);
            else
                progress = false;
        }
        if (!progress) return true;
        if (o.valueCycle) {
            thinAir_ = true; // the model allows values that depend on themselves
            return false;
        }
        states_.insert(finalState(p_, c, o));
        raiseAll(v);
        return true;
    }

    bool visitHanging(const Choices& c, Outcome& o, const std::vector<int>& stuck) {
        if (o.valueCycle || !waitsHold(p_, c, o) || !fitsRealTime(p_, c, o)) return true;
        if (!cutsReached(p_, c, o).empty()) return true; // as finishing executions do
        ConcreteVerdict v = cm_.check(c, o, {}, true);
        if (!v.consistent) return true;
        for (int g : stuck)
            raise(kHangFlag, {g});
        raiseAll(v);
        return true;
    }

    void raiseAll(const ConcreteVerdict& v) {
        for (const auto& f : v.flags)
            raise(f, v.flagWitness.at(f));
    }

    void raise(const std::string& name, const std::vector<int>& witness) {
        auto& seen = flags_[name];
        // The first few, in enumeration order; every wait that can hang.
        if (seen.size() < kWitnessesShown || name == kHangFlag) seen.insert(witness);
    }

    const ir::Program& p_;
    ConcreteModel cm_;
    EnumerationLimit& limit_;
    std::vector<int> blocking_;
    std::set<std::vector<std::int64_t>> states_;
    FlagWitnesses flags_;
    std::set<int> everSucceeded_;
    std::set<std::size_t> beyondBound_;
    bool reachesCut_ = false; ///< a consistent execution left out at a cut
    bool anyConsistent_ = false, thinAir_ = false;
};

} // namespace

void EnumerateEngine::search(const ir::Program& p, const cat::ResolvedModel& model,
                             const CheckOptions& options, Clock::time_point start,
                             engine::CheckResult& r) const {
    EnumerationLimit limit;
    limit.budget = Budget(options, start);
    const Budget::AllocationGuard guard = limit.budget.guardAllocations();
    // A limit reached before the enumeration's own checks see it (while the concrete model's
    // relations are built, or in an allocation) is named the same way.
    try {
        Search search(p, model, options.reading, limit);
        search.finishing();
        if (search.decided(r)) {
            if (r.observation != engine::Observation::Deadlock) return;
            // a Deadlock's flag: undefined behaviour in an execution that hangs
            search.hangs();
            search.deadlockFlags(r, model);
            return;
        }
        search.hangs();
        search.fill(r, model);
    } catch (const LimitReached& reached) {
        setStopped(r, p, reached.reason().prefixed(kStopped));
    } catch (const std::bad_alloc& e) {
        setStopped(r, p, allocationFailure(e).prefixed(kStopped));
    }
}

} // namespace ptxmc::engine::enumerate
