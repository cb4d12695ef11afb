// Polarity and cycle bases of cat models: which closures the solver may over-approximate.
#include "cat/CycleBase.hpp"
#include "cat/Loader.hpp"
#include "cat/Polarity.hpp"
#include "cat/Resolver.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;

namespace {

std::shared_ptr<const cat::ResolvedModel> model(const std::string& text) {
    return cat::resolveModel(cat::parseModelText(text, "m.cat"));
}

/** The expression of the last definition named `name`. */
const cat::Expr* body(const cat::ResolvedModel& m, const std::string& name) {
    for (std::size_t i = m.definitions.size(); i-- > 0;)
        if (m.definitions[i].name == name) return m.definitions[i].expr.get();
    FAIL("no definition " << name);
    return nullptr;
}

} // namespace

TEST_CASE("a closure only checks that get harder as it grows use may be over-approximated",
          "[polarity]") {
    auto m = model("M\nlet t = (po | rf)+\nlet u = (rf | co)+\nlet v = po+\nlet w = rf+\n"
                   "acyclic t as A\n"
                   "flag ~empty (loc \\ u) as F\n" // u under a difference: antitone
                   "flag ~empty v as G\n"          // raised when v is non-empty: monotone
                   "acyclic w as B\nflag ~empty w as H\n");
    cat::Polarity p = cat::analysePolarity(*m);
    CHECK(p.mayGrow(body(*m, "t")));
    CHECK(p.mayGrow(body(*m, "u")));
    CHECK_FALSE(p.mayGrow(body(*m, "v")));
    CHECK_FALSE(p.mayGrow(body(*m, "w"))); // both ways: exact
}

TEST_CASE("negation flips polarity: complements, differences, negated tests", "[polarity]") {
    auto m = model("M\nlet t = po+\nlet u = rf+\nlet x = co+\n"
                   "~acyclic t as A\n"
                   "empty ~u as B\n"
                   "empty (loc \\ (po \\ x)) as C\n");
    cat::Polarity p = cat::analysePolarity(*m);
    CHECK_FALSE(p.mayGrow(body(*m, "t"))); // ~acyclic: needs a real cycle
    CHECK_FALSE(p.mayGrow(body(*m, "u"))); // under a complement
    CHECK(p.mayGrow(body(*m, "x")));       // two differences cancel
}

TEST_CASE("closures inside let rec and unused ones stay exact", "[polarity]") {
    auto m = model("M\nlet rec r = po | (r ; r)+\nlet unused = rf+\nacyclic r as A\n");
    cat::Polarity p = cat::analysePolarity(*m);
    const cat::Expr* rec = body(*m, "r");
    CHECK_FALSE(p.mayGrow(rec->args.at(1).get()));
    CHECK_FALSE(p.mayGrow(body(*m, "unused")));
}

TEST_CASE("the built-in model's real-time and causality closures may grow", "[polarity]") {
    auto m = cat::resolveModel(cat::loadBuiltinModel());
    cat::Polarity p = cat::analysePolarity(*m);
    for (const char* name : {"xo", "cause-own", "eo-chain", "tc-issue", "co"})
        CHECK(p.mayGrow(body(*m, name)));
}

TEST_CASE("a cycle base flattens unions through names and drops closures", "[polarity]") {
    auto m = model("M\nlet xo = (po | rf)+\nlet both = xo | co & loc\n"
                   "acyclic (both | mbo) as A\nacyclic (po*) as B\n");
    std::vector<std::string> parts;
    for (const cat::Expr* e : cat::cycleBase(*m, m->axioms.at(0).expr.get()))
        parts.push_back(e->op == cat::Expr::Op::Name ? e->name : "<op>");
    CHECK(parts == std::vector<std::string>{"po", "rf", "<op>", "mbo"});
    // A reflexive closure keeps its identity pairs: it is left whole.
    CHECK(cat::cycleBase(*m, m->axioms.at(1).expr.get()).size() == 1);
}
