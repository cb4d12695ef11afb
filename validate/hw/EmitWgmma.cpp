// Emits wgmma instructions (sm_90a): one instance per team, the litmus thread is a warpgroup.
#include "hw/Emit.hpp"

#include <algorithm>

namespace ptxmc::validate {

using litmus::Operand;
using Space = ir::Space;

void ThreadEmitter::warpgroupSync() {
    // Named barrier 15 - k for warpgroup k (the litmus test's own barriers count up from 1).
    auto k = std::find(cta_.threads.begin(), cta_.threads.end(), static_cast<int>(threadIndex_)) -
             cta_.threads.begin();
    line("asm volatile(\"bar.sync " + std::to_string(15 - k) + ", 128;\" ::: \"memory\");");
}

std::string ThreadEmitter::accCell(const std::string& reg) const {
    return "f_" + ident(reg) + "[0]";
}

std::string ThreadEmitter::wgDescriptor(const Target& t) {
    if (t.array) return indexed(t, &ThreadEmitter::wgDescriptor); // chosen at use
    if (t.loc->space != Space::Shared || !t.loc->tile) refuse("not a matrix tile");
    if (t.remote) refuse("wgmma operands come from the issuing CTA's shared memory");
    if (t.row != 0) refuse("a wgmma operand is a whole tile: no offset into it");
    return hoist("wd_" + ident(t.loc->name), "unsigned long long",
                 "litmus::wgmmaDescriptor(" + sharedAddr(t) + ", " + std::to_string(kTileLbo) +
                     "u, " + std::to_string(kTileSbo) + "u)");
}

void ThreadEmitter::wgSync(const std::string& ptx) {
    collective();
    // CUTLASS's warpgroup_fence_operand: an empty asm that reads and writes every accumulator
    // fragment keeps the compiler from moving their accesses across wgmma.fence / wait_group
    // (asm statements with a memory clobber order memory, not registers).
    auto fenceOperands = [&] {
        for (const auto& [reg, n] : accRegs_)
            for (unsigned i = 0; i < n; ++i)
                line("asm volatile(\"\" : \"+f\"(f_" + ident(reg) + "[" + std::to_string(i) +
                     "]) :: \"memory\");");
    };
    fenceOperands();
    asmStmt(ptx + ";", {}, {});
    fenceOperands();
}

void ThreadEmitter::wgMma(const Insn& in) {
    const ptx::WgmmaMma& w = *in.as<ptx::WgmmaMma>();
    if (w.sp)
        refuse("wgmma.mma_async.sp: the metadata selects A's elements, which the model's values "
               "do not follow");
    if (w.dtype != "f32" || w.atype != "f16" || w.btype != "f16" || w.satfinite || w.andPopc)
        refuse("wgmma ." + w.dtype + "." + w.atype + "." + w.btype +
               ": the harness maps .f32.f16.f16 only (f16 operands, f32 accumulator)");
    if (w.m != 64 || w.k != 16 || w.n % 8 != 0 || w.n > 256) refuse("unexpected wgmma shape");
    const Operand& d = in.operand(0);
    if (d.kind != Operand::Kind::Vector || d.elements.size() != 1 ||
        d.elements[0].kind != Operand::Kind::Name)
        refuse("the harness maps one litmus accumulator register per mma ({d})");
    bool aShared = in.operand(1).kind == Operand::Kind::Memory;
    if (in.operand(2).kind != Operand::Kind::Memory) refuse("wgmma's B is a shared-memory [tile]");
    if (in.operands.size() != (aShared ? 8u : 7u))
        refuse("expected scale-d and " + std::string(aShared ? "four" : "three") + " immediates");
    for (std::size_t k : {4u, 5u})
        if (in.operand(k).kind != Operand::Kind::Integer || in.operand(k).value != 1)
            unfaithful("imm-scale-a/b other than 1 negate the product; the model computes a*b");
    for (std::size_t k = aShared ? 6u : 7u; k < in.operands.size(); ++k)
        if (in.operand(k).kind != Operand::Kind::Integer || in.operand(k).value != 0)
            unfaithful("transposed (MN-major) wgmma operands are not laid out by the harness");
    std::string da, aReg;
    if (aShared) {
        da = wgDescriptor(target(in.operand(1)));
    } else {
        // A from registers {p}: four .b32 registers of f16 pairs per thread; thread 0's first
        // holds A[0][0] (low half) and A[0][1]. The harness builds them from the litmus register
        // right before the mma: A[0][0] = p, every other element 0.
        const Operand& av = in.operand(1);
        if (av.kind != Operand::Kind::Vector || av.elements.size() != 1 ||
            av.elements[0].kind != Operand::Kind::Name)
            refuse("the harness maps one litmus register as wgmma's A ({p})");
        aReg = av.elements[0].name;
        if (inLoop())
            refuse("wgmma with A in registers inside a loop: whether A is written after the last "
                   "wgmma.fence or while an mma reads it is followed in the text's order only");
        if (isAcc(aReg))
            unfaithful("register " + aReg + " is both an f32 accumulator and an f16 A operand");
        if (writtenSinceWgFence_.count(aReg))
            unfaithful("register " + aReg +
                       " is written after the last wgmma.fence and read as A: the harness hands "
                       "the mma a copy made at issue, so the missing fence would not show");
        pendingA_.insert(aReg);
    }
    Target b = target(in.operand(2));
    std::string db = wgDescriptor(b);
    const Operand& sc = in.operand(3);
    std::string scale = sc.kind == Operand::Kind::Integer ? hex(sc.value ? 1u : 0u) : intValue(sc);
    const std::string& reg = d.elements[0].name;
    unsigned frags = w.n / 2; // m64nN f32: N/2 registers per thread; thread 0's first is D[0][0]
    usedWgmma_ = true;
    std::string aVal;
    if (!aShared) aVal = intValue(in.operand(1).elements[0]); // before the collective section
    collective();
    // harness 4: the launch's dummy mmas go first, in this mma's group (litmus::wgmmaBacklog)
    line("litmus::wgmmaBacklog<litmus::backlogBefore(kBacklog, " + std::to_string(mmas_++) +
         "u)>(wgBacklog, smem + kScratch);");
    std::vector<std::string> outs;
    std::string list;
    for (unsigned i = 0; i < frags; ++i) {
        outs.push_back("\"+f\"(f_" + ident(reg) + "[" + std::to_string(i) + "])");
        list += (i ? ", %" : "%") + std::to_string(i);
    }
    unsigned next = frags;
    std::string aText;
    std::vector<std::string> ins;
    if (aShared) {
        aText = "%" + std::to_string(next++);
        ins.push_back("\"l\"(" + da + ")");
    } else {
        std::string v = "wa" + std::to_string(tmp_++);
        // declared, then set: a goto over this mma (control flow) may not skip an initialisation
        line("unsigned " + v + ";");
        line(v + " = threadIdx.x % 128u == 0 ? litmus::encodeF16(static_cast<int>(" + aVal +
             ")) : 0u;");
        aText = "{%" + std::to_string(next) + ", %" + std::to_string(next + 1) + ", %" +
                std::to_string(next + 2) + ", %" + std::to_string(next + 3) + "}";
        next += 4;
        ins.push_back("\"r\"(" + v + ")");
        for (int i = 0; i < 3; ++i)
            ins.push_back("\"r\"(0u)");
    }
    std::string bText = "%" + std::to_string(next++);
    ins.push_back("\"l\"(" + db + ")");
    std::string pText = "%" + std::to_string(next++);
    ins.push_back("\"r\"(" + scale + ")");
    // A in registers: the harness writes its copy right before the mma, and a register write
    // needs a wgmma.fence before the mma that reads it (PTX ISA 9.7.17.7.1); written here, in
    // the mma's own asm, rather than left for ptxas to insert.
    const std::string fence = aShared ? "" : opcode(ptx::WgmmaFence{}) + "; ";
    asmStmt("{ .reg .pred P; " + fence + opcode(ptx::Setp{ptx::CmpOp::Ne, ptx::Type{'b', 32}}) +
                " P, " + pText + ", 0; " + opcode(in.op) + " {" + list + "}, " + aText + ", " +
                bText + ", P, 1, 1" + (aShared ? ", 0, 0" : ", 0") + "; }",
            outs, ins);
}

} // namespace ptxmc::validate
