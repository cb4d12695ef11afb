// The value qualifiers of ValueForms.def decoded from an opcode's parts: types, setp's
// comparison and combination, the product part of mul/mad, shf's direction and mode.
#include "ptx/ValueForm.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc::ptx;

namespace {

ValueForm decode(const std::vector<std::string>& parts) {
    return valueForm(moduleOp(parts).op, parts);
}

} // namespace

TEST_CASE("value form: scalar types as written", "[value-form]") {
    CHECK(scalarType("u32") == ScalarType{ScalarType::Kind::Unsigned, 32});
    CHECK(scalarType("s8") == ScalarType{ScalarType::Kind::Signed, 8});
    CHECK(scalarType("b128") == ScalarType{ScalarType::Kind::Bits, 128});
    CHECK(scalarType("f16") == ScalarType{ScalarType::Kind::Float, 16});
    CHECK(scalarType("pred") == ScalarType{ScalarType::Kind::Predicate, 1});
    // not scalar types: packed and alternate floats, odd widths, other qualifiers
    for (const char* q : {"bf16", "f16x2", "u24", "s256", "b", "shared", "v4", "e4m3", ""})
        CHECK_FALSE(scalarType(q).has_value());
}

TEST_CASE("value form: setp's comparison and combination", "[value-form]") {
    ValueForm f = decode({"setp", "ltu", "and", "ftz", "f32"});
    CHECK(f.comparison == Comparison::Ltu);
    CHECK(comparisonRow(f.comparison).relation == Relation::Lt);
    CHECK(comparisonRow(f.comparison).unordered);
    CHECK(f.combine == Combine::And);
    CHECK(f.type == ScalarType{ScalarType::Kind::Float, 32});
    CHECK(comparisonRow(Comparison::Hs).unsignedAlways);
    CHECK(decode({"setp", "hi", "u32"}).comparison == Comparison::Hi);
    CHECK(decode({"setp", "ne", "s64"}).combine == Combine::None);
    // a spelling no row names: no comparison (the predicate is unknown, never guessed)
    CHECK(decode({"setp", "bogus", "u32"}).comparison == Comparison::None);
    // .hi is a product part only where the opcode multiplies
    CHECK(decode({"mul", "hi", "u32"}).comparison == Comparison::None);
}

TEST_CASE("value form: mul/mad's product, shf's funnel, cvt's two types", "[value-form]") {
    CHECK(decode({"mul", "lo", "s32"}).product == ProductPart::Lo);
    CHECK(decode({"mul", "wide", "u32"}).product == ProductPart::Wide);
    CHECK(decode({"mad", "hi", "u64"}).product == ProductPart::Hi);
    CHECK(decode({"add", "u32"}).product == ProductPart::Lo);
    ValueForm shf = decode({"shf", "l", "clamp", "b32"});
    CHECK(shf.funnelLeft);
    CHECK(shf.clamp);
    ValueForm shr = decode({"shf", "r", "wrap", "b32"});
    CHECK_FALSE(shr.funnelLeft);
    CHECK_FALSE(shr.clamp);
    ValueForm cvt = decode({"cvt", "rn", "f32", "u16"});
    CHECK(cvt.type == ScalarType{ScalarType::Kind::Unsigned, 16}); // the source, written last
    CHECK(cvt.before == ScalarType{ScalarType::Kind::Float, 32});  // the destination
    CHECK(decode({"ld", "param", "v2", "u64"}).bytes() == 8);
    CHECK(decode({"ld", "shared", "b128"}).bytes() == 16);
    CHECK(decode({"ld", "shared"}).bytes() == 8);
}
