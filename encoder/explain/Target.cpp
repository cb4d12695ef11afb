// Outcomes to explain, as Z3 conditions over a session's observed values.
#include "explain/Target.hpp"

#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"
#include "support/SourceLoc.hpp"

namespace ptxmc::engine::explain {

using smt::Z3Session;

namespace {

z3::expr propExpr(const litmus::Prop& p, const ir::Program& prog, Z3Session& s) {
    using K = litmus::Prop::Kind;
    auto ref = [&](const litmus::Ref& r) {
        return s.observed()[static_cast<std::size_t>(prog.observedIndex.at(lower::refName(r)))];
    };
    switch (p.kind) {
    case K::True:
        return s.ctx().bool_val(true);
    case K::False:
        return s.ctx().bool_val(false);
    case K::Eq:
    case K::Ne: {
        z3::expr rhs = p.rhsRef
                           ? ref(*p.rhsRef)
                           : s.ctx().bv_val(static_cast<int64_t>(lower::wrap32(p.rhsValue)), 32);
        return p.kind == K::Eq ? ref(p.lhs) == rhs : ref(p.lhs) != rhs;
    }
    case K::Not:
        return !propExpr(*p.args[0], prog, s);
    case K::And:
        return propExpr(*p.args[0], prog, s) && propExpr(*p.args[1], prog, s);
    case K::Or:
        return propExpr(*p.args[0], prog, s) || propExpr(*p.args[1], prog, s);
    case K::Implies:
        return z3::implies(propExpr(*p.args[0], prog, s), propExpr(*p.args[1], prog, s));
    }
    return s.ctx().bool_val(false);
}

} // namespace

Target parseOutcome(const std::string& spec, const ir::Program& p, Z3Session& s) {
    // "P1:r0=0; x=1" or a condition's proposition: one parser, exact columns, 32-bit values,
    // herd's `1:r0` too; every reference observed (the caller added them before lowering)
    auto prop = litmus::parseProposition(spec, "--outcome");
    for (const litmus::Ref& r : litmus::referencesOf(*prop))
        if (!p.observedIndex.count(lower::refName(r)))
            throw InputError(r.loc, "'" + lower::refName(r) + "' is not observed by this test");
    return Target{propExpr(*prop, p, s), lower::propositionText(*prop)};
}

Target conditionTarget(const ir::Program& p, Z3Session& s) {
    z3::expr cond = propExpr(*p.prop, p, s);
    if (p.quantifier == litmus::Condition::Quantifier::Forall)
        return {!cond, "~" + p.conditionText + " (a counterexample to forall)"};
    return {cond, p.conditionText};
}

} // namespace ptxmc::engine::explain
