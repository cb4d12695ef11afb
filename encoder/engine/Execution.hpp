// One concrete candidate execution: the solver-chosen orders made explicit, and what follows.
#pragma once

#include "ir/Program.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ptxmc::engine {

/** The choices a candidate execution makes (what the Z3 engine leaves to the solver). */
struct Choices {
    std::map<int, int> rf;               ///< read -> write it reads from
    std::map<int, std::vector<int>> co;  ///< location -> its writes, coherence order
    std::vector<int> sc;                 ///< fence.sc events in Fence-SC order
    std::map<int, std::vector<int>> mbo; ///< mbarrier location -> its operations in order
    std::set<int> blocked;               ///< spinning waits that block forever (hangs)
    std::vector<bool> choice;            ///< per Program::choices: which way it went

    bool operator==(const Choices&) const = default;
};

/** What the choices imply: values, which events happen, mbarrier outcomes. */
struct Outcome {
    std::vector<std::int64_t> value;           ///< per event: value read (R) or written (W)
    std::vector<bool> exists;                  ///< per event: guard holds
    std::map<int, bool> waitSuccess;           ///< mbarrier wait -> returned True
    std::map<int, bool> waitReport;            ///< mbarrier wait -> its reportPredicate
    std::map<int, std::int64_t> observedPhase; ///< wait -> primary phase it observed up to
    std::map<int, std::int64_t> phaseBefore;   ///< mbarrier op -> phase it saw
    std::map<int, std::int64_t> stampBefore;   ///< mbarrier op -> completions + inits before it
    std::map<int, std::int64_t> finalPhase;    ///< mbarrier location -> phase at the end
    std::map<int, std::int64_t> finalStamp;    ///< mbarrier location -> stamp at the end
    std::map<int, bool> finalValid;            ///< mbarrier location -> initialised at the end
    bool blockedHold = true; ///< every blocked wait happens and fails on the final state
    std::vector<int> misuse; ///< mbarrier operations that are UB here
    bool valueCycle = false; ///< values depend on themselves (thin air)
    /// the guards of mbarrier operations and what the object does never agree: the choices
    /// are no execution (nothing else in the outcome is filled)
    bool noExecution = false;

    bool operator==(const Outcome&) const = default;
};

/**
 * Computes values and mbarrier behaviour for given rf and mbo choices, with the same
 * semantics as the Z3 encoding (32-bit values, mbarrier phases). co and sc play no part.
 */
Outcome computeOutcome(const ir::Program& p, const Choices& c);

/** Which events happen given the blocked waits alone (guards aside): the gates of ir/Gates. */
std::vector<bool> gateExistence(const ir::Program& p, const std::set<int>& blocked);

/** The gates that hold their thread forever given the blocked waits: those waits, and each
 *  bar.sync or cta_group::2 pair reached but missing a participant. */
std::vector<int> stuckGates(const ir::Program& p, const std::set<int>& blocked);

/** The gates before `gate` in its thread (not itself) let it be reached. */
bool gateReached(const ir::Program& p, const std::set<int>& blocked, int gate);

/** A candidate the hang semantics accepts: waits that return succeed, blocked ones hold. */
bool waitsHold(const ir::Program& p, const Choices& c, const Outcome& o);

/** Do the events that happen fit one timeline with po, ae, iico and each mbarrier's order? */
bool fitsRealTime(const ir::Program& p, const Choices& c, const Outcome& o);

/** Value of a run-time expression in an outcome. */
std::int64_t evalValue(const ir::ValuePtr& v, const ir::Program& p, const Choices& c, Outcome& o);

/** The cuts of the program (ir::Cut) the execution reaches: past their gates, on their path. */
std::vector<std::size_t> cutsReached(const ir::Program& p, const Choices& c, Outcome& o);

/** Does the execution reach cut `i` after a spinning iteration (nothing written)? */
bool cutSpins(const ir::Program& p, std::size_t i, const Outcome& o);

/** Final values of the observed registers and locations (co-last write), in observed order. */
std::vector<std::int64_t> finalState(const ir::Program& p, const Choices& c, Outcome& o);

} // namespace ptxmc::engine
