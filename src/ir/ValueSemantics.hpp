// The meaning of run-time values (ir::Value), written once over a value algebra: both engines
// and the lowering's constant folding use it.
#pragma once

#include "ir/Event.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace ptxmc::ir {

/** Wraps a value to the 32-bit registers the engines compute with, read as signed. */
inline std::int64_t wrap32(std::int64_t v) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
}

/** Whether `v` is a 32-bit value as a litmus test writes one: -2^31 to 2^32-1. */
inline bool fits32(std::int64_t v) {
    return v >= -(std::int64_t{1} << 31) && v <= (std::int64_t{1} << 32) - 1;
}

/**
 * A value algebra has three sorts: Word (a register value, two's complement: a 32-bit word
 * sign-extended, or a 64-bit word where a 64-bit access or operation made it), Int (an
 * unbounded count: mbarrier phases, arrivals, tx bytes) and Bool. Int and Bool use the C++
 * operators (+ - < == && || !); everything else is a member. ConcreteValues below is the
 * explicit engine's; smt::Z3Values is the solver's. Writing `valid && f()` in the generic code
 * short-circuits on the concrete sort, so a value the concrete engine never needs is never
 * evaluated there (evaluation can detect thin-air cycles).
 */
struct ConcreteValues {
    using Word = std::int64_t; ///< sign-extended 32-bit value (wrap32), or a 64-bit value
    using Int = std::int64_t;
    using Bool = bool;

    static Word word(std::int64_t c) { return wrap32(c); }
    static Word word64(std::int64_t c) { return c; }
    static Int num(std::int64_t c) { return c; }
    static Bool truth(bool b) { return b; }

    static Word add(Word a, Word b) { return wrap(std::uint64_t{u32(a)} + u32(b)); }
    static Word sub(Word a, Word b) { return wrap(std::uint64_t{u32(a)} - u32(b)); }
    static Word mul(Word a, Word b) { return wrap(std::uint64_t{u32(a)} * u32(b)); }
    static Word bitAnd(Word a, Word b) { return wrap(u32(a) & u32(b)); }
    static Word bitOr(Word a, Word b) { return wrap(u32(a) | u32(b)); }
    static Word bitXor(Word a, Word b) { return wrap(u32(a) ^ u32(b)); }
    // the 32-bit comparisons read the words' low halves, as signed or unsigned 32-bit values
    static Bool signedGreater(Word a, Word b) { return wrap32(a) > wrap32(b); }
    static Bool signedLess(Word a, Word b) { return wrap32(a) < wrap32(b); }
    static Bool unsignedLess(Word a, Word b) { return u32(a) < u32(b); }
    static Bool equal(Word a, Word b) { return u32(a) == u32(b); }
    static Bool nonzero(Word a) { return a != 0; }
    // the 64-bit operations: every bit of the words, wrapping at 2^64
    static Word add64(Word a, Word b) { return wide(u64(a) + u64(b)); }
    static Word sub64(Word a, Word b) { return wide(u64(a) - u64(b)); }
    static Word mul64(Word a, Word b) { return wide(u64(a) * u64(b)); }
    static Word bitAnd64(Word a, Word b) { return a & b; }
    static Word bitOr64(Word a, Word b) { return a | b; }
    static Word bitXor64(Word a, Word b) { return a ^ b; }
    static Bool signedLess64(Word a, Word b) { return a < b; }
    static Bool unsignedLess64(Word a, Word b) { return u64(a) < u64(b); }
    static Bool equal64(Word a, Word b) { return a == b; }
    /** The word's low 32 bits, sign-extended: what a 32-bit operation makes of it. */
    static Word low(Word a) { return wrap32(a); }
    /** binary32 addition, round to nearest even (the C++ default), NaN made canonical. */
    static Word addF32(Word a, Word b) {
        const float sum = std::bit_cast<float>(u32(a)) + std::bit_cast<float>(u32(b));
        return std::isnan(sum) ? wrap(0x7fffffffU) : wrap(std::bit_cast<std::uint32_t>(sum));
    }
    /**
     * binary16 addition, round to nearest even, NaN made canonical (0x7fff). The operands are
     * exact in binary32 and the sum is rounded twice, to binary32 and then to binary16: with
     * 24 >= 2*11 + 2 significand bits the double rounding gives the correctly rounded sum
     * (Figueroa, "When is double rounding innocuous?", 1995).
     */
    static Word addF16(Word a, Word b) {
        const float sum = fromF16(a) + fromF16(b);
        if (std::isnan(sum)) return 0x7fff;
        return roundToF16(sum);
    }
    /** bfloat16 addition, the same way (24 >= 2*8 + 2); NaN made canonical (0x7fff). */
    static Word addBF16(Word a, Word b) { return roundToBF16(fromBF16(a) + fromBF16(b)); }
    /** A 16-bit float widened to binary32, exactly; a NaN is the canonical 0x7fffffff. */
    static Word f16ToF32(Word a) { return asF32(fromF16(a)); }
    static Word bf16ToF32(Word a) { return asF32(fromBF16(a)); }
    /** A binary32 value rounded to a 16-bit float, nearest even; a NaN is 0x7fff. */
    static Word f32ToF16(Word a) {
        const float f = std::bit_cast<float>(u32(a));
        return std::isnan(f) ? 0x7fff : roundToF16(f);
    }
    static Word f32ToBF16(Word a) { return roundToBF16(std::bit_cast<float>(u32(a))); }
    /** a >> b, zeros shifted in; a shift of 32 or more gives 0. */
    static Word shiftRight(Word a, Word b) { return u32(b) >= 32 ? 0 : wrap(u32(a) >> u32(b)); }

