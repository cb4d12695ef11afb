// The Z3 encodings of acyclic and closure: satisfiable exactly for the acyclic edge choices.
#include "engine/Relation.hpp"
#include "smt/AxiomEncoder.hpp"
#include "smt/Z3Algebra.hpp"

#include <catch2/catch.hpp>
#include <random>

using namespace ptxmc::engine;
using namespace ptxmc::engine::smt;

namespace {

bool hasCycle(const std::vector<std::vector<bool>>& g) {
    std::size_t n = g.size();
    std::vector<int> state(n, 0);
    std::function<bool(std::size_t)> visit = [&](std::size_t v) {
        state[v] = 1;
        for (std::size_t w = 0; w < n; ++w)
            if (g[v][w] && (state[w] == 1 || (state[w] == 0 && visit(w)))) return true;
        state[v] = 2;
        return false;
    };
    for (std::size_t v = 0; v < n; ++v)
        if (state[v] == 0 && visit(v)) return true;
    return false;
}

} // namespace

TEST_CASE("acyclic encoding is exact on random symbolic graphs", "[z3]") {
    std::mt19937 rng(7);
    for (int round = 0; round < 60; ++round) {
        z3::context ctx;
        std::size_t n = 2 + static_cast<std::size_t>(round % 6);
        Z3Rel r(n);
        std::vector<std::vector<z3::expr>> vars;
        std::bernoulli_distribution present(0.5), value(0.5);
        std::vector<std::vector<bool>> chosen(n, std::vector<bool>(n, false));
        z3::solver s(ctx);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                if (!present(rng)) continue;
                z3::expr v =
                    ctx.bool_const(("e" + std::to_string(i) + "_" + std::to_string(j)).c_str());
                r.rows[i].emplace(static_cast<int>(j), v);
                bool on = value(rng);
                chosen[i][j] = on;
                s.add(on ? v : !v);
            }
        s.add(encodeAcyclic(ctx, r, "t"));
        REQUIRE((s.check() == z3::sat) == !hasCycle(chosen));
        // ~acyclic through the closure: a loop in r+ exactly when there is a cycle.
        z3::solver s2(ctx);
        Z3Algebra alg{ctx};
        RelOps<Z3Algebra> ops{alg, n};
        for (std::size_t i = 0; i < n; ++i)
            for (const auto& [j, v] : r.rows[i])
                s2.add(chosen[i][static_cast<std::size_t>(j)] ? v : !v);
        s2.add(!encodeIrreflexive(ctx, ops.plus(r)));
        REQUIRE((s2.check() == z3::sat) == hasCycle(chosen));
    }
}
