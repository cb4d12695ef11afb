// Repeated plain accesses, warpgroup MMAs and init fences: a run of identical ones in one thread of
// the extracted program is kept once.
#pragma once

#include "litmus/Ast.hpp"

#include <cstddef>

namespace ptxmc::kernel {

/**
 * Drops each plain access that repeats the one just before it in its thread, and returns how
 * many it dropped: a store (`st`, no .async, weak or no semantics, no guard) identical to the
 * instruction before it, or a load (`ld`, weak or no semantics, no guard) of the address the
 * load before it reads, into a register nothing reads. An epilogue stages a tile through shared
 * memory with hundreds of accesses to one buffer, which the extraction names as one location,
 * and the check pays for each event. Two such accesses with nothing between them have the same
 * causality predecessors and successors (base causality order is program order and
 * synchronizes-with composed, PTX ISA 8.9.5, and a weak access synchronizes with nothing), so
 * each access of another thread races with both or with neither; the stores write the same
 * value and the loads' values are unused: the properties are unchanged (docs/kernel.md,
 * "Repeated accesses"). Likewise a wgmma.mma_async identical to the one before it (a k-block's
 * MMAs whose descriptors the extraction names as one stage's buffer): its shared-memory reads
 * have the wgmma.fence, commit group and waits of the one before, and its accumulator accesses
 * follow that one's without a fence ("an ordering guarantee is provided by default", PTX ISA
 * {WgmmaFence}), so every race, missing fence or register race it takes part in the one before
 * takes part in too. It changes the accumulator's value, so it is dropped only where that value
 * reaches no store, address, guard or operand other than registers'. And a
 * fence.mbarrier_init.release.cluster right after another: it releases the same earlier inits
 * through a subset of the later operations ({Membar}; tcgen05.cat's init-fence-sw reads it only
 * forward in program order). A test with a final condition keeps every register it names.
 */
std::size_t dropRepeatedAccesses(litmus::Test& test);

} // namespace ptxmc::kernel
