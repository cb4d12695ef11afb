// Encodes a program's executions for Z3: the solver's choices (rf, co, sc, mbo) and values.
#pragma once

#include "engine/Execution.hpp"
#include "engine/GateSemantics.hpp"
#include "engine/MbarrierMachine.hpp"
#include "engine/Relation.hpp"
#include "ir/BaseRelations.hpp"
#include "ir/Program.hpp"
#include "ir/Rel.hpp"
#include "smt/Z3Algebra.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>
#include <z3++.h>

namespace ptxmc::engine::smt {

using Z3Rel = SparseRel<z3::expr>;
using Z3Set = SparseSet<z3::expr>;

class ProgramEncoder {
public:
    /**
     * With `hangs`, executions may also block forever: each spinning wait either returns True
     * where mbo places it or blocks (fails on the mbarrier's final state), and the events after
     * a blocked gate do not happen. Without, every event happens (guards aside).
     */
    /** `budget` (optional) is polled while encoding: large programs stop at its limits.
     *  `fixedCo`: write pairs (a, b) that co orders a before b whenever both happen
     *  (engine/FixedOrders.hpp); they become constants of co, not solver choices. */
    ProgramEncoder(z3::context& ctx, const ir::Program& program, bool hangs = false,
                   const Budget* budget = nullptr,
                   const std::vector<std::pair<int, int>>& fixedCo = {});

    /** Well-formedness of the choices: every read reads one write, orders are total, ... */
    const z3::expr_vector& constraints() const { return constraints_; }
    /** Every spinning wait returns True (the program terminates). */
    const std::vector<std::pair<int, z3::expr>>& blockingWaits() const { return blocking_; }

    z3::expr exists(int event) const;
    /** The execution reaches cut `i` of the program (ir::Cut): its path, past its gates. */
    z3::expr cutReached(std::size_t i) const;
    /** It reaches cut `i` after a spinning iteration (ir::Cut: nothing written). */
    z3::expr cutSpins(std::size_t i) const;
    /** With hangs: spinning wait -> it blocks forever in this execution. */
    const std::map<int, z3::expr>& blocked() const { return blocked_; }
    /** With hangs: every gate -> its thread reaches it and never gets past (a blocked wait, a
     *  bar.sync or cta_group::2 pair some participant never reaches). */
    std::map<int, z3::expr> stuckGates() const;
    z3::expr value(const ir::ValuePtr& v) const;
    /** The observable's value at the end, as wide as it is (Observable::wide). */
    z3::expr finalValue(const ir::Observable& o);

    /** Base set `tag` for this program, conditions included (dynamic sets like MB_MISUSE). */
    Z3Set baseSet(ir::Tag tag);
    /** Base relation `rel`: program-determined ones from the IR, choice ones from here. */
    Z3Rel baseRelation(ir::Rel rel);
    /** The condition of a program-fixed pair (a, b): both events happen. */
    z3::expr bothExist(int a, int b) const;
    /** Whether a dense program-fixed relation (ir::densePairTest) relates events a and b. */
    bool densePairHolds(const ir::PairTest& test, int a, int b) const;

    /**
     * The choices of the sequentially consistent execution that runs every event in
     * `schedule` order (engine/Schedules.hpp): each mbarrier's operations and each location's
     * writes in that order, each read from the last write before it. A hint the solver checks
     * against the model, never an axiom.
     */
    z3::expr_vector choicesOf(const std::vector<int>& schedule) const;

    /** Each mbarrier operation's position in its object's order mbo. */
    const std::map<int, z3::expr>& mbPositions() const { return mbPos_; }
    /** The condition of mbo pair (a, b), as the base relation `mbo` has it. */
    z3::expr mbOrder(int a, int b) const { return orderBy(mbPos_, a, b); }
    /** The phase (Int) mbarrier operation `o` finds its object in. */
    const z3::expr& phaseBefore(int o) const { return phaseBefore_.at(o); }
    /** Whether the execution went the 1 way at Program::choices[i]. */
    const z3::expr& choiceTaken(std::size_t i) const { return choice_.at(i); }
    /** Whether mbarrier op `o` is undefined behaviour (its MB_MISUSE membership). */
    const z3::expr& misuse(int o) const { return misuse_.at(o); }