    /** A count as a register value: its low 32 bits. */
    static Word wordOf(Int n) { return wrap(static_cast<std::uint64_t>(n)); }
    /** A register value read as an unsigned count. */
    static Int unsignedOf(Word w) { return u32(w); }
    static Int parity(Int n) { return n % 2; }

    template <class T> static T select(Bool c, const T& a, const T& b) { return c ? a : b; }
    /** Lazy select: only the branch taken is computed. */
    template <class F, class G> static auto choose(Bool c, F then, G otherwise) {
        return c ? then() : otherwise();
    }

private:
    static Word wrap(std::uint64_t v) { return wrap32(static_cast<std::int64_t>(v)); }
    static std::uint32_t u32(Word v) { return static_cast<std::uint32_t>(v); }
    static std::uint64_t u64(Word v) { return static_cast<std::uint64_t>(v); }
    static Word wide(std::uint64_t v) { return static_cast<Word>(v); }
    /** The binary16 value in the low half of `v`, exactly (every binary16 is a binary32). */
    static float fromF16(Word v) {
        const std::uint32_t h = u32(v) & 0xffffU;
        const std::uint32_t exponent = (h >> 10) & 0x1fU, fraction = h & 0x3ffU;
        float magnitude = 0;
        if (exponent == 0) // subnormal: fraction * 2^-24
            magnitude = std::ldexp(static_cast<float>(fraction), -24);
        else if (exponent == 31)
            magnitude = fraction != 0 ? std::numeric_limits<float>::quiet_NaN()
                                      : std::numeric_limits<float>::infinity();
        else
            magnitude =
                std::ldexp(static_cast<float>(fraction | 0x400U), static_cast<int>(exponent) - 25);
        return (h & 0x8000U) != 0 ? -magnitude : magnitude;
    }
    /**
     * `f` (not a NaN) rounded to binary16, nearest even (nearbyint in the default rounding
     * mode), overflow to infinity. Written out because not every compiler has _Float16;
     * checked against it on every binary32 (bench/history.md, 2026-12-02 (7)).
     */
    static Word roundToF16(float f) {
        const std::uint32_t sign = (std::bit_cast<std::uint32_t>(f) >> 16) & 0x8000U;
        const float a = std::fabs(f);
        if (a >= 65520.0f) return sign | 0x7c00U; // halfway above 65504 and up: infinity
        if (a < 0x1p-14f)                         // subnormal results: multiples of 2^-24
            return sign | static_cast<std::uint32_t>(std::nearbyint(a * 0x1p24f));
        int e = 0;
        std::frexp(a, &e); // a = m * 2^e, m in [0.5, 1): 11 significand bits are a * 2^(11-e)
        auto significand = static_cast<std::uint32_t>(std::nearbyint(std::ldexp(a, 11 - e)));
        int biased = e - 1 + 15;
        if (significand == 2048) { // rounded up to the next power of two
            significand = 1024;
            ++biased;
        }
        if (biased >= 31) return sign | 0x7c00U;
        return sign | (static_cast<std::uint32_t>(biased) << 10) | (significand - 1024U);
    }
    static float fromBF16(Word v) { return std::bit_cast<float>((u32(v) & 0xffffU) << 16); }
    /** `f` rounded to bfloat16, nearest even, a NaN made canonical (0x7fff). */
    static Word roundToBF16(float f) {
        if (std::isnan(f)) return 0x7fff;
        const std::uint32_t bits = std::bit_cast<std::uint32_t>(f);
        // round to nearest even at bit 16: add 0x7fff, plus the kept half's lowest bit
        return ((bits + 0x7fffU + ((bits >> 16) & 1U)) >> 16) & 0xffffU;
    }
    /** The bits of `f`, a NaN made canonical (0x7fffffff). */
    static Word asF32(float f) {
        return std::isnan(f) ? wrap(0x7fffffffU) : wrap(std::bit_cast<std::uint32_t>(f));
    }
};

/**
 * The leaves of a value come from the engine (`src`): read(e) the value read event e reads,
 * waitSuccess(e) whether mbarrier wait e returned True, waitReport(e) its reportPredicate
 * (engine/MbarrierMachine.hpp), phaseBefore(e) the phase mbarrier op e
 * saw, choice(i) which way the execution picked Program::choices[i]. `arg(i)` evaluates operand i
 * (the engine memoises; values form a DAG).
 */
