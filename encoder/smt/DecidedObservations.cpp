// mb-obs with the pairs the mbarrier facts decide made constant (DecidedObservations.hpp).
#include "smt/DecidedObservations.hpp"

#include "smt/FactSources.hpp"
#include "smt/MbarrierFacts.hpp"

#include <algorithm>
#include <set>

namespace ptxmc::engine::smt {

namespace {

/**
 * Whether every query under reading `reading` (0 the default, k the k-th literal's) assumes
 * `when`: each conjunct true, an axiom's literal (its name to `axioms`), `progress`, or a
 * reading literal, or its negation, that the reading sets (Z3Session::chooseReading).
 */
bool assumedUnder(const z3::expr& when, const z3::expr& progress,
                  const std::vector<z3::expr>& readingLiterals, std::size_t reading,
                  std::set<std::string>& axioms) {
    static const std::string kAxiom = "axiom:";
    std::vector<z3::expr> todo{when};
    while (!todo.empty()) {
        const z3::expr e = todo.back();
        todo.pop_back();
        if (e.is_and()) {
            for (unsigned i = 0; i < e.num_args(); ++i)
                todo.push_back(e.arg(i));
            continue;
        }
        if (e.is_true() || z3::eq(e, progress)) continue;
        const bool negated = e.is_not();
        const z3::expr atom = negated ? e.arg(0) : e;
        if (!atom.is_const()) return false;
        const std::string name = atom.decl().name().str();
        if (!negated && name.rfind(kAxiom, 0) == 0) {
            axioms.insert(name.substr(kAxiom.size()));
            continue;
        }
        const auto lit = std::find_if(readingLiterals.begin(), readingLiterals.end(),
                                      [&](const z3::expr& l) { return z3::eq(l, atom); });
        if (lit == readingLiterals.end()) return false;
        const bool chosen = static_cast<std::size_t>(lit - readingLiterals.begin()) + 1 == reading;
        if (chosen == negated) return false;
    }
    return true;
}

/** One facts' bounds of mb-obs and the readings whose every query assumes its `when`. */
struct Decider {
    const FactsUnder* facts;
    BoundedRel bounds;
    std::vector<bool> assumed; ///< by reading
    std::set<std::string> axioms;
    bool used = false;
};

} // namespace

std::vector<FactsUnder>
factsBeforeAxioms(ProgramEncoder& pe, const cat::ResolvedModel& model, Evaluator<Z3Algebra>& ev,
                  const std::function<BoundsAlgebra::Cond(const std::string&)>& reading,
                  const std::vector<z3::expr>& readingLiterals, const z3::expr& progress,
                  const CheckOptions& options, const Budget* budget,
                  const std::function<bool()>& wholeSearchTooLarge) {
    z3::context& ctx = pe.ctx();
    MbarrierFactsPlan plan(readingLiterals);
    plan.observations(pe.baseRelation(ir::Rel::MbObs));
    for (const cat::Axiom& a : model.axioms) {
        if (a.flag || a.negated) continue;
        const z3::expr lit = ctx.bool_const(("axiom:" + a.name).c_str());
        if (a.test == cat::Stmt::Test::Acyclic) {
            if (reachesBase(model, *a.expr, ir::Rel::Mbo))
                plan.addAcyclic(pe, cycleBaseRelation(ev, model, a), lit);
        } else if (a.test != cat::Stmt::Test::Irreflexive) {
            continue;
        } else if (const cat::Expr* x = mboPartner(model, *a.expr)) {
            const std::vector<int> events = mbarrierEvents(pe);
            plan.addMboCoherence(pe, certainAmong(pe, model, *x, reading, events), lit);
        } else if (a.expr->op == cat::Expr::Op::Seq && a.expr->args.size() == 2) {
            addPerObjectOrder(plan, ev, model, *a.expr, lit, pe);
        }
    }
    z3::solver unused(ctx, z3::solver::simple()); // the facts are asserted after the axioms
    std::vector<FactsUnder> found;
    plan.assertAll(unused, pe, progress, options.mbarrierFactStates, budget, &found,
                   wholeSearchTooLarge);
    return found;
}

std::optional<DecidedObservations> decideObservations(ProgramEncoder& pe,
                                                      const std::vector<FactsUnder>& found,
                                                      const std::vector<z3::expr>& readingLiterals,
                                                      const z3::expr& progress,
                                                      z3::solver& solver) {
    const std::size_t readings = readingLiterals.size() + 1;
    std::vector<Decider> deciders;
    for (const FactsUnder& f : found) {
        if (!f.facts.known) continue;
        Decider d{&f, {}, std::vector<bool>(readings), {}};
        for (std::size_t k = 0; k < readings; ++k)
            d.assumed[k] = assumedUnder(f.when, progress, readingLiterals, k, d.axioms);
        if (std::none_of(d.assumed.begin(), d.assumed.end(), [](bool b) { return b; })) continue;
        d.bounds = observationBounds(pe, f.facts);
        deciders.push_back(std::move(d));
    }
    for (std::size_t k = 0; k < readings; ++k)
        if (std::none_of(deciders.begin(), deciders.end(),
                         [k](const Decider& d) { return d.assumed[k]; }))
            return std::nullopt;
    const Z3Rel obs = pe.baseRelation(ir::Rel::MbObs);
    DecidedObservations out{Z3Rel(obs.rows.size()), 0, 0, {}};
    // Under every reading, whether facts that reading assumes leave the pair out (or make it
    // certain); the facts that do get their implication asserted.
    auto everyReading = [&](const auto& decides) {
        for (std::size_t k = 0; k < readings; ++k)
            if (std::none_of(deciders.begin(), deciders.end(),
                             [&](const Decider& d) { return d.assumed[k] && decides(d); }))
                return false;
        return true;
    };
    for (std::size_t a = 0; a < obs.rows.size(); ++a)
        for (const auto& [b, c] : obs.rows[a]) {
            if (c.is_false()) continue;
            ++out.pairs;
            const auto at = static_cast<std::size_t>(b);
            auto absent = [&](const Decider& d) { return !d.bounds.may.test(a, at); };
            auto certain = [&](const Decider& d) { return d.bounds.must.test(a, at); };
            const bool drop = everyReading(absent);
            const bool make = !drop && !c.is_true() && everyReading(certain);
            if (drop || make) {
                ++out.decided;
                for (Decider& d : deciders)
                    if (drop ? absent(d) : certain(d)) {
                        solver.add(z3::implies(d.facts->when, drop ? !c : c));
                        d.used = true;
                    }
            }
            if (!drop) out.relation.rows[a].emplace(b, make ? c.ctx().bool_val(true) : c);
        }
    if (out.decided == 0) return std::nullopt;
    std::set<std::string> premises;
    for (const Decider& d : deciders)
        if (d.used) premises.insert(d.axioms.begin(), d.axioms.end());
    out.premises.assign(premises.begin(), premises.end());
    return out;
}

} // namespace ptxmc::engine::smt
