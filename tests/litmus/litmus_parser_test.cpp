// Unit tests of the litmus parser: the README contract, Dat3M tests, operands, conditions, errors.
#include "../unit/RequireInputError.hpp"
#include "litmus/Parser.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>

using namespace ptxmc::litmus;
namespace ir = ptxmc::ir;
using ptxmc::InputError;

namespace {

/** The shared assertion (unit/RequireInputError.hpp), by the short name the cases use. */
const auto requireError = &ptxmc::testing::requireLitmusError;

Test parseTest(const std::string& text) {
    return parseLitmus(text, "t.litmus");
}

/** A minimal valid test around a code table body (rows only, no header row). */
std::string withRows(const std::string& rows, const std::string& init = "x = 0;") {
    return "PTX t\n{ " + init + " }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n" + rows +
           "exists (x = 0)\n";
}

/** A minimal valid test with the given final condition. */
std::string withCondition(const std::string& cond) {
    return "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n" + cond + "\n";
}

const Prop& arg(const Prop& p, std::size_t i) {
    REQUIRE(i < p.args.size());
    return *p.args[i];
}

int depth(const Prop& p) {
    int d = 0;
    for (const auto& a : p.args)
        d = std::max(d, depth(*a));
    return d + 1;
}

std::string readmeExample() {
    std::ifstream in(std::string(PTXMC_SOURCE_DIR) + "/litmus/README.md");
    REQUIRE(in);
    std::stringstream buf;
    buf << in.rdbuf();
    const std::string md = buf.str();
    const std::size_t open = md.find("```\n");
    REQUIRE(open != std::string::npos);
    const std::size_t close = md.find("```", open + 4);
    REQUIRE(close != std::string::npos);
    return md.substr(open + 4, close - open - 4);
}

} // namespace

TEST_CASE("litmus parser: the README example", "[litmus]") {
    const Test t = parseLitmus(readmeExample(), "readme.litmus");
    CHECK(t.file == "readme.litmus");
    CHECK(t.arch == "PTX");
    CHECK(t.name == "MP+tcgen05.commit");
    REQUIRE(t.docs.size() == 1);
    CHECK(t.docs[0].rfind("mma; commit -> mbarrier;", 0) == 0);

    REQUIRE(t.locations.size() == 5);
    const LocationDecl& a = t.locations[0];
    CHECK(a.name == "a");
    CHECK(a.space == ir::Space::Shared);
    CHECK(a.ctas == std::vector<int>{0});
    CHECK(a.values == std::vector<std::int64_t>{2});
    CHECK(a.loc.line == 4);
    CHECK(a.loc.col == 3);
    CHECK(t.locations[1].name == "b");
    CHECK(t.locations[1].values == std::vector<std::int64_t>{3});
    const LocationDecl& d = t.locations[2];
    CHECK(d.space == ir::Space::Tmem);
    CHECK(d.rows == 1);
    CHECK(d.values == std::vector<std::int64_t>{0});
    const LocationDecl& mb = t.locations[3];
    CHECK(mb.space == ir::Space::Mbarrier);
    CHECK(mb.ctas == std::vector<int>{0});
    CHECK(mb.count == 1);
    CHECK(t.locations[4].name == "x");
    CHECK(t.locations[4].space == ir::Space::Global);
    CHECK(t.locations[4].ctas.empty());

    REQUIRE(t.registers.size() == 1);
    CHECK(t.registers[0].thread == 1);
    CHECK(t.registers[0].reg == "r0");
    CHECK(t.registers[0].value == 0);

    REQUIRE(t.threads.size() == 2);
    const Thread& p0 = t.threads[0];
    const Thread& p1 = t.threads[1];
    CHECK(p0.id == 0);
    CHECK(p1.id == 1);
    CHECK(p1.cta == 0);
    CHECK(p1.gpu == 0);
    CHECK_FALSE(p1.cluster);
    CHECK(p0.loc.line == 10);
    CHECK(p0.loc.col == 2);
    REQUIRE(p0.code.size() == 2);
    REQUIRE(p1.code.size() == 4);

    const Instruction& mma = p0.code[0];
    CHECK(mma.opcode == "tcgen05.mma.cta_group::1.kind::f16");
    CHECK(mma.parts == std::vector<std::string>{"tcgen05", "mma", "cta_group::1", "kind::f16"});
    CHECK(mma.loc.line == 11);
    CHECK(mma.loc.col == 2);
    REQUIRE(mma.operands.size() == 5);
    CHECK(mma.operands[0].kind == Operand::Kind::Memory);
    CHECK(mma.operands[0].name == "d");
    CHECK(mma.operands[0].loc.col == 37);
    CHECK(mma.operands[2].name == "b");
    CHECK(mma.operands[3].kind == Operand::Kind::Name);
    CHECK(mma.operands[3].name == "I0");
    CHECK(mma.operands[4].kind == Operand::Kind::Integer);
    CHECK(mma.operands[4].value == 0);

    const Instruction& wait = p1.code[0];
    CHECK(wait.parts.size() == 7);
    REQUIRE(wait.operands.size() == 3);
    CHECK(wait.operands[0].kind == Operand::Kind::Sink);
    CHECK(wait.operands[1].kind == Operand::Kind::Memory);
    CHECK(wait.operands[1].name == "mb");
    CHECK(p1.code[1].opcode == "tcgen05.fence::after_thread_sync");
    CHECK(p1.code[1].operands.empty());
    const Instruction& ld = p1.code[2];
    CHECK(ld.loc.line == 13);
    CHECK(ld.loc.col == 54);
    REQUIRE(ld.operands.size() == 2);
    CHECK(ld.operands[0].kind == Operand::Kind::Vector);
    REQUIRE(ld.operands[0].elements.size() == 1);
    CHECK(ld.operands[0].elements[0].name == "r0");
    CHECK(p1.code[3].opcode == "tcgen05.wait::ld.sync.aligned");

    REQUIRE(t.condition);
    CHECK(t.condition->quantifier == ir::Quantifier::Exists);
    CHECK(t.condition->loc.line == 15);
    const Prop& p = *t.condition->prop;
    CHECK(p.kind == Prop::Kind::Eq);
    CHECK(p.lhs.kind == Ref::Kind::Register);
    CHECK(p.lhs.thread == 1);
    CHECK(p.lhs.name == "r0");
    CHECK_FALSE(p.rhsRef);
    CHECK(p.rhsValue == 0);
    CHECK(t.observed.empty());
}

