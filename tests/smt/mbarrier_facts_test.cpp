// smt/MbarrierFacts: the phases and orders the model's acyclicity axioms imply change no answer.
#include "../unit/BuiltinModel.hpp"
#include "../unit/CorpusFiles.hpp"
#include "../unit/LitmusText.hpp"
#include "cat/Loader.hpp"
#include "cat/ReadingId.hpp"
#include "cat/Readings.hpp"
#include "cat/Resolver.hpp"
#include "check/Check.hpp"
#include "ir/Gates.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"
#include "smt/Schedules.hpp"
#include "smt/Z3Context.hpp"
#include "smt/Z3Session.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

using namespace ptxmc;
using testing::builtinModel;
namespace fs = std::filesystem;

namespace {

using testing::lowered;

engine::CheckResult checked(const ir::Program& p, bool facts,
                            std::size_t factStates = engine::CheckOptions{}.mbarrierFactStates,
                            std::optional<cat::ReadingId> reading = std::nullopt,
                            bool decided = true) {
    engine::CheckOptions options;
    options.reading = std::move(reading);
    options.mbarrierFacts = facts;
    options.decidedObservations = decided;
    options.mbarrierFactStates = factStates;
    options.stats = true;
    // A reading is one of the readings folded into the built-in model.
    static const auto withReadings = cat::resolveModel(cat::builtinModelWithReadings());
    return engine::check(p, options.reading ? *withReadings : builtinModel(), options);
}

/** Same observation, final states and flags. */
void requireSameAnswer(const engine::CheckResult& a, const engine::CheckResult& b) {
    CHECK(engine::toString(a.observation) == engine::toString(b.observation));
    CHECK(a.states.size() == b.states.size());
    CHECK(engine::sameAnswer(a, b));
}

// P0 arrives relaxed on mb1, then on mb2; P1 waits for mb2's phase, then tests mb1's. Relaxed
// arrives are not ordered with each other in real time by the model (no release, no fence),
// so P1 may find mb1's phase incomplete: facts found under program order would forbid it.
const char* kRelaxedArrives = R"(PTX relaxed-arrives
{
  mb1 @ mbarrier 0, count 1; mb2 @ mbarrier 0, count 1;
  P1:p0 = 0;
}
 P0@cta 0,gpu 0                                       | P1@cta 0,gpu 0                                                     ;
 mbarrier.arrive.relaxed.cta.shared::cta.b64 _, [mb1] | mbarrier.try_wait.parity.relaxed.cta.shared::cta.b64 _, [mb2], 0  ;
 mbarrier.arrive.relaxed.cta.shared::cta.b64 _, [mb2] | mbarrier.test_wait.parity.relaxed.cta.shared::cta.b64 p0, [mb1], 0 ;
exists (P1:p0 == 0)
)";

// One producer, one consumer, a count-1 mbarrier: the wait passes only on phase 1.
const char* kHandOff = R"(PTX hand-off
{
  x = 0;
  mb @ mbarrier 0, count 1;
}
 P0@cta 0,gpu 0                                      | P1@cta 0,gpu 0                                              ;
 st.relaxed.cta.u32 [x], 1                           | mbarrier.try_wait.parity.shared::cta.b64 _, [mb], 0          ;
 mbarrier.arrive.release.cta.shared::cta.b64 _, [mb] | ld.relaxed.cta.u32 r0, [x]                                   ;
exists (P1:r0 == 0)
)";

// `threads` threads, `rows` relaxed arrives each; with `shared`, all on one object, otherwise
// row m on object m. The model's order leaves them free to interleave.
std::string manyRelaxedArrives(int threads, int rows, bool shared) {
    std::string text = "PTX many-relaxed-arrives\n{\n";
    const int objects = shared ? 1 : rows;
    // A shared object expects every arrive in its first phase: none is misuse (an arrive in a
    // later phase with no True wait before it would be, and would end the facts' search there).
    const int count = shared ? threads * rows : threads;
    for (int m = 0; m < objects; ++m)
        text += "  m" + std::to_string(m) + " @ mbarrier 0, count " + std::to_string(count) + ";\n";
    text += "}\n";
    for (int t = 0; t < threads; ++t)
        text += std::string(t == 0 ? " " : " | ") + "P" + std::to_string(t) + "@cta 0,gpu 0";
    text += " ;\n";
    for (int m = 0; m < rows; ++m) {
        std::string arrive = " mbarrier.arrive.relaxed.cta.shared::cta.b64 _, [m" +
                             std::to_string(shared ? 0 : m) + "] ";
        for (int t = 0; t < threads; ++t)
            text += (t == 0 ? "" : "|") + arrive;
        text += ";\n";
    }
    return text + "exists (true)\n";
}

