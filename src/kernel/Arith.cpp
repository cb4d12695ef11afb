// Integer semantics of PTX arithmetic on known values: enough to follow addresses, indices,
// stage and phase counters; floating point is data and stays unknown. Where the litmus engines
// compute the same operation (ir/ValueSemantics.hpp), this file calls theirs.
#include "kernel/Arith.hpp"

#include "ir/ValueSemantics.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cmath>
#include <string_view>
#include <utility>

namespace ptxmc::kernel {

namespace {

/** The width computed on: the type's bits up to 64, 64 where no type is written. */
struct Width {
    int bits = 64;
    bool isSigned = false;
    bool isFloat = false;
};

Width widthOf(const std::optional<ptx::ScalarType>& t) {
    if (!t) return Width{};
    return Width{std::min(t->bits, 64), t->isSigned(), t->isFloat()};
}

} // namespace

std::uint64_t mask(std::uint64_t v, int bits) {
    return bits >= 64 ? v : (v & ((1ULL << bits) - 1));
}

std::int64_t signExtend(std::uint64_t v, int bits) {
    if (bits >= 64) return static_cast<std::int64_t>(v);
    std::uint64_t m = 1ULL << (bits - 1);
    v = mask(v, bits);
    return static_cast<std::int64_t>((v ^ m) - m);
}

namespace {

using Words = ir::ConcreteValues;

/** binary16 bits widened to binary32's, as the engines do (a NaN is 0x7fffffff). */
std::uint32_t f16ToF32Bits(std::uint64_t v) {
    return static_cast<std::uint32_t>(Words::f16ToF32(static_cast<std::int64_t>(v & 0xFFFFU)));
}

/** The value of a floating-point register's bits (.f16, .f32, .f64). */
double floatOf(std::uint64_t v, int bits) {
    if (bits == 64) return std::bit_cast<double>(v);
    if (bits == 32) return std::bit_cast<float>(static_cast<std::uint32_t>(v));
    return std::bit_cast<float>(f16ToF32Bits(v));
}

template <typename T> std::optional<bool> relate(ptx::Relation r, T a, T b) {
    switch (r) {
    case ptx::Relation::Eq:
        return a == b;
    case ptx::Relation::Ne:
        return a != b;
    case ptx::Relation::Lt:
        return a < b;
    case ptx::Relation::Le:
        return a <= b;
    case ptx::Relation::Gt:
        return a > b;
    case ptx::Relation::Ge:
        return a >= b;
    case ptx::Relation::Num:
    case ptx::Relation::Nan:
        break; // NaN tests: floating point only
    }
    return std::nullopt;
}

/** setp on floating point: ordered comparisons are false on NaN, the `u` forms true. */
std::optional<bool> compareFloat(const ptx::ComparisonRow& c, double a, double b) {
    bool nan = std::isnan(a) || std::isnan(b);
    if (c.relation == ptx::Relation::Num) return !nan;
    if (c.relation == ptx::Relation::Nan) return nan;
    if (c.unsignedAlways) return std::nullopt; // .lo/.ls/.hi/.hs: integer comparisons only
    if (nan) return c.unordered;
    return relate(c.relation, a, b);
}

} // namespace

std::optional<bool> compare(ptx::Comparison op, std::uint64_t a, std::uint64_t b,
                            std::optional<ptx::ScalarType> type) {
    if (op == ptx::Comparison::None) return std::nullopt;
    ptx::ComparisonRow c = ptx::comparisonRow(op);
    Width t = widthOf(type);
    if (t.isFloat) return compareFloat(c, floatOf(a, t.bits), floatOf(b, t.bits));
    if (c.unordered) return std::nullopt; // the `u` forms: floating point only
    if (t.isSigned && !c.unsignedAlways)
        return relate(c.relation, signExtend(a, t.bits), signExtend(b, t.bits));
    return relate(c.relation, mask(a, t.bits), mask(b, t.bits));
}

namespace {

using ptx::ModuleOp;

using WordOp = Words::Word (*)(Words::Word, Words::Word);

/**
 * `a op b` on the engines' words: a 32-bit word up to 32 bits (the low bits of a sum, a
 * difference, a product or a bitwise operation do not depend on the bits above them), a 64-bit
 * word above; kept to the type's width.
 */
std::uint64_t onWords(std::uint64_t a, std::uint64_t b, int bits, WordOp op32, WordOp op64) {
    const auto x = static_cast<std::int64_t>(a), y = static_cast<std::int64_t>(b);
    const Words::Word r = bits <= 32 ? op32(Words::word(x), Words::word(y))
                                     : op64(Words::word64(x), Words::word64(y));
    return mask(static_cast<std::uint64_t>(r), bits);
}

std::optional<std::uint64_t> binary(ModuleOp op, ptx::ProductPart product, std::uint64_t a,
                                    std::uint64_t b, Width t) {
    std::int64_t sa = signExtend(a, t.bits), sb = signExtend(b, t.bits);
    std::uint64_t ua = mask(a, t.bits), ub = mask(b, t.bits);
    if (op == ModuleOp::Add) return onWords(a, b, t.bits, Words::add, Words::add64);
    if (op == ModuleOp::Sub) return onWords(a, b, t.bits, Words::sub, Words::sub64);
    if (op == ModuleOp::And) return onWords(a, b, t.bits, Words::bitAnd, Words::bitAnd64);
    if (op == ModuleOp::Or) return onWords(a, b, t.bits, Words::bitOr, Words::bitOr64);
    if (op == ModuleOp::Xor) return onWords(a, b, t.bits, Words::bitXor, Words::bitXor64);
    if (op == ModuleOp::Shl)
        return b >= static_cast<std::uint64_t>(t.bits) ? 0 : mask(a << b, t.bits);
    if (op == ModuleOp::Shr) {
        if (t.isSigned)
            return mask(static_cast<std::uint64_t>(sa >> std::min<std::uint64_t>(b, 63)), t.bits);
        return b >= 64 ? 0 : ua >> b;
    }
    if (op == ModuleOp::Min)
        return t.isSigned ? mask(static_cast<std::uint64_t>(std::min(sa, sb)), t.bits)
                          : std::min(ua, ub);
    if (op == ModuleOp::Max)
        return t.isSigned ? mask(static_cast<std::uint64_t>(std::max(sa, sb)), t.bits)
                          : std::max(ua, ub);
    if (op == ModuleOp::Div || op == ModuleOp::Rem) {
        if (ub == 0) return std::nullopt;
        if (t.isSigned)
            return mask(static_cast<std::uint64_t>(op == ModuleOp::Div ? sa / sb : sa % sb),
                        t.bits);
        return op == ModuleOp::Div ? ua / ub : ua % ub;
    }
    if (op == ModuleOp::Mul) {
        if (product == ptx::ProductPart::Wide) {
            int w = std::min(2 * t.bits, 64);
            return t.isSigned ? mask(static_cast<std::uint64_t>(sa * sb), w) : mask(ua * ub, w);
        }
        if (product == ptx::ProductPart::Hi) {
            if (t.bits == 64) { // the high half of the 128-bit product (CUTLASS's FastDivmod)
                std::uint64_t a0 = a & 0xFFFFFFFFU, a1 = a >> 32, b0 = b & 0xFFFFFFFFU,
                              b1 = b >> 32;
                std::uint64_t mid =
                    ((a0 * b0) >> 32) + ((a0 * b1) & 0xFFFFFFFFU) + ((a1 * b0) & 0xFFFFFFFFU);
                std::uint64_t hi = a1 * b1 + ((a0 * b1) >> 32) + ((a1 * b0) >> 32) + (mid >> 32);
                if (t.isSigned) hi -= (sa < 0 ? b : 0) + (sb < 0 ? a : 0);
                return hi;
            }
            if (t.bits > 32) return std::nullopt;
            std::uint64_t full = t.isSigned ? static_cast<std::uint64_t>(sa * sb) : ua * ub;
            return mask(full >> t.bits, t.bits);
        }
        return onWords(a, b, t.bits, Words::mul, Words::mul64);
    }
    return std::nullopt;
}

} // namespace

std::optional<std::uint64_t> arithmetic(ModuleOp op, const ptx::ValueForm& form,
                                        const std::vector<Val>& in, bool& known) {
    // the opcodes of ModuleOps.def this evaluator computes (prmt: known, its bytes are data)
    known = ptx::moduleOpRow(op).role == ptx::ModuleRole::Arith || op == ModuleOp::Prmt;
    if (!known) return std::nullopt;
    for (const Val& v : in)
        if (!v.known) return std::nullopt;
    Width t = widthOf(form.type);
    const ptx::ScalarType f32{ptx::ScalarType::Kind::Float, 32};
    if (op == ModuleOp::Cvt && t.isFloat && t.bits == 16 && form.before == f32)
        return f16ToF32Bits(in.at(0).v);
    if (t.isFloat && op != ModuleOp::Mov && op != ModuleOp::Selp) return std::nullopt;
    auto arg = [&](std::size_t i) { return in.at(i).v; };
    if (op == ModuleOp::Mov) return in.size() == 1 ? std::optional(arg(0)) : std::nullopt;
    if (op == ModuleOp::Abs)
        return mask(static_cast<std::uint64_t>(std::llabs(signExtend(arg(0), t.bits))), t.bits);
    if (op == ModuleOp::Neg) return mask(0 - arg(0), t.bits);
    if (op == ModuleOp::Not) return mask(~arg(0), t.bits);
    if (op == ModuleOp::Cnot) return arg(0) == 0 ? 1 : 0;
    if (op == ModuleOp::Popc)
        return static_cast<std::uint64_t>(__builtin_popcountll(mask(arg(0), t.bits)));
    if (op == ModuleOp::Clz) {
        std::uint64_t v = mask(arg(0), t.bits);
        int n = 0;
        for (int b = t.bits - 1; b >= 0 && !((v >> b) & 1U); --b)
            ++n;
        return static_cast<std::uint64_t>(n);
    }
    if (op == ModuleOp::Brev) {
        std::uint64_t v = arg(0), r = 0;
        for (int b = 0; b < t.bits; ++b)
            if ((v >> b) & 1U) r |= 1ULL << (t.bits - 1 - b);
        return r;
    }
    if (op == ModuleOp::Selp)
        return in.size() == 3 ? std::optional(arg(2) != 0 ? arg(0) : arg(1)) : std::nullopt;
    if (op == ModuleOp::Cvt) {
        // cvt{.rnd}{.sat}.dtype.atype: the source's type is written last, the result's before it
        Width src = widthOf(form.type), dst = widthOf(form.before);
        if (!form.type || !form.before || src.isFloat || dst.isFloat) return std::nullopt;
        std::uint64_t v = src.isSigned ? static_cast<std::uint64_t>(signExtend(arg(0), src.bits))
                                       : mask(arg(0), src.bits);
        return mask(v, dst.bits);
    }
    if (op == ModuleOp::Mad) {
        if (in.size() != 3) return std::nullopt;
        auto product = binary(ModuleOp::Mul, form.product, arg(0), arg(1), t);
        if (!product) return std::nullopt;
        int w = form.product == ptx::ProductPart::Wide ? std::min(2 * t.bits, 64) : t.bits;
        return mask(*product + arg(2), w);
    }
    if (op == ModuleOp::Bfe) {
        std::uint64_t pos = arg(1) & 0xFF, len = arg(2) & 0xFF;
        if (len == 0) return 0;
        std::uint64_t v = mask(arg(0), t.bits) >> std::min<std::uint64_t>(pos, 63);
        v = mask(v, static_cast<int>(std::min<std::uint64_t>(len, 64)));
        if (t.isSigned && len < 64 && ((v >> (len - 1)) & 1U)) v |= ~((1ULL << len) - 1);
        return mask(v, t.bits);
    }
    if (op == ModuleOp::Bfi) {
        std::uint64_t pos = arg(2) & 0xFF, len = arg(3) & 0xFF;
        if (len == 0 || pos >= 64) return mask(arg(1), t.bits);
        std::uint64_t m = mask(len >= 64 ? ~0ULL : ((1ULL << len) - 1), t.bits) << pos;
        return mask((arg(1) & ~m) | ((arg(0) << pos) & m), t.bits);
    }
    if (op == ModuleOp::Lop3) {
        if (in.size() != 4) return std::nullopt;
        std::uint64_t lut = arg(3), r = 0;
        for (int b = 0; b < t.bits; ++b) {
            unsigned idx = static_cast<unsigned>(((arg(0) >> b) & 1U) << 2 |
                                                 ((arg(1) >> b) & 1U) << 1 | ((arg(2) >> b) & 1U));
            if ((lut >> idx) & 1U) r |= 1ULL << b;
        }
        return r;
    }
    if (op == ModuleOp::Shf) {
        if (in.size() != 3) return std::nullopt;
        std::uint64_t n = form.clamp ? std::min<std::uint64_t>(arg(2), 32) : (arg(2) & 31);
        std::uint64_t wide = (mask(arg(1), 32) << 32) | mask(arg(0), 32);
        if (form.funnelLeft) return mask((wide << n) >> 32, 32);
        return mask(wide >> n, 32);
    }
    if (op == ModuleOp::Prmt) return std::nullopt;
    if (in.size() == 2) return binary(op, form.product, arg(0), arg(1), t);
    return std::nullopt;
}

namespace {

/** `result` combined with `c`: known when both are, or when one decides .and/.or alone. */
Val combinePredicates(ptx::Combine op, Val result, const Val& c) {
    if (result.known && c.known) {
        bool x = result.v != 0, y = c.v != 0;
        bool v = op == ptx::Combine::And ? (x && y) : op == ptx::Combine::Or ? (x || y) : (x != y);
        return Val::of(v ? 1 : 0);
    }
    if (op == ptx::Combine::And && ((result.known && result.v == 0) || (c.known && c.v == 0)))
        return Val::of(0);
    if (op == ptx::Combine::Or && ((result.known && result.v == 1) || (c.known && c.v == 1)))
        return Val::of(1);
    if (result.known) return c;
    if (!result.field) result.field = c.field;
    return result;
}

} // namespace

Val setpValue(const ptx::ValueForm& form, const Val& a, const Val& b, const std::optional<Val>& c) {
    std::optional<bool> r;
    if (a.known && b.known) r = compare(form.comparison, a.v, b.v, form.type);
    Val result = r ? Val::of(*r ? 1 : 0) : Val{false, a.known ? b.field : a.field, 0};
    std::uint32_t probe = a.probe ? a.probe : b.probe;
    if (c && form.combine != ptx::Combine::None) {
        result = combinePredicates(form.combine, result, *c);
        if (!probe) probe = c->probe;
    }
    result.probe = probe;
    return result;
}

} // namespace ptxmc::kernel
