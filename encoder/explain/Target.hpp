// Outcomes to explain, as Z3 conditions over a session's observed values.
#pragma once

#include "smt/Z3Session.hpp"

#include <string>

namespace ptxmc::engine::explain {

/** The outcome as a Z3 condition and as text. */
struct Target {
    z3::expr cond;
    std::string text;
};

/**
 * An outcome given as text: "P1:r0=0; x=1" (names as ptxmc prints them), or a proposition in
 * the condition's syntax ("P1:r0 == 0 /\ x != 1"). Throws InputError, at the column, for
 * malformed text or a name the program does not observe.
 */
Target parseOutcome(const std::string& spec, const ir::Program& p, smt::Z3Session& s);

/** The program's condition: its proposition for exists/~exists, the negation for forall. */
Target conditionTarget(const ir::Program& p, smt::Z3Session& s);

} // namespace ptxmc::engine::explain
