// Cluster launch control: the responses try_cancel writes, as the tile loop of a kernel reads them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace ptxmc::kernel::clc {

/**
 * A response of clusterlaunchcontrol.try_cancel (9.7.15.18 #parallel-synchronization-and-
 * communication-instructions-clusterlaunchcontrol-try-cancel), as a register value: the k-th
 * request of the cluster (k from 0). With --tiles N the first N-1 requests each cancel the
 * next cluster of the grid in x-major order (cluster k+1), the last fails: the tile loop runs
 * N tiles, the first its own. The real response is "a 16-byte opaque value" that only
 * clusterlaunchcontrol.query_cancel (9.7.15.19) decodes.
 */
constexpr std::uint64_t kTag = 0xC1CULL << 52;
constexpr std::uint64_t kTagMask = 0xFFFULL << 52;

inline std::uint64_t response(std::uint64_t k) {
    return kTag | k;
}
inline std::optional<std::uint64_t> requestOf(std::uint64_t value) {
    if ((value & kTagMask) != kTag) return std::nullopt;
    return value & ~kTagMask;
}

/** Whether the k-th response cancelled a cluster (is_canceled). */
inline bool cancelled(std::uint64_t k, int tiles) {
    return k + 1 < static_cast<std::uint64_t>(tiles);
}

/**
 * The %ctaid of the first CTA of the cluster the k-th response cancelled (get_first_ctaid),
 * or an error text when the grid has no such cluster.
 */
struct FirstCta {
    std::array<std::uint64_t, 3> ctaid{0, 0, 0};
    std::string error;
};
FirstCta firstCta(std::uint64_t k, const std::array<int, 3>& grid,
                  const std::array<int, 3>& cluster);

} // namespace ptxmc::kernel::clc
