// engine/Schedules: the explicit hang pre-check, held to the solver's program-only answer.
#include "../unit/CorpusFiles.hpp"
#include "../unit/LitmusText.hpp"
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
using testing::lowered;
namespace fs = std::filesystem;

namespace {

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

TEST_CASE("a wait on the phase that completes cannot hang, one on the next phase can",
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

namespace {

/** `small` is a subset of `big`. */
template <class Set> bool subset(const Set& small, const Set& big) {
    return std::includes(big.begin(), big.end(), small.begin(), small.end());
}

/**
 * Where no schedule has a misuse (with a schedule on from it where every spinning wait
 * returns), both searches see every schedule whole: the same facts.
 * Where one has, each search goes on past it, and ends a schedule at a misuse only where no
 * schedule on from that state has every spinning wait return. The reduced one may reach a
 * misuse only in states where none does, where the full search also reaches it in one where
 * some does and goes on: it sees a subset of the misuses gone past, the phases and the steps of
 * the full search (so "always after" holds of more), and its facts still hold where every
 * spinning wait returns, because such a schedule has an equivalent one it follows whole.
 */
void requireSameFacts(const engine::schedules::MbarrierFacts& reduced,
                      const engine::schedules::MbarrierFacts& full) {
    REQUIRE(reduced.known == full.known);
    CHECK(reduced.misuseKnown == full.misuseKnown);
    CHECK(reduced.completeSchedule.empty() == full.completeSchedule.empty());
    CHECK(reduced.states <= full.states);
    if (full.misusesPast.empty()) {
        CHECK(reduced.misusesPast.empty());
        CHECK(reduced.phases == full.phases);
        CHECK(reduced.alwaysAfter == full.alwaysAfter);
        CHECK(reduced.misuseFree == full.misuseFree);
        return;
    }
    // A search for a schedule on from a misuse cut at its bound keeps that misuse: the full
    // search (no reduction, a lower bound) may keep misuses the reduced one rules out.
    if (!full.completionsCut && !reduced.completionsCut) CHECK_FALSE(reduced.misusesPast.empty());
    if (!reduced.completionsCut) CHECK(subset(reduced.misusesPast, full.misusesPast));
    for (const auto& [op, phases] : reduced.phases) {
        INFO("operation " << op);
        REQUIRE(full.phases.count(op) == 1);
        CHECK(subset(phases, full.phases.at(op)));
        CHECK(subset(full.alwaysAfter.at(op), reduced.alwaysAfter.at(op)));
    }
}

} // namespace

TEST_CASE("persistent sets keep every hang and every mbarrier fact of the corpus",
          "[schedules][corpus]") {
    using engine::schedules::Reduction;
    constexpr std::size_t kFullStates = 20000;
    std::size_t compared = 0, fewer = 0;
    for (const fs::path& file : corpusWithGates(100)) {
        ir::Program p = lower::lowerTest(litmus::parseLitmusFile(file.string()));
        INFO(file.string());
        // The full searches are capped well below the bench's limit: a test, not a benchmark.
        auto full = engine::schedules::explore(p, kFullStates, nullptr, Reduction::None);
        if (full.answer != engine::schedules::Answer::NoHang &&
            full.answer != engine::schedules::Answer::MayHang)
            continue;
        auto reduced = engine::schedules::explore(p, 300000);
        CHECK(reduced.answer == full.answer);
        CHECK(reduced.completeSchedule.empty() == full.completeSchedule.empty());
        // Facts under real time and under no order at all (the freest schedules).
        for (const auto& order : {ir::realTimePairs(p), std::vector<std::pair<int, int>>{}}) {
            auto all = engine::schedules::observeMbarriers(p, order, kFullStates, nullptr,
                                                           Reduction::None);
            if (!all.known) continue;
            auto some = engine::schedules::observeMbarriers(p, order, 300000);
            requireSameFacts(some, all);
            ++compared;
            fewer += some.states < all.states ? 1 : 0;
        }
    }
    CHECK(compared > 150);
    CHECK(fewer > 50);
}

namespace {

/**
 * P0 arrives twice on `a` (count 1) before P1's wait on phase 0 has returned: the second
 * arrive is a misuse (a later phase's arrive with no True wait in the phase before), and P1's
 * parity-0 wait then waits for phase 2. With `release`, P0 arrives a third time after two
 * bar.syncs with P2, a thread of another group (its own barrier b): phase 2 completes and every
 * wait returns, so the misuse is a first misuse. P2 gets past its first bar.sync only after
 * P0's misuse, so when it happens P0's second bar.sync waits for P2 to arrive. Without
 * `release`, P1 waits forever after the misuse.
 */
std::string misuseThenRelease(bool release) {
    return std::string(R"(PTX misuse-then-release
{
  a @ mbarrier 0, count 1;
  b @ mbarrier 0, count 1;
}
 P0@cta 0,gpu 0                                     | P1@cta 0,gpu 0                                     | P2@cta 0,gpu 0                                     ;
 mbarrier.arrive.relaxed.cta.shared::cta.b64 _, [a] | mbarrier.try_wait.parity.shared::cta.b64 _, [a], 0 | bar.sync 2, 64                                     ;
 mbarrier.arrive.relaxed.cta.shared::cta.b64 _, [a] |                                                    | mbarrier.arrive.relaxed.cta.shared::cta.b64 _, [b] ;
 bar.sync 2, 64                                     |                                                    | mbarrier.try_wait.parity.shared::cta.b64 _, [b], 0 ;
)") +
           (release
                ? R"( bar.sync 1, 64                                     |                                                    | bar.sync 1, 64                                     ;
 mbarrier.arrive.relaxed.cta.shared::cta.b64 _, [a] |                                                    |                                                    ;
)"
                : "") +
           "exists (true)\n";
}

} // namespace

TEST_CASE("a misuse whose group waits for another group's barrier is still a first misuse",
          "[schedules]") {
    // The searches for a schedule on from a misuse prune states where a group of threads has a
    // spinning wait that can no longer return (groupStuckForever): a group held at a barrier
    // that another group's threads release is not one.
    for (bool release : {true, false}) {
        INFO("release " << release);
        ir::Program p = lowered(misuseThenRelease(release));
        auto order = ir::realTimePairs(p);
        auto all = engine::schedules::observeMbarriers(p, order, 100000, nullptr,
                                                       engine::schedules::Reduction::None);
        auto some = engine::schedules::observeMbarriers(p, order, 100000);
        REQUIRE(all.misuseKnown);
        REQUIRE(some.misuseKnown);
        CHECK_FALSE(all.completionsCut);
        CHECK_FALSE(some.completionsCut);
        CHECK(all.misusesPast.empty() == !release);
        CHECK(some.misusesPast == all.misusesPast);
    }
}

TEST_CASE("a hang behind a wait on another object is still found", "[schedules]") {
    // P1's wait on a passes only while a is in phase 1: it hangs when both arrives on a come
    // first, which needs P2's arrive on b (P1's other wait) before its arrive on a.
    const char* text = R"(PTX behind-another-object
{
  a @ mbarrier 0, count 1;
  b @ mbarrier 0, count 1;
}
 P0@cta 0,gpu 0                                     | P1@cta 0,gpu 0                                     | P2@cta 0,gpu 0                                     ;
 mbarrier.arrive.relaxed.cta.shared::cta.b64 _, [a] | mbarrier.try_wait.parity.shared::cta.b64 _, [b], 0 | mbarrier.arrive.relaxed.cta.shared::cta.b64 _, [b] ;
                                                    | mbarrier.try_wait.parity.shared::cta.b64 _, [a], 0 | mbarrier.arrive.relaxed.cta.shared::cta.b64 _, [a] ;
exists (true)
)";
    ir::Program p = lowered(text);
    using engine::schedules::Answer;
    auto full = engine::schedules::explore(p, 1000, nullptr, engine::schedules::Reduction::None);
    auto reduced = engine::schedules::explore(p, 1000);
    CHECK(full.answer == Answer::MayHang);
    CHECK(reduced.answer == Answer::MayHang);
}

