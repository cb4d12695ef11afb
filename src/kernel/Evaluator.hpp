// The evaluator's state over one cluster: lanes run statement by statement, branches on data split
// them.
#pragma once

#include "kernel/ClcResponses.hpp"
#include "kernel/Lane.hpp"
#include "kernel/LaneMemory.hpp"
#include "kernel/LaneValues.hpp"
#include "kernel/LaunchShape.hpp"
#include "kernel/Machine.hpp"
#include "kernel/ParamFields.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ptxmc::kernel {

/** An mbarrier try_wait/test_wait whose failure the thread does not answer by waiting again. */
struct Probe {
    SourceLoc loc;
    std::string opcode;
    std::uint64_t barrier = 0, phase = 0;
};

/** Where a speculative run of one side of a branch stopped. */
enum class SideEnd { Joined, Effect, Collective, Done, Trap, Budget };

/** Why a lane stopped stepping. */
enum class Outcome { Continue, Collective, Done, SawEvent, Trapped, Fork, AtJoin };

/** Values stored to shared memory by some thread, for loads of another (two passes). */
struct Stored {
    /// by shared address (the rank is in it); nullopt: several values, or unknown ones
    std::map<std::uint64_t, std::optional<std::uint64_t>> values;
    void put(std::uint64_t addr, std::optional<std::uint64_t> v) {
        auto it = values.find(addr);
        if (it == values.end())
            values.emplace(addr, v);
        else if (it->second != v)
            it->second = std::nullopt;
    }
};

/**
 * Runs every thread of one cluster of an entry (Evaluator.cpp: passes, warps, one statement,
 * recording) and follows control flow the launch does not decide (EvaluatorBranches.cpp:
 * branches on data, probes and the waits after them).
 */
class Evaluator {
public:
    Evaluator(const Module& m, const Function& f, const Launch& launch, Extraction& out)
        : m_(m), f_(f), launch_(launch), out_(out) {}

    void run();

private:
    // ---- Evaluator.cpp ----
    void runCluster();
    void runWarp(int cta, int warp, int count);
    Outcome runUntilBlocked(Lane& L);
    bool lastPass() const { return pass_ == kPasses - 1; }
    Outcome step(Lane& L, bool speculative);
    /** A memory or synchronization instruction: one Step of the lane. */
    void record(Lane& L, const Statement& s, ptx::ModuleRole k);
    /** "memory", or a hint at the parameter fields not given, which are the likelier cause. */
    std::string unknownOrigin() const;
    void noteOnce(const SourceLoc& loc, const std::string& text);

    // ---- EvaluatorBranches.cpp: branches the launch does not decide ----
    static constexpr int kSideSteps = 100000;
    static constexpr const char* kProbeRule =
        "ptxmc follows a probe's failure side, and lets its result decide only branches whose "
        "two sides run the same instructions but for a wait on the probe's barrier and phase "
        "(docs/kernel.md, \"Probes\")";
    /// how deep branches on data may nest in a lane's ways (a loop on data nests once per turn)
    static constexpr std::size_t kMaxWays = 6;

    /** The two sides of a branch, each at the meeting point (or where it stopped). */
    struct Sides {
        Lane first, second;
        SideEnd firstEnd = SideEnd::Done, secondEnd = SideEnd::Done;
        std::vector<std::size_t> firstPath, secondPath; ///< to the meeting point
        bool met = false;
    };

