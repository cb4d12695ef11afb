// Entry points shared between the litmus parser's source files (not a public interface).
#pragma once

#include "litmus/Ast.hpp"
#include "litmus/Lexer.hpp"

#include <cstddef>
#include <vector>

namespace ptxmc::litmus::detail {

/** Deepest `(` nesting in a condition: the parser recurses once per level. */
inline constexpr int kMaxParenDepth = 200;
/** Deepest proposition tree: later passes recurse over it. */
inline constexpr int kMaxPropDepth = 500;

/** The init block `{ ... }`, its `{` the next token, into test.locations and test.registers. */
void parseInitBlock(Lexer& lx, Test& test);

/**
 * Parses the code table that starts at `pos` (just after the init block's `}`) into
 * test.threads. Returns the offset of the first non-blank character after the table (the
 * condition or `locations`), or the end of the text.
 */
std::size_t parseCodeTable(const SourceText& src, std::size_t pos, Test& test);

/** One non-empty cell of the code table, [begin, end) trimmed and without a trailing `;`. */
Instruction parseInstruction(const SourceText& src, std::size_t begin, std::size_t end);

/** `P1:r0`, `1:r0`, `x`, `x@1`, `t[2]`, `t@1[2]`. */
Ref parseRef(Lexer& lx);

/** `exists P`, `~exists P` or `forall P`; the quantifier is the next token. */
Condition parseCondition(Lexer& lx);

/** `locations [r; r; ...]`; the `locations` keyword is the next token. */
std::vector<Ref> parseLocationsClause(Lexer& lx);

} // namespace ptxmc::litmus::detail
