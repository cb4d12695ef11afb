// ptxmc compare's classification: unsound, confirmed / inconclusive by mutant, seen / unseen.
#include "hw/Compare.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>

using namespace ptxmc;

namespace {

engine::CheckResult model(std::vector<std::pair<std::vector<std::int64_t>, bool>> states,
                          engine::Observation obs, ir::Quantifier q = ir::Quantifier::Exists) {
    engine::CheckResult r;
    r.quantifier = q;
    r.observed = {"P1:r0", "P1:r1"};
    for (auto& [v, sat] : states)
        r.states.push_back({v, sat});
    r.observation = obs;
    return r;
}

validate::HwTest hw(const std::string& name, std::vector<validate::HwOutcome> outcomes,
                    const std::string& mutantOf = "") {
    validate::HwTest t;
    t.name = name;
    t.file = name + ".litmus";
    t.mutantOf = mutantOf;
    t.status = "ok";
    t.observed = {"P1:r0", "P1:r1"};
    t.outcomes = std::move(outcomes);
    for (const auto& o : t.outcomes)
        t.instances += o.count;
    return t;
}

const auto kForbidden =
    model({{{0, 0}, false}, {{0, 1}, false}, {{1, 1}, false}}, engine::Observation::Never);
const auto kAllowed = model({{{0, 0}, false}, {{0, 1}, false}, {{1, 0}, true}, {{1, 1}, false}},
                            engine::Observation::Sometimes);

} // namespace

TEST_CASE("an observed state the model forbids is unsound", "[validate]") {
    validate::HwRun run;
    run.tests = {hw("MP", {{{0, 0}, 10, false}, {{1, 0}, 2, true}})};
    auto rows = validate::classify(run, {{kForbidden, ""}});
    REQUIRE(rows[0].verdict == validate::Verdict::Unsound);
    REQUIRE(rows[0].unsound.size() == 1);
    CHECK(rows[0].unsound[0].count == 2);
    CHECK(rows[0].weakSeen == 2);
}

TEST_CASE("a forbidden test is confirmed only when its mutant shows the weak outcome",
          "[validate]") {
    validate::HwRun run;
    run.tests = {hw("MP", {{{0, 0}, 10, false}, {{1, 1}, 10, false}}),
                 hw("MP~relax:P0:1", {{{1, 0}, 3, true}, {{1, 1}, 7, false}}, "MP")};
    auto rows = validate::classify(run, {{kForbidden, ""}, {kAllowed, ""}});
    CHECK(rows[0].verdict == validate::Verdict::Confirmed);
    CHECK(rows[0].mutant == "MP~relax:P0:1");
    CHECK(rows[1].verdict == validate::Verdict::Seen);
    CHECK(rows[1].weakSeen == 3);

    run.tests[1].outcomes = {{{1, 1}, 10, false}};
    run.tests[1].instances = 10;
    rows = validate::classify(run, {{kForbidden, ""}, {kAllowed, ""}});
    CHECK(rows[0].verdict == validate::Verdict::Inconclusive);
    CHECK(rows[0].unseenWhy == "mutant never weak");
    CHECK_THAT(rows[0].note, Catch::Contains("never showed its weak outcome either (10 instances"));
    CHECK(rows[1].verdict == validate::Verdict::Unseen);

    // a mutant the model forbids too, or could not answer for, says so
    rows = validate::classify(run, {{kForbidden, ""}, {kForbidden, ""}});
    CHECK(rows[0].unseenWhy == "mutant forbidden too");
    rows = validate::classify(run, {{kForbidden, ""}, {std::nullopt, "bad mutant"}});
    CHECK(rows[0].unseenWhy == "mutant error");
    CHECK_THAT(rows[0].note, Catch::Contains("gave no answer"));

    run.tests.pop_back();
    rows = validate::classify(run, {{kForbidden, ""}});
    CHECK(rows[0].verdict == validate::Verdict::Inconclusive);
    CHECK_THAT(rows[0].note, Catch::Contains("no mutant ran"));
}

