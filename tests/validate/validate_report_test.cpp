// The runner's output (validate/harness/Report.hpp): litmus7 blocks, and JSON compare can read.
#include "../../validate/harness/Report.hpp"
#include "hw/Results.hpp"
#include "support/SourceLoc.hpp"

#include <catch2/catch.hpp>

namespace {

::litmus::TestRun sample() {
    ::litmus::TestRun r;
    r.name = "MP+relaxed.gpu";
    r.file = "litmus/ptx/classic/MP+relaxed.gpu.litmus";
    r.arch = "sm_90a";
    r.quantifier = "exists";
    r.condition = "exists (P1:r0 == 1 /\\ P1:r1 == 0)";
    r.observed = {"P1:r0", "P1:r1"};
    r.outcomes = {{{1, 1}, 0, 70, false}, {{0, 0}, 0, 25, false}, {{1, 0}, 0, 5, true}};
    r.launches = 4;
    r.instances = 100;
    r.seconds = 0.5;
    r.seed = 9;
    return r;
}

} // namespace

TEST_CASE("a histogram block in litmus7's format", "[validate]") {
    std::string b = ::litmus::litmus7Block(sample());
    CHECK_THAT(b, Catch::StartsWith("Test MP+relaxed.gpu\nHistogram (3 states)\n"
                                    "25 :>P1:r0=0; P1:r1=0;\n5 *>P1:r0=1; P1:r1=0;\n"
                                    "70 :>P1:r0=1; P1:r1=1;\nOk\nWitnesses\n"
                                    "Positive: 5, Negative: 95\n"));
    CHECK_THAT(b, Catch::Contains("Condition exists (P1:r0 == 1 /\\ P1:r1 == 0) is validated\n"));
    CHECK_THAT(b, Catch::Contains("Observation MP+relaxed.gpu Sometimes 5 95\n"));
    CHECK_THAT(b, Catch::Contains("Instances 100 in 4 launches, 200 per second\n"));
}

TEST_CASE("stuck instances are counted apart and never witnesses", "[validate]") {
    auto r = sample();
    r.outcomes.push_back({{0, 0}, ::litmus::kFlagStuck, 3, false});
    r.stuck = 3;
    CHECK(::litmus::negative(r) == 95);
    CHECK_THAT(::litmus::litmus7Block(r), Catch::Contains("Stuck 3 (a blocking wait timed out)"));
    CHECK(std::string(::litmus::observation(0, 5)) == "Never");
    CHECK(std::string(::litmus::observation(5, 0)) == "Always");
    CHECK(::litmus::conditionOk("~exists", 0, 9));
    CHECK_FALSE(::litmus::conditionOk("forall", 1, 1));
}

TEST_CASE("the runner's JSON is what ptxmc compare reads", "[validate]") {
    ::litmus::RunInfo info;
    info.device = "NVIDIA H100 80GB HBM3";
    info.driver = "driver 580.0, CUDA 13.0";
    info.seed = 9;
    auto refused = sample();
    refused.name = "L17";
    refused.status = "refused";
    refused.message = "built for \"sm_100a\"";
    std::string json = ::litmus::resultsJson(info, {sample(), refused});
    auto run = ptxmc::validate::parseResults(json, "r.json");
    CHECK(run.device == "NVIDIA H100 80GB HBM3");
    CHECK(run.seed == 9);
    REQUIRE(run.tests.size() == 2);
    const auto& t = run.tests[0];
    CHECK(t.name == "MP+relaxed.gpu");
    CHECK(t.observed == std::vector<std::string>{"P1:r0", "P1:r1"});
    REQUIRE(t.outcomes.size() == 3);
    CHECK(t.outcomes[0].values == std::vector<std::int64_t>{0, 0});
    CHECK(t.outcomes[0].count == 25);
    CHECK(t.outcomes[1].satisfies);
    CHECK(t.instances == 100);
    CHECK(run.tests[1].status == "refused");
    CHECK(run.tests[1].message == "built for \"sm_100a\"");
    CHECK_THROWS_AS(ptxmc::validate::parseResults("{\"x\": 1}", "bad.json"), ptxmc::InputError);
}
