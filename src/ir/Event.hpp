// Events of a lowered litmus program and the value expressions their writes carry.
#pragma once

#include "ir/Tag.hpp"
#include "support/SourceLoc.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ptxmc::ir {

enum class Scope { None, Cta, Cluster, Gpu, Sys };
enum class Sem { None, Weak, Relaxed, Acquire, Release, AcqRel, Sc };
enum class Proxy { None, Generic, Async, Surface, Texture, Constant, Tmem, Tensormap };
/** Where a location lives: the one kind of memory litmus declarations, drafts and events share. */
enum class Space { None, Global, Shared, Tmem, Mbarrier };

struct Value;
using ValuePtr = std::shared_ptr<const Value>;

/**
 * A value computed at run time: what a write stores, what a register holds at the end.
 * Engines interpret it: the Z3 engine as bit-vector terms, the explicit engine concretely.
 */
struct Value {
    enum class Op {
        Const,      ///< constant
        ReadOf,     ///< the value read by event `event`
        WaitResult, ///< 1 when mbarrier wait `event` succeeded, else 0
        PhaseToken, ///< the phase an mbarrier arrive `event` arrived on
        /// reportPredicate of mbarrier wait `event` (9.4 .phase_type::primary report form): 1 when
        /// it returned True and a report-on operation made the phase it observed report
        WaitReport,
        Add,
        Sub,
        Mul,
        And,
        Or,
        Xor,
        Max,
        Min,
        Eq,     ///< 1 when args equal, else 0
        Ite,    ///< args[0] != 0 ? args[1] : args[2]
        Not,    ///< 1 when args[0] == 0, else 0 (a predicate's negation)
        LAnd,   ///< 1 when both args are nonzero
        LOr,    ///< 1 when either arg is nonzero
        Lt,     ///< 1 when args[0] < args[1] as signed 32-bit values
        Ltu,    ///< 1 when args[0] < args[1] as unsigned 32-bit values
        Choice, ///< 0 or 1, either: choice number `constant` of the program (Program::choices)
        /// args[0] + args[1] as IEEE-754 binary32 values the words hold, rounded to nearest
        /// even; a NaN sum is the canonical NaN 0x7fffffff (subnormals kept: a flush is built
        /// around it, lower/Floats.hpp)
        AddF32,
        /// args[0] + args[1] as IEEE-754 binary16 values in the words' low 16 bits, rounded to
        /// nearest even, zero-extended; a NaN sum is the canonical NaN 0x7fff
        AddF16,
        /// args[0] + args[1] as bfloat16 values (binary32's high half) in the words' low 16 bits,
        /// rounded to nearest even, zero-extended; a NaN sum is the canonical NaN 0x7fff
        AddBF16,
        /// the binary16 (bfloat16) value in args[0]'s low 16 bits as a binary32 value, exactly
        /// (every binary16 and bfloat16 value is a binary32 one); a NaN is the canonical NaN
        /// 0x7fffffff
        F16ToF32,
        BF16ToF32,
        /// the binary32 value args[0] rounded to binary16 (bfloat16), nearest even, overflow to
        /// infinity, zero-extended; a NaN is the canonical NaN 0x7fff
        F32ToF16,
        F32ToBF16,
        /// args[0] shifted right by args[1] bits, zeros shifted in (32 or more: 0)
        Lshr,
        /// bar.red's result at the thread's arrival event `event`: args[0], the reduction over
        /// every thread of the barrier instance (filled once all threads are lowered). Its one
        /// source is `event`: the other threads' predicates reach it through the barrier
        BarrierResult,
        /// 64-bit integer arithmetic (`.u64`, `.s64`): args[0] + args[1], args[0] - args[1],
        /// the low 64 bits of args[0] * args[1], on the words' whole 64 bits, wrapping
        Add64,
        Sub64,
        Mul64,
        /// the bitwise operations on all 64 bits (`.b64`)
        And64,
        Or64,
        Xor64,
        /// 1 when args[0] < args[1] as signed (Lt64) or unsigned (Ltu64) 64-bit values, or when
        /// they are equal in all 64 bits (Eq64)
        Lt64,
        Ltu64,
        Eq64,
        /// a value the PTX text leaves unknown (`constant`: its origin, the lowering's); the
        /// lowering refuses a program in which it reaches anything an engine evaluates
        Unknown,
    };
    Op op = Op::Const;
    std::int64_t constant = 0;
    /// A 64-bit value: a Const taken as written (not wrapped to 32 bits), or the result of a
    /// 64-bit operation. Every other value is a 32-bit word, sign-extended (wrap32)
    bool wide = false;
    int event = -1;
    std::vector<ValuePtr> args;

    static ValuePtr makeConst(std::int64_t c);
    /** A 64-bit constant: `c` as written, all 64 bits of it. */
    static ValuePtr makeConst64(std::int64_t c);
    static ValuePtr readOf(int event);
    /** Program::choices[index]: 0 or 1, each explored (`nondet.pred`). */
    static ValuePtr choice(int index);
    /** An operation on `args`; folded to a constant when every operand is one (and a
     *  conditional with a constant condition to the branch it picks). */
    static ValuePtr make(Op op, std::vector<ValuePtr> args);
    bool isConst() const { return op == Op::Const; }
};

