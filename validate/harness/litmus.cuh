// Device side of the litmus harness: placement, encodings, delays, stress, histograms.
#pragma once

#include "Launch.hpp"

#include <cstdint>
#include <cuda_fp16.h>

namespace litmus {

// ---------------------------------------------------------------------------------------------
// Randomness and placement
// ---------------------------------------------------------------------------------------------

/** splitmix64: one well-mixed 64-bit value per (seed, key); all randomness on the device. */
__device__ __forceinline__ unsigned long long mix(unsigned long long seed, unsigned long long key) {
    unsigned long long z = seed + 0x9e3779b97f4a7c15ull * (key + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/** An affine bijection of [0, n): the host picks `mul` coprime to n, so roles stay distinct. */
__device__ __forceinline__ unsigned permute(unsigned i, unsigned n, unsigned mul, unsigned add) {
    return static_cast<unsigned>((static_cast<unsigned long long>(i) * mul + add) % n);
}

/** Rank of this CTA in its cluster and the cluster's index in the grid (1-D grids only). */
__device__ __forceinline__ unsigned clusterRank() {
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

__device__ __forceinline__ unsigned clusterIndex() {
    unsigned r;
    asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(r));
    return r;
}

/** The element a byte offset into an array `a[n]` of `stride` bytes names (`[a+k*r]`), or n
 *  when it names none (the generated code then marks the instance stuck). */
__device__ __forceinline__ long long element(long long offset, long long stride, long long n) {
    return offset >= 0 && offset % stride == 0 && offset / stride < n ? offset / stride : n;
}

__device__ __forceinline__ unsigned long long globalTimer() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/**
 * In-team layout (Launch::layout 1): a team's slots are its own, so the lines a team touches hold
 * only its instances' locations (several instances of one CTA share each line). globalMul is
 * coprime to teams x teamInstances, hence to teamInstances: still a bijection per location.
 * Out of line, so that the generated code around it keeps harness 1's registers and timing.
 */
static __device__ __noinline__ unsigned teamSlot(const Launch& p, unsigned inst, unsigned loc) {
    const unsigned n = p.teamInstances, team = inst / n;
    const unsigned slot = permute(inst % n, n, p.globalMul % n, p.globalAdd);
    return team * n + (slot + loc * p.globalStep) % n;
}

/** The word of global location `loc` of instance `inst`: slots are permuted per launch. */
__device__ __forceinline__ unsigned* globalCell(const Launch& p, unsigned inst, unsigned loc,
                                                unsigned locs, unsigned slotWords) {
    unsigned slot;
    if (p.layout == 1) {
        slot = teamSlot(p, inst, loc);
    } else {
        slot = permute(inst, p.instances, p.globalMul, p.globalAdd);
        slot = (slot + loc * p.globalStep) % p.instances;
    }
    return p.gmem + (static_cast<unsigned long long>(slot) * locs + loc) * slotWords;
}

/** The team of this CTA (as the generated kernel computes it), or -1 in a stress CTA. */
__device__ __forceinline__ int teamOfThisCta(const Launch& p) {
    const unsigned hw = p.clusterSize > 1 ? clusterIndex() : blockIdx.x;
    const unsigned role = permute(hw, p.clusters, p.clusterMul, p.clusterAdd);
    const unsigned per = p.litmusClusters ? p.litmusClusters : 1u;
    return role < p.teams * per ? static_cast<int>(role / per) : -1;
}

/** Byte offset of an instance's slot in a shared region (slots permuted per launch). */
__device__ __forceinline__ unsigned sharedSlot(const Launch& p, unsigned local, unsigned loc,
                                               unsigned perCta) {
    return permute(local + loc * 5u, perCta, p.sharedMul, p.sharedAdd);
}

__device__ __forceinline__ unsigned sharedBase() {
    extern __shared__ __align__(1024) unsigned char litmusSmem[];
    return static_cast<unsigned>(__cvta_generic_to_shared(litmusSmem));
}

/** The same shared::cta offset in CTA `rank` of this cluster, as a shared::cluster address. */
__device__ __forceinline__ unsigned mapShared(unsigned addr, unsigned rank) {
    unsigned r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(addr), "r"(rank));
    return r;
}

/** Generic 64-bit address of a shared::cta address (for accesses written without a space). */
__device__ __forceinline__ unsigned long long genericShared(unsigned addr) {
    unsigned long long r;
    asm volatile("cvta.shared.u64 %0, %1;" : "=l"(r) : "l"(static_cast<unsigned long long>(addr)));
    return r;
}

/** Generic address of the same shared variable in CTA `rank` of the cluster. */
__device__ __forceinline__ unsigned long long genericRemote(unsigned addr, unsigned rank) {
    unsigned long long g = genericShared(addr), r;
    asm volatile("mapa.u64 %0, %1, %2;" : "=l"(r) : "l"(g), "r"(rank));
    return r;
}

__device__ __forceinline__ void sharedStore(unsigned addr, unsigned v) {
    asm volatile("st.shared.b32 [%0], %1;" ::"r"(addr), "r"(v) : "memory");
}

__device__ __forceinline__ unsigned sharedLoad(unsigned addr) {
    unsigned v;
    asm volatile("ld.shared.b32 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
    return v;
}

/** CTA-wide barrier 0 without .aligned: warps may arrive diverged after a litmus body. */
__device__ __forceinline__ void ctaSync() {
    asm volatile("barrier.sync 0;" ::: "memory");
}

/** The barrier.cluster arrive/wait pairs of a test's litmus threads, run by the cluster's other
 *  threads: the barrier waits for every non-exited thread of the cluster. */
__device__ __forceinline__ void clusterPhases(unsigned n) {
    for (unsigned k = 0; k < n; ++k)
        asm volatile("barrier.cluster.arrive.relaxed;\n\tbarrier.cluster.wait;" ::: "memory");
}

/** Cluster-wide barrier (release/acquire), non-aligned for the same reason. */
__device__ __forceinline__ void clusterSync() {
    asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
}

/**
 * tcgen05 shared-memory matrix descriptor, no swizzle: start address, leading and stride byte
 * offsets (all >> 4), and the fixed version field 0b001 at bit 46 that sm_100 descriptors carry.
 */
__device__ __forceinline__ unsigned long long smemDescriptor(unsigned addr, unsigned lbo,
                                                             unsigned sbo) {
    return static_cast<unsigned long long>((addr & 0x3ffffu) >> 4) |
           static_cast<unsigned long long>((lbo >> 4) & 0x3fffu) << 16 |
           static_cast<unsigned long long>((sbo >> 4) & 0x3fffu) << 32 | 1ull << 46;
}

/** sm_90 wgmma shared-memory matrix descriptor: the same fields without the sm_100 version bit
 *  (start address >> 4 in bits 0-13, LBO >> 4 in 16-29, SBO >> 4 in 32-45, no swizzle). */
__device__ __forceinline__ unsigned long long wgmmaDescriptor(unsigned addr, unsigned lbo,
                                                              unsigned sbo) {
    return static_cast<unsigned long long>((addr & 0x3ffffu) >> 4) |
           static_cast<unsigned long long>((lbo >> 4) & 0x3fffu) << 16 |
           static_cast<unsigned long long>((sbo >> 4) & 0x3fffu) << 32;
}

/** Fragments of the backlog's accumulator per thread (m64n128 f32). */
constexpr unsigned kBacklogFragments = 64;
/** Dummy mmas of one backlog: 64 m64n128k16, about 4000 cycles of a warpgroup's tensor cores
 *  (m64n256 would halve the instructions but need 128 registers, halving the CTAs per SM).
 *  None where only ptxas's acceptance of the test's own instructions is checked. */
#ifdef LITMUS_NO_BACKLOG
constexpr unsigned kBacklogMmas = 0;
#else
constexpr unsigned kBacklogMmas = 64;
#endif

/** The dummy mmas before a thread's `mma`-th wgmma.mma_async under placement `place`. */
__host__ __device__ constexpr unsigned backlogBefore(unsigned place, unsigned mma) {
    return place == kBacklogEvery                  ? kBacklogMmas
           : place == kBacklogEven && mma % 2 == 0 ? kBacklogMmas
           : place == kBacklogOdd && mma % 2 == 1  ? kBacklogMmas
                                                   : 0u;
}

/**
 * Harness 4's tensor-core backlog: `kN` dummy m64n128k16 mmas a warpgroup issues right before a
 * test's wgmma.mma_async, in the same group. A warpgroup's mmas run in issue order, so the
 * test's mma reads its shared operands microseconds after its issue: a release that does not
 * wait for the mma (a dropped wgmma.wait_group) lets a refill land first. Placements that skip
 * every other mma keep the next mmas' issue (and a release after them) quick, as the issue
 * queue is short. The mmas read a 2.1 KiB window of the CTA's scratch (garbage values, never
 * recorded) and accumulate into `acc`, which the thread keeps until its final wait_group 0
 * (keepBacklog), so that no register of an mma in flight is reused. The count is a template
 * argument, one kernel per placement: dummies under a run-time count or condition made ptxas
 * serialize every wgmma of the kernel (C7520), and a serialized kernel cannot show a missing
 * wait.
 */
template <unsigned kN>
__device__ __forceinline__ void wgmmaBacklog(float (&acc)[kBacklogFragments], unsigned scratch) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    if constexpr (kN > 0) { // (a loop bound of 0 draws nvcc's pointless-comparison warning)
        // LBO = SBO = 128 B: A spans 1.1 KiB and B 2.1 KiB of the 4 KiB scratch
        const unsigned long long desc = wgmmaDescriptor(scratch, 128u, 128u);
#pragma unroll
        for (unsigned i = 0; i < kN; ++i)
            asm volatile(
                "{ .reg .pred P; setp.ne.b32 P, %66, 0; "
                "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, "
                "%7, "
                "%8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, "
                "%24, "
                "%25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, "
                "%41, "
                "%42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, "
                "%58, "
                "%59, %60, %61, %62, %63}, %64, %65, P, 1, 1, 0, 0; }"
                : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]), "+f"(acc[4]),
                  "+f"(acc[5]), "+f"(acc[6]), "+f"(acc[7]), "+f"(acc[8]), "+f"(acc[9]),
                  "+f"(acc[10]), "+f"(acc[11]), "+f"(acc[12]), "+f"(acc[13]), "+f"(acc[14]),
                  "+f"(acc[15]), "+f"(acc[16]), "+f"(acc[17]), "+f"(acc[18]), "+f"(acc[19]),
                  "+f"(acc[20]), "+f"(acc[21]), "+f"(acc[22]), "+f"(acc[23]), "+f"(acc[24]),
                  "+f"(acc[25]), "+f"(acc[26]), "+f"(acc[27]), "+f"(acc[28]), "+f"(acc[29]),
                  "+f"(acc[30]), "+f"(acc[31]), "+f"(acc[32]), "+f"(acc[33]), "+f"(acc[34]),
                  "+f"(acc[35]), "+f"(acc[36]), "+f"(acc[37]), "+f"(acc[38]), "+f"(acc[39]),
                  "+f"(acc[40]), "+f"(acc[41]), "+f"(acc[42]), "+f"(acc[43]), "+f"(acc[44]),
                  "+f"(acc[45]), "+f"(acc[46]), "+f"(acc[47]), "+f"(acc[48]), "+f"(acc[49]),
                  "+f"(acc[50]), "+f"(acc[51]), "+f"(acc[52]), "+f"(acc[53]), "+f"(acc[54]),
                  "+f"(acc[55]), "+f"(acc[56]), "+f"(acc[57]), "+f"(acc[58]), "+f"(acc[59]),
                  "+f"(acc[60]), "+f"(acc[61]), "+f"(acc[62]), "+f"(acc[63])
                : "l"(desc), "l"(desc), "r"(1u)
                : "memory");
    }
#endif
    (void)acc;
    (void)scratch;
}

