// smt/Z3Algebra: disjunctions fold complementary terms, so a pair certain under every reading
// stays certain in --readings' one encoding.
#include "cat/Readings.hpp"
#include "cat/Resolver.hpp"
#include "engine/Evaluator.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"
#include "smt/ProgramEncoder.hpp"
#include "smt/Z3Algebra.hpp"
#include "smt/Z3Context.hpp"

#include <catch2/catch.hpp>
#include <functional>
#include <string>

using namespace ptxmc;
using namespace ptxmc::engine;
using namespace ptxmc::engine::smt;

namespace {

/** Whether `a` and `b` are equivalent (the solver proves it). */
bool equivalent(z3::context& ctx, const z3::expr& a, const z3::expr& b) {
    z3::solver s(ctx);
    s.add(a != b);
    return s.check() == z3::unsat;
}

} // namespace

TEST_CASE("a disjunction folds a literal and its negation, and (l and c) with ((not l) and c)",
          "[z3][algebra]") {
    Z3Context ctx;
    Z3Algebra alg{ctx, nullptr, nullptr, nullptr};
    const z3::expr s = ctx.bool_const("s"), t = ctx.bool_const("t");
    const z3::expr c = ctx.bool_const("c") && ctx.bool_const("e"), d = ctx.bool_const("d");
    CHECK(alg.disj({s, alg.neg(s)}).is_true());
    CHECK(alg.disj({d, alg.neg(s), t, s}).is_true());
    // [~S] ; x | [S] ; y at a pair of both: the pair's own condition, whichever side the
    // literal is on.
    CHECK(z3::eq(alg.disj({alg.conj(alg.neg(s), c), alg.conj(s, c)}), c));
    CHECK(z3::eq(alg.disj({alg.conj(c, s), alg.conj(alg.neg(s), c)}), c));
    CHECK(z3::eq(alg.disj({alg.conj(alg.neg(s), d), alg.conj(s, d)}), d));
    // A merge that leaves complementary terms folds them too: (s and t) | (not s and t) | not t.
    CHECK(alg.disj({alg.conj(s, t), alg.conj(alg.neg(s), t), alg.neg(t)}).is_true());
    // Nothing to fold: the same disjunction as before, term for term.
    for (const std::vector<z3::expr>& terms :
         {std::vector<z3::expr>{alg.conj(s, c), alg.conj(t, c)},
          std::vector<z3::expr>{alg.conj(s, c), alg.conj(alg.neg(s), d)},
          std::vector<z3::expr>{alg.conj(s, c), alg.neg(t)}}) {
        const z3::expr folded = alg.disj(terms);
        CHECK(folded.decl().decl_kind() == Z3_OP_OR);
        CHECK(folded.num_args() == terms.size());
    }
    // Every fold keeps the disjunction's meaning.
    const std::vector<z3::expr> atoms{s, alg.neg(s), t, alg.neg(t), d, c};
    for (const z3::expr& x : atoms)
        for (const z3::expr& y : atoms)
            for (const z3::expr& z : atoms) {
                const std::vector<z3::expr> terms{alg.conj(x, z), alg.conj(y, z), y};
                CHECK(equivalent(ctx, alg.disj(terms), terms[0] || terms[1] || terms[2]));
            }
}

TEST_CASE("under every reading at once, a pipelined pair of both of decision Q13's readings is "
          "certain",
          "[z3][algebra][readings]") {
    // pipelined = [~PIPELINE-9-1] ; (pairs-9-4 & int) | [PIPELINE-9-1] ; pairs-9-1: the D write
    // of one mma then the D write of the next is a pair of both lists. Taken as the choice
    // (not s) or s, it left the closure of xo without the chains certain edges give: 3.8
    // million closure lemmas became 11.3 million on our FA4-like kernel.
    static const auto model = cat::resolveModel(cat::builtinModelWithReadings());
    const std::string q13 = "variants/q13-pipeline-9-1-pairs.cat";
    const ir::Program p = lower::lowerTest(litmus::parseLitmusFile(
        std::string(PTXMC_SOURCE_DIR) + "/litmus/tcgen05/pipeline/P1-mma-mma-same-acc.litmus"));
    Z3Context ctx;
    ProgramEncoder pe(ctx, p, false);
    z3::expr_vector lemmas(ctx);
    Z3Algebra alg{ctx, &lemmas, nullptr, &ctx.freshNames};
    using Ev = Evaluator<Z3Algebra>;
    const auto pipelined = [&](std::function<z3::expr(const std::string&)> reading) {
        Ev::Base base{[&](ir::Tag t) { return pe.baseSet(t); },
                      [&](ir::Rel r) { return pe.baseRelation(r); },
                      {},
                      {}};
        base.reading = std::move(reading);
        Ev ev(alg, p.events.size(), *model, base);
        return ev.definition("pipelined")->rel;
    };
    const Z3Rel together =
        pipelined([&](const std::string& n) { return ctx.bool_const(("reading:" + n).c_str()); });
    const Z3Rel byDefault = pipelined([&](const std::string&) { return ctx.bool_val(false); });
    const Z3Rel by91 = pipelined([&](const std::string& n) { return ctx.bool_val(n == q13); });
    std::size_t both = 0, one = 0;
    for (std::size_t a = 0; a < p.events.size(); ++a)
        for (const auto& [b, c] : byDefault.rows[a]) {
            const auto it = by91.rows[a].find(b);
            if (!c.is_true() || it == by91.rows[a].end() || !it->second.is_true()) continue;
            ++both;
            INFO(a << " -> " << b);
            CHECK(together.rows[a].at(b).is_true());
        }
    // A pair of the 9.0/9.1 list alone (whole operations: the first mma's shared-memory read
    // before the second's D write) stays the reading's choice.
    for (std::size_t a = 0; a < p.events.size(); ++a)
        for (const auto& [b, c] : by91.rows[a])
            if (!byDefault.rows[a].count(b)) {
                ++one;
                CHECK(!together.rows[a].at(b).is_true());
            }
    CHECK(both > 0);
    CHECK(one > 0);
}
