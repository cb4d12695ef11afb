// IEEE-754 binary32 values held in 32-bit words: NaN tests, |x| and min/max as PTX's min.f32 and
// max.f32 compute them, built from the integer value operations both engines have.
#pragma once

#include "ir/Event.hpp"

namespace ptxmc::lower {

/** The canonical NaN of .f32 results. */
inline constexpr std::int64_t kCanonicalNanF32 = 0x7fffffff;

/** 1 where the word `v` is a NaN (every exponent bit set, a nonzero fraction), else 0. */
ir::ValuePtr isNanF32(const ir::ValuePtr& v);
/** |v|: the sign bit cleared (a NaN stays a NaN). */
ir::ValuePtr absF32(const ir::ValuePtr& v);
/**
 * min.f32 / max.f32 of `a` and `b` (PTX ISA {FloatMin}, {FloatMax}): a NaN gives way to the
 * other operand, two NaNs give the canonical NaN, and with `nanWins` (.NaN) any NaN gives it;
 * "If values of both inputs are 0.0, then +0.0 > -0.0." No subnormal is flushed (no .ftz).
 */
ir::ValuePtr minMaxF32(const ir::ValuePtr& a, const ir::ValuePtr& b, bool max, bool nanWins);
/** `v`, a subnormal made the zero of its sign ("flushes subnormal inputs and results to
 *  sign-preserving zero"). */
ir::ValuePtr flushF32(const ir::ValuePtr& v);
/**
 * a + b rounded to nearest even ("The .add operation rounds to nearest even", {Atom}), its
 * inputs and result flushed where `flush` (atom.add.f32 without .noftz on global memory).
 */
ir::ValuePtr addF32(const ir::ValuePtr& a, const ir::ValuePtr& b, bool flush);

} // namespace ptxmc::lower
