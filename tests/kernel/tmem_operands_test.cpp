// Tensor-memory operands of the built program: one location or a list of slices, the lane
// quarter a warp owns, and an own-quarter operand spread over a role's quarters.
#include "kernel/TmemSlices.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;
using namespace ptxmc::kernel;

namespace {

using Names = std::vector<std::string>;

} // namespace

TEST_CASE("tmem operands: one location or a list of slices", "[tmem-operands]") {
    litmus::Operand one = tmemOperand({"tmem_0"}, SourceLoc{"k.ptx", 4, 2});
    CHECK(one.kind == litmus::Operand::Kind::Memory);
    CHECK(tmemOperandNames(one) == Names{"tmem_0"});
    litmus::Operand two = tmemOperand({"tmem_64_l32_c64", "tmem_64_l32_c96"}, SourceLoc{});
    CHECK(two.kind == litmus::Operand::Kind::Vector);
    CHECK(tmemOperandNames(two) == Names{"tmem_64_l32_c64", "tmem_64_l32_c96"});
}

TEST_CASE("tmem operands: a warp's own quarter", "[tmem-operands]") {
    litmus::Operand own = tmemOperand({"tmem_64_l32_c64", "tmem_64_l32_c96"}, SourceLoc{});
    CHECK(ownsQuarter(own, 1));
    CHECK_FALSE(ownsQuarter(own, 2));
    CHECK_FALSE(ownsQuarter(tmemOperand({"tmem_0"}, SourceLoc{}), 0)); // a whole accumulator
    litmus::Operand reg;
    reg.kind = litmus::Operand::Kind::Name;
    CHECK_FALSE(ownsQuarter(reg, 0));
}

TEST_CASE("tmem operands: an own-quarter operand for a role's warps", "[tmem-operands]") {
    litmus::Operand own = tmemOperand({"tmem_64_l32_c64"}, SourceLoc{});
    CHECK(tmemOperandNames(inQuarters(own, {0, 2})) == Names{"tmem_64_l0_c64", "tmem_64_l64_c64"});
    CHECK(tmemOperandNames(inQuarters(own, {}, "_lSELF")) == Names{"tmem_64_lSELF_c64"});
}
