// Unit tests of the reports: herd blocks, JSON objects, expected.txt parsing and lookup.
#include "report/Expectations.hpp"
#include "report/HerdPrinter.hpp"
#include "report/JsonPrinter.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>

using namespace ptxmc;
using namespace ptxmc::report;
namespace fs = std::filesystem;

namespace {

// Two observed registers, three states, one of which satisfies the proposition.
CheckResult sampleResult(const std::string& quantifier) {
    CheckResult r;
    r.testName = "MP";
    r.file = "litmus/MP.litmus";
    r.quantifier = quantifier;
    r.conditionText = "(P1:r0 == 1 /\\ P1:r1 == 0)";
    r.observed = {"P1:r0", "P1:r1"};
    r.states = {{{0, 0}, false}, {{1, 0}, true}, {{1, 1}, false}};
    r.observation = Observation::Sometimes;
    r.positive = 1;
    r.negative = 2;
    r.ok = quantifier == "exists";
    r.seconds = 0.125;
    return r;
}

// A fresh folder under the system temp folder, removed again at the end of the test.
class TempDir {
public:
    TempDir() {
        std::random_device rd;
        path_ = fs::temp_directory_path() / ("ptxmc-report-test-" + std::to_string(rd()));
        fs::create_directories(path_);
        path_ = fs::canonical(path_);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    const fs::path& path() const { return path_; }
    fs::path write(const std::string& rel, const std::string& text = "") const {
        fs::path p = path_ / rel;
        fs::create_directories(p.parent_path());
        std::ofstream(p) << text;
        return p;
    }

private:
    fs::path path_;
};

// The InputError that parsing `text` as `dir/expected.txt` throws (fails the test if none).
InputError parseError(const TempDir& dir, const std::string& text) {
    try {
        ExpectationFile::parse(text, dir.path() / "expected.txt");
    } catch (const InputError& e) {
        return e;
    }
    FAIL("no InputError for: " << text);
    throw std::logic_error("unreachable");
}

} // namespace

TEST_CASE("observation names round-trip", "[report]") {
    for (Observation o : {Observation::Never, Observation::Sometimes, Observation::Always,
                          Observation::Deadlock, Observation::Unknown})
        CHECK(observationFromString(toString(o)) == o);
    CHECK_FALSE(observationFromString("never"));
    CHECK_FALSE(observationFromString(""));
}

TEST_CASE("herd block for exists", "[report]") {
    CheckResult r = sampleResult("exists");
    r.flags = {{"race", "a data race"}, {"tmem-conflict", ""}};
    CHECK(HerdPrinter().format(r) == "Test MP Allowed\n"
                                     "States 3\n"
                                     "P1:r0=0; P1:r1=0;\n"
                                     "P1:r0=1; P1:r1=0;\n"
                                     "P1:r0=1; P1:r1=1;\n"
                                     "Ok\n"
                                     "Witnesses\n"
                                     "Positive: 1 Negative: 2\n"
                                     "Flag race\n"
                                     "Flag tmem-conflict\n"
                                     "Condition exists (P1:r0 == 1 /\\ P1:r1 == 0)\n"
                                     "Observation MP Sometimes 1 2\n"
                                     "Time MP 0.12\n"
                                     "\n");
}

TEST_CASE("herd block for ~exists swaps the witness counts only", "[report]") {
    CheckResult r = sampleResult("~exists");
    std::string text = HerdPrinter({.showTime = false}).format(r);
    CHECK(text.starts_with("Test MP Forbidden\n"));
    CHECK(text.find("No\nWitnesses\nPositive: 2 Negative: 1\n") != std::string::npos);
    CHECK(text.find("Condition ~exists (P1:r0") != std::string::npos);
    CHECK(text.find("Observation MP Sometimes 1 2\n") != std::string::npos);
    CHECK(text.find("Time") == std::string::npos);
    CHECK(text.ends_with("Observation MP Sometimes 1 2\n\n"));
}

TEST_CASE("herd block for forall", "[report]") {
    CheckResult r = sampleResult("forall");
    r.states = {{{1, 0}, true}};
    r.positive = 1;
    r.negative = 0;
    r.observation = Observation::Always;
    r.ok = true;
    std::string text = HerdPrinter({.showTime = false}).format(r);
    CHECK(text == "Test MP Required\nStates 1\nP1:r0=1; P1:r1=0;\nOk\nWitnesses\n"
                  "Positive: 1 Negative: 0\nCondition forall (P1:r0 == 1 /\\ P1:r1 == 0)\n"
                  "Observation MP Always 1 0\n\n");
}

TEST_CASE("herd block for a deadlock", "[report]") {
    CheckResult r = sampleResult("exists");
    r.states.clear();
    r.positive = r.negative = 0;
    r.ok = false;
    r.observation = Observation::Deadlock;
    r.deadlockedWaits = {"P1: mbarrier.try_wait.parity _, [mb], 0", "P0: bar.sync 0"};
    CHECK(HerdPrinter({.showTime = false}).format(r) ==
          "Test MP Allowed\nStates 0\nDeadlock\n"
          "Blocked: P1: mbarrier.try_wait.parity _, [mb], 0\nBlocked: P0: bar.sync 0\n"
          "Condition exists (P1:r0 == 1 /\\ P1:r1 == 0)\nObservation MP Deadlock 0 0\n\n");
}

TEST_CASE("herd block for an unknown result prints no states", "[report]") {
    CheckResult r = sampleResult("exists");
    r.observation = Observation::Unknown;
    r.unknownReason = "timeout after 10 s";
    std::string text = HerdPrinter().format(r);
    CHECK(text == "Test MP Allowed\nUnknown: timeout after 10 s\n"
                  "Condition exists (P1:r0 == 1 /\\ P1:r1 == 0)\nObservation MP Unknown 0 0\n"
                  "Time MP 0.12\n\n");
}

TEST_CASE("herd block expectation lines", "[report]") {
    CheckResult r = sampleResult("exists");
    HerdPrinter printer({.showTime = false});
    SECTION("not governed: no line") {
        CHECK(printer.format(r).find("Expected") == std::string::npos);
    }
    SECTION("matching") {
        applyExpectation(r, {true, true, Observation::Sometimes, "MP is weak", false, "e.txt"});
        CHECK(r.expectation.matches);
        CHECK(printer.format(r).ends_with(
            "Observation MP Sometimes 1 2\nExpected Sometimes: ok\n\n"));
    }
    SECTION("mismatching") {
        applyExpectation(r, {true, true, Observation::Never, "fence orders", true, "e.txt"});
        CHECK_FALSE(r.expectation.matches);
        CHECK(printer.format(r).find("Expected Never: MISMATCH (reason: fence orders)\n") !=
              std::string::npos);
    }
    SECTION("missing line") {
        applyExpectation(r, {false, true, Observation::Never, "", false, "litmus/expected.txt"});
        CHECK_FALSE(r.expectation.matches);
        CHECK(printer.format(r).find("Expected: MISSING (no line in litmus/expected.txt)\n") !=
              std::string::npos);
    }
}

TEST_CASE("JSON object shape", "[report]") {
    CheckResult r = sampleResult("exists");
    r.flags = {{"race", "a data race"}};
    nlohmann::ordered_json j = JsonPrinter().toJson(r);
    std::vector<std::string> keys;
    for (auto it = j.begin(); it != j.end(); ++it)
        keys.push_back(it.key());
    CHECK(keys == std::vector<std::string>{"name", "file", "quantifier", "condition", "observed",
                                           "states", "ok", "positive", "negative", "observation",
                                           "flags", "deadlocked_waits", "unknown_reason", "time",
                                           "expectation"});
    CHECK(j["name"] == "MP");
    CHECK(j["states"].size() == 3);
    CHECK(j["states"][1].dump() == R"({"values":{"P1:r0":1,"P1:r1":0},"satisfies":true})");
    CHECK(j["observation"] == "Sometimes");
    CHECK(j["flags"].dump() == R"([{"name":"race","doc":"a data race"}])");
    CHECK(j["time"] == 0.125);
    CHECK(j["expectation"].is_null());

    SECTION("without time, with a missing expectation") {
        applyExpectation(r, {false, true, Observation::Never, "", false, "x/expected.txt"});
        nlohmann::ordered_json k = JsonPrinter({.showTime = false}).toJson(r);
        CHECK_FALSE(k.contains("time"));
        CHECK(k["expectation"].dump() ==
              R"({"expected":null,"reason":null,"matches":false,"file":"x/expected.txt"})");
    }
    SECTION("~exists keeps positive and negative unswapped") {
        nlohmann::ordered_json k = JsonPrinter().toJson(sampleResult("~exists"));
        CHECK(k["positive"] == 1);
        CHECK(k["negative"] == 2);
    }
}

TEST_CASE("expected.txt: a good file", "[report]") {
    TempDir dir;
    dir.write("a/MP.litmus");
    dir.write("SB.litmus");
    ExpectationFile f = ExpectationFile::parse("# the corpus\n"
                                               "\n"
                                               "a/MP.litmus  Never  PTX ISA 9.7 (#anchor): why\n"
                                               "  ./SB.litmus\tSometimes relaxed   \r\n",
                                               dir.path() / "expected.txt");
    REQUIRE(f.entries().size() == 2);
    CHECK(f.entries()[0].path == "a/MP.litmus");
    CHECK(f.entries()[0].expected == Observation::Never);
    CHECK(f.entries()[0].reason == "PTX ISA 9.7 (#anchor): why"); // '#' inside a reason stays
    CHECK(f.entries()[0].loc.line == 3);
    CHECK(f.entries()[1].expected == Observation::Sometimes);
    CHECK(f.entries()[1].reason == "relaxed");
    CHECK(f.entries()[1].loc.col == 3);
    CHECK(f.find(fs::canonical(dir.path() / "SB.litmus")) == &f.entries()[1]);
    CHECK(f.find(dir.path() / "other.litmus") == nullptr);
}

TEST_CASE("expected.txt: malformed lines give file:line:col", "[report]") {
    TempDir dir;
    dir.write("t.litmus");
    auto where = [](const InputError& e) {
        return std::to_string(e.loc().line) + ":" + std::to_string(e.loc().col);
    };
    SECTION("unknown observation") {
        InputError e = parseError(dir, "# c\nt.litmus Rarely because\n");
        CHECK(where(e) == "2:10");
        CHECK(e.message().find("unknown observation 'Rarely'") != std::string::npos);
        CHECK(std::string(e.what()).find("expected.txt:2:10: error: ") != std::string::npos);
    }
    SECTION("Unknown is not an expectation") {
        CHECK(where(parseError(dir, "t.litmus Unknown solver gave up\n")) == "1:10");
    }
    SECTION("missing observation") {
        InputError e = parseError(dir, "t.litmus\n");
        CHECK(where(e) == "1:9");
        CHECK(e.message().find("missing observation") != std::string::npos);
    }
    SECTION("missing reason") {
        InputError e = parseError(dir, "\n\n  t.litmus Never   \n");
        CHECK(where(e) == "3:17");
        CHECK(e.message().find("missing reason") != std::string::npos);
    }
    SECTION("duplicate path, also spelled differently") {
        InputError e = parseError(dir, "t.litmus Never a\n./t.litmus Always b\n");
        CHECK(where(e) == "2:1");
        CHECK(e.message().find("duplicate entry for './t.litmus' (first at line 1)") !=
              std::string::npos);
    }
    SECTION("path that does not exist") {
        InputError e = parseError(dir, "t.litmus Never a\n gone.litmus Never b\n");
        CHECK(where(e) == "2:2");
        CHECK(e.message().find("no such test file 'gone.litmus'") != std::string::npos);
    }
    SECTION("a folder is not a test file") {
        dir.write("sub/x.litmus");
        CHECK(where(parseError(dir, "sub Never a\n")) == "1:1");
    }
    SECTION("absolute path") {
        std::string abs = (dir.path() / "t.litmus").string();
        CHECK(parseError(dir, abs + " Never a\n").message().find("must be relative") !=
              std::string::npos);
    }
}

TEST_CASE("expected.txt: the nearest file governs a test", "[report]") {
    TempDir dir;
    fs::path top = dir.write("corpus/expected.txt", "a/one.litmus Never top says never\n");
    fs::path one = dir.write("corpus/a/one.litmus");
    fs::path two = dir.write("corpus/a/two.litmus");
    fs::path inner = dir.write("corpus/b/expected.txt", "c/three.litmus Always inner\n");
    fs::path three = dir.write("corpus/b/c/three.litmus");
    ExpectationIndex index;

    CHECK(index.governingFile(one) == top);
    ExpectationCheck c1 = index.lookup(one);
    CHECK(c1.governed);
    CHECK(c1.present);
    CHECK(c1.expected == Observation::Never);
    CHECK(c1.reason == "top says never");

    ExpectationCheck c2 = index.lookup(two);
    CHECK(c2.governed);
    CHECK_FALSE(c2.present); // governed without a line: the caller reports "no expectation"
    CHECK(c2.file == displayPath(top));

    CHECK(index.governingFile(three) == inner);
    ExpectationCheck c3 = index.lookup(three);
    CHECK(c3.present);
    CHECK(c3.expected == Observation::Always);

    // A relative spelling of the same test finds the same entry.
    fs::path old = fs::current_path();
    fs::current_path(dir.path() / "corpus");
    CHECK(index.lookup("b/c/../c/three.litmus").present);
    fs::current_path(old);
}

TEST_CASE("expected.txt: a test outside every corpus is not governed", "[report]") {
    TempDir dir;
    fs::path lone = dir.write("lone/t.litmus");
    // The walk goes up to the root: only meaningful if no folder above the temp dir has one.
    bool stray = false;
    for (fs::path p = dir.path();; p = p.parent_path()) {
        stray = stray || fs::exists(p / "expected.txt");
        if (p == p.parent_path()) break;
    }
    if (stray) {
        WARN("an expected.txt above " << dir.path() << " governs everything; skipped");
        return;
    }
    ExpectationIndex index;
    CHECK_FALSE(index.governingFile(lone));
    ExpectationCheck c = index.lookup(lone);
    CHECK_FALSE(c.governed);
    CHECK_FALSE(c.present);
}

TEST_CASE("expected.txt: a broken governing file is an input error", "[report]") {
    TempDir dir;
    dir.write("expected.txt", "t.litmus Never\n");
    fs::path t = dir.write("t.litmus");
    ExpectationIndex index;
    CHECK_THROWS_AS(index.lookup(t), InputError);
}

TEST_CASE("dumpJson replaces bytes that are not UTF-8 instead of throwing", "[report]") {
    nlohmann::ordered_json j;
    j["test"] = std::string("bad\xff"
                            "name.litmus");
    j["n"] = 1;
    std::string text;
    REQUIRE_NOTHROW(text = dumpJson(j));
    CHECK(text == "{\n  \"test\": \"bad\xef\xbf\xbdname.litmus\",\n  \"n\": 1\n}\n");
}
