// Floating-point elements in words: NaN tests, |x|, flushing, addition, min/max (Floats.hpp).
#include "lower/Floats.hpp"

#include "ir/ValueSemantics.hpp"

namespace ptxmc::lower {

using ir::Value;
using ir::ValuePtr;

namespace {

ValuePtr formatWord(std::int64_t c) {
    return Value::makeConst(ir::wrap32(c));
}

ValuePtr bits(const FloatFormat& f, const ValuePtr& v, std::int64_t mask) {
    return Value::make(Value::Op::And, {v, formatWord(mask & f.mask())});
}

/**
 * A signed integer in the order of the float `v` stands for (not NaN): a positive float orders
 * as its magnitude bits do; a negative one's magnitude grows away from zero, so its key is the
 * magnitude's complement (-magnitude - 1), which also puts -0.0 (key -1) below +0.0 (key 0).
 */
ValuePtr orderKey(const FloatFormat& f, const ValuePtr& v) {
    ValuePtr magnitude = bits(f, v, f.exponent | f.fraction);
    ValuePtr negative = Value::make(
        Value::Op::Not, {Value::make(Value::Op::Eq, {bits(f, v, f.sign), formatWord(0)})});
    return Value::make(
        Value::Op::Ite,
        {negative, Value::make(Value::Op::Xor, {magnitude, formatWord(-1)}), magnitude});
}

/** 1 where the exponent bits of `v` are `exponent` and its fraction is not zero. */
ValuePtr exponentWithFraction(const FloatFormat& f, const ValuePtr& v, std::int64_t exponent) {
    return Value::make(
        Value::Op::LAnd,
        {Value::make(Value::Op::Eq, {bits(f, v, f.exponent), formatWord(exponent)}),
         Value::make(Value::Op::Not,
                     {Value::make(Value::Op::Eq, {bits(f, v, f.fraction), formatWord(0)})})});
}

} // namespace

ValuePtr isNan(const FloatFormat& f, const ValuePtr& v) {
    return exponentWithFraction(f, v, f.exponent);
}

ValuePtr absOf(const FloatFormat& f, const ValuePtr& v) {
    return bits(f, v, f.exponent | f.fraction);
}

ValuePtr flush(const FloatFormat& f, const ValuePtr& v) {
    ValuePtr subnormal = exponentWithFraction(f, v, 0); // a zero exponent, a nonzero fraction
    return Value::make(Value::Op::Ite, {subnormal, bits(f, v, f.sign), v});
}

ValuePtr add(const FloatFormat& f, const ValuePtr& a, const ValuePtr& b, bool flushSubnormals) {
    if (!flushSubnormals) return Value::make(f.add, {a, b});
    return flush(f, Value::make(f.add, {flush(f, a), flush(f, b)}));
}

ValuePtr minMax(const FloatFormat& f, const ValuePtr& a, const ValuePtr& b, bool max,
                bool nanWins) {
    const ValuePtr nan = formatWord(f.canonicalNan);
    ValuePtr bFirst = max ? Value::make(Value::Op::Lt, {orderKey(f, a), orderKey(f, b)})
                          : Value::make(Value::Op::Lt, {orderKey(f, b), orderKey(f, a)});
    ValuePtr numbers = Value::make(Value::Op::Ite, {bFirst, b, a});
    ValuePtr aNan = isNan(f, a), bNan = isNan(f, b);
    // max_num: "if (isNaN(x) && isNaN(y)) z = NaN; else if (isNaN(x)) z = y; ..."
    ValuePtr ifANan = Value::make(Value::Op::Ite, {bNan, nan, nanWins ? nan : b});
    ValuePtr ifNotANan = Value::make(Value::Op::Ite, {bNan, nanWins ? nan : a, numbers});
    return Value::make(Value::Op::Ite, {aNan, ifANan, ifNotANan});
}

} // namespace ptxmc::lower
