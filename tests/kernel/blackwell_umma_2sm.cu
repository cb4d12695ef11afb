// Blackwell sm_100a 2-SM cta_group::2 persistent GEMM, multicast commits; -DPTXMC_MUTANT=N drops 1.
#include "ptx_sync.cuh"

#include <cuda.h>
#include <stdint.h>

// Mutants (-DPTXMC_MUTANT=N): each removes ONE load-bearing synchronization; the answer a
// checker must give is in tests/kernel/README.md. Sections are PTX ISA 9.4.
#define MUTANT_NONE 0
// The MMA's commit to empty[s] is not multicast: only the leader's empty[s] completes, the
// peer's producer waits forever once the ring wraps (9.7.18.12.1 #tcgen-async-sync-operations-
// commit: the multicast form "signals the mbarrier objects ... in the CTAs specified by
// ctaMask"; 9.7.15.16.8 #parallel-synchronization-and-communication-instructions-mbarrier-phase-
// completion).
#define MUTANT_NO_MULTICAST 1
// Every wait uses the default .acquire.cta semantics, as CUTLASS's do, although the arrivals and
// complete_tx it observes come from the peer CTA (9.7.15.16.19 #parallel-synchronization-and-
// communication-instructions-mbarrier-test-wait-try-wait, 8.5 #scope): decision Q18.
#define MUTANT_CTA_SCOPE_WAITS 2
// The leader's arrive.expect_tx counts only its own CTA's bytes: the full phase can complete
// before the peer's TMA bytes land, and their complete_tx then hits a completed phase
// (9.7.15.16.6.1 #parallel-synchronization-and-communication-instructions-mbarrier-expect-tx-
// operation, 9.7.15.16.8).
#define MUTANT_LEADER_BYTES_ONLY 3
// The pair deallocates after a CTA-local __syncthreads only: the leader's mma into the peer's
// columns and the peer's tcgen05.ld are not ordered before the joint dealloc ("issuing warp and
// peer CTA warp must synchronize Tensor Memory accesses before attempting to collectively
// deallocate", 9.7.18.7.1 #tcgen05-instructions-tcgen05-alloc-dealloc-relinquish-alloc-permit).
#define MUTANT_NO_TEARDOWN_CLUSTER_SYNC 4
// The peer's epilogue arrives on its own acc_empty instead of the leader's (no mapa): the
// leader's acc_empty (count 256) never completes and its MMA warp waits forever from the third
// tile on (9.7.15.16.8).
#define MUTANT_LOCAL_ACC_EMPTY 5

#ifndef PTXMC_MUTANT
#define PTXMC_MUTANT MUTANT_NONE
#endif

