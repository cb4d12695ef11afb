// Emits tcgen05 instructions (sm_100a): one instance per team, the litmus thread is a whole warp.
#include "hw/Emit.hpp"

namespace ptxmc::validate {

using litmus::Operand;
using Space = ir::Space;

namespace {

/**
 * Instruction descriptor: D format (bits 4-5: 1 f32, 2 s32), A/B formats (bits 7-9, 10-12:
 * f16 0, tf32 2; i8 1 = signed), K-major A and B, N >> 3 at bit 17, M >> 4 at bit 24.
 */
std::uint32_t instrDescriptor(const std::string& kind, unsigned m, unsigned n) {
    std::uint32_t c = kind == "i8" ? 2u : 1u;
    std::uint32_t ab = kind == "tf32" ? 2u : kind == "i8" ? 1u : 0u;
    return (c << 4) | (ab << 7) | (ab << 10) | ((n >> 3) << 17) | ((m >> 4) << 24);
}

} // namespace

std::string ThreadEmitter::tmemAddr(const Target& t) {
    if (t.array) return indexed(t, &ThreadEmitter::tmemAddr); // chosen at use
    if (t.remote) refuse("tensor memory of another CTA is not addressable");
    if (t.loc->space != Space::Tmem) refuse("'" + t.loc->name + "' is not tensor memory");
    unsigned col = t.loc->column;
    // cta_group::2: B's N columns are split between the pair, so the odd CTA's product a*b
    // lands in column N/2 of its D.
    if (cta_.rank & 1) col += t.loc->oddShift;
    return hoist("tm_" + ident(t.loc->name) + "_" + std::to_string(t.row), "unsigned",
                 "tbase + (" + std::to_string(t.row) + "u << 16) + " + std::to_string(col) + "u");
}

std::string ThreadEmitter::descriptor(const Target& t) {
    if (t.array) return indexed(t, &ThreadEmitter::descriptor); // chosen at use
    if (t.loc->space != Space::Shared || !t.loc->tile) refuse("not a matrix tile");
    if (t.remote) refuse("matrix operands come from the issuing CTA's shared memory");
    return hoist("d_" + ident(t.loc->name), "unsigned long long",
                 "litmus::smemDescriptor(" + sharedAddr(t) + ", " + std::to_string(kTileLbo) +
                     "u, " + std::to_string(kTileSbo) + "u)");
}

void ThreadEmitter::tcShift(const Insn& in) {
    Target t = target(in.operand(0));
    std::string a = tmemAddr(t);
    perThread();
    asmStmt(opcode(ptx::Tcgen05Shift{plan_.ctaGroup}) + " [%0];", {}, {"\"r\"(" + a + ")"});
}

void ThreadEmitter::tcWait(const ptx::Tcgen05Wait& wait) {
    collective();
    asmStmt(opcode(wait) + ";", {}, {});
    if (wait.ld) resolvePending();
}

void ThreadEmitter::tcFence(const ptx::Tcgen05Fence& fence) {
    allLanes(); // every lane of the warp fences
    asmStmt(opcode(fence) + ";", {}, {});
}

void ThreadEmitter::tcMma(const Insn& in) {
    Target d = target(in.operand(0)), a = target(in.operand(1)), b = target(in.operand(2));
    if (d.row != 0 || d.loc->rows != 1)
        unfaithful("mma writes all 128 lanes of D's columns: only single-row accumulators map");
    if (plan_.ctaGroup == 2) {
        for (const Target* t : {&a, &b})
            if (t->loc->ctas.size() < 2)
                unfaithful("cta_group::2 reads '" + t->loc->name +
                           "' in both CTAs of the pair: declare it in both");
    }
    unsigned n = plan_.idescN.at(in.operand(3).name);
    unsigned m = plan_.ctaGroup == 2 ? 256 : 128;
    std::string dAddr = tmemAddr(d);
    std::string aIn;
    std::string aText;
    if (a.loc->space == Space::Tmem) {
        if (a.row != 0 || a.loc->rows != 1)
            unfaithful("an A operand in tensor memory reads 128 lanes: only single-row locations "
                       "map");
        aIn = "\"r\"(" + tmemAddr(a) + ")";
        aText = "[%1]";
    } else {
        aIn = "\"l\"(" + descriptor(a) + ")";
        aText = "%1";
    }
    std::string bIn = "\"l\"(" + descriptor(b) + ")";
    const Operand& en = in.operand(4);
    std::string enable = en.kind == Operand::Kind::Integer ? hex(en.value ? 1u : 0u) : intValue(en);
    perThread();
    std::string kind = in.as<ptx::Tcgen05Mma>()->kind;
    ptx::Tcgen05Mma plain; // the plain form of the kind: Plan.cpp refuses the others
    plain.ctaGroup = plan_.ctaGroup;
    plain.kind = kind;
    asmStmt("{ .reg .pred P; " + opcode(ptx::Setp{ptx::CmpOp::Ne, ptx::Type{'b', 32}}) +
                " P, %4, 0; " + opcode(plain) + " [%0], " + aText + ", %2, %3, P; }",
            {},
            {"\"r\"(" + dAddr + ")", aIn, bIn, "\"r\"(" + hex(instrDescriptor(kind, m, n)) + ")",
             "\"r\"(" + enable + ")"});
}

void ThreadEmitter::tcCp(const Insn& in) {
    Target t = target(in.operand(0)), s = target(in.operand(1));
    const ptx::Tcgen05Cp& cp = *in.as<ptx::Tcgen05Cp>();
    std::string shape(ptx::cpShape(cp.shape).name);
    if (!cp.decompress.empty()) refuse("decompressing tcgen05.cp changes the copied values");
    // 4x256b writes lanes k, k+32, k+64, k+96: only row k of a <=32-row location. The other
    // shapes write 32..128 consecutive lanes from the origin, i.e. every row of the location.
    if (cp.shape != ptx::CpShape::Rows4Bits256 && (t.row != 0 || t.loc->rows != 1))
        unfaithful("tcgen05.cp." + shape +
                   " writes consecutive TMEM lanes: it would overwrite the location's other rows");
    if (plan_.ctaGroup == 2) {
        // Each CTA of the pair copies its own s; the model copies the issuer's into both.
        if (s.loc->ctas.size() < 2 || s.loc->init.front() != s.loc->init.back())
            unfaithful("cta_group::2 tcgen05.cp: both CTAs copy their own '" + s.loc->name +
                       "'; declare it in both with the same value");
        for (const auto& th : test_.threads)
            for (const auto& i : th.code) {
                if (i.isLabel()) continue;
                const Insn& w = i.insn();
                auto* at = w.as<ptx::Atom>();
                bool atom = at && at->name == ptx::AtomName::Atom;
                bool writer = (w.is<ptx::St>() && w.as<ptx::St>()->name == ptx::StName::St) ||
                              atom || (at && at->name == ptx::AtomName::Red) ||
                              w.is<ptx::BulkCopy>();
                bool writes =
                    writer && !w.operands.empty() && w.operand(atom ? 1 : 0).name == s.loc->name;
                if (writes)
                    unfaithful("cta_group::2 tcgen05.cp reads each CTA's own '" + s.loc->name +
                               "', which the test writes: the two copies could differ");
            }
    }
    std::string ptx = opcode(ptx::Tcgen05Cp{plan_.ctaGroup, cp.shape, cp.warps, {}});
    std::string ta = tmemAddr(t), desc = descriptor(s);
    perThread();
    asmStmt(ptx + " [%0], %1;", {}, {"\"r\"(" + ta + ")", "\"l\"(" + desc + ")"});
}

void ThreadEmitter::refuseHalfSplit(const ptx::LdStFormat& f) {
    if (ptx::ldStShape(f.shape).halfSplit)
        refuse(".16x32bx2: the harness lays a location's rows on the TMEM lanes of one column, "
               "and the second access (taddr+immHalfSplitoff) is other columns of lanes 16-31");
}

void ThreadEmitter::tcLd(const Insn& in) {
    if (inLoop())
        refuse("tcgen05.ld inside a loop: the wait that completes it is matched in the text's "
               "order only");
    if (in.as<ptx::Tcgen05Ld>()->red)
        refuse("tcgen05.ld.red needs sm_103f or sm_110f; the harness targets sm_100a");
    refuseHalfSplit(in.as<ptx::Tcgen05Ld>()->format);
    Target t = target(in.operand(1));
    std::vector<Operand> regs = in.operand(0).kind == Operand::Kind::Vector
                                    ? in.operand(0).elements
                                    : std::vector<Operand>{in.operand(0)};
    std::string base = tmemAddr(rowZero(t));
    // Rows are TMEM lanes: one laneColumn() load gives lane i its row; the litmus thread (lane 0)
    // gathers the rows it asked for by shuffles once tcgen05.wait::ld made them valid.
    PendingLoad pl;
    pl.var = "v" + std::to_string(tmp_++);
    pl.loc = t.loc;
    for (std::size_t i = 0; i < regs.size(); ++i) {
        int row = t.row + static_cast<int>(i);
        if (row >= 32) refuse("row " + std::to_string(row) + " is beyond TMEM lane 31");
        pl.regs.emplace_back(regs[i].name, row);
        kinds_[regs[i].name] = RegKind::Pending;
    }
    decls_.push_back("unsigned " + pl.var + " = 0;");
    collective();
    asmStmt(opcode(ptx::Tcgen05Ld{laneColumn()}) + " {%0}, [%1];", {"\"=r\"(" + pl.var + ")"},
            {"\"r\"(" + base + ")"});
    usedTmemLd_ = true;
    pending_.push_back(pl);
}

void ThreadEmitter::resolvePending() {
    for (const PendingLoad& pl : pending_)
        for (const auto& [reg, row] : pl.regs) {
            kinds_[reg] = RegKind::Int;
            std::string v = "__shfl_sync(0xffffffffu, " + pl.var + ", " + std::to_string(row) + ")";
            line(regVar(reg, RegKind::Int) + " = " + decodeExpr(v, *pl.loc) + ";");
        }
    pending_.clear();
}

void ThreadEmitter::tcSt(const Insn& in) {
    if (inLoop())
        refuse("tcgen05.st inside a loop: the wait that completes it is matched in the text's "
               "order only");
    refuseHalfSplit(in.as<ptx::Tcgen05St>()->format);
    Target t = target(in.operand(0));
    const Operand& vec = in.operand(1);
    std::vector<Operand> regs =
        vec.kind == Operand::Kind::Vector ? vec.elements : std::vector<Operand>{vec};
    if (t.row != 0 || static_cast<int>(regs.size()) != t.loc->rows)
        unfaithful("tcgen05.st writes all 32 lanes of a column: it must store every row of '" +
                   t.loc->name + "' (rows are TMEM lanes)");
    std::vector<std::string> values;
    for (const Operand& r : regs)
        values.push_back(encodedValue(r, *t.loc));
    std::string v = "v" + std::to_string(tmp_++);
    collective();
    line("unsigned " + v + ";"); // then set: a goto may not skip an initialisation
    line(v + " = 0;");
    for (std::size_t i = 0; i < values.size(); ++i) {
        line("{ const unsigned x = __shfl_sync(0xffffffffu, " + values[i] + ", 0); if (lane == " +
             std::to_string(t.row + static_cast<int>(i)) + "u) " + v + " = x; }");
    }
    asmStmt(opcode(ptx::Tcgen05St{laneColumn()}) + " [%0], {%1};", {},
            {"\"r\"(" + tmemAddr(rowZero(t)) + ")", "\"r\"(" + v + ")"});
    usedTmemSt_ = true;
}

void ThreadEmitter::tcCommit(const Insn& in) {
    Target mb = target(in.operand(0));
    const ptx::Tcgen05Commit& c = *in.as<ptx::Tcgen05Commit>();
    bool multicast = c.multicast;
    // PTX ISA 9.4 forms: .sync_restrict::shared::read::mma::a and .multicast::cluster::32b are
    // sm_107f qualifiers (not sm_100a). A mask that fits 16 bits is the plain 16-bit multicast,
    // which signals the same CTAs.
    if (c.readMmaA)
        refuse("tcgen05.commit.sync_restrict::shared::read::mma::a needs sm_107f (PTX ISA 9.4)");
    if (multicast && (in.operand(1).value >> 16) != 0)
        refuse("a ctaMask wider than 16 bits (.multicast::cluster::32b) needs sm_107f (PTX ISA "
               "9.4)");
    std::string addr = multicast ? sharedAddr(mb) : clusterAddr(mb);
    std::string ptx =
        opcode(ptx::Tcgen05Commit{plan_.ctaGroup, ptx::StateSpace::SharedCluster, multicast}) +
        " [%0]" + (multicast ? ", %1;" : ";");
    std::vector<std::string> ins = {"\"r\"(" + addr + ")"};
    if (multicast)
        ins.push_back("\"h\"(static_cast<unsigned short>(" +
                      hex(static_cast<std::uint32_t>(in.operand(1).value)) + "))");
    perThread();
    asmStmt(ptx, {}, ins);
}

void ThreadEmitter::tcAlloc(const Insn& in) {
    int group = plan_.ctaGroup;
    collective();
    if (in.is<ptx::Tcgen05Relinquish>()) {
        asmStmt(opcode(ptx::Tcgen05Relinquish{group}) + ";", {}, {});
        return;
    }
    std::string cols = std::to_string(in.operand(1).value);
    if (in.as<ptx::Tcgen05Alloc>()->exclusive)
        refuse("tcgen05.alloc/dealloc.exclusive needs PTX ISA 9.4 and sm_100f; the harness "
               "targets sm_100a");
    if (!in.as<ptx::Tcgen05Alloc>()->dealloc) {
        Target t = target(in.operand(0));
        if (t.remote) refuse("tcgen05.alloc writes the issuing CTA's shared memory");
        asmStmt(opcode(ptx::Tcgen05Alloc{false, group, true}) + " [%0], " + cols + ";", {},
                {"\"r\"(" + sharedAddr(t) + ")"});
        return;
    }
    const Operand& a = in.operand(0);
    if (a.kind == Operand::Kind::Integer) {
        // The model's address, not the hardware's: fine for ptxas (compile-only), never run.
        unfaithful("tcgen05.dealloc of a constant address: the hardware's differs");
        asmStmt(opcode(ptx::Tcgen05Alloc{true, group, false}) + " %0, " + cols + ";", {},
                {"\"r\"(" + std::to_string(a.value) + "u)"});
        return;
    }
    if (a.kind != Operand::Kind::Name)
        refuse("tcgen05.dealloc needs the address tcgen05.alloc stored, loaded into a register");
    if (kinds_[a.name] != RegKind::Address)
        unfaithful("tcgen05.dealloc of a register that does not hold tcgen05.alloc's address");
    asmStmt(opcode(ptx::Tcgen05Alloc{true, group, false}) + " %0, " + cols + ";", {},
            {"\"r\"(__shfl_sync(0xffffffffu, " + regVar(a.name, RegKind::Int) + ", 0))"});
}

} // namespace ptxmc::validate
