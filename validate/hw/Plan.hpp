// How a litmus test is laid out on a GPU: CTAs, warps, instances, memory slots, value encodings.
#pragma once

#include "ir/Program.hpp"
#include "litmus/Ast.hpp"
#include "ptx/Program.hpp"
#include "support/SourceLoc.hpp"

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace ptxmc::validate {

/** The two targets: Hopper runs everything but tcgen05; tcgen05 tests need sm_100a. */
enum class Arch { Sm90a, Sm100a };
const char* archName(Arch a);

/** Thrown when a test cannot be mapped to hardware faithfully; the message says why. */
class Refused : public std::runtime_error {
public:
    Refused(const SourceLoc& loc, const std::string& why);
    SourceLoc loc;
    std::string why;
};

/**
 * How a location's 32-bit value is stored on the device. Litmus values are integers; the tensor
 * cores compute on f16 operands and f32 accumulators, and tcgen05.alloc stores a TMEM address.
 */
enum class Encoding {
    Int,      ///< the integer itself
    F16,      ///< an f16 in the low half, 0 in the high half (mma A/B operands)
    F32,      ///< an f32 (mma accumulators)
    TmemAddr, ///< a TMEM address: 0xffffffff stands for "not written", anything else the
              ///< address the model's alloc stores (allocToken)
};

struct LocPlan {
    const litmus::LocationDecl* decl = nullptr;
    std::string name;
    ir::Space space = ir::Space::Global;
    int index = 0; ///< position among the locations of its space
    Encoding encoding = Encoding::Int;
    bool tile = false;       ///< shared: a 4 KiB zeroed matrix tile (mma operand / cp source)
    unsigned slotBytes = 16; ///< shared/mbarrier: bytes per instance
    unsigned offset = 0;     ///< shared/mbarrier: byte offset of its region in dynamic smem
    unsigned column = 0;     ///< tmem: first column of its range
    unsigned columns = 0;    ///< tmem: width of its range
    unsigned oddShift = 0;   ///< tmem: cta_group::2 mma D; the odd CTA's cell is N/2 columns on
    std::vector<int> ctas;
    int rows = 1;
    std::vector<std::int64_t> init; ///< per row
    std::int64_t mbCount = 0;       ///< mbarrier: count, 0 = the test initialises it
    std::int64_t allocToken = -1;   ///< TmemAddr: the address the model's alloc stores
    /// global, the tensor of a cp.async.bulk.tensor: the box its map moves, `bytes N` of words
    /// (mapWidth x mapHeight), over the whole global array seen as rows of mapWidth words
    int mapRank = 0;
    unsigned mapWidth = 0, mapHeight = 0;
    /// a tensor map in memory (`C ... tensormap tm`, or a shared copy of one): the index in
    /// Plan::locs of the tensor whose map it holds; every version of it is that one map
    int mapOf = -1;
};

/** A declared array `a[N]`: its elements are locations of their own, named `a[i]` as the model
 *  names them, each with its own slots; `[a+k*r]` picks one at run time. */
struct ArrayPlan {
    int elements = 0;
    int stride = 4; ///< bytes from one element to the next, as declared
    int first = 0;  ///< index in Plan::locs of element 0 (the others follow)
};

struct CtaPlan {
    int cta = 0;
    int litmusCluster = 0;    ///< index of its cluster within a team
    int rank = 0;             ///< rank in its cluster (hardware rank too)
    std::vector<int> threads; ///< indices into Program::threads, in column order
};

struct Plan {
    Arch arch = Arch::Sm90a;
    bool tcMode = false; ///< tcgen05: one instance per team, a litmus thread is a whole warp
    /** wgmma (sm_90a): one instance per team, a litmus thread is a whole warpgroup (warps
     *  4k..4k+3 of its CTA); its per-thread work runs in thread 0 of the warpgroup. */
    bool wgMode = false;
    int ctaGroup = 1;
    unsigned clusterSize = 1;
    std::vector<std::vector<int>> clusterCtas; ///< [litmus cluster][rank] = CTA or -1
    std::map<int, CtaPlan> ctas;
    unsigned nMax = 1, rows = 1, lanes = 32, warps = 1;
    std::vector<LocPlan> locs;
    std::map<std::string, int> locIndex;
    std::map<std::string, ArrayPlan> arrays; ///< declared arrays by name
    unsigned globals = 0, globalSlotWords = 4;
    unsigned sharedBytes = 0;   ///< total dynamic shared memory per CTA
    unsigned harnessOffset = 0; ///< tc mode: TMEM address slot, then one mbarrier per thread
    unsigned tmemCols = 0;      ///< tc mode: columns the harness allocates (0 = none)
    unsigned mmaN = 16;         ///< columns per IDESC name step
    std::map<std::string, unsigned> idescN; ///< IDESC name -> N
    std::map<int, int> barrierIds;          ///< litmus barrier id -> hardware id (1..)
    /// per litmus cluster: the barrier.cluster arrive/wait pairs each of its litmus threads
    /// runs; every other thread of the hardware cluster runs as many (the barrier counts them)
    std::vector<unsigned> clusterPhases;
    bool litmusAlloc = false;   ///< the test runs tcgen05.alloc itself
    std::set<int> asyncIssuers; ///< threads that issue tcgen05 mma/cp/shift (commit-waited)
    unsigned activeWarpsPerTeam = 0;
    /** Emit even what has no faithful mapping: the kernel is for ptxas only, never run. */
    bool compileOnly = false;
    mutable std::vector<std::string> unfaithful; ///< compileOnly: what was not faithful

    /** A mapping that would not mirror the model: Refused, or recorded when compileOnly. */
    void notFaithful(const SourceLoc& loc, const std::string& why) const;

    const LocPlan& loc(const std::string& name) const;
    /** The location a name and constant byte offset denote: `a` with offset 8 and stride 4 is
     *  a[2]; a single location ignores the offset (a TMEM row is the Target's business). */
    const LocPlan& loc(const std::string& name, std::int64_t offset, const SourceLoc& at) const;
    /** The element name `a[i]`, as the model prints it. */
    static std::string elementName(const std::string& array, int i);
    unsigned perCta() const { return rows * lanes; }
    /** One instance per team (tcgen05 or wgmma tests). */
    bool single() const { return tcMode || wgMode; }
};

/** The tensor operand of a tensor copy (cp.async.bulk.tensor: the destination of a store, the
 *  source of a load), or null for any other instruction. */
const litmus::Operand* tensorOperand(const ptx::Insn& in);
/** Does the program use any tcgen05 instruction? */
bool usesTcgen05(const ptx::Program& test);
/** Does the program use any wgmma instruction? */
bool usesWgmma(const ptx::Program& test);

/**
 * Lays the test out, or throws Refused. `program` is the lowered test (already validated).
 * With `compileOnly`, only what cannot be emitted at all is refused.
 */
Plan makePlan(const ptx::Program& test, const ir::Program& program, bool compileOnly = false);

} // namespace ptxmc::validate
