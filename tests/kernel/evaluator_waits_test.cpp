// The evaluator's waits and idioms: a spin loop is one wait, a probe acquires nothing, a branch
// on data whose sides differ splits the warp's lanes into both ways.
#include "../unit/RequireInputError.hpp"
#include "EntryText.hpp"
#include "kernel/Machine.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;
using namespace ptxmc::kernel;

namespace {

const std::string kWaitBars = "\t.shared .align 8 .b64 bar;\n\t.shared .align 8 .b64 other;\n";
const std::string kWaitInit = "\tmov.u32 %r2, bar;\n"
                              "\tmov.u32 %r3, other;\n"
                              "\tmbarrier.init.shared::cta.b64 [%r2], 32;\n"
                              "\tmbarrier.arrive.shared::cta.b64 _, [%r2];\n";

Extraction runEntry(const Module& m) {
    return evaluate(m, pickEntry(m, ""), Launch{});
}

/** Lane 0's recorded opcodes, first part and second. */
std::vector<std::string> laneOps(const Extraction& x) {
    std::vector<std::string> out;
    for (const Step& s : x.warps.at(0).lanes.at(0))
        out.push_back(s.parts.at(0) + "." + s.parts.at(1));
    return out;
}

bool notedIn(const Extraction& x, const std::string& part) {
    for (const Note& n : x.notes)
        if (n.text.find(part) != std::string::npos) return true;
    return false;
}

} // namespace

TEST_CASE("evaluator waits: a spin loop is one blocking wait", "[evaluator-waits]") {
    const Module m = testing::entryModule(kWaitInit + "W:\n"
                                                      "\tmbarrier.try_wait.parity.shared::cta.b64 "
                                                      "%p1, [%r2], 0;\n"
                                                      "\t@!%p1 bra W;\n"
                                                      "\tret;\n",
                                          kWaitBars);
    Extraction x = runEntry(m);
    CHECK(laneOps(x) ==
          std::vector<std::string>{"mbarrier.init", "mbarrier.arrive", "mbarrier.try_wait"});
    CHECK_FALSE(notedIn(x, "is a probe"));
}

TEST_CASE("evaluator waits: a probe, then a wait only if it failed", "[evaluator-waits]") {
    const Module m =
        testing::entryModule(kWaitInit + "\tmbarrier.try_wait.parity.shared::cta.b64 "
                                         "%p1, [%r2], 0;\n"
                                         "\tmbarrier.arrive.shared::cta.b64 _, [%r3];\n"
                                         "\t@%p1 bra D;\n"
                                         "W:\n"
                                         "\tmbarrier.try_wait.parity.shared::cta.b64 "
                                         "%p1, [%r2], 0;\n"
                                         "\t@!%p1 bra W;\n"
                                         "D:\n"
                                         "\tret;\n",
                             kWaitBars);
    Extraction x = runEntry(m);
    // the probe acquired nothing and is not kept; the failure side's wait is
    CHECK(laneOps(x) == std::vector<std::string>{"mbarrier.init", "mbarrier.arrive",
                                                 "mbarrier.arrive", "mbarrier.try_wait"});
    CHECK(notedIn(x, "is a probe"));
}

TEST_CASE("evaluator waits: a probe deciding more than a wait is an error", "[evaluator-waits]") {
    const Module m =
        testing::entryModule(kWaitInit + "\tmbarrier.try_wait.parity.shared::cta.b64 "
                                         "%p1, [%r2], 0;\n"
                                         "\t@%p1 bra D;\n"
                                         "\tmbarrier.arrive.shared::cta.b64 _, [%r3];\n"
                                         "D:\n"
                                         "\tret;\n",
                             kWaitBars);
    testing::requireInputError([&] { runEntry(m); }, "", "k.ptx", 21, 2,
                               "this branch on the result of the mbarrier probe at line 20");
}

TEST_CASE("evaluator waits: a branch on data with different sides splits into both ways",
          "[evaluator-waits]") {
    const Module m =
        testing::entryModule(kWaitInit + "\tld.shared.u32 %r4, [%r3];\n"
                                         "\tsetp.eq.u32 %p2, %r4, 0;\n"
                                         "\t@%p2 bra S;\n"
                                         "\tmbarrier.arrive.shared::cta.b64 _, [%r3];\n"
                                         "S:\n"
                                         "\tret;\n",
                             kWaitBars);
    Extraction x = runEntry(m);
    const std::vector<Step>& steps = x.warps.at(0).lanes.at(0);
    REQUIRE(steps.size() == 4); // init, arrive, the load, and the arrive on one way
    REQUIRE(steps.back().guard.size() == 1);
    CHECK_FALSE(steps.back().guard[0].taken); // it runs where the branch falls through
    CHECK(notedIn(x, "runs both ways"));
}
