// One concrete candidate execution: the solver-chosen orders made explicit, and what follows.
#pragma once

#include "ir/Program.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ptxmc::engine {

/** The choices a candidate execution makes (what the Z3 engine leaves to the solver). */
struct Choices {
    std::map<int, int> rf;               ///< read -> write it reads from
    std::map<int, std::vector<int>> co;  ///< location -> its writes, coherence order
    std::vector<int> sc;                 ///< fence.sc events in Fence-SC order
    std::map<int, std::vector<int>> mbo; ///< mbarrier location -> its operations in order
};

/** What the choices imply: values, which events happen, mbarrier outcomes. */
struct Outcome {
    std::vector<std::int64_t> value;         ///< per event: value read (R) or written (W)
    std::vector<bool> exists;                ///< per event: guard holds
    std::map<int, bool> waitSuccess;         ///< mbarrier wait -> returned True
    std::map<int, std::int64_t> phaseBefore; ///< mbarrier op -> phase it saw
    std::vector<int> misuse;                 ///< mbarrier operations that are UB here
    bool valueCycle = false;                 ///< values depend on themselves (thin air)
};

/**
 * Computes values and mbarrier behaviour for given rf and mbo choices, with the same
 * semantics as the Z3 encoding (32-bit values, mbarrier phases). co and sc play no part.
 */
Outcome computeOutcome(const ir::Program& p, const Choices& c);

/** Value of a run-time expression in an outcome. */
std::int64_t evalValue(const ir::ValuePtr& v, const ir::Program& p, const Choices& c, Outcome& o);

/** Final values of the observed registers and locations (co-last write), in observed order. */
std::vector<std::int64_t> finalState(const ir::Program& p, const Choices& c, Outcome& o);

} // namespace ptxmc::engine
