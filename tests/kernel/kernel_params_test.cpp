// ptxmc kernel's evaluation of struct parameters: fields given by byte offset, a branch on a
// field not given naming it, --list-params stopping threads; and the arithmetic CUTLASS's
// parameters go through (FastDivmod's 64-bit mul.hi, a float compared with zero).
#include "kernel/Arith.hpp"
#include "kernel/Machine.hpp"
#include "kernel/Module.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace ptxmc;
using namespace ptxmc::kernel;

namespace {

// One warp: the loop count is field +8 of a struct; a float at +16 equal to 0 skips the loop.
const char* const kModule = R"(.version 8.7
.target sm_90a
.address_size 64
.visible .entry k(
	.param .align 8 .b8 k_param_0[24]
)
.reqntid 32, 1, 1
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<8>;
	.reg .f32 	%f<2>;
	.shared .align 8 .b64 bar;
	mov.u32 	%r2, bar;
	ld.param.f32 	%f1, [k_param_0+16];
	setp.eq.f32 	%p2, %f1, 0f00000000;
	@%p2 bra 	$L__done;
	ld.param.u32 	%r1, [k_param_0+8];
	mov.u32 	%r3, 0;
$L__loop:
	mbarrier.arrive.shared::cta.b64 	_, [%r2];
	add.s32 	%r3, %r3, 1;
	setp.lt.u32 	%p1, %r3, %r1;
	@%p1 bra 	$L__loop;
$L__done:
	ret;
}
)";

Extraction run(const Launch& launch) {
    static const Module m = parseModule(kModule, "k.ptx");
    return evaluate(m, pickEntry(m, ""), launch);
}

std::size_t arrives(const Extraction& x) {
    return x.warps.at(0).lanes.at(0).size();
}

} // namespace

TEST_CASE("kernel params: a field given by offset, as wide as its load", "[kernel-params]") {
    Launch l;
    l.params[{"0", 8}] = 3;
    l.params[{"k_param_0", 16}] = 0x3f800000; // 1.0f
    Extraction x = run(l);
    CHECK(arrives(x) == 3);
    REQUIRE(x.paramReads.size() == 2);
    CHECK(x.paramReads[1].field() == "0+8");
    CHECK(x.paramReads[1].bytes == 4);
    CHECK(x.paramReads[1].value == 3);
    l.params[{"0", 16}] = 0; // the same field twice
    CHECK_THROWS_WITH(run(l), Catch::Contains("--param gives field 0+16 twice"));
    l.params.erase({"0", 16});
    l.params[{"k_param_0", 16}] = 0; // 0.0f: the loop is skipped
    CHECK(arrives(run(l)) == 0);
}

TEST_CASE("kernel params: a branch on a field not given names it", "[kernel-params]") {
    Launch l;
    l.params[{"0", 16}] = 0x3f800000;
    try {
        run(l);
        FAIL("no error");
    } catch (const FieldError& e) { // the field it asks for, typed: --list-params --all
        CHECK(e.field() == "0+8");
        CHECK(e.loc().line == 23);
        CHECK(e.message().find("depends on parameter field 0+8 (param_0+8, 4 bytes read at "
                               "k.ptx:17:2), which --param does not give: add --param "
                               "0+8=VALUE") != std::string::npos);
    }
}

TEST_CASE("kernel params: straddling and partly given loads are errors", "[kernel-params]") {
    Launch l;
    l.params[{"0", 16}] = 0x3f800000;
    l.params[{"0", 8}] = 3;
    l.params[{"0", 10}] = 1;
    CHECK_THROWS_WITH(run(l), Catch::Contains("straddle the fields 0+8 and 0+10"));
    l.params.erase({"0", 8});
    CHECK_THROWS_WITH(run(l), Catch::Contains("of which --param gives only a part (field 0+10)"));
    l.params.erase({"0", 10});
    l.params[{"0", 8}] = 1ULL << 32;
    CHECK_THROWS_WITH(run(l), Catch::Contains("does not fit the 4-byte load"));
}

