// Flag members and pairs that no execution under the mbarrier facts can raise, found by
// evaluating the model on must/may bounds (engine/Bounds.hpp), and asserted false there.
#pragma once

#include "cat/Resolver.hpp"
#include "engine/Bounds.hpp"
#include "smt/ProgramEncoder.hpp"
#include "smt/Schedules.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include <z3++.h>

namespace ptxmc::engine::smt {

/** Mbarrier facts (smt/Schedules.hpp) and the condition under which the solver has them. */
struct FactsUnder {
    schedules::MbarrierFacts facts;
    z3::expr when;
};

/** A flag's members or pairs, each with its condition (Z3Session::Witnesses). */
using FlagMembers = std::vector<std::pair<std::vector<int>, z3::expr>>;

/** What ruleOutFlagMembers did (for --stats). */
struct FlagBoundsSummary {
    std::size_t witnesses = 0; ///< flag members and pairs the encoding has
    std::size_t ruledOut = 0;  ///< of those, the ones no execution under the facts raises
    /// The `when`s of the facts that ruled some out, each once. Kept apart, not conjoined:
    /// under --readings the facts of an order some readings leave out have a `when` false
    /// under those, and a conjunction with it was false under every reading.
    std::vector<z3::expr> premises;
    /// By reading (0 the default, k the k-th literal's; one entry without --readings) and flag
    /// axiom: a `flag ~empty` every member of which is false or ruled out under that reading
    /// by facts whose `when` it leaves open. Where the premises hold, the flag is not raised.
    std::vector<std::vector<bool>> settled;
};

/** mb-obs's bounds in the executions where `facts` hold: must, the pairs in every one; may,
 *  the pairs in some. */
BoundedRel observationBounds(ProgramEncoder& pe, const schedules::MbarrierFacts& facts);

/** The pairs among `events` (ascending) that relation `x` has in every execution, each with
 *  condition true: evaluated on the program's own bounds, without facts and without a term.
 *  `reading`: as ruleOutFlagMembers'; under --readings one that leaves each reading unknown. */
Z3Rel certainAmong(ProgramEncoder& pe, const cat::ResolvedModel& model, const cat::Expr& x,
                   const std::function<BoundsAlgebra::Cond(const std::string&)>& reading,
                   const std::vector<int>& events);

/** Whether `c` is false where reading `reading` is chosen: its literal (the `reading`-th of
 *  `readingLiterals`, in the model's order) true, every other false; 0: the default, all false. */
bool falseUnderReading(const z3::expr& c, const std::vector<z3::expr>& readingLiterals,
                       std::size_t reading);

/**
 * For each `flag ~empty r as X` of `model` (the k-th flag axiom's members or pairs with their
 * conditions are witnesses[k]): each member or pair of r outside r's may-bound under some
 * facts is asserted false where those facts' `when` holds. The flags' terms stay as they
 * are (and so does the solver's path to a witness); where `when` follows from a query's
 * assumptions (Z3Session::settleFlagBounds), their conditions fold to false.
 *
 * Why this is sound: in an execution where `when` holds, every base relation lies within the
 * bounds built from the facts (mbo pairs the facts fix, mb-obs pairs their phases decide, the
 * waits that return under progress, the operations that are no misuse), the bound operators
 * keep every value within its bounds, and the encoding's flag pairs are raised only where the
 * model's are (its closures may only grow where the flags read them negatively: cat/Polarity).
 * `reading`: the reading --reading chose (its condition True, the others' False); none: the
 * default reading. Under --readings (`readingLiterals`, in the model's reading order, one of
 * them true at a time, or none: the default), the default reading and then each reading a
 * flag reaches are evaluated on their own (reusing the default's values of what that reading
 * leaves alone), and a member is asserted false under the readings it is ruled out in:
 * evaluated with every reading unknown, a member one reading may raise stayed for all of them,
 * and proving the flags on the 2-SM kernel took 1.1 s, against 0.07 s by default.
 */
FlagBoundsSummary
ruleOutFlagMembers(ProgramEncoder& pe, const cat::ResolvedModel& model,
                   const std::vector<FactsUnder>& found,
                   const std::function<BoundsAlgebra::Cond(const std::string&)>& reading,
                   const std::vector<z3::expr>& readingLiterals,
                   const std::vector<FlagMembers>& witnesses, z3::solver& solver);

} // namespace ptxmc::engine::smt
