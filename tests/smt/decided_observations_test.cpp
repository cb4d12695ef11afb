// smt/DecidedObservations: the mb-obs pairs the facts decide, and only under what every query
// assumes.
#include "../unit/BuiltinModel.hpp"
#include "check/Check.hpp"
#include "engine/Evaluator.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"
#include "smt/DecidedObservations.hpp"
#include "smt/ProgramEncoder.hpp"
#include "smt/Z3Algebra.hpp"
#include "smt/Z3Context.hpp"

#include <catch2/catch.hpp>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

using namespace ptxmc;
using namespace ptxmc::engine::smt;
using testing::builtinModel;

namespace {

/** One producer, one consumer, a count-1 mbarrier: the wait passes only on phase 1, which the
 *  arrive completes, so it observes that arrive in every execution where it returns. */
ir::Program handOff() {
    return lower::lowerTest(litmus::parseLitmusFile(
        PTXMC_SOURCE_DIR "/litmus/async/mbarrier/L45-MP+arrive.release+wait.acquire.litmus"));
}

engine::CheckResult checkedDeciding(const ir::Program& p, bool decided) {
    engine::CheckOptions options;
    options.decidedObservations = decided;
    options.stats = true;
    return engine::check(p, builtinModel(), options);
}

/** The facts searched before the axioms, on the program's own relations. */
std::vector<FactsUnder> factsBeforeAxiomsOf(ProgramEncoder& pe, const ir::Program& p,
                                            const z3::expr& progress) {
    z3::context& ctx = pe.ctx();
    z3::expr_vector lemmas(ctx);
    Z3Algebra alg{ctx, &lemmas, nullptr, nullptr};
    using Ev = Evaluator<Z3Algebra>;
    Ev::Base base{[&](ir::Tag t) { return pe.baseSet(t); },
                  [&](ir::Rel r) { return pe.baseRelation(r); },
                  {},
                  {}};
    Ev ev(alg, p.events.size(), builtinModel(), base);
    return factsBeforeAxioms(pe, builtinModel(), ev, {}, {}, progress, engine::CheckOptions{},
                             nullptr, {});
}

/** The one pair of `r` whose condition is not false: its first event and condition. */
std::pair<std::size_t, z3::expr> onlyObservation(const Z3Rel& r) {
    std::vector<std::pair<std::size_t, z3::expr>> pairs;
    for (std::size_t a = 0; a < r.rows.size(); ++a)
        for (const auto& [b, c] : r.rows[a])
            if (!c.is_false()) pairs.emplace_back(a, c);
    REQUIRE(pairs.size() == 1);
    return pairs[0];
}

} // namespace

TEST_CASE("the hand-off's one observation is decided, and the answer is the same without",
          "[decided-observations]") {
    const ir::Program p = handOff();
    const engine::CheckResult with = checkedDeciding(p, true);
    const engine::CheckResult without = checkedDeciding(p, false);
    REQUIRE(with.stats);
    REQUIRE(without.stats);
    CHECK(with.stats->observationPairs == 1);
    CHECK(with.stats->observationsDecided == 1);
    CHECK(without.stats->observationsDecided == 0);
    CHECK(engine::toString(with.observation) == std::string("Never"));
    CHECK(engine::sameAnswer(with, without));
}

TEST_CASE("observations are decided only under facts whose condition every query assumes",
          "[decided-observations]") {
    const ir::Program p = handOff();
    Z3Context ctx;
    ProgramEncoder pe(ctx, p, false);
    const z3::expr progress = ctx.bool_const("progress");
    std::vector<FactsUnder> found = factsBeforeAxiomsOf(pe, p, progress);
    REQUIRE(found.size() == 1);
    REQUIRE(found[0].facts.known);
    const auto [arrive, pair] = onlyObservation(pe.baseRelation(ir::Rel::MbObs));

    SECTION("axiom literals and progress: decided, with the implication asserted") {
        z3::solver solver(ctx);
        const auto decided = decideObservations(pe, found, {}, progress, solver);
        REQUIRE(decided);
        CHECK(decided->decided == 1);
        CHECK(decided->relation.rows.at(arrive).begin()->second.is_true());
        CHECK(decided->premises == std::vector<std::string>{"Execution-Order"});
        // where the premises hold, the pair's own condition follows
        solver.add(ctx.bool_const("axiom:Execution-Order") && progress && !pair);
        CHECK(solver.check() == z3::unsat);
    }
    SECTION("a premise no query assumes (a misuse ruled out, a branch taken): undecided") {
        found[0].when = found[0].when && ctx.bool_const("some-choice");
        z3::solver solver(ctx);
        CHECK_FALSE(decideObservations(pe, found, {}, progress, solver));
        CHECK(solver.assertions().size() == 0);
    }
    SECTION("under --readings, facts that hold under one reading alone decide nothing") {
        const z3::expr reading = ctx.bool_const("reading:variants/some.cat");
        found[0].when = found[0].when && !reading; // the default reading's facts only
        z3::solver solver(ctx);
        CHECK_FALSE(decideObservations(pe, found, {reading}, progress, solver));
        // the other reading's own facts complete it
        found.push_back(found[0]);
        found[1].when = ctx.bool_const("axiom:Execution-Order") && progress && reading;
        const auto decided = decideObservations(pe, found, {reading}, progress, solver);
        REQUIRE(decided);
        CHECK(decided->decided == 1);
    }
}