int firstOf(const ir::Program& p, ir::MbOp op) {
    for (const auto& e : p.events)
        if (e.mbOp == op) return e.id;
    return -1;
}

} // namespace

TEST_CASE("the facts of a hand-off: the wait finds phase 1, after the arrive", "[mbarrier-facts]") {
    ir::Program p = lowered(kHandOff);
    auto facts = engine::schedules::observeMbarriers(p, {}, 1000);
    REQUIRE(facts.known);
    int arrive = firstOf(p, ir::MbOp::Arrive), wait = firstOf(p, ir::MbOp::Wait);
    CHECK(facts.phases.at(arrive) == std::set<std::int64_t>{0});
    CHECK(facts.phases.at(wait) == std::set<std::int64_t>{1});
    CHECK(facts.alwaysAfter.at(wait) == std::vector<int>{arrive});
    CHECK(facts.alwaysAfter.at(arrive).empty());
    CHECK_FALSE(engine::schedules::observeMbarriers(p, {}, 1).known); // over its state limit
}

TEST_CASE("facts follow the model's order, not program order", "[mbarrier-facts]") {
    ir::Program p = lowered(kRelaxedArrives);
    // Under program order the test finds mb1's phase complete every time ...
    auto inOrder = engine::schedules::observeMbarriers(p, ir::realTimePairs(p), 1000);
    int test = -1;
    for (const auto& e : p.events)
        if (e.mbOp == ir::MbOp::Wait && !e.blocking) test = e.id;
    REQUIRE(test >= 0);
    CHECK(inOrder.phases.at(test) == std::set<std::int64_t>{1});
    // ... but the model lets it find it incomplete, and the facts asserted agree.
    engine::CheckResult with = checked(p, true), without = checked(p, false);
    REQUIRE(with.stats);
    CHECK(with.stats->mbarrierFacts > 0);
    CHECK(with.states.size() == 2);
    requireSameAnswer(with, without);
}

TEST_CASE("facts change no answer of the corpus", "[mbarrier-facts][corpus]") {
    std::size_t withFacts = 0, withHangFacts = 0, withDecided = 0;
    for (const fs::path& file : testing::corpusFiles()) {
        ir::Program p = lower::lowerTest(litmus::parseLitmusFile(file.string()));
        // The kernel rings above this size are the bench's (seconds each, twice); without an
        // mbarrier, or with loops (outside the search's fragment), no facts.
        bool mbarriers = std::any_of(p.events.begin(), p.events.end(),
                                     [](const ir::Event& e) { return e.has(ir::Tag::MB); });
        if (p.events.size() > 80 || !mbarriers || !p.cuts.empty()) continue;
        engine::CheckResult with = checked(p, true);
        if (!with.stats) continue;
        if (with.stats->hangMbarrierFacts > 0) ++withHangFacts;
        if (with.stats->mbarrierFacts == 0 && with.stats->hangMbarrierFacts == 0) continue;
        ++withFacts;
        INFO(file.string());
        requireSameAnswer(with, checked(p, false));
        // mb-obs pairs the facts decided before the axioms (smt/DecidedObservations.hpp)
        if (with.stats->observationsDecided == 0) continue;
        ++withDecided;
        requireSameAnswer(
            with, checked(p, true, engine::CheckOptions{}.mbarrierFactStates, std::nullopt, false));
    }
    // Well over a hundred tests get facts: one-rule mbarrier tests and kernel protocols; the
    // tests that may hang get them in their hang encoding as well; most decide observations.
    CHECK(withFacts > 100);
    CHECK(withHangFacts > 30);
    CHECK(withDecided > 80);
}

// [slow-tier]: a whole-corpus comparison under one variant (67 s in Release, the kernel tier's
// longest); the default's facts are compared in the kernel tier above.
TEST_CASE("each object's facts change no answer of the corpus under decision Q22's variant",
          "[mbarrier-facts][corpus][slow-tier]") {
    // Each object's operations ordered on their own (q22-mbarrier-order-per-object): no acyclicity
    // axiom contains the mbarrier order, so the facts are each object's own search's.
    const cat::ReadingId perObject{"q22-mbarrier-order-per-object"};
    std::size_t withFacts = 0;
    bool iriw = false;
    for (const fs::path& file : testing::corpusFiles()) {
        ir::Program p = lower::lowerTest(litmus::parseLitmusFile(file.string()));
        bool mbarriers = std::any_of(p.events.begin(), p.events.end(),
                                     [](const ir::Event& e) { return e.has(ir::Tag::MB); });
        if (p.events.size() > 80 || !mbarriers || !p.cuts.empty()) continue;
        engine::CheckResult with = checked(p, true, 300000, perObject);
        if (!with.stats || with.stats->mbarrierFacts == 0) continue;
        ++withFacts;
        INFO(file.string());
        requireSameAnswer(with, checked(p, false, 300000, perObject));
        // The reading is the variant's: IRIW through four waits is allowed there alone.
        if (file.filename() == "IRIW+mbarrier-waits.litmus") {
            iriw = true;
            CHECK(engine::toString(with.observation) == std::string("Sometimes"));
        }
    }
    CHECK(withFacts > 100);
    CHECK(iriw);
}

