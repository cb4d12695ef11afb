// smt::ClosurePropagator: closure lemmas propagated in the search answer as their clauses do.
#include "engine/Relation.hpp"
#include "smt/ClosurePropagator.hpp"
#include "smt/LemmaCone.hpp"
#include "smt/Z3Algebra.hpp"

#include <catch2/catch.hpp>
#include <random>

using namespace ptxmc::engine;
using namespace ptxmc::engine::smt;

namespace {

/** A relation over `n` nodes whose pairs are free Booleans e_i_j, each with probability p. */
Representation<Z3Algebra>::Rel randomEdges(z3::context& ctx, std::size_t n, double p,
                                           std::mt19937& rng) {
    Representation<Z3Algebra>::Rel r(n);
    std::bernoulli_distribution pick(p);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            if (pick(rng))
                r.rows[i].emplace(
                    static_cast<int>(j),
                    ctx.bool_const(("e_" + std::to_string(i) + "_" + std::to_string(j)).c_str()));
    return r;
}

/** Whether a path of edges that `on` keeps joins x to z. */
bool path(const Representation<Z3Algebra>::Rel& edges, const std::vector<std::vector<bool>>& on,
          std::size_t x, std::size_t z) {
    std::vector<bool> seen(edges.size(), false);
    std::vector<std::size_t> todo{x};
    while (!todo.empty()) {
        std::size_t at = todo.back();
        todo.pop_back();
        for (const auto& [to, c] : edges.rows[at]) {
            auto t = static_cast<std::size_t>(to);
            if (!on[at][t] || seen[t]) continue;
            if (t == z) return true;
            seen[t] = true;
            todo.push_back(t);
        }
    }
    return false;
}

} // namespace

TEST_CASE("a lazily propagated closure holds exactly where a path of true edges does",
          "[closure-propagator]") {
    std::mt19937 rng(2026);
    for (int round = 0; round < 12; ++round) {
        const bool lazy = round % 3 != 0; // every third round the clauses, for comparison
        z3::context ctx;
        const std::size_t n = 6;
        auto edges = randomEdges(ctx, n, 0.3, rng);
        z3::expr_vector lemmas(ctx);
        std::vector<StepLemma> steps;
        Z3Algebra alg{ctx, &lemmas};
        if (lazy) alg.steps = &steps;
        auto closure = Representation<Z3Algebra>::ops(alg, n).plusAtLeast(edges);
        z3::solver s(ctx, z3::solver::simple());
        for (unsigned i = 0; i < lemmas.size(); ++i)
            s.add(lemmas[i]);
        ClosurePropagator propagator(s);
        for (const StepLemma& l : steps)
            propagator.add(l);
        REQUIRE(propagator.lemmas() == steps.size());
        REQUIRE(steps.empty() != lazy);
        // Random edge sets as assumptions: a closure pair can be false iff no path joins it.
        std::bernoulli_distribution on(0.5);
        for (int trial = 0; trial < 4; ++trial) {
            std::vector<std::vector<bool>> chosen(n, std::vector<bool>(n, false));
            z3::expr_vector assumed(ctx);
            for (std::size_t i = 0; i < n; ++i)
                for (const auto& [j, c] : edges.rows[i]) {
                    chosen[i][static_cast<std::size_t>(j)] = on(rng);
                    assumed.push_back(chosen[i][static_cast<std::size_t>(j)] ? c : !c);
                }
            for (std::size_t x = 0; x < n; ++x)
                for (const auto& [z, c] : closure.rows[x]) {
                    z3::expr_vector q(ctx); // copies of an expr_vector share its contents
                    for (unsigned k = 0; k < assumed.size(); ++k)
                        q.push_back(assumed[k]);
                    q.push_back(!c);
                    const bool joined = path(edges, chosen, x, static_cast<std::size_t>(z));
                    CHECK(s.check(q) == (joined ? z3::unsat : z3::sat));
                }
        }
        // Satisfiable with no assumptions; a model's closure contains its edges' paths.
        REQUIRE(s.check() == z3::sat);
        z3::model m = s.get_model();
        std::vector<std::vector<bool>> model(n, std::vector<bool>(n, false));
        for (std::size_t i = 0; i < n; ++i)
            for (const auto& [j, c] : edges.rows[i])
                model[i][static_cast<std::size_t>(j)] = m.eval(c, true).is_true();
        for (std::size_t x = 0; x < n; ++x)
            for (const auto& [z, c] : closure.rows[x])
                if (path(edges, model, x, static_cast<std::size_t>(z)))
                    CHECK(m.eval(c, true).is_true());
        CHECK(propagator.violatedBy(m) == 0);
    }
}

TEST_CASE("the cone keeps the steps whose heads a check reads, and what they assume",
          "[closure-propagator]") {
    z3::context ctx;
    z3::expr_vector lemmas(ctx);
    std::vector<StepLemma> steps;
    Z3Algebra alg{ctx, &lemmas};
    alg.steps = &steps;
    z3::expr x = ctx.bool_const("x"), y = ctx.bool_const("y");
    z3::expr a = alg.fresh(), b = alg.fresh(), unused = alg.fresh(), named = alg.fresh();
    alg.require(alg.implies(x, named)); // a clause: named >= x
    alg.requireStep({named, alg.tru()}, a);
    alg.requireStep({a, y}, b);
    alg.requireStep({y, alg.tru()}, unused);
    alg.requireStep({alg.tru(), alg.tru()}, x); // no open antecedent: a clause
    REQUIRE(steps.size() == 3);
    REQUIRE(lemmas.size() == 2);
    z3::expr_vector roots(ctx);
    roots.push_back(!b);
    Cone cone = lemmaCone(roots, lemmas, steps, Z3Algebra::isFresh);
    CHECK(cone.steps == std::vector<std::size_t>{0, 1});
    CHECK(cone.lemmas == std::vector<std::size_t>{0, 1});
}
