// Branch targets, successors and immediate post-dominators of an entry's statements.
#include "kernel/ControlFlow.hpp"

#include "kernel/PostDominators.hpp"

namespace ptxmc::kernel {

using ptx::ModuleRole;

std::size_t branchTarget(const Function& f, const Statement& s) {
    const litmus::Instruction& in = s.insn;
    if (in.operands.empty() || in.operands[0].kind != litmus::Operand::Kind::Name)
        throw InputError(in.loc, "'" + in.opcode + "' needs a label");
    const std::string& label = in.operands[0].name;
    for (int sc = s.scope; sc >= 0; sc = f.scopes[static_cast<std::size_t>(sc)].parent) {
        const auto& labels = f.scopes[static_cast<std::size_t>(sc)].labels;
        auto it = labels.find(label);
        if (it != labels.end()) return it->second;
    }
    throw InputError(in.operands[0].loc, "no label '" + label + "' in scope");
}

std::vector<std::size_t> successors(const Function& f, std::size_t i) {
    const std::size_t n = f.body.size();
    const Statement& s = f.body[i];
    if (s.kind == Statement::Kind::Label) return {i + 1};
    const bool guarded = s.insn.guard.has_value();
    switch (s.role) {
    case ModuleRole::Branch: {
        std::size_t to = n;
        try {
            to = branchTarget(f, s);
        } catch (const InputError&) { // reported when a thread runs it
        }
        return guarded ? std::vector<std::size_t>{to, i + 1} : std::vector<std::size_t>{to};
    }
    case ModuleRole::Exit:
    case ModuleRole::Trap:
        return guarded ? std::vector<std::size_t>{n, i + 1} : std::vector<std::size_t>{n};
    default:
        return {i + 1};
    }
}

std::vector<std::size_t> postDominators(const Function& f) {
    std::vector<std::vector<std::size_t>> succ;
    for (std::size_t i = 0; i < f.body.size(); ++i)
        succ.push_back(successors(f, i));
    std::vector<std::size_t> out = immediatePostDominators(succ);
    for (std::size_t& d : out)
        if (d == kNoPostDominator) d = f.body.size();
    return out;
}

} // namespace ptxmc::kernel
