// The hang search's reductions: interchangeable threads, changes that commute, operations behind
// their init; each against the full search, and the cases where its assumption fails.
#include "../unit/LitmusText.hpp"
#include "smt/Schedules.hpp"
#include "smt/ThreadSymmetry.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace ptxmc;
using engine::schedules::Answer;
using testing::lowered;
using testing::oneCtaWarps;

namespace {

const std::string kWaitFull = "mbarrier.try_wait.parity.shared::cta.b64 _, [full], 0";
const std::string kArriveEmpty = "mbarrier.arrive.shared::cta.b64 _, [empty]";

/** A producer's full arrival, then `consumers` (each a column), then its empty wait. */
std::string handOff(const std::vector<std::vector<std::string>>& consumers) {
    std::vector<std::vector<std::string>> warps{
        {"mbarrier.arrive.shared::cta.b64 _, [full]",
         "mbarrier.try_wait.parity.shared::cta.b64 _, [empty], 0"}};
    warps.insert(warps.end(), consumers.begin(), consumers.end());
    return oneCtaWarps("hand-off",
                       "full @ mbarrier 0, count 1; empty @ mbarrier 0, count " +
                           std::to_string(consumers.size()) + "; aux @ mbarrier 0;",
                       warps);
}

/** The reduced search and the full one give one answer; the reduced one's. */
engine::schedules::Exploration bothSearches(const ir::Program& p) {
    auto reduced = engine::schedules::explore(p, 100000);
    auto full = engine::schedules::explore(p, 100000, nullptr, engine::schedules::Reduction::None);
    REQUIRE((full.answer == Answer::NoHang || full.answer == Answer::MayHang));
    CHECK(reduced.answer == full.answer);
    CHECK(reduced.states <= full.states);
    return reduced;
}

std::vector<int> sorted(std::vector<int> v) {
    std::sort(v.begin(), v.end());
    return v;
}

} // namespace

TEST_CASE("a CTA's identical consumer warps are one class, one that initializes first among them",
          "[schedules]") {
    const std::vector<std::string> consumer{kWaitFull, kArriveEmpty};
    const std::vector<std::string> initializer{"mbarrier.init.shared::cta.b64 [aux], 1", kWaitFull,
                                               kArriveEmpty};
    auto r = bothSearches(lowered(handOff({initializer, consumer, consumer, consumer})));
    CHECK(r.answer == Answer::NoHang);
    REQUIRE(r.interchangeableThreads.size() == 1);
    CHECK(sorted(r.interchangeableThreads[0]) == std::vector<int>{1, 2, 3, 4});
}

TEST_CASE("a consumer that does not arrive is in no class, and its hang is found", "[schedules]") {
    const std::vector<std::string> consumer{kWaitFull, kArriveEmpty};
    auto r = bothSearches(lowered(handOff({consumer, consumer, {kWaitFull}})));
    CHECK(r.answer == Answer::MayHang);
    REQUIRE(r.interchangeableThreads.size() == 1);
    CHECK(sorted(r.interchangeableThreads[0]) == std::vector<int>{1, 2});
}

TEST_CASE("a consumer on the other parity is in no class, and the hang it causes is found",
          "[schedules]") {
    // Its first wait, on parity 1, returns before the producer's arrival (the phase before
    // phase 0 counts as complete): it is not interchangeable with the others, and both
    // searches give one answer.
    const std::vector<std::string> consumer{kWaitFull, kArriveEmpty};
    const std::vector<std::string> early{"mbarrier.try_wait.parity.shared::cta.b64 _, [full], 1",
                                         kArriveEmpty, kWaitFull};
    auto r = bothSearches(lowered(handOff({consumer, consumer, early})));
    REQUIRE(r.interchangeableThreads.size() == 1);
    CHECK(sorted(r.interchangeableThreads[0]) == std::vector<int>{1, 2});
}

TEST_CASE("arrivals of one count on one object commute: the search takes them in one order",
          "[schedules]") {
    // Eight warps each arrive on a barrier of their own (so no two are interchangeable), then
    // once on a count-8 barrier a ninth waits on: each order of the last arrivals leaves the
    // same state, so the states are about how many were made, not which.
    std::vector<std::vector<std::string>> warps;
    std::string init = "mb @ mbarrier 0, count 8;";
    for (int w = 0; w < 8; ++w) {
        const std::string own = "o" + std::to_string(w);
        init += " " + own + " @ mbarrier 0, count 1;";
        warps.push_back({"mbarrier.arrive.shared::cta.b64 _, [" + own + "]",
                         "mbarrier.arrive.shared::cta.b64 _, [mb]"});
    }
    warps.push_back({"mbarrier.try_wait.parity.shared::cta.b64 _, [mb], 0"});
    auto r = bothSearches(lowered(oneCtaWarps("eight-arrivals", init, warps)));
    CHECK(r.answer == Answer::NoHang);
    CHECK(r.states < 64); // taken as dependent: 2^8 subsets of the last arrivals
}

