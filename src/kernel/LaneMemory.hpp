// Loads and stores a lane follows itself: parameter fields, its own .local memory, host-written
// global bytes.
#pragma once

#include "kernel/Lane.hpp"
#include "kernel/LaneValues.hpp"
#include "kernel/Launch.hpp"
#include "kernel/ParamFields.hpp"

#include <cstdint>

namespace ptxmc::kernel {

/** The memory whose values the evaluation knows, as one lane reads and writes it. */
class LaneMemory {
public:
    LaneMemory(const LaneValues& values, ParamFields& params, const Launch& launch, Extraction& out)
        : values_(values), params_(params), launch_(launch), out_(out) {}

    /**
     * ld.param at the lane's pc, or a generic load of a parameter's bytes at `addr`: each
     * element of the destination reads the field at its offset, as wide as the element.
     */
    void paramLoad(Lane& L, const litmus::Instruction& in, Val addr);

    /**
     * A load of global memory the host wrote before the launch (--global): each element of
     * the destination reads its bytes, little-endian; false where the load is not inside them.
     */
    bool hostLoad(Lane& L, const litmus::Instruction& in, std::uint64_t addr);

    /**
     * A load or store of the lane's own .local memory (an array of tile addresses indexed by
     * the stage): followed like registers, element by element. False where it is not one.
     */
    bool localAccess(Lane& L, const litmus::Instruction& in, bool store);

private:
    const LaneValues& values_;
    ParamFields& params_;
    const Launch& launch_;
    Extraction& out_;
};

} // namespace ptxmc::kernel
