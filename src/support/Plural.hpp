// Counts in words: "1 test", "2 tests" (summary lines read like English, not "1 tests").
#pragma once

#include <cstddef>
#include <string>

namespace ptxmc {

/** `n` and `noun`, with `many` (default: noun + "s") unless n is 1. */
inline std::string plural(std::size_t n, const std::string& noun, const std::string& many = "") {
    return std::to_string(n) + " " + (n == 1 ? noun : many.empty() ? noun + "s" : many);
}

} // namespace ptxmc
