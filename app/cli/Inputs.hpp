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

/**
 * `--shard I/N`: of the expanded tests, keeps those whose 0-based position in the input order is
 * I-1 modulo N (I in 1..N, as CI matrices number their jobs), so shards 1..N together check
 * every test exactly once. An empty `spec` keeps every test. A malformed spec is an error
 * ("--shard:1:1: error: ...") in `errors`, and then no test is kept.
 */
void keepShard(Inputs& inputs, const std::string& spec);

/** Expands `args`, then keeps the shard `shard` names (see keepShard). */
Inputs expandInputs(const std::vector<std::string>& args, const std::string& shard);

} // namespace ptxmc::cli
