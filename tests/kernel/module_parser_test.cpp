// The module parser's typed instructions: each statement's row of ptx/ModuleOps.def and role,
// looked up once; a call's role from its callee.
#include "kernel/Module.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace ptxmc;
using ptx::ModuleOp;
using ptx::ModuleRole;

TEST_CASE("module parser: each instruction is looked up once; a call by its callee",
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
