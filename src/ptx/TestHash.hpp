// herd7's `Hash=` line: a digest of a test's initial state, code and observed locations.
#pragma once

#include "litmus/Ast.hpp"
#include "ptx/Program.hpp"

#include <string>

namespace ptxmc::ptx {

/**
 * herd7's scheme (herdtools7 lib/testHash.ml): MD5 of the MD5s of three texts, the initial
 * state (entries sorted, registers first), the code (labels renamed L00, L01, ... in order of
 * appearance) and the observed locations, printed here by ptxmc's canonical printer. Equal
 * tests (up to spacing, label names and declaration order) get equal hashes; a hash equals
 * herd7's only where herd7 prints the same text.
 */
std::string testHash(const Program& program);
/** decodeProgram, then the above. */
std::string testHash(const litmus::Test& test);

} // namespace ptxmc::ptx
