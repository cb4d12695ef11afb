// The litmus runner: launches every generated test for a time budget and prints histograms.
#include "Report.hpp"
#include "TensorMaps.hpp"
#include "TestInfo.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

using litmus::TestInfo;
using litmus::TestRun;

struct Options {
    unsigned long long seed = 1;
    double seconds = 2.0;               // per test
    unsigned long long maxLaunches = 0; // per test; 0 = only the time budget
    std::string out;
    std::string work;                 // per-test parts (default OUT/parts)
    std::vector<std::string> filters; // substrings of test names; empty = all
    bool list = false;
    int device = 0;
    double totalSeconds = 0;  // shared among the tests; 0 = --seconds each
    double hangSeconds = 120; // a worker without progress this long is killed
    bool classic = false;     // every launch in harness 1's environment (for comparisons)
};

const char* const kUsage =
    R"(usage: litmus-runner [--seed N] [--seconds S | --total-seconds T] [--launches N]
                     [--out DIR] [--work DIR] [--device N] [--hang-seconds H] [--classic]
                     [--list] [FILTER...]
Runs every generated litmus test linked into this runner (or those whose name contains a
FILTER) for S seconds each (or T seconds shared by all) or N launches, and writes
results.txt and results.json to DIR (default: $OUT, else ./out). Tests built for another
architecture are refused, not run. A test that makes no progress for H seconds (default 120)
is killed and reported as an error; the run goes on with the next test. Per-test results
are kept in the --work folder (default DIR/parts) until they are joined. --classic draws
every launch in harness 1's environment (no sparse launches, SM stress, in-team slots, L1
priming or clock alignment), to compare the incantations with it.)";

[[noreturn]] void usage(const char* why) {
    std::fprintf(stderr, "litmus-runner: %s\n%s\n", why, kUsage);
    std::exit(2);
}

Options parseOptions(int argc, char** argv) {
    Options o;
    const char* env = std::getenv("OUT");
    o.out = env && *env ? env : "out";
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) usage(("missing value after " + a).c_str());
            return argv[++i];
        };
        if (a == "--seed")
            o.seed = std::strtoull(next().c_str(), nullptr, 0);
        else if (a == "--seconds")
            o.seconds = std::atof(next().c_str());
        else if (a == "--launches")
            o.maxLaunches = std::strtoull(next().c_str(), nullptr, 0);
        else if (a == "--out")
            o.out = next();
        else if (a == "--work")
            o.work = next();
        else if (a == "--device")
            o.device = std::atoi(next().c_str());
        else if (a == "--total-seconds")
            o.totalSeconds = std::atof(next().c_str());
        else if (a == "--hang-seconds")
            o.hangSeconds = std::atof(next().c_str());
        else if (a == "--list")
            o.list = true;
        else if (a == "--classic")
            o.classic = true;
        else if (a == "--help" || a == "-h")
            usage("help");
        else if (!a.empty() && a[0] == '-')
            usage(("unknown option " + a).c_str());
        else
            o.filters.push_back(a);
    }
    return o;
}

