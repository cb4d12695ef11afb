// The condition algebra of the Z3 engine: Boolean terms with constant folding.
#pragma once

#include "engine/Budget.hpp"
#include "ir/ValueSemantics.hpp"
#include "smt/ClosurePropagator.hpp"
#include "smt/ClosureRecord.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>
#include <z3++.h>

namespace ptxmc::engine::smt {

using engine::Budget;

struct Z3Algebra {
    using Cond = z3::expr;
    z3::context& ctx;
    /** Where fresh() conditions get their definitions; without it there are none. */
    z3::expr_vector* lemmas = nullptr;
    /** Polled by the relation operators' loops (engine/Budget.hpp); none: no limits. */
    const Budget* budget = nullptr;
    /** The context's count of fresh names (Z3Context::freshNames); with lemmas. */
    unsigned* freshNames = nullptr;

    void poll() const {
        if (budget != nullptr) budget->poll();
    }

    Cond tru() const { return ctx.bool_val(true); }
    Cond fls() const { return ctx.bool_val(false); }
    /** One C API call each: z3::expr::is_true() makes and frees a declaration and checks the
     *  error code, and relations read pair by pair ask this of every term (27% of `perf`'s samples
     *  on CUTLASS example 48's check under decision Q18's variant). */
    static bool isTrue(const Cond& c) { return Z3_get_bool_value(c.ctx(), c) == Z3_L_TRUE; }
    static bool isFalse(const Cond& c) { return Z3_get_bool_value(c.ctx(), c) == Z3_L_FALSE; }
    static bool same(const Cond& a, const Cond& b) { return z3::eq(a, b); }

    Cond conj(const Cond& a, const Cond& b) const {
        if (isFalse(a) || isFalse(b)) return fls();
        if (isTrue(a)) return b;
        if (isTrue(b)) return a;
        return a && b;
    }
    Cond disj(std::vector<Cond> cs) const {
        std::vector<Cond> v;
        for (auto& c : cs) {
            if (isTrue(c)) return tru();
            if (!isFalse(c)) v.push_back(std::move(c));
        }
        if (v.size() > 1 && v.size() <= kMergedTerms && mergeComplements(v)) {
            if (v.empty()) return tru();
            return disj(std::move(v)); // a merge may make a term true or complementary again
        }
        if (v.empty()) return fls();
        if (v.size() == 1) return v[0];
        z3::expr_vector out(ctx);
        for (const Cond& c : v)
            out.push_back(c);
        return z3::mk_or(out);
    }
    /**
     * Disjunctions of at most this many terms are searched for complementary terms (every pair
     * compared): a reading's choice of a set is the union of `[~S] ; x` and `[S] ; y`, whose
     * pair in both x and y is (not s and c) or (s and c), under --readings, and must stay c:
     * a pair certain under every reading that the closures took as a choice left their chains
     * unmade (decision Q13's pipelined pairs: 3.8 million closure lemmas became 11.3 million
     * on our FA4-like kernel, bench/history.md).
     */
    static constexpr std::size_t kMergedTerms = 8;
    /** Whether `a` is `l` and `b` its negation (either way round). */
    static bool complementary(const Cond& a, const Cond& b) {
        const auto negationOf = [](const Cond& x, const Cond& y) {
            return x.is_app() && x.decl().decl_kind() == Z3_OP_NOT && z3::eq(x.arg(0), y);
        };
        return negationOf(a, b) || negationOf(b, a);
    }
    /** `c` as `l and rest` with a literal l (a binary conjunction, either way round). */
    static bool splitLiteral(const Cond& c, unsigned k, Cond* literal, Cond* rest) {
        if (!c.is_app() || c.decl().decl_kind() != Z3_OP_AND || c.num_args() != 2) return false;
        *literal = c.arg(k);
        *rest = c.arg(1 - k);
        return isAtom(*literal);
    }
    /**
     * Replaces two terms `l` and `not l` of a disjunction by true (the list emptied), or
     * `l and c` and `(not l) and c` by c; whether it did.
     */
    static bool mergeComplements(std::vector<Cond>& v) {
        for (std::size_t i = 0; i < v.size(); ++i)
            for (std::size_t j = i + 1; j < v.size(); ++j) {
                if (complementary(v[i], v[j])) return v.clear(), true;
                for (unsigned ki = 0; ki < 2; ++ki)
                    for (unsigned kj = 0; kj < 2; ++kj) {
                        Cond li = v[i], ri = v[i], lj = v[j], rj = v[j];
                        if (!splitLiteral(v[i], ki, &li, &ri) || !splitLiteral(v[j], kj, &lj, &rj))
                            continue;
                        if (!z3::eq(ri, rj) || !complementary(li, lj)) continue;
                        v[i] = ri;
                        v.erase(v.begin() + static_cast<std::ptrdiff_t>(j));
                        return true;
                    }
            }
        return false;
    }
    Cond neg(const Cond& a) const {
        if (isTrue(a)) return fls();
        if (isFalse(a)) return tru();
        return !a;
    }
    Cond implies(const Cond& a, const Cond& b) const { return disj({neg(a), b}); }

