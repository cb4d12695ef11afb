// Cat text -> cat::Model: lexing, parsing and `include` expansion; every error has file:line:col.
#pragma once

#include "cat/Ast.hpp"

#include <string>

namespace ptxmc::cat {

/** Parses one model from text; includes are looked up beside `file`, then among the built-in files.
 */
Model parseModelText(const std::string& text, const std::string& file);

/** Reads a model file from disk (for `--model FILE`). Throws InputError. */
Model loadModelFile(const std::string& path);

/** Loads a built-in model by its path under model/ (default "tcgen05.cat"). Throws InputError. */
Model loadBuiltinModel(const std::string& name = "tcgen05.cat");

} // namespace ptxmc::cat
