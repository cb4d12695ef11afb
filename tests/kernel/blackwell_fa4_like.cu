// Blackwell sm_100a FlashAttention-4-like forward tile: S = Q K^T into tensor memory, softmax
// P written over S's columns and its row sum kept in a column of its own, O += P V with A read
// from tensor memory, O stored through the Q tile's shared memory; -DPTXMC_MUTANT=N drops 1 sync
// (or, from 12 on, runs the CTA's query tiles in a persistent loop).
#include "ptx_sync.cuh"

#include <cuda.h>
#include <cuda_fp16.h>
#include <stdint.h>

// Mutants (-DPTXMC_MUTANT=N): each removes ONE load-bearing synchronization; the answer a
// checker must give is in tests/kernel/README.md. Sections are PTX ISA 9.4.
#define MUTANT_NONE 0
// The softmax warps never wait on s_full: their tcgen05.ld of S is not ordered after the
// S = Q K^T mma writing those columns (tensor-memory race, 9.7.15.16.19
// #parallel-synchronization-and-communication-instructions-mbarrier-test-wait-try-wait,
// 9.7.18.6.4.4
// #tcgen05-memory-consistency-model-canonical-sync-patterns-non-pipelined-diff-thread), and the
// second commit to s_full finds no True wait in the phase before (9.7.15.16.5
// #parallel-synchronization-and-communication-instructions-mbarrier-phase).
#define MUTANT_DROP_S_FULL_WAIT 1
// No tcgen05.wait::st before the p_full arrive: the tcgen05.st of P may still be in flight when
// the MMA warp's O += P V reads P from tensor memory (tensor-memory race, 9.7.18.8.5
// #tcgen05-instructions-tcgen05-wait, 9.7.18.6.2.1.2
// #tcgen05-memory-consistency-model-wait-completion).
#define MUTANT_NO_WAIT_ST 2
// No tcgen05.fence::before_thread_sync before the p_full arrive: under the literal text the
// softmax's tcgen05.ld of S and tcgen05.st of P are not ordered before the arrive, so the P V mma
// may read P early and the next S mma may overwrite S before it is read (9.7.18.6.3
// #tcgen05-memory-consistency-model-inter-thread-sync, 9.7.18.11.1
// #tcgen05-special-sync-operations-fence).
#define MUTANT_NO_FENCE_BEFORE 3
// The MMA warp waits p_full with parity (j & 1) ^ 1, the completed phase before: the first wait
// returns at once and O += P V reads P before the softmax stored it (tensor-memory race,
// 9.7.15.16.19; 9.7.15.16.5).
#define MUTANT_WRONG_PARITY 4
// The MMA warp waits for the commit of the previous iteration's O += P_{j-1} V_{j-1}, which reads
// P_{j-1} from the S/P columns as its A operand, only after it has issued S_j = Q K_j^T over
// those columns (the wait moved after the S mma; every phase is still waited). The 9.4 list of
// pipelined pairs has "tcgen05.mma (A read) -> tcgen05.mma (D write)" and orders the two anyway
// (9.7.18.6.2 #tcgen05-memory-consistency-model-pipelined-instructions); the 9.0/9.1 list does
// not (variants/q13-pipeline-9-1-pairs.cat, decision Q13): reading-dependent, a tensor-memory
// race (S_j may overwrite P_{j-1} before it is read) under the older list.
#define MUTANT_S_BEFORE_PV_DONE 5
// The allocating warp deallocates before the teardown barrier: the columns are freed while the
// mma may write O and the softmax warps may read it (9.7.18.7.1
// #tcgen05-instructions-tcgen05-alloc-dealloc-relinquish-alloc-permit).
#define MUTANT_EARLY_DEALLOC 6
// Not a bug: P stored as two tcgen05.st.32x32b.x16 of disjoint columns instead of one .x32. The
// two pieces write different columns, so they are no pair of writes to one location that the
// 9.0/9.1 pipelined pairs of decision Q13 (which lack st -> st) would leave unordered.
#define VARIANT_P_IN_TWO_STORES 7
// The row sum is kept in the last column of S instead of a column of its own: the softmax stores
// it after its p_full arrive, while the next S = Q K^T mma may already write S's columns
// (tensor-memory race, 9.7.18.6.4.4
// #tcgen05-memory-consistency-model-canonical-sync-patterns-non-pipelined-diff-thread).
#define MUTANT_STATS_IN_S 8
// No fence.proxy.async between the softmax warps' generic stores of O into the Q tile and the
// TMA store that reads it in the async proxy (data race, 8.6 #proxies, 9.7.10.28.2
// #data-movement-and-conversion-instructions-tensor-copy-async-proxy).
#define MUTANT_NO_EPILOGUE_FENCE 9
// Not a bug: online softmax. Each softmax thread keeps its row's running maximum and shifts P by
// it; when a warp votes that a maximum grew (__any_sync over float compares), its threads rescale
// their rows of O in tensor memory (tcgen05.ld, scale, tcgen05.st) after waiting for the previous
// O += P V mma's commit, and before the p_full arrive that lets the next one accumulate: a branch
// on data whose two sides run different tensor-memory instructions, both checked.
#define VARIANT_ONLINE_SOFTMAX 10
// Online softmax that rescales O after its p_full arrive instead of before: on the way that
// rescales, its tcgen05.ld and tcgen05.st of O race with the O += P_j V_j mma the arrive lets
// run (tensor-memory race, 9.7.18.6.4.4
// #tcgen05-memory-consistency-model-canonical-sync-patterns-non-pipelined-diff-thread); the way
// that does not rescale is clean. (Rescaling before the arrive without the o_full wait is no bug
// here: the s_full wait already follows the previous P V mma, through the MMA warp's o_full
// wait before its S mma.)
#define MUTANT_ONLINE_RESCALE_LATE 11
// Not a bug: a persistent kernel. Each CTA runs query tiles blockIdx.x, blockIdx.x + gridDim.x,
// ... below n_tiles (a parameter), every barrier's phase and the K/V stages carried from one tile
// to the next. One hand-off joins the tiles: q_empty, arrived once the epilogue's TMA store has
// read the Q tile (into which O was written), so the next Q may land there. It also orders the
// softmax warps' tcgen05.ld of O before the next tile's first O = P V, which overwrites O: the
// MMA warp waits for that Q (q_full) first. (A separate "O read" barrier, tried first, was
// redundant: ptxmc found no race without its wait, only its unwaited arrivals.)
#define VARIANT_TILES 12
// The load warp loads the next tile's Q without waiting for q_empty: the TMA load writes the Q
// tile while the previous tile's TMA store may still read O from it, and while the softmax warps
// may still be writing O there (data race, 8.7.1 #data-race; the load and the store are
// ordered by nothing, 9.7.10.28.4.1 #data-movement-and-conversion-instructions-cp-async-bulk).
#define MUTANT_TILES_NO_Q_EMPTY_WAIT 13
// The epilogue's thread arrives on q_empty before its cp.async.bulk.wait_group: the next tile's
// TMA load of Q may write the Q tile while the TMA store still reads O from it (data race, 8.7.1;
// the wait_group waits "until ... the bulk async-groups ... have completed", 9.7.10.28.6.2
// #data-movement-and-conversion-instructions-cp-async-bulk-wait-group). A defect that only a
// second tile shows.
#define MUTANT_TILES_EARLY_Q_EMPTY 14

