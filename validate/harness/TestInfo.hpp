// Host-side description of one generated litmus test, and the registry that lists them all.
#pragma once

#include "Launch.hpp"

#include <cuda_runtime.h>
#include <vector>

namespace litmus {

/** What the runner needs to launch a generated test and print its histogram. */
struct TestInfo {
    const char* name;       ///< test name; a mutant's is NAME~MUTATION
    const char* file;       ///< litmus file, relative to the repository root
    const char* mutantOf;   ///< "" or the name of the forbidden test it weakens
    const char* mutation;   ///< "" or the mutation (see validate/README.md)
    const char* arch;       ///< "sm_90a" or "sm_100a"
    int archMajor;          ///< compute capability major the kernels are built for (9 or 10)
    const char* notRun;     ///< "" or why the kernel only exists for ptxas (not faithful)
    const char* quantifier; ///< exists, ~exists or forall
    const char* condition;  ///< the condition as herd prints it
    int numObserved;
    const char* const* observed;     ///< names, as ptxmc prints them
    bool (*prop)(const int* values); ///< the condition's proposition on one outcome
    unsigned clusterSize;            ///< hardware cluster size (1: no clusters)
    unsigned litmusClusters;         ///< hardware clusters per team
    unsigned warps;                  ///< warps per CTA
    unsigned rows, lanes;            ///< instances per CTA = rows x lanes
    unsigned activeWarpsPerTeam;     ///< warps that play a litmus thread, per team
    unsigned globals, globalSlotWords;
    unsigned sharedBytes;   ///< dynamic shared memory per CTA
    const void* testKernel; ///< for occupancy queries
    cudaError_t (*configure)();
    void (*launchTest)(const Launch& p, unsigned grid, cudaStream_t s);
    void (*launchHist)(const Launch& p, cudaStream_t s);
    void (*initGlobals)(const Launch& p, unsigned instances, cudaStream_t s);
    /// null, or per global location: its tensor map's rank (0: none), box width (words) and
    /// box rows, built by the runner over the whole global array (Launch::tensorMaps)
    const unsigned* tensorMaps;
    /// wgmma tests: the kernel of each kBacklog* placement (Launch::mmaBacklog), each with its
    /// own occupancy; null for other tests
    const void* const* backlogKernels;
    unsigned mmas; ///< the most wgmma.mma_async one litmus thread issues (its text's count)
};

/** Every generated test linked into the runner (filled by static Register objects). */
inline std::vector<const TestInfo*>& registry() {
    static std::vector<const TestInfo*> tests;
    return tests;
}

struct Register {
    explicit Register(const TestInfo* t) { registry().push_back(t); }
};

} // namespace litmus
