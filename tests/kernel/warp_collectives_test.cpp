// shfl.sync's source lanes, vote.sync's results, and the collectives a group of lanes runs.
#include "EntryText.hpp"
#include "kernel/WarpCollectives.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;
using namespace ptxmc::kernel;

TEST_CASE("warp collectives: a mode is the third part of the opcode", "[collectives]") {
    CHECK(shflMode({"shfl", "sync", "bfly", "b32"}) == ShflMode::Bfly);
    CHECK(shflMode({"shfl", "sync"}) == ShflMode::Idx);
    CHECK(shflMode({"shfl", "sync", "b32"}) == ShflMode::Other);
    CHECK(voteMode({"vote", "sync", "ballot", "b32"}) == VoteMode::Ballot);
    CHECK(voteMode({"vote", "sync", "any", "pred"}) == VoteMode::Any);
    CHECK(voteMode({"vote", "sync"}) == VoteMode::Other);
}

TEST_CASE("warp collectives: shfl reads a member lane, else its own", "[collectives]") {
    const std::uint64_t all = 0xFFFFFFFF;
    CHECK(shflSource(ShflMode::Idx, 5, 0, all) == 0);
    CHECK(shflSource(ShflMode::Idx, 5, 33, all) == 1); // b is taken mod 32
    CHECK(shflSource(ShflMode::Up, 5, 2, all) == 3);
    CHECK(shflSource(ShflMode::Up, 1, 2, all) == 1); // below lane 0: its own
    CHECK(shflSource(ShflMode::Down, 5, 2, all) == 7);
    CHECK(shflSource(ShflMode::Down, 30, 4, all) == 30);
    CHECK(shflSource(ShflMode::Bfly, 5, 1, all) == 4);
    CHECK(shflSource(ShflMode::Bfly, 5, 1, 0x20) == 5); // lane 4 does not run it
    CHECK(shflSource(ShflMode::Other, 5, 1, all) == 5);
}

TEST_CASE("warp collectives: vote over the members", "[collectives]") {
    CHECK(voteResult(VoteMode::Ballot, 0x5, 0xF) == 0x5u);
    CHECK(voteResult(VoteMode::Any, 0x0, 0xF) == 0u);
    CHECK(voteResult(VoteMode::Any, 0x4, 0xF) == 1u);
    CHECK(voteResult(VoteMode::All, 0xF, 0xF) == 1u);
    CHECK(voteResult(VoteMode::All, 0x7, 0xF) == 0u);
    CHECK(voteResult(VoteMode::Uni, 0x0, 0xF) == 1u);
    CHECK(voteResult(VoteMode::Uni, 0x3, 0xF) == 0u);
    CHECK_FALSE(voteResult(VoteMode::Other, 0x3, 0xF));
}

TEST_CASE("warp collectives: a group of lanes runs elect, vote and shfl together",
          "[collectives]") {
    const Module m = testing::entryModule("\telect.sync %r1|%p1, -1;\n"
                                          "\tvote.sync.any.pred %p2, %p3, -1;\n"
                                          "\tshfl.sync.idx.b32 %r2, %r3, 0, 31, -1;\n"
                                          "\tactivemask.b32 %r4;\n"
                                          "\tret;\n");
    const Function& f = m.functions.at(0);
    const testing::BareValues bare;
    const LaneValues& values = bare.values;
    std::vector<Lane> lanes(3);
    std::vector<Lane*> group;
    for (int l = 0; l < 3; ++l) {
        Lane& L = lanes[static_cast<std::size_t>(l)];
        L.lane = l + 4; // lanes 4, 5, 6 run together
        L.regs["%p3"] = Val::of(l == 2 ? 1 : 0);
        L.regs["%r3"] = Val::of(static_cast<std::uint64_t>(100 + l));
        group.push_back(&L);
    }
    for (std::size_t i = 0; i < 4; ++i)
        runCollective(group, f.body[i], values);
    CHECK(lanes[0].regs.at("%p1") == Val::of(1)); // the first lane of the group is elected
    CHECK(lanes[1].regs.at("%p1") == Val::of(0));
    CHECK(lanes[2].regs.at("%r1") == Val::of(4));
    CHECK(lanes[0].regs.at("%p2") == Val::of(1)); // lane 6's predicate is set
    // lane 0 is not a member: each lane reads its own value
    CHECK(lanes[1].regs.at("%r2") == Val::of(101));
    CHECK(lanes[2].regs.at("%r4") == Val::of(0x70));
    CHECK(lanes[0].pc == 4);
    lanes[1].regs["%p3"] = Val{false, 2, 0};
    runCollective(group, f.body[1], values);
    CHECK(lanes[0].regs.at("%p2").field == 2); // unknown, naming the field a lane's input needs
}