// [slow-tier]: a whole-corpus comparison with the search's limit forced low (27 s in Release).
TEST_CASE("past the search's limit, each object's own facts change no answer of the corpus",
          "[mbarrier-facts][corpus][slow-tier]") {
    // A limit the search of every object together passes on most tests, so that the facts are
    // those of each object searched on its own (with what the objects left of the limit).
    const std::size_t limit = 12;
    std::size_t fallen = 0;
    for (const fs::path& file : testing::corpusFiles()) {
        ir::Program p = lower::lowerTest(litmus::parseLitmusFile(file.string()));
        bool mbarriers = std::any_of(p.events.begin(), p.events.end(),
                                     [](const ir::Event& e) { return e.has(ir::Tag::MB); });
        if (p.events.size() > 80 || !mbarriers || !p.cuts.empty()) continue;
        engine::CheckResult with = checked(p, true, limit);
        if (!with.stats || with.stats->mbarrierFacts == 0 ||
            with.stats->mbarrierFactStates <= limit + 1)
            continue;
        ++fallen;
        INFO(file.string());
        requireSameAnswer(with, checked(p, false));
    }
    CHECK(fallen > 30);
}

// P0 tests mX, then arrives on mY; P1 waits on mY, then arrives on mX: two objects, one
// thread's wait on one holding its operation on the other.
const char* const kEachObject = R"(PTX each-object
{
  mX @ mbarrier 0, count 1; mY @ mbarrier 0, count 1;
  P0:p = 0;
}
 P0@cta 0,gpu 0                                        | P1@cta 0,gpu 0                                      ;
 mbarrier.test_wait.parity.shared::cta.b64 p, [mX], 0  | mbarrier.try_wait.parity.shared::cta.b64 _, [mY], 0 ;
 mbarrier.arrive.release.cta.shared::cta.b64 _, [mY]   | mbarrier.arrive.release.cta.shared::cta.b64 _, [mX] ;
exists (P0:p == 1)
)";

TEST_CASE("each object's search holds a wait behind the arrivals it observes", "[mbarrier-facts]") {
    // P0 tests mX, then arrives on mY; P1 waits on mY, then arrives on mX. Searched object by
    // object, P1's wait on mY holds nothing at first, and the test may find mX complete; but the
    // facts of mY say the wait observed P0's arrive complete its phase (mb-obs, a part of xo),
    // and the next round orders that pair: the test always finds mX incomplete, as together.
    ir::Program p = lowered(kEachObject);
    int test = -1;
    for (const auto& e : p.events)
        if (e.mbOp == ir::MbOp::Wait && !e.blocking) test = e.id;
    REQUIRE(test >= 0);
    const auto order = ir::realTimePairs(p);
    auto together = engine::schedules::observeMbarriers(p, order, 1000);
    auto alone = engine::schedules::observeEachObject(p, order, {}, true, 1000);
    REQUIRE(together.known);
    REQUIRE(alone.known);
    CHECK(together.phases.at(test) == std::set<std::int64_t>{0});
    CHECK(alone.phases.at(test) == std::set<std::int64_t>{0});
    CHECK(alone.phases.size() == together.phases.size()); // every operation has facts
    CHECK_FALSE(
        engine::schedules::observeEachObject(p, order, {}, true, 2).known); // the states add up
}

/** A one-stage ring of `wraps` hand-offs with two producers: P0 and P2 each wait on their own
 *  `empty` barrier and arrive on `full` (count 2); P1 waits on `full` and arrives on both. */
std::string twoProducerRing(int wraps) {
    std::string text =
        "PTX two-producer-ring\n{\n  full @ mbarrier 0, count 2; emptyA @ mbarrier 0, "
        "count 1; emptyB @ mbarrier 0, count 1;\n}\n"
        " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 ;\n";
    const std::string wait = " mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 _, [";
    const std::string arrive = " mbarrier.arrive.release.cta.shared::cta.b64 _, [";
    for (int w = 0; w < wraps; ++w) {
        const std::string back = std::to_string((w + 1) % 2);
        text += wait + "emptyA], " + back + " |" + wait + "full], " + std::to_string(w % 2) + " |" +
                wait + "emptyB], " + back + " ;\n";
        text += arrive + "full] |" + arrive + "emptyA] |" + arrive + "full] ;\n";
        text += " |" + arrive + "emptyB] | ;\n";
    }
    return text + "exists (true)\n";
}

