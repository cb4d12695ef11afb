// Keeps the closure lemmas that can change an answer: the cone of influence of the checks.
#pragma once

#include "smt/ClosurePropagator.hpp"
#include "smt/ClosureRecord.hpp"

#include <functional>
#include <vector>
#include <z3++.h>

namespace ptxmc::engine::smt {

/**
 * The lemmas (lower bounds on fresh conditions, Z3Algebra::require, each a clause) that the
 * conditions in `roots` depend on: a lemma is kept when a fresh condition it may force
 * (a positive disjunct for which `isFresh` holds) is mentioned by a root or by a kept lemma.
 *
 * Sound and complete for every query over the roots: a fresh condition no kept clause or root
 * mentions can be set true, which satisfies every dropped lemma (each has such a condition as a
 * positive disjunct) and changes no kept one (a kept lemma's other conditions are kept too).
 * The closure of a relation the checks look at in few places (xo in the tensor-memory flags,
 * causality at conflicting pairs) then costs lemmas for those places, not for every pair.
 */
z3::expr_vector lemmaCone(const z3::expr_vector& roots, const z3::expr_vector& lemmas,
                          const std::function<bool(const z3::expr&)>& isFresh);

/** The kept clauses (indices into `lemmas`, in order) and closure lemmas (made from their
 *  records, in the order the clauses would have been made). */
struct Cone {
    std::vector<std::size_t> lemmas;
    std::vector<StepLemma> steps;
};

/** lemmaCone over clauses and closures (smt/ClosureRecord.hpp) together: a closure's lemma
 *  forces its head and assumes its antecedents; only the kept ones are made. */
Cone lemmaCone(const z3::expr_vector& roots, const z3::expr_vector& lemmas,
               const std::vector<ClosureRecord>& closures,
               const std::function<bool(const z3::expr&)>& isFresh);

} // namespace ptxmc::engine::smt
