// The builder's state: recorded steps become named locations and one litmus thread per warp role.
#pragma once

#include "kernel/Extract.hpp"
#include "kernel/Machine.hpp"
#include "kernel/Module.hpp"
#include "kernel/TmemSlices.hpp"
#include "litmus/Ast.hpp"
#include "ptx/Insn.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace ptxmc::kernel {

/** A recorded instruction read as the decoder reads it, where it is a bulk or tensor copy. */
std::optional<ptx::BulkCopy> bulkCopyOf(const litmus::Instruction& in);

/** A bulk or tensor copy from shared to global memory (a TMA store): it writes no shared memory. */
bool copiesSharedToGlobal(const litmus::Instruction& in);

/** An async buffer: a named range of a CTA's shared memory. */
struct Region {
    std::uint64_t start = 0, end = 0; ///< CTA-relative offsets
    std::string name;
};

/**
 * Builds the program to check from an evaluation (Extract.cpp: the program; BuilderBuffers.cpp:
 * mbarriers, async buffers and their parts, global tiles; BuilderRender.cpp: a step as a litmus
 * instruction, lanes merged into warps, ways as guards; BuilderTmem.cpp: tensor-memory slices;
 * BuilderRoles.cpp: identical warps as one role, arrival counts; BuilderBytes.cpp: the bytes of
 * tensor copies).
 */
class Builder {
public:
    Builder(const Module& m, const Extraction& x) : m_(m), x_(x) {}

    KernelProgram build();

private:
    struct Item {
        std::string key;
        litmus::Instruction insn;
        ptx::ModuleOp op =
            ptx::ModuleOp::Other; ///< the recorded instruction's row of ptx/ModuleOps.def
        int lanes = 1;
        int repeat = 1;
        /// the mbarriers an arrive counts on (scaled by lanes): a multicast commit's each
        std::vector<std::string> arriveOn;
        bool init = false;
        bool writesTmemQuarter = false; ///< a tcgen05.st of the warp's own lane quarter
        std::vector<DataChoice> guard;  ///< the ways of branches on data it runs under
    };
    struct WarpCode {
        int cta;
        std::vector<int> warps; ///< the warps this thread stands for (identical code)
        std::vector<Item> items;
    };

    static std::string roleName(const WarpCode& w);