/** A small deterministic generator for the per-launch choices (host side). */
struct Rng {
    unsigned long long s;
    unsigned long long next() {
        s += 0x9e3779b97f4a7c15ull;
        unsigned long long z = s;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    unsigned below(unsigned n) { return n ? static_cast<unsigned>(next() % n) : 0; }
    /** A multiplier coprime to n: the affine map i -> i*m+a is then a bijection of [0, n). */
    unsigned coprime(unsigned n) {
        if (n <= 1) return 1;
        for (;;) {
            unsigned m = 1 + below(n - 1);
            if (std::gcd(m, n) == 1) return m;
        }
    }
};

unsigned long long nameHash(const char* s) {
    unsigned long long h = 1469598103934665603ull;
    for (; *s; ++s)
        h = (h ^ static_cast<unsigned char>(*s)) * 1099511628211ull;
    return h;
}

bool check(cudaError_t e, TestRun& r, const char* what) {
    if (e == cudaSuccess) return true;
    r.status = "error";
    r.message = std::string(what) + ": " + cudaGetErrorString(e);
    return false;
}

/** Device buffers of one test; freed on scope exit. */
struct Buffers {
    std::vector<void*> owned;
    template <class T> cudaError_t alloc(T** p, std::size_t count) {
        cudaError_t e = cudaMalloc(reinterpret_cast<void**>(p), count * sizeof(T) + 16);
        if (e == cudaSuccess) {
            owned.push_back(*p);
            e = cudaMemset(*p, 0, count * sizeof(T) + 16);
        }
        return e;
    }
    ~Buffers() {
        for (void* p : owned)
            cudaFree(p);
    }
};

/** How many clusters (CTAs when clusterSize is 1) of this kernel fit on the device at once. */
unsigned residentClusters(const TestInfo& t, const void* kernel, const cudaDeviceProp& prop,
                          TestRun& r) {
    unsigned threads = t.warps * 32;
    if (t.clusterSize <= 1) {
        int perSm = 0;
        if (!check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, threads,
                                                                 t.sharedBytes),
                   r, "occupancy"))
            return 0;
        return static_cast<unsigned>(perSm) * prop.multiProcessorCount;
    }
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = t.clusterSize;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.gridDim = dim3(t.clusterSize * 64);
    cfg.blockDim = dim3(threads);
    cfg.dynamicSmemBytes = t.sharedBytes;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    int clusters = 0;
    if (!check(cudaOccupancyMaxActiveClusters(&clusters, kernel, &cfg), r, "occupancy")) return 0;
    return static_cast<unsigned>(clusters);
}

/**
 * One line on stderr (run.log) for a test that saw any instance satisfy the condition (`env`) or
 * get stuck (`stuck`): per incantation, those instances over the instances run, in the launches
 * that drew it and in the others.
 */
void envReport(const TestInfo& t, const std::vector<unsigned long long>& inst,
               const std::vector<unsigned long long>& pos, const char* what) {
    unsigned long long total = 0, hits = 0;
    for (std::size_t e = 0; e < inst.size(); ++e) {
        total += inst[e];
        hits += pos[e];
    }
    if (hits == 0) return;
    struct Knob {
        const char* name;
        bool (*on)(unsigned);
    };
    static const Knob knobs[] = {
        {"classic", [](unsigned e) { return e == 0 || e == (1u << litmus::kEnvStressShift); }},
        {"sparse", [](unsigned e) { return (e & litmus::kEnvSparse) != 0; }},
        {"prime", [](unsigned e) { return (e & litmus::kEnvPrime) != 0; }},
        {"align", [](unsigned e) { return (e & litmus::kEnvAlign) != 0; }},
        {"team-lines", [](unsigned e) { return (e & litmus::kEnvTeamLines) != 0; }},
        {"stress-scratch", [](unsigned e) { return ((e >> litmus::kEnvStressShift) & 3u) == 1; }},
        {"stress-sm", [](unsigned e) { return ((e >> litmus::kEnvStressShift) & 3u) == 2; }},
        {"stress-async", [](unsigned e) { return ((e >> litmus::kEnvStressShift) & 3u) == 3; }},
        {"mma-backlog", [](unsigned e) { return (e >> litmus::kEnvBacklogShift) != 0; }},
        {"backlog-every",
         [](unsigned e) { return (e >> litmus::kEnvBacklogShift) == litmus::kBacklogEvery; }},
        {"backlog-even",
         [](unsigned e) { return (e >> litmus::kEnvBacklogShift) == litmus::kBacklogEven; }},
        {"backlog-odd",
         [](unsigned e) { return (e >> litmus::kEnvBacklogShift) == litmus::kBacklogOdd; }},
    };
    std::string line = std::string("    ") + what + " " + t.name + ":";
    char buf[160];
    for (const Knob& k : knobs) {
        unsigned long long in = 0, hit = 0;
        for (std::size_t e = 0; e < inst.size(); ++e)
            if (k.on(static_cast<unsigned>(e))) {
                in += inst[e];
                hit += pos[e];
            }
        std::snprintf(buf, sizeof buf, " %s %llu/%.2g (off %llu/%.2g);", k.name, hit, double(in),
                      hits - hit, double(total - in));
        line += buf;
    }
    std::fprintf(stderr, "%s\n", line.c_str());
}

