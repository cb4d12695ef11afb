// The CUDA emitter of one litmus thread: registers, addresses and one asm statement per
// instruction.
#pragma once

#include "hw/Plan.hpp"
#include "ptx/Print.hpp"
#include "ptx/Program.hpp"
#include "ptx/Tables.hpp"

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace ptxmc::validate {

/** The emitter visits the decoded instruction (lowering has already accepted it). */
using Insn = ptx::Insn;

/** The text of an instruction the harness writes itself, as the decoder spells it. */
inline std::string opcode(const ptx::Op& op) {
    return ptx::printOpcode(op);
}
/** tcgen05.ld/st of one 32-bit column, a lane's row each: the decoder's default format. */
inline ptx::LdStFormat laneColumn() {
    return ptx::LdStFormat{};
}
/** mbarrier.init.shared::cta.b64 */
inline ptx::MbarrierInit mbarrierInit() {
    return ptx::MbarrierInit{{ptx::StateSpace::SharedCta, true}, false};
}

// The tensor-core emissions' shared-memory tiles: no swizzle, K-major, 8-row x 16-byte core
// matrices, LBO 128 B (K), SBO 256 B (M/N). Element (0,0) is the tile's first word whichever way
// the strides are read, and every other element an mma reads is a zero of the 4 KiB tile.
inline constexpr unsigned kTileLbo = 128, kTileSbo = 256;

/** A reference of the final condition, resolved to what the device records. */
struct ObsRef {
    std::string name;
    bool isRegister = false;
    int thread = -1; ///< register: index into Program::threads
    std::string reg;
    const LocPlan* loc = nullptr; ///< location
    int cta = -1, row = 0;
};

/** The observed references in ptxmc's order (condition first, then `locations`). */
std::vector<ObsRef> observedRefs(const ptx::Program& test, const Plan& plan);

/** C++ text of a 32-bit constant. */
std::string hex(std::uint32_t v);
/** The device word that stands for integer `v` under encoding `e` (host-side, exact). */
std::uint32_t encodeConstant(std::int64_t v, Encoding e, const SourceLoc& at);
/** C++ expression that turns a raw device word into the observed integer. */
std::string decodeExpr(const std::string& raw, const LocPlan& loc);
/** A name usable in C++ for a litmus register or location. */
std::string ident(const std::string& name);

class ThreadEmitter {
public:
    ThreadEmitter(const Plan& plan, const ptx::Program& test, std::size_t threadIndex,
                  const std::vector<ObsRef>& observed);
    /** The statements of this thread's case block (addresses, timing, body, epilogue). */
    std::string emit();
    /** The wgmma.mma_async the thread's text has (after emit). */
    unsigned mmas() const { return mmas_; }

private:
    enum class RegKind { Int, Token, Address, Pending };
    struct Target {
        const LocPlan* loc = nullptr; ///< with `index`: element 0 of the array
        int cta = -1, row = 0, rank = 0;
        bool remote = false;
        const ArrayPlan* array = nullptr; ///< `[a+k*r]`: the array, and
        std::string index;                ///< the C++ expression of the element's index
    };
    /** The same location at row 0 (a TMEM range's first lane). */
    static Target rowZero(Target t) {
        t.row = 0;
        return t;
    }
    struct PendingLoad {
        std::string var;
        const LocPlan* loc = nullptr;
        std::vector<std::pair<std::string, int>> regs; ///< register, lane holding its row
    };

    void instruction(const ptx::CodeItem& item);
    // control flow (EmitControl.cpp): C++ labels and gotos over the thread's register variables
    void label(const std::string& name);
    void branch(const std::string& label, const std::string& condition);
    void setp(const Insn& in, const ptx::Setp& s);
    void compareBranch(const Insn& in, const ptx::CompareBranch& b);
    void elect(const Insn& in);
    void exitThread();
    std::string exitLabel() const; ///< where exit and a loop out of time go: the epilogue
    std::string guardCondition(const litmus::Predicate& guard);
    /** Control flow needs one CUDA thread per litmus thread: refused in warp-wide modes. */
    void needsOwnThread(const std::string& what) const;
    /** Control flow on `regs` (a guard's, a branch's): in tcgen05 and wgmma tests only on
     *  uniform registers, run by every lane. */
    void needsUniform(const std::string& what, const std::vector<std::string>& regs);
    bool definesUniform(const Insn& in) const; ///< an instruction computing a uniform register
    /** Inside a loop (a label met that a later branch jumps back to): checks that follow the
     *  text's order (fences, pending loads) do not see the next round. */
    bool inLoop() const;
    /** One handler per alternative of ptx::Op: a new instruction must be named here. */
    void dispatch(const Insn& in);
    [[noreturn]] void noMapping(const Insn& in) const;
    void memoryAccess(const Insn& in, const std::string& kind);
    void atomic(const Insn& in, bool returns);
    void fence(const Insn& in);
    void redAsync(const Insn& in, const ptx::RedAsync& r);
    void stAsync(const Insn& in, const ptx::St& st);
    void barrier(const Insn& in);
    void arithmetic(const Insn& in);
    void mbarrierInitialise(const Insn& in, const ptx::MbarrierInit& init);
    void mbarrier(const Insn& in); ///< arrive, expect_tx, complete_tx
    void mbarrierWait(const Insn& in);
    void bulkCommit();
    void bulkWait(const Insn& in, const ptx::BulkWait& wait);
    void bulkCopy(const Insn& in, const ptx::BulkCopy& copy);
    /** Refuses a copy of `size` bytes that reaches several elements of an array (ptxmc copies
     *  each; the harness gives each element a slot of its own). */
    void refuseElementCopy(const Insn& in, std::int64_t size) const;
    void bulkTensorCopy(const Insn& in, const ptx::BulkCopy& copy);
    // tensor maps in memory (Plan: every version is the runner's one map of the tensor)
    void tensormapReplace(const Insn& in, const ptx::TensormapReplace& r);
    void tensormapCopy(const Insn& in);
    /** The address of the map a location holds: the runner's global map, or this instance's
     *  shared copy of it. */
    std::string mapAddress(const Target& t);
    // non-bulk cp.async (sm_80 and later): the copy, its groups and its mbarrier arrive
    void cpAsync(const Insn& in);
    void cpAsyncGroup(const Insn& in, const ptx::BulkWait* wait);
    void cpAsyncArrive(const Insn& in);
    void tcShift(const Insn& in);
    void tcWait(const ptx::Tcgen05Wait& wait);
    void tcFence(const ptx::Tcgen05Fence& fence);
    void tcMma(const Insn& in);
    void tcCp(const Insn& in);
    void refuseHalfSplit(const ptx::LdStFormat& f); ///< .16x32bx2 has no lane layout here
    void tcLd(const Insn& in);
    void tcSt(const Insn& in);
    void tcCommit(const Insn& in);
    void tcAlloc(const Insn& in);
    void wgMma(const Insn& in);
    /** wgmma.fence / commit_group / wait_group N: warpgroup-collective, tied to the
     *  accumulator fragments so the compiler keeps their accesses on the right side. */
    void wgSync(const std::string& ptx);
    std::string wgDescriptor(const Target& t);
    /** The C++ lvalue of a wgmma accumulator's observed fragment (thread 0's D[0][0]). */
    std::string accCell(const std::string& reg) const;
    bool isAcc(const std::string& reg) const { return accRegs_.count(reg) > 0; }
    void warpgroupSync(); ///< wg mode: bar.sync of the litmus thread's four warps
    void resolvePending();
    void epilogue();

    // operands and variables
    Target target(const litmus::Operand& op);
    /** An indexed target's address: its element's `addr`, picked at run time. */
    std::string indexed(const Target& t, std::string (ThreadEmitter::*addr)(const Target&));
    std::string globalAddr(const Target& t);
    std::string sharedAddr(const Target& t);  ///< own CTA, shared::cta
    std::string clusterAddr(const Target& t); ///< shared::cluster (own or remote)
    std::string genericAddr(const Target& t);
    /** The address an ld/st/atom with state space `space` takes, with its asm constraint. */
    std::pair<std::string, std::string> accessAddress(const Target& t, ptx::StateSpace space);
    std::string tmemAddr(const Target& t);
    std::string descriptor(const Target& t);
    std::string hoist(const std::string& prefix, const std::string& type, const std::string& expr);
    std::string intValue(const litmus::Operand& op);
    std::string encodedValue(const litmus::Operand& op, const LocPlan& loc);
    std::string regVar(const std::string& reg, RegKind kind);
    void define(const litmus::Operand& op, const std::string& expr, RegKind kind,
                const LocPlan* from = nullptr);
    [[noreturn]] void refuse(const std::string& why) const;
    /** Not faithful to the model: Refused, or only recorded in a compile-only kernel. */
    void unfaithful(const std::string& why) const;

    // output
    void line(const std::string& s);
    void asmStmt(const std::string& ptx, const std::vector<std::string>& outs,
                 const std::vector<std::string>& ins);
    void perThread();  ///< tc mode: the next statements run in lane 0 only
    void allLanes();   ///< tc mode: close lane 0's block
    void collective(); ///< tc mode: all lanes, converged (before .sync.aligned instructions)

    const Plan& plan_;
    const ptx::Program& test_;
    const ptx::Thread& thread_;
    std::size_t threadIndex_;
    const CtaPlan& cta_;
    const std::vector<ObsRef>& observed_;
    const ptx::CodeItem* inst_ = nullptr;
    std::vector<std::string> decls_;
    std::set<std::string> declared_;
    std::ostringstream body_;
    std::map<std::string, RegKind> kinds_;
    std::map<std::string, const LocPlan*> addressSource_; ///< Address registers: loaded from
    std::set<std::string> tokens_;                        ///< registers ever holding a token
    std::vector<PendingLoad> pending_;
    bool exitUsed_ = false;           ///< a goto litmus_exit was emitted
    std::set<std::string> labelsMet_; ///< labels emitted so far: a goto back to one loops
    /// Registers every lane of a warp-wide litmus thread holds alike: set only from constants,
    /// initial values and each other (mov, arithmetic, setp), never from memory
    std::set<std::string> uniform_;
    int loops_ = 0;            ///< backward branches emitted (each counts its rounds)
    std::vector<bool> looped_; ///< per code item: inside a loop
    bool laneZeroOpen_ = false;
    std::map<std::string, unsigned> accRegs_; ///< wgmma accumulator -> f32 fragments per thread
    bool usedWgmma_ = false;
    unsigned mmas_ = 0; ///< wgmma.mma_async emitted so far (litmus::backlogBefore counts them)
    std::set<std::string> writtenSinceWgFence_; ///< registers written since the last wgmma.fence
    std::set<std::string> pendingA_; ///< A registers of mmas not yet covered by wait_group 0
    bool usedBulkGroup_ = false, usedTmemLd_ = false, usedTmemSt_ = false;
    bool usedCpAsync_ = false; ///< the epilogue waits for every cp.async of the thread
    int step_ = 0, tmp_ = 0;
};

} // namespace ptxmc::validate
