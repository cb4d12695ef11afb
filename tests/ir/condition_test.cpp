// The ir condition: evaluation by observable index, Ok by quantifier, and its lowering from text.
#include "../unit/RequireInputError.hpp"
#include "ir/Condition.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;
using ir::Proposition;
using K = ir::Proposition::Kind;

namespace {

Proposition leaf(K kind) {
    Proposition p;
    p.kind = kind;
    return p;
}

Proposition eqConst(int observable, std::int64_t value, K kind = K::Eq) {
    Proposition p = leaf(kind);
    p.lhs = observable;
    p.constant = value;
    return p;
}

Proposition eqObs(int lhs, int rhs, K kind = K::Eq) {
    Proposition p = leaf(kind);
    p.lhs = lhs;
    p.rhs = rhs;
    return p;
}

Proposition op(K kind, std::vector<Proposition> args) {
    Proposition p = leaf(kind);
    p.args = std::move(args);
    return p;
}

ir::Program lowerCondition(const std::string& condition) {
    return lower::lowerTest(litmus::parseLitmus("PTX t\n{ x = 0; y = 0; }\n"
                                                " P0@cta 0,gpu 0 ;\n"
                                                " ld.weak r0, x ;\n" +
                                                    condition + "\n",
                                                "t.litmus"));
}

} // namespace

TEST_CASE("a proposition is evaluated by observable index", "[condition]") {
    const std::vector<std::int64_t> state = {1, -1, 1};
    CHECK(ir::holds(leaf(K::True), state));
    CHECK_FALSE(ir::holds(leaf(K::False), state));
    CHECK(ir::holds(eqConst(0, 1), state));
    CHECK_FALSE(ir::holds(eqConst(1, 1), state));
    CHECK(ir::holds(eqConst(1, 1, K::Ne), state));
    CHECK(ir::holds(eqObs(0, 2), state));
    CHECK_FALSE(ir::holds(eqObs(0, 1), state));
    CHECK(ir::holds(eqObs(0, 1, K::Ne), state));
    CHECK_FALSE(ir::holds(op(K::Not, {eqConst(0, 1)}), state));
    CHECK(ir::holds(op(K::And, {eqConst(0, 1), eqConst(1, -1)}), state));
    CHECK_FALSE(ir::holds(op(K::And, {eqConst(0, 1), eqConst(1, 0)}), state));
    CHECK(ir::holds(op(K::Or, {eqConst(0, 0), eqConst(1, -1)}), state));
    CHECK_FALSE(ir::holds(op(K::Or, {eqConst(0, 0), eqConst(1, 0)}), state));
    CHECK(ir::holds(op(K::Implies, {eqConst(0, 0), leaf(K::False)}), state));
    CHECK_FALSE(ir::holds(op(K::Implies, {eqConst(0, 1), leaf(K::False)}), state));
    CHECK_THROWS(ir::holds(eqConst(3, 0), state));
}

TEST_CASE("herd's Ok follows the quantifier", "[condition]") {
    CHECK(ir::conditionOk(ir::Quantifier::Exists, 1, 5));
    CHECK_FALSE(ir::conditionOk(ir::Quantifier::Exists, 0, 5));
    CHECK(ir::conditionOk(ir::Quantifier::NotExists, 0, 5));
    CHECK_FALSE(ir::conditionOk(ir::Quantifier::NotExists, 1, 0));
    CHECK(ir::conditionOk(ir::Quantifier::Forall, 3, 0));
    CHECK_FALSE(ir::conditionOk(ir::Quantifier::Forall, 3, 1));
}

TEST_CASE("lowering resolves the condition to observable indices", "[condition]") {
    ir::Program p = lowerCondition("forall (x == 0xffffffff \\/ ~(P0:r0 != y))");
    CHECK(p.condition.quantifier == ir::Quantifier::Forall);
    REQUIRE(p.observed.size() == 3);
    CHECK(p.observed[0].name == "x");
    CHECK(p.observed[1].name == "P0:r0");
    CHECK(p.observed[2].name == "y");
    const Proposition& c = p.condition.prop;
    REQUIRE(c.kind == K::Or);
    CHECK(c.args[0].kind == K::Eq);
    CHECK(c.args[0].lhs == 0);
    CHECK(c.args[0].rhs == -1);
    CHECK(c.args[0].constant == -1); // a 32-bit value, read as signed
    REQUIRE(c.args[1].kind == K::Not);
    CHECK(c.args[1].args[0].kind == K::Ne);
    CHECK(c.args[1].args[0].lhs == 1);
    CHECK(c.args[1].args[0].rhs == 2);
    CHECK_THAT(p.conditionText, Catch::EndsWith(" \\/ ~P0:r0 != y)")); // herd's text, kept
    CHECK(ir::holds(c, {-1, 0, 5}));
    CHECK_FALSE(ir::holds(c, {0, 0, 5}));
    CHECK(ir::holds(c, {0, 5, 5}));
}

TEST_CASE("each observable appears once, condition references first", "[condition]") {
    ir::Program p = lowerCondition("locations [y; x;]\nexists (x == 1 /\\ x != 2)");
    REQUIRE(p.observed.size() == 2);
    CHECK(p.observed[0].name == "x");
    CHECK(p.observed[1].name == "y");
    CHECK(p.condition.quantifier == ir::Quantifier::Exists);
    CHECK(p.condition.prop.args[0].lhs == 0);
    CHECK(p.condition.prop.args[1].lhs == 0);
}

TEST_CASE("a proposition over a name the program does not observe is rejected", "[condition]") {
    ir::Program p = lowerCondition("exists (x == 1)");
    auto prop = litmus::parseProposition("x == 1 /\\ y == 0", "--outcome");
    testing::requireInputError([&] { lower::observedProposition(*prop, p.observed); },
                               "x == 1 /\\ y == 0", "--outcome", 1, 11, "'y' is not observed");
}
