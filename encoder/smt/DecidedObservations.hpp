// mb-obs with the pairs the mbarrier facts decide made constant before the axioms are encoded.
#pragma once

#include "engine/Budget.hpp"
#include "engine/Evaluator.hpp"
#include "engine/Options.hpp"
#include "smt/FlagBounds.hpp"
#include "smt/ProgramEncoder.hpp"
#include "smt/Z3Algebra.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>
#include <z3++.h>

namespace ptxmc::engine::smt {

/** What decideObservations made. */
struct DecidedObservations {
    Z3Rel relation;          ///< mb-obs: each pair the facts decide true, or left out
    std::size_t pairs = 0;   ///< mb-obs's pairs whose condition is not false
    std::size_t decided = 0; ///< of those, the ones made true or left out
    /// The axioms whose literals the deciding facts' conditions name: a query that leaves one
    /// out (or leaves out progress) needs an encoding without the decided pairs.
    std::vector<std::string> premises;
};

/**
 * The mbarrier facts of the model's axioms that order mbarriers, searched before any axiom is
 * encoded, each under its `when` (MbarrierFactsPlan): the acyclicity axioms that name mbo (their
 * relations' certain pairs read on `ev`, which must be an evaluator on the program's own mb-obs,
 * not a decided one: facts read from pairs certain only under facts would rest on themselves),
 * the coherence pairs of `irreflexive (mbo ; x)` (x's pairs between mbarrier operations that
 * every execution has, on the program's bounds: read on `ev`, a closure over a cluster's
 * pipeline was 50 s of example 48's check under Q18's variant), and the per-object orders.
 * Nothing is asserted. `reading`: the flags' bounds' (FlagBounds.hpp); under --readings one that
 * leaves every reading unknown.
 */
std::vector<FactsUnder>
factsBeforeAxioms(ProgramEncoder& pe, const cat::ResolvedModel& model, Evaluator<Z3Algebra>& ev,
                  const std::function<BoundsAlgebra::Cond(const std::string&)>& reading,
                  const std::vector<z3::expr>& readingLiterals, const z3::expr& progress,
                  const CheckOptions& options, const Budget* budget,
                  const std::function<bool()>& wholeSearchTooLarge);

/**
 * Which phase a wait observes is the execution's choice, so every arrive and wait of one
 * object is a possible mb-obs pair, and a causality closure over a cluster's pipeline joins
 * every round to every other (CUTLASS example 48 under decision Q18's variant: 14 million
 * possible pairs of `cause-own-plain`, 81,432 certain). The mbarrier facts searched before the
 * axioms are encoded (`found`, each under its `when`) decide most of them: a pair outside a
 * facts' may-bound of mb-obs is false wherever its `when` holds, a pair inside the must-bound
 * true (FlagBounds.hpp's bounds).
 *
 * A pair is decided where, under every reading the encoding answers (the default, then each
 * of `readingLiterals`), some facts decide it whose `when` every query under that reading
 * assumes: each conjunct true, an axiom's literal, `progress`, or a reading literal that
 * reading sets. For each such facts, `when -> c` (or `when -> !c`) is asserted in `solver`
 * for the pair's condition c: implied constraints, since the facts hold in every execution
 * the model allows where `when` holds. Where `when` holds the decided relation then equals
 * mb-obs in every model, so the axioms read on it keep exactly the executions they kept; a
 * query that does not assume `when` (no progress: the deadlock questions; an axiom left out)
 * must go to an encoding without it (Z3Session::exact).
 *
 * None where no pair is decided, and where some reading has no facts that every query
 * assumes (a search that gave up, a premise on a misuse or a branch).
 */
std::optional<DecidedObservations> decideObservations(ProgramEncoder& pe,
                                                      const std::vector<FactsUnder>& found,
                                                      const std::vector<z3::expr>& readingLiterals,
                                                      const z3::expr& progress, z3::solver& solver);

} // namespace ptxmc::engine::smt
