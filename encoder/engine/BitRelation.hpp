// Dense bitset sets and relations for concrete executions (the explicit engine's fast path).
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace ptxmc::engine {

/** A set of event ids in [0, n) as 64-bit words. */
class BitSet {
public:
    BitSet() = default;
    explicit BitSet(std::size_t n) : n_(n), words_((n + 63) / 64, 0) {}

    std::size_t universe() const { return n_; }
    bool test(std::size_t i) const { return (words_[i / 64] >> (i % 64)) & 1U; }
    void set(std::size_t i) { words_[i / 64] |= std::uint64_t{1} << (i % 64); }
    bool none() const {
        for (auto w : words_)
            if (w) return false;
        return true;
    }
    std::size_t count() const {
        std::size_t c = 0;
        for (auto w : words_)
            c += static_cast<std::size_t>(std::popcount(w));
        return c;
    }
    /** Calls f(i) for each member in increasing order. */
    template <class F> void forEach(F&& f) const {
        for (std::size_t k = 0; k < words_.size(); ++k)
            for (std::uint64_t w = words_[k]; w; w &= w - 1)
                f(k * 64 + static_cast<std::size_t>(std::countr_zero(w)));
    }
    BitSet& operator|=(const BitSet& o) {
        for (std::size_t k = 0; k < words_.size(); ++k)
            words_[k] |= o.words_[k];
        return *this;
    }
    BitSet& operator&=(const BitSet& o) {
        for (std::size_t k = 0; k < words_.size(); ++k)
            words_[k] &= o.words_[k];
        return *this;
    }
    BitSet& minus(const BitSet& o) {
        for (std::size_t k = 0; k < words_.size(); ++k)
            words_[k] &= ~o.words_[k];
        return *this;
    }
    void fill() {
        for (std::size_t i = 0; i < n_; ++i)
            set(i);
    }
    bool operator==(const BitSet& o) const = default;

private:
    std::size_t n_ = 0;
    std::vector<std::uint64_t> words_;
};

/** A relation over [0, n): row i is `words()` 64-bit words of one flat array. */
class BitRel {
public:
    BitRel() = default;
    explicit BitRel(std::size_t n) : n_(n), w_((n + 63) / 64), bits_(n * ((n + 63) / 64), 0) {}

    std::size_t size() const { return n_; }
    std::size_t words() const { return w_; }
    bool test(std::size_t i, std::size_t j) const {
        return (bits_[i * w_ + j / 64] >> (j % 64)) & 1U;
    }
    void set(std::size_t i, std::size_t j) {
        bits_[i * w_ + j / 64] |= std::uint64_t{1} << (j % 64);
    }
    void reset(std::size_t i, std::size_t j) {
        bits_[i * w_ + j / 64] &= ~(std::uint64_t{1} << (j % 64));
    }
    std::uint64_t* row(std::size_t i) { return bits_.data() + i * w_; }
    const std::uint64_t* row(std::size_t i) const { return bits_.data() + i * w_; }
    bool rowEmpty(std::size_t i) const {
        for (std::size_t k = 0; k < w_; ++k)
            if (row(i)[k]) return false;
        return true;
    }
    /** Calls f(j) for each j with (i, j) in the relation, in increasing order. */
    template <class F> void forEachInRow(std::size_t i, F&& f) const {
        const std::uint64_t* r = row(i);
        for (std::size_t k = 0; k < w_; ++k)
            for (std::uint64_t w = r[k]; w; w &= w - 1)
                f(k * 64 + static_cast<std::size_t>(std::countr_zero(w)));
    }
    /** Row i |= row k of `other`. */
    void orRow(std::size_t i, const BitRel& other, std::size_t k) {
        std::uint64_t* dst = row(i);
        const std::uint64_t* src = other.row(k);
        for (std::size_t x = 0; x < w_; ++x)
            dst[x] |= src[x];
    }
    std::size_t entries() const {
        std::size_t c = 0;
        for (auto w : bits_)
            c += static_cast<std::size_t>(std::popcount(w));
        return c;
    }
    std::vector<std::uint64_t>& data() { return bits_; }
    const std::vector<std::uint64_t>& data() const { return bits_; }
    bool operator==(const BitRel& o) const = default;

private:
    std::size_t n_ = 0, w_ = 0;
    std::vector<std::uint64_t> bits_;
};

/** The relation operators of the cat language on bitsets (same names as RelOps). */
struct BitOps {
    std::size_t n;

    BitSet emptySet() const { return BitSet(n); }
    BitRel emptyRel() const { return BitRel(n); }
    BitSet universe() const {
        BitSet s(n);
        s.fill();
        return s;
    }
    BitSet unionSets(BitSet a, const BitSet& b) const { return a |= b; }
    BitSet interSets(BitSet a, const BitSet& b) const { return a &= b; }
    BitSet diffSets(BitSet a, const BitSet& b) const { return a.minus(b); }
    BitSet complementSet(const BitSet& a) const { return universe().minus(a); }

    BitRel unionRels(BitRel a, const BitRel& b) const {
        unionInto(a, b);
        return a;
    }
    void unionInto(BitRel& a, const BitRel& b) const {
        for (std::size_t k = 0; k < a.data().size(); ++k)
            a.data()[k] |= b.data()[k];
    }
    BitRel interRels(BitRel a, const BitRel& b) const {
        for (std::size_t k = 0; k < a.data().size(); ++k)
            a.data()[k] &= b.data()[k];
        return a;
    }
    BitRel diffRels(BitRel a, const BitRel& b) const {
        for (std::size_t k = 0; k < a.data().size(); ++k)
            a.data()[k] &= ~b.data()[k];
        return a;
    }
    BitRel complementRel(const BitRel& a) const {
        BitRel out(n);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j)
                if (!a.test(i, j)) out.set(i, j);
        return out;
    }
    BitRel seq(const BitRel& a, const BitRel& b) const {
        BitRel out(n);
        for (std::size_t i = 0; i < n; ++i)
            a.forEachInRow(i, [&](std::size_t k) { out.orRow(i, b, k); });
        return out;
    }
    BitRel inverse(const BitRel& a) const {
        BitRel out(n);
        for (std::size_t i = 0; i < n; ++i)
            a.forEachInRow(i, [&](std::size_t j) { out.set(j, i); });
        return out;
    }
    BitRel identity() const {
        BitRel out(n);
        for (std::size_t i = 0; i < n; ++i)
            out.set(i, i);
        return out;
    }
    BitRel bracket(const BitSet& s) const {
        BitRel out(n);
        s.forEach([&](std::size_t i) { out.set(i, i); });
        return out;
    }
    BitRel cartesian(const BitSet& a, const BitSet& b) const {
        BitRel out(n);
        a.forEach([&](std::size_t i) { b.forEach([&](std::size_t j) { out.set(i, j); }); });
        return out;
    }
    BitSet domain(const BitRel& a) const {
        BitSet out(n);
        for (std::size_t i = 0; i < n; ++i)
            if (!a.rowEmpty(i)) out.set(i);
        return out;
    }
    BitSet range(const BitRel& a) const {
        BitSet out(n);
        for (std::size_t i = 0; i < n; ++i)
            a.forEachInRow(i, [&](std::size_t j) { out.set(j); });
        return out;
    }
    /** Transitive closure, Warshall's algorithm on rows. */
    BitRel plus(BitRel a) const {
        for (std::size_t k = 0; k < n; ++k)
            for (std::size_t i = 0; i < n; ++i)
                if (a.test(i, k)) a.orRow(i, a, k);
        return a;
    }
    BitRel star(const BitRel& a) const { return unionRels(identity(), plus(a)); }
    /** One concrete execution: the exact closure (Relation.hpp's plusAtLeast is for solvers). */
    BitRel plusAtLeast(BitRel a) const { return plus(std::move(a)); }
    BitRel starAtLeast(const BitRel& a) const { return star(a); }
    BitRel opt(const BitRel& a) const { return unionRels(identity(), a); }
    bool sameSupportAndTerms(const BitRel& a, const BitRel& b) const { return a == b; }
};

} // namespace ptxmc::engine