/**
 * Uses the backlog's accumulator after the thread's final wait_group 0, so that its registers
 * stay live (and unreused) while the dummy mmas are in flight, and ptxas keeps the mmas.
 */
__device__ __forceinline__ void keepBacklog(const Launch& p, float (&acc)[kBacklogFragments]) {
    float sum = 0;
    for (unsigned i = 0; i < kBacklogFragments; ++i)
        sum += acc[i];
    if (p.mmaBacklog == ~0u) p.scratch[0] = __float_as_uint(sum); // never: no launch draws ~0
}

// ---------------------------------------------------------------------------------------------
// Value encodings: litmus values are integers; mma operands are f16, accumulators f32
// ---------------------------------------------------------------------------------------------

__device__ __forceinline__ unsigned encodeF16(int v) {
    return static_cast<unsigned>(__half_as_ushort(__int2half_rn(v)));
}
__device__ __forceinline__ int decodeF16(unsigned raw) {
    return __half2int_rz(__ushort_as_half(static_cast<unsigned short>(raw & 0xffffu)));
}
__device__ __forceinline__ unsigned encodeF32(int v) {
    return __float_as_uint(static_cast<float>(v));
}
__device__ __forceinline__ int decodeF32(unsigned raw) {
    return __float2int_rz(__uint_as_float(raw));
}