TEST_CASE("each object's rounds carry a ring's hand-offs until its phases are the joint search's",
          "[mbarrier-facts]") {
    // Searched on its own, `full` may take P0's arrive of a later wrap into an earlier phase
    // (P0 and P2 arrive freely there): which phase each arrive completes is open until a later
    // round orders them behind the `empty` barriers' hand-offs (`full` is searched first, with
    // none yet). One round leaves 22 of these phases open; two suffice here, as the pairs found
    // earlier in a round reach the objects searched after them. (The 2-SM GEMM needed more than
    // the four rounds the search once stopped at: tests/cli/kernel/scale/2sm-q22-two-tiles-facts.)
    ir::Program p = lowered(twoProducerRing(8));
    const auto order = ir::realTimePairs(p);
    auto together = engine::schedules::observeMbarriers(p, order, 100000);
    auto alone = engine::schedules::observeEachObject(p, order, {}, true, 100000);
    REQUIRE(together.known);
    REQUIRE(alone.known);
    int operations = 0;
    for (const auto& e : p.events) {
        if (!e.has(ir::Tag::MB) || e.mbOp == ir::MbOp::Init) continue;
        ++operations;
        INFO(e.text << " of P" << e.thread << " (instruction " << e.instruction << ")");
        REQUIRE(together.phases.at(e.id).size() == 1);
        CHECK(alone.phases.at(e.id) == together.phases.at(e.id));
    }
    CHECK(operations == 8 * 7);
}

TEST_CASE("the facts' search gives up at its limit where one object's operations interleave",
          "[mbarrier-facts]") {
    // Five threads' three arrives on one object: every count of each thread's arrives so far is
    // a state of its own (4^5 = 1,024, over a limit of 500), and none commutes with another.
    // (The default limit is reached the same way by eight threads' five arrives: a minute
    // under the sanitizers.)
    ir::Program p = lowered(manyRelaxedArrives(5, 3, true));
    const std::size_t limit = 500;
    engine::CheckResult with = checked(p, true, limit);
    REQUIRE(with.stats);
    CHECK(with.stats->mbarrierFacts == 0);
    // The search of every object together, then of its one object alone, each to its limit.
    CHECK(with.stats->mbarrierFactStates == 2 * (limit + 1));
    // Under a limit it stays under, the same program gets its facts.
    engine::CheckResult under = checked(p, true, 100000);
    REQUIRE(under.stats);
    CHECK(under.stats->mbarrierFacts > 0);
    requireSameAnswer(with, checked(p, false));
}

TEST_CASE("the facts' search takes one order of operations on different objects",
          "[mbarrier-facts]") {
    // Four threads, six objects, one arrive each per object: without the persistent sets the
    // 24 arrives interleave in over 300,000 states; with them, the objects go one at a time.
    ir::Program p = lowered(manyRelaxedArrives(4, 6, false));
    engine::CheckResult with = checked(p, true);
    REQUIRE(with.stats);
    CHECK(with.stats->mbarrierFacts > 0);
    CHECK(with.stats->mbarrierFactStates < 200);
    requireSameAnswer(with, checked(p, false));
}

namespace {

// One thread arrives on a count-1 object twice; with `wait` it waits for the first phase to
// complete in between, as the phase rule asks ({MbarrierPhase}); without, the second arrive
// falls in phase 1 with no True wait in phase 0: mbarrier-misuse.
std::string arriveTwice(bool wait) {
    std::string text = "PTX arrive-twice\n{\n  mb @ mbarrier 0, count 1;\n}\n P0@cta 0,gpu 0 ;\n";
    text += " mbarrier.arrive.release.cta.shared::cta.b64 _, [mb] ;\n";
    if (wait) text += " mbarrier.try_wait.parity.shared::cta.b64 _, [mb], 0 ;\n";
    text += " mbarrier.arrive.release.cta.shared::cta.b64 _, [mb] ;\nexists (true)\n";
    return text;
}

std::vector<int> opsOf(const ir::Program& p, ir::MbOp op) {
    std::vector<int> out;
    for (const auto& e : p.events)
        if (e.mbOp == op) out.push_back(e.id);
    return out;
}

} // namespace

