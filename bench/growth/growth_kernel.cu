// The growth bench's kernel: a warp-specialized Blackwell GEMM sized by -D macros and parameters.
#include "ptx_sync.cuh"

#include <cuda.h>
#include <stdint.h>

// Knobs (bench/growth.sh varies one at a time). Compile time:
//   GROWTH_STAGES     smem stages of the TMA -> MMA ring (2-8)
//   GROWTH_CONSUMERS  MMA warps; each reads the A stage and its own N slice of the B stage into
//                     its own accumulator, and each commits to empty[s] (1-4)
//   GROWTH_EPI_WARPS  epilogue warps; warp w reads TMEM lane quarter w % 4, columns split
//                     between the warps of one quarter (1, 2, 4, 8, 16)
//   GROWTH_CLUSTER    CTAs per cluster; A is multicast (each CTA loads 1/CLUSTER of its rows
//                     into every CTA), so empty[s] waits for the MMA commits of every CTA (1-16)
//   GROWTH_MULTICAST  1: A multicast as above; 0 (default): each CTA loads all of A itself and
//                     its MMA warps release only its own stages, so the CTAs share only the
//                     cluster barriers. With 1, ptxmc's expect_tx shares do not count a
//                     multicast copy's bytes at the other CTAs, and a 2-CTA cluster reports a
//                     false mbarrier-misuse and data-race. (Releasing every CTA's stage without
//                     the multicast is wrong: a CTA may then arrive on a peer's empty[s] one
//                     phase ahead of the peer's producer.)
// Run time (--param): k_blocks (param 3, one ring slot each) and tiles (param 4, per cluster).
#ifndef GROWTH_STAGES
#define GROWTH_STAGES 2
#endif
#ifndef GROWTH_CONSUMERS
#define GROWTH_CONSUMERS 1
#endif
#ifndef GROWTH_EPI_WARPS
#define GROWTH_EPI_WARPS 4
#endif
#ifndef GROWTH_CLUSTER
#define GROWTH_CLUSTER 1
#endif
#ifndef GROWTH_MULTICAST
#define GROWTH_MULTICAST 0
#endif

namespace growth {

constexpr int S = GROWTH_STAGES;
constexpr int C = GROWTH_CONSUMERS;
constexpr int E = GROWTH_EPI_WARPS;
constexpr int CL = GROWTH_CLUSTER;
constexpr int RELEASERS = GROWTH_MULTICAST ? CL : 1; // CTAs whose MMA warps release a stage
constexpr int ACC_STAGES = 2;                        // accumulator stages per consumer
constexpr int BM = 128;                              // tile rows = TMEM lanes
constexpr int BN = 64;                               // columns of one consumer's accumulator
constexpr int BK = 32;                               // k per stage (halves)
constexpr int UK = 16;                               // k per tcgen05.mma (kind::f16)
constexpr int GROUPS = (E + 3) / 4;                  // epilogue warps per lane quarter
constexpr int EPI_COLS = BN / GROUPS;                // accumulator columns one epilogue warp reads
constexpr int EPI_THREADS = 32 * E;
constexpr int THREADS = 32 * (1 + C) + EPI_THREADS; // warp 0 TMA, warps 1..C MMA, then epilogue
constexpr uint32_t STAGE_TX = (BM + C * BN) * BK * 2;
static_assert(BM % CL == 0 && EPI_COLS % 16 == 0, "knob out of range");

// tcgen05.alloc takes a power of two from 32 columns.
constexpr uint32_t pow2_at_least(uint32_t n, uint32_t p = 32) {
    return p >= n ? p : pow2_at_least(n, 2 * p);
}
constexpr uint32_t TMEM_COLS = pow2_at_least(C * ACC_STAGES * BN);

// UMMA shared-memory descriptor (sm_100): K-major, 64-byte swizzle, 8-row groups 512 B apart.
__device__ __forceinline__ uint64_t make_smem_desc(uint32_t addr) {
    return static_cast<uint64_t>((addr & 0x3FFFF) >> 4) | (static_cast<uint64_t>(1) << 16) |
           (static_cast<uint64_t>(512 >> 4) << 32) | (static_cast<uint64_t>(1) << 46) |
           (static_cast<uint64_t>(4) << 61);
}
constexpr uint32_t kIdesc = (1u << 4) | (uint32_t(BN >> 3) << 17) | (uint32_t(BM >> 4) << 24);

__device__ __forceinline__ void st_shared_v4(uint32_t addr, const uint32_t* v) {
    asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(v[0]), "r"(v[1]),
                 "r"(v[2]), "r"(v[3])
                 : "memory");
}

using ptx::smem_addr;

