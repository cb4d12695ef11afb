// A lane's operand values: registers, special registers, variables' addresses, vectors, results.
#include "EntryText.hpp"
#include "kernel/LaneValues.hpp"
#include "kernel/VariableLayout.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;
using namespace ptxmc::kernel;

namespace {

litmus::Operand operandName(const std::string& n) {
    litmus::Operand o;
    o.kind = litmus::Operand::Kind::Name;
    o.name = n;
    return o;
}

litmus::Operand operandVector(std::vector<litmus::Operand> elements) {
    litmus::Operand o;
    o.kind = litmus::Operand::Kind::Vector;
    o.elements = std::move(elements);
    return o;
}

struct ValuesFixture {
    Module m = testing::entryModule("\tret;\n", "\t.shared .align 8 .b64 bar;\n");
    Layout layout = layoutVariables(m, m.functions.at(0), 0);
    LaunchShape shape;
    LaneValues values{layout, shape};
    Lane lane;
    ValuesFixture() {
        shape.block = {64, 1, 1};
        shape.cluster = {2, 1, 1};
        shape.grid = {2, 1, 1};
        lane.cta = 1;
        lane.warp = 1;
        lane.lane = 3;
        lane.tid = 35;
    }
};

} // namespace

TEST_CASE("lane values: special registers and variables' addresses", "[lane-values]") {
    ValuesFixture f;
    CHECK(f.values.read(f.lane, "%tid.x") == Val::of(35));
    CHECK(f.values.read(f.lane, "%laneid") == Val::of(3));
    // CTA rank 1's shared window: (1 << 24) | 0x400
    CHECK(f.values.read(f.lane, "bar") == Val::of((1ULL << 24) | 0x400));
    CHECK(f.values.read(f.lane, "k_param_1") == Val::of(Layout::kGenericParam + 32));
    CHECK_FALSE(f.values.read(f.lane, "%r9").known); // never written: data
    litmus::Operand addr = operandName("bar");
    addr.kind = litmus::Operand::Kind::Memory;
    addr.value = 8;
    CHECK(f.values.address(f.lane, addr) == Val::of((1ULL << 24) | 0x408));
}

TEST_CASE("lane values: negated predicates, packed vectors, unpacked results", "[lane-values]") {
    ValuesFixture f;
    f.lane.regs["%p1"] = Val::of(0);
    CHECK(f.values.read(f.lane, "!%p1") == Val::of(1));
    Val way;
    way.way = 2;
    f.lane.regs["%p2"] = way;
    CHECK(f.values.read(f.lane, "!%p2").wayNegated); // the other way of that branch
    f.lane.regs["%r1"] = Val::of(0x11);
    f.lane.regs["%r2"] = Val::of(0x22);
    CHECK(f.values.value(f.lane, operandVector({operandName("%r1"), operandName("%r2")})) ==
          Val::of(0x2200000011));
    Val fromField{false, 3, 0};
    f.lane.regs["%r3"] = fromField;
    CHECK(f.values.value(f.lane, operandVector({operandName("%r1"), operandName("%r3")})).field ==
          3);
    // a vector destination's elements become unknown, keeping the field
    LaneValues::set(f.lane, operandVector({operandName("%r1"), operandName("%r2")}), fromField);
    CHECK_FALSE(f.lane.regs.at("%r1").known);
    CHECK(f.lane.regs.at("%r2").field == 3);
}

TEST_CASE("lane values: resolved operands and the field an input needs", "[lane-values]") {
    ValuesFixture f;
    f.lane.regs["%r4"] = Val{false, 2, 0};
    litmus::Instruction in;
    in.operands = {operandName("%r5"), operandName("%r1"), operandName("%r4")};
    f.lane.regs["%r1"] = Val::of(1);
    CHECK(f.values.fieldOf(f.lane, in) == 2);
    RawOperand r =
        f.values.resolve(f.lane, operandVector({operandName("%r1"), operandName("%r4")}));
    CHECK(r.kind == RawOperand::Kind::Vec);
    REQUIRE(r.elements.size() == 2);
    CHECK(r.elements[0].value == Val::of(1));
    CHECK(r.elements[1].reg == "%r4");
    LaneValues::unknownDests(f.lane, in, 2);
    CHECK(f.lane.regs.at("%r5").field == 2);
}
