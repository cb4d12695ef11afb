// Shared check: two relations of Z3 terms have the same pairs and each pair the same term.
#pragma once

#include "engine/Relation.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <z3++.h>

namespace ptxmc::testing {

/** Same pairs, and each pair the same term (Z3 shares equal terms: pointer equality). */
inline void requireSameTerms(const engine::SparseRel<z3::expr>& whole,
                             const engine::SparseRel<z3::expr>& other, const std::string& what) {
    INFO(what);
    REQUIRE(whole.size() == other.size());
    for (std::size_t i = 0; i < whole.size(); ++i) {
        REQUIRE(whole.rows[i].size() == other.rows[i].size());
        for (const auto& [j, c] : whole.rows[i]) {
            auto it = other.rows[i].find(j);
            REQUIRE(it != other.rows[i].end());
            CHECK(z3::eq(c, it->second));
        }
    }
}

} // namespace ptxmc::testing
