// Hopper sm_90a TMA + wgmma warp-specialized GEMM ring; -DPTXMC_MUTANT=N drops one sync.
#include <cuda.h>
#include <cuda_fp16.h>
#include <stdint.h>

// Mutants (-DPTXMC_MUTANT=N): each removes ONE load-bearing synchronization; the answer a
// checker must give is in tests/kernels/README.md. Sections are PTX ISA 9.4.
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
// in model/decisions.cat; issue 32 item 7(d)).
#define MUTANT_NO_INIT_SYNC 7
// No cp.async.bulk.wait_group 0 after the TMA store: the thread exits with its bulk async-group
// pending, still reading shared memory (9.7.10.28.6.2 #data-movement-and-conversion-instructions-
// cp-async-bulk-wait-group; issue 32 item 7(c)).
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
#endif

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// Consumer-side wait: the nvcc inline-asm spin shape (CUTLASS ClusterBarrier::wait).
__device__ __forceinline__ void wait_full(uint32_t bar, uint32_t parity) {
#ifndef PTXMC_WATCHDOG
    asm volatile("{\n\t.reg .pred P1;\n"
                 "LAB_WAIT:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n\t"
                 "@P1 bra DONE;\n\t"
                 "bra LAB_WAIT;\n"
                 "DONE:\n\t}" ::"r"(bar),
                 "r"(parity)
                 : "memory");
#else
    const long long start = clock64();
    for (;;) {
        uint32_t ok;
        asm volatile(
            "{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
            "selp.b32 %0, 1, 0, p;\n\t}"
            : "=r"(ok)
            : "r"(bar), "r"(parity)
            : "memory");
        if (ok) return;
        if (clock64() - start > PTXMC_WATCHDOG_CYCLES) {
            atomicExch(&g_watchdog_fired, 1u);
            return;
        }
    }
#endif
}

// Producer-side wait: a C++ spin loop around a try_wait probe (CUTLASS's try_wait + loop shape).
__device__ __forceinline__ void wait_empty(uint32_t bar, uint32_t parity) {
#ifdef PTXMC_WATCHDOG
    const long long start = clock64();
#endif
    uint32_t ok = 0;
    while (!ok) {
        asm volatile(
            "{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
            "selp.b32 %0, 1, 0, p;\n\t}"
            : "=r"(ok)
            : "r"(bar), "r"(parity)
            : "memory");
#ifdef PTXMC_WATCHDOG
        if (!ok && clock64() - start > PTXMC_WATCHDOG_CYCLES) {
            atomicExch(&g_watchdog_fired, 1u);
            return;
        }
#endif
    }
}

// wgmma shared-memory matrix descriptor: K-major tile, 128-byte swizzle, 8-row groups 1024 B apart.
__device__ __forceinline__ uint64_t make_smem_desc(uint32_t addr) {
    uint64_t desc = 0;
    desc |= static_cast<uint64_t>((addr & 0x3FFFF) >> 4); // start address
    desc |= static_cast<uint64_t>(16 >> 4) << 16;         // leading byte offset (unused)
    desc |= static_cast<uint64_t>(1024 >> 4) << 32;       // stride byte offset
    desc |= static_cast<uint64_t>(1) << 62;               // layout: 128-byte swizzle
    return desc;
}

__device__ __forceinline__ void wgmma_m64n64k16(float (&d)[32], uint64_t a, uint64_t b,
                                                uint32_t accumulate) {
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %34, 0;\n\t"
                 "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
                 "%32, %33, p, 1, 1, 0, 0;\n\t}"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                   "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                   "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                   "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                   "+f"(d[30]), "+f"(d[31])
                 : "l"(a), "l"(b), "r"(accumulate)
                 : "memory");
}

// C = A * B^T: A is M x K, B is N x K (both K contiguous, f16), C is M x N (f16).
// One CTA computes one BM x BN tile of C; K / BK k-blocks go through the S-stage ring.
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
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(&full_bar[s])),
                         "r"(1)); // SYNC: init full (the producer's arrive.expect_tx)
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(&empty_bar[s])),
                         "r"(CONSUMERS)); // SYNC: init empty (one arrive per consumer thread)
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); // SYNC: init fence
    }
