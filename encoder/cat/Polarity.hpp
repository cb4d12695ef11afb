// Which way each check of a model depends on each subexpression: the base of relation analysis.
#pragma once

#include "cat/Resolver.hpp"

#include <map>
#include <set>

namespace ptxmc::cat {

/**
 * How the checks that use an expression depend on its value. A check "holds" for the
 * solver when its test passes (a consistency axiom) or its condition is raised (a flag); both
 * are queried as "some execution makes it hold".
 *  - Antitone: growing the value can only make some check fail (`acyclic r`, `empty r`,
 *    `flag ~empty (a \ r)` in r).
 *  - Monotone: growing it can only make some check hold (`flag ~empty r`, `~acyclic r`).
 * A value used only antitonely may be replaced by any superset chosen by the solver without
 * changing which executions are consistent or which flags they raise: the solver always has
 * the exact value among its choices, and a larger one never helps it (Dat3M's relation
 * analysis makes the same use of an encoding's polarity).
 */
enum Use : unsigned { Antitone = 1U, Monotone = 2U };

struct Polarity {
    /** The uses of every expression node reached from a check (bit-or of Use). */
    std::map<const Expr*, unsigned> uses;

    /** True when `e` is used, and only antitonely, outside any `let rec` group. */
    bool mayGrow(const Expr* e) const;

    std::set<const Expr*> recursive; ///< nodes inside `let rec` bodies (always exact)
};

/** The polarity of every node of `model`, from its axioms and flags through its definitions. */
Polarity analysePolarity(const ResolvedModel& model);

} // namespace ptxmc::cat