TEST_CASE("litmus parser: Dat3M SB test", "[litmus]") {
    const std::string text = R"(PTX SB-cta
"https://github.com/NVlabs/mixedproxy/blob/main/tests/SB_cta.test"
{
x=0;
y=0;
P0:r0=0;
P1:r1=0;
}
 P0@cta 0,gpu 0         | P1@cta 0,gpu 0         ;
 st.weak x, 1           | st.weak y, 2           ;
 fence.sc.cta           | fence.sc.cta           ;
 ld.weak r0, y          | ld.weak r1, x          ;
forall
(P0:r0 == 2 \/ P1:r1 == 1)
)";
    const Test t = parseTest(text);
    CHECK(t.name == "SB-cta");
    REQUIRE(t.docs.size() == 1);
    CHECK(t.docs[0] == "https://github.com/NVlabs/mixedproxy/blob/main/tests/SB_cta.test");
    REQUIRE(t.locations.size() == 2);
    CHECK(t.locations[1].name == "y");
    CHECK(t.locations[1].loc.line == 5);
    REQUIRE(t.registers.size() == 2);
    CHECK(t.registers[1].thread == 1);
    CHECK(t.registers[1].reg == "r1");
    REQUIRE(t.threads.size() == 2);
    for (const Thread& th : t.threads)
        REQUIRE(th.code.size() == 3);
    const Instruction& st = t.threads[1].code[0];
    CHECK(st.opcode == "st.weak");
    CHECK(st.loc.line == 10);
    CHECK(st.loc.col == 27);
    REQUIRE(st.operands.size() == 2);
    CHECK(st.operands[0].kind == Operand::Kind::Name);
    CHECK(st.operands[0].name == "y");
    CHECK(st.operands[1].kind == Operand::Kind::Integer);
    CHECK(st.operands[1].value == 2);
    CHECK(st.operands[1].loc.col == 38);
    CHECK(t.threads[0].code[1].parts == std::vector<std::string>{"fence", "sc", "cta"});

    REQUIRE(t.condition);
    CHECK(t.condition->quantifier == ir::Quantifier::Forall);
    CHECK(t.condition->loc.line == 13);
    const Prop& p = *t.condition->prop;
    CHECK(p.kind == Prop::Kind::Or);
    CHECK(p.loc.line == 14);
    CHECK(p.loc.col == 2);
    CHECK(arg(p, 0).lhs.thread == 0);
    CHECK(arg(p, 0).rhsValue == 2);
    CHECK(arg(p, 1).lhs.name == "r1");
    CHECK(arg(p, 1).lhs.loc.col == 16);
}

TEST_CASE("litmus parser: Dat3M mixed-proxy aliases and ~exists", "[litmus]") {
    const std::string text = R"(PTX alias-surface
"surface store, generic load"
{
x = 0;
s @ surface aliases x;
P1:r0 = 0;
}
 P0@cta 0,gpu 0        | P1@cta 0,gpu 0 ;
 sust.weak s, 1        | fence.proxy.surface ;
 fence.proxy.surface   | ld.weak r0, x ;
~exists
(P1:r0 == 0)
)";
    const Test t = parseTest(text);
    REQUIRE(t.locations.size() == 2);
    const LocationDecl& s = t.locations[1];
    CHECK(s.name == "s");
    CHECK(s.space == ir::Space::Global);
    CHECK(s.aliasOf == std::optional<std::string>("x"));
    CHECK(s.aliasProxy == "surface");
    CHECK(s.values.empty());
    CHECK(t.threads[0].code[0].opcode == "sust.weak");
    REQUIRE(t.condition);
    CHECK(t.condition->quantifier == ir::Quantifier::NotExists);
    CHECK(t.condition->loc.line == 11);
    CHECK(t.condition->loc.col == 1);
}

