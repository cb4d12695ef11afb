// Resolves the final condition's references to register values and memory cells.
#include "lower/Lowerer.hpp"

#include <functional>

namespace ptxmc::lower {

using litmus::Prop;
using litmus::Ref;

std::string refName(const Ref& r) {
    if (r.kind == Ref::Kind::Register) return "P" + std::to_string(r.thread) + ":" + r.name;
    std::string n = r.name;
    if (r.cta) n += "@" + std::to_string(*r.cta);
    if (r.row) n += "[" + std::to_string(*r.row) + "]";
    return n;
}

std::string propositionText(const Prop& p) {
    auto ref = [](const Ref& r) { return refName(r); };
    switch (p.kind) {
    case Prop::Kind::True:
        return "true";
    case Prop::Kind::False:
        return "false";
    case Prop::Kind::Eq:
    case Prop::Kind::Ne: {
        std::string rhs = p.rhsRef ? ref(*p.rhsRef) : std::to_string(p.rhsValue);
        return ref(p.lhs) + (p.kind == Prop::Kind::Eq ? " == " : " != ") + rhs;
    }
    case Prop::Kind::Not:
        return "~" + propositionText(*p.args[0]);
    case Prop::Kind::And:
        return "(" + propositionText(*p.args[0]) + " /\\ " + propositionText(*p.args[1]) + ")";
    case Prop::Kind::Or:
        return "(" + propositionText(*p.args[0]) + " \\/ " + propositionText(*p.args[1]) + ")";
    case Prop::Kind::Implies:
        return "(" + propositionText(*p.args[0]) + " => " + propositionText(*p.args[1]) + ")";
    }
    return "?";
}

void Lowerer::resolveCondition() {
    auto observe = [&](const Ref& r) {
        ir::Observable o;
        if (r.kind == Ref::Kind::Register) {
            std::size_t t = 0;
            while (t < program_.threads.size() && program_.threads[t].id != r.thread)
                ++t;
            if (t == program_.threads.size())
                fail(r.loc, "P" + std::to_string(r.thread) + " is not a thread of this test");
            const auto& regs = program_.threads[t].finalRegisters;
            auto it = regs.find(r.name);
            if (it == regs.end())
                fail(r.loc, "register " + r.name + " is never written or initialised in P" +
                                std::to_string(r.thread));
            o.reg = it->second;
        } else {
            auto it = decls_.find(r.name);
            if (it == decls_.end()) fail(r.loc, "'" + r.name + "' is not a declared location");
            const litmus::LocationDecl* root = it->second;
            root = rootOf(root);
            int cta = -1;
            if (r.cta) {
                cta = *r.cta;
            } else if (root->ctas.size() == 1) {
                cta = root->ctas[0];
            } else if (root->ctas.size() > 1) {
                fail(r.loc, "'" + r.name + "' exists in several CTAs: write " + r.name + "@C");
            }
            int row = r.row ? *r.row : 0;
            auto cell = cells_.find({root->name, cta, row});
            if (cell == cells_.end())
                fail(r.loc, "'" + refName(r) + "' does not name a declared cell");
            if (program_.locations[static_cast<std::size_t>(cell->second)].space ==
                ir::Space::Mbarrier)
                fail(r.loc, "an mbarrier has no final value to test");
            o.location = cell->second;
        }
        o.name = refName(r);
        if (!program_.observedIndex.count(o.name)) {
            program_.observedIndex[o.name] = static_cast<int>(program_.observed.size());
            program_.observed.push_back(o);
        }
    };
    if (!test_.condition) fail(SourceLoc{test_.file, 1, 1}, "test has no final condition");
    std::function<void(const Prop&)> walk = [&](const Prop& p) {
        if (p.kind == Prop::Kind::Eq || p.kind == Prop::Kind::Ne) {
            observe(p.lhs);
            if (p.rhsRef) observe(*p.rhsRef);
        }
        for (const auto& a : p.args)
            walk(*a);
    };
    walk(*test_.condition->prop);
    for (const auto& r : test_.observed)
        observe(r);
    program_.prop = test_.condition->prop;
    program_.quantifier = test_.condition->quantifier;
    program_.conditionText = propositionText(*test_.condition->prop);
    if (program_.conditionText.front() != '(')
        program_.conditionText = "(" + program_.conditionText + ")";
}

} // namespace ptxmc::lower

namespace ptxmc::lower {

bool evaluateProp(const litmus::Prop& p, const std::map<std::string, std::int64_t>& values) {
    using K = litmus::Prop::Kind;
    switch (p.kind) {
    case K::True:
        return true;
    case K::False:
        return false;
    case K::Eq:
    case K::Ne: {
        std::int64_t lhs = values.at(refName(p.lhs));
        std::int64_t rhs = p.rhsRef ? values.at(refName(*p.rhsRef)) : wrap32(p.rhsValue);
        return (lhs == rhs) == (p.kind == K::Eq);
    }
    case K::Not:
        return !evaluateProp(*p.args[0], values);
    case K::And:
        return evaluateProp(*p.args[0], values) && evaluateProp(*p.args[1], values);
    case K::Or:
        return evaluateProp(*p.args[0], values) || evaluateProp(*p.args[1], values);
    case K::Implies:
        return !evaluateProp(*p.args[0], values) || evaluateProp(*p.args[1], values);
    }
    return false;
}

} // namespace ptxmc::lower
