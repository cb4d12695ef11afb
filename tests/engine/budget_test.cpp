// engine::Budget: the watchdog's verdict reaches polls, interrupts and allocations.
#include "engine/Budget.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <thread>
#include <vector>

using namespace ptxmc;
using namespace std::chrono_literals;

namespace {

engine::CheckOptions timeoutOf(double seconds) {
    engine::CheckOptions o;
    o.timeoutSeconds = seconds;
    o.memoryLimitMiB = 0;
    return o;
}

/** Waits (at most 5 s) until `budget` has reached a limit. */
void waitForLimit(const engine::Budget& budget) {
    for (int i = 0; i < 500 && !budget.reached(); ++i)
        std::this_thread::sleep_for(10ms);
}

} // namespace

TEST_CASE("An unlimited budget never stops anything") {
    engine::CheckOptions o = timeoutOf(0);
    engine::Budget budget(o, engine::Clock::now());
    bool called = false;
    auto hook = budget.onLimit([&] { called = true; });
    CHECK_NOTHROW(budget.poll());
    CHECK_FALSE(budget.reached());
    CHECK_FALSE(called);
}

TEST_CASE("A passed deadline stops polls and runs the registered interrupt once") {
    engine::Budget budget(timeoutOf(0.02), engine::Clock::now());
    std::atomic<int> calls{0};
    auto hook = budget.onLimit([&] { ++calls; });
    waitForLimit(budget);
    REQUIRE(budget.reached());
    CHECK(budget.reached()->kind == engine::UnknownKind::Timeout);
    CHECK_THROWS_WITH(budget.poll(), Catch::Contains("timeout") && Catch::Contains("0.02 s"));
    for (int i = 0; i < 100 && calls.load() == 0; ++i) // the watchdog calls it after noting
        std::this_thread::sleep_for(10ms);
    CHECK(calls.load() == 1);
    // Registered after the limit: called at once.
    bool late = false;
    auto lateHook = budget.onLimit([&] { late = true; });
    CHECK(late);
}

TEST_CASE("A memory limit below the resident size stops the test and names the limit") {
    engine::CheckOptions o;
    o.memoryLimitMiB = 1; // any process is larger
    engine::Budget budget(o, engine::Clock::now());
    waitForLimit(budget);
    REQUIRE(budget.reached());
    CHECK(budget.reached()->kind == engine::UnknownKind::MemoryLimit);
    CHECK(budget.reached()->stoppedByLimit());
    CHECK_THROWS_WITH(budget.poll(),
                      Catch::Contains("memory limit") && Catch::Contains("--memory-limit 1 MiB"));
}

#if !defined(PTXMC_ASAN)
TEST_CASE("Allocations of a guarded thread fail once the limit is reached") {
    engine::Budget budget(timeoutOf(0.02), engine::Clock::now());
    // Allocations look at the watchdog's verdict, not the clock: reached() can see the
    // deadline before the watchdog does, so wait for the interrupt it runs after noting.
    std::atomic<bool> noted{false};
    auto hook = budget.onLimit([&] { noted = true; });
    for (int i = 0; i < 500 && !noted.load(); ++i)
        std::this_thread::sleep_for(10ms);
    REQUIRE(noted.load());
    std::vector<std::vector<int>> grown;
    {
        auto guard = budget.guardAllocations();
        CHECK_THROWS_AS(
            [&] {
                for (int i = 0; i < 1000; ++i)
                    grown.emplace_back(8, i);
            }(),
            engine::OverLimit);
    }
    grown.clear();
    CHECK_NOTHROW(grown.emplace_back(8, 0)); // unguarded again
    try {
        throw engine::OverLimit({engine::UnknownKind::Timeout, "timeout: x"});
    } catch (const std::bad_alloc& e) {
        CHECK(engine::allocationFailure(e).text == "timeout: x");
        CHECK(engine::allocationFailure(e).kind == engine::UnknownKind::Timeout);
    }
    const engine::UnknownReason failed = engine::allocationFailure(std::bad_alloc());
    CHECK(failed.text == "out of memory");
    CHECK(failed.kind == engine::UnknownKind::OutOfMemory);
    CHECK(failed.stoppedByLimit());
}
#endif