    /** The choices a satisfying model makes (rf, co, sc, mbo) as a concrete execution. */
    Choices choices(const z3::model& m) const;

    z3::context& ctx() { return ctx_; }
    const ir::Program& program() const { return program_; }

private:
    z3::expr seenBy(const ir::Event& r, const ir::Event& w) const;
    z3::expr readValueTerm(const ir::Event& r) const;
    void encodeReadsFrom();
    void encodeCoherence();
    void encodeFixedCoherence();
    bool fixedPairsAcyclic(const std::map<int, std::vector<int>>& after) const;
    void encodeFenceSc();
    void encodeMbarriers();
    void encodeRealTime();
    void encodeMbarrier(int location, const std::vector<int>& ops);
    /** `named[op]` becomes `value`, or is constrained equal to it when already named. */
    void bind(std::map<int, z3::expr>& named, int op, const z3::expr& value);
    z3::expr bv(std::int64_t v) const { return values_.word64(v); }
    z3::expr orderBy(const std::map<int, z3::expr>& pos, int a, int b) const;
    /** Chosen gate -> its blocked_ variable, for engine/GateSemantics.hpp. */
    auto blockedOf() const {
        return [this](int gate) { return blocked_.at(gate); };
    }
    /** The observable's last value, the whole word. */
    z3::expr lastValue(const ir::Observable& o);
    void nameSlot(mbarrier::State<Z3Values>& state, int location, int k);
    void encodePhaseRule(const std::vector<int>& ops, const std::map<int, z3::expr>& stampAt);
    using Reports = std::vector<mbarrier::ReportOn<Z3Values>>;
    z3::expr waitCondition(const ir::Event& wait, const Reports& reports, const z3::expr& stamp,
                           const z3::expr& phase, const z3::expr& valid) const;

    struct Leaves; ///< the program's reads, waits and phases as leaves of value terms

    z3::context& ctx_;
    const ir::Program& program_;
    Z3Algebra alg_;
    Z3Values values_;
    /// gates already written as terms: blocked_ is one set of variables for the whole encoding
    mutable gates::GateMemo<Z3Values> gateMemo_;
    z3::expr_vector constraints_;
    std::vector<std::pair<int, z3::expr>> blocking_;
    std::map<int, z3::expr> readValue_;            ///< read event -> its value
    std::map<std::pair<int, int>, z3::expr> rf_;   ///< (write, read) -> chosen
    std::map<int, std::vector<int>> rfCandidates_; ///< read -> its candidate writes
    std::map<int, z3::expr> rfSelect_;             ///< read -> index of the chosen candidate
    std::map<int, z3::expr> coPos_;                ///< write -> position in its location's co
    std::set<std::pair<int, int>> fixedCo_;        ///< (a, b): co orders a first (both happen)
    std::map<int, z3::expr> scPos_;                ///< fence.sc -> position in the Fence-SC order
    std::map<int, z3::expr> mbPos_;                ///< mbarrier op -> position in its mbo
    std::map<int, z3::expr> phaseBefore_;          ///< mbarrier op -> phase it sees (Int)
    std::map<int, z3::expr> waitSuccess_;          ///< wait -> returned True
    std::map<int, z3::expr> waitReport_;           ///< wait -> its reportPredicate
    std::map<int, z3::expr> observedPhase_;        ///< wait -> primary phase it observed up to
    std::vector<z3::expr> choice_;                 ///< Program::choices -> went the 1 way
    std::map<int, z3::expr> misuse_;               ///< mbarrier op -> undefined behaviour
    bool hangs_ = false;
    const Budget* budget_ = nullptr;

    void poll() const {
        if (budget_ != nullptr) budget_->poll();
    }
    std::map<int, z3::expr> blocked_;                         ///< spinning wait -> blocks forever
    mutable std::map<int, z3::expr> existsCache_;             ///< event -> it happens
    mutable std::map<const ir::Value*, z3::expr> valueCache_; ///< memo: values form a DAG
};

} // namespace ptxmc::engine::smt
