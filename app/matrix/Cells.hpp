// The cells of the reordering tables: one question each, asked by one generated litmus test.
#pragma once

#include "ir/Program.hpp"
#include "matrix/LitmusText.hpp"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ptxmc::matrix {

/**
 * The model's relation definition `name` (e.g. "P1", "pipelined", "commit-tracks") on a lowered
 * program, as pairs of event ids. The matrix takes which pairs are pipelined and what a commit
 * tracks from the model through this, never from C++ of its own; `ptxmc matrix` answers with
 * the engine (engine::staticRelation), which this library may not link.
 */
using ModelRelation =
    std::function<std::vector<std::pair<int, int>>(const ir::Program&, const std::string& name)>;

/** tcgen05 operations; the Mma* variants are a second mma relative to an earlier one. */
enum class Op {
    Alloc,
    Ld,
    St,
    Shift,
    Cp128, ///< tcgen05.cp of 128 rows (ptx::CpShape::Rows128Bits256)
    Cp4,   ///< tcgen05.cp.4x256b (the shape of pair P4)
    Mma,   ///< after an mma: same accumulator, shape and kind
    MmaAcc,
    MmaShape,
    MmaKind,
    Commit,
    WaitLd,
    WaitSt,
    Dealloc,
};

/** What stands between A and B. */
enum class Sync {
    None,       ///< one thread: nothing
    Wait,       ///< one thread: the wait matching A (wait::ld after ld, wait::st after st)
    Commit,     ///< one thread: commit; mbarrier wait
    CommitFa,   ///< one thread: commit; mbarrier wait; after_thread_sync
    Mbar,       ///< two threads: before_thread_sync; arrive | wait; after_thread_sync
    MbarNoFb,   ///< the same without before_thread_sync
    MbarNoFa,   ///< the same without after_thread_sync
    Bar,        ///< two threads: before_thread_sync; bar.sync | bar.sync; after_thread_sync
    BarNoFb,    ///< the same without before_thread_sync
    BarNoFa,    ///< the same without after_thread_sync
    Flag,       ///< two threads: before_thread_sync; st.relaxed f | ld.relaxed f; after_thread_sync
    FlagNoFb,   ///< the same without before_thread_sync
    FlagNoFa,   ///< the same without after_thread_sync
    Completion, ///< two threads: A's completion (wait::ld/st + before, or commit) | wait; after
};

/** What the generated test observes. */
enum class Verdict {
    Ordered,       ///< no allowed final state shows B's effect before A completed
    MayReorder,    ///< some allowed final state does
    NotApplicable, ///< no test: the pair has no reordering to observe (see Cell::reason)
    Error,         ///< the check failed (a generator or model bug; never in committed docs)
};

std::string opKey(Op op);          ///< file-name part, e.g. "cp.4x256b", "mma-other-acc"
std::string opLabel(Op op);        ///< table label, e.g. "cp.4x256b", "mma, other accumulator"
const char* syncKey(Sync s);       ///< file-name part, e.g. "commit-fa", "bar-nofb"
std::string syncLabel(Sync s);     ///< column header
const char* verdictLabel(Verdict); ///< "ordered", "may reorder", "—", "error"

/** One question: can B's memory effects take place before A's complete, with `sync` between? */
struct Cell {
    Op a = Op::Ld;
    Op b = Op::Ld;
    Sync sync = Sync::None;
    bool twoThreads = false;
    std::string id;       ///< test name and file stem, e.g. "same-mma-ld-none"
    std::string reason;   ///< non-empty: "—", there is nothing to test, and why
    std::string conflict; ///< e.g. "B reads what A wrote"
    std::string pair;     ///< "P1".."P5" when the model pipelines A -> B, else empty
    std::string rule;     ///< key of the PTX rule behind the verdict (matrix/Rules.hpp)
    /** What the literal reading of `rule` says; a different model verdict is worth a look. */
    Verdict textReading = Verdict::NotApplicable;
    std::optional<LitmusText> test; ///< absent exactly when `reason` is set
};

/** The operations of the one-thread table, in row/column order (Mma stands for "mma"). */
const std::vector<Op>& tableOps();

/** The B operations paired with A in the pair tables (the Mma* variants only after an mma). */
std::vector<Op> partnersOf(Op a, bool twoThreads);

/** The columns of the one-thread table and of the two tables across threads. */
const std::vector<Sync>& sameThreadSyncs();
const std::vector<Sync>& twoThreadSyncs();
const std::vector<Sync>& droppedFenceSyncs();

/** The id of the cell for (a, b, sync), e.g. "same-mma-ld-none". */
std::string cellId(Op a, Op b, Sync sync);

/**
 * The cell for (a, b, sync); `twoThreads` follows from the sync. It generates the test, then
 * classifies the cell with what `model` says of that test's program (pipelined pair, commit
 * tracking). Deterministic for a given model.
 */
Cell makeCell(Op a, Op b, Sync sync, const ModelRelation& model);

/** Why (a, b) has no reordering to observe in one thread, or empty when it has one. */
std::string notApplicableReason(Op a, Op b);

/** Every cell with a test or a reason, in document order (one-thread rows first). */
std::vector<Cell> allCells(const ModelRelation& model);

} // namespace ptxmc::matrix
