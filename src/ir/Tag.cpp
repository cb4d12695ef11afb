// The tag name table, built from Vocabulary.def like the enum it names.
#include "ir/Tag.hpp"

#include <array>
#include <stdexcept>
#include <string>

namespace ptxmc::ir {

namespace {

constexpr std::array<std::string_view, kTagCount> kNames = {
#define PTXMC_SET(name, doc, source) #name,
#include "ir/Vocabulary.def"
};

} // namespace

std::string_view tagName(Tag t) {
    return kNames[static_cast<std::size_t>(t)];
}

std::optional<Tag> tagByName(std::string_view name) {
    for (std::size_t i = 0; i < kNames.size(); ++i)
        if (kNames[i] == name) return static_cast<Tag>(i);
    return std::nullopt;
}

Tag requireTag(std::string_view name) {
    if (auto t = tagByName(name)) return *t;
    throw std::logic_error("not a base set of Vocabulary.def: " + std::string(name));
}

} // namespace ptxmc::ir
