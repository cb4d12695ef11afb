// decode(): picks the instruction family from the opcode; the families decode the qualifiers.
#include "ptx/DecodeDetail.hpp"

#include <algorithm>

namespace ptxmc::ptx {

namespace detail {

Scope Decoder::takeScope(std::initializer_list<Scope> allowed) {
    auto s = q.takeIf([&](const std::string& p) {
        auto v = valueOf(kScopes, p);
        return v && std::find(allowed.begin(), allowed.end(), *v) != allowed.end();
    });
    return s ? *valueOf(kScopes, *s) : Scope::None;
}

std::vector<Type> Decoder::takeTypes() {
    std::vector<Type> out;
    for (const std::string& t : q.takeTypes())
        out.push_back(t == "pred" ? Type{'p', 0} : Type{t[0], std::stoi(t.substr(1))});
    return out;
}

} // namespace detail

Ordering effectiveOrdering(Sem written, Scope scope, ir::Sem dflt) {
    Ordering o{dflt, scope};
    switch (written) {
    case Sem::None:
        break;
    case Sem::Weak:
        o.sem = ir::Sem::Weak;
        break;
    case Sem::Relaxed:
        o.sem = ir::Sem::Relaxed;
        break;
    case Sem::Acquire:
        o.sem = ir::Sem::Acquire;
        break;
    case Sem::Release:
        o.sem = ir::Sem::Release;
        break;
    case Sem::AcqRel:
        o.sem = ir::Sem::AcqRel;
        break;
    case Sem::Sc:
        o.sem = ir::Sem::Sc;
        break;
    case Sem::Volatile: // .volatile is .relaxed.sys (PTX ISA 8.4); a written scope wins
        o.sem = ir::Sem::Relaxed;
        if (scope == Scope::None) o.scope = Scope::Sys;
        break;
    }
    if (o.sem != ir::Sem::Weak && o.sem != ir::Sem::None && o.scope == Scope::None)
        o.scope = Scope::Gpu; // atom/red default scope is .gpu
    return o;
}

Insn decode(const litmus::Instruction& inst, const CtaGroupHook& onCtaGroup) {
    const auto& p = inst.parts;
    if (p.empty()) throw InputError(inst.loc, "unknown instruction '" + inst.opcode + "'");
    bool bulk = p.size() >= 3 && p[0] == "cp" && p[1] == "async" && p[2] == "bulk";
    std::size_t skip = 1;
    if (p[0] == "tcgen05" || p[0] == "mbarrier") skip = 2;
    if (bulk) skip = p.size() >= 4 && (p[3] == "commit_group" || p[3] == "wait_group") ? 4 : 3;
    detail::Decoder d{inst, Qualifiers(inst, skip), onCtaGroup};
    Insn out{Ld{}, inst.operands, inst.loc, inst.opcode};
    if (p[0] == "tcgen05") {
        out.op = detail::decodeTcgen05(d);
    } else if (p[0] == "mbarrier") {
        out.op = detail::decodeMbarrier(d);
    } else if (bulk) {
        out.op = detail::decodeBulk(d);
    } else if (p.size() >= 2 && p[0] == "cp" && p[1] == "async") {
        d.fail("non-bulk cp.async is not supported");
    } else if (auto op = detail::decodeGeneric(d)) {
        out.op = *op;
    } else if (auto control = detail::decodeControl(d)) {
        out.op = *control;
    } else {
        d.fail("unknown instruction '" + inst.opcode + "'");
    }
    return out;
}

} // namespace ptxmc::ptx
