// Blackwell sm_100a 2-SM cta_group::2 persistent GEMM, multicast commits; -DPTXMC_MUTANT=N drops 1.
#include <cuda.h>
#include <stdint.h>

// Mutants (-DPTXMC_MUTANT=N): each removes ONE load-bearing synchronization; the answer a
// checker must give is in tests/kernels/README.md. Sections are PTX ISA 9.4.
#define MUTANT_NONE 0
// The MMA's commit to empty[s] is not multicast: only the leader's empty[s] completes, the
// peer's producer waits forever once the ring wraps (9.7.18.12.1 #tcgen-async-sync-operations-
// commit: the multicast form "signals the mbarrier objects ... in the CTAs specified by
// ctaMask"; 9.7.15.16.8 #parallel-synchronization-and-communication-instructions-mbarrier-phase-
// completion).
#define MUTANT_NO_MULTICAST 1
// Every wait uses the default .acquire.cta semantics, as CUTLASS's do, although the arrivals and
// complete_tx it observes come from the peer CTA (9.7.15.16.19 #parallel-synchronization-and-
// communication-instructions-mbarrier-test-wait-try-wait, 8.5 #scope): issue 32 item 7(a).
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

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// The same object in CTA `rank` of the cluster.
__device__ __forceinline__ uint32_t cluster_addr(uint32_t local, uint32_t rank) {
    uint32_t remote;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(rank));
    return remote;
}

// The nvcc inline-asm spin shape; cluster-scope acquire because the arrivals come from the pair.
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
#if PTXMC_MUTANT == MUTANT_CTA_SCOPE_WAITS
    asm volatile("{\n\t.reg .pred P1;\n"
                 "LAB_WAIT:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n\t"
                 "@P1 bra DONE;\n\t"
                 "bra LAB_WAIT;\n"
                 "DONE:\n\t}" ::"r"(bar),
                 "r"(parity)
                 : "memory");
#else
    asm volatile("{\n\t.reg .pred P1;\n"
                 "LAB_WAIT:\n\t"
                 "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 P1, [%0], %1;\n\t"
                 "@P1 bra DONE;\n\t"
                 "bra LAB_WAIT;\n"
                 "DONE:\n\t}" ::"r"(bar),
                 "r"(parity)
                 : "memory");
#endif
}

__device__ __forceinline__ void cluster_sync() {
    asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
                 "barrier.cluster.wait.acquire.aligned;" ::
                     : "memory");
}

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

// C (M x N, f32) = A (M x K, f16) * B (N x K, f16)^T on clusters of 2 CTAs; one 256 x 64 tile per
// pair and loop trip; rank 0 (the leader) issues the cta_group::2 mma for both.
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
    uint32_t rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    const bool leader = rank == 0;
    const int pair = blockIdx.x / 2;
    const int pairs = gridDim.x / 2;

    if (threadIdx.x == 0) {
        for (int s = 0; s < S; ++s) {
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(&full_bar[s])),
                         "r"(1)); // SYNC: init full (the leader's arrive.expect_tx)
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(&empty_bar[s])),
                         "r"(1)); // SYNC: init empty (the leader's multicast commit)
        }
        for (int a = 0; a < ACC_STAGES; ++a) {
            asm volatile(
                "mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(&acc_full_bar[a])),
                "r"(1)); // SYNC: init acc_full (the leader's multicast commit)
            asm volatile(
                "mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(&acc_empty_bar[a])),
                "r"(2 * EPI_THREADS)); // SYNC: init acc_empty (both CTAs' epilogue threads)
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); // SYNC: init fence
    }
    if (warp == 1) {
        // SYNC: tcgen05.alloc pair (warp 1 of each CTA; writes the TMEM address to the slot)
        asm volatile("tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(
                         smem_addr(&tmem_base_slot)),
                     "r"(TMEM_COLS)
                     : "memory");
        asm volatile("tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;" ::: "memory");
    }
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory"); // SYNC: alloc fence before
    cluster_sync();                                                  // SYNC: setup cluster barrier
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");  // SYNC: alloc fence after
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
                    mbar_wait(smem_addr(&empty_bar[s]), phase ^ 1); // SYNC: empty wait
                    const uint32_t leader_full = cluster_addr(smem_addr(&full_bar[s]), 0);
                    if (leader) {
#if PTXMC_MUTANT == MUTANT_LEADER_BYTES_ONLY
                        const uint32_t tx = CTA_TX;
#else
                        const uint32_t tx = 2 * CTA_TX;
#endif
                        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                                         smem_addr(&full_bar[s])),
                                     "r"(tx)
                                     : "memory"); // SYNC: full arrive.expect_tx (both CTAs' bytes)
                    }
                    asm volatile(
                        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
                        "complete_tx::bytes.cta_group::2 [%0], [%1, {%2, %3}], [%4];" ::"r"(
                            smem_addr(&smem_a[s][0])),
                        "l"(reinterpret_cast<uint64_t>(&tmap_a)), "r"(kb * BK), "r"(m0),
                        "r"(leader_full)
                        : "memory"); // SYNC: TMA load A half
                    asm volatile(
                        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
                        "complete_tx::bytes.cta_group::2 [%0], [%1, {%2, %3}], [%4];" ::"r"(
                            smem_addr(&smem_b[s][0])),
                        "l"(reinterpret_cast<uint64_t>(&tmap_b)), "r"(kb * BK), "r"(n0),
                        "r"(leader_full)
                        : "memory"); // SYNC: TMA load B half
                    if (++s == S) {
                        s = 0;
                        phase ^= 1;
                    }
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
                mbar_wait(smem_addr(&acc_empty_bar[acc]), acc_phase ^ 1); // SYNC: acc_empty wait
                asm volatile("tcgen05.fence::after_thread_sync;" ::
                                 : "memory"); // SYNC: fence after acc_empty
                const uint32_t d_tmem = tmem_base + acc * BN;
                for (int kb = 0; kb < k_blocks; ++kb) {
                    mbar_wait(smem_addr(&full_bar[s]), phase); // SYNC: full wait
                    asm volatile("tcgen05.fence::after_thread_sync;" ::
                                     : "memory"); // SYNC: fence after full
                    const uint32_t a_base = smem_addr(&smem_a[s][0]);
                    const uint32_t b_base = smem_addr(&smem_b[s][0]);
#pragma unroll
                    for (int kk = 0; kk < BK / UK; ++kk) {
                        const uint32_t accumulate = (kb > 0 || kk > 0) ? 1u : 0u;
                        asm volatile(
                            "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
                            "tcgen05.mma.cta_group::2.kind::f16 [%0], %1, %2, %3, p;\n\t}" ::"r"(
                                d_tmem),
                            "l"(make_smem_desc(a_base + kk * UK * 2)),
                            "l"(make_smem_desc(b_base + kk * UK * 2)), "r"(kIdesc),
                            "r"(accumulate)
                            : "memory"); // SYNC: tcgen05.mma cta_group::2
                    }
#if PTXMC_MUTANT == MUTANT_NO_MULTICAST
                    asm volatile("tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::"
                                 "cluster.b64 [%0];" ::"r"(smem_addr(&empty_bar[s]))
                                 : "memory"); // SYNC: commit to empty (leader only)
#else
                    // SYNC: multicast commit to empty (both CTAs' empty[s])
                    asm volatile(
                        "tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::"
                        "cluster.multicast::cluster.b64 [%0], %1;" ::"r"(smem_addr(&empty_bar[s])),
                        "h"(PAIR_MASK)
                        : "memory");
#endif
                    if (++s == S) {
                        s = 0;
                        phase ^= 1;
                    }
                }
                // SYNC: multicast commit to acc_full (both CTAs' epilogues)
                asm volatile(
                    "tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster."
                    "multicast::cluster.b64 [%0], %1;" ::"r"(smem_addr(&acc_full_bar[acc])),
                    "h"(PAIR_MASK)
                    : "memory");
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
            mbar_wait(smem_addr(&acc_full_bar[acc]), acc_phase); // SYNC: acc_full wait
            asm volatile("tcgen05.fence::after_thread_sync;" ::
                             : "memory"); // SYNC: fence after acc_full
            uint32_t v[BN];
