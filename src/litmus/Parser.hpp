// Litmus text -> litmus::Test. Syntax only; every error carries file:line:col.
#pragma once

#include "litmus/Ast.hpp"

#include <string>

namespace ptxmc::litmus {

/** Parses litmus text; `file` is used in positions and stored in Test::file. Throws InputError. */
Test parseLitmus(const std::string& text, const std::string& file);

/** Reads and parses a file. Throws InputError (also when the file cannot be read). */
Test parseLitmusFile(const std::string& path);

/**
 * A proposition alone, in a condition's syntax (`P1:r0 == 0 /\ x == 1`), e.g. explain's
 * --outcome; positions are `source`:1:column. Throws InputError.
 */
std::shared_ptr<const Prop> parseProposition(const std::string& text, const std::string& source);

/** Every reference a proposition makes, in order of appearance (duplicates kept). */
std::vector<Ref> referencesOf(const Prop& p);

} // namespace ptxmc::litmus
