// Relations read pair by pair: the dense program-fixed ones (ext, sr, ...) and what a model builds
// from them.
#pragma once

#include "engine/LazyClosure.hpp"
#include "engine/Relation.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace ptxmc::engine {

/**
 * A dense program-fixed base relation (ir::densePairTest): a cheap test per pair and the
 * condition of a pair that holds. On a kernel of 2,243 events `ext`, `sr`, `scluster` and
 * `sproxy` are 5 million pairs each; stored as a term per pair they were a gigabyte of the
 * encoding (bench/history.md, 2026-11-30 (6)), though the model reads them in intersections
 * with sparse relations (`rf & ms`).
 */
template <class Cond> struct DenseBase {
    std::function<bool(int, int)> holds;
    std::function<Cond(int, int)> condition;
    mutable std::optional<std::size_t> pairs; ///< how many pairs hold (counted on first use)
};

/**
 * A relation kept as an expression over its operands and read per pair, with the same
 * condition per pair that RelOps would build (same operators, same order), so that only the
 * pairs a sparse operand or a final use reaches become terms. Union, intersection and
 * difference are left folds over their operands, as the evaluator folds them.
 */
template <class Alg> struct Pairwise {
    using Cond = typename Alg::Cond;
    using Set = SparseSet<Cond>;
    using Rel = SparseRel<Cond>;

    enum class Kind {
        Dense,
        Sparse,
        Closure,
        Cartesian,
        Inter,
        Union,
        Diff,
        Complement,
        Inverse,
        Seq,
        Select
    };
    struct Node;
    using Ptr = std::shared_ptr<const Node>;

    struct Node {
        Kind kind = Kind::Sparse;
        std::shared_ptr<const DenseBase<Cond>> dense;     ///< Dense
        std::shared_ptr<const LazyClosure<Cond>> closure; ///< Closure
        /// A lazy closure is in it: reading a pair may make a fresh condition.
        bool lazy = false;
        std::shared_ptr<const void> owner; ///< keeps `sparse` or the sets alive
        const Rel* sparse = nullptr;       ///< Sparse
        const Set* left = nullptr;         ///< Cartesian
        const Set* right = nullptr;        ///< Cartesian
        /// Inter, Union, Diff: the fold's operands; Seq: two; Select: the reading's side, then
        /// the other; others: one
        std::vector<Ptr> args;
        std::optional<Cond> choice; ///< Select: the condition under which args[0] holds
        mutable std::optional<std::size_t> size;       ///< size()'s value, memo
        mutable std::vector<std::vector<int>> columns; ///< Sparse: rows by column, memo
        /// A composite node's lines once read (rows, columns): a composition reads its left
        /// operand's row for every pair it is asked about.
        mutable std::unordered_map<int, std::vector<int>> lineMemo[2];
        /// Seq: per event asked about, its row as a set (whether a pair may hold).
        mutable std::unordered_map<int, std::vector<bool>> possibleRows;
        /// Seq over a lazy closure: each pair's condition once read. A composition
        /// reads its right operand at (k, b) for every a it is asked about, and nested ones
        /// (causality's `obs ; (fence-after ; cause-base ; fence-before)`) read them again per
        /// level: without it, 512 pairs of CUTLASS example 48's data-race under decision Q18's
        /// variant took 53-58 s (0.02 s with it).
        mutable std::unordered_map<std::uint64_t, Cond> atMemo;
    };

    Alg& alg;
    std::size_t n;

    /** The condition of pair (a, b); false where it does not hold. A lazy closure's pair not
     *  made yet reads as `*unmade` where that is given (a count), and is made otherwise. */
    Cond at(const Node& x, int a, int b, const Cond* unmade = nullptr) const {
        if (unmade != nullptr || !remembered(x)) return compute(x, a, b, unmade);
        const std::uint64_t key = pairKey(a, b);
        if (auto it = x.atMemo.find(key); it != x.atMemo.end()) return it->second;
        Cond c = compute(x, a, b, nullptr);
        x.atMemo.emplace(key, c);
        return c;
    }

    /** Whether `at` keeps x's pairs once read: a composition over a lazy closure, each of
     *  whose pairs is a loop over middle events (a counting read is not kept). Unions and
     *  intersections of them are a few lookups each, and keeping them too held 90 MiB more of
     *  CUTLASS example 48's terms by default, read once. */
    static bool remembered(const Node& x) { return x.lazy && x.kind == Kind::Seq; }

    /** at() without the memo. */
    Cond compute(const Node& x, int a, int b, const Cond* unmade) const {
        switch (x.kind) {
        case Kind::Dense:
            return x.dense->holds(a, b) ? x.dense->condition(a, b) : alg.fls();
        case Kind::Closure:
            return unmade != nullptr ? x.closure->peek(a, b, *unmade) : x.closure->at(a, b);
        case Kind::Sparse:
            return find(x.sparse->rows[static_cast<std::size_t>(a)], b);
        case Kind::Cartesian: {
            Cond ca = find(x.left->members, a);
            if (alg.isFalse(ca)) return ca;
            Cond cb = find(x.right->members, b);
            return alg.isFalse(cb) ? cb : alg.conj(ca, cb);
        }
        case Kind::Inter: {
            // A closure's pair is made only where every other operand may hold.
            if (x.lazy)
                for (const Ptr& y : x.args)
                    if (!y->lazy && !possible(*y, a, b)) return alg.fls();
            Cond acc = at(*x.args[0], a, b, unmade);
            for (std::size_t i = 1; i < x.args.size() && !alg.isFalse(acc); ++i) {
                Cond c = at(*x.args[i], a, b, unmade);
                acc = alg.isFalse(c) ? c : alg.conj(acc, c);
            }
            return acc;
        }
        case Kind::Union: {
            Cond acc = at(*x.args[0], a, b, unmade);
            for (std::size_t i = 1; i < x.args.size(); ++i) {
                Cond c = at(*x.args[i], a, b, unmade);
                if (alg.isFalse(c)) continue;
                acc = alg.isFalse(acc) ? c : alg.disj({acc, c});
            }
            return acc;
        }
        case Kind::Diff: {
            Cond acc = at(*x.args[0], a, b, unmade);
            for (std::size_t i = 1; i < x.args.size() && !alg.isFalse(acc); ++i) {
                Cond c = at(*x.args[i], a, b, unmade);
                if (!alg.isFalse(c)) acc = alg.conj(acc, alg.neg(c));
            }
            return acc;
        }
        case Kind::Complement: {
            Cond c = at(*x.args[0], a, b, unmade);
            return alg.isFalse(c) ? alg.tru() : alg.conj(alg.tru(), alg.neg(c));
        }
        case Kind::Inverse:
            return at(*x.args[0], b, a, unmade);
        case Kind::Select: { // as RelOps::selectRels
            const Cond under = at(*x.args[0], a, b, unmade);
            const Cond otherwise = at(*x.args[1], a, b, unmade);
            const bool isUnder = !alg.isFalse(under), isOtherwise = !alg.isFalse(otherwise);
            if (isUnder && isOtherwise && alg.same(under, otherwise)) return under;
            std::vector<Cond> sides;
            if (isUnder) sides.push_back(alg.conj(*x.choice, under));
            if (isOtherwise) sides.push_back(alg.conj(alg.neg(*x.choice), otherwise));
            return sides.empty() ? alg.fls() : alg.disj(std::move(sides));
        }
        case Kind::Seq: { // as RelOps::seq: a term per middle event k, ascending
            const Node& left = *x.args[0];
            const Node& right = *x.args[1];
            std::vector<int> middle; // the right's column where it is a list, else the left's row
            if (right.kind == Kind::Sparse)
                column(right, b, middle);
            else
                row(left, a, middle);
            // possible() makes no term, lazy or not: a lazy closure's pair is made only where
            // the other side may hold. Read first, the left side spares the right's pairs
            // where it is false: on CUTLASS example 48 the proxy rule `rf ; pf-war`, whose
            // `(xo & pf-cov^-1) ; po` is false wherever the read cannot precede the fence,
            // made 261,000 pairs of `xo?` after it, and 450 MB of terms, for a condition that
            // came out false (bench/history.md, 2026-12-05 (2)).
            std::vector<Cond> cs;
            for (int k : middle) {
                if (!possible(left, a, k) || !possible(right, k, b)) continue;
                Cond first = at(left, a, k, unmade);
                if (alg.isFalse(first)) continue;
                Cond second = at(right, k, b, unmade);
                if (alg.isFalse(second)) continue;
                Cond c = alg.conj(first, second);
                if (!alg.isFalse(c)) cs.push_back(std::move(c));
            }
            return cs.empty() ? alg.fls() : alg.disj(std::move(cs));
        }
        }
        return alg.fls();
    }

    /** Whether (a, b) may be in x, without making a term (false: at() is false). */
    bool possible(const Node& x, int a, int b) const {
        switch (x.kind) {
        case Kind::Dense:
            return x.dense->holds(a, b);
        case Kind::Sparse: {
            const auto& row = x.sparse->rows[static_cast<std::size_t>(a)];
            return row.find(b) != row.end();
        }
        case Kind::Closure:
            return x.closure->may(a, b);
        case Kind::Cartesian:
            return x.left->members.count(a) != 0 && x.right->members.count(b) != 0;
        case Kind::Inter:
            for (const Ptr& y : x.args)
                if (!possible(*y, a, b)) return false;
            return true;
        case Kind::Union:
        case Kind::Select:
            for (const Ptr& y : x.args)
                if (possible(*y, a, b)) return true;
            return false;
        case Kind::Diff:
            return possible(*x.args[0], a, b);
        case Kind::Complement:
            return true;
        case Kind::Inverse:
            return possible(*x.args[0], b, a);
        case Kind::Seq:
            if (auto it = x.possibleRows.find(a); it != x.possibleRows.end())
                return it->second[static_cast<std::size_t>(b)];
            else {
                std::vector<bool> reached(n, false);
                std::vector<int> middle, ends;
                row(*x.args[0], a, middle);
                for (int k : middle) {
                    if (!possible(*x.args[0], a, k)) continue;
                    row(*x.args[1], k, ends);
                    for (int j : ends)
                        if (!reached[static_cast<std::size_t>(j)] && possible(*x.args[1], k, j))
                            reached[static_cast<std::size_t>(j)] = true;
                }
                const bool out = reached[static_cast<std::size_t>(b)];
                x.possibleRows.emplace(a, std::move(reached));
                return out;
            }
        }
        return true;
    }

    /** Every b with (a, b) possibly in x, ascending (a superset of x's row). */
    void row(const Node& x, int a, std::vector<int>& out) const { line(x, a, false, out); }
    /** Every a with (a, b) possibly in x, ascending. */
    void column(const Node& x, int b, std::vector<int>& out) const { line(x, b, true, out); }

    /** The relation itself, entry by entry. */
    Rel materialize(const Node& x) const {
        if (x.kind == Kind::Sparse) return *x.sparse;
        if (x.kind == Kind::Seq) { // composed row by row, as the evaluator composed it before
            const Node& left = *x.args[0];
            const Node& right = *x.args[1];
            if (left.kind == Kind::Sparse) return seqAfter(*left.sparse, right);
            if (right.kind == Kind::Sparse) return seqBefore(left, *right.sparse);
            return seqAfter(materialize(left), right);
        }
        Rel out(n);
        std::vector<int> cands;
        for (std::size_t a = 0; a < n; ++a) {
            poll();
            row(x, static_cast<int>(a), cands);
            for (int b : cands) {
                Cond c = at(x, static_cast<int>(a), b);
                if (!alg.isFalse(c)) out.rows[a].emplace(b, std::move(c));
            }
        }
        return out;
    }

    /** r ; x, as RelOps::seq composes them. */
    Rel seqAfter(const Rel& r, const Node& x) const {
        std::vector<int> cands;
        return composed([&](std::size_t i, const auto& add) {
            for (const auto& [k, c1] : r.rows[i]) {
                poll();
                row(x, k, cands);
                for (int j : cands)
                    if (Cond c2 = at(x, k, j); !alg.isFalse(c2)) add(j, alg.conj(c1, c2));
            }
        });
    }

    /** x ; r, as RelOps::seq composes them. */
    Rel seqBefore(const Node& x, const Rel& r) const {
        std::vector<int> cands;
        return composed([&](std::size_t i, const auto& add) {
            row(x, static_cast<int>(i), cands);
            for (int k : cands) {
                if (r.rows[static_cast<std::size_t>(k)].empty()) continue; // (i, k) not read
                Cond c1 = at(x, static_cast<int>(i), k);
                if (alg.isFalse(c1)) continue;
                poll();
                for (const auto& [j, c2] : r.rows[static_cast<std::size_t>(k)])
                    add(j, alg.conj(c1, c2));
            }
        });
    }

    /** An upper bound of x's pairs (a composition's, an estimate), which decides whose rows an
     *  intersection reads. */
    std::size_t size(const Node& x) const {
        if (x.size) return *x.size;
        const std::size_t all = n * n;
        std::size_t s = all;
        switch (x.kind) {
        case Kind::Dense:
            if (!x.dense->pairs) {
                std::size_t k = 0;
                for (int a = 0; a < static_cast<int>(n); ++a)
                    for (int b = 0; b < static_cast<int>(n); ++b)
                        k += x.dense->holds(a, b) ? 1 : 0;
                x.dense->pairs = k;
            }
            s = *x.dense->pairs;
            break;
        case Kind::Sparse:
            s = x.sparse->entries();
            break;
        case Kind::Closure:
            s = x.closure->mayPairs();
            break;
        case Kind::Cartesian:
            s = x.left->members.size() * x.right->members.size();
            break;
        case Kind::Inter:
            s = size(*smallest(x));
            break;
        case Kind::Union:
        case Kind::Select:
            s = 0;
            for (const Ptr& y : x.args)
                s = std::min(all, s + size(*y));
            break;
        case Kind::Diff:
        case Kind::Inverse:
            s = size(*x.args[0]);
            break;
        case Kind::Seq: // an estimate: the left's pairs times the right's mean row
            s = std::min(all,
                         size(*x.args[0]) * (size(*x.args[1]) / std::max<std::size_t>(n, 1) + 1));
            break;
        case Kind::Complement:
            break;
        }
        x.size = s;
        return s;
    }

private:
    /** A composition row by row: `terms(i, add)` adds each term (j, condition) of row i in
     *  RelOps::seq's order; a pair is the disjunction of its terms. */
    template <class Terms> Rel composed(Terms terms) const {
        Rel out(n);
        for (std::size_t i = 0; i < n; ++i) {
            poll();
            std::map<int, std::vector<Cond>> acc;
            terms(i, [&acc, this](int j, Cond c) {
                if (!alg.isFalse(c)) acc[j].push_back(std::move(c));
            });
            for (auto& [j, cs] : acc) {
                Cond c = alg.disj(std::move(cs));
                if (!alg.isFalse(c)) out.rows[i].emplace(j, std::move(c));
            }
        }
        return out;
    }

    /** row(x, i) or, `down`, column(x, i). */
    void line(const Node& x, int i, bool down, std::vector<int>& out) const {
        // Kept over a lazy closure only: a composite over dense relations is read once, whole.
        const bool composite =
            x.lazy && (x.kind == Kind::Inter || x.kind == Kind::Union || x.kind == Kind::Diff ||
                       x.kind == Kind::Inverse || x.kind == Kind::Seq || x.kind == Kind::Select);
        if (!composite) return lineOf(x, i, down, out);
        auto& memo = x.lineMemo[down ? 1 : 0];
        if (auto it = memo.find(i); it != memo.end()) {
            out = it->second;
            return;
        }
        lineOf(x, i, down, out);
        memo.emplace(i, out);
    }
    void lineOf(const Node& x, int i, bool down, std::vector<int>& out) const {
        out.clear();
        switch (x.kind) {
        case Kind::Dense:
            for (int j = 0; j < static_cast<int>(n); ++j)
                if (down ? x.dense->holds(j, i) : x.dense->holds(i, j)) out.push_back(j);
            return;
        case Kind::Sparse:
            if (!down) {
                for (const auto& [j, c] : x.sparse->rows[static_cast<std::size_t>(i)])
                    out.push_back(j);
                return;
            }
            if (x.columns.empty()) {
                x.columns.resize(n);
                for (std::size_t a = 0; a < n; ++a)
                    for (const auto& [j, c] : x.sparse->rows[a])
                        x.columns[static_cast<std::size_t>(j)].push_back(static_cast<int>(a));
            }
            out = x.columns[static_cast<std::size_t>(i)];
            return;
        case Kind::Closure:
            return x.closure->line(i, down, out);
        case Kind::Cartesian: {
            const Set& from = down ? *x.right : *x.left;
            if (from.members.count(i))
                for (const auto& [j, c] : (down ? *x.left : *x.right).members)
                    out.push_back(j);
            return;
        }
        case Kind::Inter:
            return line(*smallest(x), i, down, out);
        case Kind::Union:
        case Kind::Select: {
            std::vector<int> part;
            for (const Ptr& y : x.args) {
                line(*y, i, down, part);
                out.insert(out.end(), part.begin(), part.end());
            }
            std::sort(out.begin(), out.end());
            out.erase(std::unique(out.begin(), out.end()), out.end());
            return;
        }
        case Kind::Diff:
            return line(*x.args[0], i, down, out);
        case Kind::Complement:
            for (int j = 0; j < static_cast<int>(n); ++j)
                out.push_back(j);
            return;
        case Kind::Inverse:
            return line(*x.args[0], i, !down, out);
        case Kind::Seq: {
            std::vector<int> middle, part;
            line(*x.args[down ? 1 : 0], i, down, middle);
            for (int k : middle) {
                line(*x.args[down ? 0 : 1], k, down, part);
                out.insert(out.end(), part.begin(), part.end());
            }
            std::sort(out.begin(), out.end());
            out.erase(std::unique(out.begin(), out.end()), out.end());
            return;
        }
        }
    }

    void poll() const {
        if constexpr (requires { alg.poll(); }) alg.poll();
    }
    template <class Map> Cond find(const Map& m, int k) const {
        auto it = m.find(k);
        return it == m.end() ? alg.fls() : it->second;
    }
    const Node* smallest(const Node& x) const {
        const Node* best = x.args[0].get();
        for (const Ptr& y : x.args)
            if (size(*y) < size(*best)) best = y.get();
        return best;
    }
};

} // namespace ptxmc::engine
