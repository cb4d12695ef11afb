// Immediate post-dominators by Cooper, Harvey and Kennedy's iteration on the reversed graph.
#include "kernel/PostDominators.hpp"

#include <utility>

namespace ptxmc::kernel {

namespace {

/** Postorder of the reversed graph from `root` (iterative: entries have thousands of nodes). */
std::vector<std::size_t> reversePostorderFrom(const std::vector<std::vector<std::size_t>>& pred,
                                              std::size_t root) {
    std::vector<std::size_t> order;
    std::vector<bool> seen(pred.size(), false);
    std::vector<std::pair<std::size_t, std::size_t>> stack{{root, 0}};
    seen[root] = true;
    while (!stack.empty()) {
        auto& [node, next] = stack.back();
        if (next < pred[node].size()) {
            const std::size_t p = pred[node][next++];
            if (!seen[p]) {
                seen[p] = true;
                stack.emplace_back(p, 0);
            }
            continue;
        }
        order.push_back(node);
        stack.pop_back();
    }
    return order;
}

} // namespace

std::vector<std::size_t>
immediatePostDominators(const std::vector<std::vector<std::size_t>>& successors) {
    const std::size_t n = successors.size(); // node n: the exit
    std::vector<std::vector<std::size_t>> pred(n + 1);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t t : successors[i])
            pred[t].push_back(i);
    const std::vector<std::size_t> order = reversePostorderFrom(pred, n);
    std::vector<std::size_t> rank(n + 1, kNoPostDominator);
    for (std::size_t i = 0; i < order.size(); ++i)
        rank[order[i]] = i;
    std::vector<std::size_t> ipdom(n + 1, kNoPostDominator);
    ipdom[n] = n;
    auto intersect = [&](std::size_t a, std::size_t b) {
        while (a != b) {
            while (rank[a] < rank[b])
                a = ipdom[a];
            while (rank[b] < rank[a])
                b = ipdom[b];
        }
        return a;
    };
    for (bool changed = true; changed;) {
        changed = false;
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            const std::size_t b = *it;
            if (b == n) continue;
            std::size_t d = kNoPostDominator;
            for (std::size_t s : successors[b])
                if (ipdom[s] != kNoPostDominator) d = d == kNoPostDominator ? s : intersect(s, d);
            if (d != ipdom[b]) {
                ipdom[b] = d;
                changed = true;
            }
        }
    }
    ipdom.pop_back();
    return ipdom;
}

} // namespace ptxmc::kernel
