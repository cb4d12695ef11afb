// Pairs of the solver's write serialization that the model's axioms fix from the program alone.
#pragma once

#include "cat/Resolver.hpp"
#include "ir/Program.hpp"

#include <string>
#include <utility>
#include <vector>

namespace ptxmc::engine {

/** Writes the model orders before others whatever an execution chooses, and the axiom why. */
struct FixedCoherence {
    /** (a, b): when both writes happen, memory serializes a before b. Sorted. */
    std::vector<std::pair<int, int>> pairs;
    /** The axioms these pairs come from: a query that leaves one out must not use them. */
    std::vector<std::string> axioms;
};

/**
 * The pairs that the model's axioms of the shape `irreflexive (CO ; S)` fix, where CO names
 * the base relation `co` (through `let` aliases) and S is a relation of the program alone that
 * relates two events by looking at those two events only: built from static base relations
 * and sets with |, &, \, *, ~, ^-1, ? and [ ], never through a third event (`;`, closures,
 * domain, range), so that S holds of a pair in every execution where both events happen.
 * Such an axiom forbids b before a in co wherever S relates a to b; an encoding may then fix
 * those pairs instead of leaving them to the solver (same-thread writes to one location in
 * program order: a counted loop's writes become one chain, not a quadratic order).
 */
FixedCoherence fixedCoherence(const ir::Program& program, const cat::ResolvedModel& model);

} // namespace ptxmc::engine
