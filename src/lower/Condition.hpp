// The parsed final condition to ir: reference names, herd's text, and the proposition by index.
#pragma once

#include "ir/Program.hpp"
#include "litmus/Ast.hpp"

#include <string>
#include <vector>

namespace ptxmc::lower {

/** The printed name of a condition reference ("P1:r0", "x@1", "t[2]"). */
std::string refName(const litmus::Ref& r);

/** A proposition as herd prints a condition's ("(P1:r0 == 1 /\ x == 0)"). */
std::string propositionText(const litmus::Prop& p);

/**
 * `p` over indices into `observed` (matched by refName), constants as 32-bit signed values.
 * Throws InputError at the reference for a name `observed` does not hold.
 */
ir::Proposition observedProposition(const litmus::Prop& p,
                                    const std::vector<ir::Observable>& observed);

} // namespace ptxmc::lower
