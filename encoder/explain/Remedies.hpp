// Why an outcome is allowed, in actionable terms: the one-instruction changes that forbid it.
#pragma once

#include "cat/Resolver.hpp"
#include "check/Check.hpp"
#include "litmus/Ast.hpp"
#include "lower/Lowerer.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ptxmc::engine::explain {

/** One change (ptx::Strengthening) under which the outcome is forbidden, and by which axioms. */
struct Remedy {
    std::string change;              ///< "tcgen05.fence::after_thread_sync before P1's ..."
    std::vector<std::string> axioms; ///< a minimal set of axioms that then forbids it
};

struct RemedySearch {
    std::vector<Remedy> found;
    std::size_t candidates = 0; ///< strengthenings of the test
    std::size_t tried = 0;      ///< how many checks ran (single changes, then pairs)
    bool pairs = false;         ///< no single change did it; pairs in two threads were tried
    std::string skipped;        ///< why no search ran (the test is too large), else empty
};

/** At most this many single strengthenings are checked (and as many pairs after them), so
 *  `explain` stays interactive. */
inline constexpr std::size_t kMaxRemedyTries = 40;
/** Programs above this many events are not searched (each try is a full solve). */
inline constexpr std::size_t kMaxRemedyEvents = 160;

/**
 * Checks each strengthening of `test` (ptx/Strengthen.hpp) against `outcome` (or the test's
 * condition): those under which no execution reaches it any more. Deterministic: candidates
 * in thread and program order, the first kMaxRemedyTries of them.
 */
RemedySearch findRemedies(const litmus::Test& test, std::size_t events,
                          const cat::ResolvedModel& model,
                          const std::optional<std::string>& outcome,
                          const lower::LowerOptions& lowering, const CheckOptions& options);

} // namespace ptxmc::engine::explain
