// Outcomes to explain, as Z3 conditions over a session's observed values.
#include "explain/Target.hpp"

#include "litmus/Parser.hpp"
#include "lower/Condition.hpp"
#include "support/SourceLoc.hpp"

namespace ptxmc::engine::explain {

using smt::Z3Session;

namespace {

z3::expr propExpr(const ir::Proposition& p, Z3Session& s) {
    using K = ir::Proposition::Kind;
    auto observed = [&](int i) { return s.observed()[static_cast<std::size_t>(i)]; };
    switch (p.kind) {
    case K::True:
        return s.ctx().bool_val(true);
    case K::False:
        return s.ctx().bool_val(false);
    case K::Eq:
    case K::Ne: {
        const unsigned bits = observed(p.lhs).get_sort().bv_size();
        z3::expr rhs =
            p.rhs >= 0 ? observed(p.rhs) : s.ctx().bv_val(static_cast<int64_t>(p.constant), bits);
        return p.kind == K::Eq ? observed(p.lhs) == rhs : observed(p.lhs) != rhs;
    }
    case K::Not:
        return !propExpr(p.args[0], s);
    case K::And:
        return propExpr(p.args[0], s) && propExpr(p.args[1], s);
    case K::Or:
        return propExpr(p.args[0], s) || propExpr(p.args[1], s);
    case K::Implies:
        return z3::implies(propExpr(p.args[0], s), propExpr(p.args[1], s));
    }
    return s.ctx().bool_val(false);
}

} // namespace

Target parseOutcome(const std::string& spec, const ir::Program& p, Z3Session& s) {
    // "P1:r0=0; x=1" or a condition's proposition: one parser, exact columns, values as wide
    // as what they observe, herd's `1:r0` too; every reference observed (the caller added them
    // before lowering)
    auto prop = litmus::parseProposition(spec, "--outcome");
    ir::Proposition observed = lower::observedProposition(*prop, p.observed);
    return Target{propExpr(observed, s), lower::propositionText(*prop)};
}

Target conditionTarget(const ir::Program& p, Z3Session& s) {
    z3::expr cond = propExpr(p.condition.prop, s);
    if (p.condition.quantifier == ir::Quantifier::Forall)
        return {!cond, "~" + p.conditionText + " (a counterexample to forall)"};
    return {cond, p.conditionText};
}

} // namespace ptxmc::engine::explain
