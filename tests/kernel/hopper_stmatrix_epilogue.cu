// Hopper sm_90a epilogue: four warps stmatrix their rows of a staging tile, one TMA store; -DPTXMC_MUTANT=N drops 1.
#include "ptx_sync.cuh"

#include <cuda.h>
#include <stdint.h>

// Mutants (-DPTXMC_MUTANT=N): each removes ONE load-bearing synchronization; the answer a
// checker must give is in tests/kernel/README.md. Sections are PTX ISA 9.4.
#define MUTANT_NONE 0
// No fence.proxy.async between the warps' stmatrix (generic proxy) and the TMA store's read of
// the tile (async proxy): accesses "via different proxies" need a proxy fence (8.6 #proxies).
#define MUTANT_NO_PROXY_FENCE 1
// No barrier between the other warps' stmatrix and thread 0's TMA store: their rows may still be
// unwritten when the store reads them (8.7.1 #conflict-and-data-races).
#define MUTANT_NO_BARRIER 2

#ifndef PTXMC_MUTANT
#define PTXMC_MUTANT MUTANT_NONE
#endif

namespace stmatrix_epilogue {

constexpr int ROWS = 64;       // tile rows: 16 per warp
constexpr int ROW_BYTES = 32;  // 16 halves per row
constexpr int THREADS = 128;   // four warps

__device__ __forceinline__ void stmatrix_x4(uint32_t addr, uint32_t a, uint32_t b, uint32_t c,
                                            uint32_t d) {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr),
                 "r"(a), "r"(b), "r"(c), "r"(d)
                 : "memory");
}

__global__ void __launch_bounds__(THREADS)
    stmatrix_epilogue_kernel(const __grid_constant__ CUtensorMap tmap_c, uint32_t seed) {
    __shared__ alignas(128) uint8_t tile[ROWS * ROW_BYTES];
    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    // lane i gives row i % 8 of matrix i / 8: matrices 0/1 the warp's two 8-row blocks of the
    // left 16 bytes, 2/3 of the right 16 bytes
    const int matrix = lane / 8;
    const int row = warp * 16 + (matrix % 2) * 8 + lane % 8;
    const uint32_t addr = ptx::smem_addr(tile + row * ROW_BYTES + (matrix / 2) * 16);
    const uint32_t v = seed * 2654435761u + threadIdx.x;
    stmatrix_x4(addr, v, v + 1, v + 2, v + 3); // SYNC: stmatrix rows
#if PTXMC_MUTANT != MUTANT_NO_PROXY_FENCE
    ptx::fence_proxy_async_smem(); // SYNC: proxy fence
#endif
#if PTXMC_MUTANT != MUTANT_NO_BARRIER
    __syncthreads(); // SYNC: tile barrier
#endif
    if (threadIdx.x == 0) {
        ptx::tma_store_2d(&tmap_c, 0, blockIdx.x * ROWS, ptx::smem_addr(tile)); // SYNC: TMA store
        ptx::bulk_commit_group();                                               // SYNC: store commit
        ptx::bulk_wait_group_0();                                               // SYNC: store wait
    }
}

} // namespace stmatrix_epilogue
