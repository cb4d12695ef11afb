// Typed base relations, generated from Vocabulary.def so the engines dispatch by enum, not name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ptxmc::ir {

/** One enumerator per PTXMC_REL entry, in Vocabulary.def order. */
enum class Rel : std::uint8_t {
#define PTXMC_REL(id, name, choice, doc, source) id,
#include "ir/Vocabulary.def"
};

/** Number of base relations in Vocabulary.def. */
inline constexpr std::size_t kRelCount = [] {
    std::size_t n = 0;
#define PTXMC_REL(id, name, choice, doc, source) ++n;
#include "ir/Vocabulary.def"
    return n;
}();

/** The cat spelling of `r` ("mb-obs"). */
std::string_view relName(Rel r);

/** Is `r` chosen by the solver (rf, co, sc, mbo, mb-obs) rather than fixed by the program? */
bool isChoice(Rel r);

/** The relation spelled `name`, or nullopt when Vocabulary.def declares no such relation. */
std::optional<Rel> relByName(std::string_view name);

/** The relation spelled `name`; throws std::logic_error for an unknown name (a bug, never input).
 */
Rel requireRel(std::string_view name);

} // namespace ptxmc::ir
