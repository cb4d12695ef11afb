// Turns a decoded program into events: the only place instruction semantics live.
#pragma once

#include "ir/Program.hpp"
#include "ir/ValueSemantics.hpp"
#include "litmus/Ast.hpp"
#include "lower/Condition.hpp"
#include "ptx/Insn.hpp"
#include "ptx/Program.hpp"

#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ptxmc::lower {

/** How loops are unrolled (litmus/README.md, Loops). */
struct LowerOptions {
    /// A backward branch whose condition depends on run-time values is taken at most this
    /// many times on a path (herd's and Dat3M's bound); one with a constant condition is
    /// followed to its end, at most kMaxConstantIterations times.
    int unroll = 2;
};

/** Backward branches with constant conditions are followed at most this often (then an error). */
inline constexpr int kMaxConstantIterations = 4096;

/** Lowers a whole program. Throws InputError for malformed or unsupported programs. */
ir::Program lowerProgram(const ptx::Program& program, const LowerOptions& options = {});
/** decodeProgram, then lowerProgram. */
ir::Program lowerTest(const litmus::Test& test, const LowerOptions& options = {});

/** A location instance an operand resolved to. */
struct Address {
    const litmus::LocationDecl* decl = nullptr;
    int cta = -1; ///< instance CTA (-1 for global)
    int row = 0;
    int location = -1; ///< physical cell
    int vaddr = -1;
};

/** A tcgen05.alloc: its event and the shared-memory cell its address store writes. */
struct AllocRecord {
    int event = -1;
    int slot = -1;
};

/** A tcgen05.dealloc whose alloc is found once every thread is lowered. */
struct DeallocRecord {
    int event = -1;
    ir::ValuePtr taddr;
    SourceLoc loc; ///< the taddr operand
};

/** Shared state of one lowering run; instruction families add events through it. */
/** Inputs beyond these are an error, not a check that would exhaust time and memory: the
 *  encodings grow with the square of the events (litmus/README.md, Limits). */
inline constexpr std::size_t kMaxThreads = 1024;
inline constexpr std::size_t kMaxEvents = 16384;

/** What one path through a thread's code carries: its condition, registers, bookkeeping. */
struct PathState {
    ir::ValuePtr guard; ///< when the path is taken (null: always; never a constant)
    std::map<std::string, ir::ValuePtr> registers;
    std::vector<int> pendingBulk, committedGroups;
    std::vector<int> pendingCpAsync; ///< non-bulk cp.async not yet in a cp.async-group
    std::vector<int> pendingWgmma;   ///< wgmma.mma_async not yet in a wgmma-group
    std::set<int> ctrl;              ///< reads and waits the branches taken so far depend on
    SourceLoc conditionLoc;          ///< the branch that made `guard` depend on run-time values
    /// Per instruction the path reached: the thread's event count when it last did
    std::map<std::size_t, std::size_t> enteredAt;
    /// Per instruction the path reached: its guard then (a loop whose way back adds no run-time
    /// condition to it runs a fixed number of times)
    std::map<std::size_t, ir::ValuePtr> guardAt;
    /// While paths meet at a point: the guard each arrived with (joined as a whole)
    std::vector<ir::ValuePtr> arrivals;
};

class Lowerer {
public:
    explicit Lowerer(const ptx::Program& test, const LowerOptions& options = {});
    ir::Program run();

    // --- used by the instruction families ---
    const ptx::Thread& thread() const { return *thread_; }
    /** The instruction being lowered (its operands, opcode text for messages, location). */
    const ptx::Insn& inst() const { return *inst_; }
    const ptx::Program& test() const { return test_; }
    /** A new choice of the current thread at `loc`: 0 or 1, both explored (Value::choice). */
    ir::ValuePtr newChoice(const SourceLoc& loc, const std::string& text);
    ir::ThreadInfo& threadInfo() { return program_.threads[threadIndex_]; }
    ir::Program& program() { return program_; }

    /** A new issue-level event of the current thread (in program order). */
    ir::Event& issue(std::initializer_list<ir::Tag> tags);
    /** A new event performed asynchronously by the operation issued as `issueId`. */
    ir::Event& exec(int issueId, const std::string& role, std::initializer_list<ir::Tag> tags);
    /** Marks `e` as a memory access to `a` with the given attributes and tags. */
    void access(ir::Event& e, const Address& a, ir::Proxy proxy);

