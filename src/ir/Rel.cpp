// The relation name table, built from Vocabulary.def like the enum it names.
#include "ir/Rel.hpp"

#include <array>
#include <stdexcept>
#include <string>

namespace ptxmc::ir {

namespace {

struct RelRow {
    std::string_view name;
    bool choice = false;
};

constexpr std::array<RelRow, kRelCount> kRows = {{
#define PTXMC_REL(id, name, choice, doc, source) {name, choice},
#include "ir/Vocabulary.def"
}};

} // namespace

std::string_view relName(Rel r) {
    return kRows.at(static_cast<std::size_t>(r)).name;
}

bool isChoice(Rel r) {
    return kRows.at(static_cast<std::size_t>(r)).choice;
}

std::optional<Rel> relByName(std::string_view name) {
    for (std::size_t i = 0; i < kRows.size(); ++i)
        if (kRows[i].name == name) return static_cast<Rel>(i);
    return std::nullopt;
}

Rel requireRel(std::string_view name) {
    if (auto r = relByName(name)) return *r;
    throw std::logic_error("not a base relation of Vocabulary.def: " + std::string(name));
}

} // namespace ptxmc::ir
