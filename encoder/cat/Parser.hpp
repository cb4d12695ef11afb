// Recursive-descent parser for one cat file: statements and `include` directives, unexpanded.
#pragma once

#include "cat/Ast.hpp"

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ptxmc::cat {

/*
 * Shape of the expression trees built here (what the resolver and engines can rely on):
 *
 *   Name          name set, no args          Empty, Universe   no args
 *   Union, Seq    n-ary: args.size() >= 2, one node per chain `a | b | c` (operands in source
 *                 order); a parenthesized chain stays a nested node: `(a | b) | c` has 2 args
 *   Inter, Diff, Cartesian
 *                 binary, left-associative: `a \ b \ c` is `(a \ b) \ c`
 *   Complement, Inverse, Plus, Star, Opt, Bracket, Domain, Range
 *                 exactly one arg
 *   Parentheses make no node.
 *
 * Precedence, loosest first (as herd's grammar): `|`, `;`, `\`, `&`, binary `*` (Cartesian),
 * prefix `~`, postfix `+ * ? ^-1` (applied left to right). So `c \ d & e` is `c \ (d & e)`,
 * `~a+` is `~(a+)`, `a;b^-1` is `a;(b^-1)`. A `*` is the Cartesian product when the next token
 * can start an operand (name, `(`, `[`, `_`, `0`, `~`, `domain`, `range`), otherwise postfix.
 *
 * Locations: Name/Empty/Universe at their token; operator nodes at their operator token (the
 * first `|` or `;` of an n-ary chain, `~`, `[`, `domain`, the postfix symbol); Binding at its
 * name; Stmt at its first token. Trees are at most kMaxNesting deep.
 */

/** Deepest expression tree, parenthesis nesting and include nesting accepted. */
inline constexpr int kMaxNesting = 200;

/** `include "path"`: left for the loader, which inlines the file at this point. */
struct IncludeDirective {
    std::string path;
    SourceLoc loc; ///< the path string
};

using FileItem = std::variant<Stmt, IncludeDirective>;

struct ParsedFile {
    bool hasTitle = false;
    std::string title;
    std::vector<FileItem> items; ///< in source order
};

/**
 * Parses one file; `file` is the name put in every SourceLoc. Throws InputError at the first
 * error. The title is the first token when it is a name or a string (statements start with
 * keywords, so this is unambiguous); herd's two-word form `ARCH "title"` / `ARCH name` is
 * accepted too, the second word being the title.
 */
ParsedFile parseFile(std::string_view text, const std::string& file);

} // namespace ptxmc::cat