#if PTXMC_MUTANT != MUTANT_NO_INIT_SYNC
    __syncthreads(); // SYNC: init barrier
#endif

    if (warp == CONSUMERS / 32) {
        // ---- producer warp: one elected lane issues the TMA loads ----
        uint32_t elected = 0;
        asm volatile("{\n\t.reg .b32 rx;\n\t.reg .pred px;\n\telect.sync rx|px, %1;\n\t"
                     "selp.b32 %0, 1, 0, px;\n\t}"
                     : "=r"(elected)
                     : "r"(0xffffffffu));
        if (elected) {
            int s = 0;
            uint32_t phase = 0;
            for (int kb = 0; kb < k_blocks; ++kb) {
#if PTXMC_MUTANT != MUTANT_NO_EMPTY_WAIT
                wait_empty(smem_addr(&empty_bar[s]), phase ^ 1); // SYNC: empty wait
#endif
                const uint32_t fb = smem_addr(&full_bar[s]);
                asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(fb),
                             "r"(STAGE_TX)
                             : "memory"); // SYNC: full arrive.expect_tx
                asm volatile(
                    "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                    " [%0], [%1, {%2, %3}], [%4];" ::"r"(smem_addr(&smem_a[s][0])),
                    "l"(reinterpret_cast<uint64_t>(&tmap_a)), "r"(kb * BK), "r"(m0), "r"(fb)
                    : "memory"); // SYNC: TMA load A
                asm volatile(
                    "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                    " [%0], [%1, {%2, %3}], [%4];" ::"r"(smem_addr(&smem_b[s][0])),
                    "l"(reinterpret_cast<uint64_t>(&tmap_b)), "r"(kb * BK), "r"(n0), "r"(fb)
                    : "memory"); // SYNC: TMA load B
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
        wait_full(smem_addr(&full_bar[s]), phase ^ 1); // SYNC: full wait (wrong parity)
#elif PTXMC_MUTANT != MUTANT_DROP_FULL_WAIT
        wait_full(smem_addr(&full_bar[s]), phase); // SYNC: full wait
#endif
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); // SYNC: wgmma fence
        const uint32_t a_base = smem_addr(&smem_a[s][0]);
        const uint32_t b_base = smem_addr(&smem_b[s][0]);
#pragma unroll
        for (int kk = 0; kk < BK / WK; ++kk) {
            // k16 step = 32 bytes further along the swizzled 128-byte row
            wgmma_m64n64k16(acc, make_smem_desc(a_base + kk * WK * 2),
                            make_smem_desc(b_base + kk * WK * 2),
                            (kb > 0 || kk > 0) ? 1u : 0u); // SYNC: wgmma.mma_async
        }
#if PTXMC_MUTANT != MUTANT_NO_WGMMA_COMMIT
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); // SYNC: wgmma commit
#endif
#if PTXMC_MUTANT != MUTANT_NO_WGMMA_WAIT
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory"); // SYNC: wgmma wait
#endif
        asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_addr(&empty_bar[s]))
                     : "memory"); // SYNC: empty arrive
#if PTXMC_MUTANT == MUTANT_NO_WGMMA_WAIT
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory"); // (moved after the arrive)
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
            __floats2half2_rn(acc[4 * j + 0], acc[4 * j + 1]);
        *reinterpret_cast<__half2*>(&smem_c[(row + 8) * BN + col]) =
            __floats2half2_rn(acc[4 * j + 2], acc[4 * j + 3]);
    }
#if PTXMC_MUTANT != MUTANT_NO_PROXY_FENCE
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); // SYNC: proxy fence
#endif
    asm volatile("bar.sync 1, %0;" ::"n"(CONSUMERS) : "memory"); // SYNC: epilogue barrier
    if (threadIdx.x == 0) {
        asm volatile(
            "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" ::"l"(
                reinterpret_cast<uint64_t>(&tmap_c)),
            "r"(n0), "r"(m0), "r"(smem_addr(&smem_c[0]))
            : "memory");                                          // SYNC: TMA store C
        asm volatile("cp.async.bulk.commit_group;" ::: "memory"); // SYNC: store commit
#if PTXMC_MUTANT != MUTANT_NO_STORE_WAIT
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); // SYNC: store wait
#endif
    }
}

} // namespace hopper_gemm
