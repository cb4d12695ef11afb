// Parameters of one launch of a litmus kernel, shared by the host runner and the device code.
#pragma once

namespace litmus {

/** Outcome flags stored beside an instance's values. */
constexpr unsigned kFlagStuck = 1; ///< a blocking wait of the instance timed out

/** The device histogram: an open-addressing table filled by the histogram kernel. */
struct Hist {
    unsigned long long* keys;   ///< outcome hash per entry; 0 = empty
    unsigned long long* counts; ///< instances per entry, summed over launches
    int* values;                ///< capacity x width observed values
    unsigned* flags;            ///< outcome flags per entry
    unsigned* overflow;         ///< outcomes that found no free entry
    unsigned capacity;          ///< a power of two
    unsigned width;             ///< values per entry
    unsigned tag;               ///< the launch's environment (kEnv* bits), kept in the flags' high
                                ///< bits so the runner can say which incantation saw what
};

/** Environment bits of a launch (Hist::tag): which incantations it drew. */
constexpr unsigned kEnvSparse = 1;       ///< few teams, stress CTAs fill every SM beside them
constexpr unsigned kEnvPrime = 2;        ///< testing warps load their team's global lines into L1
constexpr unsigned kEnvAlign = 4;        ///< testing warps of an SM start on one clock64 edge
constexpr unsigned kEnvTeamLines = 8;    ///< global slots kept within the team (shared lines)
constexpr unsigned kEnvStressShift = 4;  ///< bits 4-5: 0 without stress, else 1 + kStress*
constexpr unsigned kEnvBacklogShift = 6; ///< bits 6-7: the launch's kBacklog* placement
constexpr unsigned kEnvFlagShift = 8;    ///< where the tag sits in an outcome's flags

/** Where harness 4's tensor-core backlog goes (Launch::mmaBacklog): before which of a thread's
 *  wgmma.mma_async, counted in the order the test writes them. */
constexpr unsigned kBacklogNone = 0;
constexpr unsigned kBacklogEvery = 1;
/// the thread's 1st, 3rd, ... mma: the mma after each issues at once
constexpr unsigned kBacklogEven = 2;
constexpr unsigned kBacklogOdd = 3;

/** What stress CTAs hammer. */
constexpr unsigned kStressScratch = 0; ///< a few scratch lines (GPUHarbor's patterns)
constexpr unsigned kStressSm = 1;      ///< the SM: shared-memory bank conflicts and L1 refills
constexpr unsigned kStressAsync = 2;   ///< the SM's async proxy: bulk copies in and out (TMA)

/**
 * Everything one launch needs. The host draws the random parts (permutations, delays, stress)
 * afresh for every launch, so each launch places instances differently.
 */
struct Launch {
    unsigned* gmem;        ///< global locations: instances x locations slots
    unsigned* out;         ///< per instance: observed values, then the flags word
    unsigned* scratch;     ///< stress lines
    unsigned* syncCounter; ///< the start line's counter (never reset; the target grows)
    Hist hist;
    unsigned long long seed;      ///< per launch
    unsigned long long timeoutNs; ///< a blocking wait gives up after this long
    unsigned teams;               ///< test teams in this launch
    unsigned clusters; ///< hardware clusters in the grid (teams x litmus clusters + stress)
    unsigned clusterMul, clusterAdd;           ///< cluster -> role permutation
    unsigned instances;                        ///< teams x rows x lanes
    unsigned globalMul, globalAdd, globalStep; ///< instance -> global slot permutation
    unsigned warpMul, warpAdd;                 ///< warp -> (litmus thread, row) permutation
    unsigned sharedMul, sharedAdd;             ///< instance -> shared slot permutation
    unsigned preDelay;                         ///< max pre-delay per warp (cycles; 0 = none)
    unsigned jitter; ///< chance (of 256) of a delay between two instructions
    unsigned stressIters, stressPattern, stressLines, scratchWords;
    unsigned syncTarget, useSync;
    // Incantations of harness 2, drawn per launch by runner.cu (see TestRun::environment)
    unsigned stressKind;            ///< kStress*: what stress CTAs hammer
    unsigned layout;                ///< 0: global slots scattered over all instances; 1: in-team
    unsigned teamInstances;         ///< instances per team
    unsigned globalLocs, slotWords; ///< the test's global locations, words per slot
    unsigned litmusClusters;        ///< hardware clusters per team
    unsigned clusterSize;           ///< CTAs per hardware cluster
    unsigned sharedBytes;           ///< dynamic shared memory per CTA
    unsigned prime;                 ///< load the team's global lines into L1 before the body
    unsigned alignShift;            ///< 0, or start on a clock64 multiple of 2^alignShift
    unsigned alignSpread;           ///< then a per-warp offset below this many cycles
    unsigned long long stressNs;    ///< stress stops after this long (ns; 0 = never, as harness 1)
    /// Tensor maps (128 bytes each, one per global location, in its order) for
    /// cp.async.bulk.tensor, built by the runner over gmem as rows of the map's box width: a
    /// copy's coordinates name its instance's slot
    unsigned long long tensorMaps;
    /// wgmma tests (harness 4): a kBacklog* placement of dummy mmas issued ahead of the test's
    /// wgmma.mma_async in the same group, so the tensor core reaches the test's mma (and reads
    /// its operands) long after its issue; it picks the test's kernel
    unsigned mmaBacklog;
};

} // namespace litmus