void runTest(const TestInfo& t, const Options& o, const cudaDeviceProp& prop, TestRun& r) {
    r.seed = o.seed ^ nameHash(t.name);
    if (!check(t.configure(), r, "configure")) return;
    // Every CTA of a launch is resident at once: a waiting instance never waits on a CTA
    // that has not started. A wgmma test's backlog kernels hold more registers, so each
    // placement has its occupancy (residentOf[placement]).
    unsigned residentOf[4] = {};
    for (unsigned k = 0; k < 4; ++k) {
        const void* kernel = t.backlogKernels ? t.backlogKernels[k] : t.testKernel;
        residentOf[k] = residentClusters(t, kernel, prop, r);
        if (r.status != "ok") return;
        if (residentOf[k] < t.litmusClusters) {
            r.status = "error";
            r.message = "the kernel's team does not fit on the device at once";
            return;
        }
    }
    const unsigned mostTeams = *std::max_element(residentOf, residentOf + 4) / t.litmusClusters;
    unsigned perTeam = t.rows * t.lanes;
    unsigned maxInstances = mostTeams * perTeam;
    unsigned width = t.numObserved > 0 ? static_cast<unsigned>(t.numObserved) : 1;
    const unsigned capacity = 1u << 14, scratchWords = 1u << 20;

    Buffers b;
    litmus::Launch p = {};
    if (!check(b.alloc(&p.gmem, std::size_t(maxInstances) * t.globals * t.globalSlotWords + 64), r,
               "cudaMalloc") ||
        !check(b.alloc(&p.out, std::size_t(maxInstances) * (width + 1)), r, "cudaMalloc") ||
        !check(b.alloc(&p.scratch, scratchWords), r, "cudaMalloc") ||
        !check(b.alloc(&p.syncCounter, 1), r, "cudaMalloc") ||
        !check(b.alloc(&p.hist.keys, capacity), r, "cudaMalloc") ||
        !check(b.alloc(&p.hist.counts, capacity), r, "cudaMalloc") ||
        !check(b.alloc(&p.hist.values, std::size_t(capacity) * width), r, "cudaMalloc") ||
        !check(b.alloc(&p.hist.flags, capacity), r, "cudaMalloc") ||
        !check(b.alloc(&p.hist.overflow, 1), r, "cudaMalloc"))
        return;
    const unsigned long long words =
        static_cast<unsigned long long>(maxInstances) * t.globals * t.globalSlotWords;
    unsigned char* maps = nullptr;
    if (t.tensorMaps) {
        if (!check(b.alloc(&maps, 128ull * t.globals + 128), r, "cudaMalloc")) return;
        std::string why = litmus::buildTensorMaps(t, p.gmem, words, maps);
        if (!why.empty()) {
            r.status = "error";
            r.message = why;
            return;
        }
        p.tensorMaps = reinterpret_cast<unsigned long long>(maps);
    }
    p.hist.capacity = capacity;
    p.hist.width = width;
    p.scratchWords = scratchWords;
    p.instances = maxInstances;
    t.initGlobals(p, maxInstances, nullptr);
    if (!check(cudaDeviceSynchronize(), r, "initialising global locations")) return;

    Rng rng{r.seed};
    static const unsigned delays[] = {0, 256, 2048, 8192};
    static const unsigned jitters[] = {0, 0, 16, 64};
    static const unsigned stressIters[] = {0, 64, 256, 1024};
    static const unsigned spreads[] = {1, 16, 64, 256};
    unsigned long long syncTarget = 0;
    p.teamInstances = perTeam;
    p.globalLocs = t.globals;
    p.slotWords = t.globalSlotWords;
    p.litmusClusters = t.litmusClusters;
    p.clusterSize = t.clusterSize;
    p.sharedBytes = t.sharedBytes;
    std::vector<unsigned long long> envInstances(1u << 8, 0);
    auto start = std::chrono::steady_clock::now();
    double elapsed = 0;
    const unsigned batch = 16;
    while (true) {
        for (unsigned k = 0; k < batch; ++k) {
            // A third of the launches keep harness 1's environment (classic); the others draw
            // each incantation of harness 2 independently.
            const bool classic = rng.below(3) == 0 || o.classic;
            // harness 4: half of a wgmma test's other launches queue dummy mmas ahead of its
            // mmas (drawn only then, so other tests keep harness 3's draws); even and odd
            // placements only where a thread has two mmas or more
            const bool backlog = !classic && t.backlogKernels && rng.below(2) == 0;
            p.mmaBacklog = !backlog      ? litmus::kBacklogNone
                           : t.mmas >= 2 ? litmus::kBacklogEvery + rng.below(3)
                                         : litmus::kBacklogEvery;
            const unsigned resident = residentOf[p.mmaBacklog];
            const unsigned maxTeams = resident / t.litmusClusters;
            const bool sparse = !classic && rng.below(2) == 0;
            unsigned teams = rng.below(4) == 0
                                 ? maxTeams
                                 : std::max(1u, maxTeams / 2 + rng.below(maxTeams / 2 + 1));
            if (sparse) // occupancy sweep: 1/16 to 5/16 of the teams, stress CTAs beside them
                teams = std::max(1u, maxTeams / 16 + rng.below(maxTeams / 4 + 1));
            teams = std::min(teams, maxTeams);
            unsigned testing = teams * t.litmusClusters;
            bool stress = sparse || rng.below(2) == 0;
            unsigned spare = resident - testing;
            unsigned stressClusters =
                stress && spare ? rng.below(std::min(spare, testing / 4 + 1) + 1) : 0;
            if (sparse) stressClusters = spare; // every SM gets stress CTAs beside its test
            p.seed = rng.next();
            p.teams = teams;
            p.clusters = testing + stressClusters;
            p.clusterMul = rng.coprime(p.clusters);
            p.clusterAdd = rng.below(p.clusters);
            p.instances = teams * perTeam;
            p.globalMul = rng.coprime(p.instances);
            p.globalAdd = rng.below(p.instances);
            p.globalStep = p.instances > 1 ? 1 + rng.below(p.instances - 1) : 0;
            p.warpMul = rng.coprime(t.warps);
            p.warpAdd = rng.below(t.warps);
            p.sharedMul = rng.coprime(perTeam);
            p.sharedAdd = rng.below(perTeam);
            p.preDelay = delays[rng.below(4)];
            p.jitter = jitters[rng.below(4)];
            p.stressIters = stress ? stressIters[1 + rng.below(3)] : 0;
            p.stressPattern = rng.below(4);
            p.stressLines = 1 + rng.below(16);
            p.useSync = rng.below(2);
            static const unsigned kinds[] = {litmus::kStressScratch, litmus::kStressSm,
                                             litmus::kStressAsync};
            p.stressKind = classic ? litmus::kStressScratch : kinds[rng.below(3)];
            p.stressNs = classic ? 0 : 200000; // 200 us: far below the 2 ms a wait may take
            p.layout = classic ? 0 : rng.below(2);
            if (p.layout == 1) // in-team slots; step 0 puts an instance's locations in one line
                p.globalStep = rng.below(2) == 0 ? 0 : rng.below(perTeam);
            p.prime = classic ? 0 : rng.below(2);
            // The clock edge lines up warps of one SM only: for tests within one CTA.
            const bool align =
                !classic && t.clusterSize == 1 && t.litmusClusters == 1 && rng.below(3) == 0;
            p.alignShift = align ? 14 : 0; // 16384 cycles, about 9 us
            p.alignSpread = spreads[rng.below(4)];
            unsigned tag = (sparse ? litmus::kEnvSparse : 0) | (p.prime ? litmus::kEnvPrime : 0) |
                           (align ? litmus::kEnvAlign : 0) |
                           (p.layout == 1 ? litmus::kEnvTeamLines : 0) |
                           (p.mmaBacklog << litmus::kEnvBacklogShift);
            if (p.stressIters) tag |= (1 + p.stressKind) << litmus::kEnvStressShift;
            p.hist.tag = tag;
            if (p.useSync)
                syncTarget += static_cast<unsigned long long>(teams) * t.activeWarpsPerTeam;
            p.syncTarget = static_cast<unsigned>(syncTarget);
            p.timeoutNs = 2000000; // 2 ms: far beyond any wait that can succeed
            t.launchTest(p, p.clusters * t.clusterSize, nullptr);
            t.launchHist(p, nullptr);
            r.launches += 1;
            r.instances += p.instances;
            envInstances[tag] += p.instances;
        }
        if (!check(cudaGetLastError(), r, "launching the test kernel") ||
            !check(cudaDeviceSynchronize(), r, "running the test kernel"))
            return;
        elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (elapsed >= o.seconds) break;
        if (o.maxLaunches && r.launches >= o.maxLaunches) break;
    }
    r.seconds = elapsed;
    r.environment =
        std::string("per launch: ") + (o.classic ? "" : "classic 1/3 ") +
        "(harness 1: teams in [max/2, max], stress CTAs 50% on scratch lines (64..1024 "
        "iterations, 4 patterns), pre-delay 0/256/2048/8192 cycles, jitter 0/16/64 of 256, start "
        "line 50%, all placements permuted)" +
        (o.classic
             ? std::string()
             : std::string(
                   "; else also sparse 1/2 (1/16..5/16 of the teams, stress CTAs in every "
                   "spare slot), stress 1/2 on scratch lines, on the SM (shared-memory bank "
                   "conflicts, L1 refills) or on its async proxy (bulk copies in and out) for "
                   "at most 200 us, global slots in-team 1/2, L1 "
                   "priming of the team's lines 1/2, clock64-aligned start 1/3 of one-CTA "
                   "tests (then 0..255 cycles)") +
                   (t.backlogKernels
                        ? "; wgmma tests: 64 dummy m64n128k16 mmas ahead of every test mma, "
                          "the odd or the even ones, 1/2"
                        : ""));

    std::vector<unsigned long long> keys(capacity), counts(capacity);
    std::vector<int> values(std::size_t(capacity) * width);
    std::vector<unsigned> flags(capacity);
    unsigned overflow = 0;
    if (!check(cudaMemcpy(keys.data(), p.hist.keys, capacity * 8, cudaMemcpyDeviceToHost), r,
               "cudaMemcpy") ||
        !check(cudaMemcpy(counts.data(), p.hist.counts, capacity * 8, cudaMemcpyDeviceToHost), r,
               "cudaMemcpy") ||
        !check(cudaMemcpy(values.data(), p.hist.values, values.size() * 4, cudaMemcpyDeviceToHost),
               r, "cudaMemcpy") ||
        !check(cudaMemcpy(flags.data(), p.hist.flags, capacity * 4, cudaMemcpyDeviceToHost), r,
               "cudaMemcpy") ||
        !check(cudaMemcpy(&overflow, p.hist.overflow, 4, cudaMemcpyDeviceToHost), r, "cudaMemcpy"))
        return;
    r.overflow = overflow;
    // Entries differ by the launch's environment tag too (flags' high bits): count what each
    // environment saw, then merge them into one outcome per (values, flags).
    std::vector<unsigned long long> envPositive(envInstances.size(), 0);
    std::vector<unsigned long long> envStuck(envInstances.size(), 0);
    for (unsigned i = 0; i < capacity; ++i) {
        if (!keys[i]) continue;
        litmus::Outcome o;
        o.values.assign(values.begin() + std::size_t(i) * width,
                        values.begin() + std::size_t(i) * width + t.numObserved);
        const unsigned tag = (flags[i] >> litmus::kEnvFlagShift) & 0xffu;
        o.flags = flags[i] & ((1u << litmus::kEnvFlagShift) - 1);
        o.count = counts[i];
        o.satisfies = t.prop(o.values.data());
        if (o.flags & litmus::kFlagStuck) r.stuck += o.count;
        if (!o.flags && o.satisfies) envPositive[tag] += o.count;
        if (o.flags & litmus::kFlagStuck) envStuck[tag] += o.count;
        bool merged = false;
        for (litmus::Outcome& q : r.outcomes)
            if (q.flags == o.flags && q.values == o.values) {
                q.count += o.count;
                merged = true;
                break;
            }
        if (!merged) r.outcomes.push_back(o);
    }
    envReport(t, envInstances, envPositive, "env");
    envReport(t, envInstances, envStuck, "stuck");
}

