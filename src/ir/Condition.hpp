// The final condition over observable indices: a quantifier and a proposition, no source syntax.
#pragma once

#include <cstdint>
#include <vector>

namespace ptxmc::ir {

/** How the proposition is read over the final states (herd: exists, ~exists, forall). */
enum class Quantifier { Exists, NotExists, Forall };

/**
 * A proposition over the observables of a program (indices into Program::observed): what the
 * engines evaluate in each final state, and what the explanation turns into a solver term.
 */
struct Proposition {
    enum class Kind { True, False, Eq, Ne, Not, And, Or, Implies };
    Kind kind = Kind::True;
    int lhs = -1;                  ///< Eq / Ne: the observable compared
    int rhs = -1;                  ///< Eq / Ne against another observable; -1: against `constant`
    std::int64_t constant = 0;     ///< Eq / Ne: a 32-bit value read as signed (wrap32)
    std::vector<Proposition> args; ///< Not (1), And/Or/Implies (2)
};

struct Condition {
    Quantifier quantifier = Quantifier::Exists;
    Proposition prop;
};

/** The value of `p` in a final state; `values` is parallel to Program::observed. */
bool holds(const Proposition& p, const std::vector<std::int64_t>& values);

/** herd's word for a quantifier: "exists", "~exists" or "forall". */
const char* quantifierText(Quantifier q);

/** Herd's Ok for a test whose states number `positive` satisfying and `negative` not. */
bool conditionOk(Quantifier q, std::size_t positive, std::size_t negative);

} // namespace ptxmc::ir