TEST_CASE("litmus parser: Dat3M labels, branches, `},` and constant conditions", "[litmus]") {
    const std::string text = R"(PTX 2_simple
"https://github.com/tyler-utah/AlloyForwardProgress"
{
Mem0=0;
P0:r0=0;
P1:r2=0;
};
P0@cta 0,gpu 0                         | P1@cta 0,gpu 0                         ;
LC00:                                  | LC10:                                  ;
atom.relaxed.gpu.exch r0, Mem0, 1      | atom.relaxed.gpu.exch r2, Mem0, 0      ;
bne r0, 1, LC00                        | goto LC10                              ;
exists 0==0
)";
    const Test t = parseTest(text);
    REQUIRE(t.threads.size() == 2);
    REQUIRE(t.threads[0].code.size() == 3);
    CHECK(t.threads[0].code[0].label == std::optional<std::string>("LC00"));
    CHECK(t.threads[0].code[2].opcode == "bne");
    CHECK(t.threads[0].code[2].operands.size() == 3);
    CHECK(t.threads[1].code[2].opcode == "goto");
    REQUIRE(t.condition);
    CHECK(t.condition->prop->kind == Prop::Kind::True);
    CHECK(t.condition->prop->loc.line == 12);
    CHECK(t.condition->prop->loc.col == 8);

    CHECK(parseTest(withCondition("exists (1 != 1)")).condition->prop->kind == Prop::Kind::False);
    CHECK(parseTest(withCondition("exists (-1 = 0x1)")).condition->prop->kind == Prop::Kind::False);
    const Test swapped = parseTest(withCondition("exists (-5 != P0:r0);"));
    const Prop& p = *swapped.condition->prop;
    CHECK(p.kind == Prop::Kind::Ne);
    CHECK(p.lhs.kind == Ref::Kind::Register);
    CHECK(p.lhs.name == "r0");
    CHECK(p.rhsValue == -5);
    CHECK(p.loc.col == 9);
    const Test herdLoc = parseTest(withCondition("exists ([x] = 1 /\\ 7 = 1:r0)"));
    const Prop& q = *herdLoc.condition->prop;
    CHECK(arg(q, 0).lhs.kind == Ref::Kind::Location);
    CHECK(arg(q, 0).lhs.name == "x");
    CHECK(arg(q, 1).lhs.thread == 1);
    CHECK(arg(q, 1).rhsValue == 7);
}

TEST_CASE("litmus parser: every init entry form", "[litmus]") {
    const std::string text = R"(ptx init-forms
Hash=0123abcd
"first line"
Cycle=Rfe PodRR
"second (* not a comment *) line // neither"
{
  x = 5; g @ global = -3; h @ global;
  a @ shared 0 = 0x1f;
  b @ shared 0,1 = 0b101;
  t @ tmem 0, rows 4 = {1, 2, -3, 0x4};
  u @ tmem 1 = 0;
  v @ tmem 0,1, rows 2;
  mb @ mbarrier 0, count 1;
  mc @ mbarrier 0;
  md @ mbarrier 0,1, count 2;
  y @ generic aliases x; tx @ texture aliases x; c @ constant aliases x;
  bare;
  P1:r0 = 5; 0:r1 = -2147483648; 1:%r2 = 4294967295
}
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
exists (true)
)";
    const Test t = parseTest(text);
    CHECK(t.arch == "PTX");
    CHECK(t.name == "init-forms");
    CHECK(t.docs ==
          std::vector<std::string>{"first line", "second (* not a comment *) line // neither"});
    REQUIRE(t.locations.size() == 15);
    auto loc = [&](const std::string& name) -> const LocationDecl& {
        for (const LocationDecl& d : t.locations)
            if (d.name == name) return d;
        FAIL("no location " << name);
        return t.locations[0];
    };
    CHECK(loc("x").values == std::vector<std::int64_t>{5});
    CHECK(loc("g").space == ir::Space::Global);
    CHECK(loc("g").values == std::vector<std::int64_t>{-3});
    CHECK(loc("h").values.empty());
    CHECK(loc("a").values == std::vector<std::int64_t>{31});
    CHECK(loc("b").ctas == std::vector<int>{0, 1});
    CHECK(loc("b").values == std::vector<std::int64_t>{5});
    CHECK(loc("t").space == ir::Space::Tmem);
    CHECK(loc("t").rows == 4);
    CHECK(loc("t").values == std::vector<std::int64_t>{1, 2, -3, 4});
    CHECK(loc("u").ctas == std::vector<int>{1});
    CHECK(loc("u").rows == 1);
    CHECK(loc("v").ctas == std::vector<int>{0, 1});
    CHECK(loc("v").rows == 2);
    CHECK(loc("v").values.empty());
    CHECK(loc("mb").count == 1);
    CHECK_FALSE(loc("mc").count);
    CHECK(loc("md").ctas == std::vector<int>{0, 1});
    CHECK(loc("md").count == 2);
    CHECK(loc("y").aliasProxy == "generic");
    CHECK(loc("tx").aliasProxy == "texture");
    CHECK(loc("c").aliasProxy == "constant");
    CHECK(loc("c").aliasOf == std::optional<std::string>("x"));
    CHECK(loc("bare").space == ir::Space::Global);
    CHECK(loc("bare").values.empty());
    REQUIRE(t.registers.size() == 3);
    CHECK(t.registers[0].thread == 1);
    CHECK(t.registers[0].value == 5);
    CHECK(t.registers[1].thread == 0);
    CHECK(t.registers[1].reg == "r1");
    CHECK(t.registers[1].value == -2147483648LL); // the 32-bit range's ends

    CHECK(t.registers[1].loc.line == 18);
    CHECK(t.registers[1].loc.col == 14);
    CHECK(t.registers[2].reg == "%r2");
    CHECK(t.registers[2].value == 4294967295LL);
    REQUIRE(t.threads.size() == 2);
    CHECK(t.threads[1].cta == 1);
    CHECK(t.threads[0].code.empty());
    REQUIRE(t.condition);
    CHECK(t.condition->prop->kind == Prop::Kind::True);
}

