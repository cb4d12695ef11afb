// Partial evaluation of an entry: every thread of one cluster run on what is known (launch
// shape, parameters, addresses), recording its memory and synchronization instructions.
#pragma once

#include "kernel/Launch.hpp"
#include "kernel/Module.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ptxmc::kernel {

/** A register's value: known, or read from memory (data the check does not follow). */
struct Val {
    bool known = false;
    /// unknown: 1 + the index in Extraction::paramReads of the parameter field not given that
    /// the value comes from (0: memory), so that a branch on it names the --param to add
    std::uint32_t field = 0;
    std::uint64_t v = 0;
    /// 1 + the index of the mbarrier probe whose result this value was computed from (0: none).
    /// The evaluation follows a probe's failure side; such a value may differ on its success
    /// side, so it may decide only a branch that skips a wait the failure side makes.
    std::uint32_t probe = 0;
    /// unknown: 1 + the index of the branch on data whose way decides this predicate (the
    /// evaluation's table of DataChoice), 0: none. It is nonzero exactly on the way the branch
    /// went to its target, or on the other when `wayNegated`: a later branch on it goes the
    /// same way as that one (the choice is reused, not made again).
    std::uint32_t way = 0;
    bool wayNegated = false;
    static Val of(std::uint64_t x) { return Val{true, 0, x, 0}; }
    bool operator==(const Val& o) const {
        return known == o.known && field == o.field && v == o.v && probe == o.probe &&
               way == o.way && wayNegated == o.wayNegated;
    }
    bool operator!=(const Val& o) const { return !(*this == o); }
};

/**
 * Where things live. Shared memory of cluster rank r is the window (r << 24) | offset, the
 * encoding whose rank bit CUTLASS clears to name the peer CTA; generic addresses of shared
 * memory and of the kernel parameters sit in windows of their own.
 */
struct Layout {
    static constexpr std::uint64_t kGenericShared = 1ULL << 48;
    static constexpr std::uint64_t kGenericParam = 2ULL << 48;
    /// the global location a try_cancel's response write copies from (it stands for them all)
    static constexpr std::uint64_t kClcResponses = 3ULL << 48;
    /// a thread's .local variables (its own: a lane keeps what it stores there)
    static constexpr std::uint64_t kLocal = 4ULL << 48;
    static constexpr std::uint64_t kRankShift = 24;
    static constexpr std::uint64_t kOffsetMask = (1ULL << kRankShift) - 1;

    struct Symbol {
        const Variable* var = nullptr;
        std::uint64_t offset = 0; ///< in its window
        std::uint64_t bytes = 0;
    };
    std::map<std::string, Symbol> shared; ///< every .shared variable
    std::map<std::string, Symbol> params; ///< the entry's parameters
    std::map<std::string, Symbol> local;  ///< .local variables (nvcc's __local_depot)
    std::vector<const Variable*> paramOrder;

    /** The shared-window address (rank bits included) of a shared or generic address. */
    static std::optional<std::uint64_t> sharedAddress(std::uint64_t a);

    /** The shared variable at `offset` (CTA-relative) and the offset inside it. */
    std::optional<std::pair<const Symbol*, std::uint64_t>> sharedAt(std::uint64_t offset) const;
    std::optional<std::pair<const Symbol*, std::uint64_t>> paramAt(std::uint64_t offset) const;
};

/** An operand of a recorded instruction, resolved as far as the launch allows. */
struct RawOperand {
    enum class Kind { Imm, Reg, Sink, Addr, Vec, Desc };
    Kind kind = Kind::Imm;
    Val value;         ///< Imm; Addr (the address); Desc (the shared address it describes)
    std::string reg;   ///< Reg: the register's name
    std::string space; ///< Addr: the instruction's state space ("" generic)
    std::vector<RawOperand> elements; ///< Vec; Addr of a tensor copy: its coordinates
    SourceLoc loc;
};

/**
 * One way of a branch on data that the launch does not decide and whose sides run different
 * memory or synchronization instructions: the `instance`-th run (by its lane) of the branch at
 * body index `stmt` went to its target (`taken`) or fell through. The extracted program makes
 * it a `nondet.pred` choice, so the check explores both ways (docs/kernel.md, "Branches on
 * data").
 */
