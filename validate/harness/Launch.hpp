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
};

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
};

} // namespace litmus
