// Name resolution and kind checking of cat models.
#include "../unit/RequireInputError.hpp"
#include "cat/Loader.hpp"
#include "cat/Resolver.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;

namespace {

void rejects(const std::string& text, int line, int col, const std::string& fragment) {
    testing::requireInputError([&] { cat::resolveModel(cat::parseModelText(text, "m.cat")); }, text,
                               "m.cat", line, col, fragment);
}

} // namespace

TEST_CASE("a misspelled name is an error with a suggestion, never an empty relation",
          "[resolver]") {
    rejects("M\nlet x = po | rff\nacyclic x as A\n", 2, 14,
            "unknown relation or set 'rff' (did you mean 'rf'?)");
    rejects("M\nacyclic po ; undefined-thing as A\n", 2, 14,
            "unknown relation or set 'undefined-thing'");
}

TEST_CASE("sets and relations are not mixed", "[resolver]") {
    rejects("M\nacyclic po | R as A\n", 2, 12, "mix");
    rejects("M\nempty [po] as A\n", 2, 8, "expected a set");
    rejects("M\nacyclic W as A\n", 2, 9, "need a relation");
}

TEST_CASE("checks are named once, let rec must be monotone", "[resolver]") {
    rejects("M\nacyclic po as A\nacyclic rf as A\n", 3, 1, "two checks are named 'A'");
    rejects("M\nlet rec r = po \\ r\nacyclic r as A\n", 2, 18, "no least fixpoint");
    rejects("M\nlet x = po\n", 1, 1, "no checks");
}

TEST_CASE("the built-in model resolves, with every axiom named and documented", "[resolver]") {
    auto m = cat::resolveModel(cat::loadBuiltinModel());
    REQUIRE(m->axioms.size() >= 10);
    for (const auto& a : m->axioms) {
        INFO(a.name);
        CHECK_FALSE(a.name.empty());
        CHECK_FALSE(a.doc.empty()); // the comment above each check cites its PTX section
    }
}