    std::string probeText(std::uint32_t probe) const;
    /** Marks the registers `in` writes as depending on `probe` (a guard on it decided them). */
    void taintDests(Lane& L, const litmus::Instruction& in, std::uint32_t probe);
    void applyTaints(Lane& L);
    /** Whether `c` stands at a wait on the probe's barrier with its phase. */
    bool waitsOn(const Lane& c, const Probe& p) const;
    /**
     * Runs a speculative copy of a lane until `joins(pc)`, an instruction with an effect (a
     * memory or synchronization instruction, a warp-collective one, the end) or the step
     * budget. `path`, if given, collects the statements it stood at (the last included); a
     * wait on `allowed`'s barrier and phase counts as returning True, not as an effect.
     */
    template <class Joins>
    SideEnd runSide(Lane& c, Joins&& joins, std::vector<std::size_t>* path, const Probe* allowed);
    std::string sideText(const Lane& c, SideEnd e) const;
    /**
     * Runs both sides of a branch speculatively until the second reaches a statement the first
     * stood at before its first effect; `allowed` lets the second side pass waits on a probe's
     * barrier and phase. Sides that meet ran no memory or synchronization instruction but those.
     */
    Sides runSides(const Lane& L, std::size_t first, std::size_t second, const Probe* allowed);
    /**
     * A branch on data (a value read from memory, floating point): both sides are explored;
     * when they meet before any memory or synchronization instruction, the thread goes on from
     * there with the registers the sides agree on, the others unknown. When they do not, the
     * lane splits in two (Outcome::Fork, runWarp), one per way, until they meet again.
     */
    Outcome joinSides(Lane& L, const Statement& s, bool speculative);
    /**
     * Whether the guard `g` (a predicate a branch on data decides) holds in the way `L` is in:
     * nullopt when L is in neither way of that branch.
     */
    std::optional<bool> wayDecides(const Lane& L, const Val& g,
                                   const litmus::Instruction& in) const;
    /**
     * An instruction whose guard a branch on data decided, met outside both of that branch's
     * ways: the lane splits on the same choice (the two branches go alike), until the
     * instruction's post-dominator.
     */
    Outcome forkOnWay(Lane& L, const Statement& s, const Val& g);
    /** Marks the branch at L.pc for a split (runWarp), noting what each side reaches. */
    Outcome forkAt(Lane& L, const Statement& s, const Sides& sides);
    /**
     * A new choice for the instruction at L.pc, guarded by data: its guard register becomes a
     * predicate that way decides (nonzero exactly on the way the guard holds), and the lane
     * splits on it (forkOnWay).
     */
    Outcome forkOnData(Lane& L, const Statement& s);
    /** 1 + the index of branch instance `c` (its way ignored) in ways_. */
    std::uint32_t wayIndex(DataChoice c);
    /** The immediate post-dominator of statement `pc` (the body's size: the end). */
    std::size_t postDominator(std::size_t pc);
    /** The wgmma fragment accesses of statements a side ran speculatively. */
    void replayFragmentAccesses(Lane& L, const std::vector<std::size_t>& path);
    /**
     * A branch on a probe's result (CUTLASS's `consumer_wait(state, token)`): the thread
     * follows the failure side, which the evaluation took at the probe. That is sound when the
     * other side runs the same instructions less waits on the probe's barrier and phase: the
     * success side acquired at the probe what the failure side acquires at the wait, with the
     * instructions between ordered after it, so its executions are among the failure side's.
     */
    Outcome probeBranch(Lane& L, const Statement& s, const Val& g);
    /**
     * A wait whose failure path comes back to a wait on the same barrier with the same parity
     * before any other memory or synchronization instruction is the spin idiom: the check
     * models it as one blocking wait, and its result is "complete" (true is returned). Any
     * other is a probe (CUTLASS's try_acquire/try_wait tokens): the evaluation follows its
     * failure side, on which it acquired nothing (false is returned), and its result decides
     * only branches that skip a later wait on the same barrier and phase (probeBranch).
     */
    bool waitSucceeds(Lane& L, const Statement& s, const Step& st);

    const Module& m_;
    const Function& f_;
    const Launch& launch_;
    Extraction& out_;
    LaunchShape shape_;
    LaneValues values_{out_.layout, shape_};
    std::optional<ParamFields> params_; ///< made once the layout is
    std::optional<LaneMemory> memory_;
    std::map<std::string, Note> stops_; ///< --list-params: this pass's stops, by message
    /// Val::field of a shared-memory load nothing stored to on the previous pass
    static constexpr std::uint32_t kStoredLater = 0xFFFFFFFF;
    static constexpr int kPasses = 4;
    int pass_ = 0;
    /// a thread ended at a branch on a kStoredLater value: run another pass
    bool deferred_ = false;
    Stored stored_, seen_;
    std::map<std::pair<int, int>, std::uint64_t> allocations_;
    std::map<int, std::uint64_t> columnsTaken_;
    std::map<std::string, Note> notesThisPass_;
    ClcResponses clc_;               ///< try_cancel responses
    std::vector<Probe> probes_;      ///< this pass's probes (Val::probe indexes them)
    std::vector<std::size_t> ipdom_; ///< immediate post-dominators (postDominator)
    std::vector<DataChoice> ways_;   ///< branches on data split on (Val::way indexes them)
    /// where the two lanes of the split being made go: the taken way's, the other's
    std::pair<std::size_t, std::size_t> splitTo_;
};

} // namespace ptxmc::kernel