    /** How an event's text names what `op` resolved to: the operand's name, or the element
     *  `a[i]` of an array (which the name alone does not tell). */
    static std::string accessName(const litmus::Operand& op, const Address& a);
    /** Resolves a location operand (`x`, `[x]`, `[x+2]`, `[x@1]`, `[a+8*s]`) in the current
     *  thread; an array's element is chosen by the index register's value on this path. */
    Address address(const litmus::Operand& op, std::optional<ir::Space> expected = std::nullopt);
    /**
     * Checks an access from the current thread to `a`: another CTA's shared memory or
     * mbarrier only through .shared::cluster (`viaCluster`) and inside the thread's cluster.
     */
    void checkReach(const Address& a, const litmus::Operand& op, bool viaCluster);
    /**
     * The locations a multimem address operand (`[m]`, `[m+4]`) points to, one per GPU in its
     * declaration's order, each through m's own virtual address; an operand that is not a
     * multimem address is an input error. With `element` k > 0: the k-th `bytes`-wide element
     * after each (a vector access's), through m's virtual address of that element.
     */
    std::vector<Address> multimemAddresses(const litmus::Operand& op, int element = 0,
                                           int bytes = 4);
    /** The same location name and row in CTA `cta` (for cta_group::2 / multicast). */
    std::optional<Address> addressInCta(const Address& a, int cta);
    /**
     * The element `k` elements of `bytes` bytes after `a` (a vector access's element k): the
     * array element `bytes * k` bytes further, which needs `a` in an array whose stride is
     * `bytes`; otherwise an input error at `op`.
     */
    Address elementAfter(const Address& a, const litmus::Operand& op, int k, int bytes);
    /** A register value the text leaves unknown (`what`, at `at`): an input error once anything
     *  an engine evaluates depends on it (checkUnknownUnused). */
    ir::ValuePtr unknownValue(const SourceLoc& at, const std::string& what);
    /** `e` writes a value the text leaves indeterminate (.ignore_oob's bytes): an input error
     *  once anything reads its location (checkIndeterminateUnread). */
    void noteIndeterminate(const ir::Event& e, const SourceLoc& loc);
    /** The bytes per element of the array `a` is in, or 0 where `a` is no array's element. */
    int elementStride(const Address& a) const;
    /**
     * The targets of a multicast operation: for each CTA its immediate `ctaMask` operand names
     * (`bits` wide, "each bit position ... corresponds to the %cluster_ctarank of the
     * destination CTA"), in rank order, the addresses `of` moved into that CTA. A zero or too
     * wide mask, or a named CTA that lacks one of them, is an input error at the mask.
     */
    std::vector<std::vector<Address>>
    multicastTargets(const litmus::Operand& mask, int bits,
                     const std::vector<std::pair<Address, const litmus::Operand*>>& of);
    /** Value of a register or immediate operand. */
    ir::ValuePtr value(const litmus::Operand& op);
    /** Value of a 64-bit instruction's register or immediate operand: an immediate is a 64-bit
     *  constant as written; a 64-bit register what it holds; a 32-bit one sign-extended where
     *  the instruction's type is signed (`isSigned`), else zero-extended (a constant as written).
     */
    ir::ValuePtr value64(const litmus::Operand& op, bool isSigned = false);
    /** `v` as a 32-bit operation takes it: its low half, where it is a 64-bit value. */
    ir::ValuePtr narrowed(const ir::ValuePtr& v) const;
    /**
     * Records the width of access `e` (`bytes` of its type) at `op`: a 64-bit access makes `e`,
     * its location and the program's words 64-bit (ir::Event::wide); a narrower write is kept to
     * be refused once the location turns out 64-bit (checkWidths).
     */
    void noteWidth(ir::Event& e, const litmus::Operand& op, int bytes);
    /** Does the current path run only when run-time values say so? */
    bool conditional() const { return path_.guard != nullptr; }
    /**
     * Does the current path run in every execution the check keeps? True when its guard is
     * null, or when the guard and the guards of the loop cuts (ir::Cut) this thread made so far
     * cover every execution: after a loop that spins on a run-time value, the exits of its
     * unrolled iterations and the cut where it would go round once more join back into the
     * condition before the loop, and an execution that reaches the cut is left out. Barrier
     * instances, async-groups and mbarrier phases can then be matched as if the path always ran.
     */
    bool settled() const;
    /** A spinning mbarrier wait loop is being lowered as one blocking wait. */
    bool spinWait() const { return spinWait_; }
    /**
     * bar.red at the arrival event `arrival`: its thread's predicate `input` (0 or nonzero, `!c`
     * already negated) joins the reduction of its barrier instance, and `dest` is defined as
     * that reduction, which resolveBarrierReductions fills in once every thread is lowered.
     */
    void addBarrierReduction(int arrival, ptx::BarrierRedOp op, ir::ValuePtr input,
                             const litmus::Operand& dest);
    /** Defines a register operand (a Name; `_` is ignored). */
    void define(const litmus::Operand& op, ir::ValuePtr v);
    /** Operand `i` of the current instruction, or an error saying how many are needed. */
    const litmus::Operand& operand(std::size_t i);
    void expectOperands(std::size_t n);
    [[noreturn]] void fail(const SourceLoc& loc, const std::string& message) const;
    /** An InputError once the program has kMaxEvents events. */
    void checkEventLimit(const SourceLoc& loc) const;

