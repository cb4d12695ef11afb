// Blackwell sm_100a 1-SM GEMM main loop on a 2-CTA cluster, A multicast; -DPTXMC_MUTANT=N.
#include "ptx_sync.cuh"

#include <cuda.h>
#include <stdint.h>

// The shape of CUTLASS's 1-SM multicast pipeline: the two CTAs compute row blocks that share A,
// so each CTA's producer loads half of A's rows with .multicast::cluster into both CTAs and its
// own B; each full barrier then collects three copies (its own A half, the peer's A half, its
// B), and every MMA warp's commit releases the stage in both CTAs.
// Mutants (-DPTXMC_MUTANT=N): the answer a checker must give is in tests/kernel/answers.txt.
// Sections are PTX ISA 9.4.
#define MUTANT_NONE 0
// The last k-block's arrive.expect_tx counts only the copies this CTA issues (its A half and
// its B), not the peer's A half that lands here too: more bytes complete than the phase expects
// ("The mbarrier signal is multicast to the same shared memory offset as mbar in the
// destination CTA", 9.7.10.28.5.3 #data-movement-and-conversion-instructions-cp-async-bulk-
// tensor; 9.7.15.16.6.1 #parallel-synchronization-and-communication-instructions-mbarrier-
// expect-tx-operation).
#define MUTANT_TAIL_OWN_BYTES 1
// The MMA warp's commit releases its own CTA's stage only (empty count 1): the peer's producer
// may refill this CTA's A half while this CTA's mma still reads it (9.7.18.12.1
// #tcgen-async-sync-operations-commit, 9.7.18.6.5).
#define MUTANT_LOCAL_RELEASE 2

#ifndef PTXMC_MUTANT
#define PTXMC_MUTANT MUTANT_NONE
#endif

