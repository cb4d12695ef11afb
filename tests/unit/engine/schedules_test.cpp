// engine/Schedules: the explicit hang pre-check, held to the solver's program-only answer.
#include "../CorpusFiles.hpp"
#include "ir/Gates.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"
#include "smt/Schedules.hpp"
#include "smt/Z3Engine.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

using namespace ptxmc;
namespace fs = std::filesystem;

namespace {

ir::Program lowered(const std::string& text) {
    return lower::lowerTest(litmus::parseLitmus(text, "t.litmus"));
}

// One producer, one consumer, a count-1 mbarrier; the consumer waits on `parity`.
std::string handOff(int parity) {
    return R"(PTX hand-off
{
  x = 0;
  mb @ mbarrier 0, count 1;
}
 P0@cta 0,gpu 0                                  | P1@cta 0,gpu 0                                              ;
 st.relaxed.cta.u32 [x], 1                       | mbarrier.try_wait.parity.shared::cta.b64 _, [mb], )" +
           std::to_string(parity) + R"(   ;
 mbarrier.arrive.release.cta.shared::cta.b64 _, [mb] | ld.relaxed.cta.u32 r0, [x]                              ;
exists (P1:r0 == 0)
)";
}

/** Every corpus test the exploration covers, by path (kernel protocols above `maxEvents` left
 *  to the bench: the solver's query alone takes seconds there). */
std::vector<fs::path> corpusWithGates(std::size_t maxEvents) {
    std::vector<fs::path> out;
    for (const fs::path& file : testing::corpusFiles()) {
        ir::Program p = lower::lowerTest(litmus::parseLitmusFile(file.string()));
        if (!ir::chosenGates(p).empty() && p.events.size() <= maxEvents) out.push_back(file);
    }
    return out;
}

} // namespace

TEST_CASE("a wait on the phase that completes cannot hang; one on the next phase can",
          "[schedules]") {
    using engine::schedules::Answer;
    auto passes = engine::schedules::explore(lowered(handOff(0)), 1000);
    CHECK(passes.answer == Answer::NoHang);
    CHECK(passes.states > 1);
    // The complete schedule runs every event, the arrive before the wait that needs it.
    ir::Program p = lowered(handOff(0));
    REQUIRE(passes.completeSchedule.size() == p.events.size());
    auto at = [&](ir::MbOp op) {
        return std::find_if(
            passes.completeSchedule.begin(), passes.completeSchedule.end(),
            [&](int e) { return p.events[static_cast<std::size_t>(e)].mbOp == op; });
    };
    CHECK(at(ir::MbOp::Arrive) < at(ir::MbOp::Wait));
    auto completes = engine::schedules::explore(lowered(handOff(1)), 1000);
    CHECK(completes.answer == Answer::MayHang);
}

TEST_CASE("the exploration stops at its state limit", "[schedules]") {
    auto r = engine::schedules::explore(lowered(handOff(0)), 1);
    CHECK(r.answer == engine::schedules::Answer::TooLarge);
}

TEST_CASE("explicit schedules and the solver agree on every corpus test with a wait",
          "[schedules][corpus]") {
    std::size_t covered = 0, hangs = 0;
    for (const fs::path& file : corpusWithGates(100)) {
        ir::Program p = lower::lowerTest(litmus::parseLitmusFile(file.string()));
        auto r = engine::schedules::explore(p, 300000);
        if (r.answer != engine::schedules::Answer::NoHang &&
            r.answer != engine::schedules::Answer::MayHang)
            continue;
        ++covered;
        hangs += r.answer == engine::schedules::Answer::MayHang ? 1 : 0;
        INFO(file.string());
        CHECK((r.answer == engine::schedules::Answer::MayHang) ==
              engine::smt::solverSaysProgramMayHang(p));
    }
    // The corpus has well over a hundred such tests, both answers among them.
    CHECK(covered > 100);
    CHECK(hangs > 10);
    CHECK(covered - hangs > 10);
}
