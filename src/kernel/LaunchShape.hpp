// The shape of the launch a check runs (block, cluster, grid) and the special registers
// (%tid.x, %cluster_ctarank, ...) each thread reads in it.
#pragma once

#include "kernel/Launch.hpp"
#include "kernel/Machine.hpp"
#include "kernel/Module.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace ptxmc::kernel {

struct LaunchShape {
    std::array<int, 3> block{1, 1, 1}, cluster{1, 1, 1}, grid{1, 1, 1};
    std::uint64_t dynamicShared = 0; ///< %dynamic_smem_size

    int threads() const { return block[0] * block[1] * block[2]; }
    int ctas() const { return cluster[0] * cluster[1] * cluster[2]; }
};

/**
 * The shape the options give `entry`, its .reqntid/.maxntid/.reqnctapercluster filling in
 * what they leave out (the grid: one cluster); throws InputError for a shape PTX or ptxmc
 * does not run.
 */
LaunchShape launchShape(const Function& entry, const Launch& launch);

/**
 * The first instruction of `entry` that works across the CTAs of a cluster (%cluster_ctarank,
 * shared::cluster, barrier.cluster, multicast, mapa) when neither the module
 * (.reqnctapercluster) nor the launch (--cluster) names the cluster's shape: the check then
 * runs one CTA per cluster, which the user should know (CUTLASS sets the cluster at launch).
 */
std::optional<SourceLoc> unsizedClusterUse(const Function& entry, const Launch& launch);

/** Where a thread sits in the cluster: what its special registers read. */
struct ThreadPlace {
    int cta = 0; ///< cluster rank
    int tid = 0; ///< linear thread index in its CTA
    int lane = 0, warp = 0;
};

/** A linear index in a box of `dims` as (x, y, z), x fastest (%tid of a thread, %ctaid). */
std::array<int, 3> boxIndex(int linear, const std::array<int, 3>& dims);

/**
 * The value special register `name` has for thread `t`; unknown (Val{}) for registers that do
 * not follow from the launch (%smid, %clock, ...); nullopt when `name` is no special register.
 */
std::optional<Val> specialRegister(const std::string& name, const ThreadPlace& t,
                                   const LaunchShape& shape);

} // namespace ptxmc::kernel
