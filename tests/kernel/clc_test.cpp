// kernel/Clc: the try_cancel responses a tile loop reads, and the cluster each one cancels.
#include "kernel/Clc.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc::kernel;

TEST_CASE("a try_cancel response names its request and no other value", "[clc]") {
    CHECK(clc::requestOf(clc::response(0)) == 0u);
    CHECK(clc::requestOf(clc::response(5)) == 5u);
    // A value the kernel computed itself (an address, a count) is no response.
    CHECK_FALSE(clc::requestOf(0x1000).has_value());
    CHECK_FALSE(clc::requestOf(clc::response(1) ^ (1ULL << 60)).has_value());
}

TEST_CASE("with --tiles N the first N-1 requests cancel a cluster, the next fails", "[clc]") {
    CHECK(clc::cancelled(0, 2));
    CHECK_FALSE(clc::cancelled(1, 2)); // two tiles: the own one, and the one request 0 took
    CHECK_FALSE(clc::cancelled(0, 1)); // one tile: the first request fails
    CHECK(clc::cancelled(2, 4));
    CHECK_FALSE(clc::cancelled(3, 4));
}

TEST_CASE("the k-th response cancels cluster k+1 of the grid, x-major", "[clc]") {
    // A grid of 4x2 CTAs in clusters of 2x1: clusters (0,0) (2,0) (0,1) (2,1) in that order.
    const std::array<int, 3> grid{4, 2, 1}, cluster{2, 1, 1};
    auto first = [&](std::uint64_t k) { return clc::firstCta(k, grid, cluster); };
    CHECK(first(0).ctaid == std::array<std::uint64_t, 3>{2, 0, 0});
    CHECK(first(1).ctaid == std::array<std::uint64_t, 3>{0, 1, 0});
    CHECK(first(2).ctaid == std::array<std::uint64_t, 3>{2, 1, 0});
    CHECK(first(2).error.empty());
    // The grid has 4 clusters: a fourth request would name a fifth, which the message says.
    const clc::FirstCta beyond = first(3);
    CHECK_THAT(beyond.error, Catch::Contains("has 4 cluster(s)"));
    CHECK_THAT(beyond.error, Catch::Contains("at least 5 clusters"));
}
