// IEEE-754 binary32, binary16 and bfloat16 values held in 32-bit words: NaN tests, |x|, flushing,
// addition, and min/max as PTX's min and max compute them.
#pragma once

#include "ir/Event.hpp"

namespace ptxmc::lower {

/**
 * A floating-point element format: its bits in the low bits of a word (a 16-bit element
 * zero-extended), the masks of its sign, exponent and fraction, and its canonical NaN.
 */
struct FloatFormat {
    std::int64_t sign, exponent, fraction, canonicalNan;
    ir::Value::Op add; ///< the value operation that adds two elements, rounding to nearest even
    std::int64_t mask() const { return sign | exponent | fraction; }
};

inline constexpr FloatFormat kF32{0x80000000, 0x7f800000, 0x007fffff, 0x7fffffff,
                                  ir::Value::Op::AddF32};
inline constexpr FloatFormat kF16{0x8000, 0x7c00, 0x03ff, 0x7fff, ir::Value::Op::AddF16};
inline constexpr FloatFormat kBF16{0x8000, 0x7f80, 0x007f, 0x7fff, ir::Value::Op::AddBF16};

/** The canonical NaN of .f32 results. */
inline constexpr std::int64_t kCanonicalNanF32 = kF32.canonicalNan;

/** 1 where the element `v` is a NaN (every exponent bit set, a nonzero fraction), else 0. */
ir::ValuePtr isNan(const FloatFormat& f, const ir::ValuePtr& v);
/** |v|: the sign bit cleared (a NaN stays a NaN). */
ir::ValuePtr absOf(const FloatFormat& f, const ir::ValuePtr& v);
/**
 * min / max of `a` and `b` (PTX ISA {FloatMin}, {FloatMax}, {HalfMin}, {HalfMax}): a NaN gives
 * way to the other operand, two NaNs give the canonical NaN, and with `nanWins` (.NaN) any NaN
 * gives it; "If values of both inputs are 0.0, then +0.0 > -0.0." No subnormal is flushed.
 */
ir::ValuePtr minMax(const FloatFormat& f, const ir::ValuePtr& a, const ir::ValuePtr& b, bool max,
                    bool nanWins);
/** `v`, a subnormal made the zero of its sign ("flushes subnormal inputs and results to
 *  sign-preserving zero"). */
ir::ValuePtr flush(const FloatFormat& f, const ir::ValuePtr& v);
/**
 * a + b rounded to nearest even ("The .add operation rounds to nearest even", {Atom}), its
 * inputs and result flushed where `flushSubnormals` (atom.add.f32 without .noftz on global
 * memory).
 */
ir::ValuePtr add(const FloatFormat& f, const ir::ValuePtr& a, const ir::ValuePtr& b,
                 bool flushSubnormals);

inline ir::ValuePtr isNanF32(const ir::ValuePtr& v) {
    return isNan(kF32, v);
}
inline ir::ValuePtr absF32(const ir::ValuePtr& v) {
    return absOf(kF32, v);
}
inline ir::ValuePtr minMaxF32(const ir::ValuePtr& a, const ir::ValuePtr& b, bool max,
                              bool nanWins) {
    return minMax(kF32, a, b, max, nanWins);
}

} // namespace ptxmc::lower
