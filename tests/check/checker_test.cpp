// End-to-end behaviour of the Z3 engine on small tests: states, deadlocks, flags, unknown.
#include "../unit/BuiltinModel.hpp"
#include "../unit/LitmusText.hpp"
#include "cat/Loader.hpp"
#include "cat/Resolver.hpp"
#include "check/Check.hpp"
#include "engine/ResultBuilder.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"

#include <catch2/catch.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace ptxmc;
using engine::Observation;
using testing::builtinModel;

namespace {

engine::CheckResult run(const std::string& text, engine::CheckOptions options = {}) {
    return engine::check(testing::lowered(text), builtinModel(), options);
}

std::vector<std::vector<std::int64_t>> states(const engine::CheckResult& r) {
    std::vector<std::vector<std::int64_t>> out;
    for (const auto& s : r.states)
        out.push_back(s.values);
    return out;
}

} // namespace

TEST_CASE("message passing with release/acquire forbids only the stale state", "[checker]") {
    auto r = run(R"(PTX MP
{ x = 0; y = 0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1 | ld.acquire.gpu r0, y ;
 st.release.gpu y, 1 | ld.weak r1, x ;
exists (P1:r0 == 1 /\ P1:r1 == 0))");
    REQUIRE(r.observation == Observation::Never);
    REQUIRE(states(r) == std::vector<std::vector<std::int64_t>>{{0, 0}, {0, 1}, {1, 1}});
    REQUIRE_FALSE(r.ok);
}

TEST_CASE("relaxed message passing is allowed and raises the data-race flag", "[checker]") {
    auto r = run(R"(PTX MP-relaxed
{ x = 0; y = 0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1 | ld.relaxed.gpu r0, y ;
 st.relaxed.gpu y, 1 | ld.weak r1, x ;
exists (P1:r0 == 1 /\ P1:r1 == 0))");
    REQUIRE(r.observation == Observation::Sometimes);
    REQUIRE(r.states.size() == 4);
    REQUIRE(r.flags.size() == 1);
    REQUIRE(r.flags[0].name == "data-race");
}

TEST_CASE("a spinning wait nobody completes is a deadlock, not a verdict", "[checker]") {
    auto r = run(R"(PTX never-arrives
{ mb @ mbarrier 0, count 1; x = 0; }
 P0@cta 0,gpu 0 ;
 mbarrier.try_wait.parity.shared::cta.b64 _, [mb], 0 ;
 ld.weak r0, x ;
exists (P0:r0 == 0))");
    REQUIRE(r.observation == Observation::Deadlock);
    REQUIRE(r.deadlockedWaits.size() == 1);
    REQUIRE(r.deadlockedWaits[0].wait);
    const engine::EventRef& wait = *r.deadlockedWaits[0].wait;
    CHECK(wait.thread == 0);
    CHECK(wait.event >= 0);
    CHECK(wait.text.rfind("mbarrier.try_wait.parity", 0) == 0);
    CHECK(wait.loc.line == 4);
    // it never succeeds alone, and the note says why; the barrier and parity are named
    CHECK(wait.note == "nothing arrives on mb");
    CHECK(wait.barrier == "mb");
    CHECK(wait.parity == 0);
    CHECK(wait.iteration == -1);
    CHECK(engine::toString(wait) == "P0: mbarrier.try_wait.parity.shared::cta.b64 on mb, parity 0 "
                                    "(t.litmus:4:2, nothing arrives on mb)");
    REQUIRE(r.states.empty());
}

TEST_CASE("waiting on parity 1 of a fresh mbarrier returns at once", "[checker]") {
    auto r = run(R"(PTX parity
{ mb @ mbarrier 0, count 1; }
 P0@cta 0,gpu 0 ;
 mbarrier.test_wait.parity.shared::cta.b64 p, [mb], 1 ;
 mbarrier.test_wait.parity.shared::cta.b64 q, [mb], 0 ;
forall (P0:p == 1 /\ P0:q == 0))");
    REQUIRE(r.observation == Observation::Always);
}

TEST_CASE("the mma result is visible after commit, wait and after_thread_sync", "[checker]") {
    const char* base = R"(PTX commit
{ a @ shared 0 = 2; b @ shared 0 = 3; d @ tmem 0 = 0; mb @ mbarrier 0, count 1; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 tcgen05.mma.cta_group::1.kind::f16 [d], [a], [b], I0, 0 | mbarrier.try_wait.parity.relaxed.cluster.shared::cta.b64 _, [mb], 0 ;
 tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [mb] | FENCE ;
  | tcgen05.ld.sync.aligned.32x32b.x1.b32 {r0}, [d] ;
  | tcgen05.wait::ld.sync.aligned ;
exists (P1:r0 == 0))";
    std::string with = base, without = base;
    with.replace(with.find("FENCE"), 5, "tcgen05.fence::after_thread_sync");
    without.replace(without.find("FENCE"), 5, "");
    auto r1 = run(with);
    REQUIRE(r1.observation == Observation::Never);
    REQUIRE(states(r1) == std::vector<std::vector<std::int64_t>>{{6}});
    // Without after_thread_sync the ld may run before the wait (Q1, literal text).
    auto r2 = run(without);
    REQUIRE(r2.observation == Observation::Sometimes);
    REQUIRE(r2.flags.size() == 1);
    REQUIRE(r2.flags[0].name == "tmem-race");
}

TEST_CASE("a solver that runs out of resources answers unknown", "[checker]") {
    engine::CheckOptions tight;
    tight.rlimit = 1;
    auto r = run(R"(PTX SB
{ x = 0; y = 0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 st.relaxed.cta x, 1 | st.relaxed.cta y, 1 ;
 ld.relaxed.cta r0, y | ld.relaxed.cta r1, x ;
exists (P0:r0 == 0 /\ P1:r1 == 0))",
                 tight);
    REQUIRE(r.observation == Observation::Unknown);
    REQUIRE_FALSE(r.unknownReason.empty());
    // Z3's own words, classified where Z3 gives them: a limit, not an answer.
    REQUIRE(r.unknownReason.kind == engine::UnknownKind::SolverLimit);
    REQUIRE(r.stoppedByLimit());
    REQUIRE(r.states.empty());
}

namespace {

/** The `by` lines of flag `name`, or nullopt when it is not raised. */
std::optional<std::vector<engine::FlagWitness>> flagEvents(const engine::CheckResult& r,
                                                           const std::string& name) {
    for (const auto& f : r.flags)
        if (f.name == name) return f.witnesses;
    return std::nullopt;
}

// P0 completes phase 0, sees it, completes phase 1; P1 spins on parity 0 and, looking late,
// sees phase 2 (parity 0 again). P1 then never reaches bar.sync, so P0 blocks there too.
const char* kParityReuse = R"(PTX reuse
{ mb @ mbarrier 0, count 1; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 mbarrier.arrive.shared::cta.b64 _, [mb] | mbarrier.try_wait.parity.shared::cta.b64 _, [mb], 0 ;
 mbarrier.try_wait.parity.shared::cta.b64 _, [mb], 0 | bar.sync 0 ;
 mbarrier.arrive.shared::cta.b64 _, [mb] | ;
 bar.sync 0 | ;
exists (true))";

} // namespace

TEST_CASE("a wait that can block forever raises hang and names every held gate", "[checker]") {
    auto r = run(kParityReuse);
    REQUIRE(r.observation == Observation::Always); // the executions that finish
    auto events = flagEvents(r, "hang");
    REQUIRE(events);
    REQUIRE(events->size() == 2);
    REQUIRE(events->at(0).size() == 1);
    REQUIRE(events->at(1).size() == 1);
    const engine::EventRef& bar = events->at(0).front();
    CHECK(bar.thread == 0);
    CHECK(bar.text.rfind("bar.sync", 0) == 0);
    CHECK(bar.loc.line == 7);
    CHECK(bar.loc.col == 2);
    CHECK(engine::toString(bar).rfind("P0: bar.sync (t.litmus:7:2)", 0) == 0);
    const engine::EventRef& wait = events->at(1).front();
    CHECK(wait.thread == 1);
    CHECK(wait.text.rfind("mbarrier.try_wait", 0) == 0);
    CHECK(wait.loc.line == 4);
}

TEST_CASE("waits whose phases always complete in time raise no hang", "[checker]") {
    auto r = run(R"(PTX handshake
{ full @ mbarrier 0, count 1; empty @ mbarrier 0, count 1; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 mbarrier.arrive.shared::cta.b64 _, [full] | mbarrier.try_wait.parity.shared::cta.b64 _, [full], 0 ;
 mbarrier.try_wait.parity.shared::cta.b64 _, [empty], 0 | mbarrier.arrive.shared::cta.b64 _, [empty] ;
 mbarrier.arrive.shared::cta.b64 _, [full] | ;
exists (true))");
    REQUIRE(r.observation == Observation::Always);
    CHECK_FALSE(flagEvents(r, "hang"));
    CHECK_FALSE(flagEvents(r, "mbarrier-misuse"));
}

TEST_CASE("an arrive of the next phase before any True wait is mbarrier misuse", "[checker]") {
    auto r = run(R"(PTX phase-rule
{ mb @ mbarrier 0, count 1; }
 P0@cta 0,gpu 0 ;
 mbarrier.arrive.shared::cta.b64 _, [mb] ;
 mbarrier.arrive.shared::cta.b64 _, [mb] ;
exists (true))");
    auto events = flagEvents(r, "mbarrier-misuse");
    REQUIRE(events);
    REQUIRE(events->size() == 1);
    REQUIRE(events->at(0).size() == 1);
    CHECK(engine::toString(events->at(0).front()) ==
          "P0: mbarrier.arrive.shared::cta.b64 on mb (t.litmus:5:2)");
}

TEST_CASE("barriers taken in opposite orders are a static deadlock", "[checker]") {
    auto r = run(R"(PTX crossed-barriers
{ }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 bar.sync 1, 64 | bar.sync 2, 64 ;
 bar.sync 2, 64 | bar.sync 1, 64 ;
exists (true))");
    REQUIRE(r.observation == Observation::Deadlock);
    REQUIRE_FALSE(r.deadlockedWaits.empty());
    CHECK_FALSE(r.deadlockedWaits.front().wait); // found by lowering, before any search
    CHECK(r.deadlockedWaits.front().reason.find("for its own thread") != std::string::npos);
}

TEST_CASE("both engines name waits that block only jointly the same typed way", "[checker]") {
    const char* circular = R"(PTX circular
{ mbA @ mbarrier 0, count 1; mbB @ mbarrier 0, count 1; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 mbarrier.try_wait.parity.shared::cta.b64 _, [mbA], 0 | mbarrier.try_wait.parity.shared::cta.b64 _, [mbB], 0 ;
 mbarrier.arrive.shared::cta.b64 _, [mbB] | mbarrier.arrive.shared::cta.b64 _, [mbA] ;
exists (true))";
    for (engine::EngineKind kind : {engine::EngineKind::Z3, engine::EngineKind::Enumerate}) {
        engine::CheckOptions options;
        options.engine = kind;
        auto r = run(circular, options);
        REQUIRE(r.observation == Observation::Deadlock);
        REQUIRE(r.deadlockedWaits.size() == 2);
        std::set<int> threads;
        for (const auto& b : r.deadlockedWaits) {
            REQUIRE(b.wait);
            // each holds only with the other: every arrive on its barrier comes after the
            // other thread's blocked wait
            CHECK(b.wait->note.rfind("blocks only together with the other waits listed: every "
                                     "arrive on mb",
                                     0) == 0);
            CHECK(b.wait->note.find("P" + std::to_string(1 - b.wait->thread) +
                                    " line 4's wait holds back line 5") != std::string::npos);
            CHECK(b.wait->loc.line == 4);
            threads.insert(b.wait->thread);
        }
        CHECK(threads == std::set<int>{0, 1});
    }
}

TEST_CASE("the cross-check compares the loops that reached the bound as typed values",
          "[checker]") {
    engine::CheckResult a;
    engine::EventRef cut;
    cut.thread = 1;
    cut.text = "bra LOOP";
    cut.loc = SourceLoc{"t.litmus", 6, 2};
    a.boundReached = {cut};
    engine::CheckResult b = a;
    CHECK(engine::sameAnswer(a, b));
    b.boundReached[0].loc.col = 3;
    CHECK_FALSE(engine::sameAnswer(a, b));
    b = a;
    b.boundReached[0].thread = 0;
    CHECK_FALSE(engine::sameAnswer(a, b));
}

TEST_CASE("no execution: no states, the forbidding axioms sorted and once each", "[checker]") {
    ir::Program p = lower::lowerTest(litmus::parseLitmus(R"(PTX none
{ x = 0; }
 P0@cta 0,gpu 0 ;
 ld.weak r0, x ;
exists (P0:r0 == 0))",
                                                         "t.litmus"));
    engine::CheckResult r = engine::resultSkeleton(p);
    engine::setNoExecution(r, p, {"sc", "atomicity", "sc"});
    CHECK(r.states.empty());
    CHECK(r.observation == Observation::Never);
    CHECK_FALSE(r.ok);
    REQUIRE(r.forbiddenBy);
    CHECK(*r.forbiddenBy == std::vector<std::string>{"atomicity", "sc"});
}
