// Unit propagation of closure lemmas and cycle detection inside Z3's search (see the header).
#include "smt/ClosurePropagator.hpp"

#include <algorithm>
#include <stdexcept>

namespace ptxmc::engine::smt {

ClosurePropagator::ClosurePropagator(z3::solver& solver) : solver_(solver) {
    z3::context& ctx = solver.ctx();
    Z3_solver_propagate_init(ctx, solver, this, pushEh, popEh, freshEh);
    Z3_solver_propagate_fixed(ctx, solver, fixedEh);
    Z3_solver_propagate_final(ctx, solver, finalEh);
}

void ClosurePropagator::pushEh(void* self) {
    static_cast<ClosurePropagator*>(self)->push();
}

void ClosurePropagator::popEh(void* self, unsigned scopes) {
    static_cast<ClosurePropagator*>(self)->pop(scopes);
}

void ClosurePropagator::fixedEh(void* self, Z3_solver_callback cb, unsigned id, Z3_ast value) {
    auto* p = static_cast<ClosurePropagator*>(self);
    p->callback_ = cb;
    p->onFixed(id, Z3_get_bool_value(p->solver_.ctx(), value) == Z3_L_TRUE);
    p->callback_ = nullptr;
}

void ClosurePropagator::finalEh(void* self, Z3_solver_callback cb) {
    auto* p = static_cast<ClosurePropagator*>(self);
    p->callback_ = cb;
    p->onFinal();
    p->callback_ = nullptr;
}

void ClosurePropagator::onFinal() {
    // Every registered condition has its value by now; a lemma the watches missed is fired here.
    for (const Lemma& lemma : lemmas_)
        fire(lemma);
    // So does an edge whose activation a conflict cut short; then no enabled graph has a cycle.
    for (Acyclic& g : acyclic_) {
        if (!holds(g.enabled)) continue;
        if (!activateHolding(g)) return;
        if (auto cycle = g.graph.findCycle()) return conflict(g, *cycle);
    }
}

void ClosurePropagator::addAcyclic(const z3::expr& enabled, std::size_t nodes,
                                   const std::vector<GraphEdge>& edges) {
    const auto index = static_cast<unsigned>(acyclic_.size());
    acyclic_.push_back(Acyclic{CycleWatch(nodes), literalOf(enabled), {}, {}});
    Acyclic& g = acyclic_.back();
    enableWatches_[g.enabled.var].push_back(index);
    for (const GraphEdge& e : edges) {
        const int k = g.graph.addEdge(e.from, e.to);
        if (e.cond.is_true()) {
            g.edge.push_back({kNone, true});
            g.graph.activate(k); // certain: active from the start, never undone
            continue;
        }
        g.edge.push_back(literalOf(e.cond));
        edgeWatches_[g.edge.back().var].emplace_back(index, k);
    }
}

bool ClosurePropagator::activateHolding(Acyclic& g) {
    for (std::size_t k = 0; k < g.edge.size(); ++k) {
        const Literal& l = g.edge[k];
        if (l.var == kNone || !holds(l) || g.graph.active(static_cast<int>(k))) continue;
        if (auto cycle = g.graph.activate(static_cast<int>(k))) {
            conflict(g, *cycle);
            return false;
        }
    }
    return true;
}

void ClosurePropagator::justifyByPath(const Acyclic& g, const std::vector<int>& path) {
    justification_.clear();
    justification_.push_back(idOf_[g.enabled.var]);
    for (int e : path) {
        const Literal& l = g.edge[static_cast<std::size_t>(e)];
        if (l.var != kNone) justification_.push_back(idOf_[l.var]);
    }
    std::sort(justification_.begin(), justification_.end());
    justification_.erase(std::unique(justification_.begin(), justification_.end()),
                         justification_.end());
}

void ClosurePropagator::conflict(const Acyclic& g, const std::vector<int>& cycle) {
    justifyByPath(g, cycle);
    ++cycleConflicts_;
    consequence(solver_.ctx().bool_val(false));
}

void ClosurePropagator::excludeClosers(Acyclic& g, int edge) {
    auto open = [&](int e) { // not certain, not yet decided
        const Literal& l = g.edge[static_cast<std::size_t>(e)];
        return l.var != kNone && value_[l.var] == -1;
    };
    for (const CycleWatch::Closer& c : g.graph.closers(edge, open)) {
        const Literal& l = g.edge[static_cast<std::size_t>(c.edge)];
        justifyByPath(g, c.path);
        ++exclusions_;
        consequence(l.positive ? !exprs_[l.var] : exprs_[l.var]);
    }
}

bool ClosurePropagator::cyclicIn(const z3::model& m) const {
    for (const Acyclic& g : acyclic_) {
        auto holdsIn = [&](const Literal& l) {
            return m.eval(exprs_[l.var], true).is_true() == l.positive;
        };
        if (!holdsIn(g.enabled)) continue;
        CycleWatch copy(g.graph);
        copy.stopOrdering();
        copy.undoTo(0);
        for (std::size_t k = 0; k < g.edge.size(); ++k)
            if (g.edge[k].var == kNone || holdsIn(g.edge[k])) copy.activate(static_cast<int>(k));
        if (copy.findCycle()) return true;
    }
    return false;
}

unsigned ClosurePropagator::varOf(Z3_ast constant) {
    // Indexed by Z3's ast id (ids are dense, and reused only after an ast is gone: these are
    // kept alive by exprs_): the lemmas' literals look up millions of times.
    const unsigned ast = Z3_get_ast_id(solver_.ctx(), constant);
    if (ast >= varByAst_.size())
        varByAst_.resize(std::max<std::size_t>(ast + 1, varByAst_.size() * 2), kNone);
    if (varByAst_[ast] != kNone) return varByAst_[ast];
    auto var = static_cast<unsigned>(exprs_.size());
    varByAst_[ast] = var;
    const z3::expr e(solver_.ctx(), constant);
    const unsigned id = Z3_solver_propagate_register(solver_.ctx(), solver_, e);
    if (id >= varById_.size()) varById_.resize(id + 1, kNone);
    varById_[id] = var;
    idOf_.push_back(id);
    exprs_.push_back(e);
    value_.push_back(-1);
    watches_.emplace_back();
    edgeWatches_.emplace_back();
    enableWatches_.emplace_back();
    return var;
}

ClosurePropagator::Literal ClosurePropagator::literalOf(const z3::expr& atom) {
    // Through Z3's C API: the C++ wrappers count references on every decl and argument read.
    Z3_context c = solver_.ctx();
    if (Z3_get_ast_kind(c, atom) == Z3_APP_AST) {
        Z3_app app = Z3_to_app(c, atom);
        if (Z3_get_decl_kind(c, Z3_get_app_decl(c, app)) == Z3_OP_NOT)
            return {varOf(Z3_get_app_arg(c, app, 0)), false};
    }
    return {varOf(atom), true};
}

void ClosurePropagator::add(const StepLemma& lemma) {
    Lemma l;
    for (const z3::expr& a : lemma.antecedents)
        l.antecedents.push_back(literalOf(a));
    Literal head = literalOf(lemma.head);
    if (!head.positive) throw std::logic_error("a closure lemma's head is a fresh condition");
    l.head = head.var;
    auto index = static_cast<unsigned>(lemmas_.size());
    for (const Literal& a : l.antecedents)
        watches_[a.var].push_back(index);
    // A head assigned false after its antecedents held (the head was true when they came, then
    // the search backtracked over it) is a conflict: the head watches its lemmas too.
    watches_[l.head].push_back(index);
    lemmas_.push_back(std::move(l));
}

std::size_t ClosurePropagator::violatedBy(const z3::model& m) const {
    std::size_t violated = 0;
    for (const Lemma& l : lemmas_) {
        bool all = true;
        for (const Literal& a : l.antecedents)
            all = all && m.eval(exprs_[a.var], true).is_true() == a.positive;
        if (all && !m.eval(exprs_[l.head], true).is_true()) ++violated;
    }
    return violated;
}

void ClosurePropagator::push() {
    scopes_.push_back(trail_.size());
    for (Acyclic& g : acyclic_)
        g.marks.push_back(g.graph.mark());
}

void ClosurePropagator::pop(unsigned scopes) {
    // Z3 pops only scopes it pushed after the propagator was made: the clamp keeps a stray pop
    // from reading outside the record.
    const std::size_t popped = std::min<std::size_t>(scopes, scopes_.size());
    const std::size_t keep = popped == 0 ? trail_.size() : scopes_[scopes_.size() - popped];
    scopes_.resize(scopes_.size() - popped);
    while (trail_.size() > keep) {
        value_[trail_.back()] = -1;
        trail_.pop_back();
    }
    for (Acyclic& g : acyclic_) {
        if (popped > 0) {
            g.graph.undoTo(g.marks[g.marks.size() - popped]);
            g.marks.resize(g.marks.size() - popped);
        }
        if (!holds(g.enabled)) g.graph.stopOrdering();
    }
}

bool ClosurePropagator::holds(const Literal& l) const {
    return value_[l.var] == (l.positive ? 1 : 0);
}

void ClosurePropagator::onFixed(unsigned id, bool value) {
    const unsigned var = id < varById_.size() ? varById_[id] : kNone;
    if (var == kNone) return;
    value_[var] = value ? 1 : 0;
    trail_.push_back(var);
    for (unsigned index : watches_[var])
        fire(lemmas_[index]);
    for (const auto& [index, edge] : edgeWatches_[var]) {
        Acyclic& g = acyclic_[index];
        if (!holds(g.edge[static_cast<std::size_t>(edge)])) continue;
        if (auto cycle = g.graph.activate(edge)) return conflict(g, *cycle);
        if (g.graph.ordering()) excludeClosers(g, edge);
    }
    for (unsigned index : enableWatches_[var]) {
        Acyclic& g = acyclic_[index];
        if (!holds(g.enabled)) continue;
        if (auto cycle = g.graph.startOrdering()) return conflict(g, *cycle);
    }
}

void ClosurePropagator::fire(const Lemma& lemma) {
    const signed char head = value_[lemma.head];
    if (head == 1) return;
    // Unit propagation of the clause (not a | not b | head): forwards to the head, or, with the
    // head false, backwards to the one antecedent still open.
    justification_.clear();
    const Literal* open = nullptr;
    for (const Literal& a : lemma.antecedents) {
        if (holds(a)) {
            justification_.push_back(idOf_[a.var]);
        } else if (value_[a.var] != -1 || open != nullptr || head != 0) {
            return; // false, or a second open one: nothing follows yet
        } else {
            open = &a;
        }
    }
    ++propagations_;
    if (head == -1) {
        consequence(exprs_[lemma.head]);
        return;
    }
    justification_.push_back(idOf_[lemma.head]);
    if (open == nullptr) {
        consequence(solver_.ctx().bool_val(false));
        return;
    }
    consequence(open->positive ? !exprs_[open->var] : exprs_[open->var]);
}

void ClosurePropagator::consequence(const z3::expr& e) {
    Z3_solver_propagate_consequence(solver_.ctx(), callback_,
                                    static_cast<unsigned>(justification_.size()),
                                    justification_.data(), 0, nullptr, nullptr, e);
}

} // namespace ptxmc::engine::smt
