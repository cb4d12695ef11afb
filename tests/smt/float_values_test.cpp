// The float additions and conversions of the value algebra: the explicit engine's (ConcreteValues)
// and the solver's (Z3Values, Z3's floating-point theory) give the same words on the same inputs.
#include "ir/ValueSemantics.hpp"
#include "smt/Z3Algebra.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <vector>

using namespace ptxmc;
using engine::smt::Z3Values;
using ir::ConcreteValues;

namespace {

/** The 16-bit words every test tries: zeros, subnormals, ones, the largest finite, infinities,
 *  NaNs with and without payload, of both signs. */
std::vector<std::uint32_t> specials16(bool bf16) {
    std::vector<std::uint32_t> out = {0x0000, 0x0001, 0x0002, 0x7fff};
    if (bf16) {
        for (std::uint32_t v : {0x007fU, 0x0080U, 0x3f80U, 0x3f81U, 0x3b80U, 0x3b00U, 0x7f7fU,
                                0x7f80U, 0x7fc0U, 0x7fc1U, 0x7f81U})
            out.push_back(v);
    } else {
        for (std::uint32_t v : {0x03ffU, 0x0400U, 0x3c00U, 0x3c01U, 0x1400U, 0x1000U, 0x7bffU,
                                0x7c00U, 0x7e00U, 0x7e01U, 0x7c01U})
            out.push_back(v);
    }
    const std::size_t n = out.size();
    for (std::size_t i = 0; i < n; ++i)
        out.push_back(out[i] | 0x8000U);
    return out;
}

/** The solver's sum of two constant words, evaluated by simplification. */
std::int64_t solverSum(z3::context& ctx, std::uint32_t a, std::uint32_t b, int format) {
    const Z3Values z{ctx};
    const z3::expr x = z.word(ir::wrap32(a)), y = z.word(ir::wrap32(b));
    const z3::expr sum = format == 16  ? z.addF16(x, y)
                         : format == 8 ? z.addBF16(x, y)
                                       : z.addF32(x, y);
    return ir::wrap32(static_cast<std::int64_t>(sum.simplify().get_numeral_uint64()));
}

std::int64_t concreteSum(std::uint32_t a, std::uint32_t b, int format) {
    const auto x = ir::wrap32(a), y = ir::wrap32(b);
    return format == 16  ? ConcreteValues::addF16(x, y)
           : format == 8 ? ConcreteValues::addBF16(x, y)
                         : ConcreteValues::addF32(x, y);
}

void compareOn(const std::vector<std::uint32_t>& words, int format, std::uint32_t mask) {
    z3::context ctx;
    std::mt19937 random(20261202); // fixed: the same pairs every run
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
    for (std::uint32_t a : words)
        for (std::uint32_t b : words)
            pairs.emplace_back(a, b);
    for (int i = 0; i < 2000; ++i)
        pairs.emplace_back(random() & mask, random() & mask);
    for (const auto& [a, b] : pairs) {
        INFO("format " << format << ": " << std::hex << a << " + " << b);
        REQUIRE(concreteSum(a, b, format) == solverSum(ctx, a, b, format));
    }
}

/** A conversion of one word by both engines: F16ToF32, BF16ToF32, F32ToF16 or F32ToBF16. */
void compareConversion(ir::Value::Op op, const std::vector<std::uint32_t>& words) {
    z3::context ctx;
    const Z3Values z{ctx};
    for (std::uint32_t a : words) {
        const auto x = ir::wrap32(a);
        std::int64_t concrete = 0;
        z3::expr solver = z.word(x);
        switch (op) {
        case ir::Value::Op::F16ToF32:
            concrete = ConcreteValues::f16ToF32(x), solver = z.f16ToF32(z.word(x));
            break;
        case ir::Value::Op::BF16ToF32:
            concrete = ConcreteValues::bf16ToF32(x), solver = z.bf16ToF32(z.word(x));
            break;
        case ir::Value::Op::F32ToF16:
            concrete = ConcreteValues::f32ToF16(x), solver = z.f32ToF16(z.word(x));
            break;
        default:
            concrete = ConcreteValues::f32ToBF16(x), solver = z.f32ToBF16(z.word(x));
            break;
        }
        INFO("op " << static_cast<int>(op) << ": " << std::hex << a);
        REQUIRE(concrete ==
                ir::wrap32(static_cast<std::int64_t>(solver.simplify().get_numeral_uint64())));
    }
}

/** Binary32 words around the 16-bit formats' edges (ties, overflow, subnormals), and random. */
std::vector<std::uint32_t> words32() {
    std::vector<std::uint32_t> out = {0x00000000, 0x00000001, 0x3f800000, 0x3f801000, 0x3f803000,
                                      0x3f808000, 0x3f818000, 0x477fe000, 0x477ff000, 0x477fefff,
                                      0x33800000, 0x33000000, 0x33000001, 0x38800000, 0x387fc000,
                                      0x7f7fffff, 0x7f7f8000, 0x7f800000, 0x7fc00001, 0x7f800001};
    const std::size_t n = out.size();
    for (std::size_t i = 0; i < n; ++i)
        out.push_back(out[i] | 0x80000000U);
    std::mt19937 random(20261203); // fixed: the same words every run
    for (int i = 0; i < 2000; ++i)
        out.push_back(static_cast<std::uint32_t>(random()));
    return out;
}

} // namespace

