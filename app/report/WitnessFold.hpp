// Witnesses drawn at kernel size: what matters kept, the rest of each thread folded.
#pragma once

#include "report/WitnessText.hpp"

#include <cstddef>
#include <set>

namespace ptxmc::report {

/** Above this many events a drawing folds what does not matter. */
inline constexpr std::size_t kMaxDrawnEvents = 40;

/**
 * `g` with only what matters drawn: the events of highlighted edges (the racing pair, the
 * cycle, the reads that make the outcome), the events in `keep` (blocked waits), and each
 * one's program-order neighbours; every run of other events of a thread becomes one node
 * "N events, lines a-b", joined by po to what is around it. Edges between dropped events go;
 * a graph of at most `most` events comes back unchanged.
 */
WitnessGraph foldWitness(const WitnessGraph& g, const std::set<int>& keep,
                         std::size_t most = kMaxDrawnEvents);

} // namespace ptxmc::report
