// shfl.sync's source lanes and vote.sync's results over the lanes that run them together.
#include "kernel/WarpCollectives.hpp"

#include <catch2/catch.hpp>

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
