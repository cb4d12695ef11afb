// Why an outcome or flag is allowed, in actionable terms: the changes that forbid it.
#pragma once

#include "cat/Resolver.hpp"
#include "check/Check.hpp"
#include "litmus/Ast.hpp"
#include "lower/Lowerer.hpp"
#include "ptx/Strengthen.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ptxmc::engine::explain {

/** What a fix must achieve: no execution reaching `outcome` (or the test's condition), or,
 *  with `flag` set, no execution raising that flag. */
struct RemedyGoal {
    std::optional<std::string> outcome;
    std::string flag;
};

/** One set of changes (ptx::Strengthening) under which the goal holds, checked again whole. */
struct Remedy {
    std::vector<ptx::Strengthening> changes;
    std::string change;              ///< the changes in words (ptx::describe)
    std::vector<std::string> axioms; ///< outcome: a minimal set of axioms that then forbids it
    std::string after;               ///< the changed test's answer: "Never, no flag, 1 state"
    std::size_t instructions = 0;    ///< how many instructions it touches (inserted or changed)
    bool minimal = true; ///< a combination: every change is needed (false: the budget ran out)
};

struct RemedySearch {
    std::vector<Remedy> found;  ///< fewest instructions touched first
    std::size_t candidates = 0; ///< single strengthenings of the test
    std::size_t tried = 0;      ///< how many checks ran
    bool combined = false;      ///< no single or repeated change did it; a minimal combination
    std::string skipped;        ///< why no search ran (the test is too large), else empty
    std::size_t rejected = 0;   ///< fixes dropped: the changed test hangs or raises a new flag
};

/** At most this many checks, per stage of the search (singles, repeated changes, the
 *  combination), so `explain` stays interactive. */
inline constexpr std::size_t kMaxRemedyTries = 40;
/** Programs above this many events are not searched (each try is a full solve). */
inline constexpr std::size_t kMaxRemedyEvents = 160;

/**
 * Searches the strengthenings of `test` (ptx/Strengthen.hpp) for changes that achieve `goal`:
 *  1. each change alone;
 *  2. one change repeated at every place it applies to the same instruction text (every
 *     iteration of an unrolled loop), in one thread, then in every thread;
 *  3. when neither does it: every change at once, then made minimal by dropping the costliest
 *     changes first while the goal still holds.
 * Each fix found is checked again whole (`before` is the test's own answer): one that makes
 * the test deadlock, or raises a flag `before` does not, is dropped. Deterministic.
 */
RemedySearch findRemedies(const litmus::Test& test, std::size_t events,
                          const cat::ResolvedModel& model, const RemedyGoal& goal,
                          const engine::CheckResult& before, const lower::LowerOptions& lowering,
                          const CheckOptions& options);

} // namespace ptxmc::engine::explain