template <class V, class Sources, class Arg>
typename V::Word applyValue(const V& v, const ir::Value& x, Sources& src, Arg&& arg) {
    using Op = ir::Value::Op;
    switch (x.op) {
    case Op::Const:
        return x.wide ? v.word64(x.constant) : v.word(x.constant);
    case Op::ReadOf:
        return src.read(x.event);
    case Op::WaitResult: // test_wait/try_wait's predicate as 0 or 1
        return v.select(src.waitSuccess(x.event), v.word(1), v.word(0));
    case Op::WaitReport: // the report form's reportPredicate as 0 or 1
        return v.select(src.waitReport(x.event), v.word(1), v.word(0));
    case Op::PhaseToken: // the state token of arrive: the phase it arrived in
        return v.wordOf(src.phaseBefore(x.event));
    case Op::Choice: // nondet.pred: the execution picks 0 or 1
        return v.select(src.choice(x.constant), v.word(1), v.word(0));
    case Op::Add:
        return v.add(arg(0), arg(1));
    case Op::Sub:
        return v.sub(arg(0), arg(1));
    case Op::Mul:
        return v.mul(arg(0), arg(1));
    case Op::And:
        return v.bitAnd(arg(0), arg(1));
    case Op::Or:
        return v.bitOr(arg(0), arg(1));
    case Op::Xor:
        return v.bitXor(arg(0), arg(1));
    case Op::Max: { // max.s32/min.s32: signed
        auto a = arg(0), b = arg(1);
        return v.select(v.signedGreater(a, b), v.low(a), v.low(b));
    }
    case Op::Min: {
        auto a = arg(0), b = arg(1);
        return v.select(v.signedLess(a, b), v.low(a), v.low(b));
    }
    case Op::Eq: {
        auto a = arg(0), b = arg(1);
        return v.select(v.equal(a, b), v.word(1), v.word(0));
    }
    case Op::Not: // 1 when the operand is 0: a predicate's negation
        return v.select(v.nonzero(arg(0)), v.word(0), v.word(1));
    case Op::LAnd:
        return v.choose(
            v.nonzero(arg(0)), [&] { return v.select(v.nonzero(arg(1)), v.word(1), v.word(0)); },
            [&] { return v.word(0); });
    case Op::LOr:
        return v.choose(
            v.nonzero(arg(0)), [&] { return v.word(1); },
            [&] { return v.select(v.nonzero(arg(1)), v.word(1), v.word(0)); });
    case Op::Lt: {
        auto a = arg(0), b = arg(1);
        return v.select(v.signedLess(a, b), v.word(1), v.word(0));
    }
    case Op::Ltu: {
        auto a = arg(0), b = arg(1);
        return v.select(v.unsignedLess(a, b), v.word(1), v.word(0));
    }
    case Op::AddF32:
        return v.addF32(arg(0), arg(1));
    case Op::AddF16:
        return v.addF16(arg(0), arg(1));
    case Op::AddBF16:
        return v.addBF16(arg(0), arg(1));
    case Op::F16ToF32:
        return v.f16ToF32(arg(0));
    case Op::BF16ToF32:
        return v.bf16ToF32(arg(0));
    case Op::F32ToF16:
        return v.f32ToF16(arg(0));
    case Op::F32ToBF16:
        return v.f32ToBF16(arg(0));
    case Op::Lshr:
        return v.shiftRight(arg(0), arg(1));
    case Op::BarrierResult:
        return arg(0);
    case Op::Add64:
        return v.add64(arg(0), arg(1));
    case Op::Sub64:
        return v.sub64(arg(0), arg(1));
    case Op::Mul64:
        return v.mul64(arg(0), arg(1));
    case Op::And64:
        return v.bitAnd64(arg(0), arg(1));
    case Op::Or64:
        return v.bitOr64(arg(0), arg(1));
    case Op::Xor64:
        return v.bitXor64(arg(0), arg(1));
    case Op::Lt64: {
        auto a = arg(0), b = arg(1);
        return v.select(v.signedLess64(a, b), v.word(1), v.word(0));
    }
    case Op::Ltu64: {
        auto a = arg(0), b = arg(1);
        return v.select(v.unsignedLess64(a, b), v.word(1), v.word(0));
    }
    case Op::Eq64: {
        auto a = arg(0), b = arg(1);
        return v.select(v.equal64(a, b), v.word(1), v.word(0));
    }
    case Op::Unknown: // lowering keeps it from every evaluated value (checkUnknownUnused)
        throw std::logic_error("an unknown value reached an engine");
    case Op::Ite:
        return v.choose(
            v.nonzero(arg(0)), [&] { return arg(1); }, [&] { return arg(2); });
    }
    return v.word(0);
}

} // namespace ptxmc::ir
