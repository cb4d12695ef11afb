// Where the pairs of a closure repeat other pairs: the chains of certain edges (program order).
#pragma once

#include <cstddef>
#include <vector>

namespace ptxmc::engine {

/**
 * The chains of a closure a+ whose certain edges form no cycle, read from its reduced edges
 * (RelOps::closureEdges: an edge implied by a path of certain edges is left out).
 *
 * A node whose only reduced edge out is a certain one, to `next`, starts every path through
 * that edge: every edge it has out is that one or is implied by a certain path, and a certain
 * path out starts with a reduced certain edge. So (x, z) is in a+ exactly when z is next or
 * (next, z) is: x's row is next's row plus next. Symmetrically a node whose only reduced edge
 * in is a certain one, from `prev`, ends every path through it (the last edge of a longest
 * certain path into it is reduced): (x, z) is in a+ exactly when x is prev or (x, prev) is.
 *
 * Program order gives most events such an edge: on a library kernel only the events that may
 * synchronize branch (bench/history.md, 2026-12-02: 1.18 million pairs of ThunderKittens'
 * causality against 19,649 between branching ends). Only those pairs need a condition of
 * their own, and only their lower bounds need lemmas; every other pair is one of them.
 */
struct ClosureChains {
    std::vector<int> next; ///< per node: the one certain successor, or -1 (it branches)
    std::vector<int> prev; ///< per node: the one certain predecessor, or -1 (it branches)
    /** Every node, each after the ends of the certain edges into it (empty: no chains). */
    std::vector<int> order;

    bool none() const { return order.empty(); }
    /** Whether (x, z)'s condition is its own: neither end passes through a chain. */
    bool branching(std::size_t x, std::size_t z) const {
        return none() || (next[x] < 0 && prev[z] < 0);
    }

    /** `edges[x]`: the reduced edges (y, condition); `certain(condition)`. No chains where the
     *  certain edges form a cycle (the argument above needs a longest path; Kahn's order
     *  below finds the cycle, and then nothing was reduced either). */
    template <class Edges, class Certain>
    static ClosureChains of(const Edges& edges, Certain&& certain) {
        ClosureChains c;
        const std::size_t n = edges.size();
        std::vector<int> outCount(n, 0), inCount(n, 0), certainIn(n, 0);
        c.next.assign(n, -1);
        c.prev.assign(n, -1);
        for (std::size_t x = 0; x < n; ++x)
            for (const auto& [y, cond] : edges[x]) {
                ++outCount[x];
                ++inCount[static_cast<std::size_t>(y)];
                if (certain(cond)) ++certainIn[static_cast<std::size_t>(y)];
            }
        for (std::size_t x = 0; x < n; ++x)
            for (const auto& [y, cond] : edges[x]) {
                if (!certain(cond)) continue;
                const auto yy = static_cast<std::size_t>(y);
                if (outCount[x] == 1) c.next[x] = y;
                if (inCount[yy] == 1) c.prev[yy] = static_cast<int>(x);
            }
        // Kahn's order over the certain edges.
        std::vector<int> ready;
        for (std::size_t x = 0; x < n; ++x)
            if (certainIn[x] == 0) ready.push_back(static_cast<int>(x));
        while (!ready.empty()) {
            const int x = ready.back();
            ready.pop_back();
            c.order.push_back(x);
            for (const auto& [y, cond] : edges[static_cast<std::size_t>(x)])
                if (certain(cond) && --certainIn[static_cast<std::size_t>(y)] == 0)
                    ready.push_back(y);
        }
        if (c.order.size() != n) return ClosureChains{}; // a cycle of certain edges: no chains
        return c;
    }
};

} // namespace ptxmc::engine