// ---------------------------------------------------------------------------------------------
// Timing perturbation: the incantations that make weak behaviour observable
// ---------------------------------------------------------------------------------------------

__device__ __forceinline__ void spin(unsigned cycles) {
    if (cycles == 0) return;
    long long until = clock64() + cycles;
    while (clock64() < until) {
    }
}

/**
 * Waits `ns` nanoseconds. Copies that only an mbarrier tracks may still be in flight when a
 * test's threads are done; their CTA must not exit (or be dumped) before they land.
 */
__device__ __forceinline__ void settle(unsigned long long ns) {
    unsigned long long until = globalTimer() + ns;
    while (globalTimer() < until)
        __nanosleep(256);
}

/** Lines the testing warps up across CTAs: bounded, so a slow CTA never hangs the launch. */
__device__ __forceinline__ void startLine(const Launch& p) {
    if (!p.useSync) return;
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(p.syncCounter, 1u);
        for (int i = 0; i < 1024; ++i)
            if (*reinterpret_cast<volatile unsigned*>(p.syncCounter) >= p.syncTarget) break;
    }
    __syncwarp(__activemask()); // lanes past kLanes (large slots) never come here
}

/**
 * Pre-stress on the tested lines: the warp loads every global cell of its team (L1-allocating
 * weak loads whose values are dropped), so the body's weak and .cta loads may hit lines that
 * the SM's L1 holds while other threads' stores are in flight. Reads only: no value changes.
 */
