// The fields of one expected.txt line: path, observation, flags=, states= and reason.
#pragma once

#include "report/EngineTypes.hpp"
#include "support/SourceLoc.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ptxmc::report::detail {

/** One whitespace-separated word of a line; `begin` is a 0-based index. */
struct Word {
    std::size_t begin = 0;
    std::string text;
};

/** The position of a 0-based index of the line being parsed. */
using LocAt = std::function<SourceLoc(std::size_t)>;

/** The word at or after `pos` (which moves past it); nullopt at the end of the line. */
std::optional<Word> nextWord(const std::string& line, std::size_t& pos);

/** Everything after the path. */
struct LineFields {
    Observation expected = Observation::Never;
    std::vector<std::string> flags; ///< sorted, no duplicates
    std::size_t states = 0;
    std::string reason;
};

/**
 * Parses the rest of a line from `pos`, just after `path`. Throws InputError at the field that is
 * missing or malformed, or at a flag the reason does not mention.
 */
LineFields parseFields(const std::string& line, std::size_t pos, const Word& path, const LocAt& at);

} // namespace ptxmc::report::detail