bool selected(const TestInfo& t, const Options& o) {
    if (o.filters.empty()) return true;
    for (const std::string& f : o.filters)
        if (std::strstr(t.name, f.c_str())) return true;
    return false;
}

std::string versionText(int v) {
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::string readFile(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

void writeFile(const std::string& path, const std::string& text) {
    std::ofstream out(path + ".tmp");
    out << text;
    out.close();
    std::rename((path + ".tmp").c_str(), path.c_str());
}

TestRun describe(const TestInfo& t) {
    TestRun r;
    r.name = t.name;
    r.file = t.file;
    r.mutantOf = t.mutantOf;
    r.mutation = t.mutation;
    r.arch = t.arch;
    r.quantifier = t.quantifier;
    r.condition = t.condition;
    for (int i = 0; i < t.numObserved; ++i)
        r.observed.push_back(t.observed[i]);
    return r;
}

/** Results of test i go to WORK/i.json and i.txt; the supervisor joins them at the end. */
std::string partPath(const Options& o, std::size_t i, const char* ext) {
    return o.work + "/" + std::to_string(i) + ext;
}

/**
 * The worker: runs tests[first..] in this process (the only one that touches CUDA), writing
 * each result as soon as it is known and its index to WORK/progress.
 */
constexpr int kRestart = 4; ///< the worker's exit status after an error: start a fresh one

[[noreturn]] void worker(const std::vector<const TestInfo*>& tests, std::size_t first,
                         const Options& o, double deadline) {
    cudaDeviceProp prop = {};
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count <= o.device) {
        std::fprintf(stderr, "litmus-runner: no CUDA device %d\n", o.device);
        std::_Exit(3);
    }
    cudaSetDevice(o.device);
    cudaGetDeviceProperties(&prop, o.device);
    litmus::RunInfo info;
    info.seed = o.seed;
    info.secondsPerTest = o.seconds;
    info.maxLaunches = o.maxLaunches;
    info.harness = "ptxmc-litmus-runner 4"; // 2: sparse launches, SM stress, in-team slots,
                                            // ...; 3: async-proxy stress; 4: mma backlog
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    info.device = prop.name;
    info.computeCapability = std::to_string(prop.major) + "." + std::to_string(prop.minor);
    const char* driverText = std::getenv("LITMUS_DRIVER_VERSION");
    info.driver = (driverText && *driverText ? std::string(driverText) + ", " : std::string()) +
                  "CUDA " + versionText(driver);
    info.runtime = "CUDA runtime " + versionText(runtime);
    std::time_t t0 = std::time(nullptr);
    char stamp[64];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t0));
    info.started = stamp;
    if (first == 0) {
        writeFile(o.work + "/info.json", litmus::resultsJson(info, {}));
        writeFile(o.work + "/info.txt", "# " + info.harness + "\n# Device " + info.device +
                                            " (compute capability " + info.computeCapability +
                                            ")\n# Driver " + info.driver + "; " + info.runtime +
                                            "\n# Seed " + std::to_string(info.seed) + ", started " +
                                            info.started + "\n\n");
        std::fprintf(stderr, "litmus-runner: %s (sm_%d%d), %s; seed %llu\n", prop.name, prop.major,
                     prop.minor, info.driver.c_str(), o.seed);
    }
    for (std::size_t i = first; i < tests.size(); ++i) {
        const TestInfo& t = *tests[i];
        TestRun r = describe(t);
        if (*t.notRun) {
            r.status = "refused";
            r.message = std::string("compile-only kernel, not run: ") + t.notRun;
        } else if (t.archMajor != prop.major) {
            r.status = "refused";
            r.message = std::string("built for ") + t.arch +
                        (t.archMajor == 10 ? " (tcgen05 needs a Blackwell GPU)" : "") +
                        "; this device is " + prop.name + ", sm_" + std::to_string(prop.major) +
                        std::to_string(prop.minor);
        } else {
            Options mine = o;
            if (deadline > 0) // share what is left of the total budget among the tests left
                mine.seconds = std::max(0.2, (deadline - now()) / double(tests.size() - i) - 0.5);
            runTest(t, mine, prop, r);
        }
        std::fprintf(stderr, "[%zu/%zu] %s: %s", i + 1, tests.size(), t.name, r.status.c_str());
        if (r.status == "ok")
            std::fprintf(stderr, ", %llu instances in %.2f s (%.3g/s), positive %llu%s\n",
                         r.instances, r.seconds, r.seconds > 0 ? r.instances / r.seconds : 0.0,
                         litmus::positive(r), r.stuck ? ", some stuck" : "");
        else
            std::fprintf(stderr, " (%s)\n", r.message.c_str());
        writeFile(partPath(o, i, ".txt"), litmus::litmus7Block(r));
        writeFile(partPath(o, i, ".json"), litmus::testJson(r));
        writeFile(o.work + "/progress", std::to_string(i + 1));
        // A sticky CUDA error (a faulting kernel) spoils this process's context for good: a
        // fresh worker takes the next test.
        if (r.status == "error") {
            std::fflush(stderr);
            std::_Exit(kRestart);
        }
    }
    std::fflush(stderr);
    std::_Exit(0);
}

