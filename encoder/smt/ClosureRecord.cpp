// The lemmas of a closure, made one at a time from its edges and pairs (see the header).
#include "smt/ClosureRecord.hpp"

namespace ptxmc::engine::smt {

StepLemma ClosureRecord::lemma(const Key& key) const {
    const Edge& edge = edges[key.x][key.edge];
    const auto& row = pairs.rows[key.x];
    std::vector<z3::expr> open;
    if (!edge.second.is_true()) open.push_back(edge.second);
    if (key.z == Key::kOwn) return StepLemma{std::move(open), row.at(edge.first)};
    const z3::expr& rest = pairs.rows[static_cast<std::size_t>(edge.first)].at(key.z);
    if (!rest.is_true()) open.push_back(rest);
    return StepLemma{std::move(open), row.at(key.z)};
}

} // namespace ptxmc::engine::smt
