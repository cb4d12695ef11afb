// The condition algebra of one concrete execution: plain booleans.
#pragma once

#include "engine/BitRelation.hpp"
#include "engine/Relation.hpp"

#include <vector>

namespace ptxmc::engine {

struct BoolAlgebra {
    using Cond = bool;
    static Cond tru() { return true; }
    static Cond fls() { return false; }
    static bool isTrue(Cond c) { return c; }
    static bool isFalse(Cond c) { return !c; }
    static bool same(Cond a, Cond b) { return a == b; }
    static Cond conj(Cond a, Cond b) { return a && b; }
    static Cond disj(const std::vector<Cond>& cs) {
        for (bool c : cs)
            if (c) return true;
        return false;
    }
    static Cond neg(Cond a) { return !a; }
};

/** Concrete executions evaluate on dense bitsets: much faster than the sparse maps. */
template <> struct Representation<BoolAlgebra> {
    using Set = BitSet;
    using Rel = BitRel;
    using Ops = BitOps;
    static Ops ops(BoolAlgebra& /*alg*/, std::size_t n) { return BitOps{n}; }
};

} // namespace ptxmc::engine
