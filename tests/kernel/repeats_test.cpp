// dropRepeatedAccesses: which back-to-back instructions of the extracted program are kept once.
#include "kernel/Repeats.hpp"
#include "litmus/Parser.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;

namespace {

/** One thread's code column, each instruction a row of the code table. */
litmus::Test oneThread(const std::vector<std::string>& code) {
    std::string text =
        "PTX repeats\n{ x @ shared 0; y @ shared 0; mb @ mbarrier 0; }\n P0@cta 0,gpu 0 ;\n";
    for (const std::string& line : code)
        text += " " + line + " ;\n";
    text += "exists (true)\n";
    return litmus::parseLitmus(text, "repeats.litmus");
}

std::vector<std::string> opcodes(const litmus::Test& t) {
    std::vector<std::string> out;
    for (const auto& in : t.threads.at(0).code)
        out.push_back(in.opcode + (in.operands.empty() ? "" : " " + in.operands[0].name));
    return out;
}

} // namespace

TEST_CASE("a run of identical plain stores is kept once", "[kernel][repeats]") {
    litmus::Test t = oneThread({"st.shared.f32 [x], 1", "st.shared.f32 [x], 1",
                                "st.shared.f32 [x], 1", "st.shared.f32 [y], 1"});
    REQUIRE(kernel::dropRepeatedAccesses(t) == 2);
    REQUIRE(opcodes(t) == std::vector<std::string>{"st.shared.f32 x", "st.shared.f32 y"});
}

TEST_CASE("stores that differ or are not plain are all kept", "[kernel][repeats]") {
    // another value, an instruction between, strong semantics, a guard: each store may be
    // ordered or observed apart from its neighbour
    litmus::Test t = oneThread(
        {"st.shared.u32 [x], 1", "st.shared.u32 [x], 2", "fence.proxy.async.shared::cta",
         "st.shared.u32 [x], 2", "st.release.cta.shared.u32 [x], 2",
         "st.release.cta.shared.u32 [x], 2", "ld.shared.u32 r0, [x]", "ld.shared.u32 r0, [x]",
         "@r0 st.shared.u32 [x], 2", "@r0 st.shared.u32 [x], 2"});
    REQUIRE(kernel::dropRepeatedAccesses(t) == 0);
    REQUIRE(t.threads.at(0).code.size() == 10);
}

TEST_CASE("a load repeating the one before is dropped when nothing reads its register",
          "[kernel][repeats]") {
    litmus::Test t =
        oneThread({"ld.shared.f32 f1, [x]", "ld.shared.f32 f2, [x]", "ld.shared.f32 f3, [x]",
                   "ld.shared.f32 f4, [y]", "st.shared.u32 [y], f2"});
    // f2 is stored later: its load stays; f3 repeats f2's load and nothing reads f3
    REQUIRE(kernel::dropRepeatedAccesses(t) == 1);
    REQUIRE(opcodes(t).size() == 4);
    REQUIRE(t.threads.at(0).code.at(2).operands.at(0).name == "f4");
}

TEST_CASE("a test with a final condition keeps every access", "[kernel][repeats]") {
    litmus::Test t = litmus::parseLitmus(
        "PTX cond\n{ x @ shared 0; }\n P0@cta 0,gpu 0 ;\n"
        " ld.shared.u32 r0, [x] ;\n ld.shared.u32 r1, [x] ;\nexists (P0:r1 = 0)\n",
        "cond.litmus");
    REQUIRE(kernel::dropRepeatedAccesses(t) == 0);
}

TEST_CASE("repeats are dropped thread by thread, never across threads", "[kernel][repeats]") {
    litmus::Test t =
        litmus::parseLitmus("PTX two\n{ x @ shared 0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                            " st.shared.u32 [x], 1 | st.shared.u32 [x], 1 ;\n"
                            " st.shared.u32 [x], 1 | ld.shared.u32 r0, [x] ;\nexists (true)\n",
                            "two.litmus");
    REQUIRE(kernel::dropRepeatedAccesses(t) == 1);
    REQUIRE(t.threads.at(0).code.size() == 1);
    REQUIRE(t.threads.at(1).code.size() == 2);
}

TEST_CASE("a run of identical wgmma.mma_async is kept once where its accumulator stays in "
          "registers",
          "[kernel][repeats]") {
    // a k-block's four MMAs on one stage, the first with scale-d 0: the three after it repeat
    // nothing (scale-d differs) but each other; the epilogue's mov reads the accumulator into a
    // register nothing else reads
    const std::string mma = "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {d0}, [x], [y], ";
    litmus::Test t =
        oneThread({"wgmma.fence.sync.aligned", mma + "0, 1, 1", mma + "1, 1, 1", mma + "1, 1, 1",
                   mma + "1, 1, 1", "wgmma.commit_group.sync.aligned",
                   "wgmma.wait_group.sync.aligned 0", "mov.b32 r1, d0", "add.u32 r2, r1, 1"});
    REQUIRE(kernel::dropRepeatedAccesses(t) == 2);
    REQUIRE(t.threads.at(0).code.size() == 7);
    REQUIRE(t.threads.at(0).code.at(1).operands.at(3).value == 0);
    REQUIRE(t.threads.at(0).code.at(2).operands.at(3).value == 1);
}

TEST_CASE("repeated wgmma.mma_async whose accumulator reaches memory, an address or a guard are "
          "all kept",
          "[kernel][repeats]") {
    // one product fewer changes the accumulator's value: kept wherever that value is observable
    const std::string mma = "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {d0}, [x], [y], ";
    const std::vector<std::string> run = {"wgmma.fence.sync.aligned",
                                          mma + "1, 1, 1",
                                          mma + "1, 1, 1",
                                          "wgmma.commit_group.sync.aligned",
                                          "wgmma.wait_group.sync.aligned 0",
                                          "mov.b32 r1, d0"};
    for (const std::string& use :
         {std::string("st.shared.u32 [x], r1"), std::string("@r1 st.shared.u32 [y], 1"),
          std::string("st.shared.u32 [x+4*r1], 1")}) {
        std::vector<std::string> code = run;
        code.push_back(use);
        litmus::Test t = oneThread(code);
        CAPTURE(use);
        REQUIRE(kernel::dropRepeatedAccesses(t) == 0);
    }
    // other operands, or an instruction between: not a repeat
    litmus::Test t = oneThread({"wgmma.fence.sync.aligned", mma + "1, 1, 1",
                                "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {d0}, [y], "
                                "[y], 1, 1, 1",
                                "wgmma.fence.sync.aligned", mma + "1, 1, 1", mma + "1, 1, -1"});
    REQUIRE(kernel::dropRepeatedAccesses(t) == 0);
}

TEST_CASE("a fence.mbarrier_init right after another is kept once, other fences are kept",
          "[kernel][repeats]") {
    // CUTLASS's warps each run the pipelines' fence_barrier_init back to back
    litmus::Test t =
        oneThread({"mbarrier.init.shared::cta.b64 [mb], 1", "fence.mbarrier_init.release.cluster",
                   "fence.mbarrier_init.release.cluster", "fence.mbarrier_init.release.cluster",
                   "fence.sc.cta", "fence.sc.cta", "fence.proxy.async.shared::cta",
                   "fence.proxy.async.shared::cta"});
    REQUIRE(kernel::dropRepeatedAccesses(t) == 2);
    REQUIRE(t.threads.at(0).code.size() == 6);
}