#pragma unroll
            for (int j = 0; j < BN / 16; ++j) {
                const uint32_t taddr = tmem_base + lane_base + acc * BN + j * 16;
                asm volatile(
                    "tcgen05.ld.sync.aligned.32x32b.x16.b32 {%0, %1, %2, %3, %4, %5, %6, %7, "
                    "%8, %9, %10, %11, %12, %13, %14, %15}, [%16];"
                    : "=r"(v[16 * j + 0]), "=r"(v[16 * j + 1]), "=r"(v[16 * j + 2]),
                      "=r"(v[16 * j + 3]), "=r"(v[16 * j + 4]), "=r"(v[16 * j + 5]),
                      "=r"(v[16 * j + 6]), "=r"(v[16 * j + 7]), "=r"(v[16 * j + 8]),
                      "=r"(v[16 * j + 9]), "=r"(v[16 * j + 10]), "=r"(v[16 * j + 11]),
                      "=r"(v[16 * j + 12]), "=r"(v[16 * j + 13]), "=r"(v[16 * j + 14]),
                      "=r"(v[16 * j + 15])
                    : "r"(taddr)
                    : "memory"); // SYNC: tcgen05.ld
            }
            asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory"); // SYNC: tcgen05.wait::ld
            asm volatile("tcgen05.fence::before_thread_sync;" ::
                             : "memory"); // SYNC: fence before acc_empty
#if PTXMC_MUTANT == MUTANT_LOCAL_ACC_EMPTY
            const uint32_t acc_empty = smem_addr(&acc_empty_bar[acc]);
#else
            const uint32_t acc_empty = cluster_addr(smem_addr(&acc_empty_bar[acc]), 0);
#endif
            asm volatile(
                "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(acc_empty)
                : "memory"); // SYNC: acc_empty arrive (on the leader's barrier)
#pragma unroll
            for (int j = 0; j < BN; ++j)
                c[size_t(row) * N + n0 + j] = __uint_as_float(v[j]);
            if (++acc == ACC_STAGES) {
                acc = 0;
                acc_phase ^= 1;
            }
        }
    }

    // ---- teardown: both CTAs' accesses to the pair's TMEM end before the joint dealloc ----
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory"); // SYNC: fence before teardown
#if PTXMC_MUTANT == MUTANT_NO_TEARDOWN_CLUSTER_SYNC
    __syncthreads(); // SYNC: teardown barrier (this CTA only)
#else
    cluster_sync(); // SYNC: teardown cluster barrier
#endif
    if (warp == 1) {
        asm volatile("tcgen05.fence::after_thread_sync;" ::
                         : "memory"); // SYNC: fence after teardown
        asm volatile("tcgen05.dealloc.cta_group::2.sync.aligned.b32 %0, %1;" ::"r"(tmem_base),
                     "r"(TMEM_COLS)
                     : "memory"); // SYNC: tcgen05.dealloc pair
    }
}

} // namespace blackwell_gemm_2sm
