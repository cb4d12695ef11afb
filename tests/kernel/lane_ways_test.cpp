// A lane split at a branch on data whose sides differ, and the two ways joined where they meet.
#include "kernel/LaneWays.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;
using namespace ptxmc::kernel;

namespace {

Step stepOfStatement(std::size_t stmt) {
    Step s;
    s.stmt = stmt;
    return s;
}

/** A lane with one step recorded, about to split at the branch at statement 4 (joins at 9). */
Lane laneAboutToSplit() {
    Lane L;
    L.lane = 5;
    L.pc = 4;
    L.steps = {stepOfStatement(1)};
    L.regs["%r1"] = Val::of(1);
    L.pendingFork = Lane::Fork{DataChoice{4, 0, true}, 9, 1};
    return L;
}

} // namespace

TEST_CASE("lane ways: a split goes both ways, in different ways' keys", "[lane-ways]") {
    Lane taken = laneAboutToSplit();
    Lane other = splitLane(taken, {7, 5});
    CHECK(taken.pc == 7);
    CHECK(other.pc == 5);
    CHECK_FALSE(taken.pendingFork);
    CHECK(taken.forks.back().way.taken);
    CHECK_FALSE(other.forks.back().way.taken);
    CHECK(waysKey(taken) == "4:0:1;");
    CHECK(waysKey(other) == "4:0:0;");
    CHECK_FALSE(twins(taken, other)); // neither is at the join yet
}

TEST_CASE("lane ways: twins at the join become one lane, both ways' steps guarded", "[lane-ways]") {
    Lane taken = laneAboutToSplit();
    Lane other = splitLane(taken, {7, 5});
    taken.steps.push_back(stepOfStatement(7));
    taken.regs["%r1"] = Val::of(2);
    taken.regs["%r2"] = Val::of(3);
    taken.atJoin = true;
    other.steps.push_back(stepOfStatement(5));
    other.steps.push_back(stepOfStatement(6));
    other.regs["%r2"] = Val::of(3);
    other.done = true; // the other way ended the thread
    REQUIRE(twins(taken, other));
    std::vector<Lane> lanes{other, taken};
    REQUIRE(mergeJoined(lanes));
    REQUIRE(lanes.size() == 1);
    const Lane& joined = lanes[0];
    REQUIRE(joined.steps.size() == 4); // before the split, the taken way's, then the other's
    CHECK(joined.steps[1].stmt == 7);
    CHECK(joined.steps[2].stmt == 5);
    CHECK(joined.forks.empty());
    CHECK(joined.pc == 9);
    CHECK(joined.done);
    CHECK_FALSE(joined.regs.at("%r1").known); // the ways disagree: data
    CHECK(joined.regs.at("%r2") == Val::of(3));
    CHECK_FALSE(mergeJoined(lanes));
}

TEST_CASE("lane ways: merged values keep the field and the probe they came from", "[lane-ways]") {
    Lane a, b, into;
    a.regs["%r1"] = Val::of(4);
    b.regs["%r1"] = Val{false, 2, 0, 1};
    b.regs["%r3"] = Val{false, 0, 0, 3};
    a.local[16] = Val::of(1);
    b.local[16] = Val::of(1);
    b.local[24] = Val::of(2);
    mergeValues(into, a, b);
    CHECK(into.regs.at("%r1").field == 2);
    CHECK(into.regs.at("%r1").probe == 1);
    CHECK(into.regs.at("%r3").probe == 3);
    CHECK(into.local.at(16) == Val::of(1));
    CHECK_FALSE(into.local.at(24).known);
}
