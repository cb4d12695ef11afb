// Integer semantics of PTX arithmetic on known values: enough to follow addresses, indices,
// stage and phase counters; floating point is data and stays unknown.
#include "kernel/Arith.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cmath>
#include <string_view>
#include <utility>

namespace ptxmc::kernel {

std::optional<IntType> intType(const std::string& p) {
    if (p == "pred") return IntType{1, false, false};
    if (p.size() < 2) return std::nullopt;
    char k = p[0];
    if (k != 'u' && k != 's' && k != 'b' && k != 'f') return std::nullopt;
    int bits = 0;
    std::size_t i = 1;
    for (; i < p.size() && std::isdigit(static_cast<unsigned char>(p[i])); ++i)
        bits = bits * 10 + (p[i] - '0');
    if (i != p.size() || (bits != 8 && bits != 16 && bits != 32 && bits != 64 && bits != 128))
        return std::nullopt;
    return IntType{std::min(bits, 64), k == 's', k == 'f'};
}

IntType lastType(const std::vector<std::string>& parts) {
    for (auto it = parts.rbegin(); it != parts.rend(); ++it)
        if (auto t = intType(*it)) return *t;
    return IntType{};
}

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

/** The value of a floating-point register's bits (.f16, .f32, .f64). */
double floatOf(std::uint64_t v, int bits) {
    if (bits == 64) return std::bit_cast<double>(v);
    if (bits == 32) return std::bit_cast<float>(static_cast<std::uint32_t>(v));
    // binary16: sign, 5 exponent bits (bias 15), 10 fraction bits
    int e = static_cast<int>((v >> 10) & 0x1F);
    double f = static_cast<double>(v & 0x3FF);
    double m = e == 0    ? std::ldexp(f, -24)
               : e == 31 ? (f == 0 ? HUGE_VAL : NAN)
                         : std::ldexp(f + 1024, e - 25);
    return (v >> 15) & 1U ? -m : m;
}

/** setp on floating point: ordered comparisons are false on NaN, the `u` forms true. */
std::optional<bool> compareFloat(const std::string& op, double a, double b) {
    bool nan = std::isnan(a) || std::isnan(b);
    if (op == "num") return !nan;
    if (op == "nan") return nan;
    bool unordered = op.size() == 3 && op.back() == 'u';
    std::string base = unordered ? op.substr(0, 2) : op;
    if (nan) return unordered;
    if (base == "eq") return a == b;
    if (base == "ne") return a != b;
    if (base == "lt") return a < b;
    if (base == "le") return a <= b;
    if (base == "gt") return a > b;
    if (base == "ge") return a >= b;
    return std::nullopt;
}

} // namespace

std::optional<bool> compare(const std::string& op, std::uint64_t a, std::uint64_t b, IntType t) {
    if (t.isFloat) return compareFloat(op, floatOf(a, t.bits), floatOf(b, t.bits));
    std::uint64_t ua = mask(a, t.bits), ub = mask(b, t.bits);
    std::int64_t sa = signExtend(a, t.bits), sb = signExtend(b, t.bits);
    if (op == "eq") return ua == ub;
    if (op == "ne") return ua != ub;
    if (op == "lo") return ua < ub;
    if (op == "ls") return ua <= ub;
    if (op == "hi") return ua > ub;
    if (op == "hs") return ua >= ub;
    bool s = t.isSigned;
    if (op == "lt") return s ? sa < sb : ua < ub;
    if (op == "le") return s ? sa <= sb : ua <= ub;
    if (op == "gt") return s ? sa > sb : ua > ub;
    if (op == "ge") return s ? sa >= sb : ua >= ub;
    return std::nullopt;
}

namespace {

bool has(const std::vector<std::string>& parts, std::string_view q) {
    return std::find(parts.begin() + 1, parts.end(), q) != parts.end();
}

using ptx::ModuleOp;

std::optional<std::uint64_t> binary(ModuleOp op, const std::vector<std::string>& parts,
                                    std::uint64_t a, std::uint64_t b, IntType t) {
    std::int64_t sa = signExtend(a, t.bits), sb = signExtend(b, t.bits);
    std::uint64_t ua = mask(a, t.bits), ub = mask(b, t.bits);
    if (op == ModuleOp::Add) return mask(a + b, t.bits);
    if (op == ModuleOp::Sub) return mask(a - b, t.bits);
    if (op == ModuleOp::And) return mask(a & b, t.bits);
    if (op == ModuleOp::Or) return mask(a | b, t.bits);
    if (op == ModuleOp::Xor) return mask(a ^ b, t.bits);
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
        if (has(parts, "wide")) {
            int w = std::min(2 * t.bits, 64);
            return t.isSigned ? mask(static_cast<std::uint64_t>(sa * sb), w) : mask(ua * ub, w);
        }
        if (has(parts, "hi")) {
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
        return mask(a * b, t.bits);
    }
    return std::nullopt;
}

} // namespace

