// The condition algebra of the Z3 engine: Boolean terms with constant folding.
#pragma once

#include <vector>
#include <z3++.h>

namespace ptxmc::engine {

struct Z3Algebra {
    using Cond = z3::expr;
    z3::context& ctx;

    Cond tru() const { return ctx.bool_val(true); }
    Cond fls() const { return ctx.bool_val(false); }
    static bool isTrue(const Cond& c) { return c.is_true(); }
    static bool isFalse(const Cond& c) { return c.is_false(); }
    static bool same(const Cond& a, const Cond& b) { return z3::eq(a, b); }

    Cond conj(const Cond& a, const Cond& b) const {
        if (isFalse(a) || isFalse(b)) return fls();
        if (isTrue(a)) return b;
        if (isTrue(b)) return a;
        return a && b;
    }
    Cond disj(std::vector<Cond> cs) const {
        z3::expr_vector v(ctx);
        for (auto& c : cs) {
            if (isTrue(c)) return tru();
            if (!isFalse(c)) v.push_back(c);
        }
        if (v.empty()) return fls();
        if (v.size() == 1) return v[0];
        return z3::mk_or(v);
    }
    Cond neg(const Cond& a) const {
        if (isTrue(a)) return fls();
        if (isFalse(a)) return tru();
        return !a;
    }
};

} // namespace ptxmc::engine
