// Hopper warpgroup MMA (PTX ISA {Wgmma}): a litmus thread stands for the warpgroup. The mma's
// shared-memory operands are async-proxy reads, its register operands (d, and A in registers)
// are cells of the thread (Lowerer::registerCell), its completion is an event of its own.
#include "lower/Instructions.hpp"
#include "ptx/Sections.hpp"

namespace ptxmc::lower {

using ir::Tag;
using ir::Value;
using litmus::Operand;

namespace {

std::vector<Operand> registerList(Lowerer& l, const Operand& op, const char* what) {
    std::vector<Operand> regs;
    if (op.kind == Operand::Kind::Vector)
        regs = op.elements;
    else if (op.kind == Operand::Kind::Name)
        regs = {op};
    else
        l.fail(op.loc, std::string(what) + " is a register vector such as {d0, d1}");
    for (const Operand& r : regs)
        if (r.kind != Operand::Kind::Name || l.registerCell(r.name) < 0)
            l.fail(r.loc, std::string(what) + " holds registers only");
    return regs;
}

/** An async-proxy read of a shared-memory operand (the location its descriptor describes). */
int sharedRead(Lowerer& l, int issueId, const Operand& op, const std::string& role) {
    Address a = l.address(op, ir::Space::Shared);
    l.checkReach(a, op, false);
    ir::Event& r = l.exec(issueId, role, {Tag::R});
    l.access(r, a, ir::Proxy::Async);
    setWeak(r);
    return r.id;
}

int registerExec(Lowerer& l, int issueId, const Operand& reg, bool write, const std::string& role) {
    int cell = l.registerCell(reg.name);
    const ir::Location& loc = l.program().locations[static_cast<std::size_t>(cell)];
    ir::Event& e = l.exec(issueId, role + " " + reg.name, {write ? Tag::W : Tag::R, Tag::M});
    e.tags.insert(Tag::WGREG);
    e.location = cell;
    e.space = loc.space;
    e.vaddr = l.program().events[static_cast<std::size_t>(loc.init)].vaddr;
    setWeak(e);
    return e.id;
}

/**
 * wgmma.mma_async.sp's sp-sel ({WgmmaMmaAsyncSp#}): "a 32-bit integer constant", 0 or 1 for
 * .tf32, .f16 and .bf16, 0 for .e4m3, .e5m2, .s8 and .u8 ("any other value results in
 * undefined behavior").
 */
void checkSparsitySelector(Lowerer& l, const ptx::WgmmaMma& m, const Operand& sel) {
    bool pairs = m.atype == "tf32" || m.atype == "f16" || m.atype == "bf16";
    bool ok = sel.kind == Operand::Kind::Integer && sel.value >= 0 && sel.value <= (pairs ? 1 : 0);
    if (!ok)
        l.fail(sel.loc, std::string("sp-sel must be ") + (pairs ? "0 or 1" : "0") + " for ." +
                            m.atype + " (" + ptx::cite(ptx::Sec::WgmmaMmaAsyncSp) + ")");
}

} // namespace

void lowerWgmmaFence(Lowerer& l, const ptx::WgmmaFence&) {
    l.expectOperands(0);
    l.issue({Tag::WG_FENCE});
}

/**
 * wgmma.mma_async{.sp} d, a-desc|{a...}, b-desc{, sp-meta, sp-sel}, scale-d{, imm...} (PTX
 * ISA {WgmmaMmaAsync}, {WgmmaMmaAsyncSp}): each d register becomes A*B (+ d when scale-d is not
 * 0), A the A location's value or the first A register. The immediates are checked (imm-scale
 * -1 or 1, imm-trans 0 or 1) and change nothing. sp-meta is a register the mma reads (WG_META):
 * "wgmma.fence instruction must be used to fence the register accesses of wgmma.mma_async
 * instruction from their prior accesses"; which elements of A it selects does not enter D's
 * value (a register holds one word of A).
 */
void lowerWgmmaMma(Lowerer& l, const ptx::WgmmaMma& m) {
    bool aShared = l.operand(1).kind != Operand::Kind::Vector;
    std::size_t imms = m.immediates(aShared);
    std::size_t scaleD = m.sp ? 5 : 3; // sp-meta and sp-sel come before scale-d
    l.expectOperands(scaleD + 1 + imms);
    if (m.sp) {
        const Operand& meta = l.operand(3);
        if (meta.kind != Operand::Kind::Name || l.registerCell(meta.name) < 0)
            l.fail(meta.loc,
                   "sp-meta is one 32-bit register (" + ptx::cite(ptx::Sec::WgmmaMmaAsyncSp) + ")");
        checkSparsitySelector(l, m, l.operand(4));
    }
    for (std::size_t i = 0; i < imms; ++i) {
        const Operand& op = l.operand(scaleD + 1 + i);
        bool trans = (m.atype == "f16" || m.atype == "bf16") && i >= 2;
        bool ok = op.kind == Operand::Kind::Integer &&
                  (trans ? (op.value == 0 || op.value == 1) : (op.value == -1 || op.value == 1));
        if (!ok)
            l.fail(op.loc, std::string(trans ? "imm-trans" : "imm-scale") + " must be " +
                               (trans ? "0 or 1" : "-1 or 1") + " (" +
                               ptx::cite(ptx::Sec::WgmmaMmaAsync) + ")");
    }
    std::vector<Operand> d = registerList(l, l.operand(0), "the accumulator d");
    std::vector<Operand> a;
    if (!aShared) {
        a = registerList(l, l.operand(1), "A in registers");
    }
    ir::ValuePtr enable = l.value(l.operand(scaleD));
    bool enableKnown = enable->op == Value::Op::Const;
    bool accumulate = !enableKnown || enable->constant != 0;
    ir::Event& e = l.issue({Tag::WGMMA});
    e.idesc = l.symbolId("wgmma shape m" + std::to_string(m.m) + "n" + std::to_string(m.n) + "k" +
                         std::to_string(m.k));
    int id = e.id;
    ir::ValuePtr av;
    if (aShared) {
        av = Value::readOf(sharedRead(l, id, l.operand(1), "read A"));
    } else {
        for (std::size_t i = 0; i < a.size(); ++i) {
            int r = registerExec(l, id, a[i], false, "read A");
            if (i == 0) av = Value::readOf(r);
        }
    }
    ir::ValuePtr bv = Value::readOf(sharedRead(l, id, l.operand(2), "read B"));
    if (m.sp) {
        int r = registerExec(l, id, l.operand(3), false, "read sp-meta");
        l.program().events[static_cast<std::size_t>(r)].tags.insert(Tag::WG_META);
    }
    ir::ValuePtr product = Value::make(Value::Op::Mul, {av, bv});
    std::vector<int> reads;
    if (accumulate)
        for (const Operand& r : d)
            reads.push_back(registerExec(l, id, r, false, "read D"));
    for (std::size_t i = 0; i < d.size(); ++i) {
        ir::ValuePtr result = product;
        if (accumulate) {
            ir::ValuePtr sum = Value::make(Value::Op::Add, {product, Value::readOf(reads[i])});
            result = enableKnown ? sum : Value::make(Value::Op::Ite, {enable, sum, product});
        }
        int w = registerExec(l, id, d[i], true, "write D");
        l.program().events[static_cast<std::size_t>(w)].written = result;
    }
    // The completion: "followed by an implicit generic-async proxy fence" (PTX ISA
    // {WgmmaAsyncProxy}).
    l.exec(id, "complete", {Tag::WG_DONE, Tag::PF, Tag::PF_ASYNC});
    l.pendingWgmma.push_back(id);
}

/** wgmma.commit_group: the uncommitted mmas of the thread form its next wgmma-group. */
void lowerWgmmaCommit(Lowerer& l, const ptx::WgmmaCommit&) {
    l.expectOperands(0);
    int id = l.issue({Tag::WG_COMMIT}).id;
    for (int mma : l.pendingWgmma)
        l.program().events[static_cast<std::size_t>(mma)].bulkGroup = id;
    l.pendingWgmma.clear();
}

/** wgmma.wait_group N: all but the N most recent wgmma-groups of the thread have completed. */
void lowerWgmmaWait(Lowerer& l, const ptx::WgmmaWait&) {
    l.expectOperands(1);
    const Operand& n = l.operand(0);
    if (n.kind != Operand::Kind::Integer || n.value < 0 || n.value > 7)
        l.fail(n.loc, "wgmma.wait_group needs an integer N in [0, 7]");
    ir::Event& e = l.issue({Tag::WG_WAIT, Tag::BLOCKING});
    e.bulkWaitN = static_cast<int>(n.value);
}

} // namespace ptxmc::lower
