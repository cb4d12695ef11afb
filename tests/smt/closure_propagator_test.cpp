// smt::lemmaCone over closure steps: the steps a propagator gets are the clauses it replaces
// (closure_lower_bound_test.cpp holds the propagator itself to the closure).
#include "smt/ClosurePropagator.hpp"
#include "smt/LemmaCone.hpp"
#include "smt/Z3Algebra.hpp"
#include "smt/Z3Context.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc::engine::smt;

TEST_CASE("the cone keeps the steps whose heads a check reads, and what they assume",
          "[closure-propagator]") {
    Z3Context ctx;
    z3::expr_vector lemmas(ctx);
    std::vector<StepLemma> steps;
    Z3Algebra alg{ctx, &lemmas, nullptr, &ctx.freshNames};
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