TEST_CASE("more arrivals than a phase needs: no arrival is necessary, and the hang is found",
          "[schedules]") {
    // A count-1 barrier with two arrivals: the waiter of the second phase needs both, the
    // waiter of the third hangs; each arrival alone completes a phase.
    auto r = bothSearches(
        lowered(oneCtaWarps("two-arrivals-three-phases", "mb @ mbarrier 0, count 1;",
                            {{"mbarrier.arrive.shared::cta.b64 _, [mb]"},
                             {"mbarrier.arrive.shared::cta.b64 _, [mb]"},
                             {"mbarrier.try_wait.parity.shared::cta.b64 _, [mb], 0",
                              "mbarrier.try_wait.parity.shared::cta.b64 _, [mb], 1",
                              "mbarrier.try_wait.parity.shared::cta.b64 _, [mb], 0"}})));
    CHECK(r.answer == Answer::MayHang);
}

TEST_CASE("operations behind their object's init: the reduced search keeps every answer",
          "[schedules]") {
    // Eight warps each initialize their own barrier, meet at bar.sync, then arrive on the next
    // warp's barrier and wait on their own: every operation of an object follows its init in
    // real time, so the init's set leaves them out; with one arrival dropped, a hang.
    auto ring = [](bool complete) {
        std::vector<std::vector<std::string>> warps;
        std::string init;
        for (int w = 0; w < 8; ++w) {
            const std::string mb = "[m" + std::to_string(w) + "]";
            const std::string next = "[m" + std::to_string((w + 1) % 8) + "]";
            init += "m" + std::to_string(w) + " @ mbarrier 0; ";
            warps.push_back(
                {"mbarrier.init.shared::cta.b64 " + mb + ", 1", "bar.sync 0",
                 complete || w != 3 ? "mbarrier.arrive.shared::cta.b64 _, " + next : std::string(),
                 "mbarrier.try_wait.parity.shared::cta.b64 _, " + mb + ", 0"});
        }
        return lowered(oneCtaWarps("inits-then-ring", init, warps));
    };
    CHECK(bothSearches(ring(true)).answer == Answer::NoHang);
    CHECK(bothSearches(ring(false)).answer == Answer::MayHang);
}

TEST_CASE("thread classes: equal signatures and a swap that keeps the order", "[schedules]") {
    // Four threads, two events each, the scheduled events 0-7 (thread t: 2t, 2t+1); every
    // event's signature is its position in its thread, except where `odd` says.
    ir::Program p;
    for (int e = 0; e < 8; ++e) {
        ir::Event ev;
        ev.id = e;
        ev.thread = e / 2;
        p.events.push_back(ev);
    }
    std::vector<int> scheduled{0, 1, 2, 3, 4, 5, 6, 7};
    auto classesWith = [&](const std::vector<std::vector<int>>& preds, int odd) {
        auto sig = [&](int e) -> std::optional<std::vector<std::int64_t>> {
            return std::vector<std::int64_t>{e % 2, e == odd ? 1 : 0};
        };
        std::vector<std::vector<int>> threads;
        for (const auto& cls : engine::schedules::findThreadClasses(p, scheduled, preds, sig)) {
            threads.emplace_back();
            for (const auto& m : cls)
                threads.back().push_back(m.thread);
        }
        return threads;
    };
    std::vector<std::vector<int>> poOnly{{}, {0}, {}, {2}, {}, {4}, {}, {6}};
    CHECK(classesWith(poOnly, -1) == std::vector<std::vector<int>>{{0, 1, 2, 3}});
    CHECK(classesWith(poOnly, 5) == std::vector<std::vector<int>>{{0, 1, 3}});
    // Thread 0's second event also waits for thread 3's first: swapping 0 with 1 moves that
    // edge, so 0 is in no class; 1 and 2 still swap (3's edge to 0 stays where it was).
    std::vector<std::vector<int>> edge = poOnly;
    edge[1] = {0, 6};
    const auto found = classesWith(edge, -1);
    CHECK(std::none_of(found.begin(), found.end(), [](const std::vector<int>& c) {
        return std::find(c.begin(), c.end(), 0) != c.end();
    }));
    CHECK(std::any_of(found.begin(), found.end(), [](const std::vector<int>& c) {
        return std::find(c.begin(), c.end(), 1) != c.end() &&
               std::find(c.begin(), c.end(), 2) != c.end();
    }));
}