TEST_CASE("the facts say which operations no schedule makes misuse", "[mbarrier-facts]") {
    ir::Program clean = lowered(kHandOff);
    auto facts = engine::schedules::observeMbarriers(clean, {}, 1000);
    REQUIRE(facts.misuseKnown);
    CHECK(facts.misuseFree ==
          std::set<int>{firstOf(clean, ir::MbOp::Arrive), firstOf(clean, ir::MbOp::Wait)});

    // The wait between the arrives returns True once phase 0 completed: the second arrive,
    // in phase 1, follows a True wait of the phase before it and is no misuse.
    ir::Program waited = lowered(arriveTwice(true));
    auto inOrder = engine::schedules::observeMbarriers(waited, ir::realTimePairs(waited), 1000);
    REQUIRE(inOrder.misuseKnown);
    CHECK(inOrder.misuseFree.size() == 3);

    // Without it, the second arrive is misuse in every schedule, the first in none.
    ir::Program bare = lowered(arriveTwice(false));
    auto unwaited = engine::schedules::observeMbarriers(bare, ir::realTimePairs(bare), 1000);
    REQUIRE(unwaited.misuseKnown);
    const std::vector<int> arrives = opsOf(bare, ir::MbOp::Arrive);
    REQUIRE(arrives.size() == 2);
    CHECK(unwaited.misuseFree == std::set<int>{arrives[0]});
    engine::CheckResult with = checked(bare, true), without = checked(bare, false);
    CHECK(std::any_of(with.flags.begin(), with.flags.end(),
                      [](const engine::RaisedFlag& f) { return f.name == "mbarrier-misuse"; }));
    requireSameAnswer(with, without);
}

TEST_CASE("a wait on a token from an arrive leaves misuse unknown", "[mbarrier-facts]") {
    ir::Program p = lowered(R"(PTX token-wait
{
  mb @ mbarrier 0, count 1;
}
 P0@cta 0,gpu 0                                            ;
 mbarrier.arrive.release.cta.shared::cta.b64 t, [mb]       ;
 mbarrier.test_wait.shared::cta.b64 p, [mb], t             ;
exists (true)
)");
    auto facts = engine::schedules::observeMbarriers(p, ir::realTimePairs(p), 1000);
    REQUIRE(facts.known);
    CHECK_FALSE(facts.misuseKnown);
    CHECK(facts.misuseFree.empty());
}

namespace {

// P0 arrives once on a count-1 object; P1..P<waiters> each spin on its phase 0 and then test
// it: a tile scheduler's response barrier, on which every warp waits.
std::string manyWaiters(int waiters) {
    std::string text = "PTX many-waiters\n{\n  mb @ mbarrier 0, count 1;\n}\n P0@cta 0,gpu 0";
    for (int t = 1; t <= waiters; ++t)
        text += " | P" + std::to_string(t) + "@cta 0,gpu 0";
    text += " ;\n mbarrier.arrive.release.cta.shared::cta.b64 _, [mb]";
    for (int t = 1; t <= waiters; ++t)
        text += " | mbarrier.try_wait.parity.shared::cta.b64 _, [mb], 0";
    text += " ;\n";
    for (int t = 0; t <= waiters; ++t)
        text += (t == 0 ? " " : " | ") +
                std::string(t == 0 ? "" : "mbarrier.test_wait.parity.shared::cta.b64 _, [mb], 0");
    return text + " ;\nexists (true)\n";
}

/** The reduced search's facts under real time, after checking they equal the full search's and
 *  that the reduction took fewer than `fewerThan` states where the full search took more than
 *  `moreThan`. */
engine::schedules::MbarrierFacts reducedAsFull(const ir::Program& p, std::size_t fewerThan,
                                               std::size_t moreThan) {
    const auto order = ir::realTimePairs(p);
    auto reduced = engine::schedules::observeMbarriers(p, order, 100000);
    auto full = engine::schedules::observeMbarriers(p, order, 100000, nullptr,
                                                    engine::schedules::Reduction::None);
    REQUIRE(reduced.known);
    REQUIRE(full.known);
    CHECK(reduced.states < fewerThan);
    CHECK(full.states > moreThan);
    CHECK(reduced.phases == full.phases);
    CHECK(reduced.alwaysAfter == full.alwaysAfter);
    CHECK(reduced.misuseFree == full.misuseFree);
    return reduced;
}

} // namespace

TEST_CASE("the facts' search takes one order of the waits on one object", "[mbarrier-facts]") {
    // Twelve waits of six threads on one object: every thread's progress (none, one or two of
    // its waits) is a state of the full search, 3^6 = 729 after the arrive; waits
    // change nothing, so the persistent sets take them in one order, and the facts are those
    // of the full search, which never orders two waits.
    ir::Program p = lowered(manyWaiters(6));
    auto reduced = reducedAsFull(p, 30, 729);
    // Each wait follows the arrive, and only the arrive.
    const int arrive = firstOf(p, ir::MbOp::Arrive);
    for (int w : opsOf(p, ir::MbOp::Wait))
        CHECK(reduced.alwaysAfter.at(w) == std::vector<int>{arrive});
    engine::CheckResult with = checked(p, true);
    REQUIRE(with.stats);
    CHECK(with.stats->mbarrierFacts > 0);
    requireSameAnswer(with, checked(p, false));
}