TEST_CASE(
    "16-bit floats widen to binary32 exactly and binary32 rounds to them: both engines agree") {
    std::vector<std::uint32_t> halves;
    for (std::uint32_t h = 0; h < 0x10000; h += 7)
        halves.push_back(h);
    for (std::uint32_t h : specials16(false))
        halves.push_back(h);
    compareConversion(ir::Value::Op::F16ToF32, halves);
    compareConversion(ir::Value::Op::BF16ToF32, halves);
    compareConversion(ir::Value::Op::F32ToF16, words32());
    compareConversion(ir::Value::Op::F32ToBF16, words32());
    CHECK(ConcreteValues::f16ToF32(0x3c00) == 0x3f800000);              // 1.0
    CHECK(ConcreteValues::f16ToF32(0x0001) == 0x33800000);              // 2^-24, a subnormal: exact
    CHECK(ConcreteValues::f16ToF32(0x7e01) == 0x7fffffff);              // a NaN: the canonical one
    CHECK(ConcreteValues::bf16ToF32(0xbf80) == ir::wrap32(0xbf800000)); // -1.0
    CHECK(ConcreteValues::f32ToF16(0x3f801000) == 0x3c00);              // 1 + 1/2 ulp: a tie, even
    CHECK(ConcreteValues::f32ToF16(0x3f803000) == 0x3c02);              // 1 + 3/2 ulp: a tie, up
    CHECK(ConcreteValues::f32ToF16(0x477ff000) == 0x7c00);              // 65520: overflow to +inf
    CHECK(ConcreteValues::f32ToF16(0x33000001) == 0x0001);              // just above 2^-25: up
    CHECK(ConcreteValues::f32ToBF16(0x3f808000) == 0x3f80);             // a tie, even
    CHECK(ConcreteValues::f32ToBF16(0x3f818000) == 0x3f82);             // a tie, up
}

TEST_CASE("binary16 addition: both engines give the same word") {
    compareOn(specials16(false), 16, 0xffff);
}

TEST_CASE("bfloat16 addition: both engines give the same word") {
    compareOn(specials16(true), 8, 0xffff);
}

TEST_CASE("binary32 addition: both engines give the same word") {
    compareOn({0x00000000, 0x00000001, 0x3f800000, 0x33800000, 0x34400000, 0x7f7fffff, 0x7f800000,
               0x7fc00001, 0x80000000, 0x80000001, 0xbf800000, 0xff800000},
              32, 0xffffffff);
}

TEST_CASE("16-bit sums are rounded to nearest even and zero-extended") {
    CHECK(ConcreteValues::addF16(0x3c01, 0x1000) == 0x3c02);  // (1 + 1 ulp) + 1/2 ulp: a tie, up
    CHECK(ConcreteValues::addF16(0x3c00, 0x1000) == 0x3c00);  // 1 + 1/2 ulp: a tie, stays even
    CHECK(ConcreteValues::addF16(0x7bff, 0x7bff) == 0x7c00);  // overflow to +inf
    CHECK(ConcreteValues::addF16(0xbc00, 0x3c00) == 0x0000);  // -1 + 1 = +0
    CHECK(ConcreteValues::addF16(0x7c00, 0xfc00) == 0x7fff);  // inf - inf: the canonical NaN
    CHECK(ConcreteValues::addBF16(0x3f81, 0x3b80) == 0x3f82); // a tie, up to the even neighbour
    CHECK(ConcreteValues::addBF16(0x8000, 0x8000) == 0x8000); // -0 + -0 = -0, not sign-extended
    CHECK(ConcreteValues::shiftRight(ir::wrap32(0xabcd1234U), 16) == 0xabcd);
    CHECK(ConcreteValues::shiftRight(7, 32) == 0);
}