    /**
     * A new Boolean the solver chooses, constrained only by what require() adds. Named by an
     * integer symbol: Z3_mk_fresh_const builds and interns a new string per call (ring 2x24's
     * encoding 6.0-6.3 s with it, 5.5-5.6 s without: bench/history.md). The count is the
     * context's (smt/Z3Context.hpp); it wraps after 2^29 names, far more than one check makes.
     */
    Cond fresh() const {
        if (lemmas == nullptr || freshNames == nullptr)
            throw std::logic_error("Z3Algebra::fresh without a lemma sink or a name count");
        const auto k = static_cast<int>(kFreshBase + (*freshNames)++ % kFreshBase);
        return ctx.constant(ctx.int_symbol(k), ctx.bool_sort());
    }
    /** A condition fresh() made: an integer-named constant from kFreshBase on (nothing else
     *  in ptxmc names a constant by an integer). */
    static bool isFresh(const Cond& c) {
        if (!c.is_const() || c.decl().decl_kind() != Z3_OP_UNINTERPRETED) return false;
        Z3_symbol name = Z3_get_decl_name(c.ctx(), c.decl());
        return Z3_get_symbol_kind(c.ctx(), name) == Z3_INT_SYMBOL &&
               Z3_get_symbol_int(c.ctx(), name) >= static_cast<int>(kFreshBase);
    }
    static constexpr unsigned kFreshBase = 1U << 29; ///< Z3 takes integer symbols below 2^30
    /** A constant or a literal: cheap to repeat in many assertions. */
    static bool isAtom(const Cond& c) {
        if (c.is_const()) return true;
        return c.is_app() && c.decl().decl_kind() == Z3_OP_NOT && c.arg(0).is_const();
    }
    void require(const Cond& c) const {
        if (!isTrue(c)) lemmas->push_back(c);
    }
    /** Where closures are kept, their lemmas made on demand (smt/ClosureRecord.hpp); none:
     *  every lemma is a clause of `lemmas`. */
    std::vector<ClosureRecord>* closures = nullptr;
    bool recordsClosures() const { return closures != nullptr; }
    void recordClosure(std::vector<std::vector<ClosureRecord::Edge>> edges,
                       const SparseRel<Cond>& pairs, std::size_t lemmaCount,
                       ClosureChains chains) const {
        closures->push_back(
            ClosureRecord{std::move(edges), pairs, nullptr, lemmaCount, std::move(chains)});
    }
    /** As recordClosure, the pairs made when read (engine/LazyClosure.hpp). */
    void recordLazyClosure(std::vector<std::vector<ClosureRecord::Edge>> edges,
                           std::shared_ptr<const LazyClosure<Cond>> pairs, std::size_t lemmaCount,
                           ClosureChains chains) const {
        closures->push_back(ClosureRecord{std::move(edges), SparseRel<Cond>{}, std::move(pairs),
                                          lemmaCount, std::move(chains)});
    }
    /** A closure's lower bound as a clause: the antecedents (constants or literals) imply
     *  `head`. */
    void requireStep(const std::vector<Cond>& antecedents, const Cond& head) const {
        if (isTrue(head)) return;
        std::vector<Cond> open;
        for (const Cond& a : antecedents) {
            if (isFalse(a)) return;
            if (!isTrue(a)) open.push_back(a);
        }
        if (open.empty()) return require(head);
        require(StepLemma{std::move(open), head}.clause());
    }
};

/**
 * The value algebra of the Z3 engine (see ir/ValueSemantics.hpp): Word is a bit-vector of
 * `bits` bits (ir::Program::wordBits: 32, or 64 where the program has 64-bit values), Int a Z3
 * integer, Bool a Z3 Boolean. The terms are plain, unsimplified. With 64-bit words the 32-bit
 * operations compute on the low halves and sign-extend their results, as the concrete algebra's
 * wrap32 does; with 32-bit words they are the plain bit-vector operations.
 */
struct Z3Values {
    using Word = z3::expr;
    using Int = z3::expr;
    using Bool = z3::expr;
    z3::context& ctx;
    unsigned bits = 32;

