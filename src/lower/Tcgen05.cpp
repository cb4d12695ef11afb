// tcgen05 instructions (PTX ISA 9.7.16): issue events, and the accesses their execution performs.
#include "lower/Lowerer.hpp"

#include <algorithm>
#include <set>

namespace ptxmc::lower {

using ir::Value;
using litmus::Operand;

namespace {

int takeCtaGroup(Lowerer& l, Qualifiers& q, bool required) {
    auto g = q.takePrefixed("cta_group::");
    if (!g) {
        if (required) l.fail(l.inst().loc, "'" + l.inst().opcode + "' needs .cta_group::1 or ::2");
        return 0;
    }
    if (*g != "1" && *g != "2")
        l.fail(l.inst().loc, "cta_group::" + *g +
                                 " does not exist: only cta_group::1 and "
                                 "cta_group::2 (PTX ISA 9.7.16.5)");
    int group = *g == "1" ? 1 : 2;
    l.noteCtaGroup(group, l.inst().loc);
    return group;
}

ir::Event& tcIssue(Lowerer& l, int group, std::initializer_list<const char*> tags) {
    ir::Event& e = l.issue(tags);
    e.tags.insert("TC");
    e.ctaGroup = group;
    if (group == 1) e.tags.insert("CG1");
    if (group == 2) e.tags.insert("CG2");
    return e;
}

/** CTAs whose tensor memory an op of this cta_group touches: the issuer, plus its peer for ::2. */
std::vector<int> pairCtas(Lowerer& l, int group) {
    std::vector<int> ctas{l.thread().cta};
    if (group == 2) {
        int peer = l.peerCta(l.thread().cta);
        if (peer < 0)
            l.fail(l.inst().loc,
                   "cta_group::2 needs the peer CTA (cluster rank differing in bit 0) "
                   "to run a thread of this test");
        ctas.push_back(peer);
    }
    return ctas;
}

/** The operand's instance in `cta` when declared there, else the issuing CTA's. */
Address inCtaOr(Lowerer& l, const Address& a, int cta) {
    auto b = l.addressInCta(a, cta);
    return b ? *b : a;
}

Address tmemInCta(Lowerer& l, const Address& a, int cta, const Operand& op) {
    auto b = l.addressInCta(a, cta);
    if (!b)
        l.fail(op.loc, "'" + op.name + "' has no tensor-memory instance in CTA " +
                           std::to_string(cta) + " (cta_group::2 writes both CTAs of the pair)");
    return *b;
}

ir::Proxy proxyOfSpace(ir::Space s) {
    return s == ir::Space::Tmem ? ir::Proxy::Tmem : ir::Proxy::Async;
}

int readAt(Lowerer& l, int issueId, const Address& a, const std::string& role) {
    ir::Event& r = l.exec(issueId, role, {"R"});
    ir::Space space = l.program().locations[static_cast<std::size_t>(a.location)].space;
    l.access(r, a, proxyOfSpace(space));
    r.sem = ir::Sem::Weak;
    r.tags.insert("Weak");
    return r.id;
}

void writeAt(Lowerer& l, int issueId, const Address& a, const std::string& role, ir::ValuePtr v) {
    ir::Event& w = l.exec(issueId, role, {"W"});
    l.access(w, a, ir::Proxy::Tmem);
    w.sem = ir::Sem::Weak;
    w.tags.insert("Weak");
    w.written = std::move(v);
}

void lowerMma(Lowerer& l, Qualifiers& q) {
    int group = takeCtaGroup(l, q, true);
    auto kind = q.takePrefixed("kind::");
    if (!kind) l.fail(l.inst().loc, "tcgen05.mma needs .kind::<kind>");
    for (const char* unsupported : {"ws", "sp", "block_scale"})
        if (q.take(unsupported))
            l.fail(l.inst().loc, std::string("tcgen05.mma.") + unsupported + " is not supported");
    q.finish();
    l.expectOperands(5);
    Address d = l.address(l.operand(0), ir::Space::Tmem);
    Address a = l.address(l.operand(1));
    if (l.program().locations[static_cast<std::size_t>(a.location)].space == ir::Space::Global ||
        l.program().locations[static_cast<std::size_t>(a.location)].space == ir::Space::Mbarrier)
        l.fail(l.operand(1).loc, "the A operand of tcgen05.mma is in shared or tensor memory");
    Address b = l.address(l.operand(2), ir::Space::Shared);
    const Operand& idesc = l.operand(3);
    if (idesc.kind != Operand::Kind::Name)
        l.fail(idesc.loc, "IDESC must be a name standing for the instruction shape");
    ir::ValuePtr enable = l.value(l.operand(4));
    bool enableKnown = enable->op == Value::Op::Const;
    bool accumulate = !enableKnown || enable->constant != 0;
    ir::Event& e = tcIssue(l, group, {"TC_ASYNC", "MMA"});
    e.idesc = idesc.name;
    e.kind = *kind;
    e.accumulator = d.location;
    int id = e.id;
    for (int cta : pairCtas(l, group)) {
        Address dc = tmemInCta(l, d, cta, l.operand(0));
        int ra = readAt(l, id, inCtaOr(l, a, cta), "read A");
        int rb = readAt(l, id, inCtaOr(l, b, cta), "read B");
        ir::ValuePtr product = Value::make(Value::Op::Mul, {Value::readOf(ra), Value::readOf(rb)});
        ir::ValuePtr result = product;
        if (accumulate) {
            int rd = readAt(l, id, dc, "read D");
            ir::ValuePtr sum = Value::make(Value::Op::Add, {product, Value::readOf(rd)});
            result = enableKnown ? sum : Value::make(Value::Op::Ite, {enable, sum, product});
        }
        writeAt(l, id, dc, "write D", result);
    }
}

void lowerCp(Lowerer& l, Qualifiers& q) {
    int group = takeCtaGroup(l, q, true);
    auto shape = q.takeOneOf({"128x256b", "4x256b", "128x128b", "64x128b", "32x128b"});
    if (!shape)
        l.fail(l.inst().loc, "tcgen05.cp needs a shape (.128x256b, .4x256b, .128x128b, "
                             ".64x128b or .32x128b)");
    bool warpx2 = q.takeOneOf({"warpx2::02_13", "warpx2::01_23"}).has_value();
    bool warpx4 = q.take("warpx4");
    if (*shape == "64x128b" && !warpx2)
        l.fail(l.inst().loc, ".64x128b needs .warpx2::02_13 or ::01_23");
    if (*shape == "32x128b" && !warpx4) l.fail(l.inst().loc, ".32x128b needs .warpx4");
    q.takePrefixed("b8x16");
    q.takePrefixed("b6x16_p32");
    q.takePrefixed("b4x16_p64");
    q.finish();
    l.expectOperands(2);
    Address t = l.address(l.operand(0), ir::Space::Tmem);
    Address s = l.address(l.operand(1), ir::Space::Shared);
    ir::Event& e = tcIssue(l, group, {"TC_ASYNC", "CP"});
    if (*shape == "4x256b") e.tags.insert("CP_4x256b");
    e.shape = *shape;
    int id = e.id;
    int rs = readAt(l, id, s, "read " + l.operand(1).name);
    for (int cta : pairCtas(l, group))
        writeAt(l, id, tmemInCta(l, t, cta, l.operand(0)), "write", Value::readOf(rs));
}

void lowerShift(Lowerer& l, Qualifiers& q) {
    int group = takeCtaGroup(l, q, true);
    if (!q.take("down")) l.fail(l.inst().loc, "tcgen05.shift needs .down");
    q.finish();
    l.expectOperands(1);
    Address t = l.address(l.operand(0), ir::Space::Tmem);
    if (t.row != 0) l.fail(l.operand(0).loc, "tcgen05.shift starts at row 0 of its location");
    ir::Event& e = tcIssue(l, group, {"TC_ASYNC", "SHIFT"});
    int id = e.id;
    int rows = (t.decl->aliasOf ? 1 : t.decl->rows);
    for (int cta : pairCtas(l, group)) {
        tmemInCta(l, t, cta, l.operand(0)); // the pair's instance must exist
        // Row r moves to row r+1: read rows 0..n-2, then write rows 1..n-1.
        std::vector<int> reads;
        for (int r = 0; r + 1 < rows; ++r) {
            Operand rowOp = l.operand(0);
            rowOp.value = r;
            rowOp.cta = cta;
            reads.push_back(readAt(l, id, l.address(rowOp), "read row " + std::to_string(r)));
        }
        for (int r = 0; r + 1 < rows; ++r) {
            Operand rowOp = l.operand(0);
            rowOp.value = r + 1;
            rowOp.cta = cta;
            writeAt(l, id, l.address(rowOp), "write row " + std::to_string(r + 1),
                    Value::readOf(reads[static_cast<std::size_t>(r)]));
        }
    }
}

std::vector<Operand> registerVector(Lowerer& l, const Operand& op) {
    if (op.kind == Operand::Kind::Vector) return op.elements;
    if (op.kind == Operand::Kind::Name) return {op};
    l.fail(op.loc, "expected a register vector such as {r0, r1}");
}

Operand rowOperand(const Operand& base, std::size_t i) {
    Operand r = base;
    r.value = base.value + static_cast<std::int64_t>(i);
    return r;
}

/**
 * Shape, repeat count and packing of tcgen05.ld/st; returns the number of registers per
 * thread that PTX ISA 9.7.16.8.3 gives them (ptxmc's litmus thread holds them all).
 */
std::size_t takeLdStShape(Lowerer& l, Qualifiers& q) {
    if (!q.take("sync") || !q.take("aligned"))
        l.fail(l.inst().loc, "'" + l.inst().opcode + "' needs .sync.aligned");
    auto shape = q.takeOneOf({"16x64b", "16x128b", "16x256b", "32x32b"});
    if (q.take("16x32bx2"))
        l.fail(l.inst().loc,
               ".16x32bx2 needs the immHalfSplitoff operand, which ptxmc does not model");
    if (!shape) l.fail(l.inst().loc, "missing shape (.32x32b, .16x64b, .16x128b or .16x256b)");
    auto num = q.takePrefixed("x");
    static const std::set<std::string> counts = {"1", "2", "4", "8", "16", "32", "64", "128"};
    if (!num || !counts.count(*num))
        l.fail(l.inst().loc, "missing or bad repeat count (.x1, .x2, .x4, ... .x128)");
    bool packed = q.takeOneOf({"pack::16b", "unpack::16b"}).has_value();
    if (!q.take("b32")) l.fail(l.inst().loc, "'" + l.inst().opcode + "' needs .b32");
    std::size_t perRepeat = *shape == "16x128b" ? 2 : *shape == "16x256b" ? 4 : 1;
    std::size_t regs = perRepeat * std::stoul(*num);
    return packed ? std::max<std::size_t>(1, regs / 2) : regs;
}

void requireRegisterCount(Lowerer& l, const Operand& op, std::size_t got, std::size_t want) {
    if (got != want)
        l.fail(op.loc, "'" + l.inst().opcode + "' moves " + std::to_string(want) +
                           " register(s) per thread, the vector has " + std::to_string(got));
}

void lowerLd(Lowerer& l, Qualifiers& q) {
    if (q.takePrefixed("cta_group::")) l.fail(l.inst().loc, "tcgen05.ld has no .cta_group");
    std::size_t want = takeLdStShape(l, q);
    q.finish();
    l.expectOperands(2);
    if (l.operand(1).kind == Operand::Kind::Memory && l.operand(0).kind == Operand::Kind::Memory)
        l.fail(l.operand(1).loc,
               "tcgen05.ld loads tensor memory into registers: "
               "tcgen05.ld ... {r...}, [taddr] (shared memory is not an operand)");
    std::vector<Operand> regs = registerVector(l, l.operand(0));
    requireRegisterCount(l, l.operand(0), regs.size(), want);
    l.address(l.operand(1), ir::Space::Tmem); // validates the base before any row
    ir::Event& e = tcIssue(l, 0, {"TC_ASYNC", "TLD"});
    int id = e.id;
    for (std::size_t i = 0; i < regs.size(); ++i) {
        Address a = l.address(rowOperand(l.operand(1), i), ir::Space::Tmem);
        int r = readAt(l, id, a, "read row " + std::to_string(a.row));
        l.define(regs[i], Value::readOf(r));
    }
}

void lowerSt(Lowerer& l, Qualifiers& q) {
    if (q.takePrefixed("cta_group::")) l.fail(l.inst().loc, "tcgen05.st has no .cta_group");
    std::size_t want = takeLdStShape(l, q);
    q.finish();
    l.expectOperands(2);
    if (l.operand(1).kind == Operand::Kind::Memory)
        l.fail(l.operand(1).loc,
               "tcgen05.st stores registers into tensor memory: "
               "tcgen05.st ... [taddr], {r...} (shared memory is not an operand)");
    l.address(l.operand(0), ir::Space::Tmem);
    std::vector<Operand> regs = registerVector(l, l.operand(1));
    requireRegisterCount(l, l.operand(1), regs.size(), want);
    std::vector<ir::ValuePtr> values;
    for (const auto& r : regs)
        values.push_back(l.value(r));
    ir::Event& e = tcIssue(l, 0, {"TC_ASYNC", "TST"});
    int id = e.id;
    for (std::size_t i = 0; i < regs.size(); ++i) {
        Address a = l.address(rowOperand(l.operand(0), i), ir::Space::Tmem);
        writeAt(l, id, a, "write row " + std::to_string(a.row), values[i]);
    }
}

void lowerWait(Lowerer& l, Qualifiers& q, bool ld) {
    if (q.takePrefixed("cta_group::"))
        l.fail(l.inst().loc, "tcgen05.wait has no .cta_group (PTX ISA 9.7.16.8.5)");
    if (!q.take("sync") || !q.take("aligned"))
        l.fail(l.inst().loc, "tcgen05.wait needs .sync.aligned");
    q.finish();
    if (!l.inst().operands.empty())
        l.fail(l.inst().operands[0].loc, "tcgen05.wait::" + std::string(ld ? "ld" : "st") +
                                             " takes no operands: it waits for all prior tcgen05." +
                                             (ld ? "ld" : "st") +
                                             " of the thread (PTX ISA 9.7.16.8.5)");
    tcIssue(l, 0, {ld ? "WAIT_LD" : "WAIT_ST", "BLOCKING"});
}

void lowerCommit(Lowerer& l, Qualifiers& q) {
    int group = takeCtaGroup(l, q, true);
    if (!q.take("mbarrier::arrive::one"))
        l.fail(l.inst().loc, "tcgen05.commit needs .mbarrier::arrive::one (PTX ISA 9.7.16.12.1)");
    q.takeOneOf({"shared::cluster", "shared::cta", "shared"});
    bool multicast = q.take("multicast::cluster");
    if (!q.take("b64")) l.fail(l.inst().loc, "tcgen05.commit needs .b64");
    q.finish();
    l.expectOperands(multicast ? 2 : 1);
    Address mb = l.address(l.operand(0), ir::Space::Mbarrier);
    std::vector<Address> targets;
    if (multicast) {
        const Operand& mask = l.operand(1);
        if (mask.kind != Operand::Kind::Integer || mask.value <= 0 || mask.value > 0xffff)
            l.fail(mask.loc, "ctaMask must be a non-zero 16-bit integer");
        for (int rank = 0; rank < 16; ++rank) {
            if (!((mask.value >> rank) & 1)) continue;
            int cta = l.ctaOfRank(l.thread().cta, rank);
            auto m = cta < 0 ? std::nullopt : l.addressInCta(mb, cta);
            if (!m)
                l.fail(mask.loc, "ctaMask names cluster rank " + std::to_string(rank) +
                                     ", where '" + l.operand(0).name + "' is not declared");
            targets.push_back(*m);
        }
    } else {
        targets.push_back(mb);
    }
    ir::Event& e = tcIssue(l, group, {"COMMIT"});
    int id = e.id;
    for (const Address& m : targets) {
        // The arrive-on happens when the tracked operations complete: count 1, cluster scope
        // (PTX ISA 9.7.16.12.1). The text states no memory semantics for it; whether it
        // releases is decision Q6 (ARRIVE-RELEASE) in model/decisions.cat, so it carries none.
        ir::Event& a =
            l.exec(id, "arrive " + l.program().locations[static_cast<std::size_t>(m.location)].name,
                   {"MB", "MB_ARRIVE", "CLUSTER", "GEN"});
        a.mbOp = ir::MbOp::Arrive;
        a.location = m.location;
        a.vaddr = m.vaddr;
        a.space = ir::Space::Mbarrier;
        a.proxy = ir::Proxy::Generic;
        a.scope = ir::Scope::Cluster;
    }
}

/** nCols of alloc/dealloc: a power of 2 in [32, 512] (PTX ISA 9.7.16.7.1). */
int columnCount(Lowerer& l) {
    const Operand& cols = l.operand(1);
    if (cols.kind != Operand::Kind::Integer || cols.value < 32 || cols.value > 512 ||
        (cols.value & (cols.value - 1)) != 0)
        l.fail(cols.loc, "number of columns must be a power of 2 in [32, 512]");
    return static_cast<int>(cols.value);
}

/**
 * The next column block of the issuing CTA. Successive allocs get successive blocks and freed
 * columns are never reused, so a CTA's allocs must fit in its 512 columns together.
 */
int takeColumns(Lowerer& l, int cols) {
    int& next = l.tmemNextColumn[l.thread().cta];
    if (next + cols > 512)
        l.fail(l.operand(1).loc, "CTA " + std::to_string(l.thread().cta) +
                                     " allocates more than 512 tensor-memory columns: ptxmc "
                                     "gives each tcgen05.alloc its own columns and never reuses "
                                     "freed ones (PTX ISA 9.7.16.1)");
    int column = next;
    next += cols;
    return column;
}

void lowerRelinquish(Lowerer& l, Qualifiers& q, int group) {
    q.finish();
    l.expectOperands(0);
    tcIssue(l, group, {"RELINQUISH"});
}

/** dealloc frees the block whose address taddr holds; resolveAllocations finds which. */
void lowerDealloc(Lowerer& l, int group) {
    int cols = columnCount(l);
    ir::ValuePtr taddr = l.value(l.operand(0));
    ir::Event& e = tcIssue(l, group, {"DEALLOC"});
    e.tmemColumns = cols;
    l.deallocs.push_back({e.id, taddr, l.operand(0).loc});
}

void lowerAllocOp(Lowerer& l, int group) {
    int cols = columnCount(l);
    // Relinquish by another thread of the CTA is the model's tcgen05-alloc-misuse flag.
    for (int ev : l.threadInfo().events)
        if (l.program().events[static_cast<std::size_t>(ev)].has("RELINQUISH"))
            l.fail(l.inst().loc, "tcgen05.alloc after tcgen05.relinquish_alloc_permit is illegal "
                                 "(PTX ISA 9.7.16.7.1)");
    Address dst = l.address(l.operand(0), ir::Space::Shared);
    ir::Event& e = tcIssue(l, group, {"ALLOC"});
    // Tensor-memory address: lane[31:16] | column[15:0] (PTX ISA 9.7.16.1); blocks start at lane 0.
    e.tmemAddress = takeColumns(l, cols);
    e.tmemColumns = cols;
    ir::ValuePtr address = Value::makeConst(e.tmemAddress);
    int alloc = e.id;
    // The address store is a weak generic write (PTX ISA 9.7.16.7.1).
    ir::Event& w = l.issue({"W", "Weak"});
    l.access(w, dst, ir::Proxy::Generic);
    w.sem = ir::Sem::Weak;
    w.text = l.inst().opcode + " (address store)";
    w.written = address;
    l.allocs.push_back({alloc, dst.location});
}

void lowerAlloc(Lowerer& l, Qualifiers& q, const std::string& op) {
    int group = takeCtaGroup(l, q, true);
    if (!q.take("sync") || !q.take("aligned"))
        l.fail(l.inst().loc, "'" + l.inst().opcode + "' needs .sync.aligned");
    if (op == "relinquish_alloc_permit") {
        lowerRelinquish(l, q, group);
        return;
    }
    if (op == "alloc") q.take("shared::cta");
    if (!q.take("b32")) l.fail(l.inst().loc, "'" + l.inst().opcode + "' needs .b32");
    q.finish();
    l.expectOperands(2);
    if (op == "dealloc")
        lowerDealloc(l, group);
    else
        lowerAllocOp(l, group);
}

} // namespace

bool lowerTcgen05(Lowerer& l) {
    const auto& p = l.inst().parts;
    if (p[0] != "tcgen05") return false;
    if (p.size() < 2) l.fail(l.inst().loc, "incomplete tcgen05 instruction");
    const std::string& op = p[1];
    Qualifiers q(l.inst(), 2);
    if (op == "mma")
        lowerMma(l, q);
    else if (op == "cp")
        lowerCp(l, q);
    else if (op == "shift")
        lowerShift(l, q);
    else if (op == "ld")
        lowerLd(l, q);
    else if (op == "st")
        lowerSt(l, q);
    else if (op == "wait::ld")
        lowerWait(l, q, true);
    else if (op == "wait::st")
        lowerWait(l, q, false);
    else if (op == "commit")
        lowerCommit(l, q);
    else if (op == "fence::before_thread_sync" || op == "fence::after_thread_sync") {
        q.finish();
        l.expectOperands(0);
        tcIssue(l, 0, {op == "fence::before_thread_sync" ? "FB" : "FA"});
    } else if (op == "alloc" || op == "dealloc" || op == "relinquish_alloc_permit") {
        lowerAlloc(l, q, op);
    } else {
        l.fail(l.inst().loc, "unknown instruction '" + l.inst().opcode + "'");
    }
    return true;
}

} // namespace ptxmc::lower