TEST_CASE("the first schedule under an order respects it and ends the search", "[schedules]") {
    ir::Program p = lowered(handOff(0));
    const auto order = ir::realTimePairs(p);
    auto whole = engine::schedules::explore(p, 1000);
    auto first = engine::schedules::firstSchedule(p, order, 1000);
    REQUIRE(first.completeSchedule.size() == p.events.size());
    CHECK(first.states <= whole.states);
    std::vector<std::size_t> at(p.events.size());
    for (std::size_t k = 0; k < first.completeSchedule.size(); ++k)
        at[static_cast<std::size_t>(first.completeSchedule[k])] = k;
    for (const auto& [a, b] : order)
        CHECK(at[static_cast<std::size_t>(a)] < at[static_cast<std::size_t>(b)]);
    // An order with a cycle (the arrive before the store it follows) has no schedule.
    std::vector<std::pair<int, int>> cyclic = order;
    for (const auto& [a, b] : order)
        cyclic.emplace_back(b, a);
    CHECK(engine::schedules::firstSchedule(p, cyclic, 1000).completeSchedule.empty());
}

TEST_CASE("a guard on an access the search does not schedule leaves the search on", "[schedules]") {
    // P1's rescale of x runs on one way of a choice; the search schedules the arrive and the
    // wait alone, so the guard changes none of its schedules. A guarded arrive would (it may
    // or may not change the object): that program stays unsupported.
    auto program = [](const char* guardedOp) {
        return std::string(R"(PTX guarded-access
{
  x @ shared 0 = 0;
  mb @ mbarrier 0, count 1;
}
 P0@cta 0,gpu 0                                      | P1@cta 0,gpu 0                                                  ;
 st.shared::cta.u32 [x], 4                           | nondet.pred p                                                   ;
 mbarrier.arrive.release.cta.shared::cta.b64 _, [mb] | )") +
               guardedOp + R"( ;
                                                     | mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 _, [mb], 0 ;
exists (true)
)";
    };
    using engine::schedules::Answer;
    auto access =
        engine::schedules::explore(lowered(program("@p st.shared::cta.u32 [x], 2")), 1000);
    CHECK(access.answer == Answer::NoHang);
    auto arrive = engine::schedules::explore(
        lowered(program("@p mbarrier.arrive.relaxed.cta.shared::cta.b64 _, [mb]")), 1000);
    CHECK(arrive.answer == Answer::Unsupported);
    CHECK(arrive.why == "an event is guarded by a value");
}