TEST_CASE("litmus parser: thread headers with clusters", "[litmus]") {
    const Test t = parseTest("PTX t\n{}\n"
                             "P0@cta 0,cluster 0,gpu 0|P1@cluster 1, cta 2 ,gpu 1|P2@gpu 0,cta 3;\n"
                             "exists (false)");
    REQUIRE(t.threads.size() == 3);
    CHECK(t.threads[0].cluster == 0);
    CHECK(t.threads[1].cluster == 1);
    CHECK(t.threads[1].cta == 2);
    CHECK(t.threads[1].gpu == 1);
    CHECK(t.threads[1].loc.col == 26);
    CHECK_FALSE(t.threads[2].cluster);
    CHECK(t.threads[2].cta == 3);
    REQUIRE(t.condition);
    CHECK(t.condition->prop->kind == Prop::Kind::False);
}

TEST_CASE("litmus parser: operand forms", "[litmus]") {
    const Test t = parseTest(
        withRows(" ld.relaxed.gpu.global.u32 %r1, [x] | mbarrier.arrive.b64 _, [mb@1] ;\n"
                 " tcgen05.st.sync.aligned.32x32b.x2.b32 [t+2], {r0, r1} | add r0, r1, -7 ;\n"
                 " st.weak x@1, 0x10 | tcgen05.cp.cta_group::1.128x256b [t@1+3], [s] ;\n"
                 " mov $a, 0b101 | atom.cas r2, [x], 1, 2 ;\n",
                 "x = 0; mb @ mbarrier 0,1; t @ tmem 0,1, rows 8; s @ shared 0"));
    const Thread& p0 = t.threads[0];
    const Thread& p1 = t.threads[1];
    REQUIRE(p0.code.size() == 4);
    REQUIRE(p1.code.size() == 4);

    const auto& ld = p0.code[0].operands;
    REQUIRE(ld.size() == 2);
    CHECK(ld[0].kind == Operand::Kind::Name);
    CHECK(ld[0].name == "%r1");
    CHECK(ld[0].loc.line == 4);
    CHECK(ld[0].loc.col == 28);
    CHECK(ld[1].kind == Operand::Kind::Memory);
    CHECK(ld[1].name == "x");
    CHECK(ld[1].value == 0);
    CHECK_FALSE(ld[1].cta);
    CHECK(ld[1].loc.col == 33);

    const auto& arrive = p1.code[0].operands;
    CHECK(arrive[0].kind == Operand::Kind::Sink);
    CHECK(arrive[1].name == "mb");
    CHECK(arrive[1].cta == 1);

    const auto& st = p0.code[1].operands;
    CHECK(st[0].kind == Operand::Kind::Memory);
    CHECK(st[0].value == 2);
    CHECK(st[1].kind == Operand::Kind::Vector);
    REQUIRE(st[1].elements.size() == 2);
    CHECK(st[1].elements[1].name == "r1");
    CHECK(st[1].elements[1].loc.line == 5);
    CHECK(st[1].elements[1].loc.col == 52);
    CHECK(p0.code[1].parts[4] == "32x32b");

    const auto& add = p1.code[1].operands;
    CHECK(add[2].kind == Operand::Kind::Integer);
    CHECK(add[2].value == -7);
    CHECK(add[2].loc.col == 70);

    const auto& st2 = p0.code[2].operands;
    CHECK(st2[0].kind == Operand::Kind::Name);
    CHECK(st2[0].name == "x");
    CHECK(st2[0].cta == 1);
    CHECK(st2[1].value == 16);
    const auto& cp = p1.code[2].operands;
    CHECK(cp[0].cta == 1);
    CHECK(cp[0].value == 3);

    CHECK(p0.code[3].operands[0].name == "$a");
    CHECK(p0.code[3].operands[1].value == 5);
    CHECK(p1.code[3].operands.size() == 4);
}

