// Unsat answers of one reading reused under another (ReadingProofs.hpp).
#include "smt/ReadingProofs.hpp"

#include <algorithm>
#include <set>

namespace ptxmc::engine::smt {

namespace {

std::set<unsigned> idsOf(const std::vector<z3::expr>& exprs) {
    std::set<unsigned> out;
    for (const z3::expr& e : exprs)
        out.insert(e.id());
    return out;
}

/** The query's own assumptions: every id but the chosen literals', sorted. */
std::vector<unsigned> keyOf(const z3::expr_vector& assumptions, const std::set<unsigned>& chosen) {
    std::vector<unsigned> out;
    for (unsigned i = 0; i < assumptions.size(); ++i)
        if (!chosen.count(assumptions[i].id())) out.push_back(assumptions[i].id());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

bool ReadingProofs::proven(const z3::expr_vector& assumptions,
                           const std::vector<z3::expr>& chosen) const {
    const std::set<unsigned> now = idsOf(chosen);
    const auto it = cores_.find(keyOf(assumptions, now));
    if (it == cores_.end()) return false;
    return std::any_of(it->second.begin(), it->second.end(), [&now](const Ids& needs) {
        return std::all_of(needs.begin(), needs.end(),
                           [&now](unsigned id) { return now.count(id); });
    });
}

void ReadingProofs::add(const z3::expr_vector& assumptions, const std::vector<z3::expr>& chosen,
                        const z3::expr_vector& core) {
    const std::set<unsigned> now = idsOf(chosen);
    Ids needs;
    for (unsigned i = 0; i < core.size(); ++i)
        if (now.count(core[i].id())) needs.push_back(core[i].id());
    std::sort(needs.begin(), needs.end());
    for (unsigned i = 0; i < assumptions.size(); ++i)
        alive_.push_back(assumptions[i]);
    cores_[keyOf(assumptions, now)].push_back(std::move(needs));
}

} // namespace ptxmc::engine::smt
