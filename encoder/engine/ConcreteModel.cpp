// Base relations of a concrete execution and the model's checks on it.
#include "engine/ConcreteModel.hpp"

#include "engine/MbarrierMachine.hpp"
#include "ir/BaseRelations.hpp"
#include "ir/ValueSemantics.hpp"
#include "ir/Vocabulary.hpp"

#include <algorithm>
#include <functional>
#include <memory>

namespace ptxmc::engine {

namespace {

std::size_t at(int event) {
    return static_cast<std::size_t>(event);
}

void addOrder(BoolRel& r, const std::vector<int>& order) {
    for (std::size_t i = 0; i < order.size(); ++i)
        for (std::size_t j = i + 1; j < order.size(); ++j)
            r.set(at(order[i]), at(order[j]));
}

/** The first set member, or the first pair of a relation: the events a flag names. */
template <class Value> std::vector<int> firstWitness(const Value& val) {
    if (val.polymorphicEmpty) return {};
    if (val.isSet) {
        for (std::size_t i = 0; i < val.set.universe(); ++i)
            if (val.set.test(i)) return {static_cast<int>(i)};
        return {};
    }
    for (std::size_t i = 0; i < val.rel.size(); ++i)
        for (std::size_t j = 0; j < val.rel.size(); ++j)
            if (val.rel.test(i, j))
                return i == j ? std::vector<int>{static_cast<int>(i)}
                              : std::vector<int>{static_cast<int>(i), static_cast<int>(j)};
    return {};
}

} // namespace

bool isAcyclic(const BoolRel& r) {
    std::size_t n = r.size();
    std::vector<int> state(n, 0);
    std::function<bool(std::size_t)> cyclic = [&](std::size_t v) {
        state[v] = 1;
        bool found = false;
        r.forEachInRow(v, [&](std::size_t u) {
            if (!found && (state[u] == 1 || (state[u] == 0 && cyclic(u)))) found = true;
        });
        state[v] = 2;
        return found;
    };
    for (std::size_t v = 0; v < n; ++v)
        if (state[v] == 0 && cyclic(v)) return false;
    return true;
}

ConcreteModel::ConcreteModel(const ir::Program& p, const cat::ResolvedModel& model,
                             std::optional<cat::ReadingId> reading)
    : p_(p), model_(model), reading_(std::move(reading)), existsAll_(p.events.size()) {
    existsAll_.fill();
}

ConcreteModel ConcreteModel::underReading(std::optional<cat::ReadingId> reading) const {
    ConcreteModel out = *this;
    out.reading_ = std::move(reading);
    return out;
}

const BoolRel& ConcreteModel::staticRelation(ir::Rel rel) const {
    auto& rels = statics_->rels;
    auto it = rels.find(rel);
    if (it != rels.end()) return it->second;
    BoolRel r(p_.events.size());
    for (const auto& [a, c] : ir::staticRelation(p_, rel))
        r.set(at(a), at(c));
    return rels.emplace(rel, std::move(r)).first->second;
}

BoolSet ConcreteModel::baseSet(ir::Tag tag, const Outcome& o) const {
    BoolSet s(p_.events.size());
    if (tag == ir::Tag::MB_MISUSE) {
        for (int id : o.misuse)
            s.set(at(id));
        return s;
    }
    auto& sets = statics_->sets;
    auto it = sets.find(tag);
    if (it == sets.end()) {
        BoolSet members(p_.events.size());
        for (int id : ir::baseSet(p_, tag))
            members.set(at(id));
        it = sets.emplace(tag, members).first;
    }
    s = it->second;
    return s &= existing(o);
}

BoolSet ConcreteModel::existing(const Outcome& o) const {
    BoolSet e(p_.events.size());
    for (std::size_t i = 0; i < o.exists.size(); ++i)
        if (o.exists[i]) e.set(i);
    return e;
}

BoolRel ConcreteModel::baseRelation(ir::Rel rel, const Choices& c, const Outcome& o) const {
    std::size_t n = p_.events.size();
    BoolRel r(n);
    switch (rel) {
    case ir::Rel::Rf:
        for (const auto& [read, write] : c.rf)
            if (o.exists[at(read)]) r.set(at(write), at(read));
        return r;
    case ir::Rel::Co:
    case ir::Rel::Mbo:
        for (const auto& [loc, order] : rel == ir::Rel::Co ? c.co : c.mbo)
            addOrder(r, order);
        return r;
    case ir::Rel::Sc:
        addOrder(r, c.sc);
        return r;
    case ir::Rel::MbObs:
        for (const auto& [loc, order] : c.mbo)
            for (std::size_t i = 0; i < order.size(); ++i)
                for (std::size_t j = i + 1; j < order.size(); ++j) {
                    const ir::Event& a = p_.events[at(order[i])];
                    int b = order[j];
                    if (!mbarrier::mayBeObserved(a, p_.events[at(b)])) continue;
                    if (mbarrier::observedBy<ir::ConcreteValues>(true, o.waitSuccess.at(b),
                                                                 o.phaseBefore.at(a.id),
                                                                 o.observedPhase.at(b)))
                        r.set(at(a.id), at(b));
                }
        return r;
    default: // program-determined (ir::staticRelation lists every one), computed once
        break;
    }
    const BoolRel& s = staticRelation(rel);
    if (std::all_of(o.exists.begin(), o.exists.end(), [](bool b) { return b; })) return s;
    for (std::size_t i = 0; i < n; ++i) {
        if (!o.exists[i]) continue;
        s.forEachInRow(i, [&](std::size_t j) {
            if (o.exists[j]) r.set(i, j);
        });
    }
    return r;
}

Evaluator<BoolAlgebra> ConcreteModel::evaluator(const Choices& c, const Outcome& o) const {
    Evaluator<BoolAlgebra>::Base base{[this, &o](ir::Tag t) { return baseSet(t, o); },
                                      [this, &c, &o](ir::Rel r) { return baseRelation(r, c, o); },
                                      [this](const std::string& n) { return readingHolds(n); },
                                      {}};
    return Evaluator<BoolAlgebra>(alg_, p_.events.size(), model_, base);
}

/** Its base functions read the check's arguments: once the check returns, only its values are
 *  read (`Evaluator::reuse`). */
struct ConcreteModel::Evaluation {
    Choices choices;
    Outcome outcome;
    std::map<ir::Rel, BoolRel> rels;
    std::map<ir::Tag, BoolSet> sets;
    std::unique_ptr<Evaluator<BoolAlgebra>> ev;
};

const ConcreteModel::Evaluation* ConcreteModel::keptDefault(const Choices& c,
                                                            const Outcome& o) const {
    for (const auto& run : defaultRuns_->kept)
        if (run->choices == c && run->outcome == o) return run.get();
    return nullptr;
}

ConcreteVerdict ConcreteModel::check(const Choices& c, const Outcome& o,
                                     const std::set<std::string>& skip,
                                     bool stopAtFirstFailure) const {
    // Base relations are looked up many times while evaluating: compute each once.
    auto run = std::make_shared<Evaluation>();
    Evaluation& e = *run;
    Evaluator<BoolAlgebra>::Base base{[this, &e, &o](ir::Tag n) -> BoolSet {
                                          auto it = e.sets.find(n);
                                          if (it == e.sets.end())
                                              it = e.sets.emplace(n, baseSet(n, o)).first;
                                          return it->second;
                                      },
                                      [this, &e, &c, &o](ir::Rel n) -> BoolRel {
                                          auto it = e.rels.find(n);
                                          if (it == e.rels.end())
                                              it = e.rels.emplace(n, baseRelation(n, c, o)).first;
                                          return it->second;
                                      },
                                      [this](const std::string& n) { return readingHolds(n); },
                                      {}};
    e.ev = std::make_unique<Evaluator<BoolAlgebra>>(alg_, p_.events.size(), model_, base);
    Evaluator<BoolAlgebra>& ev = *e.ev;
    if (!reading_ && !model_.readings.empty() && defaultRuns_->kept.size() < kDefaultRunsKept &&
        keptDefault(c, o) == nullptr) {
        // Kept before evaluating: what this check evaluates is there for the readings after.
        e.choices = c;
        e.outcome = o;
        defaultRuns_->kept.push_back(run);
    } else if (reading_) {
        if (const Evaluation* kept = keptDefault(c, o)) {
            if (!defaultRuns_->reach)
                defaultRuns_->reach = std::make_unique<cat::ReadingReach>(model_);
            ev.reuse(*kept->ev, *defaultRuns_->reach, {reading_->modelFile()});
        }
    }
    auto holds = [&](const cat::Axiom& a) {
        auto val = ev.eval(*a.expr);
        bool ok = true;
        if (val.polymorphicEmpty) {
            ok = true;
        } else if (val.isSet) {
            ok = val.set.none();
        } else if (a.test == cat::Stmt::Test::Acyclic) {
            ok = isAcyclic(val.rel);
        } else if (a.test == cat::Stmt::Test::Irreflexive) {
            for (std::size_t i = 0; i < val.rel.size() && ok; ++i)
                ok = !val.rel.test(i, i);
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
    for (const auto& a : model_.axioms) {
        if (!a.flag || !holds(a)) continue;
        v.flags.push_back(a.name);
        v.flagWitness[a.name] = firstWitness(ev.eval(*a.expr));
    }
    return v;
}

} // namespace ptxmc::engine
