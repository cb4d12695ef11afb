// Seeded random generator of well-formed litmus tests (for differential fuzzing of the engines).
#pragma once

#include <cstdint>
#include <string>

namespace ptxmc::gen {

/** Limits and instruction families of generated tests. */
struct GenOptions {
    int maxThreads = 4;       // 1..4
    int maxCtas = 2;          // 1..2 (two CTAs share a cluster when the test needs it)
    int maxInstructions = 12; // total over all threads
    // Families: tcgen05.*, mbarrier.*, cp.async.bulk.*, mixed proxies (aliases and every
    // fence.proxy.*), generic ld/st/atom/red/fences/bar.sync. fence.proxy.async also comes
    // with bulk copies and tcgen05 when proxies is off, because they need it to be correct.
    bool tcgen05 = true, mbarrier = true, bulk = true, proxies = true, generic = true;
    bool wgmma = true; ///< Hopper's warpgroup MMA (wgmma.*)
};

/** A well-formed litmus test (text in the format of litmus/README.md), a pure function of
 * seed+options. */
std::string randomLitmus(std::uint64_t seed, const GenOptions& options = {});

} // namespace ptxmc::gen
