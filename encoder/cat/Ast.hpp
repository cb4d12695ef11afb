// Syntax tree of the cat model language (the herd/Dat3M subset ptxmc reads).
#pragma once

#include "cat/ReadingId.hpp"
#include "support/SourceLoc.hpp"

#include <memory>
#include <string>
#include <vector>

namespace ptxmc::cat {

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

/** A relation or set expression. Sets and relations share one tree; the resolver types them. */
struct Expr {
    enum class Op {
        Name,       ///< identifier (base relation/set or a `let`); `name` holds it
        Empty,      ///< `0`
        Universe,   ///< `_` (all events, as a set)
        Union,      ///< a | b
        Inter,      ///< a & b
        Diff,       ///< a \ b
        Seq,        ///< a ; b
        Cartesian,  ///< a * b (binary, sets to relation)
        Complement, ///< ~a
        Inverse,    ///< a^-1
        Plus,       ///< a+
        Star,       ///< a*
        Opt,        ///< a?
        Bracket,    ///< [a] (identity on a set)
        Domain,     ///< domain(a)
        Range,      ///< range(a)
        /// args[0] under the reading `name`, args[1] otherwise; never parsed, built by
        /// combineReadings (cat/Readings.hpp) so that one encoding holds every reading
        Reading,
    };
    Op op = Op::Name;
    std::string name;
    std::vector<ExprPtr> args;
    SourceLoc loc;
};

/** One binding of `let` / `let rec ... and ...`. */
struct Binding {
    std::string name;
    ExprPtr expr;
    SourceLoc loc;
};

/** A top-level statement. `include` is expanded by the loader, so it never reaches a Model. */
struct Stmt {
    enum class Kind { Let, LetRec, Check, Show };
    enum class Test { Acyclic, Irreflexive, Empty };
    Kind kind = Kind::Let;
    std::vector<Binding> bindings; ///< Let (one), LetRec (one or more)
    Test test = Test::Acyclic;     ///< Check
    bool negated = false;          ///< Check: `~empty r` etc.
    bool flag = false; ///< Check: `flag ...` (reports undefined behaviour, forbids nothing)
    ExprPtr expr;      ///< Check
    std::string name;  ///< Check: the `as NAME` (required by ptxmc for every check)
    std::string doc;   ///< Check, Let: text of the `(* ... *)` comment just before it, trimmed
    std::vector<std::string> shown; ///< Show: names
    SourceLoc loc;
};

/** A built-in variant model folded into its default model as Reading choices. */
struct ReadingInfo {
    ReadingId reading; ///< which variant (model/variants/NAME.cat)
    std::string title; ///< the variant's title line
    /// The definitions it replaces, each with the first line of its comment in the default
    /// model ("Q1 (<section> #<anchor>): which instructions ...")
    std::vector<std::pair<std::string, std::string>> decisions;
};

/** A model after include expansion: statements in evaluation order. */
struct Model {
    std::string title; ///< first line's quoted or bare title of the top file
    std::vector<Stmt> stmts;
    std::vector<std::string> files;    ///< every file read, top file first (for reports)
    std::vector<ReadingInfo> readings; ///< Reading choices it contains (combineReadings)
};

} // namespace ptxmc::cat
