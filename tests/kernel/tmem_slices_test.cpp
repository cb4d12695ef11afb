// TmemSlices: accumulators, the slices that stores cut, and the columns an access covers.
#include "kernel/TmemSlices.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc::kernel;
using Names = std::vector<std::string>;

TEST_CASE("an accumulator only mma instructions write is one location", "[kernel][tmem]") {
    TmemSlices t;
    t.addAccumulator(0);
    t.addAccumulator(64);
    t.addBound(128);
    REQUIRE(t.accumulatorOf(70) == 64);
    REQUIRE(t.accumulatorOf(10) == 0);
    REQUIRE(t.names({64, 80, 2}) == Names{"tmem_64"});
    REQUIRE(t.names({0, TmemSlices::kEnd, TmemSlices::kAllQuarters}) == Names{"tmem_0"});
}

TEST_CASE("stores cut their accumulator by lane quarter and column", "[kernel][tmem]") {
    TmemSlices t;
    t.addAccumulator(64);
    t.addWrite({64, 96, 1}); // P: warp 1's quarter, columns 64-95
    t.addBound(128);         // the mma's D: N = 64
    // warp 1's load of columns 64-79 reads its quarter's P slice only
    REQUIRE(t.names({64, 80, 1}) == Names{"tmem_64_l32_c64"});
    // a load of columns 90-99 covers P and the rest of S
    REQUIRE(t.names({90, 100, 1}) == Names{"tmem_64_l32_c64", "tmem_64_l32_c96"});
    // the mma writes S's columns in every quarter, not the statistics column at 128
    REQUIRE(t.names({64, 128, TmemSlices::kAllQuarters}).size() == 8);
    REQUIRE(t.names({128, 129, 0}) == Names{"tmem_64_l0_c128"});
}

TEST_CASE("slice names give their quarter", "[kernel][tmem]") {
    REQUIRE(TmemSlices::quarterOf("tmem_64_l96_c128") == 3);
    REQUIRE(TmemSlices::quarterOf("tmem_64") == TmemSlices::kAllQuarters);
    REQUIRE(TmemSlices::quarterOf("tmem_64_c128") == TmemSlices::kAllQuarters);
    REQUIRE(TmemSlices::quarterOf("full_bar_l1_c2") == TmemSlices::kAllQuarters);
    REQUIRE(TmemSlices::quarterOf("tmem_full_lane_c2") == TmemSlices::kAllQuarters);
    REQUIRE(TmemSlices::inQuarter("tmem_64_l96_c128", 1) == "tmem_64_l32_c128");
}

TEST_CASE("the columns of an access follow its shape and .num", "[kernel][tmem]") {
    REQUIRE(tmemColumns({"tcgen05", "ld", "sync", "aligned", "32x32b", "x16", "b32"}) == 16);
    REQUIRE(tmemColumns({"tcgen05", "ld", "sync", "aligned", "16x256b", "x2", "b32"}) == 16);
    REQUIRE(tmemColumns({"tcgen05", "ld", "sync", "aligned", "16x64b", "x1", "b32"}) == 2);
    REQUIRE(tmemColumns(
                {"tcgen05", "st", "sync", "aligned", "32x32b", "x4", "unpack::16b", "b32"}) == 8);
    REQUIRE(tmemColumns({"tcgen05", "ld", "sync", "aligned", "16x32bx2", "x1", "b32"}) ==
            TmemSlices::kEnd);
    // kind::f16, M = 128, N = 64: (64 >> 3) << 17 | (128 >> 4) << 24
    REQUIRE(mmaColumns((8u << 17) | (8u << 24) | (1u << 4)) == 64);
}
