// How a kernel is launched for a check: block and cluster shape, parameters, loop bounds.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace ptxmc::kernel {

struct Launch {
    std::string entry;                         ///< --entry; empty: the module's only entry
    std::optional<std::array<int, 3>> block;   ///< --block; else .reqntid/.maxntid
    std::optional<std::array<int, 3>> cluster; ///< --cluster; else .reqnctapercluster or 1
    std::optional<std::array<int, 3>> grid;    ///< --grid; else the cluster (one wave)
    std::map<std::string, std::uint64_t>
        params;                           ///< --param NAME=VALUE (NAME: the PTX name or its suffix)
    std::uint64_t dynamicShared = 232448; ///< --dynamic-smem bytes
    std::uint64_t maxSteps = 4000000;     ///< instructions one thread may execute
    int tiles = 2; ///< --tiles: tiles a cluster runs where clusterlaunchcontrol schedules them
};

} // namespace ptxmc::kernel
