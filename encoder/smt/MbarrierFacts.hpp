// Mbarrier facts that an acyclicity axiom implies: each operation's phases and order, asserted.
#pragma once

#include "engine/Budget.hpp"
#include "smt/ProgramEncoder.hpp"

#include <cstddef>
#include <string>
#include <vector>
#include <z3++.h>

namespace ptxmc::engine::smt {

/** What assertMbarrierFacts found and asserted (for --stats). */
struct MbarrierFactsSummary {
    bool explored = false;             ///< the relation qualified and the search ran to the end
    std::string why;                   ///< otherwise: the reason
    std::size_t states = 0;            ///< schedule states visited
    std::size_t facts = 0;             ///< assertions added
    std::vector<int> completeSchedule; ///< the search's complete schedule, if it found one
};

/**
 * When `r`, whose acyclicity `guard` enforces, contains every pair of the mbarrier order
 * (each mbo condition, or true, among its condition's disjuncts), every execution with the
 * guard orders its events along the pairs `r` surely contains (condition true) together with
 * each object's mbo. Each such execution where every spinning wait returns (`progress`) is then
 * a schedule that engine/Schedules.hpp's observeMbarriers explores under that order, so its
 * facts hold in it: the phases an operation may see, the operations of its object before
 * it, and (where every wait's operand is a constant) that an operation no schedule makes
 * undefined behaviour is not in MB_MISUSE. They are asserted under `guard && progress`: implied
 * constraints that spare the solver the search for mbarrier orders and phases no execution has (the
 * phase of a parity wait is an integer it otherwise bounds by case splits over every mbo slot).
 */
MbarrierFactsSummary assertMbarrierFacts(z3::solver& solver, const ProgramEncoder& pe,
                                         const Z3Rel& r, const z3::expr& guard,
                                         const z3::expr& progress, std::size_t maxStates,
                                         const Budget* budget);

} // namespace ptxmc::engine::smt