TEST_CASE("litmus parser: cells, labels, comments and blank lines", "[litmus]") {
    const std::string text = "PTX cells (* header comment *)\n"
                             "{ x = 0; (* a (* nested *) comment\n"
                             "   spanning lines *) y = 1; // to end of line\n"
                             "}\n"
                             "\n"
                             " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 1,gpu 0 ;\n"
                             " LC00:            | ld.weak r0, x;  ;\n"
                             "\n"
                             "   (* a whole-line comment *)\n"
                             " st.weak x, 1;    |                 | st.weak y, 1 ;\n"
                             " bra LC00         ;   // fewer cells than threads\n"
                             "                  |                 |              ;\n"
                             "exists (P1:r0 = 1)\n";
    const Test t = parseTest(text);
    REQUIRE(t.locations.size() == 2);
    CHECK(t.locations[1].name == "y");
    CHECK(t.locations[1].loc.line == 3);
    REQUIRE(t.threads.size() == 3);
    const Thread& p0 = t.threads[0];
    REQUIRE(p0.code.size() == 3);
    CHECK(p0.code[0].label == std::optional<std::string>("LC00"));
    CHECK(p0.code[0].opcode.empty());
    CHECK(p0.code[0].parts.empty());
    CHECK(p0.code[1].opcode == "st.weak");
    CHECK(p0.code[1].operands.size() == 2);
    CHECK(p0.code[2].opcode == "bra");
    CHECK(p0.code[2].operands[0].name == "LC00");
    REQUIRE(t.threads[1].code.size() == 1);
    CHECK(t.threads[1].code[0].operands.size() == 2);
    REQUIRE(t.threads[2].code.size() == 1);
    CHECK(t.threads[2].code[0].loc.line == 10);
    CHECK(t.threads[2].code[0].loc.col == 39);
}

TEST_CASE("litmus parser: a comment spanning lines inside a code row", "[litmus]") {
    const Test t = parseTest(withRows(" st.weak x, 1 (* the comment\n"
                                      "   goes on *) | ld.weak r0, x ;\n"
                                      " fence.sc.cta | ;\n"));
    REQUIRE(t.threads[0].code.size() == 2);
    REQUIRE(t.threads[1].code.size() == 1);
    CHECK(t.threads[1].code[0].loc.line == 5);
    CHECK(t.threads[1].code[0].loc.col == 17);
    CHECK(t.threads[0].code[1].loc.line == 6);
}

TEST_CASE("litmus parser: CRLF line ends and a byte-order mark", "[litmus]") {
    const Test t = parseTest("\xEF\xBB\xBFPTX crlf\r\n{ x = 1; }\r\n P0@cta 0,gpu 0 ;\r\n"
                             " ld.weak r0, x ;\r\nexists (P0:r0 = 1)\r\n");
    CHECK(t.name == "crlf");
    REQUIRE(t.threads[0].code.size() == 1);
    CHECK(t.threads[0].code[0].operands[1].name == "x");
    CHECK(t.threads[0].code[0].operands[1].loc.col == 14);
}

TEST_CASE("litmus parser: condition references and operators", "[litmus]") {
    const Test t = parseTest(withCondition(
        "exists (x@1 = 2 /\\ t[2] != -3 /\\ t@1[0] == 4 /\\ 0:r0 = P1:r1 /\\ P0:%r2 != y)"));
    const Prop& p = *t.condition->prop;
    CHECK(p.kind == Prop::Kind::And);
    // Collect the leaves left to right.
    std::vector<const Prop*> leaves;
    std::vector<const Prop*> stack{&p};
    while (!stack.empty()) {
        const Prop* q = stack.back();
        stack.pop_back();
        if (q->kind == Prop::Kind::And) {
            stack.push_back(q->args[1].get());
            stack.push_back(q->args[0].get());
        } else {
            leaves.push_back(q);
        }
    }
    REQUIRE(leaves.size() == 5);
    CHECK(leaves[0]->kind == Prop::Kind::Eq);
    CHECK(leaves[0]->lhs.kind == Ref::Kind::Location);
    CHECK(leaves[0]->lhs.name == "x");
    CHECK(leaves[0]->lhs.cta == 1);
    CHECK_FALSE(leaves[0]->lhs.row);
    CHECK(leaves[0]->rhsValue == 2);
    CHECK(leaves[1]->kind == Prop::Kind::Ne);
    CHECK(leaves[1]->lhs.row == 2);
    CHECK_FALSE(leaves[1]->lhs.cta);
    CHECK(leaves[1]->rhsValue == -3);
    CHECK(leaves[2]->lhs.cta == 1);
    CHECK(leaves[2]->lhs.row == 0);
    CHECK(leaves[3]->lhs.kind == Ref::Kind::Register);
    CHECK(leaves[3]->lhs.thread == 0);
    REQUIRE(leaves[3]->rhsRef);
    CHECK(leaves[3]->rhsRef->thread == 1);
    CHECK(leaves[3]->rhsRef->name == "r1");
    CHECK(leaves[4]->lhs.name == "%r2");
    REQUIRE(leaves[4]->rhsRef);
    CHECK(leaves[4]->rhsRef->kind == Ref::Kind::Location);
    CHECK(leaves[4]->rhsRef->name == "y");
    CHECK(leaves[4]->rhsRef->loc.col == 75);
}

