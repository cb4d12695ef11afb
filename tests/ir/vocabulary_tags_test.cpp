// Typed tags and relations: the enums and the Vocabulary.def names agree, lookups fail loudly.
#include "ir/BaseRelations.hpp"
#include "ir/Event.hpp"
#include "ir/Rel.hpp"
#include "ir/Tag.hpp"
#include "ir/Vocabulary.hpp"

#include <catch2/catch.hpp>
#include <stdexcept>
#include <vector>

using namespace ptxmc;
using ir::Tag;

TEST_CASE("every base set name round-trips through tagByName and tagName", "[vocabulary]") {
    std::size_t sets = 0;
    for (const auto& b : ir::baseVocabulary()) {
        INFO(b.name);
        auto tag = ir::tagByName(b.name);
        if (!b.isSet) {
            CHECK_FALSE(tag); // relations are not event tags
            continue;
        }
        REQUIRE(tag);
        CHECK(static_cast<std::size_t>(*tag) == sets); // enum follows Vocabulary.def order
        CHECK(ir::tagName(*tag) == b.name);
        ++sets;
    }
    CHECK(sets == ir::kTagCount);
    CHECK_FALSE(ir::tagByName("BLUK"));
    CHECK_FALSE(ir::tagByName(""));
}

TEST_CASE("a name that is not a base set is refused, never read as absent", "[vocabulary]") {
    ir::Event e;
    e.tags.insert(Tag::BULK);
    CHECK(e.has(ir::requireTag("BULK")));
    CHECK_FALSE(e.has(ir::requireTag("R")));
    CHECK_THROWS_AS(ir::requireTag("BLUK"), std::logic_error);
    CHECK_THROWS_AS(ir::requireTag("po"), std::logic_error); // a relation, not a set
}

TEST_CASE("TagSet iterates in Vocabulary.def order whatever the insertion order", "[vocabulary]") {
    ir::TagSet a{Tag::EXEC, Tag::R, Tag::M, Tag::ASYNC, Tag::Weak};
    ir::TagSet b;
    for (Tag t : {Tag::Weak, Tag::ASYNC, Tag::M, Tag::R, Tag::EXEC, Tag::R})
        b.insert(t);
    CHECK(a == b);
    CHECK(b.size() == 5);
    std::vector<Tag> order(b.begin(), b.end());
    CHECK(order == std::vector<Tag>{Tag::R, Tag::M, Tag::Weak, Tag::ASYNC, Tag::EXEC});
    b.erase(Tag::M);
    CHECK_FALSE(b.has(Tag::M));
    CHECK(std::vector<Tag>(b.begin(), b.end()) ==
          std::vector<Tag>{Tag::R, Tag::Weak, Tag::ASYNC, Tag::EXEC});
    CHECK(ir::TagSet{}.empty());
}

TEST_CASE("Typed relations: the enum and the Vocabulary.def names agree", "[vocabulary]") {
    std::size_t relations = 0;
    for (const auto& b : ir::baseVocabulary()) {
        if (b.isSet) continue;
        auto rel = ir::relByName(b.name);
        REQUIRE(rel);
        CHECK(static_cast<std::size_t>(*rel) == relations); // enum follows Vocabulary.def order
        CHECK(ir::relName(*rel) == b.name);
        CHECK(ir::isChoice(*rel) == b.choice);
        ++relations;
    }
    CHECK(relations == ir::kRelCount);
    CHECK(ir::relName(ir::Rel::MbObs) == "mb-obs");
    CHECK_FALSE(ir::relByName("MB_MISUSE")); // a set, not a relation
    CHECK_THROWS_WITH(ir::requireRel("mbobs"), Catch::Contains("not a base relation"));
}

TEST_CASE("Every program-determined relation is computed, choice relations are refused",
          "[vocabulary]") {
    ir::Program empty;
    for (std::size_t i = 0; i < ir::kRelCount; ++i) {
        auto rel = static_cast<ir::Rel>(i);
        if (ir::isChoice(rel))
            CHECK_THROWS_WITH(ir::staticRelation(empty, rel), Catch::Contains("not a program"));
        else
            CHECK(ir::staticRelation(empty, rel).empty());
    }
}
