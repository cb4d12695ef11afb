// Encodings of the three cat tests.
#include "smt/AxiomEncoder.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

namespace ptxmc::engine::smt {

z3::expr encodeAcyclic(z3::context& ctx, const Z3Rel& r, const std::string& tag) {
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
    std::size_t n = r.size();
    Graph g(n);
    for (std::size_t i = 0; i < n; ++i)
        for (const auto& [j, c] : r.rows[i])
            boost::add_edge(i, static_cast<std::size_t>(j), g);
    std::vector<int> component(n);
    boost::strong_components(g, boost::make_iterator_property_map(
                                    component.begin(), boost::get(boost::vertex_index, g)));
    z3::expr_vector parts(ctx);
    std::map<std::size_t, z3::expr> clock;
    auto clockOf = [&](std::size_t i) -> z3::expr {
        auto it = clock.find(i);
        if (it != clock.end()) return it->second;
        z3::expr c = ctx.int_const((tag + "_clk_" + std::to_string(i)).c_str());
        clock.emplace(i, c);
        return c;
    };
    for (std::size_t i = 0; i < n; ++i) {
        for (const auto& [jj, c] : r.rows[i]) {
            auto j = static_cast<std::size_t>(jj);
            if (i == j)
                parts.push_back(!c);
            else if (component[i] == component[j])
                parts.push_back(z3::implies(c, clockOf(i) < clockOf(j)));
        }
    }
    return parts.empty() ? ctx.bool_val(true) : z3::mk_and(parts);
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