extern "C" __global__ void __launch_bounds__(THREADS, 1)
    growth_gemm(const __grid_constant__ CUtensorMap tmap_a,
                const __grid_constant__ CUtensorMap tmap_b,
                const __grid_constant__ CUtensorMap tmap_c, int k_blocks, int tiles) {
    __shared__ alignas(1024) uint16_t smem_a[S][BM * BK];
    __shared__ alignas(1024) uint16_t smem_b[S][C * BN * BK];
    __shared__ alignas(1024) float smem_c[BM * BN];
    __shared__ alignas(8) uint64_t full_bar[S];
    __shared__ alignas(8) uint64_t empty_bar[S];
    __shared__ alignas(8) uint64_t acc_full_bar[C][ACC_STAGES];
    __shared__ alignas(8) uint64_t acc_empty_bar[C][ACC_STAGES];
    __shared__ uint32_t tmem_base_slot;

    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    const uint32_t rank = ptx::cluster_ctarank();
#if GROWTH_MULTICAST
    const uint16_t all_ctas = static_cast<uint16_t>((1u << CL) - 1);
#endif

    if (threadIdx.x == 0) {
        for (int s = 0; s < S; ++s) {
            ptx::mbar_init(smem_addr(&full_bar[s]), 1);              // SYNC: init full
            ptx::mbar_init(smem_addr(&empty_bar[s]), C * RELEASERS); // SYNC: init empty
        }
        for (int c = 0; c < C; ++c)
            for (int a = 0; a < ACC_STAGES; ++a) {
                const uint32_t afb = smem_addr(&acc_full_bar[c][a]);
                const uint32_t aeb = smem_addr(&acc_empty_bar[c][a]);
                ptx::mbar_init(afb, 1);           // SYNC: init acc_full
                ptx::mbar_init(aeb, EPI_THREADS); // SYNC: init acc_empty
            }
        ptx::fence_mbarrier_init(); // SYNC: init fence
    }
    if (warp == 1) {
        ptx::tmem_alloc<1>(smem_addr(&tmem_base_slot), TMEM_COLS); // SYNC: tcgen05.alloc
        ptx::tmem_relinquish_alloc_permit<1>();                    // SYNC: relinquish
    }
    // Other CTAs' copies and commits reach this CTA's barriers: a cluster barrier after init.
    ptx::tcgen05_fence_before(); // SYNC: alloc fence before
    ptx::cluster_sync();         // SYNC: setup cluster barrier
    ptx::tcgen05_fence_after();  // SYNC: alloc fence after
    const uint32_t tmem_base = tmem_base_slot;

    if (warp == 0) {
        // ---- TMA producer: one lane ----
        if (lane == 0) {
            int s = 0;
            uint32_t phase = 0;
            for (int tile = 0; tile < tiles; ++tile) {
                for (int kb = 0; kb < k_blocks; ++kb) {
                    ptx::mbar_wait_cluster(smem_addr(&empty_bar[s]), phase ^ 1); // SYNC: empty wait
                    const uint32_t fb = smem_addr(&full_bar[s]);
                    ptx::mbar_arrive_expect_tx(fb, STAGE_TX); // SYNC: full arrive.expect_tx
#if GROWTH_MULTICAST
                    // this CTA's rows of A go to every CTA of the cluster, at the same offset
                    constexpr int A_ROWS = BM / CL;
                    ptx::tma_load_2d_multicast(smem_addr(&smem_a[s][rank * A_ROWS * BK]), &tmap_a,
                                               kb * BK, tile * BM + rank * A_ROWS, fb,
                                               all_ctas); // SYNC: TMA load A (multicast)
#else
                    ptx::tma_load_2d(smem_addr(&smem_a[s][0]), &tmap_a, kb * BK,
                                     (tile * CL + rank) * BM, fb);    // SYNC: TMA load A
#endif
                    ptx::tma_load_2d(smem_addr(&smem_b[s][0]), &tmap_b, kb * BK,
                                     (tile * CL + rank) * C * BN, fb); // SYNC: TMA load B
                    if (++s == S) {
                        s = 0;
                        phase ^= 1;
                    }
                }
            }
            // cute's producer_tail: every consumer of every CTA released every stage.
            for (int i = 0; i < S; ++i) {
                ptx::mbar_wait_cluster(smem_addr(&empty_bar[s]), phase ^ 1); // SYNC: producer tail
                if (++s == S) {
                    s = 0;
                    phase ^= 1;
                }
            }
        }
    } else if (warp <= C) {
        // ---- MMA issuer c: one lane ----
        if (lane == 0) {
            const int c = warp - 1;
            int s = 0;
            uint32_t phase = 0;
            int acc = 0;
            uint32_t acc_phase = 0;
            for (int tile = 0; tile < tiles; ++tile) {
                const uint32_t aeb = smem_addr(&acc_empty_bar[c][acc]);
                ptx::mbar_wait(aeb, acc_phase ^ 1); // SYNC: acc_empty wait
                ptx::tcgen05_fence_after();         // SYNC: fence after acc_empty
                const uint32_t d_tmem = tmem_base + (c * ACC_STAGES + acc) * BN;
                for (int kb = 0; kb < k_blocks; ++kb) {
                    ptx::mbar_wait_cluster(smem_addr(&full_bar[s]), phase); // SYNC: full wait
                    ptx::tcgen05_fence_after(); // SYNC: fence after full
                    const uint32_t a_base = smem_addr(&smem_a[s][0]);
                    const uint32_t b_base = smem_addr(&smem_b[s][c * BN * BK]);
#pragma unroll
                    for (int kk = 0; kk < BK / UK; ++kk) {
                        const uint64_t da = make_smem_desc(a_base + kk * UK * 2);
                        const uint64_t db = make_smem_desc(b_base + kk * UK * 2);
                        const uint32_t acc_d = (kb > 0 || kk > 0) ? 1u : 0u;
                        ptx::tcgen05_mma_f16<1>(d_tmem, da, db, kIdesc, acc_d); // SYNC: tcgen05.mma
                    }
#if GROWTH_MULTICAST
                    // every CTA's producer multicast into this stage: release it in all of them
                    const uint32_t eb = smem_addr(&empty_bar[s]);
                    ptx::tcgen05_commit_multicast(eb, all_ctas); // SYNC: commit to empty
#else
                    ptx::tcgen05_commit<1>(smem_addr(&empty_bar[s])); // SYNC: commit to empty
#endif
                    if (++s == S) {
                        s = 0;
                        phase ^= 1;
                    }
                }
                const uint32_t afb = smem_addr(&acc_full_bar[c][acc]);
                ptx::tcgen05_commit<1>(afb); // SYNC: commit to acc_full
                if (++acc == ACC_STAGES) {
                    acc = 0;
                    acc_phase ^= 1;
                }
            }
        }
    } else {
        // ---- epilogue warp e: TMEM -> registers -> its part of smem_c -> one TMA store ----
        const int e = warp - 1 - C;
        const int quarter = warp % 4; // tcgen05.ld reaches lanes 32 (warp % 4) .. + 31
        const int col0 = (e / 4) * EPI_COLS;
        const uint32_t lane_base = static_cast<uint32_t>(quarter * 32) << 16;
        const uint32_t c_row = smem_addr(&smem_c[(quarter * 32 + lane) * BN]);
        int acc = 0;
        uint32_t acc_phase = 0;
        for (int tile = 0; tile < tiles; ++tile) {
            for (int c = 0; c < C; ++c) {
                ptx::mbar_wait(smem_addr(&acc_full_bar[c][acc]), acc_phase); // SYNC: acc_full wait
                ptx::tcgen05_fence_after(); // SYNC: fence after acc_full
                uint32_t v[EPI_COLS / 16][16];
                const uint32_t taddr = tmem_base + lane_base + (c * ACC_STAGES + acc) * BN + col0;
#pragma unroll
                for (int j = 0; j < EPI_COLS / 16; ++j)
                    ptx::tmem_ld_32x32b_x16(v[j], taddr + j * 16);   // SYNC: tcgen05.ld
                ptx::tmem_wait_ld();                                 // SYNC: tcgen05.wait::ld
                ptx::tcgen05_fence_before();                         // SYNC: fence before acc_empty
                ptx::mbar_arrive(smem_addr(&acc_empty_bar[c][acc])); // SYNC: acc_empty arrive
#pragma unroll
                for (int j = 0; j < EPI_COLS / 4; ++j)
                    st_shared_v4(c_row + (col0 + 4 * j) * 4,
                                 &v[j / 4][4 * (j % 4)]); // SYNC: smem_c store
                ptx::fence_proxy_async_smem();            // SYNC: proxy fence
                ptx::named_bar_sync(1, EPI_THREADS);      // SYNC: epilogue barrier (written)
                if (e == 0 && lane == 0) {
                    ptx::tma_store_2d(&tmap_c, (tile * C + c) * BN, rank * BM,
                                      smem_addr(&smem_c[0])); // SYNC: TMA store C
                    ptx::bulk_commit_group();                 // SYNC: store commit
                    ptx::bulk_wait_group_0();                 // SYNC: store wait
                }
                ptx::named_bar_sync(1, EPI_THREADS); // SYNC: epilogue barrier (read)
            }
            if (++acc == ACC_STAGES) {
                acc = 0;
                acc_phase ^= 1;
            }
        }
    }

    // ---- teardown: no CTA leaves while another may still reach its barriers or TMEM ----
    ptx::tcgen05_fence_before(); // SYNC: fence before teardown
    ptx::cluster_sync();         // SYNC: teardown cluster barrier
    if (warp == 1) {
        ptx::tcgen05_fence_after();                 // SYNC: fence after teardown
        ptx::tmem_dealloc<1>(tmem_base, TMEM_COLS); // SYNC: tcgen05.dealloc
    }
}

} // namespace growth
