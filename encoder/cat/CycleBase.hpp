// Relations whose union has the same cycles as an `acyclic` check's, without closures.
#pragma once

#include "cat/Resolver.hpp"

#include <vector>

namespace ptxmc::cat {

/** A Name bound to a definition (not `let rec`, whose value is a fixpoint): its expression,
 *  through every such name; `e` itself otherwise. */
const Expr* throughName(const ResolvedModel& model, const Expr* e);

/**
 * The operands of `e`'s top-level unions (looking through names of definitions), each
 * `r+` replaced by `r`: acyclic(r1+ | ... | s) holds exactly when acyclic(r1 | ... | s) does,
 * since every edge of a closure is a path of its operand's edges. The solver then orders
 * clocks along the operands' edges only, not along every pair of the closure.
 */
std::vector<const Expr*> cycleBase(const ResolvedModel& model, const Expr* e);

} // namespace ptxmc::cat
