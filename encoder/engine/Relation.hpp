// Sparse sets and relations over events whose entries are conditions of an algebra.
#pragma once

#include "engine/ClosureChains.hpp"
#include "engine/LazyClosure.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace ptxmc::engine {

/**
 * An algebra of conditions: `bool` for one concrete execution, Z3 terms for the solver.
 * Required: Cond tru(), fls(); Cond conj(a,b), disj(vector), neg(a); bool isTrue(a), isFalse(a),
 * same(a,b) (structural equality).
 * Entries equal to false are never stored, so the support of a relation is what may hold.
 */
template <class Cond> struct SparseSet { std::map<int, Cond> members; };

template <class Cond> struct SparseRel {
    std::vector<std::map<int, Cond>> rows; ///< rows[i][j]: condition of (i, j)

    explicit SparseRel(std::size_t n = 0) : rows(n) {}
    std::size_t size() const { return rows.size(); }
    std::size_t entries() const {
        std::size_t k = 0;
        for (const auto& r : rows)
            k += r.size();
        return k;
    }
};

/** Operations on sparse sets/relations, parametrised by the algebra. */
template <class Alg> struct RelOps {
    using Cond = typename Alg::Cond;
    using Set = SparseSet<Cond>;
    using Rel = SparseRel<Cond>;

    Alg& alg;
    std::size_t n;

    /** Lets the algebra stop a long evaluation (a time or memory limit); a no-op for most. */
    void poll() const {
        if constexpr (requires { alg.poll(); }) alg.poll();
    }

    void put(std::map<int, Cond>& row, int j, Cond c) const {
        if (alg.isFalse(c)) return;
        row.insert_or_assign(j, std::move(c));
    }

    Set emptySet() const { return Set{}; }
    Rel emptyRel() const { return Rel(n); }

    Set unionSets(const Set& a, const Set& b) const {
        Set out = a;
        for (const auto& [i, c] : b.members) {
            auto it = out.members.find(i);
            if (it == out.members.end())
                out.members.emplace(i, c);
            else
                it->second = alg.disj({it->second, c});
        }
        return out;
    }
    Set interSets(const Set& a, const Set& b) const {
        Set out;
        for (const auto& [i, c] : a.members) {
            auto it = b.members.find(i);
            if (it != b.members.end()) put(out.members, i, alg.conj(c, it->second));
        }
        return out;
    }
    Set diffSets(const Set& a, const Set& b) const {
        Set out;
        for (const auto& [i, c] : a.members) {
            auto it = b.members.find(i);
            put(out.members, i, it == b.members.end() ? c : alg.conj(c, alg.neg(it->second)));
        }
        return out;
    }
    /** `c ? a : b` per member; a member with the same condition on both sides keeps it. */
    Cond select(const Cond& c, const Cond* a, const Cond* b) const {
        if (a != nullptr && b != nullptr && alg.same(*a, *b)) return *a;
        std::vector<Cond> sides;
        if (a != nullptr) sides.push_back(alg.conj(c, *a));
        if (b != nullptr) sides.push_back(alg.conj(alg.neg(c), *b));
        return alg.disj(std::move(sides));
    }
    Set selectSets(const Cond& c, const Set& a, const Set& b) const {
        Set out;
        for (const auto& [i, ca] : a.members) {
            auto it = b.members.find(i);
            put(out.members, i, select(c, &ca, it == b.members.end() ? nullptr : &it->second));
        }
        for (const auto& [i, cb] : b.members)
            if (!a.members.count(i)) put(out.members, i, select(c, nullptr, &cb));
        return out;
    }
    Rel selectRels(const Cond& c, const Rel& a, const Rel& b) const {
        Rel out(n);
        for (std::size_t i = 0; i < n; ++i) {
            poll();
            for (const auto& [j, ca] : a.rows[i]) {
                auto it = b.rows[i].find(j);
                put(out.rows[i], j, select(c, &ca, it == b.rows[i].end() ? nullptr : &it->second));
            }
            for (const auto& [j, cb] : b.rows[i])
                if (!a.rows[i].count(j)) put(out.rows[i], j, select(c, nullptr, &cb));
        }
        return out;
    }

    Set universe() const {
        Set out;
        for (std::size_t i = 0; i < n; ++i)
            out.members.emplace(static_cast<int>(i), alg.tru());
        return out;
    }
    Set complementSet(const Set& a) const { return diffSets(universe(), a); }

    Rel unionRels(const Rel& a, const Rel& b) const {
        Rel out = a;
        unionInto(out, b);
        return out;
    }
    /** `out = out | b` in place: an n-ary union no longer copies its growing result per
     *  argument (causality's definitions are unions of relations of 10^4-10^5 pairs). */
    void unionInto(Rel& out, const Rel& b) const {
        for (std::size_t i = 0; i < n; ++i) {
            poll();
            for (const auto& [j, c] : b.rows[i]) {
                auto it = out.rows[i].find(j);
                if (it == out.rows[i].end())
                    out.rows[i].emplace(j, c);
                else
                    it->second = alg.disj({it->second, c});
            }
        }
    }
    Rel interRels(const Rel& a, const Rel& b) const {
        Rel out(n);
        for (std::size_t i = 0; i < n; ++i, poll())
            for (const auto& [j, c] : a.rows[i]) {
                auto it = b.rows[i].find(j);
                if (it != b.rows[i].end()) put(out.rows[i], j, alg.conj(c, it->second));
            }
        return out;
    }
    Rel diffRels(const Rel& a, const Rel& b) const {
        Rel out(n);
        for (std::size_t i = 0; i < n; ++i, poll())
            for (const auto& [j, c] : a.rows[i]) {
                auto it = b.rows[i].find(j);
                put(out.rows[i], j, it == b.rows[i].end() ? c : alg.conj(c, alg.neg(it->second)));
            }
        return out;
    }
    Rel full() const {
        Rel out(n);
        for (std::size_t i = 0; i < n; ++i, poll())
            for (std::size_t j = 0; j < n; ++j)
                out.rows[i].emplace(static_cast<int>(j), alg.tru());
        return out;
    }
    Rel complementRel(const Rel& a) const { return diffRels(full(), a); }

    Rel seq(const Rel& a, const Rel& b) const {
        Rel out(n);
        for (std::size_t i = 0; i < n; ++i) {
            poll();
            std::map<int, std::vector<Cond>> acc;
            for (const auto& [k, c1] : a.rows[i]) {
                poll(); // a row of a dense composition is quadratic: poll per step
                for (const auto& [j, c2] : b.rows[static_cast<std::size_t>(k)]) {
                    Cond c = alg.conj(c1, c2);
                    if (!alg.isFalse(c)) acc[j].push_back(std::move(c));
                }
            }
            for (auto& [j, cs] : acc)
                put(out.rows[i], j, alg.disj(std::move(cs)));
        }
        return out;
    }
    /**
     * a ; b at the pairs (i, j) that `keep` allows, the others not made: keep(i, row) sets
     * row[j] (n wide, cleared) for each column j that row i needs. A pair made is a ; b's.
     */
    template <class Keep> Rel seqWhere(const Rel& a, const Rel& b, Keep&& keep) const {
        Rel out(n);
        std::vector<char> allowed(n);
        for (std::size_t i = 0; i < n; ++i) {
            poll();
            if (a.rows[i].empty()) continue;
            std::fill(allowed.begin(), allowed.end(), 0);
            keep(i, allowed);
            std::map<int, std::vector<Cond>> acc;
            for (const auto& [k, c1] : a.rows[i]) {
                poll();
                for (const auto& [j, c2] : b.rows[static_cast<std::size_t>(k)]) {
                    if (allowed[static_cast<std::size_t>(j)] == 0) continue;
                    Cond c = alg.conj(c1, c2);
                    if (!alg.isFalse(c)) acc[j].push_back(std::move(c));
                }
            }
            for (auto& [j, cs] : acc)
                put(out.rows[i], j, alg.disj(std::move(cs)));
        }
        return out;
    }
    /** The pairs (i, i) of `a`. */
    Rel diagonal(const Rel& a) const {
        Rel out(n);
        for (std::size_t i = 0; i < n; ++i)
            if (auto it = a.rows[i].find(static_cast<int>(i)); it != a.rows[i].end())
                out.rows[i].emplace(it->first, it->second);
        return out;
    }
    /**
     * Where fs[s] ; fs[s+1] ; ... ; fs[s-1] (round the cycle from the sparsest factor s) is
     * reflexive: some event leads back to itself through every factor in turn. Irreflexivity
     * of the result is that of fs[0] ; ... ; fs[m-1], though the events on the diagonal may
     * differ; only the last step's diagonal is built. The factors are read in place: one of
     * them may be causality (10^5 pairs), and copying it per irreflexivity axiom cost about 3 s
     * of the Coherence axiom's 8.5 s on CUTLASS's 1-SM GEMM (bench/history.md, 2026-11-30).
     */
    Rel reflexiveOfCycle(const std::vector<const Rel*>& fs) const {
        const std::size_t m = fs.size();
        std::size_t start = 0;
        for (std::size_t k = 1; k < m; ++k)
            if (fs[k]->entries() < fs[start]->entries()) start = k;
        Rel composed;
        const Rel* acc = fs[start];
        for (std::size_t k = 1; k + 1 < m; ++k) {
            composed = seq(*acc, *fs[(start + k) % m]);
            acc = &composed;
        }
        const Rel& last = *fs[(start + m - 1) % m];
        Rel out(n);
        for (std::size_t i = 0; i < n; ++i) {
            poll();
            std::vector<Cond> cs;
            for (const auto& [k, c1] : acc->rows[i]) {
                const auto& row = last.rows[static_cast<std::size_t>(k)];
                if (auto it = row.find(static_cast<int>(i)); it != row.end()) {
                    Cond c = alg.conj(c1, it->second);
                    if (!alg.isFalse(c)) cs.push_back(std::move(c));
                }
            }
            if (!cs.empty()) put(out.rows[i], static_cast<int>(i), alg.disj(std::move(cs)));
        }
        return out;
    }
    Rel inverse(const Rel& a) const {
        Rel out(n);
        for (std::size_t i = 0; i < n; ++i, poll())
            for (const auto& [j, c] : a.rows[i])
                out.rows[static_cast<std::size_t>(j)].emplace(static_cast<int>(i), c);
        return out;
    }
    Rel identity() const {
        Rel out(n);
        for (std::size_t i = 0; i < n; ++i)
            out.rows[i].emplace(static_cast<int>(i), alg.tru());
        return out;
    }
    Rel bracket(const Set& s) const {
        Rel out(n);
        for (const auto& [i, c] : s.members)
            out.rows[static_cast<std::size_t>(i)].emplace(i, c);
        return out;
    }
    Rel cartesian(const Set& a, const Set& b) const {
        Rel out(n);
        for (const auto& [i, c1] : a.members) {
            poll();
            for (const auto& [j, c2] : b.members)
                put(out.rows[static_cast<std::size_t>(i)], j, alg.conj(c1, c2));
        }
        return out;
    }
    Set domain(const Rel& a) const {
        Set out;
        for (std::size_t i = 0; i < n; ++i) {
            std::vector<Cond> cs;
            for (const auto& [j, c] : a.rows[i])
                cs.push_back(c);
            if (!cs.empty()) put(out.members, static_cast<int>(i), alg.disj(std::move(cs)));
        }
        return out;
    }
    Set range(const Rel& a) const { return domain(inverse(a)); }

    /**
     * Transitive closure by repeated squaring: after k rounds every path of up to 2^k edges is
     * included, and a path never needs more edges than there are events on it, so
     * ceil(log2(n)) rounds are exact (a longer walk's condition implies a shorter one's).
     */
    Rel plus(const Rel& a) const {
        std::size_t nodes = 0;
        for (std::size_t i = 0; i < n; ++i)
            if (!a.rows[i].empty()) ++nodes;
        Rel r = a;
        for (std::size_t reach = 1; reach < nodes + 1; reach *= 2) {
            Rel next = unionRels(r, seq(r, r));
            if (sameSupportAndTerms(r, next)) break; // a fixpoint stays one
            r = std::move(next);
        }
        return r;
    }
    Rel star(const Rel& a) const { return unionRels(identity(), plus(a)); }

    /**
     * A relation containing a+ that the solver may choose larger (cat/Polarity.hpp says where
     * that is sound): one fresh condition per pair that a path of possible edges reaches and
     * no path of certain edges does, bounded below by a's edges and by a ; (the result).
     * Linear in edges times reach, where squaring builds terms cubic in the events; an algebra
     * without fresh conditions (one concrete execution) computes a+ itself. A pair whose end
     * passes through a chain of certain edges is the pair it repeats (engine/ClosureChains.hpp):
     * fresh conditions and lemmas only between branching ends.
     */
    Rel plusAtLeast(const Rel& a) const {
        if constexpr (requires { alg.fresh(); }) {
            std::vector<std::vector<bool>> may = reach(a, false), must = reach(a, true);
            auto edges = closureEdges(a, must);
            const ClosureChains chains =
                ClosureChains::of(edges, [this](const Cond& c) { return alg.isTrue(c); });
            Rel out = closurePairs(may, must, chains);
            if (!chains.none())
                for (std::size_t x = 0; x < n; ++x)
                    if (chains.next[x] >= 0) edges[x].clear(); // its pairs repeat next's
            const std::size_t lemmas = lemmaCount(edges, may, must, chains);
            // An algebra that keeps the closure makes its lemmas on demand.
            if constexpr (requires { alg.recordsClosures(); })
                if (alg.recordsClosures()) {
                    alg.recordClosure(std::move(edges), out, lemmas, chains);
                    return out;
                }
            for (std::size_t x = 0; x < n; ++x)
                for (const auto& [y, c] : edges[x]) {
                    poll();
                    step(c, alg.tru(), out.rows[x].at(y));
                    for (const auto& [z, yz] : out.rows[static_cast<std::size_t>(y)])
                        if (lemmaColumn(chains, z)) step(c, yz, out.rows[x].at(z));
                }
            return out;
        } else {
            return plus(a);
        }
    }

    /** Whether the lemmas `c && (y, z) -> (x, z)` of column z are needed: z's pairs are
     *  their own (those of a chained z follow from its predecessor's). */
    static bool lemmaColumn(const ClosureChains& chains, int z) {
        return chains.none() || chains.prev[static_cast<std::size_t>(z)] < 0;
    }

    /** plusAtLeast's pairs: true on a certain path, a fresh condition between branching ends,
     *  and the condition of the pair a chained end repeats elsewhere. */
    Rel closurePairs(const std::vector<std::vector<bool>>& may,
                     const std::vector<std::vector<bool>>& must,
                     const ClosureChains& chains) const {
        Rel out(n);
        if (chains.none()) {
            for (std::size_t x = 0; x < n; ++x, poll())
                for (std::size_t z = 0; z < n; ++z)
                    if (may[x][z])
                        out.rows[x].emplace(static_cast<int>(z),
                                            must[x][z] ? alg.tru() : alg.fresh());
            return out;
        }
        // Rows that branch, their columns in chain order (a chained z after its predecessor).
        for (std::size_t x = 0; x < n; ++x, poll()) {
            if (chains.next[x] >= 0) continue;
            auto& row = out.rows[x];
            for (int zi : chains.order) {
                const auto z = static_cast<std::size_t>(zi);
                if (!may[x][z]) continue;
                const int from = chains.prev[z];
                row.emplace(zi, must[x][z] ? alg.tru() : from < 0 ? alg.fresh() : row.at(from));
            }
        }
        // Chained rows, each after its successor's: next's row plus next.
        for (auto it = chains.order.rbegin(); it != chains.order.rend(); ++it, poll()) {
            const auto x = static_cast<std::size_t>(*it);
            const int next = chains.next[x];
            if (next < 0) continue;
            out.rows[x] = out.rows[static_cast<std::size_t>(next)];
            out.rows[x].insert_or_assign(next, alg.tru());
        }
        return out;
    }

    /** How many lemmas with a head that is not true `edges` give: each edge's own, and its
     *  steps through the columns that have lemmas (lemmaColumn). */
    std::size_t lemmaCount(const std::vector<std::vector<std::pair<int, Cond>>>& edges,
                           const std::vector<std::vector<bool>>& may,
                           const std::vector<std::vector<bool>>& must,
                           const ClosureChains& chains) const {
        std::size_t lemmas = 0;
        for (std::size_t x = 0; x < n; ++x)
            for (const auto& [y, c] : edges[x]) {
                const auto& via = may[static_cast<std::size_t>(y)];
                lemmas += must[x][static_cast<std::size_t>(y)] ? 0 : 1;
                for (std::size_t z = 0; z < n; ++z)
                    lemmas += via[z] && !must[x][z] && lemmaColumn(chains, static_cast<int>(z));
            }
        return lemmas;
    }

    /**
     * plusAtLeast with the pairs made when read (engine/LazyClosure.hpp), for an algebra that
     * keeps its closures and makes their lemmas on demand, where it may have `fromPairs` pairs
     * or more; null otherwise.
     */
    std::shared_ptr<const LazyClosure<Cond>> plusAtLeastLazy(const Rel& a,
                                                             std::size_t fromPairs) const {
        if constexpr (requires { alg.recordLazyClosure({}, nullptr, 0, ClosureChains{}); }) {
            if (!alg.recordsClosures()) return nullptr;
            std::vector<std::vector<bool>> may = reach(a, false);
            std::size_t pairs = 0;
            for (const auto& row : may)
                pairs += static_cast<std::size_t>(std::count(row.begin(), row.end(), true));
            if (pairs < fromPairs) return nullptr; // made eagerly: as cheap, and no reads per pair
            std::vector<std::vector<bool>> must = reach(a, true);
            auto edges = closureEdges(a, must);
            ClosureChains chains =
                ClosureChains::of(edges, [this](const Cond& c) { return alg.isTrue(c); });
            if (!chains.none())
                for (std::size_t x = 0; x < n; ++x)
                    if (chains.next[x] >= 0) edges[x].clear(); // its pairs repeat next's
            const std::size_t lemmas = lemmaCount(edges, may, must, chains);
            Alg* owner = &alg;
            auto out = std::make_shared<const LazyClosure<Cond>>(
                std::move(may), std::move(must), [owner] { return owner->fresh(); }, alg.tru(),
                alg.fls(), chains);
            alg.recordLazyClosure(std::move(edges), out, lemmas, std::move(chains));
            return out;
        } else {
            return nullptr;
        }
    }

    /**
     * The edges of `a` whose lower bounds do not follow from certain paths, each condition a
     * constant or a literal (a composite one is named once: the lemmas repeat it per reachable
     * z, and the solver would simplify each copy on its own).
     */
    std::vector<std::vector<std::pair<int, Cond>>>
    closureEdges(const Rel& a, const std::vector<std::vector<bool>>& must) const {
        bool mustAcyclic = true;
        for (std::size_t x = 0; x < n; ++x)
            mustAcyclic = mustAcyclic && !must[x][x];
        std::vector<std::vector<std::pair<int, Cond>>> edges(n);
        for (std::size_t x = 0; x < n; ++x)
            for (const auto& [y, edge] : a.rows[x]) {
                poll(); // each edge adds up to n lemmas
                if (mustAcyclic && impliedByMustPath(a, must, x, y, edge)) continue;
                Cond c = edge;
                if (!alg.isAtom(edge)) {
                    c = alg.fresh();
                    alg.require(alg.implies(edge, c));
                }
                edges[x].emplace_back(y, std::move(c));
            }
        return edges;
    }
    /** The lower bound `edge && rest -> pair` of a closure (requireStep where the algebra
     *  records closure lemmas for propagation). */
    void step(const Cond& edge, const Cond& rest, const Cond& pair) const {
        if (alg.isTrue(pair)) return;
        if constexpr (requires { alg.requireStep({edge, rest}, pair); })
            alg.requireStep({edge, rest}, pair);
        else
            alg.require(alg.implies(alg.conj(edge, rest), pair));
    }
    Rel starAtLeast(const Rel& a) const { return unionRels(identity(), plusAtLeast(a)); }

    /**
     * Whether the lower bounds of edge (x, y) follow from those of a path of certain edges
     * that stays (a transitive reduction of the certain edges, which form no cycle): a
     * possible edge between two ends already joined by certain edges, or a certain edge
     * bypassed by a longer certain path.
     */
    bool impliedByMustPath(const Rel& a, const std::vector<std::vector<bool>>& must, std::size_t x,
                           int y, const Cond& edge) const {
        auto yy = static_cast<std::size_t>(y);
        if (!alg.isTrue(edge)) return must[x][yy];
        for (const auto& [via, c] : a.rows[x])
            if (via != y && alg.isTrue(c) && must[static_cast<std::size_t>(via)][yy]) return true;
        return false;
    }

    /** reach[x][z]: a path of one or more edges from x to z (only certain edges if `must`). */
    std::vector<std::vector<bool>> reach(const Rel& a, bool must) const {
        std::vector<std::vector<bool>> out(n, std::vector<bool>(n, false));
        for (std::size_t x = 0; x < n; ++x) {
            poll();
            std::vector<int> todo;
            auto step = [&](std::size_t from) {
                for (const auto& [to, c] : a.rows[from])
                    if ((!must || alg.isTrue(c)) && !out[x][static_cast<std::size_t>(to)]) {
                        out[x][static_cast<std::size_t>(to)] = true;
                        todo.push_back(to);
                    }
            };
            step(x);
            while (!todo.empty()) {
                int y = todo.back();
                todo.pop_back();
                step(static_cast<std::size_t>(y));
            }
        }
        return out;
    }
    Rel opt(const Rel& a) const { return unionRels(identity(), a); }

    /** Structural equality: once squaring changes nothing, further rounds change nothing. */
    bool sameSupportAndTerms(const Rel& a, const Rel& b) const {
        for (std::size_t i = 0; i < n; ++i) {
            if (a.rows[i].size() != b.rows[i].size()) return false;
            for (const auto& [j, c] : a.rows[i]) {
                auto it = b.rows[i].find(j);
                if (it == b.rows[i].end() || !alg.same(c, it->second)) return false;
            }
        }
        return true;
    }
};

/** Which set/relation types and operators an algebra evaluates with (sparse by default). */
template <class Alg> struct Representation {
    using Set = SparseSet<typename Alg::Cond>;
    using Rel = SparseRel<typename Alg::Cond>;
    using Ops = RelOps<Alg>;
    static Ops ops(Alg& alg, std::size_t n) { return Ops{alg, n}; }
};

} // namespace ptxmc::engine
