// Blackwell sm_100a 1-SM persistent TMA -> tcgen05.mma -> TMEM GEMM; -DPTXMC_MUTANT=N drops 1 sync.
#include "ptx_sync.cuh"

#include <cuda.h>
#include <stdint.h>

// Mutants (-DPTXMC_MUTANT=N): each removes ONE load-bearing synchronization; the answer a
// checker must give is in tests/kernel/README.md. Sections are PTX ISA 9.4.
#define MUTANT_NONE 0
// The MMA warp never waits on full[s]: tcgen05.mma reads a stage the TMA may not have written
// (data race, 9.7.15.16.19 #parallel-synchronization-and-communication-instructions-mbarrier-
// test-wait-try-wait, 9.7.18.6.5 #tcgen05-memory-consistency-model-smem-access), and the next
// arrive on full[s] finds no True wait in the phase before (9.7.15.16.5
// #parallel-synchronization-and-communication-instructions-mbarrier-phase).
#define MUTANT_DROP_FULL_WAIT 1
// The epilogue waits acc_full with parity acc_phase^1, the completed phase before: tcgen05.ld
// reads columns the mma may still write (tensor-memory race, 9.7.15.16.19, 9.7.18.6.4.4
// #tcgen05-memory-consistency-model-canonical-sync-patterns-non-pipelined-diff-thread).
#define MUTANT_WRONG_PARITY 2
// The producer refills stage s without waiting for the MMA's commit on empty[s] (data race with
// the mma's smem read, 9.7.18.12.1 #tcgen-async-sync-operations-commit; misuse, 9.7.15.16.5).
#define MUTANT_NO_EMPTY_WAIT 3
// No tcgen05.commit to acc_full: nothing completes its phase and the epilogue waits forever
// (9.7.18.12.1; 9.7.15.16.8 #parallel-synchronization-and-communication-instructions-mbarrier-
// phase-completion).
#define MUTANT_NO_ACC_COMMIT 4
// The allocating warp deallocates before the teardown barrier: the columns are freed while
// the mma may write and the epilogue's tcgen05.ld may read them (9.7.18.7.1
// #tcgen05-instructions-tcgen05-alloc-dealloc-relinquish-alloc-permit).
#define MUTANT_EARLY_DEALLOC 5
// No tcgen05.wait::ld: the epilogue releases the accumulator stage (and stores the registers)
// before its tcgen05.ld have completed; the next tile's mma into that stage races them
// (9.7.18.6.2.1.2 #tcgen05-memory-consistency-model-wait-completion, 9.7.18.8.5
// #tcgen05-instructions-tcgen05-wait).
#define MUTANT_NO_WAIT_LD 6
// The MMA warp never waits on acc_empty: a tile's mma overwrites an accumulator stage the
// epilogue still reads (tensor-memory race, 9.7.18.6.4.4), and the epilogue's arrives on
// acc_empty find no True wait in the phase before (9.7.15.16.5). Needs 3+ tiles per CTA.
#define MUTANT_NO_ACC_EMPTY_WAIT 7
// No tcgen05.fence::after_thread_sync between the epilogue's acc_full wait and its tcgen05.ld:
// under the literal text the ld is not ordered after the wait (9.7.18.6.3
// #tcgen05-memory-consistency-model-inter-thread-sync, 9.7.18.11.1
// #tcgen05-special-sync-operations-fence); decision Q1 in model/decisions.cat.
#define MUTANT_NO_FENCE_AFTER 8

#ifndef PTXMC_MUTANT
#define PTXMC_MUTANT MUTANT_NONE
#endif

