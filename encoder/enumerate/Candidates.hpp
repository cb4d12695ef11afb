// Candidate executions of a program: every rf choice, coherence, Fence-SC and mbarrier order.
#pragma once

#include "engine/Budget.hpp"
#include "engine/Execution.hpp"

#include <chrono>
#include <functional>
#include <optional>
#include <set>
#include <string>

namespace ptxmc::engine::enumerate {

/** Why an enumeration stopped early. */
struct EnumerationLimit {
    Budget budget; ///< time and memory (engine/Budget.hpp)
    bool hit = false;
    UnknownReason reason; ///< what was hit
};

/**
 * Calls `visit` on every candidate execution of `p` (choices plus their outcome); stops when
 * visit returns false or the deadline passes (then limit.hit is set). With onlyProgress, it
 * may skip candidates in which a spinning wait fails (when mbarrier order alone decides it).
 */
void forEachCandidate(const ir::Program& p, EnumerationLimit& limit, bool onlyProgress,
                      const std::function<bool(const Choices&, Outcome&)>& visit,
                      const std::set<int>& blocked = {});

/**
 * Every set of spinning waits that may block together: at most one per thread (what follows a
 * blocked wait does not happen), at least one in all. Each set is visited in id order.
 */
void forEachBlockedSet(const ir::Program& p,
                       const std::function<bool(const std::set<int>&)>& visit);

} // namespace ptxmc::engine::enumerate
