// A fix as a unified diff of the litmus file: the rows it inserts and the cells it rewrites.
#pragma once

#include "ptx/Strengthen.hpp"

#include <string>
#include <vector>

namespace ptxmc::ptx {

/**
 * The unified diff (`--- a/FILE`, `+++ b/FILE`, hunks with `context` lines around each change)
 * that applies `changes` to `source`, the text `test` was read from: an inserted instruction is
 * a new row with only its thread's cell filled (columns are independent, so the other threads'
 * code stays as it is), a rewritten one changes its cell in place. `patch -p1` applies it.
 */
std::string fixDiff(const litmus::Test& test, const std::string& source,
                    const std::vector<Strengthening>& changes, int context = 2);

} // namespace ptxmc::ptx
