// Relation operators on sparse relations against a dense brute-force reference.
#include "engine/BoolAlgebra.hpp"
#include "engine/Relation.hpp"

#include <catch2/catch.hpp>
#include <random>

using ptxmc::engine::BoolAlgebra;
using ptxmc::engine::RelOps;
using Rel = ptxmc::engine::SparseRel<bool>;
using DenseBits = std::vector<std::vector<bool>>;

namespace {

Rel randomRel(std::mt19937& rng, std::size_t n, double density) {
    std::bernoulli_distribution edge(density);
    Rel r(n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            if (edge(rng)) r.rows[i].emplace(static_cast<int>(j), true);
    return r;
}

DenseBits dense(const Rel& r) {
    DenseBits d(r.size(), std::vector<bool>(r.size(), false));
    for (std::size_t i = 0; i < r.size(); ++i)
        for (const auto& [j, c] : r.rows[i])
            d[i][static_cast<std::size_t>(j)] = c;
    return d;
}

DenseBits denseSeq(const DenseBits& a, const DenseBits& b) {
    std::size_t n = a.size();
    DenseBits out(n, std::vector<bool>(n, false));
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < n; ++k)
            if (a[i][k])
                for (std::size_t j = 0; j < n; ++j)
                    out[i][j] = out[i][j] || b[k][j];
    return out;
}

DenseBits denseClosure(DenseBits d) { // Warshall
    std::size_t n = d.size();
    for (std::size_t k = 0; k < n; ++k)
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j)
                d[i][j] = d[i][j] || (d[i][k] && d[k][j]);
    return d;
}

} // namespace

TEST_CASE("sequence, inverse, closure agree with the dense reference", "[relation]") {
    std::mt19937 rng(12345);
    BoolAlgebra alg;
    for (int round = 0; round < 200; ++round) {
        std::size_t n = 1 + static_cast<std::size_t>(round % 17);
        double density = 0.05 + 0.05 * (round % 6);
        RelOps<BoolAlgebra> ops{alg, n};
        Rel a = randomRel(rng, n, density), b = randomRel(rng, n, density);
        REQUIRE(dense(ops.seq(a, b)) == denseSeq(dense(a), dense(b)));
        REQUIRE(dense(ops.plus(a)) == denseClosure(dense(a)));
        DenseBits star = denseClosure(dense(a));
        for (std::size_t i = 0; i < n; ++i)
            star[i][i] = true;
        REQUIRE(dense(ops.star(a)) == star);
        DenseBits inv(n, std::vector<bool>(n, false));
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j)
                inv[j][i] = dense(a)[i][j];
        REQUIRE(dense(ops.inverse(a)) == inv);
        DenseBits u = dense(a), x = dense(a), d = dense(a), ab = dense(b);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                u[i][j] = u[i][j] || ab[i][j];
                x[i][j] = x[i][j] && ab[i][j];
                d[i][j] = d[i][j] && !ab[i][j];
            }
        REQUIRE(dense(ops.unionRels(a, b)) == u);
        Rel grown = a;
        ops.unionInto(grown, b);
        REQUIRE(dense(grown) == u);
        REQUIRE(dense(ops.interRels(a, b)) == x);
        REQUIRE(dense(ops.diffRels(a, b)) == d);
    }
}

TEST_CASE("a long chain needs every squaring round", "[relation]") {
    BoolAlgebra alg;
    std::size_t n = 40;
    RelOps<BoolAlgebra> ops{alg, n};
    Rel chain(n);
    for (std::size_t i = 0; i + 1 < n; ++i)
        chain.rows[i].emplace(static_cast<int>(i + 1), true);
    Rel c = ops.plus(chain);
    REQUIRE(c.rows[0].count(static_cast<int>(n - 1)) == 1);
    REQUIRE(c.entries() == n * (n - 1) / 2);
}

TEST_CASE("reflexiveOfCycle: a diagonal entry exactly where the composition is reflexive",
          "[relation]") {
    std::mt19937 rng(29);
    for (int round = 0; round < 300; ++round) {
        const std::size_t n = 2 + static_cast<std::size_t>(round % 6);
        const std::size_t factors = 2 + static_cast<std::size_t>(round % 3);
        BoolAlgebra alg;
        RelOps<BoolAlgebra> ops{alg, n};
        std::vector<Rel> fs;
        DenseBits product;
        for (std::size_t k = 0; k < factors; ++k) {
            fs.push_back(randomRel(rng, n, 0.15 + 0.1 * static_cast<double>(k)));
            product = k == 0 ? dense(fs[0]) : denseSeq(product, dense(fs[k]));
        }
        bool reflexive = false;
        for (std::size_t i = 0; i < n; ++i)
            reflexive = reflexive || product[i][i];
        std::vector<const Rel*> factorsRead;
        for (const Rel& f : fs)
            factorsRead.push_back(&f);
        const Rel diag = ops.reflexiveOfCycle(factorsRead);
        bool found = false;
        for (std::size_t i = 0; i < n; ++i)
            for (const auto& [j, c] : diag.rows[i]) {
                CHECK(j == static_cast<int>(i)); // only the diagonal is built
                found = found || c;
            }
        CHECK(found == reflexive);
    }
}
