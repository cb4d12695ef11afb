// The proof of no hang from each object's facts: where it holds the full search finds no hang,
// and each condition it needs fails on a program that hangs without it.
#include "../unit/LitmusText.hpp"
#include "ir/Gates.hpp"
#include "smt/HangProof.hpp"
#include "smt/Schedules.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

using namespace ptxmc;
using engine::schedules::Answer;
using testing::lowered;
using testing::oneCtaWarps;

namespace {

std::string arriveOn(const std::string& mb) {
    return "mbarrier.arrive.shared::cta.b64 _, [" + mb + "]";
}
std::string waitOn(const std::string& mb, int parity) {
    return "mbarrier.try_wait.parity.shared::cta.b64 _, [" + mb + "], " + std::to_string(parity);
}

engine::schedules::HangProof proveFromFacts(const ir::Program& p) {
    const auto each =
        engine::schedules::observeEachObject(p, ir::realTimePairs(p), {}, true, 100000);
    return engine::schedules::proveNoHang(p, each);
}

/** A two-stage ring: `blocks` k-blocks, the producer waiting on each stage's empty barrier
 *  (parity flipped: the first round passes), the consumer releasing it. */
ir::Program twoStageRing(int blocks, bool consumerReleases = true) {
    std::vector<std::string> producer{"mbarrier.init.shared::cta.b64 [full0], 1",
                                      "mbarrier.init.shared::cta.b64 [full1], 1",
                                      "mbarrier.init.shared::cta.b64 [empty0], 1",
                                      "mbarrier.init.shared::cta.b64 [empty1], 1", "bar.sync 0"};
    std::vector<std::string> consumer{"bar.sync 0"};
    for (int k = 0; k < blocks; ++k) {
        const std::string s = std::to_string(k % 2);
        const int phase = (k / 2) % 2;
        producer.push_back(waitOn("empty" + s, phase ^ 1));
        producer.push_back(arriveOn("full" + s));
        consumer.push_back(waitOn("full" + s, phase));
        if (consumerReleases) consumer.push_back(arriveOn("empty" + s));
    }
    return lowered(oneCtaWarps("ring",
                               "full0 @ mbarrier 0; full1 @ mbarrier 0; empty0 @ mbarrier 0; "
                               "empty1 @ mbarrier 0;",
                               {producer, consumer}));
}

} // namespace

TEST_CASE("a ring that wraps twice: the proof holds, its order runs every event, the search "
          "agrees",
          "[schedules]") {
    const ir::Program p = twoStageRing(6);
    const auto r = proveFromFacts(p);
    INFO(r.why);
    REQUIRE(r.holds);
    CHECK(r.schedule.size() == p.events.size());
    std::vector<int> sorted = r.schedule;
    std::sort(sorted.begin(), sorted.end());
    CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
    CHECK(engine::schedules::explore(p, 100000).answer == Answer::NoHang);
}

TEST_CASE("a ring whose consumer never releases: the producer's second-round wait has no exact "
          "phase, and the search finds the hang",
          "[schedules]") {
    const ir::Program p = twoStageRing(4, false);
    const auto r = proveFromFacts(p);
    CHECK_FALSE(r.holds);
    CHECK(engine::schedules::explore(p, 100000).answer == Answer::MayHang);
}

TEST_CASE("a wait its object's next phase may overtake: no proof, and the search finds the hang",
          "[schedules]") {
    // The producer's second arrival waits only for the first consumer's release: the second
    // consumer may look after phase 1 completed too, and its parity is then the wrong one for
    // good (no misuse: the first consumer's wait returned True in phase 0).
    const ir::Program p = lowered(oneCtaWarps(
        "overtaken", "mb @ mbarrier 0; back @ mbarrier 0;",
        {{"mbarrier.init.shared::cta.b64 [mb], 1", "mbarrier.init.shared::cta.b64 [back], 1",
          "bar.sync 0", arriveOn("mb"), waitOn("back", 0), arriveOn("mb")},
         {"bar.sync 0", waitOn("mb", 0), arriveOn("back")},
         {"bar.sync 0", waitOn("mb", 0)}}));
    const auto r = proveFromFacts(p);
    CHECK_FALSE(r.holds);
    CHECK(r.why.find("overtaken") != std::string::npos);
    CHECK(engine::schedules::explore(p, 100000).answer == Answer::MayHang);
}

TEST_CASE("the same with the second arrival after the wait's release: the proof holds",
          "[schedules]") {
    const ir::Program p = lowered(oneCtaWarps(
        "hand-back", "mb @ mbarrier 0; back @ mbarrier 0;",
        {{"mbarrier.init.shared::cta.b64 [mb], 1", "mbarrier.init.shared::cta.b64 [back], 1",
          "bar.sync 0", arriveOn("mb"), waitOn("back", 0), arriveOn("mb")},
         {"bar.sync 0", waitOn("mb", 0), arriveOn("back"), waitOn("mb", 1)}}));
    const auto r = proveFromFacts(p);
    INFO(r.why);
    CHECK(r.holds);
    CHECK(engine::schedules::explore(p, 100000).answer == Answer::NoHang);
}

TEST_CASE("two warps each waiting for the other's arrival: a cycle, no proof", "[schedules]") {
    const ir::Program p = lowered(oneCtaWarps(
        "cycle", "a @ mbarrier 0; b @ mbarrier 0;",
        {{"mbarrier.init.shared::cta.b64 [a], 1", "mbarrier.init.shared::cta.b64 [b], 1",
          "bar.sync 0", waitOn("b", 0), arriveOn("a")},
         {"bar.sync 0", waitOn("a", 0), arriveOn("b")}}));
    const auto r = proveFromFacts(p);
    CHECK_FALSE(r.holds);
    CHECK(engine::schedules::explore(p, 100000).answer == Answer::MayHang);
}

TEST_CASE("over the corpus: wherever the proof holds, the search of every schedule finds no hang",
          "[schedules][corpus]") {
    // The proof is only asked where that search passes its limit; here it is asked everywhere the
    // search answers, so that a wrong proof shows as a MayHang it would have hidden.
    std::size_t proved = 0, searched = 0;
    for (const auto& entry :
         std::filesystem::recursive_directory_iterator(std::string(PTXMC_SOURCE_DIR) + "/litmus")) {
        if (entry.path().extension() != ".litmus") continue;
        ir::Program p;
        try {
            p = lower::lowerTest(litmus::parseLitmusFile(entry.path().string()));
        } catch (const std::exception&) {
            continue; // tests of bad input
        }
        const auto full = engine::schedules::explore(p, 100000);
        if (full.answer != Answer::NoHang && full.answer != Answer::MayHang) continue;
        ++searched;
        const auto r = proveFromFacts(p);
        if (!r.holds) continue;
        ++proved;
        INFO(entry.path().string());
        CHECK(full.answer == Answer::NoHang);
        CHECK(r.schedule.size() == p.events.size());
    }
    CHECK(searched > 100);
    CHECK(proved > 20);
}