    /** A number per distinct string (an mma's IDESC name, its .kind): equal strings, equal
     *  numbers, so events compare them without carrying text. */
    int symbolId(const std::string& text);

    /** Peer CTA of a cta_group::2 pair (rank differs in bit 0, same cluster). */
    int peerCta(int cta) const;
    /** %cluster_ctarank of `cta` in its cluster. */
    int clusterRank(int cta) const;
    /** CTA with rank `rank` in `cta`'s cluster, or -1. */
    int ctaOfRank(int cta, int rank) const;
    /** Records the test-wide cta_group and rejects a second, different value. */
    void noteCtaGroup(int group, const SourceLoc& loc);

    // bulk async-group bookkeeping for the current path
    std::vector<int>& pendingBulk = path_.pendingBulk;         ///< copies not yet committed
    std::vector<int>& committedGroups = path_.committedGroups; ///< commit_groups, oldest first
    std::vector<int>& pendingCpAsync = path_.pendingCpAsync;   ///< cp.async not yet committed
    std::vector<int>& pendingWgmma = path_.pendingWgmma;       ///< wgmma not yet committed

    /**
     * The cell standing for register `name` of the current thread when a wgmma.mma_async of
     * the thread names it (its accumulator d or its A fragment): every access to such a
     * register is an event on its cell (model/wgmma.cat), so the model can order and flag
     * them; -1 for any other register.
     */
    int registerCell(const std::string& name) const;
    /** A read (else a write) of register cell `cell` by the current instruction. */
    ir::Event& registerAccess(int cell, bool write, const std::string& role);

