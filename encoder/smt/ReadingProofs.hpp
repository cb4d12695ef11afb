// Unsat answers of one reading that hold under another: the reading literals in their cores.
#pragma once

#include <map>
#include <vector>
#include <z3++.h>

namespace ptxmc::engine::smt {

/**
 * With every reading as a literal (Z3Session's `readings`), a query under reading k assumes
 * the literals `chosen` (k's literal, the others negated) besides its own. An unsat answer
 * whose core holds no chosen literal that reading j lacks is a proof under j too: the same
 * assumptions, the same clauses or more (asserted clauses are only ever added). That spares
 * `--readings` the flag and hang proofs a reading cannot change, which are most of them on a
 * kernel, where the default's proofs take seconds each.
 */
class ReadingProofs {
public:
    /** Whether an earlier unsat answer to `assumptions` (apart from the chosen literals) is a
     *  proof under `chosen`. */
    bool proven(const z3::expr_vector& assumptions, const std::vector<z3::expr>& chosen) const;
    /** Keeps the unsat answer to `assumptions` under `chosen`, with its core. */
    void add(const z3::expr_vector& assumptions, const std::vector<z3::expr>& chosen,
             const z3::expr_vector& core);

private:
    using Ids = std::vector<unsigned>;
    /// The assumptions' ids without the chosen literals, sorted -> each proof's chosen
    /// literals in its core.
    std::map<Ids, std::vector<Ids>> cores_;
    /// The keys' expressions, kept alive: Z3 gives a freed term's id to the next new one.
    std::vector<z3::expr> alive_;
};

} // namespace ptxmc::engine::smt
