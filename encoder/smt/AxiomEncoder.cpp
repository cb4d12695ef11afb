// Encodings of the three cat tests.
#include "smt/AxiomEncoder.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

namespace ptxmc::engine::smt {

std::vector<std::vector<bool>> impliedCertainEdges(const Z3Rel& r,
                                                   const std::vector<int>& component);

std::vector<int> stronglyConnected(const Z3Rel& r) {
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
    std::size_t n = r.size();
    Graph g(n);
    for (std::size_t i = 0; i < n; ++i)
        for (const auto& [j, c] : r.rows[i])
            boost::add_edge(i, static_cast<std::size_t>(j), g);
    std::vector<int> component(n);
    boost::strong_components(g, boost::make_iterator_property_map(
                                    component.begin(), boost::get(boost::vertex_index, g)));
    return component;
}

z3::expr encodeAcyclic(z3::context& ctx, const Z3Rel& r, const std::string& tag) {
    std::size_t n = r.size();
    const std::vector<int> component = stronglyConnected(r);
    z3::expr_vector parts(ctx);
    std::map<std::size_t, z3::expr> clock;
    auto clockOf = [&](std::size_t i) -> z3::expr {
        auto it = clock.find(i);
        if (it != clock.end()) return it->second;
        z3::expr c = ctx.int_const((tag + "_clk_" + std::to_string(i)).c_str());
        clock.emplace(i, c);
        return c;
    };
    const std::vector<std::vector<bool>> implied = impliedCertainEdges(r, component);
    for (std::size_t i = 0; i < n; ++i) {
        for (const auto& [jj, c] : r.rows[i]) {
            auto j = static_cast<std::size_t>(jj);
            if (i == j)
                parts.push_back(!c);
            else if (component[i] == component[j] && !(implied.size() > i && implied[i][j]))
                parts.push_back(c.is_true() ? clockOf(i) < clockOf(j)
                                            : z3::implies(c, clockOf(i) < clockOf(j)));
        }
    }
    return parts.empty() ? ctx.bool_val(true) : z3::mk_and(parts);
}

/**
 * implied[i][j]: certain edge (i, j) of a strongly connected component follows from a longer
 * path of certain edges (clock order is transitive), so its clock constraint may be left out.
 * A thread's n same-location writes in program order are certain edges of SC-per-Location: n
 * constraints instead of n^2 / 2. Nothing is implied where certain edges form a cycle (the
 * axiom fails then anyway) or none joins two others; empty when nothing is.
 */
std::vector<std::vector<bool>> impliedCertainEdges(const Z3Rel& r,
                                                   const std::vector<int>& component) {
    std::size_t n = r.size();
    std::vector<std::vector<std::size_t>> certain(n); // within one component
    bool any = false;
    for (std::size_t i = 0; i < n; ++i)
        for (const auto& [jj, c] : r.rows[i]) {
            auto j = static_cast<std::size_t>(jj);
            if (i != j && c.is_true() && component[i] == component[j]) certain[i].push_back(j);
        }
    for (std::size_t i = 0; i < n && !any; ++i)
        any = certain[i].size() > 1;
    if (!any) return {};
    // reach[i]: nodes at the end of a path of one or more certain edges from i.
    std::vector<std::vector<bool>> reach(n, std::vector<bool>(n, false));
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<std::size_t> todo(certain[i].begin(), certain[i].end());
        while (!todo.empty()) {
            std::size_t k = todo.back();
            todo.pop_back();
            if (reach[i][k]) continue;
            reach[i][k] = true;
            for (std::size_t next : certain[k])
                if (!reach[i][next]) todo.push_back(next);
        }
        if (reach[i][i]) return {}; // a cycle of certain edges
    }
    std::vector<std::vector<bool>> implied(n, std::vector<bool>(n, false));
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j : certain[i])
            for (std::size_t k : certain[i])
                if (k != j && reach[k][j]) {
                    implied[i][j] = true;
                    break;
                }
    return implied;
}

z3::expr encodeIrreflexive(z3::context& ctx, const Z3Rel& r) {
    z3::expr_vector parts(ctx);
    for (std::size_t i = 0; i < r.size(); ++i) {
        auto it = r.rows[i].find(static_cast<int>(i));
        if (it != r.rows[i].end()) parts.push_back(!it->second);
    }
    return parts.empty() ? ctx.bool_val(true) : z3::mk_and(parts);
}

z3::expr encodeEmpty(z3::context& ctx, const Z3Rel& r) {
    z3::expr_vector parts(ctx);
    for (const auto& row : r.rows)
        for (const auto& [j, c] : row)
            parts.push_back(!c);
    return parts.empty() ? ctx.bool_val(true) : z3::mk_and(parts);
}

z3::expr encodeEmptySet(z3::context& ctx, const Z3Set& s) {
    z3::expr_vector parts(ctx);
    for (const auto& [i, c] : s.members)
        parts.push_back(!c);
    return parts.empty() ? ctx.bool_val(true) : z3::mk_and(parts);
}

} // namespace ptxmc::engine::smt
