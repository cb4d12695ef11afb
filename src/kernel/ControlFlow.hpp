// An entry's control flow: where a branch goes, each statement's successors, where ways meet.
#pragma once

#include "kernel/Module.hpp"

#include <cstddef>
#include <vector>

namespace ptxmc::kernel {

/** The statement a branch's label names, found from its innermost `{ }` block outwards. */
std::size_t branchTarget(const Function& f, const Statement& s);

/** Where statement `i` may go next (the body's size: the end). */
std::vector<std::size_t> successors(const Function& f, std::size_t i);

/**
 * Each statement's immediate post-dominator: the first statement every path from it reaches
 * (the body's size: the end, or no path reaches it).
 */
std::vector<std::size_t> postDominators(const Function& f);

} // namespace ptxmc::kernel
