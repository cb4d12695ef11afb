// The axioms of the shape irreflexive (co ; S), S pairwise and static, read as fixed co pairs.
#include "engine/FixedOrders.hpp"

#include "engine/StaticRelations.hpp"
#include "ir/Vocabulary.hpp"

#include <algorithm>

namespace ptxmc::engine {

namespace {

using Op = cat::Expr::Op;

/** The definition a Name node is bound to, or null for a base name or another operator. */
const cat::ResolvedModel::Definition* boundDefinition(const cat::ResolvedModel& model,
                                                      const cat::Expr& e) {
    if (e.op != Op::Name) return nullptr;
    int b = model.binding.at(&e);
    return b < 0 ? nullptr : &model.definitions[static_cast<std::size_t>(b)];
}

/** Whether `e` names the base relation co, directly or through `let x = y` aliases. */
bool namesBaseCo(const cat::ResolvedModel& model, const cat::Expr& e, int depth = 0) {
    if (e.op != Op::Name || depth > 64) return false;
    if (const auto* d = boundDefinition(model, e)) return namesBaseCo(model, *d->expr, depth + 1);
    const cat::BaseRef& base = model.bases.at(&e);
    const auto* rel = std::get_if<ir::Rel>(&base);
    return rel != nullptr && *rel == ir::Rel::Co;
}

/**
 * Whether `e` relates two events by looking at them alone, with nothing an execution chooses:
 * static base names, and operators that combine the two events' own facts.
 */
bool pairwiseStatic(const cat::ResolvedModel& model, const cat::Expr& e, int depth = 0) {
    if (depth > 256) return false;
    switch (e.op) {
    case Op::Name: {
        if (const auto* d = boundDefinition(model, e))
            return !d->recursive && pairwiseStatic(model, *d->expr, depth + 1);
        const cat::BaseRef& base = model.bases.at(&e);
        if (const auto* tag = std::get_if<ir::Tag>(&base)) return *tag != ir::Tag::MB_MISUSE;
        return !ir::isChoice(std::get<ir::Rel>(base));
    }
    case Op::Empty:
    case Op::Universe:
        return true;
    case Op::Union:
    case Op::Inter:
    case Op::Diff:
    case Op::Cartesian:
    case Op::Complement:
    case Op::Inverse:
    case Op::Opt:
    case Op::Bracket:
        return std::all_of(e.args.begin(), e.args.end(), [&](const cat::ExprPtr& a) {
            return pairwiseStatic(model, *a, depth + 1);
        });
    case Op::Seq:
    case Op::Plus:
    case Op::Star:
    case Op::Domain:
    case Op::Range:
    case Op::Reading:
        return false;
    }
    return false;
}

/** S of an axiom `irreflexive (co ; S)` whose S is a named pairwise static relation. */
const cat::ResolvedModel::Definition* fixingRelation(const cat::ResolvedModel& model,
                                                     const cat::Axiom& axiom) {
    if (axiom.flag || axiom.negated || axiom.test != cat::Stmt::Test::Irreflexive) return nullptr;
    const cat::Expr& e = *axiom.expr;
    if (e.op != Op::Seq || e.args.size() != 2 || !namesBaseCo(model, *e.args[0])) return nullptr;
    const auto* s = boundDefinition(model, *e.args[1]);
    if (s == nullptr || s->kind != cat::Kind::Relation || !pairwiseStatic(model, *s->expr))
        return nullptr;
    return s;
}

} // namespace

FixedCoherence fixedCoherence(const ir::Program& program, const cat::ResolvedModel& model) {
    FixedCoherence out;
    for (const auto& axiom : model.axioms) {
        const auto* s = fixingRelation(model, axiom);
        // staticRelation evaluates a name's last definition: S must be that one.
        if (s == nullptr || std::any_of(model.definitions.begin(), model.definitions.end(),
                                        [&](const auto& d) { return &d > s && d.name == s->name; }))
            continue;
        bool used = false;
        for (const auto& [a, b] : staticRelation(program, model, s->name)) {
            const ir::Event& ea = program.events[static_cast<std::size_t>(a)];
            const ir::Event& eb = program.events[static_cast<std::size_t>(b)];
            // Only pairs that co itself relates: two writes of one location.
            if (a == b || !ea.has(ir::Tag::W) || !eb.has(ir::Tag::W) ||
                ea.location != eb.location || ea.has(ir::Tag::IW) || eb.has(ir::Tag::IW))
                continue;
            out.pairs.emplace_back(a, b);
            used = true;
        }
        if (used) out.axioms.push_back(axiom.name);
    }
    std::sort(out.pairs.begin(), out.pairs.end());
    out.pairs.erase(std::unique(out.pairs.begin(), out.pairs.end()), out.pairs.end());
    // Both orders of one pair forbidden: no execution has both writes. The axiom says so
    // itself; fixing such pairs would only turn that into a contradiction of the encoding.
    std::vector<std::pair<int, int>> oneWay;
    for (const auto& [a, b] : out.pairs)
        if (!std::binary_search(out.pairs.begin(), out.pairs.end(), std::make_pair(b, a)))
            oneWay.emplace_back(a, b);
    out.pairs = std::move(oneWay);
    if (out.pairs.empty()) out.axioms.clear();
    return out;
}

} // namespace ptxmc::engine