namespace blackwell_gemm {

#ifndef PTXMC_STAGES
#define PTXMC_STAGES 2 // the scale bench (bench/kernels.sh) compiles 6
#endif
constexpr int S = PTXMC_STAGES;                 // smem pipeline stages
constexpr int ACC_STAGES = 2;                   // accumulator stages in tensor memory
constexpr int BM = 128;                         // tile rows = TMEM lanes
constexpr int BN = 64;                          // tile columns = TMEM columns per accumulator stage
constexpr int BK = 32;                          // k per stage: 32 halves = one 64-byte swizzle row
constexpr int UK = 16;                          // k per tcgen05.mma (kind::f16)
constexpr int EPI_THREADS = 128;                // warps 2-5
constexpr int THREADS = 64 + EPI_THREADS;       // warp 0 TMA, warp 1 MMA, warps 2-5 epilogue
constexpr uint32_t TMEM_COLS = ACC_STAGES * BN; // 128: a power of two >= 32
constexpr uint32_t STAGE_TX = (BM + BN) * BK * 2;

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

// Instruction descriptor, kind::f16: f32 accumulator, f16 A and B, both K-major, N and M.
constexpr uint32_t kIdesc = (1u << 4) | (uint32_t(BN >> 3) << 17) | (uint32_t(BM >> 4) << 24);

using ptx::smem_addr;

// C (M x N, f32) = A (M x K, f16) * B (N x K, f16)^T, tiles_n = N / BN, num_tiles = M/BM * N/BN.
// Each role runs the same persistent tile loop; the k-loop trip count is K / BK.
// Every synchronization is one line ending in a `// SYNC:` marker (tests/kernel/README.md).
extern "C" __global__ void __launch_bounds__(THREADS, 1)
    blackwell_umma_1sm_gemm(const __grid_constant__ CUtensorMap tmap_a,
                            const __grid_constant__ CUtensorMap tmap_b, float* __restrict__ c,
                            int N, int K, int tiles_n, int num_tiles) {
    __shared__ alignas(1024) uint16_t smem_a[S][BM * BK];
    __shared__ alignas(1024) uint16_t smem_b[S][BN * BK];
    __shared__ alignas(8) uint64_t full_bar[S];
    __shared__ alignas(8) uint64_t empty_bar[S];
    __shared__ alignas(8) uint64_t acc_full_bar[ACC_STAGES];
    __shared__ alignas(8) uint64_t acc_empty_bar[ACC_STAGES];
    __shared__ uint32_t tmem_base_slot;

    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    const int k_blocks = K / BK;

    if (threadIdx.x == 0) {
        for (int s = 0; s < S; ++s) {
            ptx::mbar_init(smem_addr(&full_bar[s]), 1);  // SYNC: init full
            ptx::mbar_init(smem_addr(&empty_bar[s]), 1); // SYNC: init empty
        }
        for (int a = 0; a < ACC_STAGES; ++a) {
            ptx::mbar_init(smem_addr(&acc_full_bar[a]), 1);            // SYNC: init acc_full
            ptx::mbar_init(smem_addr(&acc_empty_bar[a]), EPI_THREADS); // SYNC: init acc_empty
        }
        ptx::fence_mbarrier_init(); // SYNC: init fence
    }
    if (warp == 1) {
        ptx::tmem_alloc<1>(smem_addr(&tmem_base_slot), TMEM_COLS); // SYNC: tcgen05.alloc
        ptx::tmem_relinquish_alloc_permit<1>();                    // SYNC: relinquish
    }
    ptx::tcgen05_fence_before(); // SYNC: alloc fence before
    __syncthreads();             // SYNC: setup barrier
    ptx::tcgen05_fence_after();  // SYNC: alloc fence after
    const uint32_t tmem_base = tmem_base_slot;

    if (warp == 0) {
        // ---- TMA producer: one lane ----
        if (lane == 0) {
            int s = 0;
            uint32_t phase = 0;
            for (int tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
                const int m0 = (tile / tiles_n) * BM;
                const int n0 = (tile % tiles_n) * BN;
                for (int kb = 0; kb < k_blocks; ++kb) {
#if PTXMC_MUTANT != MUTANT_NO_EMPTY_WAIT
                    ptx::mbar_wait(smem_addr(&empty_bar[s]), phase ^ 1); // SYNC: empty wait
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
            }
            // Producer tail (cute's producer_tail): every stage released by the MMA's commits, so
            // no commit arrive or TMA load is still in flight when this thread leaves.
            for (int i = 0; i < S; ++i) {
                ptx::mbar_wait(smem_addr(&empty_bar[s]), phase ^ 1); // SYNC: producer tail
                if (++s == S) {
                    s = 0;
                    phase ^= 1;
                }
            }
        }
    } else if (warp == 1) {
        // ---- MMA issuer: one lane ----
        if (lane == 0) {
            int s = 0;
            uint32_t phase = 0;
            int acc = 0;
            uint32_t acc_phase = 0;
            for (int tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
                const uint32_t aeb = smem_addr(&acc_empty_bar[acc]);
#if PTXMC_MUTANT != MUTANT_NO_ACC_EMPTY_WAIT
                ptx::mbar_wait(aeb, acc_phase ^ 1); // SYNC: acc_empty wait
#endif
                ptx::tcgen05_fence_after();                   // SYNC: fence after acc_empty
                const uint32_t d_tmem = tmem_base + acc * BN; // column offset of this accumulator
                for (int kb = 0; kb < k_blocks; ++kb) {
#if PTXMC_MUTANT != MUTANT_DROP_FULL_WAIT
                    ptx::mbar_wait(smem_addr(&full_bar[s]), phase); // SYNC: full wait
#endif
                    ptx::tcgen05_fence_after(); // SYNC: fence after full
                    const uint32_t a_base = smem_addr(&smem_a[s][0]);
                    const uint32_t b_base = smem_addr(&smem_b[s][0]);
#pragma unroll
                    for (int kk = 0; kk < BK / UK; ++kk) {
                        const uint64_t da = make_smem_desc(a_base + kk * UK * 2);
                        const uint64_t db = make_smem_desc(b_base + kk * UK * 2);
                        const uint32_t acc_d = (kb > 0 || kk > 0) ? 1u : 0u;
                        ptx::tcgen05_mma_f16<1>(d_tmem, da, db, kIdesc, acc_d); // SYNC: tcgen05.mma
                    }
                    // arrives once the mma above have read the stage
                    ptx::tcgen05_commit<1>(smem_addr(&empty_bar[s])); // SYNC: commit to empty
                    if (++s == S) {
                        s = 0;
                        phase ^= 1;
                    }
                }
#if PTXMC_MUTANT != MUTANT_NO_ACC_COMMIT
                // arrives once every mma of this tile has written tensor memory
                ptx::tcgen05_commit<1>(smem_addr(&acc_full_bar[acc])); // SYNC: commit to acc_full
#endif
                if (++acc == ACC_STAGES) {
                    acc = 0;
                    acc_phase ^= 1;
                }
            }
        }
    } else {
        // ---- epilogue warps 2-5: warp w reads TMEM lanes 32*(w%4) .. 32*(w%4)+31 ----
        const uint32_t lane_base = static_cast<uint32_t>((warp % 4) * 32) << 16;
        int acc = 0;
        uint32_t acc_phase = 0;
        for (int tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
            const int row = (tile / tiles_n) * BM + (warp % 4) * 32 + lane;
            const int n0 = (tile % tiles_n) * BN;
            const uint32_t afb = smem_addr(&acc_full_bar[acc]);
#if PTXMC_MUTANT == MUTANT_WRONG_PARITY
            ptx::mbar_wait(afb, acc_phase ^ 1); // SYNC: acc_full wait (wrong parity)
#else
            ptx::mbar_wait(afb, acc_phase); // SYNC: acc_full wait
#endif
#if PTXMC_MUTANT != MUTANT_NO_FENCE_AFTER
            ptx::tcgen05_fence_after(); // SYNC: fence after acc_full
#endif
            uint32_t v[BN / 16][16];
#pragma unroll
            for (int j = 0; j < BN / 16; ++j) {
                const uint32_t taddr = tmem_base + lane_base + acc * BN + j * 16;
                ptx::tmem_ld_32x32b_x16(v[j], taddr); // SYNC: tcgen05.ld
            }
#if PTXMC_MUTANT != MUTANT_NO_WAIT_LD
            ptx::tmem_wait_ld(); // SYNC: tcgen05.wait::ld
#endif
            ptx::tcgen05_fence_before();                      // SYNC: fence before acc_empty
            ptx::mbar_arrive(smem_addr(&acc_empty_bar[acc])); // SYNC: acc_empty arrive
#pragma unroll
            for (int j = 0; j < BN; ++j)
                c[size_t(row) * N + n0 + j] = __uint_as_float(v[j / 16][j % 16]);
            if (++acc == ACC_STAGES) {
                acc = 0;
                acc_phase ^= 1;
            }
        }
    }

    // ---- teardown: the allocating warp frees TMEM after every reader is done ----
#if PTXMC_MUTANT == MUTANT_EARLY_DEALLOC
    if (warp == 1) ptx::tmem_dealloc<1>(tmem_base, TMEM_COLS); // SYNC: tcgen05.dealloc (too early)
#endif
    ptx::tcgen05_fence_before(); // SYNC: fence before teardown
    __syncthreads();             // SYNC: teardown barrier
#if PTXMC_MUTANT != MUTANT_EARLY_DEALLOC
    if (warp == 1) {
        ptx::tcgen05_fence_after();                 // SYNC: fence after teardown
        ptx::tmem_dealloc<1>(tmem_base, TMEM_COLS); // SYNC: tcgen05.dealloc
    }
#endif
}

} // namespace blackwell_gemm
