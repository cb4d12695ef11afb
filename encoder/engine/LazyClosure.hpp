// A closure's pairs for the solver, each possible pair's fresh condition made when first read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ptxmc::engine {

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

    LazyClosure(Reach may, Reach must, std::function<Cond()> fresh, Cond tru, Cond fls)
        : may_(std::move(may)), must_(std::move(must)), fresh_(std::move(fresh)),
          tru_(std::move(tru)), fls_(std::move(fls)) {
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
        auto [it, isNew] = made_.try_emplace(key(x, z), tru_);
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
        auto it = made_.find(key(x, z));
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
    static std::size_t idx(int i) { return static_cast<std::size_t>(i); }
    static std::uint64_t key(int x, int z) {
        return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(x)) << 32) |
               static_cast<std::uint32_t>(z);
    }

    Reach may_, must_;
    std::function<Cond()> fresh_;
    Cond tru_, fls_;
    std::size_t mayPairs_ = 0;
    mutable std::unordered_map<std::uint64_t, Cond> made_;
    mutable std::vector<std::pair<int, int>> order_;
};

} // namespace ptxmc::engine
