// The lemmas of a closure, made one at a time from its edges and pairs (see the header).
#include "smt/ClosureRecord.hpp"

namespace ptxmc::engine::smt {

StepLemma ClosureRecord::lemma(const Key& key) const {
    const Edge& edge = edges[key.x][key.edge];
    const auto x = static_cast<int>(key.x);
    std::vector<z3::expr> open;
    if (!edge.second.is_true()) open.push_back(edge.second);
    if (key.z == Key::kOwn) return StepLemma{std::move(open), pair(x, edge.first)};
    z3::expr rest = pair(edge.first, key.z);
    if (!rest.is_true()) open.push_back(rest);
    return StepLemma{std::move(open), pair(x, key.z)};
}

} // namespace ptxmc::engine::smt