TEST_CASE("cta_group::2 pairs: a dealloc that may block hangs behind its own thread's barrier",
          "[schedules]") {
    using engine::schedules::Answer;
    auto explored = [](const std::string& name) {
        const fs::path file = fs::path(PTXMC_SOURCE_DIR) / "litmus/tcgen05/lifetime" / name;
        ir::Program p = lower::lowerTest(litmus::parseLitmusFile(file.string()));
        auto r = engine::schedules::explore(p, 1000);
        INFO(name << ": " << r.why);
        REQUIRE((r.answer == Answer::MayHang || r.answer == Answer::NoHang));
        CHECK((r.answer == Answer::MayHang) == engine::smt::solverSaysProgramMayHang(p));
        return r.answer;
    };
    // CTA 1 deallocates before the cluster barrier that CTA 0 waits at before its dealloc: a
    // blocking dealloc waits for CTA 0, which waits for CTA 1's arrival (9.7.18.5, Table 57).
    CHECK(explored("cg2-dealloc-nondeterministic-hang.litmus") == Answer::MayHang);
    // Both reach each operation: the rendezvous passes, also behind the peer's mbarrier wait.
    CHECK(explored("cg2-alloc-dealloc-paired.litmus") == Answer::NoHang);
    CHECK(explored("cg2-alloc-pair-then-mma.litmus") == Answer::NoHang);
}

TEST_CASE("what a search reads of an order: the scheduled events' transitive order",
          "[schedules]") {
    // The hand-off's arrive and wait are scheduled; the store and the load run as soon as
    // their predecessors have, so an order through one of them says what a direct pair says.
    ir::Program p = lowered(handOff(0));
    int store = -1, arrive = -1, wait = -1;
    for (const auto& e : p.events) {
        if (e.mbOp == ir::MbOp::Arrive) arrive = e.id;
        if (e.mbOp == ir::MbOp::Wait) wait = e.id;
    }
    REQUIRE(arrive >= 0);
    for (const auto& e : p.events) // the arriving thread's store
        if (store < 0 && e.thread == p.events[static_cast<std::size_t>(arrive)].thread &&
            e.mbOp == ir::MbOp::None)
            store = e.id;
    REQUIRE(store >= 0);
    REQUIRE(wait >= 0);
    using Order = std::vector<std::pair<int, int>>;
    const auto through =
        engine::schedules::scheduledOrder(p, Order{{arrive, store}, {store, wait}});
    const auto direct = engine::schedules::scheduledOrder(p, Order{{arrive, wait}, {store, wait}});
    const auto unordered = engine::schedules::scheduledOrder(p, Order{{store, wait}});
    REQUIRE_FALSE(through.empty());
    CHECK(through == direct);
    CHECK(through != unordered);
    CHECK(engine::schedules::scheduledOrder(p, Order{{arrive, store}, {store, arrive}}).empty());
}
