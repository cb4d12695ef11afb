// Resolves the final condition's references to register values and memory cells.
#include "lower/Condition.hpp"

#include "lower/Lowerer.hpp"

#include <functional>
#include <set>

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

namespace {

ir::Proposition::Kind kindOf(Prop::Kind k) {
    using K = ir::Proposition::Kind;
    switch (k) {
    case Prop::Kind::True:
        return K::True;
    case Prop::Kind::False:
        return K::False;
    case Prop::Kind::Eq:
        return K::Eq;
    case Prop::Kind::Ne:
        return K::Ne;
    case Prop::Kind::Not:
        return K::Not;
    case Prop::Kind::And:
        return K::And;
    case Prop::Kind::Or:
        return K::Or;
    case Prop::Kind::Implies:
        return K::Implies;
    }
    return K::False;
}

} // namespace

ir::Proposition observedProposition(const Prop& p, const std::vector<ir::Observable>& observed) {
    auto index = [&](const Ref& r) {
        const std::string name = refName(r);
        for (std::size_t i = 0; i < observed.size(); ++i)
            if (observed[i].name == name) return static_cast<int>(i);
        throw InputError(r.loc, "'" + name + "' is not observed by this test");
    };
    ir::Proposition out;
    out.kind = kindOf(p.kind);
    if (p.kind == Prop::Kind::Eq || p.kind == Prop::Kind::Ne) {
        out.lhs = index(p.lhs);
        if (p.rhsRef)
            out.rhs = index(*p.rhsRef);
        else if (observed[static_cast<std::size_t>(out.lhs)].wide)
            out.constant = p.rhsValue;
        else if (ir::fits32(p.rhsValue)) // a 32-bit observable's: read as signed 32 bits
            out.constant = wrap32(p.rhsValue);
        else
            throw InputError(p.lhs.loc, "'" + refName(p.lhs) + "' holds 32-bit values, and " +
                                            std::to_string(p.rhsValue) +
                                            " does not fit 32 bits (-2147483648 to 4294967295)");
    }
    for (const auto& a : p.args)
        out.args.push_back(observedProposition(*a, observed));
    return out;
}

void Lowerer::resolveCondition() {
    std::set<std::string> seen;
    auto observe = [&](const Ref& r) {
        ir::Observable o;
        if (r.kind == Ref::Kind::Register) {
            std::size_t t = 0;
            while (t < program_.threads.size() && program_.threads[t].id != r.thread)
                ++t;
            if (t == program_.threads.size())
                fail(r.loc, "P" + std::to_string(r.thread) + " is not a thread of this test");
            auto cell = regCells_.find({r.thread, r.name});
            if (cell != regCells_.end()) { // a wgmma register: its cell's final value
                o.location = cell->second;
                o.name = refName(r);
                if (seen.insert(o.name).second) program_.observed.push_back(o);
                return;
            }
            const auto& regs = program_.threads[t].finalRegisters;
            auto it = regs.find(r.name);
            if (it == regs.end())
                fail(r.loc, "register " + r.name + " is never written or initialised in P" +
                                std::to_string(r.thread));
            o.reg = it->second;
            o.wide = wideValue(*o.reg);
        } else {
            auto it = decls_.find(r.name);
            if (it == decls_.end()) fail(r.loc, "'" + r.name + "' is not a declared location");
            const litmus::LocationDecl* root = it->second;
            if (root->isMultimem())
                fail(r.loc, "'" + r.name +
                                "' is a multimem address: it has no value of its own; name "
                                "one of the locations it points to");
            root = rootOf(root);
            int cta = -1;
            if (r.cta) {
                cta = *r.cta;
            } else if (root->ctas.size() == 1) {
                cta = root->ctas[0];
            } else if (root->ctas.size() > 1) {
                fail(r.loc, "'" + r.name + "' exists in several CTAs: write " + r.name + "@C");
            }
            const std::string range = r.name + "[0.." + std::to_string(root->rows - 1) + "]";
            if (root->isArray() && !r.row)
                fail(r.loc, "'" + r.name + "' is an array: name one of its elements, " + range);
            int row = r.row ? *r.row : 0;
            if (root->isArray() && row >= root->rows)
                fail(r.loc, "index " + std::to_string(row) + " is outside " + range);
            auto cell = cells_.find({root->name, cta, row});
            if (cell == cells_.end())
                fail(r.loc, "'" + refName(r) + "' does not name a declared cell");
            if (program_.locations[static_cast<std::size_t>(cell->second)].space ==
                ir::Space::Mbarrier)
                fail(r.loc, "an mbarrier has no final value to test");
            o.location = cell->second;
            o.wide = program_.locations[static_cast<std::size_t>(cell->second)].bits == 64;
        }
        o.name = refName(r);
        if (seen.insert(o.name).second) program_.observed.push_back(o);
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
    program_.condition.quantifier = test_.condition->quantifier;
    program_.condition.prop = observedProposition(*test_.condition->prop, program_.observed);
    program_.conditionText = propositionText(*test_.condition->prop);
    if (program_.conditionText.front() != '(')
        program_.conditionText = "(" + program_.conditionText + ")";
}

} // namespace ptxmc::lower
