// engine/ScheduledRun: a complete or hanging schedule, run concretely, is an execution both
// engines allow.
#include "../unit/BuiltinModel.hpp"
#include "../unit/CorpusFiles.hpp"
#include "../unit/LitmusText.hpp"
#include "cat/Loader.hpp"
#include "cat/Readings.hpp"
#include "cat/Resolver.hpp"
#include "check/Check.hpp"
#include "engine/ScheduledRun.hpp"
#include "ir/Gates.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"
#include "smt/Schedules.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace ptxmc;
using testing::builtinModel;

namespace {

using testing::lowered;

// A relaxed arrive orders nothing: the weak store and load race, and the SC run shows it.
const char* kRacyHandOff = R"(PTX racy-hand-off
{
  x = 0;
  mb @ mbarrier 0, count 1;
}
 P0@cta 0,gpu 0                                      | P1@cta 0,gpu 0                                                 ;
 st.u32 [x], 1                                       | mbarrier.try_wait.parity.relaxed.cta.shared::cta.b64 _, [mb], 0 ;
 mbarrier.arrive.relaxed.cta.shared::cta.b64 _, [mb] | ld.u32 r0, [x]                                                 ;
exists (P1:r0 == 0)
)";

engine::CheckResult enumerated(const ir::Program& p) {
    engine::CheckOptions options;
    options.engine = engine::EngineKind::Enumerate;
    return engine::check(p, builtinModel(), options);
}

/** The run's state and each flag it raises are among the explicit engine's for `p`. */
void checkFoundByEnumeration(const ir::Program& p, const engine::ScheduledRun& run) {
    engine::CheckResult all = enumerated(p);
    CHECK(std::any_of(all.states.begin(), all.states.end(),
                      [&](const engine::FinalState& s) { return s.values == run.state; }));
    for (const auto& raised : run.flags) {
        const std::string& name = raised.first;
        CHECK(std::any_of(all.flags.begin(), all.flags.end(),
                          [&](const engine::RaisedFlag& f) { return f.name == name; }));
    }
}

} // namespace

TEST_CASE("a racy hand-off's schedule runs to its SC state and raises the race",
          "[scheduled-run]") {
    ir::Program p = lowered(kRacyHandOff);
    auto explored = engine::schedules::explore(p, 1000);
    REQUIRE(explored.completeSchedule.size() == p.events.size());
    auto run = engine::runSchedule(p, builtinModel(), std::nullopt, explored.completeSchedule);
    REQUIRE(run);
    CHECK(run->state == std::vector<std::int64_t>{1}); // the load runs after the store
    REQUIRE(run->flags.count("data-race") == 1);
    CHECK(run->flags.size() == 1);
    // A schedule that is not complete is no execution.
    std::vector<int> part(explored.completeSchedule.begin(), explored.completeSchedule.end() - 1);
    CHECK_FALSE(engine::runSchedule(p, builtinModel(), std::nullopt, part));
}

TEST_CASE("every corpus schedule run concretely is an execution the explicit engine finds",
          "[scheduled-run][corpus]") {
    std::size_t runs = 0;
    for (const auto& file : testing::corpusFiles()) {
        ir::Program p = lower::lowerTest(litmus::parseLitmusFile(file.string()));
        // The explicit engine's enumeration grows fast: small tests only.
        if (p.events.size() > 24) continue;
        auto explored = engine::schedules::explore(p, 10000);
        if (explored.completeSchedule.empty()) continue;
        auto run = engine::runSchedule(p, builtinModel(), std::nullopt, explored.completeSchedule);
        if (!run) continue;
        ++runs;
        INFO(file.string());
        checkFoundByEnumeration(p, *run);
    }
    CHECK(runs > 50);
}

TEST_CASE("every corpus schedule through a misuse, run concretely, is an execution the explicit "
          "engine finds, and most raise the misuse",
          "[scheduled-run][corpus]") {
    std::size_t runs = 0, misuses = 0;
    for (const auto& file : testing::corpusFiles()) {
        ir::Program p = lower::lowerTest(litmus::parseLitmusFile(file.string()));
        if (p.events.size() > 24) continue;
        auto facts = engine::schedules::observeMbarriers(p, ir::realTimePairs(p), 10000);
        if (facts.misuseSchedule.empty()) continue;
        auto run = engine::runSchedule(p, builtinModel(), std::nullopt, facts.misuseSchedule);
        if (!run) continue;
        ++runs;
        misuses += run->flags.count("mbarrier-misuse");
        INFO(file.string());
        checkFoundByEnumeration(p, *run);
    }
    CHECK(runs >= 5);
    CHECK(misuses * 2 > runs);
}

// A release hand-off, then a wait on a barrier nobody arrives on: P1 hangs at its second wait.
const char* kHandOffThenHang = R"(PTX hand-off-then-hang
{
  x = 0;
  mb @ mbarrier 0, count 1;
  never @ mbarrier 0, count 1;
}
 P0@cta 0,gpu 0                                      | P1@cta 0,gpu 0                                                    ;
 st.u32 [x], 1                                       | mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 _, [mb], 0    ;
 mbarrier.arrive.release.cta.shared::cta.b64 _, [mb] | ld.u32 r0, [x]                                                    ;
                                                     | mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 _, [never], 0 ;
exists (true)
)";

