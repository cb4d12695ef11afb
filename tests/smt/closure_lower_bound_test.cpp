// RelOps::plusAtLeast: the least choice of its fresh conditions is exactly the closure, with the
// lower bounds as clauses and propagated lazily (smt/ClosurePropagator.hpp).
#include "engine/Relation.hpp"
#include "smt/ClosurePropagator.hpp"
#include "smt/ClosureRecord.hpp"
#include "smt/Z3Algebra.hpp"
#include "smt/Z3Context.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <set>

using namespace ptxmc::engine;
using namespace ptxmc::engine::smt;

namespace {

using Dense = std::vector<std::vector<bool>>;

Dense closure(Dense d) { // Warshall
    std::size_t n = d.size();
    for (std::size_t k = 0; k < n; ++k)
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j)
                d[i][j] = d[i][j] || (d[i][k] && d[k][j]);
    return d;
}

/** Every lemma of the records: each fresh pair's, as the lemma cone would make them. */
std::vector<StepLemma> everyLemma(const std::vector<ClosureRecord>& closures) {
    std::vector<StepLemma> out;
    for (std::uint32_t r = 0; r < closures.size(); ++r)
        for (std::size_t x = 0; x < closures[r].pairs.rows.size(); ++x)
            for (const auto& [z, cond] : closures[r].pairs.rows[x])
                if (!cond.is_true() && closures[r].isHead(static_cast<int>(x), z))
                    closures[r].lemmasOf(r, static_cast<int>(x), z,
                                         [&](const ClosureRecord::Key&, StepLemma l) {
                                             out.push_back(std::move(l));
                                         });
    return out;
}

/** A graph to close: the relation, and the value the solver is told each edge has. */
struct Graph {
    SparseRel<z3::expr> rel;
    Dense chosen;
};

/** A possible edge with a composite condition, as derived relations have, told `on`. */
void addPossible(Z3Context& ctx, z3::solver& s, Graph& g, std::size_t i, std::size_t j, bool on) {
    z3::expr a = ctx.bool_const(("a" + std::to_string(i) + "_" + std::to_string(j)).c_str());
    z3::expr b = ctx.bool_const(("b" + std::to_string(i) + "_" + std::to_string(j)).c_str());
    g.rel.rows[i].emplace(static_cast<int>(j), a && !b);
    g.chosen[i][j] = on;
    s.add(on ? a && !b : !a);
}

void addCertain(Z3Context& ctx, Graph& g, std::size_t i, std::size_t j) {
    g.rel.rows[i].insert_or_assign(static_cast<int>(j), ctx.bool_val(true));
    g.chosen[i][j] = true;
}

/** Any edges, each possible or certain. */
Graph randomGraph(Z3Context& ctx, z3::solver& s, std::size_t n, std::mt19937& rng) {
    Graph g{SparseRel<z3::expr>(n), Dense(n, std::vector<bool>(n, false))};
    std::bernoulli_distribution present(0.4), certain(0.3), value(0.5);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            if (!present(rng)) continue;
            if (certain(rng))
                addCertain(ctx, g, i, j); // an edge the program fixes
            else
                addPossible(ctx, s, g, i, j, value(rng));
        }
    return g;
}

/** Threads in program order (certain and transitive, as `po` is) and a few possible edges
 *  between them, as synchronization gives: most events pass through a chain. */
Graph threadGraph(Z3Context& ctx, z3::solver& s, std::size_t n, std::mt19937& rng) {
    Graph g{SparseRel<z3::expr>(n), Dense(n, std::vector<bool>(n, false))};
    std::uniform_int_distribution<std::size_t> threads(1, 3);
    const std::size_t t = threads(rng);
    std::vector<std::size_t> thread(n);
    for (std::size_t i = 0; i < n; ++i)
        thread[i] = i * t / n;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j)
            if (thread[i] == thread[j]) addCertain(ctx, g, i, j);
    std::bernoulli_distribution present(0.12), value(0.5);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            if (thread[i] != thread[j] && present(rng)) addPossible(ctx, s, g, i, j, value(rng));
    return g;
}

/** plusAtLeast's pairs, with every lemma as a clause or (lazy) through the records and the
 *  propagator: every closure pair forced, every other free to be false, all at once. Returns
 *  how many lemmas the propagator was given. */