    [[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) const {
        throw InputError(loc, msg);
    }
    void note(const SourceLoc& loc, const std::string& text) {
        notes_.emplace(text, Note{loc, text});
    }

    // ---- which addresses are what ----
    void findObjects();

    void addStart(const RawOperand& o, std::optional<std::uint64_t> bytes, int tier);

    /**
     * Records that copy `s` reads or writes the buffer at `offset`. Copies are stages of one
     * ring where they are in one shared variable and come from one tensor map (its box is one
     * size) or, without one, from one instruction.
     */
    void ringSite(const Step& s, std::uint64_t offset);

    std::optional<std::uint64_t> known(const RawOperand& o) const;

    void bufferStarts(const Step& s);

    static std::optional<std::uint64_t> descriptorAddr(const RawOperand& o);

    void descriptorPoint(const RawOperand& o);

    /**
     * Per buffer start, the least distance between two buffers the copies of one ring write
     * (ringSite: copies of one tensor map move boxes of one size, which the PTX does not hold). The
     * ring's last stage used then ends that far after its start, not at the next buffer: with fewer
     * k-blocks than stages the unused stages' buffers are unknown, and a scalar after the last
     * stage (DeepGEMM's scale factors of B after those of A) would fall inside it.
     */
    std::map<std::uint64_t, std::pair<std::uint64_t, std::size_t>> ringStrides() const;

    void makeRegions();

    const Region* regionAt(std::uint64_t off) const;

    std::string uniqueName(std::string n);

    // ---- rendering ----
    /** `[name]` or `[name@C]` for the location at shared address `a` seen from CTA `cta`. */
    std::optional<litmus::Operand> sharedRef(std::uint64_t a, int cta, const SourceLoc& loc,
                                             bool mbar);

    litmus::Operand imm(std::uint64_t v, const SourceLoc& loc) const;
    litmus::Operand sink(const SourceLoc& loc) const;
    static std::string regName(const std::string& r);
    litmus::Operand reg(const RawOperand& r) const;
    /** Fails with `what` and what `v` comes from: a parameter field not given, else `otherwise`. */
    [[noreturn]] void failOn(const SourceLoc& loc, const std::string& what, const Val& v,
                             const std::string& otherwise) const;

    /** An input: its value when known, else the register (data). */
    litmus::Operand input(const RawOperand& r, const Step& s, bool mustKnow) const;
    litmus::Operand output(const RawOperand& r) const;

    std::optional<Item> render(const Step& s, int cta, const SourceLoc& loc);

    static std::string text(const litmus::Instruction& in);

    /**
     * A tensor map is its tensor: the parameter that holds it and, in a struct of several (a
     * CUTLASS Params holds those of A, B, C, D at +0, +128, ...), its offset there; a map that
     * is not a parameter is named by its address. Tiles of different maps are different memory.
     */
    std::string tensorMapName(const RawOperand& tmap) const;
    /** "A tensor-map is a 128-byte opaque object" ({TensorMap}). */
    static constexpr std::uint64_t kTensorMapBytes = 128;

    litmus::Operand tensorTile(const Step& s, const RawOperand& tmap,
                               const std::vector<RawOperand>&);

    std::optional<litmus::Operand> globalRef(const Step& s, const RawOperand& o);

    // ---- branches on data: nondet.pred choices ----
    /** The register of a branch's choice: `way_l88_1`, its second run at PTX line 88. */
    std::string wayName(const DataChoice& c) const;

    /** What a thread defined so far: its choices, and a register per guard of several ways. */
    static inline const ptx::Op kMovB32 = ptx::Mov{ptx::Type{'b', 32}};

    struct Ways {
        std::set<std::string> chosen;
        std::map<std::string, std::string> conjunctions;
    };

    /** An instruction the extraction adds, spelled by the one instruction table (ptx/Print). */
    static litmus::Instruction pseudo(ptx::Op op, std::vector<litmus::Operand> operands,
                                      const SourceLoc& loc);

    litmus::Operand named(const std::string& name, const SourceLoc& loc) const;

    /**
     * `it`'s instruction under its ways: each choice a `nondet.pred` before its first use, one
     * way a guard `@way` / `@!way`, several a register set to 1 and cleared by every way that
     * does not hold (appended to `code` first).
     */
    litmus::Instruction guarded(const Item& it, Ways& ways, std::vector<litmus::Instruction>& code);

    // ---- lanes to warps ----
    std::vector<Item> mergeLanes(const WarpTrace& w);

    const Function& entry() const { return *entry_; }

    // ---- buffers written by several warps in disjoint parts ----
    /**
     * A buffer that several warps of a CTA write with generic stores or stmatrix, each its own
     * bytes (an epilogue staging tile), is one location per writer: the stores of different warps
     * do not conflict, and an async operation on the buffer is one copy per part.
     */
    void partitionWrites();

    /** Renames a generic access's location to the part its bytes belong to. */
    void partOf(litmus::Operand& o, const RawOperand& raw, int cta, bool store);

    /** An async operation on a partitioned buffer: one copy per part. */
    std::vector<Item> expandParts(Item item, int cta);

    // ---- tensor memory (TmemSlices) ----
    void tmemStart(const Step& s);

    /** The lanes and columns a tcgen05 instruction's tensor-memory operand `o` covers. */
    static TmemSlices::Span tmemSpan(const Step& s, const RawOperand& o, int warp, bool mmaA,
                                     std::uint64_t mmaN);

    /** Pass 2: writes other than an mma's slice their accumulator; mma D ends cut it. */
    void tmemWrites(const Step& s, int warp);

    /** The instruction descriptor of a tcgen05.mma: its fourth operand, after D, A and B. */
    static const RawOperand& mmaDescriptor(const Step& s) { return s.operands.at(3); }

    /**
     * The tensor-memory locations an operand covers: one (a Memory operand) or several slices
     * of an accumulator (a list the lowering reads as one access of each).
     */
    litmus::Operand tmemRef(const RawOperand& o, int cta, const Step& s, bool mmaA = false,
                            std::uint64_t mmaN = 0);

    void declareTmem(const std::string& name, int cta);

    litmus::Operand descriptorRef(const RawOperand& o, int cta, const Step& s);

    /** Resolves an address operand to a shared location (its mbarrier's, when the flag says so). */
    using SharedAddr = std::function<std::optional<litmus::Operand>(const RawOperand&, bool)>;
    void renderTcgen05(const Step& s, const std::vector<RawOperand>& ops, litmus::Instruction& in,
                       Item& it, int cta, const SharedAddr& addr);

    bool isGlobal(const std::string& name) const;

    // ---- warps with the same code are one role ----
    std::string signature(const WarpCode& w) const;

    /** Whether k warps with this code may stand as one: no shared write but to their own part. */
    bool mergeable(const WarpCode& w) const;

    /**
     * Warps of one lane quarter that store to their quarter's slices may write the same cells:
     * only warps of different quarters stand as one role for such code.
     */
    static bool quarterFree(const WarpCode& role, const WarpCode& w);

    /** A role's accesses of its first warp's lane quarter stand for every warp's own quarter. */
    void spreadQuarters(Item& it, int first, const std::set<int>& quarters);

    void mergeRoles();

    /**
     * Slices that every operand names together are one location: a role standing for a whole
     * warpgroup covers all four lane quarters, and column ranges that no store tells apart need
     * no cut. Two operands overlap exactly when they did before; the program is smaller.
     */
    void coarsenTmem();

    /** A group's name: the accumulator's, a column range's, or its first slice's. */
    static std::string groupName(const std::vector<std::string>& members,
                                 const std::map<std::string, std::set<std::string>>& slicesOf);

    template <typename F> void forEachTmemOperand(F f) {
        for (WarpCode& w : warps_)
            for (Item& it : w.items)
                if (ptx::isTcgen05Op(it.op))
                    for (auto& o : it.insn.operands)
                        if (isTmemOperand(o)) f(o);
    }

    /** A tensor-memory location, or a list of an accumulator's slices. */
    bool isTmemOperand(const litmus::Operand& o) const;

    /** `bar.sync N, count`: the count is in threads, a litmus thread is a warp (or a role). */
    void scaleNamedBarriers();

    /**
     * A warp's instruction stands for the lanes that executed it. Arrivals count per thread, so
     * each barrier's expected count and its arrivals are divided by their greatest common
     * divisor (128 threads = 4 warps of 32 arriving: count 4, one arrive per warp).
     */
    void scaleArrivals();

    void declare(litmus::Test& t);

    /**
     * The bytes a tensor copy moves are in its tensor map, which the PTX does not hold: each
     * copy completing on a barrier is given an equal share of what the barrier's expect_tx
     * announce, so that the copies of a phase complete exactly its transaction count.
     */
    std::int64_t tileBytes(const std::string& tile);

    static bool completesTensorCopy(const Item& it);

    /**
     * The CTAs whose barrier a tensor copy issued in CTA `cta` completes on: with
     * .multicast::cluster every CTA its ctaMask names (".cta_group::1 : The mbarrier signal is
     * multicast to the same shared memory offset as mbar in the destination CTA",
     * {CpAsyncBulkTensor}); otherwise the barrier operand's own. The extracted program is one
     * cluster, so a rank is a CTA number. With .cta_group::2 each destination's signal goes to
     * it or its peer by the rank parity of mbar's CTA, as the check (lowerCopy) sends it: a
     * 2-SM load's halves complete on the leaders' barriers.
     */
    std::vector<int> copyDestinations(const litmus::Instruction& in, int cta) const;
    /** The barriers a multicast arrival (tcgen05.commit, mbarrier.arrive::32b) counts on: the
     *  one at `barrier`'s offset in each CTA of the cluster `mask` names (a rank is a CTA). */
    std::vector<std::string> arrivalsOfMask(const std::string& barrier, std::int64_t mask) const;
    /** The cluster ranks a ctaMask names, ascending (bits past the cluster left out). */
    std::vector<int> ranksOfMask(std::int64_t mask) const;

    /**
     * The barrier and the bytes of an expect_tx: `mbarrier.arrive.expect_tx` (state, [bar],
     * bytes) or `mbarrier.expect_tx` ([bar], bytes: CUTLASS's expect_transaction, its
     * epilogues' loads of C), scaled by the warps it stands for; none for anything else.
     */
    static std::optional<std::pair<const litmus::Operand*, std::int64_t>>
    expectTxOf(const Item& it);

    /** A barrier operand as name@cta, `cta` where the operand names none (its own CTA). */
    static std::string barrierKey(const litmus::Operand& o, int cta);

    /**
     * The barriers on which warp `w` issues its tensor copies before their expect_tx
     * (DeepGEMM's loads, then `arrive_and_expect_tx`; the tx-count may go below zero in
     * between: its minimum is -(2^20 - 1), 9.7.15.16.3) rather than after it (CUTLASS's): the
     * first of the two on each.
     */
    std::set<std::string> copiesBeforeExpect(const WarpCode& w) const;

    /**
     * Splits each phase's expect_tx among the tensor copies its warp issues on that barrier
     * after it, or before it where the warp copies first (copiesBeforeExpect), in multiples of
     * 16 bytes, the last copy taking the rest. A barrier that copies of
     * other warps complete too (a peer CTA's half of a 2-SM stage, through mapa, or a peer's
     * multicast copy) shares what its expect_tx announce in all equally among all its copies:
     * the announcing warp's own copies do not bring the peer's bytes. A multicast copy counts
     * at every destination CTA's barrier, since its bytes complete on each of them.
     */
    void shareBytes();
    /** The bytes of the async buffer (region) of that name, if one. */
    std::optional<std::int64_t> regionBytes(const std::string& name) const;

    struct Start {
        std::uint64_t offset;
        std::optional<std::uint64_t> bytes;
        int tier;
    };
    struct Tile {
        std::string name, param;
    };

public:
    const Function* entry_ = nullptr;

private:
    const Module& m_;
    const Extraction& x_;
    std::set<std::uint64_t> mbarriers_;
    std::vector<Start> starts_;
    /// a ring (ringSite): its tensor map's address (0: none), else its copy's statement
    /// (SIZE_MAX: a tensor map), and its shared variable's offset
    using RingKey = std::tuple<std::uint64_t, std::size_t, std::uint64_t>;
    /// per ring, the buffer starts its copies write or read, and its first copy's statement
    std::map<RingKey, std::pair<std::set<std::uint64_t>, std::size_t>> ringSites_;
    std::vector<Region> regions_;
    std::map<std::uint64_t, std::string> mbarNames_;
    std::set<std::string> names_;
    TmemSlices tmem_;                               ///< the accumulators and their slices
    std::map<std::string, std::int64_t> tileBytes_; ///< a tensor copy's global tile -> bytes
    std::map<std::string, std::set<int>> usedIn_;
    std::map<std::string, ir::Space> spaceOf_;
    std::map<std::string, std::size_t> tmemRows_; ///< tensor memory: registers per thread moved
    std::map<std::string, Tile> tiles_;
    std::map<std::string, std::string> globals_;
    std::vector<WarpCode> warps_;
    std::map<std::string, Note> notes_;
    std::size_t dropped_ = 0;
    int warp_ = 0; ///< the warp being rendered
    std::map<std::pair<int, std::string>, std::map<std::uint64_t, int>> parts_; ///< byte -> writer
    std::map<std::string, int> partWarp_;
    std::map<std::string, std::string> partRegion_;
    std::map<std::string, std::string> globalParts_; ///< a copy's piece of a global -> the whole
};

} // namespace ptxmc::kernel
