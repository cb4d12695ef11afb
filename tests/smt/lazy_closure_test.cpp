// engine/LazyClosure and the compositions over it read per pair: pairs made once and only where
// read, the terms RelOps builds whole, and the corpus's answers with every closure made lazily.
#include "../unit/BuiltinModel.hpp"
#include "../unit/CorpusFiles.hpp"
#include "../unit/SameTerms.hpp"
#include "check/Check.hpp"
#include "engine/LazyClosure.hpp"
#include "engine/Pairwise.hpp"
#include "engine/Relation.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"
#include "smt/Z3Algebra.hpp"
#include "smt/Z3Context.hpp"

#include <catch2/catch.hpp>
#include <memory>
#include <random>
#include <string>

using namespace ptxmc;
using namespace ptxmc::engine;
using namespace ptxmc::engine::smt;

namespace {

using testing::requireSameTerms;

using ZRel = SparseRel<z3::expr>;
using Node = Pairwise<Z3Algebra>::Node;
using Kind = Pairwise<Z3Algebra>::Kind;

/** A chain 0 -> 1 -> 2 -> 3 with the edge 1 -> 2 possible, the others certain. */
ZRel chain(z3::context& ctx) {
    ZRel a(4);
    a.rows[0].emplace(1, ctx.bool_val(true));
    a.rows[1].emplace(2, ctx.bool_const("e12"));
    a.rows[2].emplace(3, ctx.bool_val(true));
    return a;
}

ZRel randomRel(z3::context& ctx, std::mt19937& rng, std::size_t n, const std::string& name) {
    std::bernoulli_distribution present(0.3), certain(0.3);
    ZRel r(n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            if (present(rng))
                r.rows[i].emplace(
                    static_cast<int>(j),
                    certain(rng)
                        ? ctx.bool_val(true)
                        : ctx.bool_const(
                              (name + std::to_string(i) + "_" + std::to_string(j)).c_str()));
    return r;
}

/** An algebra that records its closures, over four events. */
struct Recording {
    Z3Context ctx;
    z3::expr_vector lemmas{ctx};
    std::vector<ClosureRecord> closures;
    Z3Algebra alg{ctx, &lemmas, nullptr, &ctx.freshNames};
    RelOps<Z3Algebra> ops{alg, 4};
    Recording() { alg.closures = &closures; }
};

} // namespace

TEST_CASE("a lazy closure makes a pair's condition once, when read", "[lazy-closure][z3]") {
    Recording r;
    auto& [ctx, lemmas, closures, alg, ops] = r;
    const ZRel a = chain(ctx);
    REQUIRE(ops.plusAtLeastLazy(a, 100) == nullptr); // 5 pairs: made eagerly
    auto lazy = ops.plusAtLeastLazy(a, 0);
    REQUIRE(lazy != nullptr);
    REQUIRE(closures.size() == 1);
    CHECK(lazy->mayPairs() == 6);    // 01 02 03 12 13 23
    CHECK(lazy->at(0, 1).is_true()); // a certain edge
    CHECK(lazy->at(2, 1).is_false());
    CHECK(lazy->made().empty());
    const z3::expr unmade = ctx.bool_const("unmade");
    CHECK(z3::eq(lazy->peek(0, 3, unmade), unmade)); // a count makes nothing
    CHECK(lazy->made().empty());
    const z3::expr c03 = lazy->at(0, 3);
    CHECK(Z3Algebra::isFresh(c03));
    CHECK(z3::eq(lazy->at(0, 3), c03)); // the same condition on every read
    CHECK(lazy->made().size() == 1);
    // 0 and 3 are in chains (0's one edge out and 3's one edge in are certain): every path
    // between 0, 1 and 2, 3 passes through the possible edge, so the four pairs are one, made
    // once, at the ends that branch (ClosureChains, as plusAtLeast shares them).
    CHECK(lazy->made() == std::vector<std::pair<int, int>>{{1, 2}});
    CHECK(z3::eq(lazy->at(1, 3), c03));
    CHECK(z3::eq(lazy->at(0, 2), c03));
    CHECK(z3::eq(lazy->at(1, 2), c03));
    CHECK(lazy->made().size() == 1);
    // Its lemma: the edge 1 -> 2 itself; the chained row 0 has none of its own.
    std::vector<StepLemma> steps;
    closures[0].lemmasOf(
        0, 1, 2, [&](const ClosureRecord::Key&, StepLemma l) { steps.push_back(std::move(l)); });
    REQUIRE(steps.size() == 1);
    CHECK(z3::eq(steps[0].head, c03));
    REQUIRE(steps[0].antecedents.size() == 1);
    CHECK(z3::eq(steps[0].antecedents[0], ctx.bool_const("e12")));
    CHECK_FALSE(closures[0].isHead(0, 3));
    CHECK(closures[0].isHead(1, 2));
    steps.clear();
    closures[0].lemmasOf(
        0, 0, 3, [&](const ClosureRecord::Key&, StepLemma l) { steps.push_back(std::move(l)); });
    CHECK(steps.empty());
}

TEST_CASE("a lazy closure without chains makes each pair its own, its lemmas through edges",
          "[lazy-closure][z3]") {
    // 0 -> 1 and 0 -> 2 certain, 1 -> 3 and 2 -> 3 possible: 0 branches, 3 joins.
    Recording r;
    auto& [ctx, lemmas, closures, alg, ops] = r;
    ZRel a(4);
    a.rows[0].emplace(1, ctx.bool_val(true));
    a.rows[0].emplace(2, ctx.bool_val(true));
    a.rows[1].emplace(3, ctx.bool_const("e13"));
    a.rows[2].emplace(3, ctx.bool_const("e23"));
    auto lazy = ops.plusAtLeastLazy(a, 0);
    REQUIRE(lazy != nullptr);
    const z3::expr c03 = lazy->at(0, 3);
    CHECK(Z3Algebra::isFresh(c03));
    CHECK(lazy->made() == std::vector<std::pair<int, int>>{{0, 3}});
    std::vector<StepLemma> steps;
    closures[0].lemmasOf(
        0, 0, 3, [&](const ClosureRecord::Key&, StepLemma l) { steps.push_back(std::move(l)); });
    REQUIRE(steps.size() == 2); // through 1 and through 2, each making its pair
    CHECK(z3::eq(steps[0].head, c03));
    CHECK(lazy->made().size() == 3);
}

TEST_CASE("a composition read per pair has RelOps::seq's terms", "[lazy-closure][z3]") {
    std::mt19937 rng(7);
    for (int round = 0; round < 20; ++round) {
        Z3Context ctx;
        z3::expr_vector lemmas(ctx);
        Z3Algebra alg{ctx, &lemmas, nullptr, &ctx.freshNames};
        const std::size_t n = 9;
        RelOps<Z3Algebra> ops{alg, n};
        Pairwise<Z3Algebra> pw{alg, n};
        const ZRel a = randomRel(ctx, rng, n, "a"), b = randomRel(ctx, rng, n, "b");
        auto leaf = [](const ZRel& r) {
            auto node = std::make_shared<Node>();
            node->sparse = &r;
            return std::shared_ptr<const Node>(node);
        };
        Node seq;
        seq.kind = Kind::Seq;
        seq.args = {leaf(a), leaf(b)};
        const ZRel whole = ops.seq(a, b);
        requireSameTerms(whole, pw.materialize(seq), "materialized");
        ZRel perPair(n);
        for (int i = 0; i < static_cast<int>(n); ++i)
            for (int j = 0; j < static_cast<int>(n); ++j)
                if (z3::expr c = pw.at(seq, i, j); !c.is_false())
                    perPair.rows[static_cast<std::size_t>(i)].emplace(j, c);
        requireSameTerms(whole, perPair, "pair by pair");
        for (int i = 0; i < static_cast<int>(n); ++i) // possible() covers every pair that holds
            for (const auto& [j, c] : whole.rows[static_cast<std::size_t>(i)])
                CHECK(pw.possible(seq, i, j));
    }
}

TEST_CASE("every closure made lazily changes no answer on the corpus",
          "[lazy-closure][z3][corpus]") {
    std::size_t compared = 0;
    for (const std::filesystem::path& file : testing::corpusFiles()) {
        ir::Program p = lower::lowerTest(litmus::parseLitmusFile(file.string()));
        if (p.events.size() > 40) continue;
        CheckOptions eager, lazy;
        eager.engine = lazy.engine = EngineKind::Z3;
        lazy.lazyClosurePairsFrom = 0;
        const CheckResult a = check(p, testing::builtinModel(), eager);
        const CheckResult b = check(p, testing::builtinModel(), lazy);
        INFO(file.string());
        CHECK(sameAnswer(a, b));
        ++compared;
    }
    CHECK(compared > 300);
}

TEST_CASE("stats count a lazy closure's pairs as an eager one's, and make none",
          "[lazy-closure][z3][corpus]") {
    // A relation is counted where the checks made it; a lazy closure is never empty, so an
    // empty factor after it (eager: before it unread) may leave the two runs' sets apart.
    std::size_t compared = 0, bothMade = 0;
    for (const std::filesystem::path& file : testing::corpusFiles()) {
        if (file.string().find("/async/") == std::string::npos) continue;
        ir::Program p = lower::lowerTest(litmus::parseLitmusFile(file.string()));
        if (p.events.size() > 24) continue;
        CheckOptions eager, lazy;
        eager.engine = lazy.engine = EngineKind::Z3;
        eager.stats = lazy.stats = true;
        lazy.lazyClosurePairsFrom = 0;
        const CheckResult a = check(p, testing::builtinModel(), eager);
        const CheckResult b = check(p, testing::builtinModel(), lazy);
        INFO(file.string());
        REQUIRE(a.stats);
        REQUIRE(b.stats);
        REQUIRE(a.stats->relations.size() == b.stats->relations.size());
        for (std::size_t i = 0; i < a.stats->relations.size(); ++i) {
            INFO(a.stats->relations[i].name);
            if (!a.stats->relations[i].made || !b.stats->relations[i].made) continue;
            CHECK(a.stats->relations[i].must == b.stats->relations[i].must);
            CHECK(a.stats->relations[i].may == b.stats->relations[i].may);
            ++bothMade;
        }
        ++compared;
    }
    CHECK(compared > 20);
    CHECK(bothMade > 20 * 60);
}
