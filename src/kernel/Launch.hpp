// How a kernel is launched for a check: block and cluster shape, parameters, loop bounds.
#pragma once

#include "support/SourceLoc.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ptxmc::kernel {

struct Launch {
    std::string entry;                         ///< --entry; empty: the module's only entry
    std::optional<std::array<int, 3>> block;   ///< --block; else .reqntid/.maxntid
    std::optional<std::array<int, 3>> cluster; ///< --cluster; else .reqnctapercluster or 1
    std::optional<std::array<int, 3>> grid;    ///< --grid; else the cluster (one wave)
    /// --param NAME[+OFFSET]=VALUE: the bytes at OFFSET of parameter NAME (its PTX name, its
    /// _param_N suffix or its index), as wide as the load that reads them
    std::map<std::pair<std::string, std::uint64_t>, std::uint64_t> params;
    /// --params FILE: fields named the same way; --param overrides a field's value here
    std::map<std::pair<std::string, std::uint64_t>, std::uint64_t> fileParams;
    /// the line of the --params file that gives each field of fileParams (FILE:LINE:COL), for
    /// its errors and the warning on a field the kernel never reads
    std::map<std::pair<std::string, std::uint64_t>, SourceLoc> paramWhere;
    /// --param-bytes NAME=FILE: every byte of parameter NAME as the host built it (a dump
    /// ptxmc/params_dump.h writes); a field --param or --params gives keeps their value
    std::map<std::string, std::vector<std::uint8_t>> paramBytes;
    /// --global ADDRESS=...: bytes of global memory the host wrote before the launch (a
    /// sequence-length array, a tile count), by start address; loads inside them read them
    std::map<std::uint64_t, std::vector<std::uint8_t>> globals;
    std::uint64_t dynamicShared = 232448; ///< --dynamic-smem bytes
    std::uint64_t maxSteps = 4000000;     ///< instructions one thread may execute
    int tiles = 2; ///< --tiles: tiles a cluster runs where clusterlaunchcontrol schedules them
    /// --list-params: a branch on a parameter field not given ends its thread, not the run
    bool listParams = false;
};

} // namespace ptxmc::kernel
