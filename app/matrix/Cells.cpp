// Generates one litmus test per cell: A, the sync, B, and a condition that only reordering meets.
#include "matrix/Cells.hpp"

#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"
#include "matrix/Rules.hpp"
#include "matrix/Steps.hpp"
#include "ptx/Tables.hpp"

#include <set>
#include <stdexcept>

namespace ptxmc::matrix {

namespace {

bool isTmemOp(Op op) {
    switch (op) {
    case Op::Ld:
    case Op::St:
    case Op::Shift:
    case Op::Cp128:
    case Op::Cp4:
    case Op::Mma:
    case Op::MmaAcc:
    case Op::MmaShape:
    case Op::MmaKind:
        return true;
    default:
        return false;
    }
}

bool isCompletion(Op op) {
    return op == Op::Commit || op == Op::WaitLd || op == Op::WaitSt;
}

bool isTwoThread(Sync s) {
    return s != Sync::None && s != Sync::Wait && s != Sync::Commit && s != Sync::CommitFa;
}

// The steps of one test: A, the sync, B (or the probe after a completion op), per thread.
struct Plan {
    Gen gen;
    Step a, b;
    std::vector<Step> order; ///< every step, in the order they are added to their threads
    std::string flagRef;     ///< the consumer's flag register (Flag syncs), else empty
    std::optional<std::size_t> commitAt; ///< position in `order` of a commit in A's thread
};

// An instruction of a generated test: its thread and its index there, which lowering keeps
// on each of its events (ir::Event::thread, ::instruction).
struct InsnRef {
    std::size_t tid = 0;
    std::size_t index = 0;
};

// What the model says of one cell's test. commitTracksA is known only when the test has a
// commit after A in A's thread: classify() asks it only of such cells (B = commit, and the
// commit columns), so the model answers for the very commit whose effect the test observes.
// A separate probe (A; commit) would answer for another program, and under a model where what
// a commit tracks depends on the rest of the thread (as variants/q2-commit-tracks-uncommitted.cat
// makes it) its answer could differ from the test's.
struct Facts {
    std::string pair;
    std::optional<bool> commitTracksA;
};

// The pipelined pairs by their model names, in the order of PTX {Tcgen05Pipelined} (the 9.4
// list: thirteen pairs of operand accesses).
const char* const kPairs[] = {"P1", "P2", "P3",  "P4",  "P5",  "P6", "P7",
                              "P8", "P9", "P10", "P11", "P12", "P13"};

Facts readFacts(const LitmusText& t, InsnRef a, InsnRef b, std::optional<InsnRef> commit,
                const ModelRelation& model) {
    litmus::Test test = litmus::parseLitmus(t.text(), t.name + ".litmus");
    ir::Program program = lower::lowerTest(test);
    auto eventsOf = [&](InsnRef r) {
        std::set<int> out;
        for (const ir::Event& e : program.events)
            if (e.thread == static_cast<int>(r.tid) && e.instruction == static_cast<int>(r.index))
                out.insert(e.id);
        if (out.empty())
            throw std::logic_error("matrix: " + t.name + ": an instruction has no events");
        return out;
    };
    std::set<int> as = eventsOf(a);
    auto relates = [&](const std::string& name, const std::set<int>& to) {
        for (const auto& [x, y] : model(program, name))
            if (as.count(x) && to.count(y)) return true;
        return false;
    };
    Facts f;
    std::set<int> bs = eventsOf(b);
    // The model's `pipelined` decides whether A -> B is pipelined; P1..P13 name the pair.
    if (relates("pipelined", bs)) {
        for (const char* k : kPairs)
            if (relates(k, bs)) {
                f.pair = k;
                break;
            }
        if (f.pair.empty()) f.pair = "pipelined"; // a model whose pipelined adds other pairs
    }
    if (commit) f.commitTracksA = relates("commit-tracks", eventsOf(*commit));
    return f;
}

int rowsFor(Op a, Op b) {
    if (a == Op::Shift && b == Op::Shift) return 3; // the second shift must read a moved row
    return a == Op::Shift || b == Op::Shift ? 2 : 1;
}

// A is chosen to write (or, for ld, read) the cell B then reads or writes: see makeB.
Step makeA(Gen& g, Op a, Op b, std::size_t tid) {
    switch (a) {
    case Op::Ld:
        return g.ld(tid, b == Op::Shift ? 1 : 0); // shift writes row 1: a WAR on it
    case Op::St:
        return g.st(tid, 0, 7);
    case Op::Cp128:
        return g.cp(tid, ptx::CpShape::Rows128Bits256, 0, 0);
    case Op::Cp4:
        return g.cp(tid, ptx::CpShape::Rows4Bits256, 0, 0);
    case Op::Shift:
        return g.shift(tid);
    case Op::Mma:
        return g.mma(tid, {"f16", MmaSpec::D::T, -1, "I0", false});
    default:
        throw std::logic_error("matrix: no A step for this operation");
    }
}

Step makeB(Gen& g, Op a, Op b, std::size_t tid) {
    int row = a == Op::Shift ? 1 : 0; // after a shift, use the row it wrote
    switch (b) {
    case Op::Ld:
        return g.ld(tid, row);
    case Op::St:
        return g.st(tid, row, 8);
    case Op::Cp128:
        return g.cp(tid, ptx::CpShape::Rows128Bits256, row, 1);
    case Op::Cp4:
        return g.cp(tid, ptx::CpShape::Rows4Bits256, row, 1);
    case Op::Shift:
        return g.shift(tid);
    case Op::Mma:
        if (a == Op::Mma) return g.mma(tid, {"f16", MmaSpec::D::T, -1, "I0", true});
        if (a == Op::Ld) return g.mma(tid, {"f16", MmaSpec::D::T, -1, "I0", false});
        return g.mma(tid, {"f16", MmaSpec::D::U, row, "I0", false}); // reads A's cell as A
    case Op::MmaAcc:
        return g.mma(tid, {"f16", MmaSpec::D::U, 0, "I0", false});
    case Op::MmaShape:
        return g.mma(tid, {"f16", MmaSpec::D::T, -1, "I1", true});
    case Op::MmaKind:
        return g.mma(tid, {"tf32", MmaSpec::D::T, -1, "I0", true});
    default:
        throw std::logic_error("matrix: no B step for this operation");
    }
}

// After a completion op B: read what A wrote, or overwrite what A read.
Step makeProbe(Gen& g, const Step& a, std::size_t tid) {
    if (!a.writes.empty()) return g.ld(tid, g.rowOf(a.writes.back()));
    return g.st(tid, g.rowOf(a.reads.front()), 9);
}

void addSyncSteps(Plan& p, Op a, Op b, Sync sync) {
    Gen& g = p.gen;
    auto add = [&](std::size_t tid, const std::string& text) {
        p.order.push_back({tid, text, {}, {}, {}});
    };
    auto wait = [&](std::size_t tid) { add(tid, g.tryWait()); };
    switch (sync) {
    case Sync::None:
        if (b == Op::WaitLd) add(0, kWaitLd);
        if (b == Op::WaitSt) add(0, kWaitSt);
        if (b == Op::Commit) {
            p.commitAt = p.order.size();
            add(0, g.commit());
            wait(0);
            add(0, kFa);
        }
        return;
    case Sync::Wait:
        add(0, a == Op::Ld ? kWaitLd : kWaitSt);
        return;
    case Sync::Commit:
    case Sync::CommitFa:
        p.commitAt = p.order.size();
        add(0, g.commit());
        wait(0);
        if (sync == Sync::CommitFa) add(0, kFa);
        return;
    case Sync::Mbar:
    case Sync::MbarNoFb:
    case Sync::MbarNoFa:
        if (sync != Sync::MbarNoFb) add(0, kFb);
        add(0, g.arrive());
        wait(1);
        if (sync != Sync::MbarNoFa) add(1, kFa);
        return;
    case Sync::Bar:
    case Sync::BarNoFb:
    case Sync::BarNoFa:
        if (sync != Sync::BarNoFb) add(0, kFb);
        add(0, kBar);
        add(1, kBar);
        if (sync != Sync::BarNoFa) add(1, kFa);
        return;
    case Sync::Flag:
    case Sync::FlagNoFb:
    case Sync::FlagNoFa:
        if (sync != Sync::FlagNoFb) add(0, kFb);
        add(0, g.flagStore());
        add(1, g.flagLoad(1, p.flagRef));
        if (sync != Sync::FlagNoFa) add(1, kFa);
        return;
    case Sync::Completion:
        // PTX {Tcgen05NonPipelinedDiffThread}: ld/st wait, then before_thread_sync and an arrive;
        // mma/cp/shift complete through commit, which performs before_thread_sync implicitly.
        if (a == Op::Ld || a == Op::St) {
            add(0, a == Op::Ld ? kWaitLd : kWaitSt);
            add(0, kFb);
            add(0, g.arrive());
        } else {
            p.commitAt = p.order.size();
            add(0, g.commit());
        }
        wait(1);
        add(1, kFa);
        return;
    }
}

std::string stateText(const State& s, const std::vector<std::string>& refs) {
    std::string out;
    for (const std::string& r : refs)
        out += (out.empty() ? "" : ", ") + r + "=" + std::to_string(s.at(r));
    return out;
}

std::string conjunction(const State& s, const std::vector<std::string>& refs) {
    std::string out;
    for (const std::string& r : refs)
        out += (out.empty() ? "" : " /\\ ") + r + " == " + std::to_string(s.at(r));
    return out;
}

std::string conflictOf(const Step& a, const Step& b) {
    auto meets = [](const std::vector<std::string>& x, const std::vector<std::string>& y) {
        for (const std::string& r : x)
            for (const std::string& q : y)
                if (r == q) return true;
        return false;
    };
    if (meets(a.writes, b.reads)) return "B reads what A writes";
    if (meets(a.writes, b.writes)) return "B overwrites what A writes";
    if (meets(a.reads, b.writes)) return "B overwrites what A reads";
    throw std::logic_error("matrix: A and B do not conflict");
}

// The literal text's answer and the rule behind it, from the cell's shape and what the model
// says of its test.
void classify(Cell& c, const Facts& f) {
    c.pair = f.pair;
    bool piped = !c.pair.empty();
    auto commitTracksA = [&] {
        if (!f.commitTracksA) throw std::logic_error("matrix: " + c.id + " has no commit after A");
        return *f.commitTracksA;
    };
    auto says = [&](bool ordered, const char* rule) {
        c.textReading = ordered ? Verdict::Ordered : Verdict::MayReorder;
        c.rule = rule;
    };
    switch (c.sync) {
    case Sync::None:
        // B a completion op: the probe after it may itself be pipelined with A (9.4's ld -> st,
        // st -> ld, st -> st of one warp), which orders them whatever B completes.
        if (isCompletion(c.b) && piped) return says(true, "pipelined");
        if (c.b == Op::WaitLd) return says(c.a == Op::Ld, "wait-completion");
        if (c.b == Op::WaitSt) return says(c.a == Op::St, "wait-completion");
        if (c.b == Op::Commit) return says(commitTracksA(), "mbarrier-completion");
        return says(piped, piped ? "pipelined" : "async");
    case Sync::Wait:
        return says(true, "wait-completion");
    case Sync::Commit:
        if (piped) return says(true, "pipelined");
        return says(false, commitTracksA() ? "inter-thread" : "mbarrier-completion");
    case Sync::CommitFa:
        if (commitTracksA()) return says(true, "non-pipelined-same-thread");
        return says(piped, "mbarrier-completion");
    case Sync::Mbar:
    case Sync::Bar:
    case Sync::Flag:
        if (piped) return says(true, "pipelined-diff-thread");
        return says(false, "non-pipelined-diff-thread");
    case Sync::Completion:
        return says(true, "non-pipelined-diff-thread");
    default: // a fence dropped
        return says(false, "fence");
    }
}

std::string syncNotApplicable(Op a, Op b, Sync sync, std::string& rule) {
    if (isCompletion(b) && sync != Sync::None) {
        rule = b == Op::Commit ? "mbarrier-completion" : "wait-completion";
        return "B is itself the completion mechanism: see the column \"nothing\"";
    }
    if (sync == Sync::Wait && a != Op::Ld && a != Op::St) {
        rule = "mbarrier-completion";
        return "there is no wait for mma, cp or shift: their completion is observed only "
               "through tcgen05.commit and an mbarrier";
    }
    return "";
}

std::string naRule(Op a, Op b) {
    if (a == Op::Alloc || a == Op::Dealloc || b == Op::Alloc || b == Op::Dealloc) return "alloc";
    if (a == Op::Commit) return "commit";
    if (a == Op::WaitLd || a == Op::WaitSt) return "wait";
    return "async";
}

} // namespace

std::string opKey(Op op) {
    switch (op) {
    case Op::Alloc:
        return "alloc";
    case Op::Ld:
        return "ld";
    case Op::St:
        return "st";
    case Op::Shift:
        return "shift";
    case Op::Cp128:
        return "cp." + std::string(ptx::cpShape(ptx::CpShape::Rows128Bits256).name);
    case Op::Cp4:
        return "cp.4x256b";
    case Op::Mma:
        return "mma";
    case Op::MmaAcc:
        return "mma-other-acc";
    case Op::MmaShape:
        return "mma-other-shape";
    case Op::MmaKind:
        return "mma-other-kind";
    case Op::Commit:
        return "commit";
    case Op::WaitLd:
        return "wait.ld";
    case Op::WaitSt:
        return "wait.st";
    case Op::Dealloc:
        return "dealloc";
    }
    return "?";
}

std::string opLabel(Op op) {
    switch (op) {
    case Op::MmaAcc:
        return "mma, other accumulator";
    case Op::MmaShape:
        return "mma, other shape";
    case Op::MmaKind:
        return "mma, other kind";
    case Op::WaitLd:
        return "wait::ld";
    case Op::WaitSt:
        return "wait::st";
    default:
        return opKey(op);
    }
}

const char* syncKey(Sync s) {
    switch (s) {
    case Sync::None:
        return "none";
    case Sync::Wait:
        return "wait";
    case Sync::Commit:
        return "commit";
    case Sync::CommitFa:
        return "commit-fa";
    case Sync::Mbar:
        return "mbar";
    case Sync::MbarNoFb:
        return "mbar-nofb";
    case Sync::MbarNoFa:
        return "mbar-nofa";
    case Sync::Bar:
        return "bar";
    case Sync::BarNoFb:
        return "bar-nofb";
    case Sync::BarNoFa:
        return "bar-nofa";
    case Sync::Flag:
        return "flag";
    case Sync::FlagNoFb:
        return "flag-nofb";
    case Sync::FlagNoFa:
        return "flag-nofa";
    case Sync::Completion:
        return "completion";
    }
    return "?";
}

std::string syncLabel(Sync s) {
    switch (s) {
    case Sync::None:
        return "nothing";
    case Sync::Wait:
        return "matching wait";
    case Sync::Commit:
        return "commit + mbarrier wait";
    case Sync::CommitFa:
        return "commit + mbarrier wait + after_thread_sync";
    case Sync::Mbar:
        return "mbarrier arrive / wait";
    case Sync::MbarNoFb:
        return "mbarrier, no before_thread_sync";
    case Sync::MbarNoFa:
        return "mbarrier, no after_thread_sync";
    case Sync::Bar:
        return "bar.sync";
    case Sync::BarNoFb:
        return "bar.sync, no before_thread_sync";
    case Sync::BarNoFa:
        return "bar.sync, no after_thread_sync";
    case Sync::Flag:
        return "relaxed flag st / ld";
    case Sync::FlagNoFb:
        return "flag, no before_thread_sync";
    case Sync::FlagNoFa:
        return "flag, no after_thread_sync";
    case Sync::Completion:
        return "completion, then mbarrier";
    }
    return "?";
}

const char* verdictLabel(Verdict v) {
    switch (v) {
    case Verdict::Ordered:
        return "ordered";
    case Verdict::MayReorder:
        return "may reorder";
    case Verdict::NotApplicable:
        return "—";
    case Verdict::Error:
        return "error";
    }
    return "?";
}

const std::vector<Op>& tableOps() {
    static const std::vector<Op> ops = {Op::Alloc,  Op::Ld,     Op::St,     Op::Shift,
                                        Op::Cp128,  Op::Cp4,    Op::Mma,    Op::Commit,
                                        Op::WaitLd, Op::WaitSt, Op::Dealloc};
    return ops;
}

std::vector<Op> partnersOf(Op a, bool twoThreads) {
    std::vector<Op> out = {Op::Ld, Op::St, Op::Shift, Op::Cp128, Op::Cp4, Op::Mma};
    if (a == Op::Mma) out.insert(out.end(), {Op::MmaAcc, Op::MmaShape, Op::MmaKind});
    if (!twoThreads) out.insert(out.end(), {Op::Commit, Op::WaitLd, Op::WaitSt});
    return out;
}

const std::vector<Sync>& sameThreadSyncs() {
    static const std::vector<Sync> s = {Sync::None, Sync::Wait, Sync::Commit, Sync::CommitFa};
    return s;
}

const std::vector<Sync>& twoThreadSyncs() {
    static const std::vector<Sync> s = {Sync::Mbar, Sync::Bar, Sync::Flag, Sync::Completion};
    return s;
}

const std::vector<Sync>& droppedFenceSyncs() {
    static const std::vector<Sync> s = {Sync::MbarNoFb, Sync::MbarNoFa, Sync::BarNoFb,
                                        Sync::BarNoFa,  Sync::FlagNoFb, Sync::FlagNoFa};
    return s;
}

std::string notApplicableReason(Op a, Op b) {
    switch (a) {
    case Op::Alloc:
        return "alloc's only memory effect is the weak generic store of the TMEM address to "
               "shared memory, which no tcgen05 operation reads (they get the address through "
               "a register); alloc is synchronous, so it is issued before B anyway";
    case Op::Dealloc:
        return "dealloc frees columns rather than accessing them: tensor memory used after (or "
               "concurrently with) dealloc is the lifetime flag tmem-lifetime "
               "(litmus/tcgen05/lifetime/), a program error, not an ordering question";
    case Op::Commit:
        return "commit has no tensor-memory effect of its own, and it tracks only operations "
               "issued before it: a later B is simply not tracked "
               "(litmus/tcgen05/commit/L22-commit-before-mma.litmus)";
    case Op::WaitLd:
    case Op::WaitSt:
        return "a wait has no memory effect for B to overtake; as a sync between two "
               "operations see the column \"matching wait\"";
    default:
        break;
    }
    if (b == Op::Alloc) return "alloc has no tensor-memory effect that A could conflict with";
    if (b == Op::Dealloc)
        return "dealloc frees A's columns: an A not ordered before it is the lifetime flag "
               "tmem-lifetime (litmus/tcgen05/lifetime/), not a reordering";
    if (a == Op::Ld && b == Op::Ld)
        return "both only read tensor memory: no order between two reads is observable";
    return "";
}

std::string cellId(Op a, Op b, Sync sync) {
    return std::string(isTwoThread(sync) ? "xthr-" : "same-") + opKey(a) + "-" + opKey(b) + "-" +
           syncKey(sync);
}

Cell makeCell(Op a, Op b, Sync sync, const ModelRelation& model) {
    Cell c;
    c.a = a;
    c.b = b;
    c.sync = sync;
    c.twoThreads = isTwoThread(sync);
    c.id = cellId(a, b, sync);
    c.reason = notApplicableReason(a, b);
    if (!c.reason.empty()) {
        c.rule = naRule(a, b);
        return c;
    }
    c.reason = syncNotApplicable(a, b, sync, c.rule);
    if (!c.reason.empty()) {
        // No test of its own, but A -> B still is (or is not) a pipelined pair: what is between
        // them does not change that, so the one-thread test without a sync answers it.
        c.pair = makeCell(a, b, Sync::None, model).pair;
        return c;
    }

    std::size_t tidB = c.twoThreads ? 1 : 0;
    Plan p{Gen(rowsFor(a, b)), {}, {}, {}, {}, {}};
    p.a = makeA(p.gen, a, b, 0);
    p.order.push_back(p.a);
    addSyncSteps(p, a, b, sync);
    p.b = isCompletion(b) ? makeProbe(p.gen, p.a, tidB) : makeB(p.gen, a, b, tidB);
    p.order.push_back(p.b);
    c.conflict = conflictOf(p.a, p.b);

    // The program-order outcome must differ from one where B runs first, or where B reads
    // before A and writes after it: else the test could not tell reordering from order.
    State inOrder = p.gen.initial();
    run(p.a, inOrder);
    run(p.b, inOrder);
    State bFirst = p.gen.initial();
    run(p.b, bFirst);
    run(p.a, bFirst);
    State overlap = p.gen.initial();
    State bWrites = p.b.effect(overlap);
    run(p.a, overlap);
    for (const auto& [ref, value] : bWrites)
        overlap[ref] = value;
    const std::vector<std::string>& refs = p.gen.observed();
    std::string expected = conjunction(inOrder, refs);
    if (expected == conjunction(bFirst, refs) && expected == conjunction(overlap, refs))
        throw std::logic_error("matrix: " + c.id + " cannot observe a reordering");

    // First the test, then what the model says of its program: the rule behind the verdict,
    // which the test's first description cites, follows from that.
    LitmusText t;
    t.name = c.id;
    std::string bText = isCompletion(b) ? opLabel(b) + " then a probe of A's cell" : opLabel(b);
    t.descriptions.push_back("A = " + opLabel(a) + ", B = " + bText +
                             ", between them: " + syncLabel(sync) + "; " + c.conflict +
                             ". Program order ends with " + stateText(inOrder, refs) +
                             "; any other final state means B took effect before A completed.");
    t.init = p.gen.init();
    std::vector<InsnRef> at;
    for (const Step& s : p.order) {
        t.add(s.tid, s.text);
        at.push_back({s.tid, t.threads[s.tid].size() - 1});
    }
    std::string reordered = "~(" + expected + ")";
    if (!p.flagRef.empty()) reordered = p.flagRef + " == 1 /\\ " + reordered;
    t.condition = "exists (" + reordered + ")";

    std::optional<InsnRef> commit;
    if (p.commitAt) commit = at[*p.commitAt];
    classify(c, readFacts(t, at.front(), at.back(), commit, model));
    const Rule& r = rule(c.rule);
    t.descriptions.insert(t.descriptions.begin(), "PTX ISA " + r.section + " #" + r.anchor +
                                                      " (generated by ptxmc matrix; do not edit)");
    c.test = std::move(t);
    return c;
}

std::vector<Cell> allCells(const ModelRelation& model) {
    std::vector<Cell> out;
    for (Op a : tableOps())
        for (Op b : tableOps()) {
            if (!notApplicableReason(a, b).empty()) {
                out.push_back(makeCell(a, b, Sync::None, model));
                continue;
            }
            std::vector<Op> bs = {b};
            if (a == Op::Mma && b == Op::Mma) bs = {Op::Mma, Op::MmaAcc, Op::MmaShape, Op::MmaKind};
            for (Op variant : bs)
                for (Sync s : sameThreadSyncs())
                    out.push_back(makeCell(a, variant, s, model));
        }
    for (Op a : tableOps()) {
        if (!isTmemOp(a)) continue;
        for (Op b : partnersOf(a, true)) {
            if (!notApplicableReason(a, b).empty()) {
                out.push_back(makeCell(a, b, Sync::Mbar, model));
                continue;
            }
            for (const auto* list : {&twoThreadSyncs(), &droppedFenceSyncs()})
                for (Sync s : *list)
                    out.push_back(makeCell(a, b, s, model));
        }
    }
    return out;
}

} // namespace ptxmc::matrix