namespace blackwell_gemm_2sm {

constexpr int S = 2;          // smem pipeline stages
constexpr int ACC_STAGES = 2; // accumulator stages in tensor memory
constexpr int BM = 256;       // tile rows: 128 per CTA of the pair (its TMEM lanes)
constexpr int BN = 64;        // tile columns: B is split 32 + 32 between the CTAs
constexpr int BK = 32;        // k per stage: 32 halves = one 64-byte swizzle row
constexpr int UK = 16;        // k per tcgen05.mma (kind::f16)
constexpr int HALF_M = BM / 2;
constexpr int HALF_N = BN / 2;
constexpr int EPI_THREADS = 128;                // warps 2-5 of each CTA
constexpr int THREADS = 64 + EPI_THREADS;       // warp 0 TMA, warp 1 MMA (leader) / TMEM, warps 2-5
constexpr uint32_t TMEM_COLS = ACC_STAGES * BN; // 128 per CTA
constexpr uint32_t CTA_TX = (HALF_M + HALF_N) * BK * 2; // bytes one CTA's TMA brings
constexpr uint16_t PAIR_MASK = 0x3;                     // both CTAs of the cluster

// Waits observe arrivals and complete_tx of both CTAs: cluster-scope acquire (CUTLASS: default).
#if PTXMC_MUTANT == MUTANT_CTA_SCOPE_WAITS
#define MBAR_WAIT(bar, parity) ptx::mbar_wait(bar, parity)
#else
#define MBAR_WAIT(bar, parity) ptx::mbar_wait_cluster(bar, parity)
#endif

// UMMA shared-memory descriptor (sm_100): K-major, 64-byte swizzle, 8-row groups 512 B apart.
__device__ __forceinline__ uint64_t make_smem_desc(uint32_t addr) {
    uint64_t desc = 0;
    desc |= static_cast<uint64_t>((addr & 0x3FFFF) >> 4); // start address
    desc |= static_cast<uint64_t>(16 >> 4) << 16;         // leading byte offset (unused)
    desc |= static_cast<uint64_t>(512 >> 4) << 32;        // stride byte offset
    desc |= static_cast<uint64_t>(1) << 46;               // descriptor version (sm_100)
    desc |= static_cast<uint64_t>(4) << 61;               // layout: 64-byte swizzle
    return desc;
}

// Instruction descriptor, kind::f16: f32 accumulator, f16 A and B, both K-major, N = 64, M = 256.
constexpr uint32_t kIdesc = (1u << 4) | (uint32_t(BN >> 3) << 17) | (uint32_t(BM >> 4) << 24);

using ptx::smem_addr;

// C (M x N, f32) = A (M x K, f16) * B (N x K, f16)^T on clusters of 2 CTAs; one 256 x 64 tile per
// pair and loop trip; rank 0 (the leader) issues the cta_group::2 mma for both.
// Every synchronization is one line ending in a `// SYNC:` marker (tests/kernel/README.md).
extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(THREADS, 1)
    blackwell_umma_2sm_gemm(const __grid_constant__ CUtensorMap tmap_a,
                            const __grid_constant__ CUtensorMap tmap_b, float* __restrict__ c,
                            int N, int K, int tiles_n, int num_tiles) {
    __shared__ alignas(1024) uint16_t smem_a[S][HALF_M * BK];
    __shared__ alignas(1024) uint16_t smem_b[S][HALF_N * BK];
    __shared__ alignas(8) uint64_t full_bar[S];               // the leader's is used
    __shared__ alignas(8) uint64_t empty_bar[S];              // both: multicast commit
    __shared__ alignas(8) uint64_t acc_full_bar[ACC_STAGES];  // both: multicast commit
    __shared__ alignas(8) uint64_t acc_empty_bar[ACC_STAGES]; // the leader's: both epilogues
    __shared__ uint32_t tmem_base_slot;

    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    const int k_blocks = K / BK;
    const uint32_t rank = ptx::cluster_ctarank();
    const bool leader = rank == 0;
    const int pair = blockIdx.x / 2;
    const int pairs = gridDim.x / 2;

    if (threadIdx.x == 0) {
        for (int s = 0; s < S; ++s) {
            ptx::mbar_init(smem_addr(&full_bar[s]), 1);  // SYNC: init full
            ptx::mbar_init(smem_addr(&empty_bar[s]), 1); // SYNC: init empty
        }
        for (int a = 0; a < ACC_STAGES; ++a) {
            ptx::mbar_init(smem_addr(&acc_full_bar[a]), 1);                // SYNC: init acc_full
            ptx::mbar_init(smem_addr(&acc_empty_bar[a]), 2 * EPI_THREADS); // SYNC: init acc_empty
        }
        ptx::fence_mbarrier_init(); // SYNC: init fence
    }
    if (warp == 1) {
        ptx::tmem_alloc<2>(smem_addr(&tmem_base_slot), TMEM_COLS); // SYNC: tcgen05.alloc pair
        ptx::tmem_relinquish_alloc_permit<2>();                    // SYNC: relinquish
    }
    ptx::tcgen05_fence_before(); // SYNC: alloc fence before
    ptx::cluster_sync();         // SYNC: setup cluster barrier
    ptx::tcgen05_fence_after();  // SYNC: alloc fence after
    const uint32_t tmem_base = tmem_base_slot;

    if (warp == 0) {
        // ---- TMA producer of each CTA: its half of A and B, completing on the leader's full ----
        if (lane == 0) {
            int s = 0;
            uint32_t phase = 0;
            for (int tile = pair; tile < num_tiles; tile += pairs) {
                const int m0 = (tile / tiles_n) * BM + rank * HALF_M;
                const int n0 = (tile % tiles_n) * BN + rank * HALF_N;
                for (int kb = 0; kb < k_blocks; ++kb) {
                    MBAR_WAIT(smem_addr(&empty_bar[s]), phase ^ 1); // SYNC: empty wait
                    const uint32_t fb = smem_addr(&full_bar[s]);
                    const uint32_t leader_fb = ptx::mapa(fb, 0); // SYNC: mapa to the leader's full
                    const uint32_t sa = smem_addr(&smem_a[s][0]);
                    const uint32_t sb = smem_addr(&smem_b[s][0]);
                    if (leader) {
#if PTXMC_MUTANT == MUTANT_LEADER_BYTES_ONLY
                        ptx::mbar_arrive_expect_tx(fb, CTA_TX); // SYNC: full expect_tx (1 CTA)
#else
                        ptx::mbar_arrive_expect_tx(fb, 2 * CTA_TX); // SYNC: full arrive.expect_tx
#endif
                    }
                    ptx::tma_load_2d_pair(sa, &tmap_a, kb * BK, m0, leader_fb); // SYNC: TMA load A
                    ptx::tma_load_2d_pair(sb, &tmap_b, kb * BK, n0, leader_fb); // SYNC: TMA load B
                    if (++s == S) {
                        s = 0;
                        phase ^= 1;
                    }
                }
            }
            // Producer tail (cute's producer_tail): every stage released by the MMA's commits, so
            // no commit arrive or TMA load is still in flight when this thread leaves.
            for (int i = 0; i < S; ++i) {
                MBAR_WAIT(smem_addr(&empty_bar[s]), phase ^ 1); // SYNC: producer tail
                if (++s == S) {
                    s = 0;
                    phase ^= 1;
                }
            }
        }
    } else if (warp == 1) {
        // ---- MMA issuer: the leader's lane 0 only; the peer's MMA warp only owns TMEM ----
        if (leader && lane == 0) {
            int s = 0;
            uint32_t phase = 0;
            int acc = 0;
            uint32_t acc_phase = 0;
            for (int tile = pair; tile < num_tiles; tile += pairs) {
                const uint32_t aeb = smem_addr(&acc_empty_bar[acc]);
                MBAR_WAIT(aeb, acc_phase ^ 1);                // SYNC: acc_empty wait
                ptx::tcgen05_fence_after();                   // SYNC: fence after acc_empty
                const uint32_t d_tmem = tmem_base + acc * BN; // column offset of this accumulator
                for (int kb = 0; kb < k_blocks; ++kb) {
                    MBAR_WAIT(smem_addr(&full_bar[s]), phase); // SYNC: full wait
                    ptx::tcgen05_fence_after();                // SYNC: fence after full
                    const uint32_t a_base = smem_addr(&smem_a[s][0]);
                    const uint32_t b_base = smem_addr(&smem_b[s][0]);
#pragma unroll
                    for (int kk = 0; kk < BK / UK; ++kk) {
                        const uint64_t da = make_smem_desc(a_base + kk * UK * 2);
                        const uint64_t db = make_smem_desc(b_base + kk * UK * 2);
                        const uint32_t acc_d = (kb > 0 || kk > 0) ? 1u : 0u;
                        ptx::tcgen05_mma_f16<2>(d_tmem, da, db, kIdesc, acc_d); // SYNC: tcgen05.mma
                    }
                    const uint32_t eb = smem_addr(&empty_bar[s]);
#if PTXMC_MUTANT == MUTANT_NO_MULTICAST
                    ptx::tcgen05_commit<2>(eb); // SYNC: commit to empty (leader only)
#else
                    ptx::tcgen05_commit_multicast_pair(eb, PAIR_MASK); // SYNC: commit to empty
#endif
                    if (++s == S) {
                        s = 0;
                        phase ^= 1;
                    }
                }
                const uint32_t afb = smem_addr(&acc_full_bar[acc]);
                ptx::tcgen05_commit_multicast_pair(afb, PAIR_MASK); // SYNC: commit to acc_full
                if (++acc == ACC_STAGES) {
                    acc = 0;
                    acc_phase ^= 1;
                }
            }
        }
    } else {
        // ---- epilogue warps 2-5 of each CTA: its 128 rows, from its own tensor memory ----
        const uint32_t lane_base = static_cast<uint32_t>((warp % 4) * 32) << 16;
        int acc = 0;
        uint32_t acc_phase = 0;
        for (int tile = pair; tile < num_tiles; tile += pairs) {
            const int row = (tile / tiles_n) * BM + rank * HALF_M + (warp % 4) * 32 + lane;
            const int n0 = (tile % tiles_n) * BN;
            MBAR_WAIT(smem_addr(&acc_full_bar[acc]), acc_phase); // SYNC: acc_full wait
            ptx::tcgen05_fence_after();                          // SYNC: fence after acc_full
            uint32_t v[BN / 16][16];
#pragma unroll
            for (int j = 0; j < BN / 16; ++j) {
                const uint32_t taddr = tmem_base + lane_base + acc * BN + j * 16;
                ptx::tmem_ld_32x32b_x16(v[j], taddr); // SYNC: tcgen05.ld
            }
            ptx::tmem_wait_ld();         // SYNC: tcgen05.wait::ld
            ptx::tcgen05_fence_before(); // SYNC: fence before acc_empty
            const uint32_t aeb = smem_addr(&acc_empty_bar[acc]);
#if PTXMC_MUTANT == MUTANT_LOCAL_ACC_EMPTY
            ptx::mbar_arrive(aeb); // SYNC: acc_empty arrive (own CTA)
#else
            const uint32_t leader_aeb = ptx::mapa(aeb, 0); // SYNC: mapa to the leader's acc_empty
            ptx::mbar_arrive_cluster(leader_aeb);          // SYNC: acc_empty arrive
#endif
#pragma unroll
            for (int j = 0; j < BN; ++j)
                c[size_t(row) * N + n0 + j] = __uint_as_float(v[j / 16][j % 16]);
            if (++acc == ACC_STAGES) {
                acc = 0;
                acc_phase ^= 1;
            }
        }
    }

    // ---- teardown: both CTAs' accesses to the pair's TMEM end before the joint dealloc ----
    ptx::tcgen05_fence_before(); // SYNC: fence before teardown
#if PTXMC_MUTANT == MUTANT_NO_TEARDOWN_CLUSTER_SYNC
    __syncthreads(); // SYNC: teardown barrier (this CTA only)
#else
    ptx::cluster_sync();                                   // SYNC: teardown cluster barrier
#endif
    if (warp == 1) {
        ptx::tcgen05_fence_after();                 // SYNC: fence after teardown
        ptx::tmem_dealloc<2>(tmem_base, TMEM_COLS); // SYNC: tcgen05.dealloc pair
    }
}

} // namespace blackwell_gemm_2sm
