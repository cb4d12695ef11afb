// Hopper sm_90a TMA + wgmma warp-specialized GEMM ring; -DPTXMC_MUTANT=N drops one sync.
#include "ptx_sync.cuh"

#include <cuda.h>
#include <cuda_fp16.h>
#include <stdint.h>

// Mutants (-DPTXMC_MUTANT=N): each removes ONE load-bearing synchronization; the answer a
// checker must give is in tests/kernel/README.md. Sections are PTX ISA 9.4.
#define MUTANT_NONE 0
// The consumer never waits on full[s]: wgmma reads a stage the TMA may not have written yet
// (data race, 9.7.15.16.19 #parallel-synchronization-and-communication-instructions-mbarrier-
// test-wait-try-wait), and the producer's next arrive on full[s] finds no True wait in the phase
// before (mbarrier misuse, 9.7.15.16.5 #parallel-synchronization-and-communication-instructions-
// mbarrier-phase: "at least one test_wait or try_wait operation that returns True must be
// performed before an arrive-on operation of the next phase").
#define MUTANT_DROP_FULL_WAIT 1
// The consumer waits full[s] with parity phase^1, the phase before, which has completed: the
// wait returns at once (9.7.15.16.19: the parity names "the current phase or the immediately
// preceding phase"); same race and misuse as MUTANT_DROP_FULL_WAIT.
#define MUTANT_WRONG_PARITY 2
// The producer refills stage s without waiting on empty[s]: the TMA write races the wgmma read
// of the previous round (9.7.17.4 #asynchronous-warpgroup-level-matrix-async-proxy), and its
// arrive.expect_tx lands in a phase nobody has waited (9.7.15.16.5).
#define MUTANT_NO_EMPTY_WAIT 3
// The consumer arrives on empty[s] before wgmma.wait_group 0: the refill may overwrite the
// stage while the mma still reads it (9.7.17.7.3 #asynchronous-warpgroup-level-matrix-
// instructions-wgmma-wait-group).
#define MUTANT_NO_WGMMA_WAIT 4
// No wgmma.commit_group: the mma_async ops are in no wgmma-group, so wait_group 0 waits for
// none of them (9.7.17.7.2 #asynchronous-warpgroup-level-matrix-instructions-wgmma-commit-group);
// "Accessing the accumulator register ... without first performing a wgmma.wait_group
// instruction that waits on a wgmma-group including that wgmma.mma_async instruction is
// undefined behavior" (9.7.17.7.3), and the stage is released while the mma may read it.
#define MUTANT_NO_WGMMA_COMMIT 5
// No fence.proxy.async between the epilogue's generic st.shared and the TMA store that reads
// the tile through the async proxy (8.6 #proxies, 9.7.10.28.2 #async-proxy, 9.7.15.4
// #parallel-synchronization-and-communication-instructions-membar).
#define MUTANT_NO_PROXY_FENCE 6
// No __syncthreads between thread 0's mbarrier.init and the other threads' first wait/arrive:
// they may operate on an object whose init they need not see (9.7.15.16.12
// #parallel-synchronization-and-communication-instructions-mbarrier-init, 9.7.15.4; decision Q17
// in model/decisions.cat).
#define MUTANT_NO_INIT_SYNC 7
// No cp.async.bulk.wait_group 0 after the TMA store: the thread exits with its bulk async-group
// pending, still reading shared memory (9.7.10.28.6.2 #data-movement-and-conversion-instructions-
// cp-async-bulk-wait-group; decision Q20 in model/decisions.cat).
#define MUTANT_NO_STORE_WAIT 8

#ifndef PTXMC_MUTANT
#define PTXMC_MUTANT MUTANT_NONE
#endif