    // tensor-memory allocation bookkeeping (PTX ISA {Tcgen05Alloc}), matched by resolveAllocations
    std::map<int, int> tmemNextColumn; ///< per CTA: the first column no alloc has taken
    std::vector<AllocRecord> allocs;
    std::vector<DeallocRecord> deallocs;

private:
    void declareLocations();
    void declareRegisters();
    void declareImplicitLocations();
    void declareRegisterCells();
    // control flow (ControlFlow.cpp): paths through a thread's code, merged where they meet
    void lowerThread(std::size_t index);
    /** Runs instruction `pc` on path_; the successors go to `next` (pc, taken backward). */
    void step(std::size_t pc, std::vector<std::pair<std::size_t, ir::ValuePtr>>& jumps,
              bool& fallsThrough);
    void checkConditional(const ptx::Insn& insn) const;
    void computeStaticDeadlocks();
    void resolveBarrierReductions();
    void resolveCondition();
    int vaddrFor(const std::string& name, int cta, int row);
    /** The row an address operand names in `root`: a tmem row, or an array's element. */
    int rowOf(const litmus::Operand& op, const litmus::LocationDecl& root);
    int elementOf(const litmus::Operand& op, const litmus::LocationDecl& root);
    /** The value an operand's index register holds here; an error unless it is a constant. */
    std::int64_t indexValue(const litmus::Operand& op);
    std::string virtualName(const litmus::LocationDecl& d) const;
    void checkMultimemDecl(const litmus::LocationDecl& d);
    /** The declaration that owns the memory `d` names: `d` itself, or what its aliases name. */
    const litmus::LocationDecl* rootOf(const litmus::LocationDecl* d) const;

public:
    /**
     * The layouts (0 for .layout::v0, 1 for v1) the test initialises the mbarrier array or object
     * of `a` with: v0 where it is declared with `, count N`, and each mbarrier.init on any of its
     * elements in any thread (.layout::v0 when unwritten, {MbarrierInit}).
     */
    std::set<int> initLayouts(const Address& a) const;
    /**
     * An access of `bytes` bytes at `a`: an error where `a` is an element of an array of
     * narrower elements (stride 1 or 2, 16-bit float elements), whose next element is a cell of
     * its own that the access would span.
     */
    void checkAccessWidth(const Address& a, const litmus::Operand& op, int bytes) const;
    /**
     * A plain store of `bytes` bytes at `a`: checkAccessWidth, and an error where the store is
     * narrower than `a`'s cell (a .u8 store to a 32-bit location): it would write part of the
     * cell and keep the rest, and a write replaces its whole cell.
     */
    void checkStoreWidth(const Address& a, const litmus::Operand& op, int bytes) const;

private:
    const ptx::Program& test_;
    ir::Program program_;
    const ptx::Thread* thread_ = nullptr;
    const ptx::Insn* inst_ = nullptr;
    std::size_t threadIndex_ = 0;
    int instIndex_ = 0;
    std::map<std::string, const litmus::LocationDecl*> decls_;
    std::deque<litmus::LocationDecl> implicit_; ///< locations used but not declared (value 0)
    std::map<std::tuple<std::string, int, int>, int> cells_;  ///< (root name, cta, row) -> location
    std::map<std::tuple<std::string, int, int>, int> vaddrs_; ///< (name, cta, row) -> vaddr
    std::map<int, std::map<std::string, ir::ValuePtr>> initialRegisters_;
    std::map<std::string, ir::ValuePtr>& registers_ = path_.registers; ///< current path
    PathState path_;
    LowerOptions options_;
    bool spinWait_ = false;
    std::vector<ir::ValuePtr> cutGuards_; ///< guards of the current thread's cuts so far
    int instance_ = 0; ///< instructions run so far by the current thread, over all paths
    int ctaGroup_ = 0;
    SourceLoc ctaGroupLoc_;
    std::map<std::string, int> symbols_;
    std::map<std::pair<int, std::string>, int> regCells_; ///< (thread id, register) -> cell
    /// Threads (indices) that run exit or ret on every path: barriers do not wait for them once
    /// they exited ({BarBarrier}: "non-exited threads"; {BarrierCluster})
    std::set<std::size_t> exited_;
    /** One bar.red arrival: its operation, its thread's predicate, and the value its
     *  destination was defined as (a placeholder until every thread is lowered). */
    struct BarrierReduction {
        ptx::BarrierRedOp op;
        ir::ValuePtr input;
        std::shared_ptr<ir::Value> result; ///< filled in place: others hold it as a ValuePtr
        SourceLoc loc;
    };
    std::map<int, BarrierReduction> barrierReductions_; ///< by arrival event
    std::map<int, SourceLoc> wideAccess_;               ///< location -> its first 64-bit access
    std::map<int, SourceLoc> narrowWrite_; ///< location -> its first write of fewer bytes
    /** Once every thread is lowered: a write narrower than its 64-bit location would keep the
     *  rest of it (an input error), and a 64-bit location's initial value is taken as written. */
    void finishWidths();
    std::map<int, SourceLoc> indeterminate_; ///< location -> the write that leaves it unknown
    /** Once the condition is resolved: no read and no observable reaches a location a copy
     *  left indeterminate (ptxmc holds no unknown values; an input error names it). */
    void checkIndeterminateUnread() const;
    std::vector<std::pair<SourceLoc, std::string>> unknowns_; ///< Value::Op::Unknown's origins
    /** Once the condition is resolved: no written value, guard, wait operand or observed
     *  register depends on an unknownValue. */
    void checkUnknownUnused() const;

    /** Whether `v` is a 64-bit value: a 64-bit constant or operation, or what a 64-bit access
     *  read (an observed register's width, ir::Observable). */
    bool wideValue(const ir::Value& v) const;
};

/** A value as a condition, 0 or 1: kept when it is one already, else `v != 0`. */
ir::ValuePtr asPredicate(const ir::ValuePtr& v);

/**
 * Lowers an instruction that makes events (every family but control: Dispatch.cpp visits each
 * alternative of ptx::Op); false for a control instruction, which ControlFlow.cpp lowers.
 */
bool lowerInsn(Lowerer& l, const ptx::Insn& insn);

/**
 * After every thread is lowered: the alloc each tcgen05.dealloc frees, and the peer of each
 * cta_group::2 alloc/dealloc (a missing peer is a static deadlock).
 */
