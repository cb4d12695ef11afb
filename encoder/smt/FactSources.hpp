// The model's axioms read as sources of mbarrier facts: their shapes and the relations the
// facts' search reads from them (smt/MbarrierFacts.hpp).
#pragma once

#include "cat/Resolver.hpp"
#include "engine/Evaluator.hpp"
#include "smt/MbarrierFacts.hpp"
#include "smt/ProgramEncoder.hpp"
#include "smt/Z3Algebra.hpp"

#include <set>
#include <vector>
#include <z3++.h>

namespace ptxmc::engine::smt {

/** A relation with the cycles of `a`'s, closures left out (cat/CycleBase.hpp). */
Z3Rel cycleBaseRelation(Evaluator<Z3Algebra>& ev, const cat::ResolvedModel& model,
                        const cat::Axiom& a);

/** The `x` of an axiom `irreflexive (mbo ; x)` or `(x ; mbo)`, or null. */
const cat::Expr* mboPartner(const cat::ResolvedModel& model, const cat::Expr& e);

/** Whether `e` names base relation `rel`, directly or through the definitions it names. */
bool reachesBase(const cat::ResolvedModel& model, const cat::Expr& e, ir::Rel rel);

/** The mbarrier operations of `pe`'s program, ascending. */
std::vector<int> mbarrierEvents(const ProgramEncoder& pe);

/**
 * An axiom `irreflexive (m ; x)` whose `m` may be each object's mbo (Mbarrier-Real-Time:
 * `mbo-per-object ; xo`) and whose `x` is a closure, to `plan`
 * (MbarrierFactsPlan::addPerObjectOrder), either way round: `m` read between the mbarrier
 * operations, `x` by its closure's operands.
 */
void addPerObjectOrder(MbarrierFactsPlan& plan, Evaluator<Z3Algebra>& ev,
                       const cat::ResolvedModel& model, const cat::Expr& seq, const z3::expr& lit,
                       const ProgramEncoder& pe);

} // namespace ptxmc::engine::smt
