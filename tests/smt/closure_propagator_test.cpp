// smt::lemmaCone over closures: only the lemmas whose heads a check reads are made, in the order
// the clauses would have had (closure_lower_bound_test.cpp holds the propagator to the closure).
#include "engine/Relation.hpp"
#include "smt/ClosurePropagator.hpp"
#include "smt/ClosureRecord.hpp"
#include "smt/LemmaCone.hpp"
#include "smt/Z3Algebra.hpp"
#include "smt/Z3Context.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc::engine;
using namespace ptxmc::engine::smt;

namespace {

bool sameLemma(const StepLemma& l, const std::vector<z3::expr>& antecedents, const z3::expr& head) {
    if (l.antecedents.size() != antecedents.size() || !z3::eq(l.head, head)) return false;
    for (std::size_t i = 0; i < antecedents.size(); ++i)
        if (!z3::eq(l.antecedents[i], antecedents[i])) return false;
    return true;
}

} // namespace

TEST_CASE("the cone makes the closure lemmas whose heads a check reads, and what they assume",
          "[closure-propagator]") {
    Z3Context ctx;
    z3::expr_vector lemmas(ctx);
    std::vector<ClosureRecord> closures;
    Z3Algebra alg{ctx, &lemmas, nullptr, &ctx.freshNames};
    alg.closures = &closures;
    z3::expr w = ctx.bool_const("w"), x = ctx.bool_const("x"), y = ctx.bool_const("y"),
             z = ctx.bool_const("z");
    // A chain 0 -> 1 -> 2 -> 3; the first edge's condition is composite, so it gets a name.
    SparseRel<z3::expr> a(4);
    a.rows[0].emplace(1, w && x);
    a.rows[1].emplace(2, y);
    a.rows[2].emplace(3, z);
    RelOps<Z3Algebra> ops{alg, 4};
    SparseRel<z3::expr> tc = ops.plusAtLeast(a);
    REQUIRE(closures.size() == 1);
    // Edge 0->1: its own lemma and steps to 2 and 3; 1->2: own and to 3; 2->3: own.
    CHECK(closures[0].lemmaCount == 6);
    REQUIRE(lemmas.size() == 1); // (w && x) -> the edge's name
    const z3::expr named = closures[0].edges[0].at(0).second;
    CHECK(Z3Algebra::isFresh(named));
    z3::expr_vector roots(ctx);
    roots.push_back(!tc.rows[0].at(2)); // a check reads (0, 2)
    Cone cone = lemmaCone(roots, lemmas, closures, Z3Algebra::isFresh);
    REQUIRE(cone.steps.size() == 2);
    CHECK(sameLemma(cone.steps[0], {named, tc.rows[1].at(2)}, tc.rows[0].at(2)));
    CHECK(sameLemma(cone.steps[1], {y}, tc.rows[1].at(2)));
    CHECK(cone.lemmas == std::vector<std::size_t>{0}); // what the kept step assumes
}

TEST_CASE("without closure records, every lower bound is a clause", "[closure-propagator]") {
    Z3Context ctx;
    z3::expr_vector lemmas(ctx);
    Z3Algebra alg{ctx, &lemmas, nullptr, &ctx.freshNames};
    z3::expr y = ctx.bool_const("y"), a = alg.fresh(), b = alg.fresh();
    alg.requireStep({a, y}, b);
    alg.requireStep({alg.tru(), alg.tru()}, a); // no open antecedent: the head alone
    alg.requireStep({alg.fls(), y}, a);         // a false antecedent: nothing
    REQUIRE(lemmas.size() == 2);
    CHECK(z3::eq(lemmas[1], a));
}
