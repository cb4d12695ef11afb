// The module parser's typed instructions: each statement's row of ptx/ModuleOps.def and role,
// looked up once; a call's role from its callee.
#include "kernel/Module.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace ptxmc;
using ptx::ModuleOp;
using ptx::ModuleRole;

TEST_CASE("module parser: each instruction is looked up once, a call by its callee",
          "[module-parser]") {
    const char* text = R"(.version 8.7
.target sm_90a
.address_size 64
.visible .entry k()
{
	mov.u32 	%r1, %tid.x;
	call.uni vprintf, (%rd1, %rd2);
	call.uni __assertfail, (%rd1);
	call.uni helper, (%rd1);
	ret;
}
)";
    kernel::Module m = kernel::parseModule(text, "k.ptx");
    const auto& body = m.functions.at(0).body;
    REQUIRE(body.size() == 5);
    CHECK(body[0].op == ModuleOp::Mov);
    CHECK(body[0].role == ModuleRole::Arith);
    CHECK(body[1].op == ModuleOp::Call);
    CHECK(body[1].role == ModuleRole::Ignore);
    CHECK(body[2].role == ModuleRole::Trap);
    CHECK(body[3].role == ModuleRole::Unsupported);
    CHECK(body[4].role == ModuleRole::Exit);
}

TEST_CASE("module parser: each instruction's innermost CUDA line and its inlining chain",
          "[module-parser]") {
    // nvcc -lineinfo: a helper inlined in a helper names its call site (`inlined_at`), whose own
    // call site the call site's `.loc` gave before it.
    const char* text = R"(.version 8.7
.target sm_100a
.address_size 64
.visible .entry k()
{
	.loc	1 9 5
	.loc	1 3 5, function_name $L__info_string0, inlined_at 1 9 5
	.loc	2 6 5, function_name $L__info_string1, inlined_at 1 3 5
	.loc	2 3 5, function_name $L__info_string2, inlined_at 2 6 5
	mbarrier.arrive.shared::cta.b64 _, [%r3];
	.loc	1 10 5
	.loc	3 378 9, function_name $L__info_string3, inlined_at 1 10 5
	.loc	3 373 9, function_name $L__info_string4, inlined_at 3 378 9
	shfl.sync.idx.b32	%r4|%p2, %r1, 0, 31, -1;
	.loc	1 11 1
	ret;
}
	.file	1 "/src/t.cu"
	.file	2 "/src/h.cuh"
	.file	3 "/usr/local/cuda/bin/../targets/x86_64-linux/include/sm_30_intrinsics.hpp"
)";
    kernel::Module m = kernel::parseModule(text, "k.ptx");
    const auto& body = m.functions.at(0).body;
    REQUIRE(body.size() == 3);
    REQUIRE(body[0].cuda);
    const kernel::CudaLine& arrive = *body[0].cuda;
    CHECK(kernel::cudaText(arrive) ==
          "/src/h.cuh:3, inlined at /src/h.cuh:6, inlined at /src/t.cu:3, inlined at /src/t.cu:9");
    CHECK(arrive.userLine().file == "/src/h.cuh");
    CHECK(arrive.userLine().line == 3);
    REQUIRE(body[1].cuda);
    const kernel::CudaLine& shfl = *body[1].cuda;
    CHECK(shfl.line == 373);
    REQUIRE(shfl.frames().size() == 3);
    CHECK(shfl.frames().back().file == "/src/t.cu");
    // the toolkit's own header is not the user's code: its call site in the kernel is
    CHECK(shfl.userLine().file == "/src/t.cu");
    CHECK(shfl.userLine().line == 10);
    REQUIRE(body[2].cuda);
    CHECK(kernel::cudaText(*body[2].cuda) == "/src/t.cu:11");
}
