// Where an entry's variables live: shared memory (static, then dynamic), .local and parameters.
#pragma once

#include "kernel/Machine.hpp"
#include "kernel/Module.hpp"

#include <cstdint>

namespace ptxmc::kernel {

/**
 * The layout of `entry`'s variables: static `.shared` variables (the module's, then the
 * entry's) from offset 0x400 in declaration order, each at its alignment; every `.extern`
 * array at the first 16-byte (or stricter) boundary after them, `dynamicShared` bytes long;
 * `.local` variables and parameters from 0 in their own windows.
 */
Layout layoutVariables(const Module& m, const Function& entry, std::uint64_t dynamicShared);

} // namespace ptxmc::kernel