/** Whether `op` makes a 64-bit value (the 64-bit arithmetic and bitwise operations). */
bool isWideOp(Value::Op op);

/** Which mbarrier operation an MBAR event performs (Query: mbarrier.check_layout, which reads
 *  the object's layout and changes nothing). */
enum class MbOp { None, Init, Inval, Arrive, ExpectTx, CompleteTx, Wait, Increment, Query };

/** One event. Issue-level events are in program order; exec events belong to an async op. */
struct Event {
    int id = -1;
    int thread = -1;      ///< -1 for initial writes
    int poIndex = -1;     ///< position among the thread's issue-level events; -1 for exec/init
    int issue = -1;       ///< exec events: the id of the issuing event
    int instruction = -1; ///< index of the source instruction within its thread
    int instance = -1;    ///< which execution of it (unrolled loops run one instruction again)
    /// A multimem.* access: the first event of its operation (its accesses of the other
    /// locations are its multimem-sibling events); -1 for every other event
    int multimemGroup = -1;
    std::string text; ///< instruction text (and the role of an exec event)
    SourceLoc loc;

    TagSet tags; ///< base sets this event belongs to (see Vocabulary.def)

    // placement (exec events: of the issuing thread)
    int cta = -1, cluster = -1, gpu = -1;

    // memory access
    int location = -1; ///< physical location id, -1 if not a memory/mbarrier event
    int vaddr = -1;    ///< virtual address id
    Scope scope = Scope::None;
    Sem sem = Sem::None;
    Proxy proxy = Proxy::None;
    Space space = Space::None;
    ValuePtr written; ///< writes: the value stored
    /// A 64-bit access (`.b64`, `.u64`, `.s64`, `.f64`): the value it reads or writes is a
    /// 64-bit word (a register it loads is 64-bit, and so is its location)
    bool wide = false;
    /// A typed access of 32 bits or fewer: it reads the low half of its location's word (a copy
    /// of whole cells is neither wide nor narrow)
    bool narrow = false;
    ValuePtr guard; ///< the event happens only when guard != 0 (null: always)
    /// Reads and waits a branch taken before this event (in its thread) depends on: ctrl
    std::vector<int> ctrlSources;

    // mbarrier
    MbOp mbOp = MbOp::None;
    std::int64_t mbAmount = 0;   ///< Init: count; Arrive: tx bytes; ExpectTx/CompleteTx: bytes
    std::int64_t mbArrivals = 1; ///< Arrive: how many arrivals it counts (the count operand)
    bool mbNoComplete = false;   ///< Arrive: .noComplete, undefined if it completes the phase
    bool mbDrop = false;         ///< Arrive: arrive_drop, which also lowers the expected count
    ValuePtr mbParity;           ///< Wait: parity operand, or
    ValuePtr mbToken;            ///< Wait: phase token operand
    /// CompleteTx of a copy with a .report_mechanism: nonzero where its inspection matched, a
    /// report-on operation on the object ({MbarrierReportOn})
    ValuePtr mbReport;
    bool mbConditional = false; ///< Wait: .phase_type::conditional ({MbarrierConditionalPhase})
    bool blocking = false;      ///< Wait with `_`, bar.sync, completion waits

    // barriers
    int barrierId = -1, barrierInstance = -1;
    int barrierWarps = 0; ///< bar.sync's thread count / 32; 0: every thread of the CTA

    // tcgen05 structure
    int ctaGroup = 0;
    int idesc = -1;       ///< mma: its IDESC operand's name, numbered (equal names, equal numbers)
    int mmaKind = -1;     ///< mma: its .kind, numbered the same way
    int accumulator = -1; ///< mma: location id of its d (in the issuing CTA)
    int peerEvent = -1;   ///< cta_group::2 alloc/dealloc: the peer CTA's operation it pairs with
    int collector = -1;   ///< mma read of A or B: its collector buffer and CTA, numbered

    // tensor-memory allocation (PTX ISA
    // #tcgen05-instructions-tcgen05-alloc-dealloc-relinquish-alloc-permit)
    std::int64_t tmemAddress = -1; ///< alloc/dealloc: address of the block (lane 0, column)
    int tmemColumns = 0;           ///< alloc/dealloc: nCols
    int tmemAlloc = -1;            ///< dealloc: the alloc whose block it frees

    // hangs: the blocking events of this thread that must complete before this event happens
    std::vector<int> gates;     ///< ids of gate events (see ir/Gates.hpp), in program order
    std::vector<int> gateNeeds; ///< a gate that is not an mbarrier wait: events it waits for

    // bulk async groups
    int bulkGroup = -1; ///< copies: the index of the commit_group closing their group
    int bulkWaitN = -1; ///< wait_group: N (cp.async.wait_all: 0, after its own commit)
    bool bulkWaitRead = false;
    bool nonBulkGroup = false; ///< commit_group / wait_group of cp.async (not cp.async.bulk) groups

    bool has(Tag tag) const { return tags.has(tag); }
};

} // namespace ptxmc::ir
