// setp's predicate on known and unknown inputs: the comparison, then .and/.or/.xor with a
// third predicate, the known side deciding where it can.
#include "kernel/Arith.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc::kernel;

namespace {

Val unknownField(std::uint32_t field) {
    return Val{false, field, 0, 0};
}

ptxmc::ptx::ValueForm setp(const std::vector<std::string>& parts) {
    return ptxmc::ptx::valueForm(ptxmc::ptx::ModuleOp::Setp, parts);
}

} // namespace

TEST_CASE("setp value: a comparison of known values", "[setp-value]") {
    CHECK(setpValue(setp({"setp", "lt", "s32"}), Val::of(0xFFFFFFFF), Val::of(0), std::nullopt) ==
          Val::of(1)); // -1 < 0
    CHECK(setpValue(setp({"setp", "lo", "u32"}), Val::of(0xFFFFFFFF), Val::of(0), std::nullopt) ==
          Val::of(0));
    // an unknown input: the result names the parameter field it depends on
    CHECK(setpValue(setp({"setp", "eq", "u32"}), unknownField(3), Val::of(0), std::nullopt) ==
          unknownField(3));
}

TEST_CASE("setp value: a combination the known side decides", "[setp-value]") {
    const auto andForm = setp({"setp", "ne", "and", "u32"});
    const auto orForm = setp({"setp", "ne", "or", "u32"});
    const auto xorForm = setp({"setp", "ne", "xor", "u32"});
    CHECK(setpValue(andForm, Val::of(1), Val::of(0), Val::of(1)) == Val::of(1));
    CHECK(setpValue(andForm, unknownField(2), Val::of(0), Val::of(0)) == Val::of(0));
    CHECK(setpValue(orForm, unknownField(2), Val::of(0), Val::of(1)) == Val::of(1));
    CHECK(setpValue(xorForm, Val::of(1), Val::of(0), Val::of(1)) == Val::of(0));
    // a known comparison and an unknown predicate: the predicate's value (unknown)
    CHECK(setpValue(xorForm, Val::of(1), Val::of(0), unknownField(4)) == unknownField(4));
    // both unknown: the comparison's field first
    CHECK(setpValue(andForm, unknownField(2), Val::of(0), unknownField(4)) == unknownField(2));
    // a written combination without its predicate operand is a plain comparison
    CHECK(setpValue(andForm, Val::of(1), Val::of(0), std::nullopt) == Val::of(1));
}

TEST_CASE("setp value: a probe's result taints the predicate", "[setp-value]") {
    Val probed = Val::of(1);
    probed.probe = 2;
    CHECK(setpValue(setp({"setp", "ne", "u32"}), probed, Val::of(0), std::nullopt).probe == 2);
    CHECK(setpValue(setp({"setp", "ne", "and", "u32"}), Val::of(1), Val::of(0), probed).probe == 2);
}
