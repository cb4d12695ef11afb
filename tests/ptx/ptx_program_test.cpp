// ptx::decodeProgram: threads, labels, guards and .cta_group decoded once; errors kept in place.
#include "../unit/RequireInputError.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"
#include "ptx/Decode.hpp"
#include "ptx/Program.hpp"
#include "ptx/TestHash.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;

namespace {

const char* kTwoThreads = R"(PTX two
"docs"
{ x = 0; P1:r1 = 1; }
 P0@cta 0,gpu 0      | P1@cta 1,cluster 4,gpu 0 ;
 LC00:               | @!r1 st.relaxed.gpu [x], 2 ;
 ld.acquire.gpu r0, [x] | ;
exists (P0:r0 == 2)
)";

} // namespace

TEST_CASE("decodeProgram keeps the test's parts and decodes each instruction", "[ptx]") {
    litmus::Test test = litmus::parseLitmus(kTwoThreads, "t.litmus");
    ptx::Program p = ptx::decodeProgram(test);
    CHECK(p.name == "two");
    CHECK(p.file == "t.litmus");
    CHECK(p.docs == test.docs);
    CHECK(p.locations.size() == 1);
    CHECK(p.registers.size() == 1);
    REQUIRE(p.condition);
    REQUIRE(p.threads.size() == 2);
    CHECK(p.threads[1].cta == 1);
    CHECK(p.threads[1].cluster == 4);
    const auto& p0 = p.threads[0].code;
    REQUIRE(p0.size() == 2);
    CHECK(p0[0].isLabel());
    CHECK(*p0[0].label == "LC00");
    CHECK_FALSE(p0[0].decoded);
    const ptx::Ld* ld = p0[1].insn().as<ptx::Ld>();
    REQUIRE(ld);
    CHECK(ld->sem == ptx::Sem::Acquire);
    CHECK(p0[1].insn().loc.str() == test.threads[0].code[1].loc.str());
    const auto& st = p.threads[1].code.at(0);
    REQUIRE(st.guard);
    CHECK(st.guard->negated);
    CHECK(st.guard->reg == "r1");
    CHECK(st.insn().is<ptx::St>());
    CHECK_FALSE(st.ctaGroup);
}

TEST_CASE("decodeProgram notes each tcgen05 instruction's .cta_group", "[ptx]") {
    ptx::CodeItem mma = ptx::decodeItem(
        litmus::parseLitmus("PTX t\n{ }\n P0@cta 0,gpu 0 ;\n"
                            " tcgen05.mma.cta_group::2.kind::f16 [d], [a], [b], I0, 0 ;\n"
                            "exists (true)\n",
                            "t.litmus")
            .threads[0]
            .code[0]);
    CHECK(mma.ctaGroup == 2);
    CHECK(mma.insn().as<ptx::Tcgen05Mma>()->ctaGroup == 2);
}

TEST_CASE("a malformed instruction keeps the decoder's error, thrown where it is used", "[ptx]") {
    const std::string text = "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n ld.bogus.u32 r0, [x] ;\n"
                             "exists (x == 0)\n";
    litmus::Test test = litmus::parseLitmus(text, "t.litmus");
    ptx::Program p = ptx::decodeProgram(test); // does not throw
    const ptx::CodeItem& item = p.threads[0].code[0];
    REQUIRE(item.error);
    CHECK_FALSE(item.decoded);
    std::string expected;
    try {
        ptx::decode(test.threads[0].code[0]);
    } catch (const InputError& e) {
        expected = e.what();
    }
    REQUIRE_FALSE(expected.empty());
    CHECK(std::string(item.error->what()) == expected);
    testing::requireInputError([&] { item.insn(); }, text, "t.litmus", 4, 5, "bogus");
}

TEST_CASE("lowering reports an earlier thread's error before a later thread's bad opcode",
          "[lower]") {
    // Decoding is done up front; its errors still come where lowering meets the instruction.
    const std::string text = "PTX t\n{ x = 0; }\n"
                             " P0@cta 0,gpu 0        | P1@cta 0,gpu 0 ;\n"
                             " st.relaxed.gpu [x], r9 | frobnicate r0 ;\n"
                             "exists (x == 0)\n";
    testing::requireInputError(
        [&] { lower::lowerProgram(ptx::decodeProgram(litmus::parseLitmus(text, "t.litmus"))); },
        text, "t.litmus", 4, 22, "never defined");
    const std::string declared = "PTX t\n{ x = 0; x = 1; }\n P0@cta 0,gpu 0 ;\n frobnicate r0 ;\n"
                                 "exists (x == 0)\n";
    testing::requireLoweringError(declared, 2, 10, "declared twice");
}

TEST_CASE("the decoded program hashes as the test does", "[ptx]") {
    litmus::Test test = litmus::parseLitmus(kTwoThreads, "t.litmus");
    CHECK(ptx::testHash(ptx::decodeProgram(test)) == ptx::testHash(test));
    CHECK(ptx::testHash(test).size() == 32);
}
