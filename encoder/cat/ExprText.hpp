// Prints a cat expression back as text (for explanations and error messages).
#pragma once

#include "cat/Ast.hpp"

#include <string>

namespace ptxmc::cat {

/** The expression in cat syntax, fully parenthesised where precedence would be unclear. */
std::string exprText(const Expr& e);

} // namespace ptxmc::cat
