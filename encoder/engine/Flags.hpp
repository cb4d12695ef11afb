// The flags ptxmc names in C++ (the model defines the rest), each with what it does on hardware.
#pragma once

#include <string_view>

namespace ptxmc::engine {

/** The name of the flag raised when some execution blocks forever. */
inline constexpr const char* kHangFlag = "hang";
/** The flag a Deadlock carries: undefined behaviour in the executions that hang, so the text
 *  promises no hang either (hardware completed such a phase: validate/results/h200-tensor-maps). */
inline constexpr const char* kDeadlockFlag = "mbarrier-misuse";

/** A flag by name and whether a GPU survives an execution that raises it. */
struct FlagTraits {
    std::string_view name;
    /// Misusing state the GPU keeps (an mbarrier's phase or tx-count, tensor memory's
    /// allocation, a copy still pending when the kernel exits) may trap the launch; races (of
    /// data, tensor memory, wgmma registers) and hangs only give other values or time out.
    bool fatalOnHardware;
};

/** Every flag with a trait of its own; a flag not listed is a model's and survivable. */
inline constexpr FlagTraits kFlagTraits[] = {
    {kHangFlag, false},
    // The Hopper rings' dropped empty waits (an expect_tx in a phase still in flight) failed
    // every launch on the H100, so their tests stayed inconclusive.
    {kDeadlockFlag, true},
    {"async-pending-at-exit", true},
    {"tmem-lifetime", true},
    {"tcgen05-alloc-misuse", true},
};

/** Whether an execution raising flag `name` may trap the launch on a GPU. */
constexpr bool fatalOnHardware(std::string_view name) {
    for (const FlagTraits& f : kFlagTraits)
        if (f.name == name) return f.fatalOnHardware;
    return false;
}

} // namespace ptxmc::engine
