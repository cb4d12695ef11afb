// Hopper sm_90a TMA + wgmma ring written the way CUTLASS's pipelines probe and wait; -DPTXMC_MUTANT=N breaks one.
#include "ptx_sync.cuh"

#include <cuda.h>
#include <cuda_fp16.h>
#include <stdint.h>

// The same GEMM ring as hopper_tma_wgmma.cu, with CUTLASS's probe-then-wait tokens (its
// PipelineTmaAsync::consumer_try_wait / consumer_wait(state, token) and producer_try_acquire /
// producer_acquire(state, token)): a try_wait probes a stage early, other instructions run, and
// the thread spins on the stage later only if the probe returned False. "If the phase ... is
// complete, mbarrier.try_wait returns True" (9.7.15.16.19 #parallel-synchronization-and-
// communication-instructions-mbarrier-test-wait-try-wait): a probe that returned True is a wait
// that acquired. The consumer also rescales its accumulators by a factor computed from their
// values (the online-softmax step of FlashAttention-3), a branch on data.
#define MUTANT_NONE 0
// The consumer probes full[s] but never waits on it: a stage the probe found incomplete is read
// by wgmma before the TMA wrote it (data race, 9.7.15.16.19).
#define MUTANT_NO_TOKEN_WAIT 1
// The consumer probes and waits full[s] with the parity of the phase before, which has
// completed: probe and wait return at once (9.7.15.16.19: the parity names "the current phase
// or the immediately preceding phase"), and wgmma reads the stage unordered after its refill.
#define MUTANT_WRONG_PARITY 2
// The rescale of the accumulators runs before wgmma.wait_group: "Accessing the accumulator
// register ... without first performing a wgmma.wait_group instruction that waits on a
// wgmma-group including that wgmma.mma_async instruction is undefined behavior" (9.7.17.7.3
// #asynchronous-warpgroup-level-matrix-instructions-wgmma-wait-group).
#define MUTANT_RESCALE_BEFORE_WAIT 3
// The producer probes empty[s] but never waits on it: the refill of a stage races the wgmma
// read of the round before (9.7.17.4 #asynchronous-warpgroup-level-matrix-async-proxy).
#define MUTANT_NO_EMPTY_WAIT 4

#ifndef PTXMC_MUTANT
#define PTXMC_MUTANT MUTANT_NONE
#endif