#ifndef PTXMC_MUTANT
#define PTXMC_MUTANT MUTANT_NONE
#endif
#define ONLINE_SOFTMAX                                                                             \
    (PTXMC_MUTANT == VARIANT_ONLINE_SOFTMAX || PTXMC_MUTANT == MUTANT_ONLINE_RESCALE_LATE)
#define TILED (PTXMC_MUTANT >= VARIANT_TILES)
// The query tiles this CTA runs: `tile` its index, `t` how many came before it on this CTA.
#if TILED
#define FOR_EACH_TILE(tile, t)                                                                     \
    for ([[maybe_unused]] int tile = blockIdx.x, t = 0; tile < n_tiles; tile += gridDim.x, ++t)
#else
#define FOR_EACH_TILE(tile, t) for ([[maybe_unused]] int tile = blockIdx.x, t = 0; t < 1; ++t)
#endif

namespace fa4_like {

constexpr int S_KV = 2;                       // K/V shared-memory stages
constexpr int BM = 128;                       // query rows = TMEM lanes
constexpr int BN = 64;                        // keys per iteration = S columns
constexpr int HD = 32;                        // head dimension: 32 halves = one 64-byte swizzle row
constexpr int UK = 16;                        // k per tcgen05.mma (kind::f16)
constexpr int SOFTMAX_THREADS = 128;          // warps 2-5: one warpgroup, a thread per query row
constexpr int THREADS = 64 + SOFTMAX_THREADS; // warp 0 TMA, warp 1 MMA (owns TMEM), warps 2-5
constexpr uint32_t O_COL = 0;                 // O: HD f32 columns
constexpr uint32_t S_COL = 64;                // S: BN f32 columns; P (f16, two a column) over them
#if PTXMC_MUTANT == MUTANT_STATS_IN_S
constexpr uint32_t STAT_COL = S_COL + BN - 1; // the row sum in S's last column
#else
constexpr uint32_t STAT_COL = S_COL + BN;                       // the row sum: a column past S
#endif
constexpr uint32_t TMEM_COLS = 256; // a power of two >= 32
constexpr uint32_t Q_TX = BM * HD * 2;
constexpr uint32_t KV_TX = 2 * BN * HD * 2;

// UMMA shared-memory descriptor (sm_100): 64-byte swizzle, 8-row groups 512 B apart.
__device__ __forceinline__ uint64_t make_smem_desc(uint32_t addr) {
    uint64_t desc = 0;
    desc |= static_cast<uint64_t>((addr & 0x3FFFF) >> 4); // start address
    desc |= static_cast<uint64_t>(16 >> 4) << 16;         // leading byte offset
    desc |= static_cast<uint64_t>(512 >> 4) << 32;        // stride byte offset
    desc |= static_cast<uint64_t>(1) << 46;               // descriptor version (sm_100)
    desc |= static_cast<uint64_t>(4) << 61;               // layout: 64-byte swizzle
    return desc;
}

// Instruction descriptors, kind::f16, f32 accumulator: S = Q K^T (M = 128, N = BN, both K-major)
// and O = P V (M = 128, N = HD, B = V MN-major: d is contiguous in a row of V).
constexpr uint32_t kIdescS = (1u << 4) | (uint32_t(BN >> 3) << 17) | (uint32_t(BM >> 4) << 24);
constexpr uint32_t kIdescO =
    (1u << 4) | (1u << 16) | (uint32_t(HD >> 3) << 17) | (uint32_t(BM >> 4) << 24);

using ptx::smem_addr;

// Online softmax: scales this warp's 32 rows of O (HD f32 columns at `o_rows`) by `factor` once
// the previous O += P V mma has written them (its commit to o_full, phase it - 1, `it` counting
// the key blocks of every tile).
__device__ __forceinline__ void rescale_o(uint32_t o_rows, uint32_t o_full, int it, float factor) {
    ptx::mbar_wait(o_full, (it - 1) & 1); // SYNC: o_full wait (rescale)
    ptx::tcgen05_fence_after();           // SYNC: fence after o_full (rescale)
    uint32_t ov[HD / 16][16];
#pragma unroll
    for (int c = 0; c < HD / 16; ++c)
        ptx::tmem_ld_32x32b_x16(ov[c], o_rows + c * 16); // SYNC: tcgen05.ld O (rescale)
    ptx::tmem_wait_ld();                                 // SYNC: tcgen05.wait::ld O (rescale)
#pragma unroll
    for (int c = 0; c < HD / 16; ++c) {
#pragma unroll
        for (int d = 0; d < 16; ++d)
            ov[c][d] = __float_as_uint(__uint_as_float(ov[c][d]) * factor);
        ptx::tmem_st_32x32b_x16(o_rows + c * 16, ov[c]); // SYNC: tcgen05.st O (rescale)
    }
}

// One CTA computes O (BM x HD) = softmax(Q K^T) V for one query tile over n_iters key blocks of
// BN keys. Softmax uses a fixed shift instead of the running row maximum (softmax does not
// depend on the shift), so O needs no rescaling and the kernel has no correction warpgroup; with
// VARIANT_ONLINE_SOFTMAX it keeps the running maximum and rescales O in tensor memory. The
// row sums live in tensor memory, in a column of S's accumulator region past its BN columns (the
// softmax stores each after releasing P, while the next S mma may run); the epilogue writes O
// into the Q tile, which the last S mma has finished reading, and stores it with TMA.
// Every synchronization is one line ending in a `// SYNC:` marker (tests/kernel/README.md).
extern "C" __global__ void __launch_bounds__(THREADS, 1)
    blackwell_fa4_like(const __grid_constant__ CUtensorMap tmap_q,
                       const __grid_constant__ CUtensorMap tmap_k,
                       const __grid_constant__ CUtensorMap tmap_v,
                       const __grid_constant__ CUtensorMap tmap_o, int n_iters, float scale_log2,
                       float shift
#if TILED
                       ,
                       int n_tiles
#endif
    ) {
    __shared__ alignas(1024) uint16_t smem_q[BM * HD];
    __shared__ alignas(1024) uint16_t smem_k[S_KV][BN * HD];
    __shared__ alignas(1024) uint16_t smem_v[S_KV][BN * HD];
    __shared__ alignas(8) uint64_t q_full;
    __shared__ alignas(8) uint64_t kv_full[S_KV];
    __shared__ alignas(8) uint64_t kv_empty[S_KV];
    __shared__ alignas(8) uint64_t s_full;
    __shared__ alignas(8) uint64_t p_full;
    __shared__ alignas(8) uint64_t o_full;
#if TILED
    __shared__ alignas(8) uint64_t q_empty;
#endif
    __shared__ uint32_t tmem_base_slot;

    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;

    if (threadIdx.x == 0) {
        ptx::mbar_init(smem_addr(&q_full), 1); // SYNC: init q_full
        for (int s = 0; s < S_KV; ++s) {
            ptx::mbar_init(smem_addr(&kv_full[s]), 1);  // SYNC: init kv_full
            ptx::mbar_init(smem_addr(&kv_empty[s]), 1); // SYNC: init kv_empty
        }
        ptx::mbar_init(smem_addr(&s_full), 1);               // SYNC: init s_full
        ptx::mbar_init(smem_addr(&p_full), SOFTMAX_THREADS); // SYNC: init p_full
        ptx::mbar_init(smem_addr(&o_full), 1);               // SYNC: init o_full
#if TILED
        ptx::mbar_init(smem_addr(&q_empty), 1); // SYNC: init q_empty
#endif
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
    const uint32_t o_tmem = tmem_base + O_COL;
    const uint32_t s_tmem = tmem_base + S_COL;

    if (warp == 0) {
        // ---- load warp: one lane; Q once, then K_j and V_j into stage j % S_KV ----
        if (lane == 0) {
            const uint32_t qb = smem_addr(&q_full);
            const uint32_t sq = smem_addr(&smem_q[0]);
            int s = 0;
            uint32_t phase = 0;
            FOR_EACH_TILE(tile, t) {
#if TILED && PTXMC_MUTANT != MUTANT_TILES_NO_Q_EMPTY_WAIT
                // The previous tile's O has left the Q tile (its TMA store read it).
                if (t > 0) ptx::mbar_wait(smem_addr(&q_empty), (t - 1) & 1); // SYNC: q_empty wait
#endif
                const int q0 = tile * BM;
                ptx::mbar_arrive_expect_tx(qb, Q_TX);     // SYNC: q_full arrive.expect_tx
                ptx::tma_load_2d(sq, &tmap_q, 0, q0, qb); // SYNC: TMA load Q
                for (int j = 0; j < n_iters; ++j) {
                    ptx::mbar_wait(smem_addr(&kv_empty[s]), phase ^ 1); // SYNC: kv_empty wait
                    const uint32_t fb = smem_addr(&kv_full[s]);
                    const uint32_t sk = smem_addr(&smem_k[s][0]);
                    const uint32_t sv = smem_addr(&smem_v[s][0]);
                    ptx::mbar_arrive_expect_tx(fb, KV_TX);        // SYNC: kv_full arrive.expect_tx
                    ptx::tma_load_2d(sk, &tmap_k, 0, j * BN, fb); // SYNC: TMA load K
                    ptx::tma_load_2d(sv, &tmap_v, 0, j * BN, fb); // SYNC: TMA load V
                    if (++s == S_KV) {
                        s = 0;
                        phase ^= 1;
                    }
                }
            }
        }
    } else if (warp == 1) {
        // ---- MMA warp: one elected lane issues every tcgen05.mma and commit ----
        if (ptx::elect_one()) { // SYNC: elect
            const uint32_t ofb = smem_addr(&o_full);
            int s = 0;
            uint32_t phase = 0;
            int it = 0; // key blocks before this one, over every tile
            FOR_EACH_TILE(tile, t) {
                ptx::mbar_wait(smem_addr(&q_full), t & 1); // SYNC: q_full wait
                for (int j = 0; j < n_iters; ++j, ++it) {
                    ptx::mbar_wait(smem_addr(&kv_full[s]), phase); // SYNC: kv_full wait
                    ptx::tcgen05_fence_after();                    // SYNC: fence after kv_full
                    // S = Q K_j^T over the S/P columns, which P_{j-1} V_{j-1} reads as its A
                    // operand: wait for that mma's commit (the 9.4 pipelined pair mma (A read) ->
                    // mma (D write) orders them too; the 9.0/9.1 list does not).
#if PTXMC_MUTANT != MUTANT_S_BEFORE_PV_DONE
                    if (it > 0) {
                        ptx::mbar_wait(ofb, (it - 1) & 1); // SYNC: o_full wait (P columns free)
                        ptx::tcgen05_fence_after();        // SYNC: fence after o_full
                    }
#endif
                    const uint32_t q_base = smem_addr(&smem_q[0]);
                    const uint32_t k_base = smem_addr(&smem_k[s][0]);
#pragma unroll
                    for (int kk = 0; kk < HD / UK; ++kk) {
                        const uint64_t da = make_smem_desc(q_base + kk * UK * 2);
                        const uint64_t db = make_smem_desc(k_base + kk * UK * 2);
                        const uint32_t acc = kk > 0 ? 1u : 0u;
                        ptx::tcgen05_mma_f16<1>(s_tmem, da, db, kIdescS, acc); // SYNC: S mma
                    }
#if PTXMC_MUTANT == MUTANT_S_BEFORE_PV_DONE
                    if (it > 0) {
                        ptx::mbar_wait(ofb, (it - 1) & 1); // SYNC: o_full wait (after the S mma)
                        ptx::tcgen05_fence_after();        // SYNC: fence after o_full
                    }
#endif
                    ptx::tcgen05_commit<1>(smem_addr(&s_full)); // SYNC: commit to s_full
                    // P_j is in tensor memory once all 128 softmax threads have arrived.
#if PTXMC_MUTANT == MUTANT_WRONG_PARITY
                    ptx::mbar_wait(smem_addr(&p_full), // SYNC: p_full wait (wrong parity)
                                   (it & 1) ^ 1);
#else
                    ptx::mbar_wait(smem_addr(&p_full), it & 1); // SYNC: p_full wait
#endif
                    ptx::tcgen05_fence_after(); // SYNC: fence after p_full
                    // O += P_j V_j: A = P from the S columns (16 f16 keys = 8 columns per mma).
                    const uint32_t v_base = smem_addr(&smem_v[s][0]);
#pragma unroll
                    for (int kk = 0; kk < BN / UK; ++kk) {
                        const uint64_t db = make_smem_desc(v_base + kk * UK * HD * 2);
                        const uint32_t acc = (j > 0 || kk > 0) ? 1u : 0u;
                        const uint32_t pa = s_tmem + kk * (UK / 2);
                        ptx::tcgen05_mma_f16_tmem_a(o_tmem, pa, db, kIdescO, acc); // SYNC: PV mma
                    }
                    // o_full: P_j V_j has read P and written O; kv_empty: K_j, V_j are free.
                    ptx::tcgen05_commit<1>(smem_addr(&o_full));      // SYNC: commit to o_full
                    ptx::tcgen05_commit<1>(smem_addr(&kv_empty[s])); // SYNC: commit to kv_empty
                    if (++s == S_KV) {
                        s = 0;
                        phase ^= 1;
                    }
                }
            }
        }
    } else {
        // ---- softmax warpgroup, warps 2-5: warp w owns TMEM lanes 32*(w%4) .. 32*(w%4)+31 ----
        const uint32_t lane_base = static_cast<uint32_t>((warp % 4) * 32) << 16;
        const uint32_t stat_taddr = tmem_base + STAT_COL + lane_base; // this warp's row sums
        const uint32_t ofb = smem_addr(&o_full);
        int it = 0; // key blocks before this one, over every tile
        FOR_EACH_TILE(tile, t) {
            const int row = tile * BM + (warp % 4) * 32 + lane;
            float row_sum = 0.f;
#if ONLINE_SOFTMAX
            float row_max = __int_as_float(0xff800000); // the running maximum (-inf), log2 units
#endif
            for (int j = 0; j < n_iters; ++j, ++it) {
#if PTXMC_MUTANT != MUTANT_DROP_S_FULL_WAIT
                ptx::mbar_wait(smem_addr(&s_full), it & 1); // SYNC: s_full wait
#endif
                ptx::tcgen05_fence_after(); // SYNC: fence after s_full
                uint32_t sv[BN / 16][16];
#pragma unroll
                for (int c = 0; c < BN / 16; ++c) {
                    const uint32_t taddr = s_tmem + lane_base + c * 16;
                    ptx::tmem_ld_32x32b_x16(sv[c], taddr); // SYNC: tcgen05.ld S
                }
                ptx::tmem_wait_ld(); // SYNC: tcgen05.wait::ld S
#if ONLINE_SOFTMAX
                float new_max = row_max;
#pragma unroll
                for (int c = 0; c < BN; ++c)
                    new_max = fmaxf(new_max, __uint_as_float(sv[c / 16][c % 16]) * scale_log2);
                // Rescale this warp's rows of O when one of its maxima grew, before the p_full
                // arrive lets the next O += P V accumulate into it.
                const bool rescale = j > 0 && __any_sync(0xffffffffu, new_max > row_max);
                const float factor = exp2f(row_max - new_max);
#if PTXMC_MUTANT != MUTANT_ONLINE_RESCALE_LATE
                if (rescale) {
                    rescale_o(o_tmem + lane_base, ofb, it, factor);
                    row_sum *= factor;
                }
#endif
                row_max = new_max;
                const float p_shift = row_max;
#else
                const float p_shift = shift;
#endif
                // P = exp2(S * scale - shift), two f16 a column.
                uint32_t pv[BN / 2];
#pragma unroll
                for (int c = 0; c < BN / 2; ++c) {
                    const float s0 = __uint_as_float(sv[(2 * c) / 16][(2 * c) % 16]);
                    const float s1 = __uint_as_float(sv[(2 * c + 1) / 16][(2 * c + 1) % 16]);
                    const float p0 = exp2f(s0 * scale_log2 - p_shift);
                    const float p1 = exp2f(s1 * scale_log2 - p_shift);
                    row_sum += p0 + p1;
                    const __half2 h = __floats2half2_rn(p0, p1);
                    pv[c] = *reinterpret_cast<const uint32_t*>(&h);
                }
                const uint32_t p_taddr = s_tmem + lane_base; // P: the first BN / 2 columns of S
#if PTXMC_MUTANT == VARIANT_P_IN_TWO_STORES
                ptx::tmem_st_32x32b_x16(p_taddr, &pv[0]);       // SYNC: tcgen05.st P (first half)
                ptx::tmem_st_32x32b_x16(p_taddr + 16, &pv[16]); // SYNC: tcgen05.st P (second half)
#else
                ptx::tmem_st_32x32b_x32(p_taddr, pv); // SYNC: tcgen05.st P
#endif
#if PTXMC_MUTANT != MUTANT_NO_WAIT_ST
                ptx::tmem_wait_st(); // SYNC: tcgen05.wait::st P
#endif
#if PTXMC_MUTANT != MUTANT_NO_FENCE_BEFORE
                ptx::tcgen05_fence_before(); // SYNC: fence before p_full
#endif
                ptx::mbar_arrive(smem_addr(&p_full)); // SYNC: p_full arrive
#if PTXMC_MUTANT == MUTANT_ONLINE_RESCALE_LATE
                if (rescale) { // too late: the next O += P V may be accumulating into O
                    rescale_o(o_tmem + lane_base, ofb, it, factor);
                    row_sum *= factor;
                }
#endif
                // The row sum so far, kept in tensor memory; stored once P is released, while the
                // MMA warp may already run the next S mma (the next wait::st completes it).
                const uint32_t stat = __float_as_uint(row_sum);
                ptx::tmem_st_32x32b_x1(stat_taddr, stat); // SYNC: tcgen05.st row sum
            }
            // ---- epilogue: the last commit to o_full covers every mma ----
            ptx::mbar_wait(ofb, (it - 1) & 1); // SYNC: o_full wait (epilogue)
            ptx::tcgen05_fence_after();        // SYNC: fence after o_full (epilogue)
            uint32_t ov[HD / 16][16];
#pragma unroll
            for (int c = 0; c < HD / 16; ++c) {
                const uint32_t taddr = o_tmem + lane_base + c * 16;
                ptx::tmem_ld_32x32b_x16(ov[c], taddr); // SYNC: tcgen05.ld O
            }
            ptx::tmem_wait_st(); // SYNC: tcgen05.wait::st row sum
            const uint32_t sum = ptx::tmem_ld_32x32b_x1(stat_taddr); // SYNC: tcgen05.ld row sum
            ptx::tmem_wait_ld();                                     // SYNC: tcgen05.wait::ld O
#if TILED
            // The next tile's first O = P V overwrites O: these reads go before the epilogue's
            // barriers, which (through q_empty and the next Q) come before that mma.
            ptx::tcgen05_fence_before(); // SYNC: fence before the epilogue barrier
#endif
            const float inv = 1.f / __uint_as_float(sum);
            // O goes out through the Q tile: each thread writes its row, then one thread stores the
            // tile with TMA. The last S mma read Q (in the async proxy) before the o_full commit; a
            // proxy fence orders that read before these generic writes (decision Q5: the literal
            // text orders accesses of different proxies only through a proxy fence).
            ptx::fence_proxy_async_smem(); // SYNC: fence.proxy.async (Q tile reused)
            uint16_t* o_row = &smem_q[(row - tile * BM) * HD];
#pragma unroll
            for (int d = 0; d < HD; ++d)
                o_row[d] =
                    __half_as_ushort(__float2half(__uint_as_float(ov[d / 16][d % 16]) * inv));
#if PTXMC_MUTANT != MUTANT_NO_EPILOGUE_FENCE
            ptx::fence_proxy_async_smem(); // SYNC: fence.proxy.async (O in the Q tile)
#endif
            ptx::named_bar_sync(1, SOFTMAX_THREADS); // SYNC: epilogue barrier
            if (warp == 2 && lane == 0) {
                const uint32_t o_tile = smem_addr(&smem_q[0]);
                ptx::tma_store_2d(&tmap_o, 0, tile * BM, o_tile); // SYNC: TMA store O
                ptx::bulk_commit_group();                         // SYNC: bulk commit
#if PTXMC_MUTANT == MUTANT_TILES_EARLY_Q_EMPTY
                ptx::mbar_arrive(smem_addr(&q_empty)); // SYNC: q_empty arrive (early)
#endif
                ptx::bulk_wait_group_0(); // SYNC: bulk wait
#if TILED && PTXMC_MUTANT != MUTANT_TILES_EARLY_Q_EMPTY
                ptx::mbar_arrive(smem_addr(&q_empty)); // SYNC: q_empty arrive
#endif
            }
        }
    }

    // ---- teardown: the allocating warp frees TMEM after every tcgen05 access is done ----
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

} // namespace fa4_like
