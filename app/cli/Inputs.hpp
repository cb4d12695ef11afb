// Turns command-line PATH arguments (files, folders, herd `@index` files) into test files.
#pragma once

#include <string>
#include <vector>

namespace ptxmc::cli {

struct Inputs {
    std::vector<std::string> tests;   ///< test files in input order, as paths to print
    std::vector<std::string> folders; ///< folders named directly or by an index
    std::vector<std::string> errors;  ///< one "file:line:col: error: ..." message per bad path
};

/**
 * Expands each argument: a folder gives its `*.litmus` files (recursively, sorted by path),
 * a file whose name starts with `@` is a herd index (one path per line, relative to the index;
 * `#` comments; nested `@` indexes), anything else is a test file.
 * A bad argument is recorded in `errors` and skipped, so the others still run.
 */
Inputs expandInputs(const std::vector<std::string>& args);

} // namespace ptxmc::cli