std::optional<std::uint64_t> arithmetic(const std::vector<std::string>& parts,
                                        const std::vector<Val>& in, bool& known) {
    return arithmetic(ptx::moduleOp(parts).op, parts, in, known);
}

std::optional<std::uint64_t> arithmetic(ModuleOp op, const std::vector<std::string>& parts,
                                        const std::vector<Val>& in, bool& known) {
    // the opcodes of ModuleOps.def this evaluator computes (prmt: known, its bytes are data)
    known = ptx::moduleOpRow(op).role == ptx::ModuleRole::Arith || op == ModuleOp::Prmt;
    if (!known) return std::nullopt;
    for (const Val& v : in)
        if (!v.known) return std::nullopt;
    IntType t = lastType(parts);
    if (op == ModuleOp::Cvt && t.isFloat && t.bits == 16 && parts.size() > 2 &&
        parts[parts.size() - 2] == "f32")
        return std::bit_cast<std::uint32_t>(static_cast<float>(floatOf(in.at(0).v, 16)));
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
        // cvt{.rnd}{.sat}.dtype.atype: the source type is the last qualifier, the result's before
        // it.
        std::optional<IntType> src, dst;
        for (auto it = parts.rbegin(); it != parts.rend(); ++it)
            if (auto ty = intType(*it)) {
                if (!src)
                    src = ty;
                else if (!dst)
                    dst = ty;
            }
        if (!src || !dst || src->isFloat || dst->isFloat) return std::nullopt;
        std::uint64_t v = src->isSigned ? static_cast<std::uint64_t>(signExtend(arg(0), src->bits))
                                        : mask(arg(0), src->bits);
        return mask(v, dst->bits);
    }
    if (op == ModuleOp::Mad) {
        if (in.size() != 3) return std::nullopt;
        auto product = binary(ModuleOp::Mul, parts, arg(0), arg(1), t);
        if (!product) return std::nullopt;
        int w = has(parts, "wide") ? std::min(2 * t.bits, 64) : t.bits;
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
        bool clamp = has(parts, "clamp");
        std::uint64_t n = clamp ? std::min<std::uint64_t>(arg(2), 32) : (arg(2) & 31);
        std::uint64_t wide = (mask(arg(1), 32) << 32) | mask(arg(0), 32);
        if (has(parts, "l")) return mask((wide << n) >> 32, 32);
        return mask(wide >> n, 32);
    }
    if (op == ModuleOp::Prmt) return std::nullopt;
    if (in.size() == 2) return binary(op, parts, arg(0), arg(1), t);
    return std::nullopt;
}

namespace {

enum class PredicateCombine { None, And, Or, Xor };
constexpr std::array<std::pair<std::string_view, PredicateCombine>, 3> kPredicateCombines = {{
    {"and", PredicateCombine::And},
    {"or", PredicateCombine::Or},
    {"xor", PredicateCombine::Xor},
}};

/** `result` combined with `c`: known when both are, or when one decides .and/.or alone. */
Val combinePredicates(PredicateCombine op, Val result, const Val& c) {
    if (result.known && c.known) {
        bool x = result.v != 0, y = c.v != 0;
        bool v = op == PredicateCombine::And  ? (x && y)
                 : op == PredicateCombine::Or ? (x || y)
                                              : (x != y);
        return Val::of(v ? 1 : 0);
    }
    if (op == PredicateCombine::And && ((result.known && result.v == 0) || (c.known && c.v == 0)))
        return Val::of(0);
    if (op == PredicateCombine::Or && ((result.known && result.v == 1) || (c.known && c.v == 1)))
        return Val::of(1);
    if (result.known) return c;
    if (!result.field) result.field = c.field;
    return result;
}

} // namespace

Val setpValue(const std::vector<std::string>& parts, const Val& a, const Val& b,
              const std::optional<Val>& c) {
    std::optional<bool> r;
    if (a.known && b.known && parts.size() > 1) r = compare(parts[1], a.v, b.v, lastType(parts));
    PredicateCombine combine = PredicateCombine::None;
    for (const auto& [name, op] : kPredicateCombines)
        if (c && has(parts, name)) combine = op;
    Val result = r ? Val::of(*r ? 1 : 0) : Val{false, a.known ? b.field : a.field, 0};
    std::uint32_t probe = a.probe ? a.probe : b.probe;
    if (combine != PredicateCombine::None) {
        result = combinePredicates(combine, result, *c);
        if (!probe) probe = c->probe;
    }
    result.probe = probe;
    return result;
}

} // namespace ptxmc::kernel
