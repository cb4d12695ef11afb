// Records a thread's reads and writes of wgmma fragment registers, once per stretch between wgmmas.
#include "kernel/WgmmaFragments.hpp"

namespace ptxmc::kernel {

using ptx::ModuleOp;
using ptx::ModuleRole;

void enterWgmma(Lane& L, const Statement& s) {
    const litmus::Instruction& in = s.insn;
    ++L.wgmmaWindow;
    if (s.op != ModuleOp::WgmmaMmaAsync) return;
    for (std::size_t i = 0; i < 2 && i < in.operands.size(); ++i) {
        const litmus::Operand& o = in.operands[i];
        if (o.kind != litmus::Operand::Kind::Vector || o.elements.empty()) continue;
        const std::string& first = o.elements[0].name;
        for (const auto& e : o.elements)
            if (e.kind == litmus::Operand::Kind::Name) L.wgmmaRegs[e.name] = first;
    }
}

namespace {

/** Whether the instruction's first operand is what it writes (a destination). */
bool firstIsDestination(ModuleRole k) {
    return k == ModuleRole::Arith || k == ModuleRole::Data || k == ModuleRole::Setp ||
           k == ModuleRole::Load || k == ModuleRole::ParamLoad || k == ModuleRole::Atomic ||
           k == ModuleRole::Collective || k == ModuleRole::ClcQuery;
}

/** The recorded stand-in: `mov.b32 FIRST, 0` for a write, `mov.b32 acc, FIRST` for a read. */
Step fragmentStep(Lane& L, const litmus::Instruction& in, const std::string& reg, bool write) {
    Step st;
    st.stmt = L.pc;
    // its own instance count (key ~pc): the statement's count is its instruction's
    st.instance = L.counts[~L.pc]++;
    st.opcode = "mov.b32";
    st.op = ModuleOp::Mov;
    st.parts = {"mov", "b32"};
    st.value = ptx::valueForm(st.op, st.parts);
    RawOperand r, v;
    r.kind = RawOperand::Kind::Reg;
    r.reg = write ? reg : "acc";
    r.loc = in.loc;
    v.kind = write ? RawOperand::Kind::Imm : RawOperand::Kind::Reg;
    v.reg = write ? "" : reg;
    v.value = write ? Val::of(0) : Val{};
    v.loc = in.loc;
    st.operands = {r, v};
    return st;
}

} // namespace

void recordFragmentAccess(Lane& L, const Statement& s) {
    if (L.wgmmaRegs.empty()) return;
    const litmus::Instruction& in = s.insn;
    std::string readOf, writeOf;
    auto look = [&](const litmus::Operand& o, bool dest, auto&& self) -> void {
        if (o.kind == litmus::Operand::Kind::Name || o.kind == litmus::Operand::Kind::Memory) {
            auto it = L.wgmmaRegs.find(o.name);
            if (it != L.wgmmaRegs.end()) (dest ? writeOf : readOf) = it->second;
        }
        for (const auto& e : o.elements)
            self(e, dest && o.kind == litmus::Operand::Kind::Vector, self);
    };
    const bool firstIsDest = firstIsDestination(s.role);
    for (std::size_t i = 0; i < in.operands.size(); ++i)
        look(in.operands[i], i == 0 && firstIsDest, look);
    if (!readOf.empty() && L.readIn != L.wgmmaWindow) {
        L.readIn = L.wgmmaWindow;
        L.steps.push_back(fragmentStep(L, in, readOf, false));
    }
    if (!writeOf.empty() && L.wroteIn != L.wgmmaWindow) {
        L.wroteIn = L.wgmmaWindow;
        L.steps.push_back(fragmentStep(L, in, writeOf, true));
    }
}

} // namespace ptxmc::kernel