namespace blackwell_multicast_a {

constexpr int S = 2;                            // smem pipeline stages
constexpr int CL = 2;                           // CTAs per cluster
constexpr int BM = 128;                         // rows of A (and of the accumulator) per CTA
constexpr int BN = 64;                          // columns of B per CTA
constexpr int BK = 32;                          // k per stage: 32 halves = one 64-byte swizzle row
constexpr int UK = 16;                          // k per tcgen05.mma (kind::f16)
constexpr int A_ROWS = BM / CL;                 // the rows of A one CTA loads for both
constexpr uint32_t A_HALF_TX = A_ROWS * BK * 2; // 4096 bytes
constexpr uint32_t B_TX = BN * BK * 2;          // 4096 bytes
constexpr uint32_t STAGE_TX = CL * A_HALF_TX + B_TX; // what lands in one CTA's stage
constexpr uint16_t ALL_CTAS = (1u << CL) - 1;
constexpr uint32_t TMEM_COLS = BN;
#if PTXMC_MUTANT == MUTANT_LOCAL_RELEASE
constexpr uint32_t RELEASERS = 1;
#else
constexpr uint32_t RELEASERS = CL; // every CTA's MMA warp reads the A half this CTA multicasts
#endif

// UMMA shared-memory descriptor (sm_100): K-major, 64-byte swizzle, 8-row groups 512 B apart.
__device__ __forceinline__ uint64_t make_smem_desc(uint32_t addr) {
    return static_cast<uint64_t>((addr & 0x3FFFF) >> 4) | (static_cast<uint64_t>(1) << 16) |
           (static_cast<uint64_t>(512 >> 4) << 32) | (static_cast<uint64_t>(1) << 46) |
           (static_cast<uint64_t>(4) << 61);
}
// Instruction descriptor, kind::f16: f32 accumulator, f16 A and B, both K-major, N and M.
constexpr uint32_t kIdesc = (1u << 4) | (uint32_t(BN >> 3) << 17) | (uint32_t(BM >> 4) << 24);

using ptx::smem_addr;

extern "C" __global__ void __launch_bounds__(64, 1) __cluster_dims__(CL, 1, 1)
    blackwell_multicast_a(const __grid_constant__ CUtensorMap tmap_a,
                          const __grid_constant__ CUtensorMap tmap_b, int k_blocks) {
    __shared__ alignas(1024) uint16_t smem_a[S][BM * BK];
    __shared__ alignas(1024) uint16_t smem_b[S][BN * BK];
    __shared__ alignas(8) uint64_t full_bar[S];
    __shared__ alignas(8) uint64_t empty_bar[S];
    __shared__ alignas(8) uint64_t done_bar;
    __shared__ uint32_t tmem_base_slot;

    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    const uint32_t rank = ptx::cluster_ctarank();

    if (threadIdx.x == 0) {
        for (int s = 0; s < S; ++s) {
            ptx::mbar_init(smem_addr(&full_bar[s]), 1);          // SYNC: init full
            ptx::mbar_init(smem_addr(&empty_bar[s]), RELEASERS); // SYNC: init empty
        }
        ptx::mbar_init(smem_addr(&done_bar), 1); // SYNC: init done
        ptx::fence_mbarrier_init();              // SYNC: init fence
    }
    if (warp == 1) {
        ptx::tmem_alloc<1>(smem_addr(&tmem_base_slot), TMEM_COLS); // SYNC: tcgen05.alloc
        ptx::tmem_relinquish_alloc_permit<1>();                    // SYNC: relinquish
    }
    // The peer's copies and commits reach this CTA's barriers: a cluster barrier after init.
    ptx::tcgen05_fence_before(); // SYNC: alloc fence before
    ptx::cluster_sync();         // SYNC: setup cluster barrier
    ptx::tcgen05_fence_after();  // SYNC: alloc fence after
    const uint32_t tmem_base = tmem_base_slot;

    if (warp == 0 && lane == 0) {
        // ---- TMA producer ----
        int s = 0;
        uint32_t phase = 0;
        for (int kb = 0; kb < k_blocks; ++kb) {
            ptx::mbar_wait_cluster(smem_addr(&empty_bar[s]), phase ^ 1); // SYNC: empty wait
            const uint32_t fb = smem_addr(&full_bar[s]);
#if PTXMC_MUTANT == MUTANT_TAIL_OWN_BYTES
            const uint32_t tx = kb + 1 == k_blocks ? A_HALF_TX + B_TX : STAGE_TX;
#else
            const uint32_t tx = STAGE_TX;
#endif
            ptx::mbar_arrive_expect_tx(fb, tx); // SYNC: full arrive.expect_tx
            // this CTA's rows of A go to both CTAs, at the same offset
            const uint32_t a_dst = smem_addr(&smem_a[s][rank * A_ROWS * BK]);
            const uint32_t b_dst = smem_addr(&smem_b[s][0]);
            const int k0 = kb * BK, a_row = rank * A_ROWS, b_row = rank * BN;
            ptx::tma_load_2d_multicast(a_dst, &tmap_a, k0, a_row, fb, ALL_CTAS); // SYNC: TMA load A
            ptx::tma_load_2d(b_dst, &tmap_b, k0, b_row, fb);                     // SYNC: TMA load B
            if (++s == S) {
                s = 0;
                phase ^= 1;
            }
        }
        // No CTA leaves while a peer's commit may still arrive on its empty barriers.
        for (int i = 0; i < S; ++i) {
            ptx::mbar_wait_cluster(smem_addr(&empty_bar[s]), phase ^ 1); // SYNC: producer tail
            if (++s == S) {
                s = 0;
                phase ^= 1;
            }
        }
    } else if (warp == 1 && lane == 0) {
        // ---- MMA issuer ----
        int s = 0;
        uint32_t phase = 0;
        for (int kb = 0; kb < k_blocks; ++kb) {
            ptx::mbar_wait_cluster(smem_addr(&full_bar[s]), phase); // SYNC: full wait
            ptx::tcgen05_fence_after();                             // SYNC: fence after full
            const uint32_t a_base = smem_addr(&smem_a[s][0]);
            const uint32_t b_base = smem_addr(&smem_b[s][0]);
#pragma unroll
            for (int kk = 0; kk < BK / UK; ++kk) {
                const uint64_t da = make_smem_desc(a_base + kk * UK * 2);
                const uint64_t db = make_smem_desc(b_base + kk * UK * 2);
                const uint32_t acc_d = (kb > 0 || kk > 0) ? 1u : 0u;
                ptx::tcgen05_mma_f16<1>(tmem_base, da, db, kIdesc, acc_d); // SYNC: tcgen05.mma
            }
#if PTXMC_MUTANT == MUTANT_LOCAL_RELEASE
            ptx::tcgen05_commit<1>(smem_addr(&empty_bar[s])); // SYNC: commit to own empty
#else
            // both producers wrote this stage: release it in both CTAs
            const uint32_t eb = smem_addr(&empty_bar[s]);
            ptx::tcgen05_commit_multicast(eb, ALL_CTAS); // SYNC: commit to empty (multicast)
#endif
            if (++s == S) {
                s = 0;
                phase ^= 1;
            }
        }
        ptx::tcgen05_commit<1>(smem_addr(&done_bar)); // SYNC: commit to done
        ptx::mbar_wait(smem_addr(&done_bar), 0);      // SYNC: done wait
    }

    // ---- teardown: the mma is done before the dealloc, and no copy is still on its way ----
    ptx::tcgen05_fence_before(); // SYNC: fence before teardown
    ptx::cluster_sync();         // SYNC: teardown cluster barrier
    if (warp == 1) {
        ptx::tcgen05_fence_after();                 // SYNC: fence after teardown
        ptx::tmem_dealloc<1>(tmem_base, TMEM_COLS); // SYNC: tcgen05.dealloc
    }
}

} // namespace blackwell_multicast_a
