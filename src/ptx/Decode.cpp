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

namespace {
/** How many leading opcode parts name the instruction (the rest are qualifiers). */
std::size_t nameParts(const std::vector<std::string>& p) {
    auto at = [&](std::size_t i, const char* s) { return p.size() > i && p[i] == s; };
    if (at(0, "tcgen05") || at(0, "mbarrier") || at(0, "tensormap") || at(0, "wgmma") ||
        at(0, "clusterlaunchcontrol"))
        return 2;
    if (at(0, "multimem")) // multimem.cp.async.bulk, multimem.cp.reduce.async.bulk, multimem.X
        return at(1, "cp") ? (at(2, "reduce") ? 5 : 4) : 2;
    if (at(0, "cp") && at(1, "reduce")) return 4; // cp.reduce.async.bulk
    if (!at(0, "cp") || !at(1, "async")) return 1;
    if (at(2, "bulk")) return at(3, "commit_group") || at(3, "wait_group") ? 4 : 3;
    if (at(2, "mbarrier")) return 4; // cp.async.mbarrier.arrive
    return 3;                        // cp.async.{ca,cg,commit_group,wait_group,wait_all}
}

/** The operand position that may be written `!p` (PTX's `{!}a`), if any: vote's source, and
 *  bar.red's predicate c, its last operand. */
std::optional<std::size_t> negatableOperand(const Insn& insn) {
    if (std::holds_alternative<Vote>(insn.op)) return 1;
    if (const auto* b = std::get_if<Barrier>(&insn.op); b && b->red && !insn.operands.empty())
        return insn.operands.size() - 1;
    return std::nullopt;
}

/** `!p` only where the instruction's syntax writes `{!}`: elsewhere a file:line:col error. */
void checkNegations(const Insn& insn) {
    const auto allowed = negatableOperand(insn);
    for (std::size_t i = 0; i < insn.operands.size(); ++i)
        if (insn.operands[i].negated && allowed != i)
            throw InputError(insn.operands[i].loc,
                             "'!' negates a source predicate only where PTX writes {!}a (vote's "
                             "source, bar.red's c), not operand " +
                                 std::to_string(i + 1) + " of '" + insn.opcode + "'");
}
/** `[tile, g, {coords}]` only where .override::global_address asks for g, and g with it. */
void checkOverrideAddresses(const Insn& insn) {
    const auto* p = insn.as<BulkPrefetch>();
    const bool wanted = p != nullptr && p->overrideAddress;
    for (const litmus::Operand& o : insn.operands)
        if (!o.overrideAddress.empty() && !wanted)
            throw InputError(o.overrideAddress[0].loc,
                             "an overriding global address in a tile operand goes with "
                             ".override::global_address, which '" +
                                 insn.opcode + "' does not have");
    if (wanted && (insn.operands.empty() || insn.operands[0].overrideAddress.empty()))
        throw InputError(insn.loc, "'" + insn.opcode +
                                       "' names the overriding address in its tile operand: "
                                       "[tensorMap, gAddrToOverride, {coordinates}] (" +
                                       cite(Sec::TensorBaseAddressOverride) + ")");
}
} // namespace

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
    case Sem::Volatile: // .volatile is .relaxed.sys (PTX ISA #operation-types); a written scope
                        // wins
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
    bool copy = p.size() >= 2 && p[0] == "cp";
    detail::Decoder d{inst, Qualifiers(inst, nameParts(p)), onCtaGroup};
    Insn out{Ld{}, inst.operands, inst.loc, inst.opcode};
    if (p[0] == "tcgen05") {
        out.op = detail::decodeTcgen05(d);
    } else if (p[0] == "wgmma") {
        out.op = detail::decodeWgmma(d);
    } else if (p[0] == "mbarrier") {
        out.op = detail::decodeMbarrier(d);
    } else if (p[0] == "multimem") {
        out.op = detail::decodeMultimem(d);
    } else if (p[0] == "clusterlaunchcontrol") {
        out.op = detail::decodeClusterLaunchControl(d);
    } else if (copy) {
        out.op = detail::decodeAsyncCopy(d);
    } else if (auto op = detail::decodeGeneric(d)) {
        out.op = *op;
    } else if (auto control = detail::decodeControl(d)) {
        out.op = *control;
    } else {
        d.fail("unknown instruction '" + inst.opcode + "'");
    }
    checkNegations(out);
    checkOverrideAddresses(out);
    return out;
}

} // namespace ptxmc::ptx