TEST_CASE("litmus parser: condition precedence", "[litmus]") {
    // ~ binds tightest, then /\, then \/, then => (right associative).
    const Test t = parseTest(
        withCondition("exists ~ x = 1 /\\ x = 2 \\/ x = 3 => x = 4 => ~(x = 5 \\/ x = 6)"));
    const Prop& p = *t.condition->prop;
    REQUIRE(p.kind == Prop::Kind::Implies);
    const Prop& lhs = arg(p, 0);
    REQUIRE(lhs.kind == Prop::Kind::Or);
    REQUIRE(arg(lhs, 0).kind == Prop::Kind::And);
    REQUIRE(arg(arg(lhs, 0), 0).kind == Prop::Kind::Not);
    CHECK(arg(arg(arg(lhs, 0), 0), 0).rhsValue == 1);
    CHECK(arg(arg(lhs, 0), 1).rhsValue == 2);
    CHECK(arg(lhs, 1).rhsValue == 3);
    const Prop& rhs = arg(p, 1);
    REQUIRE(rhs.kind == Prop::Kind::Implies);
    CHECK(arg(rhs, 0).rhsValue == 4);
    REQUIRE(arg(rhs, 1).kind == Prop::Kind::Not);
    CHECK(arg(arg(rhs, 1), 0).kind == Prop::Kind::Or);
    CHECK(arg(rhs, 1).loc.col == 46);

    const Test u = parseTest(withCondition("exists ((x = 1 \\/ x = 2) /\\ (true))"));
    CHECK(u.condition->prop->kind == Prop::Kind::And);
    CHECK(arg(*u.condition->prop, 0).kind == Prop::Kind::Or);
    CHECK(arg(*u.condition->prop, 1).kind == Prop::Kind::True);

    const Test herd = parseTest(withCondition("exists 0:r0=1 /\\ x=2"));
    CHECK(herd.condition->prop->kind == Prop::Kind::And);
}

TEST_CASE("litmus parser: long conjunctions stay shallow", "[litmus]") {
    std::string cond = "exists (x = 0";
    for (int i = 1; i < 5000; ++i)
        cond += " /\\ x = " + std::to_string(i);
    const Test t = parseTest(withCondition(cond + ")"));
    CHECK(t.condition->prop->kind == Prop::Kind::And);
    CHECK(depth(*t.condition->prop) <= 14);

    std::string nested = "exists ";
    for (int i = 0; i < 150; ++i)
        nested += "(";
    nested += "x = 1";
    for (int i = 0; i < 150; ++i)
        nested += ")";
    CHECK(parseTest(withCondition(nested)).condition->prop->kind == Prop::Kind::Eq);
}

TEST_CASE("litmus parser: locations clause before or after the condition", "[litmus]") {
    const Test after = parseTest(withCondition("exists (x = 1)\nlocations [x; P0:r0; t@1[1];]"));
    REQUIRE(after.observed.size() == 3);
    CHECK(after.observed[0].kind == Ref::Kind::Location);
    CHECK(after.observed[1].kind == Ref::Kind::Register);
    CHECK(after.observed[2].cta == 1);
    CHECK(after.observed[2].row == 1);
    CHECK(after.observed[2].loc.line == 6);
    const Test before = parseTest(withCondition("locations [1:r3]\nforall (x = 1)"));
    REQUIRE(before.observed.size() == 1);
    CHECK(before.observed[0].thread == 1);
    CHECK(before.condition->quantifier == ir::Quantifier::Forall);
}

TEST_CASE("litmus parser: parseLitmusFile", "[litmus]") {
    const auto dir = std::filesystem::temp_directory_path();
    const auto path = dir / "ptxmc_litmus_parser_test.litmus";
    {
        std::ofstream out(path, std::ios::binary);
        out << withCondition("exists (x = 1)");
    }
    const Test t = parseLitmusFile(path.string());
    CHECK(t.file == path.string());
    CHECK(t.name == "t");
    std::filesystem::remove(path);

    const std::string missing = (dir / "ptxmc_no_such_file.litmus").string();
    try {
        parseLitmusFile(missing);
        FAIL("no error for a missing file");
    } catch (const InputError& e) {
        CHECK(e.loc().file == missing);
        CHECK_THAT(std::string(e.what()), Catch::Contains(missing));
        CHECK_THAT(e.message(), Catch::Contains("cannot open"));
    }
    REQUIRE_THROWS_AS(parseLitmusFile(dir.string()), InputError);
}

TEST_CASE("litmus parser: malformed headers, comments and bytes", "[litmus][errors]") {
    requireError("", 1, 1, "empty litmus file");
    requireError("  (* only a comment *)\n\n", 1, 1, "empty litmus file");
    requireError("C foo\n{}\n", 1, 1, "a herd litmus test for the architecture 'C'");
    requireError("(* x *)\n  AArch64 foo\n{}\n", 2, 3, "a herd litmus test for the architecture");
    requireError("Foo foo\n{}\n", 1, 1, "expected the architecture 'PTX'");
    requireError("\"PTX model\"\ninclude \"x.cat\"\n", 1, 1, "this is a cat model");
    requireError("(* m *)\nlet a = po\n", 2, 1, "this is a cat model");
    requireError("//\n// Generated by NVIDIA NVVM Compiler\n.version 9.0\n", 3, 1,
                 "this is a PTX module");
    requireError("PTX\n{}\n", 1, 4, "expected a test name after 'PTX'");
    requireError("PTX a b\n", 1, 7, "after the test name");
    requireError("PTX t\n{ x = 0; (* never (* closed *)\n", 2, 10, "unterminated comment");
    requireError("PTX t\n\"no end\n{}\n", 2, 1, "unterminated string");
    requireError("PTX t\n{ x = 0;\x01 }\n", 2, 9, "control byte 0x01");
    requireError(std::string("PTX t\n{ x = 0;\0 }\n", 15), 2, 9, "control byte 0x00");
    requireError("PTX t\n{ x = 0; } \xc3\xa9\n", 2, 12, "non-ASCII byte 0xc3");
    requireError("PTX t\nfoo bar\n{}\n", 2, 1, "expected a quoted description");
    requireError("PTX t\n\"doc\" junk\n{}\n", 2, 7, "after the description");
    requireError("PTX t\n\"doc\"\n", 3, 1, "missing init block");
    requireError("PTX t\n{ x = 0; *) }\n", 2, 10, "'*)' without a matching '(*'");
}

