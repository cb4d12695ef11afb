// The lemmas the checks depend on, found by a walk from the checks through the lemmas.
#include "smt/LemmaCone.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>

namespace ptxmc::engine::smt {

namespace {

using IsFresh = std::function<bool(const z3::expr&)>;

/**
 * Every fresh condition under `root` into `out`; `seen` spares subterms walked before. The walk
 * reads Z3's terms in place, without a counted reference per subterm (they live as long as
 * `root`), and asks `isFresh` of constants only (a fresh condition is one): under --readings
 * the walk over every assertion was most of the cone's 0.43 s on the 2-SM kernel.
 */
void freshUnder(const z3::expr& root, const IsFresh& isFresh, std::unordered_set<unsigned>& seen,
                std::vector<unsigned>& out) {
    Z3_context c = root.ctx();
    std::vector<Z3_ast> todo{root};
    while (!todo.empty()) {
        Z3_ast e = todo.back();
        todo.pop_back();
        if (Z3_get_ast_kind(c, e) != Z3_APP_AST || !seen.insert(Z3_get_ast_id(c, e)).second)
            continue;
        Z3_app app = Z3_to_app(c, e);
        const unsigned args = Z3_get_app_num_args(c, app);
        if (args == 0 && isFresh(z3::expr(root.ctx(), e))) out.push_back(Z3_get_ast_id(c, e));
        for (unsigned k = 0; k < args; ++k)
            todo.push_back(Z3_get_app_arg(c, app, k));
    }
}

/** Where a fresh condition is a closure's pair: its record and ends. */
struct PairRef {
    std::uint32_t record = 0;
    int x = 0, z = 0;
};

/** Which fresh conditions are closures' pairs; a lazy closure's pairs are taken in as it makes
 *  them (the walk makes some: a lemma's pair through an edge). */
class PairIndex {
public:
    explicit PairIndex(const std::vector<ClosureRecord>& closures)
        : closures_(closures), taken_(closures.size(), 0) {
        for (std::size_t r = 0; r < closures.size(); ++r) {
            const auto& rows = closures[r].pairs.rows;
            for (std::size_t x = 0; x < rows.size(); ++x)
                for (const auto& [z, cond] : rows[x])
                    if (!cond.is_true() && closures[r].isHead(static_cast<int>(x), z))
                        index_.emplace(cond.id(), PairRef{static_cast<std::uint32_t>(r),
                                                          static_cast<int>(x), z});
        }
    }

    const PairRef* find(unsigned id) {
        takeNewPairs();
        auto it = index_.find(id);
        return it == index_.end() ? nullptr : &it->second;
    }

private:
    void takeNewPairs() {
        for (std::size_t r = 0; r < closures_.size(); ++r) {
            const auto& lazy = closures_[r].lazy;
            if (!lazy) continue;
            const auto& made = lazy->made();
            for (; taken_[r] < made.size(); ++taken_[r]) {
                const auto [x, z] = made[taken_[r]];
                index_.emplace(lazy->at(x, z).id(), PairRef{static_cast<std::uint32_t>(r), x, z});
            }
        }
    }

    const std::vector<ClosureRecord>& closures_;
    std::vector<std::size_t> taken_; ///< per record: how many of its made pairs are indexed
    std::unordered_map<unsigned, PairRef> index_;
};

} // namespace

z3::expr_vector lemmaCone(const z3::expr_vector& roots, const z3::expr_vector& lemmas,
                          const IsFresh& isFresh) {
    z3::expr_vector out(lemmas.ctx());
    for (unsigned i : lemmaCone(roots, lemmas, std::vector<ClosureRecord>{}, isFresh).lemmas)
        out.push_back(lemmas[i]);
    return out;
}

Cone lemmaCone(const z3::expr_vector& roots, const z3::expr_vector& lemmas,
               const std::vector<ClosureRecord>& closures, const IsFresh& isFresh) {
    std::unordered_set<unsigned> seen;
    std::vector<unsigned> frontier;
    for (unsigned i = 0; i < roots.size(); ++i)
        freshUnder(roots[i], isFresh, seen, frontier);
    // Which clauses may force each fresh condition; a clause that forces none is kept as it is.
    const auto clauses = static_cast<std::size_t>(lemmas.size());
    std::unordered_map<unsigned, std::vector<std::size_t>> forcing;
    std::vector<bool> keep(clauses, false);
    for (unsigned i = 0; i < lemmas.size(); ++i) {
        const z3::expr& l = lemmas[i];
        bool forces = false;
        auto positive = [&](const z3::expr& d) {
            if (!isFresh(d)) return;
            forcing[d.id()].push_back(i);
            forces = true;
        };
        if (l.is_app() && l.decl().decl_kind() == Z3_OP_OR)
            for (unsigned k = 0; k < l.num_args(); ++k)
                positive(l.arg(k));
        else
            positive(l);
        if (!forces) {
            keep[i] = true;
            freshUnder(l, isFresh, seen, frontier);
        }
    }
    PairIndex pairOf(closures);
    std::vector<std::pair<ClosureRecord::Key, StepLemma>> steps;
    std::unordered_set<unsigned> needed;
    while (!frontier.empty()) {
        unsigned v = frontier.back();
        frontier.pop_back();
        if (!needed.insert(v).second) continue;
        // A closure's pair: its lemmas, each made once (a head is needed once).
        if (const PairRef* p = pairOf.find(v)) {
            const PairRef ref = *p;
            closures[ref.record].lemmasOf(ref.record, ref.x, ref.z,
                                          [&](const ClosureRecord::Key& key, StepLemma lemma) {
                                              for (const z3::expr& a : lemma.antecedents)
                                                  freshUnder(a, isFresh, seen, frontier);
                                              steps.emplace_back(key, std::move(lemma));
                                          });
        }
        auto it = forcing.find(v);
        if (it == forcing.end()) continue;
        for (std::size_t i : it->second) {
            if (keep[i]) continue;
            keep[i] = true;
            // What the lemma assumes becomes needed; what else it may force need not be.
            const z3::expr& l = lemmas[static_cast<unsigned>(i)];
            if (l.is_app() && l.decl().decl_kind() == Z3_OP_OR)
                for (unsigned k = 0; k < l.num_args(); ++k)
                    if (!isFresh(l.arg(k))) freshUnder(l.arg(k), isFresh, seen, frontier);
        }
    }
    Cone out;
    for (std::size_t i = 0; i < keep.size(); ++i)
        if (keep[i]) out.lemmas.push_back(i);
    // Sorted as packed integers (the key's four fields in order, the index last: the same order
    // every run), each lemma moved once: sorting the pairs by the key's comparison took 1.2 G
    // instructions for the 509,382 lemmas of the 2-SM kernel under --readings (callgrind).
    struct Packed {
        std::uint64_t high, low;
        std::size_t index;
    };
    std::vector<Packed> order;
    order.reserve(steps.size());
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const ClosureRecord::Key& k = steps[i].first;
        const auto z = static_cast<std::uint32_t>(k.z - ClosureRecord::Key::kOwn); // kOwn first
        order.push_back(
            {(std::uint64_t{k.record} << 32U) | k.x, (std::uint64_t{k.edge} << 32U) | z, i});
    }
    std::sort(order.begin(), order.end(), [](const Packed& a, const Packed& b) {
        if (a.high != b.high) return a.high < b.high;
        if (a.low != b.low) return a.low < b.low;
        return a.index < b.index;
    });
    out.steps.reserve(steps.size());
    for (const Packed& p : order)
        out.steps.push_back(std::move(steps[p.index].second));
    return out;
}

} // namespace ptxmc::engine::smt
