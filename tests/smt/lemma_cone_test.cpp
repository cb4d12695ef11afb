// smt::lemmaCone: only the lemmas the checks depend on reach the solver, and answers stay.
#include "smt/LemmaCone.hpp"
#include "smt/Z3Algebra.hpp"
#include "smt/Z3Context.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc::engine::smt;

namespace {

bool contains(const z3::expr_vector& v, const z3::expr& e) {
    for (unsigned i = 0; i < v.size(); ++i)
        if (z3::eq(v[i], e)) return true;
    return false;
}

} // namespace

TEST_CASE("a lemma is kept when what it forces is used, with what it assumes", "[lemma-cone]") {
    Z3Context ctx;
    z3::expr_vector lemmas(ctx);
    Z3Algebra alg{ctx, &lemmas, nullptr, &ctx.freshNames};
    z3::expr x = ctx.bool_const("x"), y = ctx.bool_const("y"), z = ctx.bool_const("z");
    z3::expr a = alg.fresh(), b = alg.fresh(), c = alg.fresh(), d = alg.fresh();
    CHECK(Z3Algebra::isFresh(a));
    CHECK_FALSE(Z3Algebra::isFresh(x));
    alg.require(alg.implies(x, a));                        // a >= x
    alg.require(alg.implies(alg.conj(a, y), b));           // b >= a & y
    alg.require(alg.implies(z, c));                        // c >= z: nothing uses c
    alg.require(alg.implies(alg.conj(c, x), d));           // d >= c & x: nothing uses d either
    alg.require(alg.implies(b, ctx.bool_val(false)) || z); // forces no fresh condition
    z3::expr_vector roots(ctx);
    roots.push_back(!b || x); // a check reads b
    z3::expr_vector kept = lemmaCone(roots, lemmas, Z3Algebra::isFresh);
    CHECK(kept.size() == 3);
    CHECK(contains(kept, lemmas[0]));
    CHECK(contains(kept, lemmas[1]));
    CHECK(contains(kept, lemmas[4]));
    CHECK_FALSE(contains(kept, lemmas[2]));
    CHECK_FALSE(contains(kept, lemmas[3]));
}

TEST_CASE("the kept lemmas answer every query over the roots as all of them do", "[lemma-cone]") {
    Z3Context ctx;
    z3::expr_vector lemmas(ctx);
    Z3Algebra alg{ctx, &lemmas, nullptr, &ctx.freshNames};
    z3::expr x = ctx.bool_const("x"), y = ctx.bool_const("y");
    // A chain t0 >= x, t(i+1) >= t(i) & y, and a side chain nobody reads.
    std::vector<z3::expr> t{alg.fresh()};
    alg.require(alg.implies(x, t[0]));
    for (int i = 0; i < 5; ++i) {
        z3::expr last = t.back();
        t.push_back(alg.fresh());
        alg.require(alg.implies(alg.conj(last, y), t.back()));
        alg.require(alg.implies(last, alg.fresh())); // a side condition nobody reads
    }
    z3::expr_vector roots(ctx);
    roots.push_back(!t.back()); // the check: the chain's end does not hold
    z3::expr_vector kept = lemmaCone(roots, lemmas, Z3Algebra::isFresh);
    CHECK(kept.size() == 6);
    for (bool xv : {false, true})
        for (bool yv : {false, true}) {
            auto answer = [&](const z3::expr_vector& ls) {
                z3::solver s(ctx);
                for (unsigned i = 0; i < ls.size(); ++i)
                    s.add(ls[i]);
                s.add(roots[0]);
                s.add(x == ctx.bool_val(xv));
                s.add(y == ctx.bool_val(yv));
                return s.check();
            };
            CHECK(answer(kept) == answer(lemmas));
        }
}
