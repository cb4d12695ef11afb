// Must/may bounds of the model's relations over every execution of a class: the cat operators on
// pairs of bitsets (Kleene's three-valued logic), for pruning what no execution can raise.
#pragma once

#include "engine/BitRelation.hpp"
#include "engine/Relation.hpp"

#include <utility>
#include <vector>

namespace ptxmc::engine {

/**
 * A condition over a class of executions: holds in every one (True), in none (False), or in
 * some and not others, as far as the analysis knows (Unknown).
 */
struct BoundsAlgebra {
    enum class Cond { False, Unknown, True };
    static Cond tru() { return Cond::True; }
    static Cond fls() { return Cond::False; }
    static bool isTrue(Cond c) { return c == Cond::True; }
    static bool isFalse(Cond c) { return c == Cond::False; }
    static bool same(Cond a, Cond b) { return a == b; }
    static Cond conj(Cond a, Cond b) {
        if (a == Cond::False || b == Cond::False) return Cond::False;
        return a == Cond::True && b == Cond::True ? Cond::True : Cond::Unknown;
    }
    static Cond disj(const std::vector<Cond>& cs) {
        Cond out = Cond::False;
        for (Cond c : cs) {
            if (c == Cond::True) return Cond::True;
            if (c == Cond::Unknown) out = Cond::Unknown;
        }
        return out;
    }
    static Cond neg(Cond a) {
        return a == Cond::True ? Cond::False : a == Cond::False ? Cond::True : Cond::Unknown;
    }
};

/** A set or relation between two bounds: `must` holds in every execution of the class, and
 *  every execution's value lies inside `may` (must is a subset of may). */
template <class Bits> struct Bounded {
    Bits must;
    Bits may;
    bool operator==(const Bounded&) const = default;
};
using BoundedSet = Bounded<BitSet>;
using BoundedRel = Bounded<BitRel>;

/**
 * The cat operators on bounds (the names of RelOps and BitOps). Each is sound: if every
 * operand's value lies within its bounds, so does the result's. Monotone operators map must to
 * must and may to may; the antitone operand of a difference or complement swaps them.
 */
struct BoundsOps {
    std::size_t n;
    BitOps bits{n};

    BoundedSet emptySet() const { return {bits.emptySet(), bits.emptySet()}; }
    BoundedRel emptyRel() const { return {bits.emptyRel(), bits.emptyRel()}; }
    BoundedSet universe() const { return {bits.universe(), bits.universe()}; }

    BoundedSet unionSets(const BoundedSet& a, const BoundedSet& b) const {
        return {bits.unionSets(a.must, b.must), bits.unionSets(a.may, b.may)};
    }
    BoundedSet interSets(const BoundedSet& a, const BoundedSet& b) const {
        return {bits.interSets(a.must, b.must), bits.interSets(a.may, b.may)};
    }
    BoundedSet diffSets(const BoundedSet& a, const BoundedSet& b) const {
        return {bits.diffSets(a.must, b.may), bits.diffSets(a.may, b.must)};
    }
    BoundedSet complementSet(const BoundedSet& a) const {
        return {bits.complementSet(a.may), bits.complementSet(a.must)};
    }

    BoundedRel unionRels(BoundedRel a, const BoundedRel& b) const {
        unionInto(a, b);
        return a;
    }
    void unionInto(BoundedRel& a, const BoundedRel& b) const {
        bits.unionInto(a.must, b.must);
        bits.unionInto(a.may, b.may);
    }
    BoundedRel interRels(const BoundedRel& a, const BoundedRel& b) const {
        return {bits.interRels(a.must, b.must), bits.interRels(a.may, b.may)};
    }
    BoundedRel diffRels(const BoundedRel& a, const BoundedRel& b) const {
        return {bits.diffRels(a.must, b.may), bits.diffRels(a.may, b.must)};
    }
    BoundedRel complementRel(const BoundedRel& a) const {
        return {bits.complementRel(a.may), bits.complementRel(a.must)};
    }
    BoundedRel seq(const BoundedRel& a, const BoundedRel& b) const {
        return {bits.seq(a.must, b.must), bits.seq(a.may, b.may)};
    }
    BoundedRel inverse(const BoundedRel& a) const {
        return {bits.inverse(a.must), bits.inverse(a.may)};
    }
    BoundedRel identity() const { return {bits.identity(), bits.identity()}; }
    BoundedRel bracket(const BoundedSet& s) const {
        return {bits.bracket(s.must), bits.bracket(s.may)};
    }
    BoundedRel cartesian(const BoundedSet& a, const BoundedSet& b) const {
        return {bits.cartesian(a.must, b.must), bits.cartesian(a.may, b.may)};
    }
    BoundedSet domain(const BoundedRel& a) const {
        return {bits.domain(a.must), bits.domain(a.may)};
    }
    BoundedSet range(const BoundedRel& a) const { return {bits.range(a.must), bits.range(a.may)}; }
    BoundedRel plus(const BoundedRel& a) const { return {bits.plus(a.must), bits.plus(a.may)}; }
    BoundedRel star(const BoundedRel& a) const { return {bits.star(a.must), bits.star(a.may)}; }
    BoundedRel plusAtLeast(const BoundedRel& a) const { return plus(a); }
    BoundedRel starAtLeast(const BoundedRel& a) const { return star(a); }
    BoundedRel opt(const BoundedRel& a) const { return {bits.opt(a.must), bits.opt(a.may)}; }
    bool sameSupportAndTerms(const BoundedRel& a, const BoundedRel& b) const { return a == b; }

    /** A reading's choice: `a` where c holds, else `b`; both bounds where c is unknown. */
    BoundedSet selectSets(BoundsAlgebra::Cond c, const BoundedSet& a, const BoundedSet& b) const {
        if (c == BoundsAlgebra::Cond::True) return a;
        if (c == BoundsAlgebra::Cond::False) return b;
        return {bits.interSets(a.must, b.must), bits.unionSets(a.may, b.may)};
    }
    BoundedRel selectRels(BoundsAlgebra::Cond c, const BoundedRel& a, const BoundedRel& b) const {
        if (c == BoundsAlgebra::Cond::True) return a;
        if (c == BoundsAlgebra::Cond::False) return b;
        return {bits.interRels(a.must, b.must), bits.unionRels(a.may, b.may)};
    }
};

template <> struct Representation<BoundsAlgebra> {
    using Set = BoundedSet;
    using Rel = BoundedRel;
    using Ops = BoundsOps;
    static Ops ops(BoundsAlgebra& /*alg*/, std::size_t n) { return BoundsOps{n}; }
};

} // namespace ptxmc::engine