TEST_CASE("litmus parser: malformed init blocks", "[litmus][errors]") {
    requireError("PTX t\n{ x = 0;\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x = 1)\n", 3, 2,
                 "missing '}' closing the init block opened at line 2");
    requireError("PTX t\n{ x = 0;\n", 3, 1, "missing '}'");
    requireError("PTX t\n{ x @ foo 0; }\n", 2, 7, "unknown state space 'foo'");
    requireError("PTX t\n{ = 0; }\n", 2, 3, "expected a location or register initialisation");
    requireError("PTX t\n{ x = 0;\n  y = 1; x @ shared 0 = 1; }\n", 3, 10,
                 "location 'x' is declared twice (first at line 2)");
    requireError("PTX t\n{ P1:r0 = 0; 1:r0 = 2; }\n", 2, 14,
                 "register 'P1:r0' is initialised twice");
    requireError("PTX t\n{ x = 0; P0:r1 = x; }\n", 2, 18,
                 "register-address initialisation ('P0:r1 = x') is not supported");
    requireError("PTX t\n{ x = 0; 0:r1 = &x; }\n", 2, 17,
                 "register-address initialisation ('P0:r1 = &x') is not supported");
    requireError("PTX t\n{ y = 0; x = y; }\n", 2, 14, "initialising a location with an address");
    requireError("PTX t\n{ x = 0 y = 1; }\n", 2, 9, "expected ';' or '}' after the init entry");
    // 64-bit values parse (-2^63 to 2^64-1); whether a 32-bit location holds one is the
    // lowering's check (tests/litmus/bad/value-wider-than-32-bits.litmus)
    requireError("PTX t\n{ x = 18446744073709551616; }\n", 2, 7,
                 "value '18446744073709551616' does not fit the 64-bit values ptxmc models");
    requireError("PTX t\n{ x = -9223372036854775809; }\n", 2, 8, "does not fit");
    requireError("PTX t\n{ x = 0x1FFFFFFFFFFFFFFFF; }\n", 2, 7, "does not fit the 64-bit values");
    requireError("PTX t\n{ x = 12ab; }\n", 2, 7, "malformed integer '12ab'");
    requireError("PTX t\n{ a @ shared = 1; }\n", 2, 14, "expected a CTA number after 'shared'");
    requireError("PTX t\n{ t @ tmem 0, rows 2 = {1, 2, 3}; }\n", 2, 24,
                 "expected 2 value(s), one per row of 't'");
    requireError("PTX t\n{ mb @ mbarrier 0 = 1; }\n", 2, 19, "', count N', not '= value'");
    requireError("PTX t\n{ y @ generic x; }\n", 2, 15, "expected 'aliases' after 'generic'");
    requireError("PTX t\n{ a @ shared 0,0; }\n", 2, 16, "CTA 0 is listed twice");
}

