// Typed tags: the enum and the Vocabulary.def names agree, and string lookups fail loudly.
#include "ir/Event.hpp"
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
