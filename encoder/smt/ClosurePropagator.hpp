// The closure lemmas of fresh conditions and the acyclicity graphs, in one Z3 user propagator.
#pragma once

#include "smt/CycleWatch.hpp"

#include <cstddef>
#include <vector>
#include <z3++.h>

namespace ptxmc::engine::smt {

/**
 * One lower-bound lemma of a closure (Relation.hpp, plusAtLeast): when every antecedent holds,
 * the head holds. The antecedents are the edge's condition and, for a step, the closure's pair
 * it extends; each is a constant or a literal, the head a fresh condition.
 */
struct StepLemma {
    std::vector<z3::expr> antecedents;
    z3::expr head;

    /** The lemma as a clause: (or head (not a) ...). */
    z3::expr clause() const {
        z3::expr_vector lits(head.ctx());
        lits.push_back(head);
        for (const z3::expr& a : antecedents)
            lits.push_back(!a);
        return z3::mk_or(lits);
    }
};

/** A possible edge of an acyclicity axiom: its ends and its condition (true or a literal). */
struct GraphEdge {
    int from = 0, to = 0;
    z3::expr cond;
};

/**
 * Unit propagation of StepLemmas inside Z3's search, without the lemmas as clauses: the
 * solver's intake of hundreds of thousands of closure clauses grew faster than their number
 * (bench/history.md). A lemma whose antecedents are all true propagates its head, justified by
 * them; with its head false, the one antecedent still open is propagated false, and all of
 * them true is a conflict: what the clause's unit propagation does. The answers are those of
 * the clauses: the same lemmas hold in every model the solver returns.
 */
class ClosurePropagator {
public:
    /** Registers with `solver` (Z3's C API: the C++ wrapper of Z3 4.8 never initializes a
     *  propagator); the solver must not outlive it. */
    explicit ClosurePropagator(z3::solver& solver);
    ClosurePropagator(const ClosurePropagator&) = delete;
    ClosurePropagator& operator=(const ClosurePropagator&) = delete;

    /** Watches `lemma`'s antecedents (call before the first check). */
    void add(const StepLemma& lemma);
    /**
     * Watches an acyclicity axiom (call before the first check): while `enabled` (a literal)
     * holds, the edges whose condition holds form no cycle. A cycle is a conflict justified by
     * its edges' literals and `enabled`, found when its last edge comes (smt/CycleWatch.hpp):
     * no integer clock per event and no constraint per edge. Self-loops are the caller's.
     */
    void addAcyclic(const z3::expr& enabled, std::size_t nodes,
                    const std::vector<GraphEdge>& edges);
    /** How many cycles the acyclicity axioms' graphs reported as conflicts, over every query. */
    std::size_t cycleConflicts() const { return cycleConflicts_; }
    /** How many edges the graphs kept out because they would have closed a cycle. */
    std::size_t exclusions() const { return exclusions_; }
    /** Whether `m` gives some watched axiom's graph a cycle of edges that hold while it is
     *  enabled (never, in a model of the solver it propagates for). */
    bool cyclicIn(const z3::model& m) const;

    std::size_t lemmas() const { return lemmas_.size(); }
    /** The conditions the lemmas are over (they are in no assertion of the solver). */
    const std::vector<z3::expr>& watched() const { return exprs_; }
    /** How many lemmas `m` violates (none in a model of the solver it propagates for). */
    std::size_t violatedBy(const z3::model& m) const;
    std::size_t propagations() const { return propagations_; }

private:
    /** A registered Boolean constant and the polarity under which a literal over it holds. */
    struct Literal {
        unsigned var = 0;
        bool positive = true;
    };
    struct Lemma {
        std::vector<Literal> antecedents;
        unsigned head = 0;
    };

    static void pushEh(void* self);
    static void popEh(void* self, unsigned scopes);
    /** For a copy of the solver in another context, which ptxmc never makes. */
    static void* freshEh(void*, Z3_context) { return nullptr; }
    static void fixedEh(void* self, Z3_solver_callback cb, unsigned id, Z3_ast value);
    static void finalEh(void* self, Z3_solver_callback cb);

    void push();
    void pop(unsigned scopes);
    unsigned varOf(Z3_ast constant);
    Literal literalOf(const z3::expr& atom);
    bool holds(const Literal& l) const;
    void onFixed(unsigned id, bool value);
    void fire(const Lemma& lemma);
    void onFinal();
    /** Tells Z3 that `e` follows from the literals in justification_. */
    void consequence(const z3::expr& e);

    std::vector<unsigned> varByAst_; ///< Z3 ast id -> registered var (kNone: none)
    static constexpr unsigned kNone = ~0U;
    std::vector<z3::expr> exprs_;     ///< registered var -> its constant
    std::vector<unsigned> idOf_;      ///< var -> Z3's id for it
    std::vector<unsigned> varById_;   ///< Z3's id -> var (kNone: not ours)
    std::vector<signed char> value_;  ///< per var: -1 unassigned, 0, 1
    std::vector<unsigned> trail_;     ///< vars assigned, in order
    std::vector<std::size_t> scopes_; ///< trail_ size at each push
    std::vector<Lemma> lemmas_;
    std::vector<std::vector<unsigned>> watches_; ///< per var: lemmas it is in
    /** An acyclicity axiom: its graph, the literal that enables it, each edge's literal (var
     *  kNone: a certain edge), and the graph's mark at each push. */
    struct Acyclic {
        CycleWatch graph;
        Literal enabled;
        std::vector<Literal> edge;
        std::vector<std::size_t> marks;
    };
    /** Propagates false to each open edge that `edge` of `g` makes close a cycle. */
    void excludeClosers(Acyclic& g, int edge);
    /** justification_: the literals of `path`'s edges (indices of `g`) and g's enabling one. */
    void justifyByPath(const Acyclic& g, const std::vector<int>& path);
    /** Reports `cycle` (edge indices of `g`) as a conflict. */
    void conflict(const Acyclic& g, const std::vector<int>& cycle);
    /** Activates the edges of `g` whose literals hold (all the final check needs); false
     *  after a conflict. */
    bool activateHolding(Acyclic& g);

    std::vector<unsigned> justification_;
    std::vector<Acyclic> acyclic_;
    std::vector<std::vector<std::pair<unsigned, int>>> edgeWatches_; ///< per var: (graph, edge)
    std::vector<std::vector<unsigned>> enableWatches_;               ///< per var: graphs it enables
    std::size_t cycleConflicts_ = 0, exclusions_ = 0;
    std::size_t propagations_ = 0;
    z3::solver& solver_;
    Z3_solver_callback callback_ = nullptr; ///< set while Z3 is in one of the callbacks
};

} // namespace ptxmc::engine::smt
