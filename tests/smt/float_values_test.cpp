// The float additions of the value algebra: the explicit engine's (ConcreteValues) and the
// solver's (Z3Values, Z3's floating-point theory) give the same words on the same inputs.
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

} // namespace

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
