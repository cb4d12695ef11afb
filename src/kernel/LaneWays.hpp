// The ways of branches on data a lane splits into, and how its two halves join again.
#pragma once

#include "kernel/Lane.hpp"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace ptxmc::kernel {

/** Registers and .local bytes where two ways meet: those they agree on, the others data. */
void mergeValues(Lane& into, const Lane& a, const Lane& b);

/**
 * Splits a lane at its pending fork: `L` goes the taken way (to `to.first`), the copy
 * returned the other (to `to.second`).
 */
Lane splitLane(Lane& L, std::pair<std::size_t, std::size_t> to);

/** The ways a lane is in, as a key: lanes in different ways never meet at a collective. */
std::string waysKey(const Lane& L);

/** Twins: the two ways of one lane's innermost split, both at its join (or ended). */
bool twins(const Lane& a, const Lane& b);

/**
 * Joins one pair of twins into one lane at their join: the steps before the split, then the
 * taken way's, then the other's (each guarded by its way), and the values they agree on.
 * False when no pair is ready.
 */
bool mergeJoined(std::vector<Lane>& lanes);

} // namespace ptxmc::kernel
