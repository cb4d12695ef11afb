// Immediate post-dominators of an entry's control flow: where the two ways of a branch meet.
#pragma once

#include <cstddef>
#include <vector>

namespace ptxmc::kernel {

/** No path from the node reaches the exit (an endless loop). */
inline constexpr std::size_t kNoPostDominator = static_cast<std::size_t>(-1);

/**
 * For a graph of nodes 0..n-1 whose successor lists name nodes 0..n (n: the exit), each node's
 * immediate post-dominator: the first node other than itself that every path from it to the
 * exit passes (n where only the exit is), or kNoPostDominator where no path reaches the exit.
 * Cooper, Harvey and Kennedy's iteration ("A Simple, Fast Dominance Algorithm") on the reversed
 * graph.
 */
std::vector<std::size_t>
immediatePostDominators(const std::vector<std::vector<std::size_t>>& successors);

} // namespace ptxmc::kernel
