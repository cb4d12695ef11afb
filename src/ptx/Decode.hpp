// Decoding a litmus instruction into a typed ptx::Insn: the one place qualifiers are parsed.
#pragma once

#include "ptx/Insn.hpp"

#include <functional>

namespace ptxmc::ptx {

/** Called with a tcgen05 instruction's .cta_group as soon as it is decoded. */
using CtaGroupHook = std::function<void(int group)>;

/**
 * Decodes `inst`; throws InputError for an unknown opcode or a bad or leftover qualifier.
 * `onCtaGroup` lets lowering reject a kernel mixing cta_group::1 and ::2 before the errors of
 * the qualifiers that follow the .cta_group, as it always has.
 */
Insn decode(const litmus::Instruction& inst, const CtaGroupHook& onCtaGroup = {});

/** The semantics and scope an access has: `dflt` when none is written, .volatile = .relaxed.sys. */
struct Ordering {
    ir::Sem sem = ir::Sem::None;
    Scope scope = Scope::None;
};
Ordering effectiveOrdering(Sem written, Scope scope, ir::Sem dflt);

} // namespace ptxmc::ptx