static __device__ __noinline__ void primeLines(const Launch& p) {
    const int team = teamOfThisCta(p);
    if (team < 0 || p.globalLocs == 0) return;
    const unsigned n = p.teamInstances, cells = n * p.globalLocs, lane = threadIdx.x & 31u;
    for (unsigned c = lane; c < cells; c += 32) {
        const unsigned inst = static_cast<unsigned>(team) * n + c / p.globalLocs;
        const unsigned* a = globalCell(p, inst, c % p.globalLocs, p.globalLocs, p.slotWords);
        unsigned dropped;
        asm volatile("ld.global.ca.b32 %0, [%1];" : "=r"(dropped) : "l"(a));
        (void)dropped;
    }
}

/**
 * Clock-based start: the testing warps of one SM (clock64 is the SM's own counter) wait for the
 * same edge, a multiple of 2^alignShift cycles, then each waits its own random offset below
 * alignSpread cycles: fine-grained random interleavings between the threads of one CTA.
 */
static __device__ __noinline__ void alignStart(const Launch& p, unsigned warpKey) {
    const long long edge = ((clock64() >> p.alignShift) + 1) << p.alignShift;
    while (clock64() < edge) {
    }
    if (p.alignSpread > 1) {
        const unsigned long long r = mix(p.seed, 0xa11900000ull + warpKey);
        spin(static_cast<unsigned>(r % p.alignSpread));
    }
}

/** A random pre-delay per warp (warp stagger), drawn per launch. */
__device__ __forceinline__ void preDelay(const Launch& p, unsigned warpKey) {
    if (p.prime) primeLines(p);
    if (p.alignShift) {
        alignStart(p, warpKey);
        return;
    }
    if (p.preDelay == 0) return;
    unsigned long long r = mix(p.seed, 0x51ed0000ull + warpKey);
    if ((r & 3) == 0) return; // a quarter of the warps start at once
    unsigned d = static_cast<unsigned>((r >> 8) % p.preDelay);
    if (d > 2048)
        __nanosleep(d);
    else
        spin(d);
}

