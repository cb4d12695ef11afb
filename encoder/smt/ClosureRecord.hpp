// One closure's lower bounds kept as its edges and pairs; each lemma is made when asked for.
#pragma once

#include "engine/ClosureChains.hpp"
#include "engine/LazyClosure.hpp"
#include "engine/Relation.hpp"
#include "smt/ClosurePropagator.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>
#include <z3++.h>

namespace ptxmc::engine::smt {

/**
 * The lower bounds of a closure a+ that RelOps::plusAtLeast gives the solver: for each edge
 * (x, y) of condition c, `c -> (x, y)` and `c && (y, z) -> (x, z)` for every pair (y, z). They
 * number edges times reach: millions on a library kernel (bench/history.md), of which the
 * checks depend on a few percent (smt/LemmaCone.hpp). Kept as the closure's edges and pairs,
 * the lemmas cost nothing until the cone asks for those of one head.
 */
struct ClosureRecord {
    using Edge = std::pair<int, z3::expr>;
    /** Per source x, the edges (y, condition: a constant or a literal) whose lemmas do not
     *  follow from a path of certain edges (RelOps::impliedByMustPath), in y's order. */
    std::vector<std::vector<Edge>> edges;
    /** The closure: each pair's condition, true or a fresh condition (made eagerly). */
    SparseRel<z3::expr> pairs;
    /** Or the closure with its pairs made when read (engine/LazyClosure.hpp); then `pairs`
     *  is empty. */
    std::shared_ptr<const LazyClosure<z3::expr>> lazy;
    /** How many lemmas with a head that is not true: what the clauses would have numbered. */
    std::size_t lemmaCount = 0;
    /** Where pairs repeat others (engine/ClosureChains.hpp): only a head's lemmas are made. */
    ClosureChains chains;

    /** Whether the pair (x, z), a fresh condition, is where its lemmas are made: any other
     *  pair with that condition repeats it through a chain. */
    bool isHead(int x, int z) const {
        return chains.branching(static_cast<std::size_t>(x), static_cast<std::size_t>(z));
    }

    /** Where one lemma comes in the order the clauses were made: source, edge, then the
     *  edge's own lemma (kOwn) before its steps through (y, z) in z's order. */
    struct Key {
        std::uint32_t record = 0, x = 0, edge = 0;
        std::int32_t z = kOwn;
        static constexpr std::int32_t kOwn = -1;
        friend bool operator<(const Key& a, const Key& b) {
            if (a.record != b.record) return a.record < b.record;
            if (a.x != b.x) return a.x < b.x;
            if (a.edge != b.edge) return a.edge < b.edge;
            return a.z < b.z;
        }
    };

    /**
     * Calls `f(key, lemma)` for every lemma whose head is the pair (x, z) (a fresh
     * condition, isHead), as requireStep would have made it: true antecedents left out, none
     * false.
     */
    template <class F> void lemmasOf(std::uint32_t record, int x, int z, F&& f) const;

    /** The lemma `key` names (its record is this one). */
    StepLemma lemma(const Key& key) const;

    /** Whether (x, z) may be in the closure. */
    bool has(int x, int z) const {
        if (lazy) return lazy->may(x, z);
        const auto& row = pairs.rows[static_cast<std::size_t>(x)];
        return row.find(z) != row.end();
    }
    /** The condition of a pair that may be in the closure (made now if lazy and new). */
    z3::expr pair(int x, int z) const {
        if (lazy) return lazy->at(x, z);
        return pairs.rows[static_cast<std::size_t>(x)].at(z);
    }
};

template <class F> void ClosureRecord::lemmasOf(std::uint32_t record, int x, int z, F&& f) const {
    const auto& out = edges[static_cast<std::size_t>(x)];
    for (std::size_t k = 0; k < out.size(); ++k) {
        const int y = out[k].first;
        Key key{record, static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(k), Key::kOwn};
        if (y == z) f(key, lemma(key));
        if (!has(y, z)) continue;
        key.z = z;
        f(key, lemma(key));
    }
}

} // namespace ptxmc::engine::smt
