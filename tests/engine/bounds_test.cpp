// Must/may bounds (engine/Bounds.hpp): every operator keeps every concrete value within bounds.
#include "engine/Bounds.hpp"

#include <catch2/catch.hpp>
#include <random>

using namespace ptxmc::engine;

namespace {

constexpr std::size_t kEvents = 7;

BitRel randomRel(std::mt19937& rng, double density) {
    std::bernoulli_distribution edge(density);
    BitRel r(kEvents);
    for (std::size_t i = 0; i < kEvents; ++i)
        for (std::size_t j = 0; j < kEvents; ++j)
            if (edge(rng)) r.set(i, j);
    return r;
}

BitSet randomSet(std::mt19937& rng, double density) {
    std::bernoulli_distribution member(density);
    BitSet s(kEvents);
    for (std::size_t i = 0; i < kEvents; ++i)
        if (member(rng)) s.set(i);
    return s;
}

/** Bounds with must a subset of may: must a random part of a random may. */
BoundedRel randomBounds(std::mt19937& rng) {
    BitRel may = randomRel(rng, 0.4);
    return {BitOps{kEvents}.interRels(may, randomRel(rng, 0.5)), may};
}

BoundedSet randomSetBounds(std::mt19937& rng) {
    BitSet may = randomSet(rng, 0.6);
    return {BitOps{kEvents}.interSets(may, randomSet(rng, 0.5)), may};
}

/** A value within the bounds: must and a random part of the rest of may. */
BitRel within(std::mt19937& rng, const BoundedRel& b) {
    return BitOps{kEvents}.unionRels(b.must, BitOps{kEvents}.interRels(b.may, randomRel(rng, 0.5)));
}

BitSet within(std::mt19937& rng, const BoundedSet& b) {
    return BitOps{kEvents}.unionSets(b.must, BitOps{kEvents}.interSets(b.may, randomSet(rng, 0.5)));
}

bool subset(const BitRel& a, const BitRel& b) {
    return BitOps{kEvents}.diffRels(a, b).entries() == 0;
}

bool subset(const BitSet& a, const BitSet& b) {
    return BitOps{kEvents}.diffSets(a, b).none();
}

template <class Bits, class Bound> bool inside(const Bits& value, const Bound& b) {
    return subset(b.must, value) && subset(value, b.may);
}

} // namespace

TEST_CASE("bounds: each relation operator keeps the values within its bounds", "[bounds]") {
    std::mt19937 rng(20261201);
    const BitOps bits{kEvents};
    const BoundsOps ops{kEvents};
    for (int round = 0; round < 300; ++round) {
        const BoundedRel a = randomBounds(rng), b = randomBounds(rng);
        const BitRel x = within(rng, a), y = within(rng, b);
        INFO("round " << round);
        CHECK(inside(bits.unionRels(x, y), ops.unionRels(a, b)));
        CHECK(inside(bits.interRels(x, y), ops.interRels(a, b)));
        CHECK(inside(bits.diffRels(x, y), ops.diffRels(a, b)));
        CHECK(inside(bits.seq(x, y), ops.seq(a, b)));
        CHECK(inside(bits.complementRel(x), ops.complementRel(a)));
        CHECK(inside(bits.inverse(x), ops.inverse(a)));
        CHECK(inside(bits.plus(x), ops.plus(a)));
        CHECK(inside(bits.star(x), ops.star(a)));
        CHECK(inside(bits.opt(x), ops.opt(a)));
        CHECK(inside(bits.domain(x), ops.domain(a)));
        CHECK(inside(bits.range(x), ops.range(a)));
        // A reading nobody knows: the value of either side.
        CHECK(inside(x, ops.selectRels(BoundsAlgebra::Cond::Unknown, a, b)));
        CHECK(inside(y, ops.selectRels(BoundsAlgebra::Cond::Unknown, a, b)));
        CHECK(ops.selectRels(BoundsAlgebra::Cond::True, a, b) == a);
    }
}

TEST_CASE("bounds: each set operator keeps the values within its bounds", "[bounds]") {
    std::mt19937 rng(7);
    const BitOps bits{kEvents};
    const BoundsOps ops{kEvents};
    for (int round = 0; round < 300; ++round) {
        const BoundedSet a = randomSetBounds(rng), b = randomSetBounds(rng);
        const BitSet x = within(rng, a), y = within(rng, b);
        INFO("round " << round);
        CHECK(inside(bits.unionSets(x, y), ops.unionSets(a, b)));
        CHECK(inside(bits.interSets(x, y), ops.interSets(a, b)));
        CHECK(inside(bits.diffSets(x, y), ops.diffSets(a, b)));
        CHECK(inside(bits.complementSet(x), ops.complementSet(a)));
        CHECK(inside(bits.bracket(x), ops.bracket(a)));
        CHECK(inside(bits.cartesian(x, y), ops.cartesian(a, b)));
        CHECK(inside(x, ops.selectSets(BoundsAlgebra::Cond::Unknown, a, b)));
    }
}

TEST_CASE("bounds: a difference swaps the bounds of what it takes away", "[bounds]") {
    BoundedRel a{BitRel(2), BitRel(2)}, b{BitRel(2), BitRel(2)};
    a.must.set(0, 1);
    a.may.set(0, 1);
    b.may.set(0, 1); // perhaps taken away: (0, 1) is no longer sure, but still possible
    const BoundedRel d = BoundsOps{2}.diffRels(a, b);
    CHECK_FALSE(d.must.test(0, 1));
    CHECK(d.may.test(0, 1));
    b.must.set(0, 1); // surely taken away: impossible
    CHECK_FALSE(BoundsOps{2}.diffRels(a, b).may.test(0, 1));
}

TEST_CASE("bounds: three-valued conditions", "[bounds]") {
    using C = BoundsAlgebra::Cond;
    CHECK(BoundsAlgebra::conj(C::True, C::Unknown) == C::Unknown);
    CHECK(BoundsAlgebra::conj(C::False, C::Unknown) == C::False);
    CHECK(BoundsAlgebra::disj({C::False, C::Unknown}) == C::Unknown);
    CHECK(BoundsAlgebra::disj({C::Unknown, C::True}) == C::True);
    CHECK(BoundsAlgebra::neg(C::Unknown) == C::Unknown);
    CHECK(BoundsAlgebra::neg(C::True) == C::False);
}