TEST_CASE("with the mutants file, an inconclusive test says why no mutant of it ran",
          "[validate]") {
    validate::HwRun run;
    run.tests = {hw("MP", {{{0, 0}, 10, false}})};
    validate::MutantList mutants;
    mutants.none["MP.litmus"] = "no mutant allows the weak outcome";
    auto rows = validate::classify(run, {{kForbidden, ""}}, &mutants);
    CHECK(rows[0].unseenWhy == "no mutant");
    CHECK_THAT(rows[0].note, Catch::Contains("no mutant of it: no mutant allows the weak outcome"));

    mutants.none.clear();
    mutants.mutations.emplace("MP.litmus", ptx::Mutation{ptx::Mutation::Kind::Relax, 0, 1});
    rows = validate::classify(run, {{kForbidden, ""}}, &mutants);
    CHECK(rows[0].unseenWhy == "mutant not run");
    CHECK_THAT(rows[0].note, Catch::Contains("its mutant (relax:P0:1) is not in this run"));

    mutants.mutations.clear();
    rows = validate::classify(run, {{kForbidden, ""}}, &mutants);
    CHECK(rows[0].unseenWhy == "no mutant derived");
}

TEST_CASE("an allowed state never seen gets the 95% bound -ln(0.05)/N", "[validate]") {
    validate::HwRun run;
    run.tests = {hw("MP", {{{0, 0}, 500, false}, {{1, 1}, 500, false}})};
    auto rows = validate::classify(run, {{kAllowed, ""}});
    CHECK(rows[0].verdict == validate::Verdict::Unseen);
    CHECK(rows[0].unseen.size() == 2);
    CHECK(rows[0].allowedSeen == 2);
    CHECK(std::abs(rows[0].bound - 2.9957e-3) < 1e-6); // about 3/N
}

TEST_CASE("forall tests: the weak outcome is a state that breaks the proposition", "[validate]") {
    auto always = model({{{1, 1}, true}}, engine::Observation::Always, ir::Quantifier::Forall);
    validate::HwRun run;
    run.tests = {hw("F", {{{1, 1}, 10, true}})};
    auto rows = validate::classify(run, {{always, ""}});
    CHECK(rows[0].verdict == validate::Verdict::Inconclusive); // forbidden, and no mutant ran
}

TEST_CASE("deadlocks, refusals, runner errors and model errors", "[validate]") {
    engine::CheckResult dead = model({}, engine::Observation::Deadlock);
    validate::HwRun run;
    run.tests = {hw("D", {}), hw("E", {}), hw("R", {}), hw("M", {{{0, 0}, 1, false}})};
    run.tests[0].stuck = 64;
    run.tests[1].status = "error";
    run.tests[1].message = "hung";
    run.tests[2].status = "refused";
    auto rows = validate::classify(run, {{dead, ""}, {}, {}, {std::nullopt, "parse error"}});
    CHECK(rows[0].verdict == validate::Verdict::Deadlock);
    CHECK(rows[1].verdict == validate::Verdict::Error);
    CHECK(rows[2].verdict == validate::Verdict::Refused);
    CHECK(rows[3].verdict == validate::Verdict::Error);
    CHECK_THAT(rows[3].note, Catch::Contains("parse error"));
    run.tests[0].outcomes = {{{0, 0}, 1, false}};
    rows = validate::classify(run, {{dead, ""}, {}, {}, {std::nullopt, ""}});
    CHECK(rows[0].verdict == validate::Verdict::Unsound); // the model says nothing completes
    // unless the hanging executions are undefined behaviour: then nothing is promised
    dead.flags.push_back({"mbarrier-misuse", "", {}});
    rows = validate::classify(run, {{dead, ""}, {}, {}, {std::nullopt, ""}});
    CHECK(rows[0].verdict == validate::Verdict::Undefined);
    CHECK_THAT(rows[0].note, Catch::Contains("undefined behaviour (mbarrier-misuse)"));
}

TEST_CASE("the mutants file gives mutations and the reasons a test has none", "[validate]") {
    const auto file = std::filesystem::temp_directory_path() / "ptxmc-mutants-test.txt";
    {
        std::ofstream out(file);
        out << "# PATH MUTATION: a mutant for each forbidden test\n"
            << "litmus/a/MP.litmus relax:P0:1  # model: Sometimes\n"
            << "# litmus/a/SB.litmus: no mutant allows the weak outcome\n\n";
    }
    validate::MutantList m = validate::readMutantList(file.string());
    REQUIRE(m.mutations.count("litmus/a/MP.litmus") == 1);
    CHECK(ptx::toString(m.mutations.find("litmus/a/MP.litmus")->second) == "relax:P0:1");
    REQUIRE(m.none.size() == 1);
    CHECK(m.none.at("litmus/a/SB.litmus") == "no mutant allows the weak outcome");
    {
        std::ofstream out(file);
        out << "litmus/a/MP.litmus\n";
    }
    CHECK_THROWS_WITH(validate::readMutantList(file.string()),
                      Catch::Contains(":1:1: error: expected PATH MUTATION"));
    std::filesystem::remove(file);
}
