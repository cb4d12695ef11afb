// Cluster launch control: which cluster a try_cancel response names.
#include "kernel/Clc.hpp"

#include <fmt/format.h>

namespace ptxmc::kernel::clc {

FirstCta firstCta(std::uint64_t k, const std::array<int, 3>& grid,
                  const std::array<int, 3>& cluster) {
    FirstCta r;
    std::array<std::uint64_t, 3> n{};
    for (std::size_t d = 0; d < 3; ++d)
        n[d] = static_cast<std::uint64_t>(grid[d] / cluster[d]);
    std::uint64_t c = k + 1; // cluster 0 is the one checked
    std::uint64_t total = n[0] * n[1] * n[2];
    if (c >= total) {
        r.error = fmt::format("the try_cancel response {} cancels cluster {} of the grid, which "
                              "has {} cluster(s): give --grid with at least {} clusters for "
                              "this --tiles",
                              k, c, total, c + 1);
        return r;
    }
    std::array<std::uint64_t, 3> at{c % n[0], (c / n[0]) % n[1], c / (n[0] * n[1])};
    for (std::size_t d = 0; d < 3; ++d)
        r.ctaid[d] = at[d] * static_cast<std::uint64_t>(cluster[d]);
    return r;
}

} // namespace ptxmc::kernel::clc