namespace {

// P0 announces `expected` bytes on a count-1 object and issues `copies` bulk copies of 16 bytes
// each completing on it (a TMA load split into pieces); P1 waits on phase 0, then tests it.
std::string manyCopies(int copies, int expected) {
    std::string text = "PTX many-copies\n{\n  mb @ mbarrier 0, count 1;\n  g = 1;\n";
    for (int c = 0; c < copies; ++c)
        text += "  s" + std::to_string(c) + " @ shared 0 = 0;\n";
    text += "}\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n";
    text += " mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [mb], " +
            std::to_string(expected) + " | mbarrier.try_wait.parity.shared::cta.b64 _, [mb], 0 ;\n";
    for (int c = 0; c < copies; ++c)
        text += " cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [s" +
                std::to_string(c) + "], [g], 16, [mb] | " +
                (c == 0 ? "mbarrier.test_wait.parity.shared::cta.b64 _, [mb], 0" : "") + " ;\n";
    return text + "exists (true)\n";
}

} // namespace

TEST_CASE("the facts' search counts the copies that landed on one object, not which",
          "[mbarrier-facts]") {
    // Eight copies of 16 bytes complete on one object: the full search has a state for every
    // subset that landed (2^8 = 256 and more); equal completions commute, so the reduced search
    // keeps one state per count and writes each fact for every copy it stands for. The facts
    // are the full search's, also when the announced bytes are one copy short: the phase then
    // completes with a copy still to land, and any of the eight can be that one.
    for (int expected : {8 * 16, 7 * 16}) {
        INFO("expect_tx " << expected);
        ir::Program p = lowered(manyCopies(8, expected));
        reducedAsFull(p, 60, 256);
        requireSameAnswer(checked(p, true), checked(p, false));
    }
}

namespace {

// P0 initialises `stages` objects, then waits for each stage but the last `unwaited` and reads
// its buffer; P1, with no synchronization after the inits (a cluster_sync left out), announces
// 16 bytes per copy on each and issues `copies` bulk copies completing on it. An arrive or a
// completion may then reach an object not yet initialised: mbarrier-misuse (and the arrive's
// thread need not see the init at all: mb-init-unordered, decision Q17).
std::string copiesBeforeInit(int stages, int copies, int unwaited = 0) {
    std::string text = "PTX copies-before-init\n{\n";
    for (int s = 0; s < stages; ++s) {
        const std::string n = std::to_string(s);
        text += "  mb" + n + " @ mbarrier 0; a" + n + " @ shared 0 = 0;\n";
    }
    text += "  g @ global = 1, bytes 16;\n}\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n";
    auto row = [&](const std::string& left, const std::string& right) {
        text += " " + left + " | " + right + " ;\n";
    };
    for (int s = 0; s < stages; ++s)
        row("mbarrier.init.shared::cta.b64 [mb" + std::to_string(s) + "], 1", "");
    for (int s = 0; s < stages; ++s) {
        const std::string n = std::to_string(s);
        const bool waited = s < stages - unwaited;
        row(waited ? "mbarrier.try_wait.parity.shared::cta.b64 _, [mb" + n + "], 0" : "",
            "mbarrier.arrive.expect_tx.shared::cta.b64 _, [mb" + n + "], " +
                std::to_string(16 * copies));
        for (int c = 0; c < copies; ++c)
            row(c == 0 && waited ? "ld.u32 r" + n + ", [a" + n + "]" : "",
                "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [a" + n +
                    "], [g], 16, [mb" + n + "]");
    }
    return text + "exists (true)\n";
}

/** The operations of `p` on location `name`. */
std::set<int> opsOn(const ir::Program& p, const std::string& name) {
    std::set<int> out;
    for (const auto& e : p.events)
        if (e.has(ir::Tag::MB) && p.locations[static_cast<std::size_t>(e.location)].name == name)
            out.insert(e.id);
    return out;
}

} // namespace

TEST_CASE("the facts' search ends a schedule at a misuse after which no wait can return",
          "[mbarrier-facts]") {
    // Each stage's init may fall anywhere among its copies' completions, and the stages'
    // outcomes multiply: cute's Hopper tutorial (three stages of 32 copies) passed 1.4 million
    // states. Ended at such a misuse, the search keeps the schedules that initialise first.
    // A completion or arrive before the init is lost when the init resets the object, so the
    // phase its stage's wait needs never completes: no execution where every wait returns has
    // that misuse, and the facts need no guard for it.
    ir::Program p = lowered(copiesBeforeInit(3, 4));
    auto facts = engine::schedules::observeMbarriers(p, {}, 100000);
    REQUIRE(facts.known);
    REQUIRE(facts.misuseKnown);
    CHECK(facts.misusesPast.empty());
    CHECK_FALSE(facts.endedAt.empty());
    CHECK(facts.states < 200);
    // The misuse the model still has (the arrive's thread need not see the init) is found, and
    // every answer is the one without facts.
    engine::CheckResult with = checked(p, true), without = checked(p, false);
    REQUIRE(with.stats);
    CHECK(with.stats->mbarrierFacts > 0);
    CHECK(std::any_of(with.flags.begin(), with.flags.end(),
                      [](const engine::RaisedFlag& f) { return f.name == "mbarrier-misuse"; }));
    requireSameAnswer(with, without);
}