template <class MakeGraph>
std::size_t requireExactLeastClosure(std::size_t n, bool lazy, std::mt19937& rng,
                                     MakeGraph&& make) {
    Z3Context ctx;
    z3::expr_vector lemmas(ctx);
    std::vector<ClosureRecord> closures;
    Z3Algebra alg{ctx, &lemmas, nullptr, &ctx.freshNames};
    if (lazy) alg.closures = &closures;
    RelOps<Z3Algebra> ops{alg, n};
    z3::solver s(ctx, z3::solver::simple());
    Graph g = make(ctx, s, n, rng);
    SparseRel<z3::expr> tc = ops.plusAtLeast(g.rel);
    for (unsigned k = 0; k < lemmas.size(); ++k)
        s.add(lemmas[k]);
    ClosurePropagator propagator(s);
    std::vector<StepLemma> steps = everyLemma(closures);
    for (const StepLemma& step : steps)
        propagator.add(step);
    REQUIRE(propagator.lemmas() == steps.size());
    if (lazy) CHECK(steps.size() == closures.at(0).lemmaCount);
    Dense exact = closure(g.chosen);
    z3::expr_vector outside(ctx);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            auto it = tc.rows[i].find(static_cast<int>(j));
            if (exact[i][j]) {
                REQUIRE(it != tc.rows[i].end()); // every closure pair is possible
                s.push();
                s.add(!it->second);
                REQUIRE(s.check() == z3::unsat); // and forced
                s.pop();
            } else if (it != tc.rows[i].end()) {
                outside.push_back(!it->second);
            }
        }
    // All pairs outside the closure can be false at once: the least solution is exact.
    REQUIRE(s.check(outside) == z3::sat);
    CHECK(propagator.violatedBy(s.get_model()) == 0);
    return steps.size();
}

/** How many distinct conditions that are not true a relation's pairs have. */
std::size_t distinctOpen(const SparseRel<z3::expr>& r) {
    std::set<unsigned> ids;
    for (const auto& row : r.rows)
        for (const auto& [z, c] : row)
            if (!c.is_true()) ids.insert(c.id());
    return ids.size();
}

} // namespace

TEST_CASE("closure lower bounds: forced exactly on the closure, free to be false elsewhere",
          "[z3]") {
    std::mt19937 rng(11);
    std::size_t propagated = 0; // lemmas the lazy rounds left to the propagator
    for (int round = 0; round < 160; ++round) {
        const bool lazy = round % 2 == 1; // the same graphs' kind, every other round propagated
        const std::size_t n = 2 + static_cast<std::size_t>(round / 2 % 7);
        propagated += requireExactLeastClosure(n, lazy, rng, randomGraph);
    }
    CHECK(propagated > 0);
}

TEST_CASE("closure lower bounds through program-order chains: still exact, with fewer "
          "conditions and lemmas",
          "[z3]") {
    std::mt19937 rng(23);
    std::size_t propagated = 0;
    for (int round = 0; round < 120; ++round) {
        const bool lazy = round % 2 == 1;
        const std::size_t n = 3 + static_cast<std::size_t>(round / 2 % 10);
        propagated += requireExactLeastClosure(n, lazy, rng, threadGraph);
    }
    CHECK(propagated > 0);
    // Two threads of 10 events, one possible edge each way between their middles: only the
    // branching ends (the edges' ends) get conditions of their own.
    Z3Context ctx;
    z3::expr_vector lemmas(ctx);
    Z3Algebra alg{ctx, &lemmas, nullptr, &ctx.freshNames};
    const std::size_t n = 20;
    RelOps<Z3Algebra> ops{alg, n};
    SparseRel<z3::expr> r(n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < (i < 10 ? 10 : n); ++j)
            r.rows[i].emplace(static_cast<int>(j), ctx.bool_val(true));
    r.rows[4].emplace(15, ctx.bool_const("sw1"));
    r.rows[14].emplace(5, ctx.bool_const("sw2"));
    SparseRel<z3::expr> tc = ops.plusAtLeast(r);
    // Pairs that no certain path joins: 0..4 -> 15..19 through sw1, 10..14 -> 5..9 through sw2.
    std::size_t open = 0;
    for (const auto& row : tc.rows)
        for (const auto& [z, c] : row)
            open += c.is_true() ? 0 : 1;
    CHECK(open == 50);
    // Branching ends: 4 and 14 out (two edges each), 5 and 15 in; their pairs (4, 5), (4, 15),
    // (14, 5), (14, 15), less the certain (4, 5) and (14, 15).
    CHECK(distinctOpen(tc) == 2);
}
