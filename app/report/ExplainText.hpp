// Explanations for people and programs: compact text (verbose on request) and JSON.
#pragma once

#include "explain/Explanation.hpp"
#include "explain/Remedies.hpp"
#include "litmus/Ast.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ptxmc::report {

/** One test's explanation with what `explain` found beside it. */
struct ExplainReport {
    std::string file;
    engine::explain::Explanation explanation;
    std::string flag;                                   ///< explain --flag NAME, else empty
    std::optional<engine::explain::RemedySearch> fixes; ///< for an allowed outcome or flag
    const litmus::Test* test = nullptr;                 ///< what the fixes change
    std::string source;                                 ///< the test's text, for their diffs
    std::vector<std::string> readings;                  ///< lines: readings it rests on
};

/** At most this many fixes come with their diffs in text (JSON has every diff). */
inline constexpr std::size_t kDiffsShown = 3;

/**
 * Text. By default compact: what the outcome or flag needs (the racing pair, the reads that make
 * it, or per axiom its section and the cycle as source lines with the relation of each step),
 * blocked waits, the fixes; `verbose` adds every event and edge of each execution.
 */
std::string explanationText(const ExplainReport& r, bool verbose);

/** The same content as an object: kind, target, violations with their steps, the highlighted
 *  edges of a witness, blocked waits, fixes with their diffs, readings. */
nlohmann::ordered_json explanationJson(const ExplainReport& r);

} // namespace ptxmc::report