    Word word(std::int64_t c) const {
        return ctx.bv_val(static_cast<int64_t>(ir::wrap32(c)), bits);
    }
    Word word64(std::int64_t c) const { return ctx.bv_val(static_cast<int64_t>(c), bits); }
    Int num(std::int64_t c) const { return ctx.int_val(static_cast<int64_t>(c)); }
    Bool truth(bool b) const { return ctx.bool_val(b); }

    Word add(const Word& a, const Word& b) const { return widen(lo(a) + lo(b)); }
    Word sub(const Word& a, const Word& b) const { return widen(lo(a) - lo(b)); }
    Word mul(const Word& a, const Word& b) const { return widen(lo(a) * lo(b)); }
    Word bitAnd(const Word& a, const Word& b) const { return widen(lo(a) & lo(b)); }
    Word bitOr(const Word& a, const Word& b) const { return widen(lo(a) | lo(b)); }
    Word bitXor(const Word& a, const Word& b) const { return widen(lo(a) ^ lo(b)); }
    Bool signedGreater(const Word& a, const Word& b) const { return lo(a) > lo(b); }
    Bool signedLess(const Word& a, const Word& b) const { return lo(a) < lo(b); }
    Bool unsignedLess(const Word& a, const Word& b) const { return z3::ult(lo(a), lo(b)); }
    Bool equal(const Word& a, const Word& b) const { return lo(a) == lo(b); }
    Bool nonzero(const Word& a) const { return a != word(0); }
    static Word add64(const Word& a, const Word& b) { return a + b; }
    static Word sub64(const Word& a, const Word& b) { return a - b; }
    static Word mul64(const Word& a, const Word& b) { return a * b; }
    static Word bitAnd64(const Word& a, const Word& b) { return a & b; }
    static Word bitOr64(const Word& a, const Word& b) { return a | b; }
    static Word bitXor64(const Word& a, const Word& b) { return a ^ b; }
    static Bool signedLess64(const Word& a, const Word& b) { return a < b; }
    static Bool unsignedLess64(const Word& a, const Word& b) { return z3::ult(a, b); }
    static Bool equal64(const Word& a, const Word& b) { return a == b; }
    /** The word's low 32 bits, sign-extended. */
    Word low(const Word& a) const { return widen(lo(a)); }
    /** binary32 addition in Z3's floating-point theory, round to nearest even; a NaN sum is
     *  the canonical NaN (to_ieee_bv leaves a NaN's bits unspecified). */
    Word addF32(const Word& a, const Word& b) const {
        const z3::sort f32 = ctx.fpa_sort<32>();
        const z3::expr rne(ctx, Z3_mk_fpa_rne(ctx));
        const z3::expr sum(
            ctx, Z3_mk_fpa_add(ctx, rne, lo(a).mk_from_ieee_bv(f32), lo(b).mk_from_ieee_bv(f32)));
        const z3::expr nan(ctx, Z3_mk_fpa_is_nan(ctx, sum));
        return z3::ite(nan, word(0x7fffffff), widen(sum.mk_to_ieee_bv()));
    }
    /** binary16 addition of the words' low halves (5 exponent bits, 11 significand bits). */
    Word addF16(const Word& a, const Word& b) const { return addHalf(a, b, 5, 11); }
    /** bfloat16 addition of the words' low halves (8 exponent bits, 8 significand bits). */
    Word addBF16(const Word& a, const Word& b) const { return addHalf(a, b, 8, 8); }
    /** A 16-bit float widened to binary32 (exact); a NaN is the canonical 0x7fffffff. */
    Word f16ToF32(const Word& a) const { return widenHalf(a, 5, 11); }
    Word bf16ToF32(const Word& a) const { return widenHalf(a, 8, 8); }
    /** A binary32 value rounded to a 16-bit float, nearest even, zero-extended; a NaN is 0x7fff. */
    Word f32ToF16(const Word& a) const { return roundHalf(a, 5, 11); }
    Word f32ToBF16(const Word& a) const { return roundHalf(a, 8, 8); }
    Word shiftRight(const Word& a, const Word& b) const { return widen(z3::lshr(lo(a), lo(b))); }

