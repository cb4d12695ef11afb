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
                if (!cond.is_true())
                    closures[r].lemmasOf(r, static_cast<int>(x), z,
                                         [&](const ClosureRecord::Key&, StepLemma l) {
                                             out.push_back(std::move(l));
                                         });
    return out;
}

} // namespace

TEST_CASE("closure lower bounds: forced exactly on the closure, free to be false elsewhere",
          "[z3]") {
    std::mt19937 rng(11);
    std::size_t propagated = 0; // lemmas the lazy rounds left to the propagator
    for (int round = 0; round < 160; ++round) {
        const bool lazy = round % 2 == 1; // the same graphs' kind, every other round propagated
        Z3Context ctx;
        z3::expr_vector lemmas(ctx);
        std::vector<ClosureRecord> closures;
        Z3Algebra alg{ctx, &lemmas, nullptr, &ctx.freshNames};
        if (lazy) alg.closures = &closures;
        std::size_t n = 2 + static_cast<std::size_t>(round / 2 % 7);
        RelOps<Z3Algebra> ops{alg, n};
        std::bernoulli_distribution present(0.4), certain(0.3), value(0.5);
        SparseRel<z3::expr> r(n);
        Dense chosen(n, std::vector<bool>(n, false));
        z3::solver s(ctx, z3::solver::simple());
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                if (!present(rng)) continue;
                if (certain(rng)) { // an edge the program fixes
                    r.rows[i].emplace(static_cast<int>(j), ctx.bool_val(true));
                    chosen[i][j] = true;
                    continue;
                }
                // A composite condition, as derived relations have.
                z3::expr a =
                    ctx.bool_const(("a" + std::to_string(i) + "_" + std::to_string(j)).c_str());
                z3::expr b =
                    ctx.bool_const(("b" + std::to_string(i) + "_" + std::to_string(j)).c_str());
                r.rows[i].emplace(static_cast<int>(j), a && !b);
                bool on = value(rng);
                chosen[i][j] = on;
                s.add(on ? a && !b : !a);
            }
        SparseRel<z3::expr> tc = ops.plusAtLeast(r);
        for (unsigned k = 0; k < lemmas.size(); ++k)
            s.add(lemmas[k]);
        ClosurePropagator propagator(s);
        std::vector<StepLemma> steps = everyLemma(closures);
        for (const StepLemma& step : steps)
            propagator.add(step);
        REQUIRE(propagator.lemmas() == steps.size());
        if (lazy) CHECK(steps.size() == closures.at(0).lemmaCount);
        propagated += steps.size();
        Dense exact = closure(chosen);
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
    }
    CHECK(propagated > 0);
}