TEST_CASE("a hanging schedule's run holds its gate, the same run with a read the model forbids "
          "holds none",
          "[scheduled-run]") {
    ir::Program p = lowered(kHandOffThenHang);
    auto facts = engine::schedules::observeMbarriers(p, ir::realTimePairs(p), 1000);
    REQUIRE_FALSE(facts.hangSchedules.empty());
    const auto& hang = facts.hangSchedules.front();
    auto c = engine::hangChoicesOfSchedule(p, hang.schedule, hang.stuck);
    REQUIRE(c);
    const engine::ConcreteModel model(p, builtinModel());
    auto gates = engine::hangingGates(p, model, std::nullopt, *c);
    REQUIRE(gates);
    CHECK(*gates == hang.stuck); // the wait on `never`
    // The load reads the initial 0 after acquiring the arrive that follows the store of 1:
    // Causality forbids it, though the waits and the real-time order are as before.
    for (const auto& e : p.events)
        if (e.has(ir::Tag::R) && !e.has(ir::Tag::MB) && c->rf.count(e.id))
            c->rf[e.id] = p.locations[static_cast<std::size_t>(e.location)].init;
    CHECK_FALSE(engine::hangingGates(p, model, std::nullopt, *c));
    // Nothing blocked is no hanging execution, nor is a schedule that runs events after a
    // wait it takes as blocked.
    CHECK_FALSE(engine::hangChoicesOfSchedule(p, hang.schedule, {}));
    int firstWait = -1; // P1's wait on mb, which the schedule passes
    for (int e : hang.schedule)
        if (p.events[static_cast<std::size_t>(e)].mbOp == ir::MbOp::Wait && firstWait < 0)
            firstWait = e;
    REQUIRE(firstWait >= 0);
    CHECK_FALSE(engine::hangChoicesOfSchedule(p, hang.schedule, {firstWait}));
}

TEST_CASE("every corpus hanging schedule run concretely holds gates the explicit engine finds "
          "hanging",
          "[scheduled-run][corpus]") {
    // The hang encoding's search keeps schedules that stop at a wait no phase releases; the Z3
    // engine runs them concretely (engine::hangingGates) and then does not ask the solver for
    // their gates, so each gate they give must be one the explicit engine finds hanging.
    std::size_t runs = 0, programs = 0;
    for (const auto& file : testing::corpusFiles()) {
        ir::Program p = lower::lowerTest(litmus::parseLitmusFile(file.string()));
        if (p.events.size() > 24 || ir::chosenGates(p).empty()) continue;
        auto facts = engine::schedules::observeMbarriers(p, ir::realTimePairs(p), 10000);
        std::vector<std::vector<int>> gates;
        for (const auto& hang : facts.hangSchedules) {
            auto c = engine::hangChoicesOfSchedule(p, hang.schedule, hang.stuck);
            if (!c) continue;
            if (auto g = engine::hangingGates(p, engine::ConcreteModel(p, builtinModel()),
                                              std::nullopt, *c))
                gates.push_back(*g);
        }
        if (gates.empty()) continue;
        ++programs;
        INFO(file.string());
        engine::CheckResult all = enumerated(p);
        std::set<int> hanging; // each hang witness is its gate alone
        for (const auto& f : all.flags)
            if (f.name == "hang")
                for (const auto& w : f.witnesses)
                    for (const auto& e : w)
                        hanging.insert(e.event);
        // where no execution completes, the waits of a Deadlock (no hang flag then)
        for (const auto& b : all.deadlockedWaits)
            if (b.wait) hanging.insert(b.wait->event);
        for (const auto& g : gates) {
            ++runs;
            for (int gate : g)
                CHECK(hanging.count(gate) == 1);
        }
    }
    CHECK(programs >= 5);
    CHECK(runs >= programs);
}

TEST_CASE("one concrete model shared by every reading runs each schedule as a fresh one does",
          "[scheduled-run][corpus]") {
    // ConcreteModel::underReading shares the program's relations across readings: what one
    // reading made must not change another's run (flags, states, whether the model allows it).
    static const auto model = cat::resolveModel(cat::builtinModelWithReadings());
    std::vector<std::optional<cat::ReadingId>> readings{std::nullopt};
    for (const auto& r : model->readings)
        readings.emplace_back(r.reading);
    std::size_t runs = 0, differing = 0;
    for (const auto& file : testing::corpusFiles()) {
        ir::Program p = lower::lowerTest(litmus::parseLitmusFile(file.string()));
        if (p.events.size() > 24) continue;
        auto explored = engine::schedules::explore(p, 10000);
        if (explored.completeSchedule.empty()) continue;
        const engine::ConcreteModel shared(p, *model);
        std::optional<engine::ScheduledRun> first;
        for (std::size_t k = 0; k < readings.size(); ++k) {
            INFO(file.string() << " reading " << k);
            auto run = engine::runSchedule(p, shared, readings[k], explored.completeSchedule);
            auto fresh = engine::runSchedule(p, *model, readings[k], explored.completeSchedule);
            REQUIRE(run.has_value() == fresh.has_value());
            if (!run) continue;
            ++runs;
            CHECK(run->state == fresh->state);
            CHECK(run->flags == fresh->flags);
            if (k == 0)
                first = run;
            else if (first && first->flags != run->flags)
                ++differing;
        }
    }
    CHECK(runs > 500);
    CHECK(differing > 0); // some reading raises other flags than the default on the same run
}
