// binary32 NaN tests, |x| and min/max over 32-bit words (Float32.hpp).
#include "lower/Float32.hpp"

#include "ir/ValueSemantics.hpp"

namespace ptxmc::lower {

using ir::Value;
using ir::ValuePtr;
using Op = ir::Value::Op;

namespace {

ValuePtr constant(std::int64_t c) {
    return Value::makeConst(ir::wrap32(c));
}

/**
 * A signed integer in the order of the float `v` stands for (not NaN): positive floats order
 * as their bits do; a negative one's bits grow with its magnitude, so its 31 low bits are
 * flipped, which also puts -0.0 (key -1) below +0.0 (key 0).
 */
ValuePtr orderKey(const ValuePtr& v) {
    ValuePtr negative = Value::make(Op::Lt, {v, constant(0)});
    return Value::make(Op::Ite, {negative, Value::make(Op::Xor, {v, constant(0x7fffffff)}), v});
}

/** 1 where the exponent bits of `v` are `exponent` and its fraction is not zero. */
ValuePtr exponentWithFraction(const ValuePtr& v, std::int64_t exponent) {
    ValuePtr exponentBits = Value::make(Op::And, {v, constant(0x7f800000)});
    ValuePtr fraction = Value::make(Op::And, {v, constant(0x007fffff)});
    return Value::make(Op::LAnd,
                       {Value::make(Op::Eq, {exponentBits, constant(exponent)}),
                        Value::make(Op::Not, {Value::make(Op::Eq, {fraction, constant(0)})})});
}

} // namespace

ValuePtr isNanF32(const ValuePtr& v) {
    return exponentWithFraction(v, 0x7f800000);
}

ValuePtr absF32(const ValuePtr& v) {
    return Value::make(Op::And, {v, constant(0x7fffffff)});
}

ValuePtr flushF32(const ValuePtr& v) {
    ValuePtr subnormal = exponentWithFraction(v, 0); // a zero exponent, a nonzero fraction
    return Value::make(Op::Ite, {subnormal, Value::make(Op::And, {v, constant(0x80000000)}), v});
}

ValuePtr addF32(const ValuePtr& a, const ValuePtr& b, bool flush) {
    if (!flush) return Value::make(Op::AddF32, {a, b});
    return flushF32(Value::make(Op::AddF32, {flushF32(a), flushF32(b)}));
}

ValuePtr minMaxF32(const ValuePtr& a, const ValuePtr& b, bool max, bool nanWins) {
    const ValuePtr nan = constant(kCanonicalNanF32);
    ValuePtr bFirst = max ? Value::make(Op::Lt, {orderKey(a), orderKey(b)})
                          : Value::make(Op::Lt, {orderKey(b), orderKey(a)});
    ValuePtr numbers = Value::make(Op::Ite, {bFirst, b, a});
    ValuePtr aNan = isNanF32(a), bNan = isNanF32(b);
    // max_num: "if (isNaN(x) && isNaN(y)) z = NaN; else if (isNaN(x)) z = y; ..."
    ValuePtr ifANan = Value::make(Op::Ite, {bNan, nan, nanWins ? nan : b});
    ValuePtr ifNotANan = Value::make(Op::Ite, {bNan, nanWins ? nan : a, numbers});
    return Value::make(Op::Ite, {aNan, ifANan, ifNotANan});
}

} // namespace ptxmc::lower
