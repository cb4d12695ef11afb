// The model's axioms read as sources of mbarrier facts (FactSources.hpp).
#include "smt/FactSources.hpp"

#include "cat/CycleBase.hpp"

#include <algorithm>

namespace ptxmc::engine::smt {

namespace {

/** Whether `x` names the base relation mbo. */
bool isMbo(const cat::ResolvedModel& model, const cat::Expr& x) {
    auto it = model.bases.find(&x);
    return x.op == cat::Expr::Op::Name && it != model.bases.end() &&
           it->second == cat::BaseRef{ir::Rel::Mbo};
}

/** Whether `e` is (a name of) `[S] ; mbo`: mbo from the operations of a set. */
bool mboFromSet(const cat::ResolvedModel& model, const cat::Expr& e) {
    const cat::Expr* body = cat::throughName(model, &e);
    return body->op == cat::Expr::Op::Seq && body->args.size() == 2 &&
           body->args[0]->op == cat::Expr::Op::Bracket && isMbo(model, *body->args[1]);
}

/** Whether `e` names base relation `rel`, directly or through the definitions it names. */
bool reachesBaseFrom(const cat::ResolvedModel& model, const cat::Expr& e, ir::Rel rel,
                     std::set<int>& seen) {
    if (e.op == cat::Expr::Op::Name) {
        if (auto it = model.bases.find(&e); it != model.bases.end())
            return it->second == cat::BaseRef{rel};
        if (auto it = model.binding.find(&e);
            it != model.binding.end() && it->second >= 0 && seen.insert(it->second).second)
            return reachesBaseFrom(
                model, *model.definitions[static_cast<std::size_t>(it->second)].expr, rel, seen);
    }
    return std::any_of(e.args.begin(), e.args.end(), [&](const cat::ExprPtr& a) {
        return reachesBaseFrom(model, *a, rel, seen);
    });
}

} // namespace

/** A relation with the cycles of `a`'s, closures left out (cat/CycleBase.hpp). */
Z3Rel cycleBaseRelation(Evaluator<Z3Algebra>& ev, const cat::ResolvedModel& model,
                        const cat::Axiom& a) {
    Z3Rel out = ev.ops().emptyRel();
    for (const cat::Expr* part : cat::cycleBase(model, a.expr.get()))
        out = ev.ops().unionRels(out, ev.relation(*part));
    return out;
}

/** The `x` of an axiom `irreflexive (mbo ; x)` or `(x ; mbo)`, or null. */
const cat::Expr* mboPartner(const cat::ResolvedModel& model, const cat::Expr& e) {
    if (e.op != cat::Expr::Op::Seq || e.args.size() != 2) return nullptr;
    if (isMbo(model, *e.args[0])) return e.args[1].get();
    if (isMbo(model, *e.args[1])) return e.args[0].get();
    return nullptr;
}

bool reachesBase(const cat::ResolvedModel& model, const cat::Expr& e, ir::Rel rel) {
    std::set<int> seen;
    return reachesBaseFrom(model, e, rel, seen);
}

/** The mbarrier operations of `pe`'s program, ascending. */
std::vector<int> mbarrierEvents(const ProgramEncoder& pe) {
    std::vector<int> out;
    for (const auto& [event, position] : pe.mbPositions())
        out.push_back(event);
    return out;
}

/**
 * An axiom `irreflexive (m ; x)` whose `m` may be each object's mbo (Mbarrier-Real-Time:
 * `mbo-per-object ; xo`) and whose `x` is a closure, to `plan`
 * (MbarrierFactsPlan::addPerObjectOrder), either way round: `m` read between the mbarrier
 * operations, `x` by its closure's operands.
 */
void addPerObjectOrder(MbarrierFactsPlan& plan, Evaluator<Z3Algebra>& ev,
                       const cat::ResolvedModel& model, const cat::Expr& seq, const z3::expr& lit,
                       const ProgramEncoder& pe) {
    const std::vector<int> mbEvents = mbarrierEvents(pe);
    for (std::size_t m = 0; m < 2; ++m) {
        // The facts follow paths of `x`'s pairs: only a closure forbids each path as a pair.
        if (!mboFromSet(model, *seq.args[m]) ||
            cat::throughName(model, seq.args[1 - m].get())->op != cat::Expr::Op::Plus)
            continue;
        const Z3Rel between = ev.among(*seq.args[m], mbEvents);
        if (std::all_of(between.rows.begin(), between.rows.end(),
                        [](const auto& row) { return row.empty(); }))
            continue; // the set is empty (the default reading's MBO-PER-OBJECT)
        Z3Rel base = ev.ops().emptyRel();
        for (const cat::Expr* part : cat::cycleBase(model, seq.args[1 - m].get()))
            base = ev.ops().unionRels(base, ev.relation(*part));
        plan.addPerObjectOrder(pe, between, base, lit);
    }
}

} // namespace ptxmc::engine::smt
