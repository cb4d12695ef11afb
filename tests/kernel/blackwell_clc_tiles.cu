// Blackwell sm_100a persistent tile loop scheduled by cluster launch control; -DPTXMC_MUTANT=N drops 1.
#include "ptx_sync.cuh"

#include <stdint.h>

// Mutants (-DPTXMC_MUTANT=N): each removes ONE load-bearing synchronization; the answer a
// checker must give is in tests/kernel/README.md. Sections are PTX ISA 9.4.
#define MUTANT_NONE 0
// The worker reads the response without waiting on its slot's full barrier: "The executing
// thread can then use mbarrier instructions to wait for completion of the asynchronous
// operation. No other synchronization mechanisms ... can be used" (9.7.15.18
// #parallel-synchronization-and-communication-instructions-clusterlaunchcontrol-try-cancel).
#define MUTANT_NO_FULL_WAIT 1
// The scheduler issues the next request into a slot without waiting for both readers to release
// it: the response write may overtake the worker's read of the previous one (9.7.15.18; 8.7.1
// #conflict-and-data-races).
#define MUTANT_NO_EMPTY_WAIT 2
// The scheduler arrives on the full barrier without expecting the response's 16 bytes: the phase
// may complete on the arrive alone, before the response lands (9.7.15.16.6.1
// #parallel-synchronization-and-communication-instructions-mbarrier-expect-tx-operation).
#define MUTANT_NO_EXPECT_TX 3
// No proxy fence before the next request into a slot: the scheduler's generic read of the last
// response and the async-proxy write of the next are accesses of different proxies with nothing
// ordering them ("fence.proxy.async::generic.acquire ... before current iteration async-proxy
// write to handle", the example of 9.7.15.18; 8.6 #proxies).
#define MUTANT_NO_SLOT_FENCE 4
// The scheduler ignores a failed response and asks again: "If the executing CTA has already
// observed the completion of a clusterlaunchcontrol.try_cancel instruction as failed, then the
// behavior of issuing a subsequent clusterlaunchcontrol.try_cancel instruction is undefined"
// (9.7.15.18).
#define MUTANT_ASK_AFTER_FAILURE 5

#ifndef PTXMC_MUTANT
#define PTXMC_MUTANT MUTANT_NONE
#endif

namespace clc_tiles {

constexpr int SLOTS = 2;    // response slots: one request in flight while one is read
constexpr int TILE = 128;   // elements of one tile
constexpr int THREADS = 64; // warp 0 schedules, warp 1 works

__global__ void __launch_bounds__(THREADS)
    clc_tiles_kernel(const float* __restrict__ in, float* __restrict__ out) {
    __shared__ alignas(16) uint4 response[SLOTS];
    __shared__ alignas(8) uint64_t clc_full[SLOTS];
    __shared__ alignas(8) uint64_t clc_empty[SLOTS];
    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;

    if (threadIdx.x == 0) {
        for (int s = 0; s < SLOTS; ++s) {
            ptx::mbar_init(ptx::smem_addr(&clc_full[s]), 1);  // SYNC: init full
            ptx::mbar_init(ptx::smem_addr(&clc_empty[s]), 2); // SYNC: init empty
        }
        ptx::fence_mbarrier_init(); // SYNC: init fence
    }
    __syncthreads(); // SYNC: init barrier

    if (warp == 0 && lane == 0) {
        // Scheduler: one request per slot, in flight while the worker runs the current tile.
        int slot = 0;
        uint32_t phase = 0;
        while (true) {
            const uint32_t full = ptx::smem_addr(&clc_full[slot]);
            const uint32_t empty = ptx::smem_addr(&clc_empty[slot]);
            const uint32_t resp = ptx::smem_addr(&response[slot]);
#if PTXMC_MUTANT != MUTANT_NO_EMPTY_WAIT
            ptx::mbar_wait(empty, phase ^ 1); // SYNC: empty wait
#endif
#if PTXMC_MUTANT != MUTANT_NO_SLOT_FENCE
            ptx::fence_proxy_async_generic_acquire_cluster(); // SYNC: slot acquire
#endif
#if PTXMC_MUTANT != MUTANT_NO_EXPECT_TX
            ptx::mbar_arrive_expect_tx(full, 16); // SYNC: expect response
#else
            ptx::mbar_arrive(full); // SYNC: expect response
#endif
            ptx::clc_try_cancel(resp, full); // SYNC: try_cancel
            ptx::mbar_wait(full, phase);     // SYNC: scheduler full wait
            uint32_t next = 0;
            const uint32_t more = ptx::clc_query(resp, next); // SYNC: scheduler reads response
            ptx::mbar_arrive(empty);                          // SYNC: scheduler release
#if PTXMC_MUTANT != MUTANT_ASK_AFTER_FAILURE
            if (!more) break;
#else
            if (!more && next == 0xFFFFFFFFu) break; // never: a failed response has no ctaid
#endif
            if (++slot == SLOTS) {
                slot = 0;
                phase ^= 1;
            }
        }
    } else if (warp == 1 && lane == 0) {
        // Worker: its own tile first, then each tile a response names, until one says none.
        uint32_t tile = blockIdx.x;
        int slot = 0;
        uint32_t phase = 0;
        while (true) {
            float acc = 0.f;
            for (int i = 0; i < TILE; ++i)
                acc += in[tile * TILE + i];
            out[tile] = acc;
            const uint32_t full = ptx::smem_addr(&clc_full[slot]);
            const uint32_t empty = ptx::smem_addr(&clc_empty[slot]);
#if PTXMC_MUTANT != MUTANT_NO_FULL_WAIT
            ptx::mbar_wait(full, phase); // SYNC: worker full wait
#endif
            const uint32_t more =
                ptx::clc_query(ptx::smem_addr(&response[slot]), tile); // SYNC: worker reads response
            ptx::mbar_arrive(empty);                                   // SYNC: worker release
            if (!more) break;
            if (++slot == SLOTS) {
                slot = 0;
                phase ^= 1;
            }
        }
    }
}

} // namespace clc_tiles
