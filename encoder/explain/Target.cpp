// Outcomes to explain, as Z3 conditions over a session's observed values.
#include "explain/Target.hpp"

#include "explain/Explanation.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"
#include "support/SourceLoc.hpp"

#include <sstream>

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

bool conditionSyntax(const std::string& spec) {
    for (const char* op : {"==", "!=", "/\\", "\\/", "=>", "~", "(", "true", "false"})
        if (spec.find(op) != std::string::npos) return true;
    return false;
}

Target parseOutcome(const std::string& spec, const ir::Program& p, Z3Session& s) {
    if (conditionSyntax(spec)) {
        // the test's condition syntax: every reference is observed (the caller added them)
        auto prop = litmus::parseProposition(spec, "--outcome");
        for (const litmus::Ref& r : litmus::referencesOf(*prop))
            if (!p.observedIndex.count(lower::refName(r)))
                throw InputError(r.loc, "'" + lower::refName(r) + "' is not observed by this test");
        return Target{propExpr(*prop, p, s), spec};
    }
    Target t{s.ctx().bool_val(true), ""};
    std::stringstream in(spec);
    std::string item;
    while (std::getline(in, item, ';')) {
        auto trim = [](std::string x) {
            x.erase(0, x.find_first_not_of(" \t"));
            x.erase(x.find_last_not_of(" \t") + 1);
            return x;
        };
        item = trim(item);
        if (item.empty()) continue;
        auto eq = item.find('=');
        if (eq == std::string::npos)
            throw InputError(SourceLoc{"--outcome", 1, 1},
                             "expected NAME=VALUE, found '" + item + "'");
        std::string name = trim(item.substr(0, eq));
        std::string valueText = trim(item.substr(item[eq + 1] == '=' ? eq + 2 : eq + 1));
        auto it = p.observedIndex.find(name);
        if (it == p.observedIndex.end())
            throw InputError(SourceLoc{"--outcome", 1, 1},
                             "'" + name +
                                 "' is not observed by this test (add it to locations [...])");
        std::int64_t value = 0;
        try {
            std::size_t used = 0;
            value = std::stoll(valueText, &used, 0);
            if (used != valueText.size()) throw std::invalid_argument("junk");
        } catch (const std::exception&) {
            throw InputError(SourceLoc{"--outcome", 1, 1}, "'" + valueText + "' is not an integer");
        }
        value = lower::wrap32(value);
        t.cond = t.cond && s.observed()[static_cast<std::size_t>(it->second)] ==
                               s.ctx().bv_val(static_cast<int64_t>(value), 32);
        t.text += (t.text.empty() ? "" : " /\\ ") + name + " == " + std::to_string(value);
    }
    if (t.text.empty()) throw InputError(SourceLoc{"--outcome", 1, 1}, "empty outcome");
    return t;
}

Target conditionTarget(const ir::Program& p, Z3Session& s) {
    z3::expr cond = propExpr(*p.prop, p, s);
    if (p.quantifier == litmus::Condition::Quantifier::Forall)
        return {!cond, "~" + p.conditionText + " (a counterexample to forall)"};
    return {cond, p.conditionText};
}

} // namespace ptxmc::engine::explain
