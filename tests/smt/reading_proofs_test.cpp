// smt/ReadingProofs: an unsat answer serves another reading only where its core allows it.
#include "smt/ReadingProofs.hpp"

#include <catch2/catch.hpp>
#include <vector>

using ptxmc::engine::smt::ReadingProofs;

namespace {

z3::expr_vector with(z3::context& ctx, const std::vector<z3::expr>& own,
                     const std::vector<z3::expr>& chosen) {
    z3::expr_vector out(ctx);
    for (const z3::expr& e : own)
        out.push_back(e);
    for (const z3::expr& e : chosen)
        out.push_back(e);
    return out;
}

} // namespace

TEST_CASE("a proof serves the readings that have its core's reading literals", "[reading-proofs]") {
    z3::context ctx;
    const z3::expr q1 = ctx.bool_const("reading:q1"), q2 = ctx.bool_const("reading:q2");
    const z3::expr axiom = ctx.bool_const("axiom"), flag = ctx.bool_const("flag");
    const std::vector<z3::expr> byDefault{!q1, !q2}, underQ1{q1, !q2}, underQ2{!q1, q2};
    ReadingProofs proofs;
    z3::expr_vector core(ctx);
    core.push_back(flag);
    core.push_back(!q1); // the default's proof needs q1 false
    proofs.add(with(ctx, {axiom, flag}, byDefault), byDefault, core);
    CHECK(proofs.proven(with(ctx, {axiom, flag}, underQ2), underQ2));
    CHECK_FALSE(proofs.proven(with(ctx, {axiom, flag}, underQ1), underQ1));
    // Another query (another flag) is not this proof.
    CHECK_FALSE(proofs.proven(with(ctx, {axiom, ctx.bool_const("other")}, underQ2), underQ2));
}