/** Optional small delay between two instructions of a litmus thread. */
__device__ __forceinline__ void jitter(const Launch& p, unsigned warpKey, unsigned step) {
    if (p.jitter == 0) return;
    unsigned long long r =
        mix(p.seed ^ 0xa5a5ull, (static_cast<unsigned long long>(warpKey) << 8) + step);
    if ((r & 0xff) < p.jitter) spin(static_cast<unsigned>((r >> 8) & 255u));
}

/** True once stress has run p.stressNs (0: no bound, harness 1's classic launches): a wait of a
 * testing CTA must never be held up for anything like its 2 ms deadline. */
__device__ __forceinline__ bool stressOver(const Launch& p, unsigned long long start, unsigned i) {
    return p.stressNs && (i & 15u) == 15u && globalTimer() - start > p.stressNs;
}

/**
 * SM-local stress (stress CTAs share SMs with testing CTAs): half the warps hammer their CTA's
 * own shared memory with 32-way bank conflicts (the SM's shared-memory pipeline is shared), half
 * stream loads through L1 over a 4 MiB scratch area (evicting and refilling L1 lines).
 */
static __device__ __noinline__ void smStress(const Launch& p) {
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    const unsigned words = (p.sharedBytes < 4096u ? p.sharedBytes : 4096u) / 4u;
    const unsigned long long start = globalTimer();
    if ((warp & 1) == 0 && words >= 32) {
        const unsigned base = sharedBase();
        for (unsigned i = 0; i < p.stressIters && !stressOver(p, start, i); ++i) {
            const unsigned a = base + ((lane * 32u + i) % words) * 4u;
            sharedStore(a, sharedLoad(a) + 1u);
        }
        return;
    }
    if (p.scratchWords < 1024) return;
    unsigned v = 0;
    const unsigned lines = p.scratchWords / 32;
    for (unsigned i = 0; i < p.stressIters && !stressOver(p, start, i); ++i) {
        const unsigned long long r =
            mix(p.seed ^ 0x5111ull, (blockIdx.x * 64ull + warp) * 4096 + i);
        const unsigned* a = p.scratch + static_cast<unsigned long long>(r % lines) * 32 + lane;
        unsigned x;
        asm volatile("ld.global.ca.b32 %0, [%1];" : "=r"(x) : "l"(a));
        v += x;
    }
    if (v == 0x9e3779b9u) __nanosleep(1);
}

/**
 * Async-proxy stress (stress CTAs share SMs with testing CTAs): lane 0 of each warp keeps the
 * SM's bulk-copy unit busy, copying scratch lines into its own shared buffer (an mbarrier
 * tracks the bytes, as a TMA load) and every other round back out (a bulk store in a bulk
 * group), beside the testing CTAs' own async-proxy traffic.
 */
static __device__ __noinline__ void asyncStress(const Launch& p) {
    const unsigned warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    if ((threadIdx.x & 31u) != 0 || warps == 0) return;
    // this warp's 16-byte aligned region: its mbarrier, then its buffer (bulk copies need 16)
    const unsigned region = (p.sharedBytes / warps) & ~15u;
    if (region < 32u) return;
    const unsigned bytes = region - 16u < 1024u ? region - 16u : 1024u;
    if (p.scratchWords * 4ull < bytes * 2ull) return;
    const unsigned mb = sharedBase() + warp * region, buf = mb + 16u;
    const unsigned long long chunks = p.scratchWords * 4ull / bytes;
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(mb) : "memory");
    // the init is a generic-proxy write the copies' complete_tx (async proxy) must see
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    const unsigned long long start = globalTimer();
    unsigned phase = 0;
    for (unsigned i = 0; i < p.stressIters && !stressOver(p, start, i | 15u); ++i) {
        const unsigned long long r =
            mix(p.seed ^ 0xa5a5ull, (blockIdx.x * 64ull + warp) * 4096 + i);
        const unsigned char* src =
            reinterpret_cast<const unsigned char*>(p.scratch) + (r % chunks) * bytes;
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mb), "r"(bytes)
                     : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                     "[%0], [%1], %2, [%3];" ::"r"(buf),
                     "l"(src), "r"(bytes), "r"(mb)
                     : "memory");
        // a copy from valid global memory completes: wait for it, so no copy outlives the CTA
        unsigned done = 0;
        while (!done)
            asm volatile("{ .reg .pred P; mbarrier.try_wait.parity.shared::cta.b64 P, [%1], %2; "
                         "selp.u32 %0, 1, 0, P; }"
                         : "=r"(done)
                         : "r"(mb), "r"(phase)
                         : "memory");
        phase ^= 1u;
        if (i & 1u) {
            unsigned char* dst =
                reinterpret_cast<unsigned char*>(p.scratch) + ((r >> 20) % chunks) * bytes;
            asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst),
                         "r"(buf), "r"(bytes)
                         : "memory");
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
            asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
        }
    }
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

