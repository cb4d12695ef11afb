// The condition algebra of one concrete execution: plain booleans.
#pragma once

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

} // namespace ptxmc::engine
