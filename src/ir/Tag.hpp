// Typed base-set tags of events, generated from Vocabulary.def so a misspelt tag does not compile.
#pragma once

#include <bitset>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <string_view>

namespace ptxmc::ir {

/**
 * One enumerator per PTXMC_SET entry, in Vocabulary.def order. Every set name is a valid C++
 * identifier (only relation names carry '-'), so the names map to enumerators unchanged.
 */
enum class Tag : std::uint8_t {
#define PTXMC_SET(name, doc, source) name,
#include "ir/Vocabulary.def"
};

/** Number of tags: the base sets of Vocabulary.def. */
inline constexpr std::size_t kTagCount = [] {
    std::size_t n = 0;
#define PTXMC_SET(name, doc, source) ++n;
#include "ir/Vocabulary.def"
    return n;
}();

/** The Vocabulary.def spelling of `t` (the name cat models use). */
std::string_view tagName(Tag t);

/** The tag spelled `name`, or nullopt when Vocabulary.def declares no such base set. */
std::optional<Tag> tagByName(std::string_view name);

/** The tag spelled `name`; throws std::logic_error for an unknown name (a bug, never input). */
Tag requireTag(std::string_view name);

/** A set of tags; iterates in Vocabulary.def order, whatever the insertion order. */
class TagSet {
public:
    TagSet() = default;
    TagSet(std::initializer_list<Tag> tags) {
        for (Tag t : tags)
            insert(t);
    }

    void insert(Tag t) { bits_.set(index(t)); }
    void erase(Tag t) { bits_.reset(index(t)); }
    bool has(Tag t) const { return bits_.test(index(t)); }
    bool empty() const { return bits_.none(); }
    std::size_t size() const { return bits_.count(); }
    friend bool operator==(const TagSet&, const TagSet&) = default;

    /** Walks the members in enumerator (Vocabulary.def) order. */
    class iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Tag;
        using difference_type = std::ptrdiff_t;
        using pointer = const Tag*;
        using reference = Tag;

        iterator() = default;
        iterator(const TagSet* s, std::size_t i) : s_(s), i_(i) { skip(); }
        Tag operator*() const { return static_cast<Tag>(i_); }
        iterator& operator++() {
            ++i_;
            skip();
            return *this;
        }
        iterator operator++(int) {
            iterator old = *this;
            ++*this;
            return old;
        }
        friend bool operator==(const iterator&, const iterator&) = default;

    private:
        void skip() {
            while (i_ < kTagCount && !s_->bits_.test(i_))
                ++i_;
        }
        const TagSet* s_ = nullptr;
        std::size_t i_ = 0;
    };
    iterator begin() const { return {this, 0}; }
    iterator end() const { return {this, kTagCount}; }

private:
    static std::size_t index(Tag t) { return static_cast<std::size_t>(t); }
    std::bitset<kTagCount> bits_;
};

} // namespace ptxmc::ir
