// tcgen05 instructions (PTX ISA {Tcgen05}): issue events, and the accesses their execution
// performs.
#include "lower/Floats.hpp"
#include "lower/Instructions.hpp"
#include "ptx/Sections.hpp"
#include "ptx/Tables.hpp"

#include <algorithm>
#include <set>

namespace ptxmc::lower {

using ir::Tag;
using ir::Value;
using litmus::Operand;

namespace {

ir::Event& tcIssue(Lowerer& l, int group, std::initializer_list<Tag> tags) {
    ir::Event& e = l.issue(tags);
    e.tags.insert(Tag::TC);
    e.ctaGroup = group;
    if (group == 1) e.tags.insert(Tag::CG1);
    if (group == 2) e.tags.insert(Tag::CG2);
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

/**
 * The tensor-memory locations an operand names: one, or a list `{t0, t1, ...}` of slices of one
 * accumulator (ptxmc kernel gives the lane quarters and column ranges of an accumulator that
 * tcgen05.st writes in parts locations of their own, docs/kernel.md): an instruction whose lanes
 * and columns cover several slices accesses each.
 */
std::vector<Address> tmemCells(Lowerer& l, const Operand& op) {
    if (op.kind != Operand::Kind::Vector) return {l.address(op, ir::Space::Tmem)};
    if (op.elements.empty()) l.fail(op.loc, "expected at least one tensor-memory location");
    std::vector<Address> cells;
    for (const Operand& e : op.elements) {
        if (e.kind != Operand::Kind::Name)
            l.fail(e.loc, "a list of tensor-memory locations holds location names only");
        cells.push_back(l.address(e, ir::Space::Tmem));
    }
    return cells;
}

bool namesTmem(Lowerer& l, const Operand& op) {
    if (op.kind == Operand::Kind::Vector) return true;
    Address a = l.address(op);
    return l.program().locations[static_cast<std::size_t>(a.location)].space == ir::Space::Tmem;
}

ir::Proxy proxyOfSpace(ir::Space s) {
    return s == ir::Space::Tmem ? ir::Proxy::Tmem : ir::Proxy::Async;
}

int readAt(Lowerer& l, int issueId, const Address& a, const std::string& role,
           std::initializer_list<Tag> tags = {Tag::R}) {
    ir::Event& r = l.exec(issueId, role, tags);
    ir::Space space = l.program().locations[static_cast<std::size_t>(a.location)].space;
    l.access(r, a, proxyOfSpace(space));
    setWeak(r);
    return r.id;
}

void writeAt(Lowerer& l, int issueId, const Address& a, const std::string& role, ir::ValuePtr v) {
    ir::Event& w = l.exec(issueId, role, {Tag::W});
    l.access(w, a, ir::Proxy::Tmem);
    setWeak(w);
    w.written = std::move(v);
}

/** A tensor-memory operand of an mma besides A and D: sparse metadata, B's look-up table, a
 *  scale matrix. */
struct MmaTmemOperand {
    std::size_t index;
    Tag tag;
    std::string role;
};

/** The further tensor-memory operands of `m`, in operand order ({Tcgen05Mma#},
 *  {Tcgen05MmaSp#}): [sp-meta-tmem] or [b-decompress-metadata] after b, [scale-A-tmem] and
 *  [scale-B-tmem] after idesc. */
std::vector<MmaTmemOperand> mmaTmemOperands(const ptx::Tcgen05Mma& m) {
    std::vector<MmaTmemOperand> ops;
    if (m.sp) ops.push_back({3, Tag::MMA_READ_META, "read metadata"});
    if (m.lutB) ops.push_back({3, Tag::MMA_READ_META, "read B look-up table"});
    std::size_t idesc = (m.sp || m.lutB) ? 4 : 3;
    if (m.blockScale) {
        ops.push_back({idesc + 1, Tag::MMA_READ_SCALE, "read scale A"});
        ops.push_back({idesc + 2, Tag::MMA_READ_SCALE, "read scale B"});
    }
    return ops;
}

/** The collector buffer a read of A (`matrixB` false) or B goes through ({Tcgen05Mma#},
 *  {Tcgen05MmaWs#}): the qualifier written, else the text's default ("If no
 *  .collector_a_usage qualifier is specified, then it defaults to .collector::a::discard",
 *  likewise ::b; with .ws "it defaults to .collector::b0::discard"); .ws's A has none
 *  ("Collector buffer is applicable on matrix B"). */
std::optional<ptx::Collector> collectorOf(const ptx::Tcgen05Mma& m, bool matrixB) {
    using ptx::CollectorOp;
    if (!matrixB)
        return m.ws ? std::nullopt
                    : std::optional(
                          m.collectorA.value_or(ptx::Collector{"a", CollectorOp::Discard}));
    return m.collectorB.value_or(ptx::Collector{m.ws ? "b0" : "b", CollectorOp::Discard});
}

/** Marks the mma's read `readId` with its collector buffer (numbered per buffer and CTA of the
 *  pair: each CTA's tensor core holds its own) and what the operation does with it; the
 *  model (tcgen05.cat, flag collector-misuse) pairs fills and uses. */
void markCollector(Lowerer& l, int readId, const std::optional<ptx::Collector>& c, int cta) {
    if (!c) return;
    ir::Event& r = l.program().events[static_cast<std::size_t>(readId)];
    r.collector = l.symbolId("collector " + c->buffer + " cta " + std::to_string(cta));
    switch (c->op) {
    case ptx::CollectorOp::Fill:
        r.tags.insert(Tag::COLLECTOR_FILL);
        break;
    case ptx::CollectorOp::Use:
        r.tags.insert(Tag::COLLECTOR_USE);
        break;
    case ptx::CollectorOp::LastUse:
        r.tags.insert(Tag::COLLECTOR_USE);
        r.tags.insert(Tag::COLLECTOR_END);
        break;
    case ptx::CollectorOp::Discard:
        r.tags.insert(Tag::COLLECTOR_END);
        break;
    }
}

/** `.ashift` "shifts the rows of the A matrix down by one row, except for the last row in the
 *  Tensor Memory" ({Tcgen05Mma#}); every syntax line with it names [a-tmem]. */
void checkAshift(Lowerer& l, const ptx::Tcgen05Mma& m) {
    if (m.ashift && !namesTmem(l, l.operand(1)))
        l.fail(l.operand(1).loc, ".ashift takes A in tensor memory ([a-tmem])");
}

} // namespace

/**
 * tcgen05.mma and its variants: per CTA of the cta_group, reads of A, B, the further
 * tensor-memory operands and (when enabled) D, then the write of D. The further operands are
 * read as A is, in tensor memory; they do not enter D's value: a location holds one 32-bit
 * word, and which elements the metadata selects, how a scale factor scales or which table
 * entry an index picks is not expressible on one word, so D's value stays A*B(+D) and their
 * reads are for ordering (pipelining, completion, races) only.
 *
 * Collector buffers ({Tcgen05MmaOperations#}): "reuse is opportunistic in that the TensorCore
 * may reload a matrix even when it has permission to reuse that matrix. Thus, the source memory
 * of an A or B matrix must not be modified while the MMA instruction using those matrices has
 * not completed - regardless of collector qualifier permissions": every mma reads A and B from
 * memory, a ::use as well; its reads are tagged with the buffer (markCollector), and what the
 * model asks of a use is in tcgen05.cat. `.ashift` reads the same A location (the location
 * stands for the whole matrix; which row lands in which lane is not expressible on one word)
 * and writes the same D. `.ws`'s zero-column-mask-desc "specifies which columns of B matrix
 * will have zero value ... regardless of the values present in the shared memory": which
 * columns is not expressible on one word, so the mma still reads B (a sound over-approximation
 * of its reads) and D stays A*B (+D).
 */
void lowerMma(Lowerer& l, const ptx::Tcgen05Mma& m) {
    int group = m.ctaGroup;
    l.expectOperands(m.operandCount());
    checkAshift(l, m);
    std::vector<Address> ds = tmemCells(l, l.operand(0));
    std::vector<Address> as;
    if (namesTmem(l, l.operand(1))) {
        as = tmemCells(l, l.operand(1));
    } else {
        Address a = l.address(l.operand(1));
        ir::Space space = l.program().locations[static_cast<std::size_t>(a.location)].space;
        if (space == ir::Space::Global || space == ir::Space::Mbarrier)
            l.fail(l.operand(1).loc, "the A operand of tcgen05.mma is in shared or tensor memory");
        as.push_back(a);
    }
    Address b = l.address(l.operand(2), ir::Space::Shared);
    std::vector<MmaTmemOperand> extra = mmaTmemOperands(m);
    std::vector<Address> extraAt;
    for (const MmaTmemOperand& x : extra)
        extraAt.push_back(l.address(l.operand(x.index), ir::Space::Tmem));
    std::size_t idescAt = (m.sp || m.lutB) ? 4 : 3;
    const Operand& idesc = l.operand(idescAt);
    if (idesc.kind != Operand::Kind::Name)
        l.fail(idesc.loc, "IDESC must be a name standing for the instruction shape");
    ir::ValuePtr enable = l.value(l.operand(m.enableIndex()));
    bool enableKnown = enable->op == Value::Op::Const;
    bool accumulate = !enableKnown || enable->constant != 0;
    ir::Event& e = tcIssue(l, group, {Tag::TC_ASYNC, Tag::MMA});
    e.idesc = l.symbolId("idesc " + idesc.name);
    e.mmaKind = l.symbolId("kind " + m.kind);
    e.accumulator = ds.front().location;
    int id = e.id;
    for (int cta : pairCtas(l, group)) {
        std::vector<int> ra;
        for (const Address& a : as) {
            ra.push_back(readAt(l, id, inCtaOr(l, a, cta), "read A", {Tag::R, Tag::MMA_READ_A}));
            markCollector(l, ra.back(), collectorOf(m, false), cta);
        }
        int rb = readAt(l, id, inCtaOr(l, b, cta), "read B");
        markCollector(l, rb, collectorOf(m, true), cta);
        for (std::size_t i = 0; i < extra.size(); ++i)
            readAt(l, id, inCtaOr(l, extraAt[i], cta), extra[i].role, {Tag::R, extra[i].tag});
        ir::ValuePtr product =
            Value::make(Value::Op::Mul, {Value::readOf(ra.front()), Value::readOf(rb)});
        for (const Address& d : ds) {
            Address dc = tmemInCta(l, d, cta, l.operand(0));
            ir::ValuePtr result = product;
            if (accumulate) {
                int rd = readAt(l, id, dc, "read D");
                ir::ValuePtr sum = Value::make(Value::Op::Add, {product, Value::readOf(rd)});
                result = enableKnown ? sum : Value::make(Value::Op::Ite, {enable, sum, product});
            }
            writeAt(l, id, dc, "write D", result);
        }
    }
}

void lowerCp(Lowerer& l, const ptx::Tcgen05Cp& c) {
    int group = c.ctaGroup;
    l.expectOperands(2);
    std::vector<Address> ts = tmemCells(l, l.operand(0));
    Address s = l.address(l.operand(1), ir::Space::Shared);
    ir::Event& e = tcIssue(l, group, {Tag::TC_ASYNC, Tag::CP});
    if (c.shape == ptx::CpShape::Rows4Bits256) e.tags.insert(Tag::CP_4x256b);
    int id = e.id;
    int rs = readAt(l, id, s, "read " + l.operand(1).name);
    for (int cta : pairCtas(l, group))
        for (const Address& t : ts)
            writeAt(l, id, tmemInCta(l, t, cta, l.operand(0)), "write", Value::readOf(rs));
}

void lowerShift(Lowerer& l, const ptx::Tcgen05Shift& sh) {
    int group = sh.ctaGroup;
    l.expectOperands(1);
    Address t = l.address(l.operand(0), ir::Space::Tmem);
    if (t.row != 0) l.fail(l.operand(0).loc, "tcgen05.shift starts at row 0 of its location");
    ir::Event& e = tcIssue(l, group, {Tag::TC_ASYNC, Tag::SHIFT});
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

namespace {

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

void requireRegisterCount(Lowerer& l, const Operand& op, std::size_t got, std::size_t want) {
    if (got != want)
        l.fail(op.loc, "'" + l.inst().opcode + "' moves " + std::to_string(want) +
                           " register(s) per thread, the vector has " + std::to_string(got));
}

/** tcgen05.ld/st's tensor-memory operand: itself, or each slice of a list (rows from 0). */
std::vector<Operand> tmemBases(Lowerer& l, const Operand& op) {
    tmemCells(l, op); // validates every location before any row
    if (op.kind != Operand::Kind::Vector) return {op};
    return op.elements;
}

/** How many operands tcgen05.ld/st takes: `plain`, one more for .16x32bx2's immHalfSplitoff. */
std::size_t ldStOperands(const ptx::LdStFormat& f, std::size_t plain) {
    return ptx::ldStShape(f.shape).halfSplit ? plain + 1 : plain;
}

/**
 * The bases of a tcgen05.ld/st: those of `taddr`, and for .16x32bx2 each again `split` rows on
 * ("the base address of the second access is specified by taddr+immHalfSplitoff", PTX ISA
 * {Tcgen05Ld}). A row is a register's 32-bit column across the warp's lanes: lanes 0-15 take
 * the first access and 16-31 the second, and the litmus thread, lane 0, loads the first.
 */
std::vector<Operand> ldStBases(Lowerer& l, const ptx::LdStFormat& f, std::size_t taddrAt) {
    std::vector<Operand> bases = tmemBases(l, l.operand(taddrAt));
    if (!ptx::ldStShape(f.shape).halfSplit) return bases;
    const Operand* split = &l.operand(taddrAt + 1);
    if (split->kind != Operand::Kind::Integer || split->value < 0)
        l.fail(split->loc, "immHalfSplitoff is a non-negative immediate: the columns from taddr "
                           "to the second access of .16x32bx2");
    // at offset 0 the second access is the same columns in the other lanes: the same rows
    const std::size_t first = split->value == 0 ? 0 : bases.size();
    for (std::size_t k = 0; k < first; ++k) {
        bases.push_back(rowOperand(bases[k], static_cast<std::size_t>(split->value)));
        bases.back().loc = split->loc; // a second access outside the location is the offset's
    }
    return bases;
}

/** Reads `count` rows of each base; the registers take the first base's (the others' values are
 * the same fragment's in other lanes or columns, which a litmus thread does not hold). */
std::vector<ir::ValuePtr> readRows(Lowerer& l, int id, const std::vector<Operand>& bases,
                                   std::size_t count) {
    std::vector<ir::ValuePtr> first;
    for (std::size_t k = 0; k < bases.size(); ++k)
        for (std::size_t i = 0; i < count; ++i) {
            Address a = l.address(rowOperand(bases[k], i), ir::Space::Tmem);
            int r = readAt(l, id, a, "read row " + std::to_string(a.row));
            if (k == 0) first.push_back(Value::readOf(r));
        }
    return first;
}

} // namespace

static void lowerLdRed(Lowerer& l, const ptx::Tcgen05Ld& ld);
static void lowerLdSpcompress(Lowerer& l, const ptx::Tcgen05Ld& ld);

void lowerLd(Lowerer& l, const ptx::Tcgen05Ld& ld) {
    std::size_t want = ld.format.registers();
    if (ld.spcompress) {
        lowerLdSpcompress(l, ld);
        return;
    }
    if (ld.red) {
        lowerLdRed(l, ld);
        return;
    }
    l.expectOperands(ldStOperands(ld.format, 2));
    if (l.operand(1).kind == Operand::Kind::Memory && l.operand(0).kind == Operand::Kind::Memory)
        l.fail(l.operand(1).loc,
               "tcgen05.ld loads tensor memory into registers: "
               "tcgen05.ld ... {r...}, [taddr] (shared memory is not an operand)");
    std::vector<Operand> regs = registerVector(l, l.operand(0));
    requireRegisterCount(l, l.operand(0), regs.size(), want);
    std::vector<Operand> bases = ldStBases(l, ld.format, 1);
    ir::Event& e = tcIssue(l, 0, {Tag::TC_ASYNC, Tag::TLD});
    std::vector<ir::ValuePtr> loaded = readRows(l, e.id, bases, regs.size());
    for (std::size_t i = 0; i < regs.size(); ++i)
        l.define(regs[i], loaded[i]);
}

/**
 * tcgen05.ld.red {r...}, redval, [taddr]: the load, and redval := the .min/.max of the loaded
 * values ("the reduction operation specified by .redOp is performed on the data that is loaded
 * across columns in each lane", PTX ISA {Tcgen05Ld}); a litmus thread's registers are its loaded
 * values. .u32 compares unsigned, .s32 signed, and .f32 as min.f32/max.f32 do (lower/Floats.hpp:
 * a NaN gives way unless .NaN, -0.0 below +0.0), over the absolute values under .abs.
 */
static void lowerLdRed(Lowerer& l, const ptx::Tcgen05Ld& ld) {
    l.expectOperands(ldStOperands(ld.format, 3));
    std::vector<Operand> regs = registerVector(l, l.operand(0));
    requireRegisterCount(l, l.operand(0), regs.size(), ld.format.registers());
    if (l.operand(1).kind != Operand::Kind::Name)
        l.fail(l.operand(1).loc, "tcgen05.ld.red needs a register for redval");
    std::vector<Operand> bases = ldStBases(l, ld.format, 2);
    ir::Event& e = tcIssue(l, 0, {Tag::TC_ASYNC, Tag::TLD});
    std::vector<ir::ValuePtr> loaded = readRows(l, e.id, bases, regs.size());
    ir::ValuePtr acc;
    const bool max = ld.red->max;
    const bool unsignedCmp = ld.red->type == "u32";
    const bool f32 = ld.red->type == "f32";
    for (std::size_t i = 0; i < regs.size(); ++i) {
        ir::ValuePtr v = loaded[i];
        l.define(regs[i], v);
        if (f32 && ld.red->abs) v = absF32(v);
        if (!acc) {
            acc = v;
        } else if (f32) {
            acc = minMaxF32(acc, v, max, ld.red->nan);
        } else if (!unsignedCmp) {
            acc = Value::make(max ? Value::Op::Max : Value::Op::Min, {acc, v});
        } else {
            ir::ValuePtr less = Value::make(Value::Op::Ltu, {acc, v});
            acc = max ? Value::make(Value::Op::Ite, {less, v, acc})
                      : Value::make(Value::Op::Ite, {less, acc, v});
        }
    }
    l.define(l.operand(1), acc);
}

/**
 * tcgen05.ld{.red}.spcompress {mdata}, {cdata}, {redval,} [taddr] (9.4, sm_107a): the load of
 * num columns, as tcgen05.ld's, whose registers hold of each 4 values the 2 kept by .min/.max
 * (cdata) and their indices (mdata). The text gives neither the order of the kept values in
 * cdata nor the bit layout of mdata, and leaves ties "implementation-specific" (9.7.10.30); with
 * .red, whether redval reduces the loaded values or the kept ones it does not say. Every
 * register is an unknown value (Lowerer::unknownValue): the load's ordering is checked, and a
 * use of a register is an input error.
 */
static void lowerLdSpcompress(Lowerer& l, const ptx::Tcgen05Ld& ld) {
    const bool red = ld.red.has_value();
    const std::size_t taddrAt = red ? 3 : 2;
    l.expectOperands(taddrAt + 1);
    const std::vector<Operand> mdata = registerVector(l, l.operand(0));
    requireRegisterCount(l, l.operand(0), mdata.size(),
                         ptx::LdSpcompress::indexRegisters(ld.format.repeat));
    const std::vector<Operand> cdata = registerVector(l, l.operand(1));
    requireRegisterCount(l, l.operand(1), cdata.size(),
                         ptx::LdSpcompress::valueRegisters(ld.format.repeat));
    if (red && l.operand(2).kind != Operand::Kind::Name)
        l.fail(l.operand(2).loc, "tcgen05.ld.red.spcompress needs a register for redval");
    std::vector<Operand> bases = ldStBases(l, ld.format, taddrAt);
    ir::Event& e = tcIssue(l, 0, {Tag::TC_ASYNC, Tag::TLD});
    readRows(l, e.id, bases, static_cast<std::size_t>(ld.format.repeat));
    const std::string cite = ptx::cite(ptx::Sec::Tcgen05Ld);
    for (const Operand& r : mdata)
        l.define(r, l.unknownValue(r.loc, "'" + r.name +
                                              "' holds tcgen05.ld.spcompress's indices, whose bit "
                                              "layout the text does not give (" +
                                              cite + ")"));
    for (const Operand& r : cdata)
        l.define(r, l.unknownValue(r.loc, "'" + r.name +
                                              "' holds a value tcgen05.ld.spcompress keeps, in an "
                                              "order the text does not give, its ties "
                                              "\"implementation-specific\" (" +
                                              cite + ")"));
    if (red)
        l.define(l.operand(2),
                 l.unknownValue(l.operand(2).loc,
                                "'" + l.operand(2).name +
                                    "' holds tcgen05.ld.red.spcompress's redval, which the text "
                                    "does not say reduces the loaded values or the kept ones (" +
                                    cite + ")"));
}

void lowerSt(Lowerer& l, const ptx::Tcgen05St& st) {
    std::size_t want = st.format.registers();
    const bool split = ptx::ldStShape(st.format.shape).halfSplit;
    l.expectOperands(ldStOperands(st.format, 2));
    const Operand& from = l.operand(split ? 2 : 1); // [taddr], immHalfSplitoff, r (9.7.18.8.4)
    if (from.kind == Operand::Kind::Memory)
        l.fail(from.loc, "tcgen05.st stores registers into tensor memory: "
                         "tcgen05.st ... [taddr], {r...} (shared memory is not an operand)");
    std::vector<Operand> bases = ldStBases(l, st.format, 0);
    std::vector<Operand> regs = registerVector(l, from);
    requireRegisterCount(l, from, regs.size(), want);
    std::vector<ir::ValuePtr> values;
    for (const auto& r : regs)
        values.push_back(l.value(r));
    ir::Event& e = tcIssue(l, 0, {Tag::TC_ASYNC, Tag::TST});
    int id = e.id;
    for (const Operand& base : bases)
        for (std::size_t i = 0; i < regs.size(); ++i) {
            Address a = l.address(rowOperand(base, i), ir::Space::Tmem);
            writeAt(l, id, a, "write row " + std::to_string(a.row), values[i]);
        }
}

void lowerWait(Lowerer& l, const ptx::Tcgen05Wait& w) {
    const bool ld = w.ld;
    if (!l.inst().operands.empty())
        l.fail(l.inst().operands[0].loc, "tcgen05.wait::" + std::string(ld ? "ld" : "st") +
                                             " takes no operands: it waits for all prior tcgen05." +
                                             (ld ? "ld" : "st") + " of the thread (" +
                                             ptx::cite(ptx::Sec::Tcgen05Wait) + ")");
    tcIssue(l, 0, {ld ? Tag::WAIT_LD : Tag::WAIT_ST, Tag::BLOCKING});
}

void lowerCommit(Lowerer& l, const ptx::Tcgen05Commit& c) {
    int group = c.ctaGroup;
    bool multicast = c.multicast;
    l.expectOperands(multicast ? 2 : 1);
    Address mb = l.address(l.operand(0), ir::Space::Mbarrier);
    std::vector<Address> targets;
    if (multicast) {
        // 16 bits, or 32 with .multicast::cluster::32b (PTX ISA 9.4 {Tcgen05Commit})
        for (const auto& t : l.multicastTargets(l.operand(1), c.multicastBits == 32 ? 32 : 16,
                                                {{mb, &l.operand(0)}}))
            targets.push_back(t[0]);
    } else {
        targets.push_back(mb);
    }
    ir::Event& e = tcIssue(l, group, {Tag::COMMIT});
    // .sync_restrict::shared::read::mma::a: the arrive follows the prior mma's reads of A from
    // shared memory only ("This does not signal the overall completion of any prior tcgen05.mma
    // operations", PTX ISA 9.4 {Tcgen05Commit}); the model's tc-completion says which accesses.
    if (c.readMmaA) e.tags.insert(Tag::COMMIT_READ_A);
    int id = e.id;
    for (const Address& m : targets) {
        // The arrive-on happens when the tracked operations complete: count 1, cluster scope
        // (PTX ISA #tcgen-async-sync-operations-commit). The text states no memory semantics for
        // it; whether it releases is decision Q6 (ARRIVE-RELEASE) in model/decisions.cat, so it
        // carries none.
        ir::Event& a =
            l.exec(id, "arrive " + l.program().locations[static_cast<std::size_t>(m.location)].name,
                   {Tag::MB, Tag::MB_ARRIVE, Tag::CLUSTER, Tag::GEN});
        a.mbOp = ir::MbOp::Arrive;
        a.location = m.location;
        a.vaddr = m.vaddr;
        a.space = ir::Space::Mbarrier;
        a.proxy = ir::Proxy::Generic;
        a.scope = ir::Scope::Cluster;
    }
}

namespace {

/** nCols of alloc/dealloc: a power of 2 in [32, 512], or with `.exclusive` a multiple of 32 in
 * [32, 512] (PTX ISA 9.4 #tcgen05-instructions-tcgen05-alloc-dealloc-relinquish-alloc-permit,
 * Table 58; sm_107f's 576 is beyond the 512 columns ptxmc gives a CTA). */
int columnCount(Lowerer& l, bool exclusive) {
    const Operand& cols = l.operand(1);
    bool inRange = cols.kind == Operand::Kind::Integer && cols.value >= 32 && cols.value <= 512;
    if (exclusive) {
        if (!inRange || cols.value % 32 != 0)
            l.fail(cols.loc, "number of columns of an exclusive allocation must be a multiple of "
                             "32 in [32, 512]");
    } else if (!inRange || (cols.value & (cols.value - 1)) != 0) {
        l.fail(cols.loc, "number of columns must be a power of 2 in [32, 512]");
    }
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
                                     "freed ones (" +
                                     ptx::cite(ptx::Sec::TensorMemory) + ")");
    int column = next;
    next += cols;
    return column;
}

} // namespace

void lowerRelinquish(Lowerer& l, const ptx::Tcgen05Relinquish& r) {
    l.expectOperands(0);
    tcIssue(l, r.ctaGroup, {Tag::RELINQUISH});
}

void lowerFence(Lowerer& l, const ptx::Tcgen05Fence& f) {
    l.expectOperands(0);
    tcIssue(l, 0, {f.before ? Tag::FB : Tag::FA});
}

namespace {

/** dealloc frees the block whose address taddr holds; resolveAllocations finds which. */
void lowerDealloc(Lowerer& l, int group, bool exclusive) {
    int cols = columnCount(l, exclusive);
    ir::ValuePtr taddr = l.value(l.operand(0));
    ir::Event& e = tcIssue(l, group, {Tag::DEALLOC});
    if (exclusive) e.tags.insert(Tag::TMEM_EXCLUSIVE);
    e.tmemColumns = cols;
    l.deallocs.push_back({e.id, taddr, l.operand(0).loc});
}

void lowerAllocOp(Lowerer& l, int group, bool exclusive) {
    int cols = columnCount(l, exclusive);
    // Relinquish by another thread of the CTA is the model's tcgen05-alloc-misuse flag.
    for (int ev : l.threadInfo().events)
        if (l.program().events[static_cast<std::size_t>(ev)].has(Tag::RELINQUISH))
            l.fail(l.inst().loc,
                   "tcgen05.alloc after tcgen05.relinquish_alloc_permit is illegal (" +
                       ptx::cite(ptx::Sec::Tcgen05Alloc) + ")");
    Address dst = l.address(l.operand(0), ir::Space::Shared);
    ir::Event& e = tcIssue(l, group, {Tag::ALLOC});
    if (exclusive) e.tags.insert(Tag::TMEM_EXCLUSIVE);
    // Tensor-memory address: lane[31:16] | column[15:0] (PTX ISA #tensor-memory); blocks start at
    // lane 0.
    e.tmemAddress = takeColumns(l, cols);
    e.tmemColumns = cols;
    ir::ValuePtr address = Value::makeConst(e.tmemAddress);
    int alloc = e.id;
    // The address store is a weak generic write (PTX ISA
    // #tcgen05-instructions-tcgen05-alloc-dealloc-relinquish-alloc-permit).
    ir::Event& w = l.issue({Tag::W, Tag::Weak});
    l.access(w, dst, ir::Proxy::Generic);
    w.sem = ir::Sem::Weak;
    w.text = l.inst().opcode + " (address store)";
    w.written = address;
    l.allocs.push_back({alloc, dst.location});
}

} // namespace

void lowerAlloc(Lowerer& l, const ptx::Tcgen05Alloc& a) {
    int group = a.ctaGroup;
    l.expectOperands(2);
    if (a.dealloc)
        lowerDealloc(l, group, a.exclusive);
    else
        lowerAllocOp(l, group, a.exclusive);
}

} // namespace ptxmc::lower
