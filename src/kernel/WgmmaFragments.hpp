// A thread's own accesses of the registers of wgmma fragments (9.7.17.7.3, 9.7.17.7.1).
#pragma once

#include "kernel/Lane.hpp"
#include "kernel/Module.hpp"

namespace ptxmc::kernel {

/**
 * A wgmma instruction at the lane's pc: a new stretch between wgmma instructions begins, and a
 * wgmma.mma_async's accumulator and register A become fragments (each register maps to the
 * fragment's first).
 */
void enterWgmma(Lane& L, const Statement& s);

/**
 * The statement at the lane's pc, which is no wgmma instruction: its reads and writes of
 * fragment registers (cvt, mov, st of an accumulator) are what the wgmma-register-race and
 * wgmma-missing-fence rules are about, and each is recorded as a `mov.b32` of the fragment's
 * first register. One read and one write per stretch suffice: the others are in the same place
 * in program order relative to every wgmma event.
 */
void recordFragmentAccess(Lane& L, const Statement& s);

} // namespace ptxmc::kernel