TEST_CASE("the facts' search goes on past a misuse on an object no thread waits for",
          "[mbarrier-facts]") {
    // The last stage is loaded and never waited for (cute's Hopper tutorial with fewer k-tiles
    // than stages): its copies may complete before its init in an execution where every wait
    // returns. The search goes on past them (the state machine says what they leave), so the
    // facts hold in those executions too and leave the solver no premise: before, they held
    // only where none of them was misuse, and that premise was a query of 18 s on the
    // tutorial, and its data-race proof 31 s without the flags' bounds.
    ir::Program p = lowered(copiesBeforeInit(3, 4, 1));
    auto facts = engine::schedules::observeMbarriers(p, {}, 100000);
    REQUIRE(facts.known);
    REQUIRE(facts.misuseKnown);
    REQUIRE_FALSE(facts.misusesPast.empty());
    const std::set<int> last = opsOn(p, "mb2");
    CHECK(std::includes(last.begin(), last.end(), facts.misusesPast.begin(),
                        facts.misusesPast.end()));
    engine::CheckResult with = checked(p, true), without = checked(p, false);
    CHECK(std::any_of(with.flags.begin(), with.flags.end(),
                      [](const engine::RaisedFlag& f) { return f.name == "mbarrier-misuse"; }));
    REQUIRE(with.stats);
    CHECK(with.stats->mbarrierMisusesPast > 0);
    CHECK(with.stats->mbarrierMisusesLeft == 0);
    CHECK(with.stats->flagWitnessesPruned > 0);
    requireSameAnswer(with, without);
}

TEST_CASE("mbarrier facts: cta_group::2 pairs run without their rendezvous, and facts are found",
          "[facts]") {
    // Before, a program with a cta_group::2 alloc or dealloc was outside the search: CUTLASS's
    // 2-SM kernels got no facts, and their flag queries took minutes.
    const fs::path file =
        fs::path(PTXMC_SOURCE_DIR) / "litmus/tcgen05/lifetime/cg2-alloc-pair-then-mma.litmus";
    ir::Program p = lower::lowerTest(litmus::parseLitmusFile(file.string()));
    auto facts = engine::schedules::observeMbarriers(p, ir::realTimePairs(p), 1000);
    INFO(facts.why);
    REQUIRE(facts.known);
    CHECK_FALSE(facts.completeSchedule.empty());
    CHECK_FALSE(facts.phases.empty());
}

namespace {

ir::Program corpusTest(const std::string& name) {
    const fs::path file = fs::path(PTXMC_SOURCE_DIR) / "litmus" / name;
    return lower::lowerTest(litmus::parseLitmusFile(file.string()));
}

bool raises(const engine::CheckResult& r, const std::string& flag) {
    return std::any_of(r.flags.begin(), r.flags.end(),
                       [&](const engine::RaisedFlag& f) { return f.name == flag; });
}

} // namespace

TEST_CASE("facts for executions that hang: the gates no end state leaves", "[mbarrier-facts]") {
    // P1's parity-0 wait blocks when it first looks in phase 2, and P0's bar.sync with it: both
    // are left at an end state of the real-time search (P1's bar.sync, never reached, too), and
    // the hang names both. P0's own wait follows its arrive and always returns.
    ir::Program p = corpusTest("async/hang/hang-through-bar.sync.litmus");
    auto facts = engine::schedules::observeMbarriers(p, ir::realTimePairs(p), 1000);
    REQUIRE(facts.known);
    CHECK(facts.endedAt.empty());
    for (const ir::Event& e : p.events) {
        if (ir::gateKind(e) == ir::GateKind::None) continue;
        const bool returns = e.thread == 0 && e.mbOp == ir::MbOp::Wait;
        INFO("gate " << e.id << " of P" << e.thread);
        CHECK(facts.leftAtEnd.count(e.id) == (returns ? 0U : 1U));
    }
    engine::CheckResult with = checked(p, true), without = checked(p, false);
    REQUIRE(with.stats);
    CHECK(with.stats->hangMbarrierFacts > 0);
    CHECK(raises(with, "hang"));
    requireSameAnswer(with, without);
    // Where no wait can block, no end state leaves one.
    ir::Program handshake = corpusTest("async/hang/parity-reuse-handshake.litmus");
    auto none = engine::schedules::observeMbarriers(handshake, ir::realTimePairs(handshake), 1000);
    REQUIRE(none.known);
    CHECK(none.leftAtEnd.empty());
}