/** A result for a test whose worker died or hung. */
void recordFailure(const TestInfo& t, const Options& o, std::size_t i, const std::string& why) {
    TestRun r = describe(t);
    r.status = "error";
    r.message = why;
    std::fprintf(stderr, "[%zu] %s: error (%s)\n", i + 1, t.name, why.c_str());
    writeFile(partPath(o, i, ".txt"), litmus::litmus7Block(r));
    writeFile(partPath(o, i, ".json"), litmus::testJson(r));
}

std::size_t progress(const Options& o) {
    std::string s = readFile(o.work + "/progress");
    return s.empty() ? 0 : std::strtoull(s.c_str(), nullptr, 10);
}

} // namespace

int main(int argc, char** argv) {
    Options o = parseOptions(argc, argv);
    std::vector<const TestInfo*> all = litmus::registry(), tests;
    std::sort(all.begin(), all.end(), [](const TestInfo* a, const TestInfo* b) {
        return std::strcmp(a->name, b->name) < 0;
    });
    for (const TestInfo* t : all)
        if (selected(*t, o)) tests.push_back(t);
    if (o.list) {
        for (const TestInfo* t : tests)
            std::printf("%s %s %s\n", t->arch, t->name, t->file);
        return 0;
    }
    mkdir(o.out.c_str(), 0755);
    if (o.work.empty()) o.work = o.out + "/parts";
    mkdir(o.work.c_str(), 0755);
    std::remove((o.work + "/info.json").c_str()); // a stale run's header must not survive
    writeFile(o.work + "/progress", "0");
    double deadline = o.totalSeconds > 0 ? now() + o.totalSeconds : 0;
    // The supervisor never touches CUDA: a worker process runs the tests, and a hung kernel
    // (a harness bug) costs one test, not the run.
    std::size_t next = 0;
    while (next < tests.size()) {
        writeFile(o.work + "/progress", std::to_string(next));
        std::fflush(stdout);
        std::fflush(stderr);
        pid_t pid = fork();
        if (pid < 0) {
            std::perror("fork");
            return 1;
        }
        if (pid == 0) worker(tests, next, o, deadline);
        std::size_t seen = next;
        double lastChange = now();
        int status = 0;
        bool exited = false;
        while (!exited) {
            usleep(200000);
            if (waitpid(pid, &status, WNOHANG) == pid) exited = true;
            std::size_t p = progress(o);
            if (p != seen) {
                seen = p;
                lastChange = now();
            }
            double limit = o.hangSeconds;
            if (!exited && now() - lastChange > limit) {
                kill(pid, SIGKILL);
                waitpid(pid, &status, 0);
                recordFailure(*tests[seen], o, seen,
                              "no result after " + std::to_string(int(limit)) +
                                  " s: killed (a launch hung)");
                seen += 1;
                break;
            }
        }
        if (exited && WIFEXITED(status) && WEXITSTATUS(status) == 3) return 1; // no device
        const bool restart = exited && WIFEXITED(status) && WEXITSTATUS(status) == kRestart;
        if (exited && !restart && seen < tests.size() && progress(o) == seen) {
            recordFailure(*tests[seen], o, seen,
                          "the worker died (status " + std::to_string(status) + ")");
            seen += 1;
        }
        next = seen;
    }
    // Join the parts: results.txt in litmus7's style, results.json for ptxmc compare.
    std::string info = readFile(o.work + "/info.json");
    std::string head = info.substr(0, info.rfind('['));
    std::ofstream json(o.out + "/results.json");
    json << head << "[\n";
    std::ofstream text(o.out + "/results.txt");
    text << readFile(o.work + "/info.txt");
    for (std::size_t i = 0; i < tests.size(); ++i) {
        json << readFile(partPath(o, i, ".json")) << (i + 1 < tests.size() ? ",\n" : "\n");
        std::string block = readFile(partPath(o, i, ".txt"));
        text << block;
        std::fputs(block.c_str(), stdout);
    }
    json << " ]}\n";
    std::fprintf(stderr, "litmus-runner: wrote %s/results.txt and %s/results.json\n", o.out.c_str(),
                 o.out.c_str());
    return 0;
}