TEST_CASE("kernel params: --list-params stops the thread, records the field", "[kernel-params]") {
    Launch l;
    l.listParams = true;
    Extraction x = run(l);
    REQUIRE(x.stops.size() == 1);
    CHECK(x.stops[0].loc.line == 16);
    CHECK(x.stops[0].field == "0+16");
    REQUIRE(x.paramReads.size() == 1);
    CHECK(x.paramReads[0].field() == "0+16");
    CHECK(x.paramReads[0].decides);
    CHECK_FALSE(x.paramReads[0].value);
    CHECK(arrives(x) == 0);
}

TEST_CASE("kernel params: --params values, overridden by --param", "[kernel-params]") {
    Launch l;
    l.fileParams[{"0", 8}] = 5;
    l.fileParams[{"0", 16}] = 0x3f800000;
    l.paramWhere[{"0", 8}] = SourceLoc{"p.txt", 2, 1};
    CHECK(arrives(run(l)) == 5);
    l.params[{"k_param_0", 8}] = 2; // the command line wins, whatever name it uses
    CHECK(arrives(run(l)) == 2);
    l.fileParams[{"0", 32}] = 1; // outside the parameter: an error at the file's line
    l.paramWhere[{"0", 32}] = SourceLoc{"p.txt", 4, 3};
    try {
        run(l);
        FAIL("no error");
    } catch (const InputError& e) {
        CHECK(e.loc().file == "p.txt");
        CHECK(e.loc().line == 4);
        CHECK(e.message().find("offset 32 is outside it") != std::string::npos);
    }
}

TEST_CASE("kernel params: fields given that no load reads", "[kernel-params]") {
    Launch l;
    l.params[{"0", 16}] = 0; // 0.0f: the loop and its load of +8 are skipped
    l.params[{"0", 8}] = 3;
    l.fileParams[{"0", 20}] = 7;
    l.paramWhere[{"0", 20}] = SourceLoc{"p.txt", 3, 1};
    Extraction x = run(l);
    REQUIRE(x.unread.size() == 2);
    CHECK(x.unread[0].loc.line == 0); // --param's: no file line
    CHECK(x.unread[0].text ==
          "--param 0+8=3: the kernel never reads parameter field 0+8 in this launch");
    CHECK(x.unread[1].loc.str() == "p.txt:3:1");
    CHECK(x.unread[1].text ==
          "field 0+20=7: the kernel never reads parameter field 0+20 in this launch");
    l.params[{"0", 16}] = 0x3f800000;
    l.fileParams.clear();
    CHECK(run(l).unread.empty());
}

TEST_CASE("kernel arithmetic: 64-bit mul.hi and float comparisons", "[kernel-params]") {
    bool known = false;
    auto compute = [&](std::vector<std::string> parts, std::vector<Val> in) {
        ptxmc::ptx::ModuleOp op = ptxmc::ptx::moduleOp(parts).op;
        return arithmetic(op, ptxmc::ptx::valueForm(op, parts), in, known);
    };
    CHECK(compute({"mul", "hi", "u64"}, {Val::of(~0ULL), Val::of(~0ULL)}) == ~0ULL - 1);
    CHECK(compute({"mul", "hi", "s64"}, {Val::of(~0ULL), Val::of(5)}) == ~0ULL); // -1 * 5
    CHECK(compute({"mul", "hi", "u64"}, {Val::of(1ULL << 40), Val::of(1ULL << 30)}) == 1ULL << 6);
    using ptxmc::ptx::Comparison;
    using ptxmc::ptx::ScalarType;
    ScalarType f32{ScalarType::Kind::Float, 32}, f16{ScalarType::Kind::Float, 16};
    CHECK(compare(Comparison::Eq, 0x80000000, 0, f32) == true); // -0.0 == 0.0
    CHECK(compare(Comparison::Neu, 0x3f800000, 0, f32) == true);
    CHECK(compare(Comparison::Lt, 0x7fc00000, 0, f32) == false); // NaN: ordered compares fail
    CHECK(compare(Comparison::Ltu, 0x7fc00000, 0, f32) == true);
    CHECK(compare(Comparison::Gt, 0x3c00, 0x3800, f16) == true); // 1.0 > 0.5
    CHECK(compute({"cvt", "f32", "f16"}, {Val::of(0x3c00)}) == 0x3f800000);
}