void resolveAllocations(Lowerer& l);

/** A value as the 32-bit registers hold it, read as signed (ir/ValueSemantics.hpp). */
using ir::wrap32;

// Helpers shared by the families.
/** The base set of a scope or semantics; none for Scope::None / Sem::None. */
std::optional<ir::Tag> scopeTag(ir::Scope s);
std::optional<ir::Tag> semTag(ir::Sem s);
/** Whether a .type list is one unsigned type (.u32 of atom, red, red.async, cp.reduce). */
bool unsignedType(const std::vector<ptx::Type>& types);
/** The value an 8- or 16-bit access of `t` moves (a store truncates, a signed load extends);
 *  a 32-bit or wider access moves the word as it is (Generic.cpp). */
ir::ValuePtr subWordValue(const ir::ValuePtr& v, const ptx::Type& t, bool load);
/**
 * What an atom/red, red.async or cp.reduce.async.bulk .op writes given the old value and the
 * operand b (exch and cas excepted): .min/.max compare unsigned when the elements are (.u32, or a
 * tensor map's u32 elements), else signed; .inc and .dec wrap at b as the 9.4 text's inc(r, s)
 * and dec(r, s) ({Atom}, {Red}). `wide`: 64-bit elements (.u64, .s64, .b64), computed on all
 * 64 bits.
 */
ir::ValuePtr reducedValue(ptx::AtomOp op, bool isUnsigned, const ir::ValuePtr& old,
                          const ir::ValuePtr& b, bool wide = false);
struct FloatFormat;
/** How the elements of an atomic or a reduction combine: as integers (unsigned or signed), or
 *  as floats of `format` (a 16-bit one in a word's low half), subnormals flushed where `flush`. */
struct ElementKind {
    bool isUnsigned = false;
    const FloatFormat* format = nullptr;
    bool flush = false;
    bool wide = false; ///< 64-bit integers (.u64, .s64, .b64)
};
/** Whether `types` names 64-bit elements (.u64, .s64, .b64, .f64). */
bool wideType(const std::vector<ptx::Type>& types);
/** The kind of the elements a .f16/.bf16(x2) or a .type list names. */
ElementKind elementKind(ptx::HalfType half, const std::vector<ptx::Type>& types, bool flush);
/**
 * reducedValue over an element kind: on floats .add rounds to nearest even and .min/.max are
 * the min and max instructions ("The .min and .max operations implement the exact same
 * floating-point instructions as the non-atomic min and max instructions", {Atom}). A 16-bit
 * element is at its cell's address, the low half of the 32-bit cell (and of `b`): the result
 * replaces that half and keeps the high half of `old`, memory the access does not touch.
 */
ir::ValuePtr reducedElement(ptx::AtomOp op, const ElementKind& kind, const ir::ValuePtr& old,
                            const ir::ValuePtr& b);
/** A 16-bit float kind's operation on both halves of a 32-bit cell: the first two elements of
 *  a bulk reduction's chunk, which the cell holds. */
ir::ValuePtr reducedPairOfHalves(ptx::AtomOp op, const ElementKind& kind, const ir::ValuePtr& old,
                                 const ir::ValuePtr& b);
/** Sets `e`'s semantics and scope, and their base sets (none for Sem/Scope::None). */
void setOrdering(ir::Event& e, ir::Sem sem, ir::Scope scope);
/** Marks `e` a weak access (.weak: no scope). */
void setWeak(ir::Event& e);
/** The registers of a vector operand ({d0, d1}), or the operand itself when `vec` is 1; an input
 *  error naming the instruction when it is not a vector of `vec`. */
std::vector<litmus::Operand> vectorOperand(Lowerer& l, const litmus::Operand& op, int vec);
/**
 * The complete-tx of `bytes` on `mb` that ends an asynchronous operation issued as `issueId`: a
 * release at cluster scope in the generic proxy ({MbarrierCompleteTxOperation}); with
 * `proxyFence` (a bulk copy's or try_cancel's async-proxy writes) followed by the implicit
 * generic-async proxy fence of their completion (PTX ISA #async-proxy), without it for st.async
 * and red.async, whose writes are generic.
 */
ir::Event& completeTxAtCluster(Lowerer& l, int issueId, const Address& mb, std::int64_t bytes,
                               bool proxyFence);
/** The base set of a state space (M when none: every access is in M anyway). */
ir::Tag spaceTag(ir::Space s);

} // namespace ptxmc::lower
