// tcgen05 instructions: mma, cp, shift, ld/st (+waits), commit, fences, alloc/dealloc/relinquish.
#include "gen/Families.hpp"
#include "ptx/Print.hpp"
#include "ptx/Tables.hpp"

#include <algorithm>

namespace ptxmc::gen {

namespace {

/** The CTAs a cta_group::2 operation writes: the issuer's and its peer's (PTX ISA
 * #tcgen05-issue-granularity). */
std::vector<int> pairOf(Draft& d, int t) {
    std::vector<int> ctas{d.ctaOf(t)};
    if (d.ctaGroup() == 2) ctas.push_back(d.peer(d.ctaOf(t)));
    return ctas;
}

int rowOf(Draft& d, int l, int width) {
    return static_cast<int>(d.rng().below(static_cast<std::uint64_t>(d.loc(l).rows - width + 1)));
}

/** The .xN vector width: 2 when at least two rows remain. */
int widthOf(Draft& d, int l) {
    return d.loc(l).rows >= 2 && d.rng().chance(45) ? 2 : 1;
}

/**
 * Shape, repeat count and packing for n registers per thread, from the registers per repeat
 * of ptx::kLdStShapes; packing halves the count (PTX ISA #tcgen05-instructions-tcgen05-ld). One
 * 32-bit row per lane comes first, twice (the common shape), then the table's other shapes that
 * divide the count.
 */
ptx::LdStFormat ldStFormat(Rng& r, int n, ptx::Pack packing) {
    const bool packed = r.chance(15);
    const int regs = packed ? 2 * n : n; // registers before packing
    const ptx::Pack pack = packed ? packing : ptx::Pack::None;
    const ptx::LdStFormat common{ptx::LdStShape::Lanes32Bits32, regs, pack};
    std::vector<ptx::LdStFormat> options = {common, common};
    for (const ptx::LdStShapeRow& row : ptx::kLdStShapes)
        // (a draft's tensor-memory operand has no immHalfSplitoff: .16x32bx2 is not drawn)
        if (row.shape != common.shape && !row.halfSplit && regs % row.registersPerRepeat == 0)
            options.push_back({row.shape, regs / row.registersPerRepeat, pack});
    return options[static_cast<std::size_t>(r.below(options.size()))];
}

/** The tcgen05.cp shapes drawn, each with the warp multicast it needs (weights repeat). */
std::vector<ptx::Tcgen05Cp> cpChoices(int group) {
    using ptx::CpShape, ptx::CpWarps;
    auto cp = [&](CpShape s, CpWarps w) { return ptx::Tcgen05Cp{group, s, w, {}}; };
    return {cp(CpShape::Rows128Bits256, CpWarps::None),
            cp(CpShape::Rows128Bits256, CpWarps::None),
            cp(CpShape::Rows4Bits256, CpWarps::None),
            cp(CpShape::Rows4Bits256, CpWarps::None),
            cp(CpShape::Rows128Bits128, CpWarps::None),
            cp(CpShape::Rows64Bits128, CpWarps::X2_02_13),
            cp(CpShape::Rows64Bits128, CpWarps::X2_01_23),
            cp(CpShape::Rows32Bits128, CpWarps::X4)};
}

} // namespace

int pickTmem(Draft& d, int t, bool forWrite, int minRows) {
    const int c = d.ctaOf(t);
    const int l = d.pickLoc(Space::Tmem, c, forWrite, minRows);
    if (l >= 0 && d.ctaGroup() == 2) d.ensure(l, d.peer(c));
    return l;
}

bool mma(Draft& d, int t, int dst, int a, Written* out) {
    Rng& r = d.rng();
    const int c = d.ctaOf(t);
    if (a < 0 && r.chance(30)) {
        a = d.pickLoc(Space::Tmem, c, false, 1, false); // A from tmem, never the accumulator
        if (a == dst) a = -1;
    }
    if (a < 0) a = d.pickLoc(Space::Shared, c, false);
    const int b = d.pickLoc(Space::Shared, c, false);
    if (a < 0 || b < 0) return false;
    const std::vector<int> ctas = pairOf(d, t);
    for (int cta : ctas)
        for (int l : {a, b, dst})
            d.ensure(l, cta);
    std::string en;
    std::vector<std::int64_t> enable;
    const int roll = static_cast<int>(r.below(100));
    std::vector<std::string> results; // wait results hold 0/1: a natural enable register
    for (const auto& [reg, v] : d.th(t).regs)
        if (reg[0] == 'p') results.push_back(reg);
    if (roll < 40) {
        en = "0", enable = {0};
    } else if (roll < 75) {
        en = "1", enable = {1};
    } else if (!results.empty() && r.chance(50)) {
        en = r.pick(results), enable = {1, 0};
    } else {
        const std::int64_t v = r.chance(50) ? 1 : 0;
        en = d.initReg(t, v, "en"), enable = {v};
    }
    const int row = rowOf(d, dst, 1);
    for (int cta : ctas) {
        const CellKey dk = d.key(dst, cta, row);
        const auto av = d.read(d.key(a, cta));
        const auto bv = d.read(d.key(b, cta));
        const bool accumulates = enable.size() > 1 || enable[0] != 0; // reads d only then
        const auto dv = accumulates ? d.read(dk) : d.cell(dk).values;
        std::vector<std::int64_t> values; // d := a*b, plus d when enabled
        for (std::int64_t x : av)
            for (std::int64_t y : bv)
                for (std::int64_t e : enable) {
                    if (e == 0) addValues(values, {x * y});
                    for (std::int64_t z : dv)
                        if (e != 0) addValues(values, {x * y + z});
                }
        if (out && cta == c) *out = Written{dk, values.empty() ? 0 : values[0]};
        d.write(dk, values);
    }
    // One random choice per statement: the order C++ evaluates operands of + is unspecified.
    const std::string kind = r.pick({"f16", "f16", "tf32"});
    const std::string idesc = r.pick({"I0", "I0", "I1"}); // same name = same shape
    ptx::Tcgen05Mma mma;
    mma.ctaGroup = d.ctaGroup();
    mma.kind = kind;
    d.emit(t, text(mma, d.addr(dst, c, c, row) + ", " + d.addr(a, c, c) + ", " + d.addr(b, c, c) +
                            ", " + idesc + ", " + en));
    return true;
}

bool tcCopy(Draft& d, int t, int dst, int src, Written* out) {
    Rng& r = d.rng();
    const int c = d.ctaOf(t);
    if (src < 0) src = d.pickLoc(Space::Shared, c, false);
    if (src < 0) return false;
    const int row = rowOf(d, dst, 1);
    const auto values = d.read(d.key(src, c)); // the issuer's shared memory, for every CTA
    for (int cta : pairOf(d, t)) {
        d.ensure(dst, cta);
        if (out && cta == c) *out = Written{d.key(dst, cta, row), values[0]};
        d.write(d.key(dst, cta, row), values);
    }
    const ptx::Tcgen05Cp cp = r.pick(cpChoices(d.ctaGroup()));
    d.emit(t, text(cp, d.addr(dst, c, c, row) + ", " + d.addr(src, c, c)));
    return true;
}

bool tcShift(Draft& d, int t, int dst) {
    const int rows = d.loc(dst).rows;
    if (rows < 2) return false;
    for (int cta : pairOf(d, t)) {
        d.ensure(dst, cta);
        std::vector<std::vector<std::int64_t>> before;
        for (int row = 0; row + 1 < rows; ++row)
            before.push_back(d.read(d.key(dst, cta, row)));
        for (int row = 1; row < rows; ++row) // row r moves to row r+1
            d.write(d.key(dst, cta, row), before[static_cast<std::size_t>(row - 1)]);
    }
    const int c = d.ctaOf(t);
    d.emit(t, text(ptx::Tcgen05Shift{d.ctaGroup()}, d.addr(dst, c, c)));
    return true;
}

bool tcStore(Draft& d, int t, int dst) {
    Rng& r = d.rng();
    const int c = d.ctaOf(t);
    const int n = widthOf(d, dst);
    const int row = rowOf(d, dst, n);
    std::string regs;
    for (int i = 0; i < n; ++i) {
        std::vector<std::int64_t> values;
        std::string reg = d.valueOperand(t, values, false);
        if (regs.find(reg) != std::string::npos) { // one register per row
            values = {d.freshConst()};
            reg = d.initReg(t, values[0]);
        }
        regs += (i ? ", " : "") + reg;
        d.write(d.key(dst, c, row + i), values);
    }
    const ptx::LdStFormat format = ldStFormat(r, n, ptx::Pack::Unpack16b);
    d.emit(t, text(ptx::Tcgen05St{format}, d.addr(dst, c, c, row) + ", {" + regs + "}"));
    if (r.chance(70)) d.emit(t, text(ptx::Tcgen05Wait{false}));
    return true;
}

std::string tcLoad(Draft& d, int t, int src, bool wait) {
    Rng& r = d.rng();
    const int c = d.ctaOf(t);
    d.ensure(src, c);
    const int n = widthOf(d, src);
    const int row = rowOf(d, src, n);
    std::vector<std::string> regs;
    std::string list;
    for (int i = 0; i < n; ++i) {
        regs.push_back(d.freshReg("r"));
        list += (i ? ", " : "") + regs.back();
    }
    ptx::Tcgen05Ld op{ldStFormat(r, n, ptx::Pack::Pack16b), std::nullopt};
    std::string red;
    // tcgen05.ld.red (.32x32b, at least .x2): also the .min/.max of the loaded values, into a
    // register nothing reads (PTX ISA {Tcgen05Ld}).
    if ((n == 2 || n == 4) && r.chance(15)) {
        op.format = ptx::LdStFormat{ptx::LdStShape::Lanes32Bits32, n, ptx::Pack::None};
        op.red = ptx::LdRed{r.chance(50), r.pick({std::string("u32"), std::string("s32")})};
        red = d.freshReg("rv") + ", ";
    }
    d.emit(t, text(op, "{" + list + "}, " + red + d.addr(src, c, c, row)));
    for (int i = 0; i < n; ++i) {
        const CellKey k = d.key(src, c, row + i);
        d.define(t, regs[static_cast<std::size_t>(i)], d.read(k));
        d.observe(t, regs[static_cast<std::size_t>(i)], k);
    }
    if (wait) d.emit(t, text(ptx::Tcgen05Wait{true}));
    return regs[0];
}

bool commit(Draft& d, int t, int mb, int inst) {
    Rng& r = d.rng();
    const int c = d.ctaOf(t);
    const int g = d.ctaGroup();
    const bool multicast =
        d.peer(c) >= 0 && inst == c && !d.loc(mb).programInit && r.chance(g == 2 ? 50 : 20);
    std::vector<int> targets{inst};
    std::string mask;
    if (multicast) {
        const int bits = r.pick({3, 3, 1, 2});
        mask = bits == 3 ? "0b11" : bits == 1 ? "0b01" : "0b10";
        targets.clear();
        d.ensure(mb, c);
        for (int cta = 0; cta < 2; ++cta)
            if (bits >> cta & 1) {
                targets.push_back(cta);
                d.ensure(mb, cta);
            }
    }
    const ptx::StateSpace space =
        multicast || inst != c ? ptx::StateSpace::SharedCluster
                               : r.pick({ptx::StateSpace::SharedCluster, ptx::StateSpace::None});
    // PTX ISA 9.4: the mask width spelled (::16b, ::32b), and the commit that arrives once the
    // prior mma read A from shared memory (.sync_restrict::shared::read::mma::a).
    ptx::Tcgen05Commit op{g, space, multicast};
    if (multicast) op.multicastBits = r.pick({0, 0, 16, 32});
    op.readMmaA = r.chance(10);
    d.emit(t, text(op, d.addr(mb, c, inst) + (multicast ? ", " + mask : "")));
    for (int cta : targets)
        d.mbArrive(d.key(mb, cta));
    return true;
}

void tcFence(Draft& d, int t, bool before) {
    d.emit(t, text(ptx::Tcgen05Fence{before}));
}

namespace {

bool fragMma(Draft& d) {
    const int t = d.pickThread();
    const int dst = pickTmem(d, t, true);
    return dst >= 0 && mma(d, t, dst);
}

bool fragCopy(Draft& d) {
    const int t = d.pickThread();
    const int dst = pickTmem(d, t, true);
    return dst >= 0 && tcCopy(d, t, dst);
}

bool fragShift(Draft& d) {
    const int t = d.pickThread();
    const int dst = pickTmem(d, t, true, 2);
    return dst >= 0 && tcShift(d, t, dst);
}

bool fragTmemStore(Draft& d) {
    const int t = d.pickThread();
    const int dst = pickTmem(d, t, true);
    return dst >= 0 && tcStore(d, t, dst);
}

bool fragTmemLoad(Draft& d) {
    const int t = d.pickThread();
    const int src = pickTmem(d, t, false);
    return src >= 0 && !tcLoad(d, t, src, d.rng().chance(75)).empty();
}

bool fragCommit(Draft& d) {
    const int t = d.pickThread();
    const int c = d.ctaOf(t);
    const int inst = d.peer(c) >= 0 && d.rng().chance(20) ? d.peer(c) : c;
    const int mb = d.pickMbarrier(t, inst);
    return mb >= 0 && d.opt().mbarrier && commit(d, t, mb, inst);
}

bool fragTcFence(Draft& d) {
    const int t = d.pickThread(); // one draw per statement: argument order is unspecified
    tcFence(d, t, d.rng().chance(50));
    return true;
}

bool fragTcgen05Wait(Draft& d) {
    const int t = d.pickThread();
    d.emit(t, text(ptx::Tcgen05Wait{d.rng().chance(50)}));
    return true;
}

/**
 * alloc writes the address of its block to shared memory; a load of it, or the constant
 * address, may feed dealloc. One alloc per CTA (its address is 0), and none with cta_group::2,
 * which needs the peer CTA's warp as well (PTX ISA #tcgen05-issue-granularity).
 */
bool fragAlloc(Draft& d) {
    Rng& r = d.rng();
    const int t = d.pickThread();
    if (d.th(t).relinquished) return false; // alloc after relinquish is illegal
    const int c = d.ctaOf(t);
    if (d.ctaGroup() == 2 || d.allocCtas.count(c)) return false;
    const int sp = d.allocSlot(c);
    std::string cols = std::to_string(r.pick({32, 32, 64, 128, 256, 512}));
    // .exclusive (PTX ISA 9.4): any multiple of 32 columns, freed by dealloc.exclusive.
    const bool exclusive = r.chance(20);
    if (exclusive) cols = std::to_string(r.pick({32, 96, 160, 512}));
    d.emit(t, text(ptx::Tcgen05Alloc{false, d.ctaGroup(), true, exclusive},
                   d.addr(sp, c, c) + ", " + cols));
    d.write(d.key(sp, c), {});
    d.allocCtas.insert(c);
    std::string addr;
    if (d.opt().generic && r.chance(65))
        addr = load(d, t, sp, c);
    else if (r.chance(30))
        addr = d.initReg(t, 0, "ta");
    if (!addr.empty() && r.chance(75))
        d.emit(t,
               text(ptx::Tcgen05Alloc{true, d.ctaGroup(), false, exclusive}, addr + ", " + cols));
    return true;
}

bool fragRelinquish(Draft& d) {
    const int t = d.pickThread();
    d.emit(t, text(ptx::Tcgen05Relinquish{d.ctaGroup()}));
    d.th(t).relinquished = true;
    return true;
}

/**
 * One thread: async op, commit to its mbarrier, wait, after_thread_sync, ld (the canonical
 * same-thread pattern, PTX ISA
 * #tcgen05-memory-consistency-model-canonical-sync-patterns-non-pipelined-same-thread), with random
 * parts left out.
 */
bool fragPipeline(Draft& d) {
    Rng& r = d.rng();
    const int t = d.pickThread();
    const int c = d.ctaOf(t);
    const int dst = pickTmem(d, t, true);
    if (dst < 0 || !d.opt().mbarrier) return false;
    const int op = r.weighted({5, 3, d.loc(dst).rows > 1 ? 2 : 0});
    if (!(op == 0 ? mma(d, t, dst) : op == 1 ? tcCopy(d, t, dst) : tcShift(d, t, dst)))
        return false;
    const int mb = d.pickMbarrier(t, c);
    if (mb < 0) return false;
    commit(d, t, mb, c);
    mbWait(d, t, mb, r.chance(80));
    if (r.chance(75)) tcFence(d, t, false);
    tcLoad(d, t, dst, r.chance(85));
    return true;
}

} // namespace

std::vector<std::pair<Fragment, int>> tcgen05Fragments() {
    return {{fragMma, 5},      {fragCopy, 3},       {fragShift, 2},   {fragTmemStore, 3},
            {fragTmemLoad, 4}, {fragCommit, 3},     {fragTcFence, 2}, {fragTcgen05Wait, 1},
            {fragAlloc, 2},    {fragRelinquish, 1}, {fragPipeline, 3}};
}

} // namespace ptxmc::gen
