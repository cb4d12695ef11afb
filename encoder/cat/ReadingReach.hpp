// Which readings each definition of a model reads through its Reading choices, for reusing a
// reading's values under another.
#pragma once

#include "cat/Resolver.hpp"

#include <set>
#include <string>
#include <vector>

namespace ptxmc::cat {

/**
 * The readings (model files, as Reading choices name them) whose choices a definition's value
 * depends on, directly or through the definitions it names. A definition that reaches none
 * of a set of readings has one value under every reading that differs only in those: its
 * value under the default reading serves them (engine/Evaluator.hpp, `reuse`).
 */
class ReadingReach {
public:
    explicit ReadingReach(const ResolvedModel& model);

    /** The readings definition `index` reaches. */
    const std::set<std::string>& ofDefinition(int index) const {
        return byDefinition_.at(static_cast<std::size_t>(index));
    }
    /** The readings expression `e` of the model reaches. */
    std::set<std::string> of(const Expr& e) const;

private:
    void collect(const Expr& e, std::set<std::string>& out) const;

    const ResolvedModel& model_;
    std::vector<std::set<std::string>> byDefinition_;
};

} // namespace ptxmc::cat