namespace token_pipeline {

constexpr int S = 2;                          // pipeline stages
constexpr int BM = 64;                        // tile rows (one m64 wgmma)
constexpr int BN = 64;                        // tile columns (n64)
constexpr int BK = 64;                        // k per stage: 64 halves = one 128-byte swizzle row
constexpr int WK = 16;                        // k per wgmma
constexpr int CONSUMERS = 128;                // warps 0-3: the wgmma warpgroup
constexpr int THREADS = CONSUMERS + 32;       // warp 4: the TMA producer
constexpr uint32_t TILE_BYTES = BM * BK * 2;  // one A (or B) tile, f16
constexpr uint32_t STAGE_TX = 2 * TILE_BYTES; // bytes the full barrier expects per phase

__device__ __forceinline__ uint64_t make_smem_desc(uint32_t addr) {
    uint64_t desc = 0;
    desc |= static_cast<uint64_t>((addr & 0x3FFFF) >> 4);
    desc |= static_cast<uint64_t>(16 >> 4) << 16;
    desc |= static_cast<uint64_t>(1024 >> 4) << 32;
    desc |= static_cast<uint64_t>(1) << 62;
    return desc;
}

using ptx::smem_addr;

#if PTXMC_MUTANT == MUTANT_WRONG_PARITY
#define FULL_PARITY(p) ((p) ^ 1)
#else
#define FULL_PARITY(p) (p)
#endif

// Multiplies the accumulators by exp(old max - new max) when a lane saw a new maximum: a
// branch on the accumulators' values that only computes on registers.
__device__ __forceinline__ void rescale(float (&acc)[32], float& run_max) {
    float m = acc[0];
#pragma unroll
    for (int i = 1; i < 32; ++i)
        m = fmaxf(m, acc[i]);
    if (__any_sync(0xffffffffu, m > run_max)) {
        const float scale = __expf(run_max - fmaxf(m, run_max));
#pragma unroll
        for (int i = 0; i < 32; ++i)
            acc[i] *= scale;
        run_max = fmaxf(m, run_max);
    }
}

extern "C" __global__ void __launch_bounds__(THREADS, 1)
    hopper_token_pipeline(const __grid_constant__ CUtensorMap tmap_a,
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
    __syncthreads(); // SYNC: init barrier

    if (warp == CONSUMERS / 32) {
        // ---- producer warp: every lane probes and waits, one elected lane loads ----
        int s = 0;
        uint32_t phase = 0;
        for (int kb = 0; kb < k_blocks; ++kb) {
            const uint32_t eb = smem_addr(&empty_bar[s]);
            const uint32_t token = ptx::mbar_try_wait(eb, phase ^ 1); // SYNC: empty probe
            const uint32_t leader = ptx::elect_one();                 // SYNC: elect
#if PTXMC_MUTANT != MUTANT_NO_EMPTY_WAIT
            if (!token) ptx::mbar_wait(eb, phase ^ 1); // SYNC: empty wait
#endif
            if (leader) {
                const uint32_t fb = smem_addr(&full_bar[s]);
                ptx::mbar_arrive_expect_tx(fb, STAGE_TX);                    // SYNC: full arrive.expect_tx
                ptx::tma_load_2d(smem_addr(&smem_a[s][0]), &tmap_a, kb * BK, m0, fb); // SYNC: TMA load A
                ptx::tma_load_2d(smem_addr(&smem_b[s][0]), &tmap_b, kb * BK, n0, fb); // SYNC: TMA load B
            }
            __syncwarp(); // SYNC: producer warp sync
            if (++s == S) {
                s = 0;
                phase ^= 1;
            }
        }
        // Producer tail: every stage released before the warp leaves.
        for (int i = 0; i < S; ++i) {
            ptx::mbar_wait(smem_addr(&empty_bar[s]), phase ^ 1); // SYNC: producer tail
            if (++s == S) {
                s = 0;
                phase ^= 1;
            }
        }
        return;
    }

    // ---- consumer warpgroup (warps 0-3) ----
    float acc[32];
#pragma unroll
    for (int i = 0; i < 32; ++i)
        acc[i] = 0.0f;
    float run_max = -INFINITY;

    int s = 0;
    uint32_t phase = 0;
    uint32_t token = ptx::mbar_try_wait(smem_addr(&full_bar[0]), FULL_PARITY(0)); // SYNC: full probe
    for (int kb = 0; kb < k_blocks; ++kb) {
#if PTXMC_MUTANT != MUTANT_NO_TOKEN_WAIT
        if (!token) ptx::mbar_wait(smem_addr(&full_bar[s]), FULL_PARITY(phase)); // SYNC: full wait
#endif
        ptx::wgmma_fence(); // SYNC: wgmma fence
        const uint32_t a_base = smem_addr(&smem_a[s][0]);
        const uint32_t b_base = smem_addr(&smem_b[s][0]);
#pragma unroll
        for (int kk = 0; kk < BK / WK; ++kk) {
            const uint64_t da = make_smem_desc(a_base + kk * WK * 2);
            const uint64_t db = make_smem_desc(b_base + kk * WK * 2);
            const uint32_t scale_d = (kb > 0 || kk > 0) ? 1u : 0u;
            ptx::wgmma_m64n64k16(acc, da, db, scale_d); // SYNC: wgmma.mma_async
        }
        ptx::wgmma_commit_group(); // SYNC: wgmma commit
#if PTXMC_MUTANT == MUTANT_RESCALE_BEFORE_WAIT
        rescale(acc, run_max); // SYNC: accumulator rescale (before the wait)
#endif
        ptx::wgmma_wait_group_0(); // SYNC: wgmma wait
#if PTXMC_MUTANT != MUTANT_RESCALE_BEFORE_WAIT
        rescale(acc, run_max); // SYNC: accumulator rescale
#endif
        // Probe the next stage before releasing this one (CUTLASS's mainloop overlap).
        const int next = s + 1 == S ? 0 : s + 1;
        const uint32_t next_phase = s + 1 == S ? phase ^ 1 : phase;
        if (kb + 1 < k_blocks)
            token = ptx::mbar_try_wait(smem_addr(&full_bar[next]), FULL_PARITY(next_phase)); // SYNC: full probe
        ptx::mbar_arrive(smem_addr(&empty_bar[s])); // SYNC: empty arrive
        s = next;
        phase = next_phase;
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
    ptx::fence_proxy_async_smem();     // SYNC: proxy fence
    ptx::named_bar_sync(1, CONSUMERS); // SYNC: epilogue barrier
    if (threadIdx.x == 0) {
        ptx::tma_store_2d(&tmap_c, n0, m0, smem_addr(&smem_c[0])); // SYNC: TMA store C
        ptx::bulk_commit_group();                                  // SYNC: store commit
        ptx::bulk_wait_group_0();                                  // SYNC: store wait
    }
}

} // namespace token_pipeline
