// Gates in a hang: rounds of bar.sync answered once per gate, not once per path through them.
#include "../unit/LitmusText.hpp"
#include "engine/Execution.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;

namespace {

/** Four threads meeting at `rounds` bar.sync, then P0 waits on an mbarrier nobody completes. */
std::string barrierRounds(int rounds) {
    std::string text = "PTX rounds\n{ mb @ mbarrier 0, count 1; }\n"
                       " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 | P3@cta 0,gpu 0 ;\n";
    for (int r = 0; r < rounds; ++r)
        text += " bar.sync 0 | bar.sync 0 | bar.sync 0 | bar.sync 0 ;\n";
    text += " mbarrier.try_wait.parity.shared::cta.b64 _, [mb], 0 | | | ;\nexists (true)\n";
    return text;
}

int lastWait(const ir::Program& p) {
    int wait = -1;
    for (const auto& e : p.events)
        if (e.mbOp == ir::MbOp::Wait) wait = e.id;
    return wait;
}

} // namespace

TEST_CASE("forty rounds of bar.sync: each gate is answered once", "[gates]") {
    // Without remembering gates, whether round 40 passes asks round 39 of every thread, each of
    // which asks round 38 of every thread: 4^40 paths.
    const ir::Program p = testing::lowered(barrierRounds(40));
    const int wait = lastWait(p);
    REQUIRE(wait >= 0);
    REQUIRE(engine::stuckGates(p, {wait}) == std::vector<int>{wait});
    const std::vector<bool> exists = engine::gateExistence(p, {wait});
    REQUIRE(exists.at(static_cast<std::size_t>(wait)));
}

TEST_CASE("a blocked wait before the rounds holds every thread at the first bar.sync", "[gates]") {
    std::string text = "PTX first\n{ mb @ mbarrier 0, count 1; }\n"
                       " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                       " mbarrier.try_wait.parity.shared::cta.b64 _, [mb], 0 | ;\n";
    for (int r = 0; r < 30; ++r)
        text += " bar.sync 0 | bar.sync 0 ;\n";
    text += "exists (true)\n";
    const ir::Program p = testing::lowered(text);
    const int wait = lastWait(p);
    const std::vector<int> stuck = engine::stuckGates(p, {wait});
    // the wait, and P1's first bar.sync (reached, never passes); nothing after is reached
    REQUIRE(stuck.size() == 2);
    REQUIRE(stuck.front() == wait);
    const std::vector<bool> exists = engine::gateExistence(p, {wait});
    int events = 0, never = 0;
    for (const auto& e : p.events)
        if (e.thread == 1) {
            ++events;
            if (!exists.at(static_cast<std::size_t>(e.id))) ++never;
        }
    // a bar.sync is an arrive and a wait: P1 arrives at the first, and runs nothing after
    REQUIRE(events == 60);
    REQUIRE(never == 59);
}
