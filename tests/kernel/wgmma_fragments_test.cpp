// A thread's own accesses of wgmma fragment registers: one read and one write per stretch.
#include "EntryText.hpp"
#include "kernel/WgmmaFragments.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;
using namespace ptxmc::kernel;

TEST_CASE("wgmma fragments: accesses between two wgmmas are recorded once each",
          "[wgmma-fragments]") {
    const Module m = testing::entryModule(
        "\twgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%f1, %f2, %f3, %f4}, %rd1, "
        "%rd2, 1, 1, 1;\n"
        "\tmov.b32 %r1, %f2;\n"
        "\tmov.b32 %r2, %f3;\n"
        "\tmov.b32 %f4, %r1;\n"
        "\twgmma.commit_group.sync.aligned;\n"
        "\tmov.b32 %r3, %f1;\n"
        "\tret;\n");
    const Function& k = m.functions.at(0);
    Lane L;
    std::size_t mma = testing::statementAt(k, "wgmma.mma_async");
    L.pc = mma;
    enterWgmma(L, k.body[mma]);
    REQUIRE(L.wgmmaRegs.size() == 4);
    CHECK(L.wgmmaRegs.at("%f3") == "%f1"); // the fragment's first register stands for it
    for (std::size_t i = mma + 1; i < mma + 4; ++i) {
        L.pc = i;
        recordFragmentAccess(L, k.body[i]);
    }
    REQUIRE(L.steps.size() == 2); // one read (of %f2), one write (of %f4): the window's first
    CHECK(L.steps[0].operands[1].reg == "%f1");
    CHECK(L.steps[1].operands[0].reg == "%f1");
    CHECK(L.steps[0].op == ptx::ModuleOp::Mov);
    L.pc = mma + 4;
    enterWgmma(L, k.body[L.pc]); // the commit: a new stretch
    L.pc = mma + 5;
    recordFragmentAccess(L, k.body[L.pc]);
    CHECK(L.steps.size() == 3);
}
