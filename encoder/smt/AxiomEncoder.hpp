// Turns a model check (acyclic / irreflexive / empty, possibly negated) into one Z3 condition.
#pragma once

#include "cat/Resolver.hpp"
#include "smt/ProgramEncoder.hpp"

#include <z3++.h>

namespace ptxmc::engine::smt {

/**
 * acyclic r: integer clocks on the events of each strongly connected component of r's support
 * (edge => clock increases); components of one event need only irreflexivity. Exact: a
 * satisfying clock assignment exists iff the chosen edges form no cycle.
 */
z3::expr encodeAcyclic(z3::context& ctx, const Z3Rel& r, const std::string& tag);
/** Each event's strongly connected component in the support of `r`. */
std::vector<int> stronglyConnected(const Z3Rel& r);
z3::expr encodeIrreflexive(z3::context& ctx, const Z3Rel& r);
z3::expr encodeEmpty(z3::context& ctx, const Z3Rel& r);
z3::expr encodeEmptySet(z3::context& ctx, const Z3Set& s);

} // namespace ptxmc::engine::smt
