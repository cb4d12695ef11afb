// cat::Model -> ResolvedModel: every name bound to a base relation/set or a `let`, kinds checked.
#pragma once

#include "cat/Ast.hpp"
#include "ir/Rel.hpp"
#include "ir/Tag.hpp"

#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace ptxmc::cat {

/** A name of the base vocabulary, typed: a set (event tag) or a relation. */
using BaseRef = std::variant<ir::Tag, ir::Rel>;

/** Whether an expression denotes a set of events or a binary relation over events. */
enum class Kind { Set, Relation };

/** A named check of the model (acyclic/irreflexive/empty, or a flag). */
struct Axiom {
    std::string name;
    Stmt::Test test = Stmt::Test::Acyclic;
    bool negated = false;
    bool flag = false;
    ExprPtr expr;
    std::string doc;
    SourceLoc loc;
};

/** A model whose names all resolve; the engines evaluate it. Immutable once built. */
class ResolvedModel {
public:
    struct Definition {
        std::string name;
        ExprPtr expr;
        Kind kind = Kind::Relation;
        bool recursive = false; ///< part of a `let rec` group
        int group = -1;         ///< let rec group index (definitions of one group share it)
        SourceLoc loc;
    };

    std::string title;
    std::vector<std::string> files;
    std::vector<Definition> definitions; ///< in evaluation order; later ones shadow earlier names
    std::vector<Axiom> axioms;           ///< checks (flag == false) and flags, in file order
    std::vector<std::string> shown;
    /** The readings its Reading choices select (empty for a model read from one file). */
    std::vector<ReadingInfo> readings;

    /** Kind of an expression (base names, lets and operators), computed at resolve time. */
    std::map<const Expr*, Kind> kinds;
    /** For each Name node: index into definitions, or -1 for a base relation/set. */
    std::map<const Expr*, int> binding;
    /** For each Name node bound to the base vocabulary: its typed set or relation. */
    std::map<const Expr*, BaseRef> bases;
};

/** Resolves names against the base vocabulary (ir/Vocabulary) and the model's lets. Throws
 * InputError. */
std::shared_ptr<const ResolvedModel> resolveModel(const Model& model);

} // namespace ptxmc::cat
