// Arrays in the init block (`a[4] @ shared 0 = 0`) and register-indexed addresses (`[a+8*s]`).
#include "../unit/RequireInputError.hpp"
#include "litmus/Parser.hpp"
#include "ptx/Print.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace ptxmc::litmus;
namespace ir = ptxmc::ir;

namespace {

/** The shared assertion (unit/RequireInputError.hpp), by the short name the cases use. */
const auto requireArrayError = &ptxmc::testing::requireLitmusError;

/** A test declaring `init` whose one thread runs `row`. */
std::string withInit(const std::string& init, const std::string& row = " st.weak x, 1 ;\n") {
    return "PTX t\n{\n" + init + "\n x = 0;\n}\n P0@cta 0,gpu 0 ;\n" + row + "exists (x == 0)\n";
}

Test parse(const std::string& text) {
    return parseLitmus(text, "t.litmus");
}

const LocationDecl& first(const Test& t) {
    REQUIRE(!t.locations.empty());
    return t.locations.front();
}

} // namespace

TEST_CASE("an array declares N elements with the space's default stride", "[parser][array]") {
    const Test shared = parse(withInit(" a[4] @ shared 0 = 7;"));
    CHECK(first(shared).name == "a");
    CHECK(first(shared).space == ir::Space::Shared);
    CHECK(first(shared).rows == 4);
    CHECK(first(shared).stride == 4);
    CHECK(first(shared).values == std::vector<std::int64_t>{7});
    const Test mb = parse(withInit(" full[2] @ mbarrier 0, count 1;"));
    CHECK(first(mb).space == ir::Space::Mbarrier);
    CHECK(first(mb).rows == 2);
    CHECK(first(mb).stride == 8); // an mbarrier object is 8 bytes
    CHECK(first(mb).count == 1);
    const Test tiles = parse(withInit(" g[3] = 0, bytes 32;"));
    CHECK(first(tiles).stride == 32); // tiles lie one after the other
    CHECK_FALSE(parse(withInit(" y = 0;")).locations.front().isArray());
}

TEST_CASE("an array takes one value per element and a stride among its options",
          "[parser][array]") {
    const Test g = parse(withInit(" g[3] = {1, 2, 4}, stride 16;"));
    CHECK(first(g).values == std::vector<std::int64_t>{1, 2, 4});
    CHECK(first(g).stride == 16);
    const Test before = parse(withInit(" a[2] @ shared 0, stride 16 = {64, 128};"));
    CHECK(first(before).stride == 16);
    CHECK(first(before).values == std::vector<std::int64_t>{64, 128});
    const Test after = parse(withInit(" a[2] @ shared 0 = {64, 128}, stride 16;"));
    CHECK(first(after).stride == 16);
    CHECK(first(parse(withInit(" m[2] @ mbarrier 0, stride 16, count 2;"))).stride == 16);
}

TEST_CASE("malformed arrays are rejected with file:line:col", "[parser][array]") {
    requireArrayError(withInit(" a[0] @ shared 0;"), 3, 4, "an array has 1 to 128 elements");
    requireArrayError(withInit(" a[129] @ shared 0;"), 3, 4, "an array has 1 to 128 elements");
    requireArrayError(withInit(" a[2 @ shared 0;"), 3, 6,
                      "expected ']' after the number of elements");
    requireArrayError(withInit(" t[2] @ tmem 0;"), 3, 2, "tensor memory has rows, not arrays");
    requireArrayError(withInit(" y[2] @ generic aliases x;"), 3, 2,
                      "an alias is not declared as an");
    requireArrayError(withInit(" s @ shared 0, stride 8;"), 3, 16,
                      "only an array 'NAME[N]' has a stride");
    requireArrayError(withInit(" m[2] @ mbarrier 0, stride 12;"), 3, 28, "a multiple of 8");
    requireArrayError(withInit(" a[2] @ shared 0, stride 0;"), 3, 26, "between 1 and 2^20-1 bytes");
    requireArrayError(withInit(" a[2] @ shared 0, stride 8, stride 8;"), 3, 29,
                      "'stride' is given twice");
    requireArrayError(withInit(" a[2] @ shared 0, stride 8 = 0, stride 8;"), 3, 31,
                      "expected ';' or '}' after the init entry");
    requireArrayError(withInit(" a[2] = {1, 2, 3};"), 3, 9,
                      "expected 2 value(s), one per element of 'a'");
    requireArrayError(withInit(" y = {1, 2};"), 3, 6, "only allowed for tensor memory and arrays");
    requireArrayError(withInit(" a[2] @ shared 0, stride 8, 1;"), 3, 29,
                      "CTA numbers must come before 'stride'");
    requireArrayError(withInit(" a[2] = 0, bytes 16, foo;"), 3, 22,
                      "expected 'stride S', 'tensormap NAME' or 'elem u32|s32' after ','");
}

TEST_CASE("an address may add a register index to an array", "[parser][array]") {
    const Test t = parse(withInit(" a[4] @ shared 0 = 0;", " st.shared::cta.u32 [a+8*s], 1 ;\n"
                                                           " st.shared::cta.u32 [a + %r1], 1 ;\n"
                                                           " st.shared::cta.u32 [a@0+s*4], 1 ;\n"
                                                           " st.shared::cta.u32 [a+8], 1 ;\n"));
    REQUIRE(t.threads.size() == 1);
    const auto& code = t.threads[0].code;
    REQUIRE(code.size() == 4);
    const Operand& scaled = code[0].operands[0];
    CHECK(scaled.kind == Operand::Kind::Memory);
    CHECK(scaled.name == "a");
    CHECK(scaled.indexReg == "s");
    CHECK(scaled.indexScale == 8);
    CHECK(scaled.indexLoc.col == 26); // the register
    CHECK(code[1].operands[0].indexReg == "%r1");
    CHECK(code[1].operands[0].indexScale == 1);
    CHECK(code[2].operands[0].cta == 0);
    CHECK(code[2].operands[0].indexScale == 4);
    CHECK_FALSE(code[3].operands[0].indexReg);
    CHECK(code[3].operands[0].value == 8);
    CHECK(ptxmc::ptx::printOperand(scaled) == "[a+8*s]");
    CHECK(ptxmc::ptx::printOperand(code[1].operands[0]) == "[a+%r1]");
}

TEST_CASE("malformed register indexes are rejected with file:line:col", "[parser][array]") {
    const std::string init = " a[4] @ shared 0 = 0;";
    requireArrayError(withInit(init, " st.shared::cta.u32 [a+8*], 1 ;\n"), 7, 26,
                      "expected a register after '*'");
    requireArrayError(withInit(init, " st.shared::cta.u32 [a+s*], 1 ;\n"), 7, 26,
                      "expected an integer multiplier after '*'");
    requireArrayError(withInit(init, " st.shared::cta.u32 [a+0*s], 1 ;\n"), 7, 24,
                      "a multiplier must be between 1 and 2^31-1");
    requireArrayError(withInit(init, " st.shared::cta.u32 [a+8*s+4], 1 ;\n"), 7, 27,
                      "expected ']' in the address");
    requireArrayError(withInit(init, " st.shared::cta.u32 [a+_], 1 ;\n"), 7, 24,
                      "expected an offset or a register after '+'");
}
