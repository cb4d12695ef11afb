// CycleWatch against brute-force reachability, and the propagator's acyclicity against clocks.
#include "smt/AxiomEncoder.hpp"
#include "smt/ClosurePropagator.hpp"
#include "smt/CycleWatch.hpp"

#include <catch2/catch.hpp>
#include <random>
#include <set>

using namespace ptxmc::engine;
using namespace ptxmc::engine::smt;

namespace {

/** reach[u][v]: a path of one or more active edges from u to v. */
std::vector<std::vector<bool>> reachOf(const CycleWatch& g, std::size_t n) {
    std::vector<std::vector<bool>> r(n, std::vector<bool>(n, false));
    for (std::size_t e = 0; e < g.edges(); ++e)
        if (g.active(static_cast<int>(e)))
            r[static_cast<std::size_t>(g.from(static_cast<int>(e)))]
             [static_cast<std::size_t>(g.to(static_cast<int>(e)))] = true;
    for (std::size_t k = 0; k < n; ++k)
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j)
                r[i][j] = r[i][j] || (r[i][k] && r[k][j]);
    return r;
}

bool cyclic(const CycleWatch& g, std::size_t n) {
    const auto r = reachOf(g, n);
    for (std::size_t i = 0; i < n; ++i)
        if (r[i][i]) return true;
    return false;
}

/** `path` is a walk of edges from `start` to `end`, each active but `except`. */
void checkWalk(const CycleWatch& g, const std::vector<int>& path, int start, int end, int except) {
    REQUIRE(!path.empty());
    int at = start;
    for (int e : path) {
        CHECK(g.from(e) == at);
        if (e != except) CHECK(g.active(e));
        at = g.to(e);
    }
    CHECK(at == end);
}

} // namespace

TEST_CASE("CycleWatch: an edge is refused exactly when it closes a cycle", "[cycles]") {
    std::mt19937 rng(7);
    for (int round = 0; round < 200; ++round) {
        const std::size_t n = 2 + static_cast<std::size_t>(round % 9);
        CycleWatch g(n);
        std::uniform_int_distribution<int> node(0, static_cast<int>(n) - 1);
        for (std::size_t k = 0; k < 3 * n; ++k) {
            const int a = node(rng), b = node(rng);
            if (a != b) g.addEdge(a, b);
        }
        if (g.edges() == 0) continue;
        REQUIRE(!g.startOrdering()); // nothing active yet
        std::vector<std::size_t> marks;
        std::uniform_int_distribution<int> edge(0, static_cast<int>(g.edges()) - 1);
        for (int step = 0; step < 40; ++step) {
            if (step % 9 == 8 && !marks.empty()) { // the search backtracks
                g.undoTo(marks.back());
                marks.pop_back();
                continue;
            }
            if (step % 5 == 0) marks.push_back(g.mark());
            const int e = edge(rng);
            if (g.active(e)) continue;
            // Closes a cycle iff its end already reaches its start.
            const auto r = reachOf(g, n);
            const bool closes =
                r[static_cast<std::size_t>(g.to(e))][static_cast<std::size_t>(g.from(e))];
            const auto cycle = g.activate(e);
            REQUIRE(cycle.has_value() == closes);
            if (cycle) {
                CHECK(cycle->back() == e);
                CHECK(!g.active(e));
                checkWalk(g, *cycle, g.to(e), g.to(e), e);
                continue;
            }
            CHECK(!cyclic(g, n));
            // Closers: exactly the inactive edges from y's reach to x's (y, x the edge's ends).
            const auto after = reachOf(g, n);
            const int x = g.from(e), y = g.to(e);
            std::set<int> expected;
            for (std::size_t c = 0; c < g.edges(); ++c) {
                const int u = g.from(static_cast<int>(c)), v = g.to(static_cast<int>(c));
                if (g.active(static_cast<int>(c))) continue;
                const bool fromY =
                    u == y || after[static_cast<std::size_t>(y)][static_cast<std::size_t>(u)];
                const bool toX =
                    v == x || after[static_cast<std::size_t>(v)][static_cast<std::size_t>(x)];
                if (fromY && toX) expected.insert(static_cast<int>(c));
            }
            std::set<int> found;
            for (const CycleWatch::Closer& c : g.closers(e)) {
                found.insert(c.edge);
                checkWalk(g, c.path, g.to(c.edge), g.from(c.edge), -1);
            }
            CHECK(found == expected);
        }
    }
}

TEST_CASE("CycleWatch: ordering starts only over acyclic active edges", "[cycles]") {
    CycleWatch g(3);
    const int ab = g.addEdge(0, 1), bc = g.addEdge(1, 2), ca = g.addEdge(2, 0);
    for (int e : {ab, bc, ca})
        CHECK(!g.activate(e)); // ordering off: no check
    const auto cycle = g.startOrdering();
    REQUIRE(cycle);
    CHECK(cycle->size() == 3);
    CHECK(!g.ordering());
    g.undoTo(2);
    CHECK(!g.startOrdering());
    CHECK(g.activate(ca)); // now refused
}

TEST_CASE("graph acyclicity: the propagator's answers are the clocks'", "[z3][cycles]") {
    std::mt19937 rng(13);
    std::size_t conflicts = 0;
    for (int round = 0; round < 120; ++round) {
        const std::size_t n = 3 + static_cast<std::size_t>(round % 6);
        std::bernoulli_distribution possible(0.35), forced(0.3), certain(0.1);
        z3::context ctx;
        Z3Rel r(n);
        std::vector<z3::expr> force;
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                if (i == j || !possible(rng)) continue;
                z3::expr c = certain(rng)
                                 ? ctx.bool_val(true)
                                 : ctx.bool_const(
                                       ("e" + std::to_string(i) + "_" + std::to_string(j)).c_str());
                r.rows[i].emplace(static_cast<int>(j), c);
                if (!c.is_true() && forced(rng)) force.push_back(c);
            }
        const bool on = round % 5 != 4; // the axiom left out: no constraint
        z3::solver clocks(ctx), graph(ctx, z3::solver::simple());
        z3::expr lit = ctx.bool_const("axiom");
        clocks.add(z3::implies(lit, encodeAcyclic(ctx, r, "t")));
        ClosurePropagator p(graph);
        std::vector<GraphEdge> edges;
        for (std::size_t i = 0; i < n; ++i)
            for (const auto& [j, c] : r.rows[i])
                edges.push_back({static_cast<int>(i), j, c});
        p.addAcyclic(lit, n, edges);
        z3::expr_vector assume(ctx);
        assume.push_back(on ? lit : !lit);
        for (const z3::expr& f : force)
            assume.push_back(f);
        const z3::check_result a = clocks.check(assume), b = graph.check(assume);
        REQUIRE(a == b);
        if (b == z3::sat) CHECK(!p.cyclicIn(graph.get_model()));
        conflicts += p.cycleConflicts();
    }
    CHECK(conflicts > 0); // the graphs did refuse cycles
}
