// One lane's state while the evaluator runs it: registers, position, recorded steps, ways taken.
#pragma once

#include "kernel/Machine.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ptxmc::kernel {

struct Lane {
    int cta = 0, tid = 0, lane = 0, warp = 0;
    std::unordered_map<std::string, Val> regs;
    std::size_t pc = 0;
    bool done = false;
    std::unordered_map<std::size_t, std::uint64_t> counts;
    std::map<std::uint64_t, std::size_t> clcReads; ///< response slot -> loads of it so far
    /// registers of a wgmma fragment (accumulator, A) -> the fragment's first register
    std::unordered_map<std::string, std::string> wgmmaRegs;
    std::uint64_t wgmmaWindow = 0;                 ///< wgmma instructions executed so far
    std::uint64_t readIn = ~0ULL, wroteIn = ~0ULL; ///< the window of the last recorded access
    std::uint64_t executed = 0;
    std::vector<Step> steps;
    std::map<std::uint64_t, Val> local; ///< what the lane stored to its .local memory, by byte
    /// registers to mark as depending on a probe when the lane reaches a statement: those whose
    /// value differs between the probe's two sides where they meet again
    struct Taint {
        std::size_t pc = 0;
        std::vector<std::string> regs;
        std::vector<std::uint64_t> local; ///< and .local bytes
        std::uint32_t probe = 0;
    };
    std::vector<Taint> taintAt;
    /// a branch on data whose sides differ splits the lane in two, one per way (runWarp): the
    /// way this copy took, the statement where both ways meet again (the branch's immediate
    /// post-dominator; the body's size: the end) and how many steps the lane had then
    struct Fork {
        DataChoice way;
        std::size_t join = 0;
        std::size_t prefix = 0;
    };
    std::vector<Fork> forks;         ///< outermost first
    std::optional<Fork> pendingFork; ///< set by the branch; runWarp splits the lane
    bool atJoin = false;             ///< stands at forks.back().join, waiting for its twin
};

} // namespace ptxmc::kernel