struct DataChoice {
    std::size_t stmt = 0;
    std::uint64_t instance = 0;
    bool taken = false;
    bool operator==(const DataChoice& o) const {
        return stmt == o.stmt && instance == o.instance && taken == o.taken;
    }
    bool operator!=(const DataChoice& o) const { return !(*this == o); }
};

/** One memory or synchronization instruction a thread executed. */
struct Step {
    std::size_t stmt = 0;                    ///< index in the entry's body
    std::uint64_t instance = 0;              ///< how many times this thread executed it before
    std::string opcode;                      ///< as written, less hints the checker does not read
    ptx::ModuleOp op = ptx::ModuleOp::Other; ///< its row of ptx/ModuleOps.def
    std::vector<std::string> parts;
    ptx::ValueForm value; ///< its types and other value qualifiers (the statement's)
    std::vector<RawOperand> operands;
    int lanes = 1; ///< how many lanes of the warp executed it identically
    /// the ways of branches on data it runs under, outermost first (empty: always)
    std::vector<DataChoice> guard;
};

/** One warp's recorded instructions, lane by lane (Extract merges them). */
struct WarpTrace {
    int cta = 0;  ///< cluster rank
    int warp = 0; ///< warp index in the CTA
    std::vector<std::vector<Step>> lanes;
};

/** Something the evaluation met and set aside: reported in --stats, never silently. */
struct Note {
    SourceLoc loc;
    std::string text;
    /// the parameter field the text asks for ("0+344", as --param names it), if any
    std::string field = {};
};

/**
 * An error that asks for a parameter field --param does not give: `field` ("0+344") is the
 * field as --param names it, so that --list-params --all can stand a value in for it.
 */
class FieldError : public InputError {
public:
    FieldError(SourceLoc loc, const std::string& message, std::string field)
        : InputError(std::move(loc), message), field_(std::move(field)) {}
    const std::string& field() const { return field_; }

private:
    std::string field_;
};

/** `e` as a Note, with the field it asks for when it is a FieldError. */
Note noteOf(const InputError& e);

/** A load of a parameter field the evaluation ran: `--param INDEX+OFFSET=VALUE` gives it. */
struct ParamRead {
    std::size_t index = 0; ///< the parameter's position
    std::string param;     ///< its PTX name
    std::uint64_t offset = 0, bytes = 0;
    std::optional<std::uint64_t> value; ///< given with --param; nullopt: not given
    SourceLoc loc;                      ///< the load
    std::optional<CudaLine> cuda;       ///< its `.loc`
    bool decides = false; ///< a branch or guard depends on it (while it was not given)

    /** "0+344" (offset 0: "0"), what --param names it by. */
    std::string field() const;
};

struct Extraction {
    Layout layout;
    std::array<int, 3> block{1, 1, 1}, cluster{1, 1, 1}, grid{1, 1, 1};
    std::vector<WarpTrace> warps;
    std::vector<Note> notes;
    std::uint64_t instructions = 0;    ///< executed, all threads
    std::vector<ParamRead> paramReads; ///< every load of a parameter field, in the order first run
    /// --list-params: where a thread stopped (a branch on a field not given, or another error)
    std::vector<Note> stops;
    /// fields --param or --params gives that no load read (loc: the --params line, if any)
    std::vector<Note> unread;
};

/**
 * For a value that depends on a parameter field not given: "parameter field 0+344 (param_0, 4
 * bytes read at f.ptx:40:2 (gemm.cu:88)), which --param does not give: add --param 0+344=VALUE";
 * else "".
 */
std::string missingField(const Extraction& x, const Val& v);

/**
 * Throws the error `what` + missingField(x, v) + `after`, asking for that field (a FieldError),
 * or `what` + `otherwise` + `after` when `v` depends on no field --param leaves out.
 */
[[noreturn]] void failOnValue(const SourceLoc& loc, const std::string& what, const Extraction& x,
                              const Val& v, const std::string& otherwise,
                              const std::string& after = "");

/**
 * Runs every thread of one cluster of `entry`; throws InputError where it cannot follow (with
 * `launch.listParams`, records where each thread stopped in `stops` instead).
 */
Extraction evaluate(const Module& m, const Function& entry, const Launch& launch);

/** The entry `launch.entry` names, or the module's only one. */
const Function& pickEntry(const Module& m, const std::string& name);

} // namespace ptxmc::kernel