namespace hopper_gemm {

constexpr int S = 2;                          // pipeline stages
constexpr int BM = 64;                        // tile rows (one m64 wgmma)
constexpr int BN = 64;                        // tile columns (n64)
constexpr int BK = 64;                        // k per stage: 64 halves = one 128-byte swizzle row
constexpr int WK = 16;                        // k per wgmma
constexpr int CONSUMERS = 128;                // warps 0-3: the wgmma warpgroup
constexpr int THREADS = CONSUMERS + 32;       // warp 4: the TMA producer
constexpr uint32_t TILE_BYTES = BM * BK * 2;  // one A (or B) tile, f16
constexpr uint32_t STAGE_TX = 2 * TILE_BYTES; // bytes the full barrier expects per phase

#ifdef PTXMC_WATCHDOG
// GPU runs only (never in the checked PTX): a wait that spins too long gives up and says so.
__device__ unsigned int g_watchdog_fired;
#ifndef PTXMC_WATCHDOG_CYCLES
#define PTXMC_WATCHDOG_CYCLES 1000000000ll // about 0.5 s at 1.98 GHz
#endif
#define SPIN_UNTIL(cond)                                                                           \
    for (const long long t0_ = clock64(); !(cond);)                                                \
        if (clock64() - t0_ > PTXMC_WATCHDOG_CYCLES) {                                             \
            atomicExch(&g_watchdog_fired, 1u);                                                     \
            break;                                                                                 \
        }
#define MBAR_WAIT(bar, parity) SPIN_UNTIL(ptx::mbar_try_wait(bar, parity))
#else
// The C++ spin shape around a try_wait probe, and cute's PTX-level spin loop.
#define SPIN_UNTIL(cond)                                                                           \
    while (!(cond)) {                                                                              \
    }
#define MBAR_WAIT(bar, parity) ptx::mbar_wait(bar, parity)
#endif

// wgmma shared-memory matrix descriptor: K-major tile, 128-byte swizzle, 8-row groups 1024 B apart.
__device__ __forceinline__ uint64_t make_smem_desc(uint32_t addr) {
    uint64_t desc = 0;
    desc |= static_cast<uint64_t>((addr & 0x3FFFF) >> 4); // start address
    desc |= static_cast<uint64_t>(16 >> 4) << 16;         // leading byte offset (unused)
    desc |= static_cast<uint64_t>(1024 >> 4) << 32;       // stride byte offset
    desc |= static_cast<uint64_t>(1) << 62;               // layout: 128-byte swizzle
    return desc;
}

using ptx::smem_addr;

// C = A * B^T: A is M x K, B is N x K (both K contiguous, f16), C is M x N (f16).
// One CTA computes one BM x BN tile of C; K / BK k-blocks go through the S-stage ring.
// Every synchronization is one line ending in a `// SYNC:` marker (tests/kernel/README.md).
extern "C" __global__ void __launch_bounds__(THREADS, 1)
    hopper_tma_wgmma_gemm(const __grid_constant__ CUtensorMap tmap_a,
                          const __grid_constant__ CUtensorMap tmap_b,
                          const __grid_constant__ CUtensorMap tmap_c, int K) {
    __shared__ alignas(1024) __half smem_a[S][BM * BK];
    __shared__ alignas(1024) __half smem_b[S][BN * BK];
    __shared__ alignas(128) __half smem_c[BM * BN];
    __shared__ alignas(8) uint64_t full_bar[S];
    __shared__ alignas(8) uint64_t empty_bar[S];

    const int warp = threadIdx.x / 32;
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;
    const int k_blocks = K / BK;

    if (threadIdx.x == 0) {
        for (int s = 0; s < S; ++s) {
            ptx::mbar_init(smem_addr(&full_bar[s]), 1);          // SYNC: init full
            ptx::mbar_init(smem_addr(&empty_bar[s]), CONSUMERS); // SYNC: init empty
        }
        ptx::fence_mbarrier_init(); // SYNC: init fence
    }
#if PTXMC_MUTANT != MUTANT_NO_INIT_SYNC
    __syncthreads(); // SYNC: init barrier
#endif

    if (warp == CONSUMERS / 32) {
        // ---- producer warp: one elected lane issues the TMA loads ----
        if (ptx::elect_one()) { // SYNC: elect
            int s = 0;
            uint32_t phase = 0;
            for (int kb = 0; kb < k_blocks; ++kb) {
#if PTXMC_MUTANT != MUTANT_NO_EMPTY_WAIT
                const uint32_t eb = smem_addr(&empty_bar[s]);
                SPIN_UNTIL(ptx::mbar_try_wait(eb, phase ^ 1)); // SYNC: empty wait
#endif
                const uint32_t fb = smem_addr(&full_bar[s]);
                const uint32_t sa = smem_addr(&smem_a[s][0]);
                const uint32_t sb = smem_addr(&smem_b[s][0]);
                ptx::mbar_arrive_expect_tx(fb, STAGE_TX);       // SYNC: full arrive.expect_tx
                ptx::tma_load_2d(sa, &tmap_a, kb * BK, m0, fb); // SYNC: TMA load A
                ptx::tma_load_2d(sb, &tmap_b, kb * BK, n0, fb); // SYNC: TMA load B
                if (++s == S) {
                    s = 0;
                    phase ^= 1;
                }
            }
            // Producer tail (cute's producer_tail): every stage released, so no TMA load of this
            // thread is still in flight when it leaves.
            for (int i = 0; i < S; ++i) {
                const uint32_t eb = smem_addr(&empty_bar[s]);
                SPIN_UNTIL(ptx::mbar_try_wait(eb, phase ^ 1)); // SYNC: producer tail
                if (++s == S) {
                    s = 0;
                    phase ^= 1;
                }
            }
        }
        return;
    }

    // ---- consumer warpgroup (warps 0-3) ----
    float acc[32];
#pragma unroll
    for (int i = 0; i < 32; ++i)
        acc[i] = 0.0f;

    int s = 0;
    uint32_t phase = 0;
    for (int kb = 0; kb < k_blocks; ++kb) {
#if PTXMC_MUTANT == MUTANT_WRONG_PARITY
        MBAR_WAIT(smem_addr(&full_bar[s]), phase ^ 1); // SYNC: full wait (wrong parity)
#elif PTXMC_MUTANT != MUTANT_DROP_FULL_WAIT
        MBAR_WAIT(smem_addr(&full_bar[s]), phase); // SYNC: full wait
#endif
        ptx::wgmma_fence(); // SYNC: wgmma fence
        const uint32_t a_base = smem_addr(&smem_a[s][0]);
        const uint32_t b_base = smem_addr(&smem_b[s][0]);
#pragma unroll
        for (int kk = 0; kk < BK / WK; ++kk) {
            // k16 step = 32 bytes further along the swizzled 128-byte row
            const uint64_t da = make_smem_desc(a_base + kk * WK * 2);
            const uint64_t db = make_smem_desc(b_base + kk * WK * 2);
            const uint32_t scale_d = (kb > 0 || kk > 0) ? 1u : 0u;
            ptx::wgmma_m64n64k16(acc, da, db, scale_d); // SYNC: wgmma.mma_async
        }
#if PTXMC_MUTANT != MUTANT_NO_WGMMA_COMMIT
        ptx::wgmma_commit_group(); // SYNC: wgmma commit
#endif
#if PTXMC_MUTANT != MUTANT_NO_WGMMA_WAIT
        ptx::wgmma_wait_group_0(); // SYNC: wgmma wait
#endif
        ptx::mbar_arrive(smem_addr(&empty_bar[s])); // SYNC: empty arrive
#if PTXMC_MUTANT == MUTANT_NO_WGMMA_WAIT
        ptx::wgmma_wait_group_0(); // SYNC: wgmma wait (after the release)
#endif
        if (++s == S) {
            s = 0;
            phase ^= 1;
        }
    }

    // ---- epilogue: accumulators -> smem (generic st.shared) -> TMA store ----
    const int lane = threadIdx.x % 32;
    const int row = warp * 16 + lane / 4;
#pragma unroll
    for (int j = 0; j < BN / 8; ++j) {
        const int col = j * 8 + (lane % 4) * 2;
        *reinterpret_cast<__half2*>(&smem_c[row * BN + col]) =
            __floats2half2_rn(acc[4 * j + 0], acc[4 * j + 1]); // SYNC: accumulator read
        *reinterpret_cast<__half2*>(&smem_c[(row + 8) * BN + col]) =
            __floats2half2_rn(acc[4 * j + 2], acc[4 * j + 3]);
    }
#if PTXMC_MUTANT != MUTANT_NO_PROXY_FENCE
    ptx::fence_proxy_async_smem(); // SYNC: proxy fence
#endif
    ptx::named_bar_sync(1, CONSUMERS); // SYNC: epilogue barrier
    if (threadIdx.x == 0) {
        ptx::tma_store_2d(&tmap_c, n0, m0, smem_addr(&smem_c[0])); // SYNC: TMA store C
        ptx::bulk_commit_group();                                  // SYNC: store commit
#if PTXMC_MUTANT != MUTANT_NO_STORE_WAIT
        ptx::bulk_wait_group_0(); // SYNC: store wait
#endif
    }
}

} // namespace hopper_gemm
