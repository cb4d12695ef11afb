// Litmus text -> litmus::Test. Syntax only; every error carries file:line:col.
#pragma once

#include "litmus/Ast.hpp"

#include <string>

namespace ptxmc::litmus {

/** Parses litmus text; `file` is used in positions and stored in Test::file. Throws InputError. */
Test parseLitmus(const std::string& text, const std::string& file);

/** Reads and parses a file. Throws InputError (also when the file cannot be read). */
Test parseLitmusFile(const std::string& path);

} // namespace ptxmc::litmus
