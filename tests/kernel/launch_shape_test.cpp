// The launch a check runs: its shape from options and directives, and the special registers
// each thread reads in it.
#include "../unit/RequireInputError.hpp"
#include "kernel/LaunchShape.hpp"
#include "kernel/Module.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace ptxmc;
using namespace ptxmc::kernel;

TEST_CASE("launch shape: options first, then the entry's directives", "[launch-shape]") {
    Function f;
    f.reqntid = std::array<int, 3>{128, 1, 1};
    f.reqnctapercluster = std::array<int, 3>{2, 1, 1};
    Launch launch;
    LaunchShape s = launchShape(f, launch);
    CHECK(s.block == std::array<int, 3>{128, 1, 1});
    CHECK(s.cluster == std::array<int, 3>{2, 1, 1});
    CHECK(s.grid == s.cluster); // one cluster unless --grid says more
    CHECK(s.threads() == 128);
    CHECK(s.ctas() == 2);
    launch.block = std::array<int, 3>{32, 2, 1};
    launch.grid = std::array<int, 3>{4, 1, 1};
    s = launchShape(f, launch);
    CHECK(s.block == std::array<int, 3>{32, 2, 1});
    CHECK(s.grid == std::array<int, 3>{4, 1, 1});
    CHECK(s.dynamicShared == launch.dynamicShared);
}

TEST_CASE("launch shape: cluster instructions in a cluster nobody sized", "[launch-shape]") {
    const Module m = parseModule(R"(.version 8.7
.target sm_90a
.address_size 64
.visible .entry k()
.reqntid 32, 1, 1
{
	.reg .b32 	%r<3>;
	mov.u32 	%r1, %tid.x;
	mov.u32 	%r2, %cluster_ctarank;
	ret;
}
)",
                                 "k.ptx");
    Function f = m.functions.at(0);
    Launch launch;
    std::optional<SourceLoc> at = unsizedClusterUse(f, launch);
    REQUIRE(at);
    CHECK(at->line == 9);
    launch.cluster = std::array<int, 3>{1, 1, 1}; // --cluster 1 says it
    CHECK_FALSE(unsizedClusterUse(f, launch));
    launch.cluster.reset();
    f.reqnctapercluster = std::array<int, 3>{2, 1, 1}; // so does the module
    CHECK_FALSE(unsizedClusterUse(f, launch));
    f.reqnctapercluster.reset();
    f.body.erase(f.body.begin() + 1); // no cluster instruction left
    CHECK_FALSE(unsizedClusterUse(f, launch));
}

TEST_CASE("launch shape: shapes PTX or ptxmc does not run are errors", "[launch-shape]") {
    Function f;
    f.loc = SourceLoc{"k.ptx", 3, 1};
    Launch launch;
    testing::requireInputError([&] { launchShape(f, launch); }, "no block size", "k.ptx", 3, 1,
                               "declares no block size");
    launch.block = std::array<int, 3>{1025, 1, 1};
    testing::requireInputError([&] { launchShape(f, launch); }, "1025 threads", "--block", 1, 1,
                               "a block of 1025 threads");
    launch.block = std::array<int, 3>{32, 1, 1};
    launch.cluster = std::array<int, 3>{17, 1, 1};
    testing::requireInputError([&] { launchShape(f, launch); }, "17 CTAs", "--cluster", 1, 1,
                               "a cluster of 17 CTAs");
    launch.cluster = std::array<int, 3>{2, 1, 1};
    launch.grid = std::array<int, 3>{3, 1, 1};
    testing::requireInputError([&] { launchShape(f, launch); }, "grid 3, cluster 2", "--grid", 1, 1,
                               "not a whole number of clusters");
}

TEST_CASE("special registers: what the launch decides, and what it does not", "[launch-shape]") {
    LaunchShape s;
    s.block = {64, 2, 1};
    s.cluster = {2, 2, 1};
    s.grid = {4, 4, 1};
    s.dynamicShared = 1024;
    ThreadPlace t{3, 70, 6, 2}; // rank 3, thread 70 (x 6, y 1), lane 6 of warp 2
    auto value = [&](const std::string& name) {
        auto v = specialRegister(name, t, s);
        REQUIRE(v);
        REQUIRE(v->known);
        return v->v;
    };
    CHECK(value("%tid.x") == 6);
    CHECK(value("%tid.y") == 1);
    CHECK(value("%ntid.y") == 2);
    CHECK(value("%ctaid.x") == 1);
    CHECK(value("%ctaid.y") == 1);
    CHECK(value("%cluster_ctaid.x") == 1);
    CHECK(value("%nctaid.x") == 4);
    CHECK(value("%cluster_nctaid.y") == 2);
    CHECK(value("%clusterid.x") == 0);
    CHECK(value("%nclusterid.y") == 2);
    CHECK(value("%laneid") == 6);
    CHECK(value("%warpid") == 2);
    CHECK(value("%nwarpid") == 4);
    CHECK(value("%cluster_ctarank") == 3);
    CHECK(value("%cluster_nctarank") == 4);
    CHECK(value("%is_explicit_cluster") == 1);
    CHECK(value("%lanemask_eq") == 0x40);
    CHECK(value("%lanemask_lt") == 0x3F);
    CHECK(value("%lanemask_le") == 0x7F);
    CHECK(value("%lanemask_gt") == 0xFFFFFF80);
    CHECK(value("%lanemask_ge") == 0xFFFFFFC0);
    CHECK(value("%dynamic_smem_size") == 1024);
    auto smid = specialRegister("%smid", t, s);
    REQUIRE(smid);
    CHECK_FALSE(smid->known);
    CHECK(specialRegister("%clock64", t, s));
    CHECK_FALSE(specialRegister("%r1", t, s));
    CHECK_FALSE(specialRegister("%tid.w", t, s));
    CHECK_FALSE(specialRegister("%tidx", t, s));
}

TEST_CASE("special registers: a box index runs x fastest", "[launch-shape]") {
    CHECK(boxIndex(0, {2, 2, 2}) == std::array<int, 3>{0, 0, 0});
    CHECK(boxIndex(5, {2, 2, 2}) == std::array<int, 3>{1, 0, 1});
    CHECK(boxIndex(7, {2, 2, 2}) == std::array<int, 3>{1, 1, 1});
}