namespace {

const std::string kCompleteTx = "mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [full], ";

/**
 * A 2-SM stage's full barrier (count 1): the leader arrives with expect_tx 64 and then
 * completes its own 16 bytes; three other warps complete `bytes` each, in any order around the
 * arrival; a consumer waits on phase 0 and then on phase 1, which nothing completes where the
 * bytes add to 64 (so the search runs to its end states either way).
 */
ir::Program stageBytes(const std::vector<int>& bytes, bool secondWait) {
    std::vector<std::vector<std::string>> warps{
        {"mbarrier.arrive.expect_tx.shared::cta.b64 _, [full], 64", kCompleteTx + "16"}};
    for (int b : bytes)
        warps.push_back({kCompleteTx + std::to_string(b)});
    warps.push_back({kWaitFull});
    if (secondWait) warps.back().push_back("mbarrier.try_wait.parity.shared::cta.b64 _, [full], 1");
    return lowered(oneCtaWarps("stage-bytes", "full @ mbarrier 0, count 1;", warps));
}

} // namespace

TEST_CASE("bytes completing around an expect_tx arrival commute until the phase's guard runs",
          "[schedules]") {
    // The amounts differ (no two are one change), so without the guard every set holds every
    // change: 2^3 subsets of the other warps' bytes before and after the arrival. The leader's
    // own bytes follow its arrival and every completion needs them: the arrival is a set of
    // one, and each other warp's bytes a set with the leader's own (13 states; 25 without the
    // guard).
    auto r = bothSearches(stageBytes({10, 14, 24}, false));
    CHECK(r.answer == Answer::NoHang);
    CHECK(r.states < 20);
    // The second wait hangs: the guard leaves the hang in place.
    CHECK(bothSearches(stageBytes({10, 14, 24}, true)).answer == Answer::MayHang);
}

TEST_CASE("bytes beyond the expected: no completion needs the leader's own, and every order is "
          "taken",
          "[schedules]") {
    // 16 + 16 + 16 + 16 + 16 = 80 bytes against 64 expected: the other warps' bytes alone can
    // complete the phase, so the leader's own are no guard; where they land after the
    // completion they fall in phase 1, and a wait on phase 1 then hangs or not by the order.
    // One of each: both searches agree.
    auto r = bothSearches(stageBytes({16, 16, 16, 16}, true));
    CHECK(r.answer == Answer::MayHang);
    CHECK(bothSearches(stageBytes({16, 16, 16, 16}, false)).answer == Answer::NoHang);
}

TEST_CASE("random arrivals, bytes and waits: the reduced hang search answers as the full one",
          "[schedules]") {
    // Three or four warps, each a few operations on two count-1 or count-2 barriers: arrivals
    // with and without bytes, completed bytes, waits on either parity. Phases complete early
    // or late, bytes land in the next phase, waits hang or not: the guard's and the other
    // reductions' assumptions fail in many of them, and each answer must be the full search's.
    std::uint32_t seed = 12345;
    auto next = [&](std::uint32_t n) {
        seed = seed * 1103515245U + 12345U;
        return (seed >> 16) % n;
    };
    const std::vector<int> amounts{8, 16, 24};
    int hangs = 0;
    for (int round = 0; round < 300; ++round) {
        const std::string init = "a @ mbarrier 0, count " + std::to_string(1 + next(2)) +
                                 "; b @ mbarrier 0, count " + std::to_string(1 + next(2)) + ";";
        std::vector<std::vector<std::string>> warps(3 + next(2));
        for (auto& w : warps)
            for (std::uint32_t k = 0, n = 1 + next(3); k < n; ++k) {
                const std::string bar = next(3) == 0 ? "[b]" : "[a]";
                const std::string bytes = std::to_string(amounts[next(3)]);
                switch (next(4)) {
                case 0:
                    w.push_back("mbarrier.arrive.shared::cta.b64 _, " + bar);
                    break;
                case 1:
                    w.push_back("mbarrier.arrive.expect_tx.shared::cta.b64 _, " + bar + ", " +
                                bytes);
                    break;
                case 2:
                    w.push_back("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 " + bar + ", " +
                                bytes);
                    break;
                default:
                    w.push_back("mbarrier.try_wait.parity.shared::cta.b64 _, " + bar + ", " +
                                std::to_string(next(2)));
                }
            }
        const ir::Program p = lowered(oneCtaWarps("random-" + std::to_string(round), init, warps));
        INFO("round " << round);
        // Answers only: a search stops at its first hang, so a count of states depends on
        // where in its order the hang comes.
        const auto reduced = engine::schedules::explore(p, 100000);
        const auto full =
            engine::schedules::explore(p, 100000, nullptr, engine::schedules::Reduction::None);
        REQUIRE((full.answer == Answer::NoHang || full.answer == Answer::MayHang));
        CHECK(reduced.answer == full.answer);
        hangs += full.answer == Answer::MayHang ? 1 : 0;
    }
    CHECK(hangs > 50);
    CHECK(hangs < 250);
}
