// What the builder reads off a recorded step: its mbarrier operand, its kind of copy, its
// access width, and its opcode less hints.
#include "kernel/StepForms.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;
using namespace ptxmc::kernel;

namespace {

Step stepOf(std::vector<std::string> parts, std::vector<RawOperand::Kind> operands = {}) {
    Step s;
    s.op = ptx::moduleOp(parts).op;
    s.parts = std::move(parts);
    s.value = ptx::valueForm(s.op, s.parts);
    for (std::size_t i = 0; i < s.parts.size(); ++i)
        s.opcode += (i ? "." : "") + s.parts[i];
    for (RawOperand::Kind k : operands) {
        RawOperand o;
        o.kind = k;
        s.operands.push_back(o);
    }
    return s;
}

using K = RawOperand::Kind;

} // namespace

TEST_CASE("step forms: the mbarrier operand", "[step-forms]") {
    CHECK(mbarrierOperand(stepOf({"mbarrier", "arrive", "shared", "b64"}, {K::Sink, K::Addr})) ==
          1u);
    CHECK(mbarrierOperand(stepOf({"tcgen05", "commit", "cta_group::1", "b64"}, {K::Addr})) == 0u);
    auto copy = stepOf({"cp", "async", "bulk", "tensor", "2d", "shared::cluster", "global",
                        "mbarrier::complete_tx::bytes"},
                       {K::Addr, K::Addr, K::Addr});
    CHECK(mbarrierOperand(copy) == 2u); // complete_tx: the last address
    CHECK(isBulkCopy(copy));
    CHECK(isTensor(copy));
    CHECK_FALSE(isReduceBulk(copy));
    CHECK_FALSE(mbarrierOperand(stepOf({"st", "shared", "u32"}, {K::Addr, K::Reg})));
    CHECK(isReduceBulk(stepOf({"cp", "reduce", "async", "bulk", "global", "shared::cta"})));
    CHECK(isNonBulkAsync(stepOf({"cp", "async", "cg", "shared", "global"})));
    CHECK(isNonBulkAsync(stepOf({"cp", "async", "mbarrier", "arrive", "b64"})));
}

TEST_CASE("step forms: access widths", "[step-forms]") {
    CHECK(accessBytes(stepOf({"st", "shared", "v4", "u32"})) == 16);
    CHECK(accessBytes(stepOf({"ld", "global", "b64"})) == 8);
    CHECK(accessBytes(stepOf({"stmatrix", "sync", "aligned", "m8n8", "x4", "shared", "b16"})) ==
          16);
    CHECK(lastBits(stepOf({"ld", "shared", "pred"})) == 32); // no width: 32 bits
    CHECK(stmatrixAddressLanes(stepOf({"stmatrix", "sync", "aligned", "x2", "b16"})) == 16);
    CHECK(stmatrixAddressLanes(stepOf({"stmatrix", "sync", "aligned", "x4", "b16"})) == 32);
}

TEST_CASE("step forms: hints and repetitions leave the opcode", "[step-forms]") {
    litmus::Instruction in;
    std::vector<RawOperand> ops(3);
    stripHints(in, ops, stepOf({"ld", "global", "nc", "L2::cache_hint", "u32"}));
    CHECK(in.opcode == "ld.global.u32");
    CHECK(ops.size() == 2); // the cache policy operand went with its hint
    stripHints(in, ops, stepOf({"cp", "async", "cg", "shared", "global"}));
    CHECK(in.opcode == "cp.async.cg.shared.global"); // .cg is cp.async's kind, not a hint
    litmus::Instruction wide;
    wide.parts = {"st", "shared", "v2", "b128"};
    wide.operands.resize(1);
    wide.operands[0].kind = litmus::Operand::Kind::Vector;
    wide.operands[0].elements.resize(2);
    wide.operands[0].elements[0].name = "%r1";
    CHECK(narrowWide(wide));
    CHECK(wide.opcode == "st.shared.b64");
    CHECK(wide.operands[0].name == "%r1");
    litmus::Instruction narrow;
    narrow.parts = {"st", "shared", "u16"}; // a litmus store narrower than its cell is refused
    CHECK(widenSubWord(narrow));
    CHECK(narrow.opcode == "st.shared.b32");
    narrow.parts = {"ld", "shared", "u32"};
    CHECK_FALSE(widenSubWord(narrow));
    litmus::Instruction ld;
    ld.parts = {"tcgen05", "ld", "sync", "aligned", "32x32b", "x16", "b32"};
    CHECK(oneRepetition(ld) == 16);
    CHECK(ld.opcode == "tcgen05.ld.sync.aligned.32x32b.x1.b32");
}