    Word wordOf(const Int& n) const { return widen(z3::int2bv(32, n)); }

private:
    /** A 16-bit float addition, round to nearest even, zero-extended; a NaN is 0x7fff. */
    Word addHalf(const Word& a, const Word& b, unsigned ebits, unsigned sbits) const {
        const z3::sort half(ctx, Z3_mk_fpa_sort(ctx, ebits, sbits));
        const z3::expr rne(ctx, Z3_mk_fpa_rne(ctx));
        auto low = [&](const Word& w) { return w.extract(15, 0).mk_from_ieee_bv(half); };
        const z3::expr sum(ctx, Z3_mk_fpa_add(ctx, rne, low(a), low(b)));
        const z3::expr nan(ctx, Z3_mk_fpa_is_nan(ctx, sum));
        return z3::ite(nan, word(0x7fff), z3::zext(sum.mk_to_ieee_bv(), bits - 16));
    }
    Word widenHalf(const Word& a, unsigned ebits, unsigned sbits) const {
        const z3::sort half(ctx, Z3_mk_fpa_sort(ctx, ebits, sbits));
        const z3::expr rne(ctx, Z3_mk_fpa_rne(ctx));
        const z3::expr h = a.extract(15, 0).mk_from_ieee_bv(half);
        const z3::expr f(ctx, Z3_mk_fpa_to_fp_float(ctx, rne, h, ctx.fpa_sort<32>()));
        const z3::expr nan(ctx, Z3_mk_fpa_is_nan(ctx, h));
        return z3::ite(nan, word(0x7fffffff), widen(f.mk_to_ieee_bv()));
    }
    Word roundHalf(const Word& a, unsigned ebits, unsigned sbits) const {
        const z3::sort half(ctx, Z3_mk_fpa_sort(ctx, ebits, sbits));
        const z3::expr rne(ctx, Z3_mk_fpa_rne(ctx));
        const z3::expr f = lo(a).mk_from_ieee_bv(ctx.fpa_sort<32>());
        const z3::expr h(ctx, Z3_mk_fpa_to_fp_float(ctx, rne, f, half));
        const z3::expr nan(ctx, Z3_mk_fpa_is_nan(ctx, f));
        return z3::ite(nan, word(0x7fff), z3::zext(h.mk_to_ieee_bv(), bits - 16));
    }
    /** The low 32 bits (the word itself when words are 32-bit). */
    Word lo(const Word& a) const { return bits == 32 ? a : a.extract(31, 0); }
    /** A 32-bit result as a word: sign-extended to 64 bits where words are 64-bit. */
    Word widen(const Word& a) const { return bits == 32 ? a : z3::sext(a, bits - 32); }

public:
    Int unsignedOf(const Word& w) const { return z3::bv2int(lo(w), false); }
    static Int parity(const Int& n) { return z3::mod(n, 2); }

    static z3::expr select(const Bool& c, const z3::expr& a, const z3::expr& b) {
        return z3::ite(c, a, b);
    }
    /** Both branches become terms: the solver decides. */
    template <class F, class G> static z3::expr choose(const Bool& c, F then, G otherwise) {
        return z3::ite(c, then(), otherwise());
    }
};

} // namespace ptxmc::engine::smt