/** Stress CTAs hammer scratch lines with one of four access patterns (st;st, st;ld, ld;st, ld;ld).
 */
static __device__ __noinline__ void stress(const Launch& p) {
    if (p.stressKind == kStressSm) return smStress(p);
    if (p.stressKind == kStressAsync) return asyncStress(p);
    if (p.stressIters == 0 || p.scratchWords < 64) return;
    unsigned lines = p.scratchWords / 64;
    unsigned long long r = mix(p.seed, 0x5eed0000ull + blockIdx.x);
    unsigned line = static_cast<unsigned>(r % (p.stressLines ? p.stressLines : 1)) % lines;
    volatile unsigned* base = p.scratch + static_cast<unsigned long long>(line) * 64;
    unsigned lane = threadIdx.x & 31, v = 0;
    const unsigned long long start = p.stressNs ? globalTimer() : 0;
    for (unsigned i = 0; i < p.stressIters && !stressOver(p, start, i); ++i) {
        switch (p.stressPattern & 3) {
        case 0:
            base[lane] = i;
            base[lane + 32] = i + 1;
            break;
        case 1:
            base[lane] = i;
            v += base[lane + 32];
            break;
        case 2:
            v += base[lane];
            base[lane + 32] = i;
            break;
        default:
            v += base[lane] + base[lane + 32];
            break;
        }
    }
    if (v == 0xffffffffu) base[lane] = v; // keeps the loads alive
}

/** Shared-memory stress by the idle warps of a testing CTA (bank conflicts, smem traffic). */
__device__ __forceinline__ void sharedStress(const Launch& p, unsigned addr, unsigned words) {
    if (p.stressIters == 0 || words == 0) return;
    unsigned lane = threadIdx.x & 31;
    for (unsigned i = 0; i < p.stressIters; ++i) {
        unsigned a = addr + ((lane * 32u + i) % words) * 4u; // 32-way bank conflicts
        sharedStore(a, sharedLoad(a) + 1u);
    }
}

// ---------------------------------------------------------------------------------------------
// Histogram: outcomes hashed into an open-addressing table in global memory
// ---------------------------------------------------------------------------------------------

__device__ __forceinline__ unsigned long long outcomeKey(const int* v, int n, unsigned flags) {
    unsigned long long h = 0x12345678ull + flags;
    for (int i = 0; i < n; ++i)
        h = mix(h, static_cast<unsigned>(v[i]));
    return h | 1ull; // 0 marks an empty entry
}

/** Adds one instance's outcome; warps aggregate equal outcomes first to spare atomics. */
static __device__ void histAdd(const Hist& h, const int* v, int n, unsigned flags, bool active) {
    flags |= h.tag << kEnvFlagShift; // the runner strips it again (per-incantation counts)
    unsigned long long key = active ? outcomeKey(v, n, flags) : 0ull;
    unsigned mask = __activemask();
    unsigned same = __match_any_sync(mask, key);
    unsigned lane = threadIdx.x & 31;
    if (!active || lane != static_cast<unsigned>(__ffs(same) - 1)) return;
    unsigned idx = static_cast<unsigned>(key) & (h.capacity - 1);
    for (unsigned probe = 0; probe < h.capacity; ++probe) {
        unsigned long long prev = atomicCAS(h.keys + idx, 0ull, key);
        if (prev == 0ull) {
            for (int i = 0; i < n; ++i)
                h.values[static_cast<unsigned long long>(idx) * h.width + i] = v[i];
            h.flags[idx] = flags;
        }
        if (prev == 0ull || prev == key) {
            atomicAdd(h.counts + idx, static_cast<unsigned long long>(__popc(same)));
            return;
        }
        idx = (idx + 1) & (h.capacity - 1);
    }
    atomicAdd(h.overflow, 1u);
}

} // namespace litmus