TEST_CASE("facts for executions that hang hold where no schedule-ending misuse runs",
          "[mbarrier-facts]") {
    // The k=0 commit arrives on the wrong stage: every execution hangs, and the k=1 commit's
    // arrive in phase 1 with no True wait before it is a misuse some real-time schedule ends
    // at. The facts are asserted where it is none, and the hanging executions that misuse the
    // barrier are still found (the Deadlock's mbarrier-misuse).
    ir::Program p = corpusTest("kernels/tma-umma/umma-2x3-commit-wrong-stage-k0.litmus");
    auto facts = engine::schedules::observeMbarriers(p, ir::realTimePairs(p), 100000);
    REQUIRE(facts.known);
    REQUIRE(facts.misuseKnown);
    CHECK_FALSE(facts.endedAt.empty());
    engine::CheckResult with = checked(p, true), without = checked(p, false);
    REQUIRE(with.stats);
    CHECK(with.stats->hangMbarrierFacts > 0);
    CHECK(with.observation == engine::Observation::Deadlock);
    CHECK(raises(with, "mbarrier-misuse"));
    requireSameAnswer(with, without);
}

TEST_CASE("the facts' search runs each way of a choice that guards a wait", "[mbarrier-facts]") {
    // nondet.pred (a branch the extraction could not decide) picks the parity P1 waits for: each
    // way is searched with its own waits, and its facts hold where the execution goes that way.
    ir::Program p = corpusTest("control/nondet-wait-parity-by-way.litmus");
    engine::CheckResult with = checked(p, true), without = checked(p, false);
    REQUIRE(with.stats);
    CHECK(with.stats->mbarrierFacts > 0);
    CHECK(with.stats->hangMbarrierFacts > 0);
    CHECK(raises(with, "hang"));
    CHECK(raises(with, "data-race"));
    requireSameAnswer(with, without);
    // Each object on its own (decision Q22's variant) too: a guarded operation's mbo pairs are
    // those of the set of per-object operations where it happens.
    const cat::ReadingId perObject{"q22-mbarrier-order-per-object"};
    engine::CheckResult alone = checked(p, true, 300000, perObject);
    REQUIRE(alone.stats);
    CHECK(alone.stats->mbarrierFacts > 0);
    requireSameAnswer(alone, checked(p, false, 300000, perObject));
    // On a way, an event after an absent arm still follows what came before the arm: P0's last
    // arrive runs after its wait on both ways, so the wait is left at an end state and the hang
    // stays (the search once let that arrive run first).
    ir::Program arms = corpusTest("control/nondet-arms-before-own-arrive.litmus");
    engine::CheckResult withArms = checked(arms, true);
    REQUIRE(withArms.stats);
    CHECK(withArms.stats->hangMbarrierFacts > 0);
    CHECK(raises(withArms, "hang"));
    requireSameAnswer(withArms, checked(arms, false));
    // A guard on a value read from memory is no choice: no way to search, no facts.
    ir::Program read = corpusTest("control/guarded-wait-hang.litmus");
    engine::CheckResult guarded = checked(read, true);
    REQUIRE(guarded.stats);
    CHECK(guarded.stats->mbarrierFacts == 0);
    CHECK(guarded.stats->hangMbarrierFacts == 0);
}

TEST_CASE("where every real-time schedule passed its limit, the facts are each object's own",
          "[mbarrier-facts]") {
    // Encodings leaves out the search of every object's schedules together where the hang
    // search of every real-time schedule passed its limit (example 48's 80 warps): the facts
    // then come from each object's own search, asked once for the one way this program has.
    ir::Program p = lowered(kEachObject);
    engine::CheckOptions options;
    engine::smt::Z3Context ctx;
    int asked = 0;
    engine::smt::Z3Session skipped(ctx, p, builtinModel(), options, false, nullptr, false, [&] {
        ++asked;
        return true;
    });
    engine::smt::Z3Session joint(ctx, p, builtinModel(), options, false, nullptr, false,
                                 [] { return false; });
    CHECK(asked == 1);
    const engine::smt::MbarrierFactsSummary& each = skipped.mbarrierFacts();
    const engine::smt::MbarrierFactsSummary& together = joint.mbarrierFacts();
    CHECK(each.explored);
    CHECK(together.explored);
    CHECK(each.facts > 0);
    CHECK(each.states != together.states); // another search: each object's, in rounds
}
