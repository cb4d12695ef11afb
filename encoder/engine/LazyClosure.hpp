// A closure's pairs for the solver, each possible pair's fresh condition made when first read.
#pragma once

#include "engine/ClosureChains.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ptxmc::engine {

/** Pair (x, z) of events as one hash key. */
inline std::uint64_t pairKey(int x, int z) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(x)) << 32) |
           static_cast<std::uint32_t>(z);
}

/**
 * The pairs of RelOps::plusAtLeast's result: true where a path of certain edges joins the ends,
 * a fresh condition where only a path of possible edges does, absent elsewhere. Made eagerly, a
 * closure over the 3,916 events of a CUTLASS 2-SM GEMM is millions of fresh conditions, 6 GB
 * before any check read one (bench/history.md, 2026-12-01 (9)); the checks read it at
 * conflicting or same-location pairs, and each read pair's lower bounds reach only the pairs
 * on its paths (smt/LemmaCone.hpp). A pair's condition, once made, is the same on every read.
 */
template <class Cond> class LazyClosure {
public:
    using Reach = std::vector<std::vector<bool>>;

    /** `chains` (none: every pair its own) as RelOps::plusAtLeast takes them: a pair with an
     *  end in a chain is the pair it repeats, so only pairs between branching ends are made. */
    LazyClosure(Reach may, Reach must, std::function<Cond()> fresh, Cond tru, Cond fls,
                ClosureChains chains = {})
        : may_(std::move(may)), must_(std::move(must)), fresh_(std::move(fresh)),
          tru_(std::move(tru)), fls_(std::move(fls)), chains_(std::move(chains)) {
        for (const auto& row : may_)
            for (bool b : row)
                mayPairs_ += b ? 1 : 0;
    }

    std::size_t events() const { return may_.size(); }
    bool may(int x, int z) const { return may_[idx(x)][idx(z)]; }
    bool must(int x, int z) const { return must_[idx(x)][idx(z)]; }
    /** How many pairs may hold (the certain ones included). */
    std::size_t mayPairs() const { return mayPairs_; }

    /** The condition of (x, z): false, true, or its fresh condition (made now if new). */
    Cond at(int x, int z) const {
        if (!may(x, z)) return fls_;
        if (must(x, z)) return tru_;
        head(x, z);
        auto [it, isNew] = made_.try_emplace(pairKey(x, z), tru_);
        if (isNew) {
            it->second = fresh_();
            order_.emplace_back(x, z);
        }
        return it->second;
    }
    /** As `at`, but a pair not made yet reads as `unmade` and stays unmade (counting). */
    Cond peek(int x, int z, const Cond& unmade) const {
        if (!may(x, z)) return fls_;
        if (must(x, z)) return tru_;
        head(x, z);
        auto it = made_.find(pairKey(x, z));
        return it == made_.end() ? unmade : it->second;
    }

    /** The pairs made so far, in the order they were made. */
    const std::vector<std::pair<int, int>>& made() const { return order_; }

    /** Every z with (x, z) possible, or with `down` every x with (x, i) possible, ascending. */
    void line(int i, bool down, std::vector<int>& out) const {
        out.clear();
        const auto n = static_cast<int>(may_.size());
        for (int j = 0; j < n; ++j)
            if (down ? may(j, i) : may(i, j)) out.push_back(j);
    }

private:
    /**
     * (x, z), possible and not certain, moved to the pair between branching ends it repeats
     * (ClosureChains): x's row is its successor's plus that successor, and z's column its
     * predecessor's plus that predecessor, so the moved pair is possible and not certain too.
     */
    void head(int& x, int& z) const {
        if (chains_.none()) return;
        while (chains_.next[idx(x)] >= 0)
            x = chains_.next[idx(x)];
        while (chains_.prev[idx(z)] >= 0)
            z = chains_.prev[idx(z)];
    }
    static std::size_t idx(int i) { return static_cast<std::size_t>(i); }

    Reach may_, must_;
    std::function<Cond()> fresh_;
    Cond tru_, fls_;
    ClosureChains chains_;
    std::size_t mayPairs_ = 0;
    mutable std::unordered_map<std::uint64_t, Cond> made_;
    mutable std::vector<std::pair<int, int>> order_;
};

} // namespace ptxmc::engine
