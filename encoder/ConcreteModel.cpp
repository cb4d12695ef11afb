// Base relations of a concrete execution and the model's checks on it.
#include "ConcreteModel.hpp"

#include "ir/BaseRelations.hpp"
#include "ir/Vocabulary.hpp"

#include <functional>

namespace ptxmc::engine {

namespace {

BoolRel orderRelation(std::size_t n, const std::vector<int>& order) {
    BoolRel r(n);
    for (std::size_t i = 0; i < order.size(); ++i)
        for (std::size_t j = i + 1; j < order.size(); ++j)
            r.rows[static_cast<std::size_t>(order[i])].emplace(order[j], true);
    return r;
}

} // namespace

bool isAcyclic(const BoolRel& r) {
    std::size_t n = r.size();
    std::vector<int> state(n, 0);
    std::function<bool(std::size_t)> cyclic = [&](std::size_t v) {
        state[v] = 1;
        for (const auto& [w, c] : r.rows[v]) {
            auto u = static_cast<std::size_t>(w);
            if (!c) continue;
            if (state[u] == 1 || (state[u] == 0 && cyclic(u))) return true;
        }
        state[v] = 2;
        return false;
    };
    for (std::size_t v = 0; v < n; ++v)
        if (state[v] == 0 && cyclic(v)) return false;
    return true;
}

ConcreteModel::ConcreteModel(const ir::Program& p, const cat::ResolvedModel& model)
    : p_(p), model_(model) {
    for (const auto& b : ir::baseVocabulary()) {
        if (b.isSet || b.choice) continue;
        BoolRel r(p.events.size());
        for (const auto& [a, c] : ir::staticRelation(p, b.name))
            r.rows[static_cast<std::size_t>(a)].emplace(c, true);
        staticRels_.emplace(b.name, std::move(r));
    }
}

BoolSet ConcreteModel::baseSet(const std::string& name, const Outcome& o) const {
    BoolSet s;
    if (name == "MB_MISUSE") {
        for (int id : o.misuse)
            s.members.emplace(id, true);
        return s;
    }
    for (int id : ir::baseSet(p_, name))
        if (o.exists[static_cast<std::size_t>(id)]) s.members.emplace(id, true);
    return s;
}

BoolRel ConcreteModel::baseRelation(const std::string& name, const Choices& c,
                                    const Outcome& o) const {
    std::size_t n = p_.events.size();
    BoolRel r(n);
    if (name == "rf") {
        for (const auto& [read, write] : c.rf)
            if (o.exists[static_cast<std::size_t>(read)])
                r.rows[static_cast<std::size_t>(write)].emplace(read, true);
        return r;
    }
    if (name == "co" || name == "mbo") {
        for (const auto& [loc, order] : name == "co" ? c.co : c.mbo) {
            BoolRel part = orderRelation(n, order);
            for (std::size_t i = 0; i < n; ++i)
                for (const auto& [j, v] : part.rows[i])
                    r.rows[i].emplace(j, v);
        }
        return r;
    }
    if (name == "sc") return orderRelation(n, c.sc);
    if (name == "mb-obs") {
        for (const auto& [loc, order] : c.mbo)
            for (std::size_t i = 0; i < order.size(); ++i)
                for (std::size_t j = i + 1; j < order.size(); ++j) {
                    const ir::Event& a = p_.events[static_cast<std::size_t>(order[i])];
                    int b = order[j];
                    if (a.mbOp == ir::MbOp::Wait || a.mbOp == ir::MbOp::Init) continue;
                    if (p_.events[static_cast<std::size_t>(b)].mbOp != ir::MbOp::Wait) continue;
                    if (o.waitSuccess.at(b) && o.phaseBefore.at(a.id) < o.phaseBefore.at(b))
                        r.rows[static_cast<std::size_t>(a.id)].emplace(b, true);
                }
        return r;
    }
    const BoolRel& s = staticRels_.at(name);
    for (std::size_t i = 0; i < n; ++i) {
        if (!o.exists[i]) continue;
        for (const auto& [j, v] : s.rows[i])
            if (o.exists[static_cast<std::size_t>(j)]) r.rows[i].emplace(j, v);
    }
    return r;
}

Evaluator<BoolAlgebra> ConcreteModel::evaluator(const Choices& c, const Outcome& o) const {
    Evaluator<BoolAlgebra>::Base base{
        [this, &o](const std::string& n) { return baseSet(n, o); },
        [this, &c, &o](const std::string& n) { return baseRelation(n, c, o); }};
    return Evaluator<BoolAlgebra>(alg_, p_.events.size(), model_, base);
}

ConcreteVerdict ConcreteModel::check(const Choices& c, const Outcome& o,
                                     const std::set<std::string>& skip,
                                     bool stopAtFirstFailure) const {
    // Base relations are looked up many times while evaluating: compute each once.
    std::map<std::string, BoolRel> rels;
    std::map<std::string, BoolSet> sets;
    Evaluator<BoolAlgebra>::Base base{[&](const std::string& n) -> BoolSet {
                                          auto it = sets.find(n);
                                          if (it == sets.end())
                                              it = sets.emplace(n, baseSet(n, o)).first;
                                          return it->second;
                                      },
                                      [&](const std::string& n) -> BoolRel {
                                          auto it = rels.find(n);
                                          if (it == rels.end())
                                              it = rels.emplace(n, baseRelation(n, c, o)).first;
                                          return it->second;
                                      }};
    Evaluator<BoolAlgebra> ev(alg_, p_.events.size(), model_, base);
    auto holds = [&](const cat::Axiom& a) {
        auto val = ev.eval(*a.expr);
        bool ok = true;
        if (val.polymorphicEmpty) {
            ok = true;
        } else if (val.isSet) {
            ok = val.set.members.empty();
        } else if (a.test == cat::Stmt::Test::Acyclic) {
            ok = isAcyclic(val.rel);
        } else if (a.test == cat::Stmt::Test::Irreflexive) {
            for (std::size_t i = 0; i < val.rel.size() && ok; ++i)
                ok = val.rel.rows[i].count(static_cast<int>(i)) == 0;
        } else {
            ok = val.rel.entries() == 0;
        }
        return a.negated ? !ok : ok;
    };
    ConcreteVerdict v;
    v.consistent = true;
    for (const auto& a : model_.axioms) {
        if (a.flag || skip.count(a.name) || holds(a)) continue;
        v.consistent = false;
        v.failedAxioms.push_back(a.name);
        if (stopAtFirstFailure) return v;
    }
    if (!v.consistent) return v;
    for (const auto& a : model_.axioms)
        if (a.flag && holds(a)) v.flags.push_back(a.name);
    return v;
}

} // namespace ptxmc::engine
