// What elect, shfl, vote and activemask compute across the lanes of a warp that run them together.
#pragma once

#include "kernel/LaneValues.hpp"
#include "kernel/Module.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptxmc::kernel {

enum class ShflMode { Idx, Up, Down, Bfly, Other };
enum class VoteMode { Ballot, Any, All, Uni, Other };

/** shfl.sync.MODE's mode (its third part; .idx when none is written). */
ShflMode shflMode(const std::vector<std::string>& parts);
/** vote.sync.MODE's mode (its third part). */
VoteMode voteMode(const std::vector<std::string>& parts);

/**
 * The lane whose value lane `lane` receives, given its b operand: outside the warp or not
 * among the `members` running the shfl (a bit per lane), the lane's own value.
 */
int shflSource(ShflMode mode, int lane, std::uint64_t b, std::uint64_t members);

/** The vote of `members` whose predicate is set in `ballot`; nullopt for an unknown mode. */
std::optional<std::uint64_t> voteResult(VoteMode mode, std::uint64_t ballot, std::uint64_t members);

/**
 * Runs the warp-collective statement `s` (elect.sync, shfl.sync, vote.sync, activemask; any
 * other writes unknown values) for the lanes of `group`, which all stand at it, and moves
 * them past it.
 */
void runCollective(const std::vector<Lane*>& group, const Statement& s, const LaneValues& values);

} // namespace ptxmc::kernel