TEST_CASE("litmus parser: malformed code tables", "[litmus][errors]") {
    requireError("PTX t\n{ x = 0; }\nexists (x = 0)\n", 3, 1, "missing thread header row");
    requireError("PTX t\n{ x = 0; }\n", 3, 1, "missing thread header row");
    requireError("PTX t\n{}\n P0@cta ,gpu 0 ;\nexists (true)\n", 3, 9,
                 "expected a CTA number after 'cta', found ','");
    requireError("PTX t\n{}\n P0@gpu 0 ;\nexists (true)\n", 3, 2, "has no 'cta N'");
    requireError("PTX t\n{}\n P0 | P1 ;\nexists (true)\n", 3, 4, "expected '@' after 'P0'");
    requireError("PTX t\n{}\n P0@cta 0,gpu 0 | P2@cta 0,gpu 0 ;\nexists (true)\n", 3, 19,
                 "expected thread P1 in column 2, found 'P2'");
    requireError("PTX t\n{}\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0, cta 1 ;\nexists (true)\n", 3, 35,
                 "'cta' is given twice");
    requireError("PTX t\n{}\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0\nexists (true)\n", 3, 33,
                 "expected ';' at end of code row, found end of line");
    requireError(withRows(" st.weak x, 1 | st.weak x, 2\n"), 4, 29,
                 "expected ';' at end of code row, found end of line");
    requireError(withRows(" st.weak x, 1 | st.weak x, 2 | fence.sc.cta ;\n"), 4, 30,
                 "code row has 3 cells but the thread header names 2 thread(s)");
    requireError(withRows(" ld.weak r0, [x | ;\n"), 4, 16, "expected '@', '+', ',' or ']'");
    requireError(withRows(" st.weak x, | ;\n"), 4, 12, "expected an operand");
    requireError(withRows(" st.weak x 1 | ;\n"), 4, 12, "expected ',' between operands");
    requireError(withRows(" ld.weak r0, x; ld.weak r1, x | ;\n"), 4, 15,
                 "one instruction per cell");
    requireError(withRows(" LC00: ld.weak r0, x | ;\n"), 4, 8, "must be alone in its cell");
    requireError(withRows(" ld..weak r0, x | ;\n"), 4, 2, "malformed opcode 'ld..weak'");
    requireError(withRows(" tcgen05.wait:ld | ;\n"), 4, 2, "bad qualifier 'wait:ld'");
    requireError(withRows(" 12 | ;\n"), 4, 2, "expected an instruction opcode, found '1'");
    requireError(withRows(" st.weak x, {} | ;\n"), 4, 14, "empty vector");
    requireError(withRows(" ld.weak[x] | ;\n"), 4, 9, "expected a space after opcode");
    requireError(withRows(" ld.weak r0, 1.5 | ;\n"), 4, 15, "unexpected character '.'");
    requireError(withRows(" st.weak x, 99999999999999999999 | ;\n"), 4, 13, "does not fit");
    requireError(withRows("filter (x = 0)\n"), 4, 1, "'filter' clauses are not supported");
}

TEST_CASE("litmus parser: malformed conditions", "[litmus][errors]") {
    requireError("PTX t\n{}\n P0@cta 0,gpu 0 ;\n", 4, 1, "no final condition");
    requireError(withCondition("exists (P0:r0 == )"), 5, 18, "expected an integer or a reference");
    requireError(withCondition("exists (x = 1"), 6, 1,
                 "expected ')' closing the '(' at line 5:8, found end of file");
    requireError(withCondition("exists (x = 1) foo"), 5, 16, "after the final condition");
    requireError(withCondition("~ (x = 1)"), 5, 3, "expected 'exists' after '~'");
    requireError(withCondition("exists (x = 1 / x = 2)"), 5, 15, "unexpected '/'");
    requireError(withCondition("exists (x < 1)"), 5, 11,
                 "only '==', '=' and '!=' comparisons are supported");
    requireError(withCondition("exists (x)"), 5, 10, "expected '==', '=' or '!=' after 'x'");
    requireError(withCondition("exists (x = 1 /\\)"), 5, 17, "expected a proposition");
    requireError(withCondition("exists (P0: = 1)"), 5, 13, "expected a register name after ':'");
    requireError(withCondition("exists (t[x] = 1)"), 5, 11, "expected a row number after '['");
    requireError(withCondition("exists (x = 1)\nexists (x = 2)"), 6, 1,
                 "after the final condition");
    requireError(withCondition("locations [x y]\nexists (x = 1)"), 5, 14,
                 "expected ';' or ']' in 'locations'");
    requireError(withCondition("exists (x = 1)\nlocations [x]\nlocations [x]"), 7, 1,
                 "a second 'locations' clause");
    requireError(withCondition("exists (x = 0) (* unterminated"), 5, 16, "unterminated comment");

    std::string deep = "exists ";
    for (int i = 0; i < 300; ++i)
        deep += "(";
    deep += "x = 1";
    for (int i = 0; i < 300; ++i)
        deep += ")";
    requireError(withCondition(deep), 5, 8 + 200, "nested too deeply");

    std::string nots = "exists ";
    for (int i = 0; i < 100000; ++i)
        nots += "~";
    requireError(withCondition(nots + "x = 1"), 5, 8 + 100000 - 500, "nested too deeply");

    std::string arrows = "exists x = 0";
    for (int i = 0; i < 1000; ++i)
        arrows += " => x = 0";
    REQUIRE_THROWS_AS(parseTest(withCondition(arrows)), InputError);
}

TEST_CASE("litmus parser: truncated and mutated inputs only ever raise InputError",
          "[litmus][errors]") {
    const std::string base = readmeExample();
    for (std::size_t n = 0; n < base.size(); ++n) {
        try {
            parseTest(base.substr(0, n));
        } catch (const InputError& e) {
            CHECK(e.loc().line >= 1);
        }
    }
    std::mt19937 rng(12345);
    const std::string alphabet = "(*)[]{}|;:,.@=~/\\\"-+_ \n\tPxr0123456789abcdef\x01\xff";
    for (int i = 0; i < 3000; ++i) {
        std::string text = base;
        const int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits; ++e) {
            const std::size_t at = rng() % text.size();
            const char c = alphabet[rng() % alphabet.size()];
            switch (rng() % 3) {
            case 0:
                text[at] = c;
                break;
            case 1:
                text.insert(at, 1, c);
                break;
            default:
                text.erase(at, 1);
                break;
            }
        }
        try {
            parseTest(text);
        } catch (const InputError& e) {
            CHECK(e.loc().line >= 1);
            CHECK(e.loc().col >= 1);
        }
    }
}
