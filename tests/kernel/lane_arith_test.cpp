// Arithmetic and setp on a lane's registers: widths, unpacking, and what an unknown input leaves.
#include "../unit/RequireInputError.hpp"
#include "EntryText.hpp"
#include "kernel/LaneArith.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;
using namespace ptxmc::kernel;

namespace {

struct ArithFixture {
    Module m;
    Layout layout;
    LaunchShape shape;
    LaneValues values{layout, shape};
    Lane lane;
    explicit ArithFixture(const std::string& body) : m(testing::entryModule(body + "\tret;\n")) {}
    const Statement& at(std::size_t i) const { return m.functions.at(0).body.at(i); }
};

} // namespace

TEST_CASE("lane arith: a result keeps its type's width, mov unpacks low part first",
          "[lane-arith]") {
    ArithFixture f("\tadd.u32 %r1, %r2, 1;\n"
                   "\tmov.b64 {%r3, %r4}, %rd1;\n"
                   "\tmul.wide.u32 %rd2, %r2, 2;\n");
    f.lane.regs["%r2"] = Val::of(0xFFFFFFFF);
    f.lane.regs["%rd1"] = Val::of(0x0000000200000001);
    runArith(f.lane, f.at(0), f.values);
    CHECK(f.lane.regs.at("%r1") == Val::of(0)); // 32 bits wrap
    runArith(f.lane, f.at(1), f.values);
    CHECK(f.lane.regs.at("%r3") == Val::of(1));
    CHECK(f.lane.regs.at("%r4") == Val::of(2));
    runArith(f.lane, f.at(2), f.values);
    CHECK(f.lane.regs.at("%rd2") == Val::of(0x1FFFFFFFE)); // .wide keeps 64 bits
}

TEST_CASE("lane arith: an unknown input names its field and probe", "[lane-arith]") {
    ArithFixture f("\tadd.u32 %r1, %r2, %r3;\n"
                   "\tsetp.lt.u32 %p1|%p2, %r3, 4;\n"
                   "\tsetp.eq.u32 %p3, %r2, 4;\n");
    f.lane.regs["%r2"] = Val{false, 3, 0};
    Val probed = Val::of(2);
    probed.probe = 1;
    f.lane.regs["%r3"] = probed;
    runArith(f.lane, f.at(0), f.values);
    CHECK_FALSE(f.lane.regs.at("%r1").known);
    CHECK(f.lane.regs.at("%r1").field == 3);
    CHECK(f.lane.regs.at("%r1").probe == 1);
    runSetp(f.lane, f.at(1), f.values);
    CHECK(f.lane.regs.at("%p1").v == 1);
    CHECK(f.lane.regs.at("%p2") == Val::of(0)); // the second destination: the negation
    runSetp(f.lane, f.at(2), f.values);
    CHECK(f.lane.regs.at("%p3").field == 3);
}

TEST_CASE("lane arith: a result written to a constant is an error", "[lane-arith]") {
    ArithFixture f("\tadd.u32 5, %r2, 1;\n");
    testing::requireInputError([&] { runArith(f.lane, f.at(0), f.values); }, "", "k.ptx", 14, 10,
                               "'add.u32' writes its result to a constant, not a register");
}

TEST_CASE("lane arith: the word semantics are the engines' (ir/ValueSemantics.hpp)",
          "[lane-arith]") {
    ArithFixture f("\tcvt.f32.f16 %f1, %rs1;\n"
                   "\tcvt.f32.f16 %f2, %rs2;\n"
                   "\tsub.u16 %rs3, %rs1, %rs2;\n"
                   "\tmul.lo.u64 %rd3, %rd1, %rd1;\n");
    f.lane.regs["%rs1"] = Val::of(0x3C00); // 1.0
    f.lane.regs["%rs2"] = Val::of(0x7E01); // a NaN
    f.lane.regs["%rd1"] = Val::of(0x100000001);
    runArith(f.lane, f.at(0), f.values);
    CHECK(f.lane.regs.at("%f1") == Val::of(0x3F800000));
    runArith(f.lane, f.at(1), f.values);
    CHECK(f.lane.regs.at("%f2") == Val::of(0x7FFFFFFF)); // the canonical NaN the engines give
    runArith(f.lane, f.at(2), f.values);
    CHECK(f.lane.regs.at("%rs3") == Val::of(0x3C00 - 0x7E01 + 0x10000)); // 16 bits wrap
    runArith(f.lane, f.at(3), f.values);
    CHECK(f.lane.regs.at("%rd3") == Val::of(0x200000001)); // 64 bits wrap
}
