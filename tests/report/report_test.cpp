// Unit tests of the reports: herd blocks, JSON objects, expected.txt parsing and lookup.
#include "../unit/TempDir.hpp"
#include "report/Answer.hpp"
#include "report/AnswerText.hpp"
#include "report/CiReports.hpp"
#include "report/Expectations.hpp"
#include "report/HerdPrinter.hpp"
#include "report/JsonPrinter.hpp"

#include <catch2/catch.hpp>
#include <filesystem>

using namespace ptxmc;
using namespace ptxmc::report;
namespace fs = std::filesystem;
using testing::TempDir;

namespace {

using Q = ir::Quantifier;

// Two observed registers, three states, one of which satisfies the proposition.
CheckResult sampleResult(Q quantifier) {
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
    r.ok = quantifier == Q::Exists;
    r.seconds = 0.125;
    return r;
}

// An instruction of thread `thread` (-1: the initial state) at file:line:col.
EventRef at(int thread, const std::string& text, const std::string& file, int line, int col,
            const std::string& note = "") {
    EventRef e;
    e.event = thread < 0 ? 0 : 10 + thread;
    e.thread = thread;
    e.text = text;
    e.loc = SourceLoc{file, line, col};
    e.note = note;
    return e;
}

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

// An expectation line for `sampleResult`: present and governed, in file e.txt.
ExpectationCheck expectation(Observation o, std::vector<std::string> flags, std::size_t states,
                             const std::string& reason = "why") {
    return {.present = true,
            .governed = true,
            .expected = o,
            .expectedFlags = std::move(flags),
            .expectedStates = states,
            .reason = reason,
            .file = "e.txt"};
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
    CheckResult r = sampleResult(Q::Exists);
    r.flags = {{"race", "a data race", {{at(0, "st", "t", 3, 2), at(1, "ld", "t", 3, 9)}}},
               {"tmem-conflict", "", {}}};
    CHECK(HerdPrinter().format(r) == "Test MP Allowed\n"
                                     "States 3\n"
                                     "P1:r0=0; P1:r1=0;\n"
                                     "P1:r0=1; P1:r1=0;\n"
                                     "P1:r0=1; P1:r1=1;\n"
                                     "Ok\n"
                                     "Witnesses\n"
                                     "Positive: 1 Negative: 2\n"
                                     "Flag race\n"
                                     "  by P0: st (t:3:2) / P1: ld (t:3:9)\n"
                                     "Flag tmem-conflict\n"
                                     "Condition exists (P1:r0 == 1 /\\ P1:r1 == 0)\n"
                                     "Observation MP Sometimes 1 2\n"
                                     "Time MP 0.12\n"
                                     "\n");
}

TEST_CASE("herd block for ~exists swaps the witness counts only", "[report]") {
    CheckResult r = sampleResult(Q::NotExists);
    std::string text = HerdPrinter({.showTime = false}).format(r);
    CHECK(text.starts_with("Test MP Forbidden\n"));
    CHECK(text.find("No\nWitnesses\nPositive: 2 Negative: 1\n") != std::string::npos);
    CHECK(text.find("Condition ~exists (P1:r0") != std::string::npos);
    CHECK(text.find("Observation MP Sometimes 1 2\n") != std::string::npos);
    CHECK(text.find("Time") == std::string::npos);
    CHECK(text.ends_with("Observation MP Sometimes 1 2\n\n"));
}

TEST_CASE("herd block for forall", "[report]") {
    CheckResult r = sampleResult(Q::Forall);
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
    CheckResult r = sampleResult(Q::Exists);
    r.states.clear();
    r.positive = r.negative = 0;
    r.ok = false;
    r.observation = Observation::Deadlock;
    r.deadlockedWaits = {
        {at(1, "mbarrier.try_wait.parity _, [mb], 0", "t", 4, 9, "only jointly"), ""},
        {std::nullopt, "barrier 0 (instance 0) in CTA 0 waits for 2 thread(s)"}};
    CHECK(HerdPrinter({.showTime = false}).format(r) ==
          "Test MP Allowed\nStates 0\nDeadlock\n"
          "Blocked: P1: mbarrier.try_wait.parity _, [mb], 0 (t:4:9, only jointly)\n"
          "Blocked: barrier 0 (instance 0) in CTA 0 waits for 2 thread(s)\n"
          "Condition exists (P1:r0 == 1 /\\ P1:r1 == 0)\nObservation MP Deadlock 0 0\n\n");
    nlohmann::ordered_json j = JsonPrinter().toJson(r);
    CHECK(j["deadlocked_waits"].dump() ==
          R"j(["P1: mbarrier.try_wait.parity _, [mb], 0 (t:4:9, only jointly)",)j"
          R"j("barrier 0 (instance 0) in CTA 0 waits for 2 thread(s)"])j");
}

TEST_CASE("herd block for an unknown result prints no states", "[report]") {
    CheckResult r = sampleResult(Q::Exists);
    r.observation = Observation::Unknown;
    r.unknownReason = {engine::UnknownKind::Timeout, "timeout after 10 s"};
    std::string text = HerdPrinter().format(r);
    CHECK(text == "Test MP Allowed\nUnknown: timeout after 10 s\n"
                  "Condition exists (P1:r0 == 1 /\\ P1:r1 == 0)\nObservation MP Unknown 0 0\n"
                  "Time MP 0.12\n\n");
}

TEST_CASE("herd block expectation lines", "[report]") {
    CheckResult r = sampleResult(Q::Exists);
    HerdPrinter printer({.showTime = false});
    SECTION("not governed: no line") {
        CHECK(printer.format(r).find("Expected") == std::string::npos);
    }
    SECTION("matching") {
        applyExpectation(r, expectation(Observation::Sometimes, {}, 3, "MP is weak"));
        CHECK(r.expectation.matches);
        CHECK(printer.format(r).ends_with("Observation MP Sometimes 1 2\n"
                                          "Expected Sometimes flags=none states=3: ok\n\n"));
    }
    SECTION("mismatching verdict") {
        applyExpectation(r, expectation(Observation::Never, {}, 3, "fence orders"));
        CHECK_FALSE(r.expectation.matches);
        CHECK(printer.format(r).find(
                  "Expected: MISMATCH: expected Never flags=none states=3, got Sometimes "
                  "flags=none states=3 (reason: fence orders)\n") != std::string::npos);
    }
    SECTION("missing line") {
        applyExpectation(
            r, {false, true, Observation::Never, {}, 0, "", false, "litmus/expected.txt"});
        CHECK_FALSE(r.expectation.matches);
        CHECK(printer.format(r).find("Expected: MISSING (no line in litmus/expected.txt)\n") !=
              std::string::npos);
    }
}

TEST_CASE("an expectation matches only when verdict, flags and states all agree", "[report]") {
    CheckResult r = sampleResult(Q::Exists);
    r.flags = {{"tmem-race", "", {}}, {"data-race", "", {}}, {"data-race", "again", {}}};
    const std::vector<std::string> both = {"data-race", "tmem-race"};
    applyExpectation(r, expectation(Observation::Sometimes, both, 3));
    CHECK(r.expectation.matches);
    CHECK(mismatchText(r).empty());
    SECTION("flags differ") {
        applyExpectation(r, expectation(Observation::Sometimes, {"data-race"}, 3));
        CHECK_FALSE(r.expectation.matches);
        CHECK(mismatchText(r) == "expected Sometimes flags=data-race states=3, got Sometimes "
                                 "flags=data-race,tmem-race states=3");
    }
    SECTION("no flag expected") {
        applyExpectation(r, expectation(Observation::Sometimes, {}, 3));
        CHECK_FALSE(r.expectation.matches);
    }
    SECTION("state count differs") {
        applyExpectation(r, expectation(Observation::Sometimes, both, 2));
        CHECK_FALSE(r.expectation.matches);
        CHECK(mismatchText(r) == "expected Sometimes flags=data-race,tmem-race states=2, got "
                                 "Sometimes flags=data-race,tmem-race states=3");
    }
    SECTION("the same answer with a missing line still fails") {
        applyExpectation(r, {false, true, Observation::Sometimes, both, 3, "", false, "e.txt"});
        CHECK_FALSE(r.expectation.matches);
        CHECK(mismatchText(r).empty()); // MISSING, not a mismatch
    }
}

TEST_CASE("answers in expected.txt's words", "[report]") {
    CHECK(flagNames({{"b", "", {}}, {"a", "", {}}, {"b", "twice", {}}}) ==
          std::vector<std::string>{"a", "b"});
    CHECK(flagsText({}) == "none");
    CHECK(flagsText({"data-race", "tmem-race"}) == "data-race,tmem-race");
    CHECK(answerText(Observation::Deadlock, {}, 0) == "Deadlock flags=none states=0");
    CHECK(answerText(Observation::Never, {"data-race"}, 2) == "Never flags=data-race states=2");
}

TEST_CASE("JSON object shape", "[report]") {
    CheckResult r = sampleResult(Q::Exists);
    r.flags = {
        {"race", "a data race", {{at(0, "st", "t.litmus", 4, 2), at(1, "ld", "t.litmus", 4, 9)}}}};
    nlohmann::ordered_json j = JsonPrinter().toJson(r);
    std::vector<std::string> keys;
    for (auto it = j.begin(); it != j.end(); ++it)
        keys.push_back(it.key());
    CHECK(keys == std::vector<std::string>{"name", "file", "quantifier", "condition", "observed",
                                           "states", "ok", "positive", "negative", "observation",
                                           "flags", "deadlocked_waits", "unknown_reason",
                                           "bound_reached", "time", "expectation"});
    CHECK(j["name"] == "MP");
    CHECK(j["states"].size() == 3);
    CHECK(j["states"][1].dump() == R"({"values":{"P1:r0":1,"P1:r1":0},"satisfies":true})");
    CHECK(j["observation"] == "Sometimes");
    CHECK(
        j["flags"].dump() ==
        R"j([{"name":"race","doc":"a data race","witnesses":[[{"file":"t.litmus","line":4,"column":2,"thread":0,"instruction":"st"},{"file":"t.litmus","line":4,"column":9,"thread":1,"instruction":"ld"}]]}])j");
    CHECK(j["time"] == 0.125);
    CHECK(j["expectation"].is_null());

    SECTION("without time, with a missing expectation") {
        applyExpectation(r, {false, true, Observation::Never, {}, 0, "", false, "x/expected.txt"});
        nlohmann::ordered_json k = JsonPrinter({.showTime = false}).toJson(r);
        CHECK_FALSE(k.contains("time"));
        CHECK(k["expectation"].dump() ==
              R"({"expected":null,"flags":null,"states":null,"reason":null,"matches":false,)"
              R"("mismatch":null,"file":"x/expected.txt"})");
    }
    SECTION("a matching expectation") {
        applyExpectation(r, expectation(Observation::Sometimes, {"race"}, 3, "race: weak"));
        CHECK(JsonPrinter().toJson(r)["expectation"].dump() ==
              R"({"expected":"Sometimes","flags":["race"],"states":3,"reason":"race: weak",)"
              R"("matches":true,"mismatch":null,"file":"e.txt"})");
    }
    SECTION("a mismatch says what differs") {
        applyExpectation(r, expectation(Observation::Sometimes, {}, 3));
        nlohmann::ordered_json e = JsonPrinter().toJson(r)["expectation"];
        CHECK(e["matches"] == false);
        CHECK(e["mismatch"] ==
              "expected Sometimes flags=none states=3, got Sometimes flags=race states=3");
    }
    SECTION("~exists keeps positive and negative unswapped") {
        nlohmann::ordered_json k = JsonPrinter().toJson(sampleResult(Q::NotExists));
        CHECK(k["positive"] == 1);
        CHECK(k["negative"] == 2);
    }
}

TEST_CASE("expected.txt: a good file", "[report]") {
    TempDir dir;
    dir.write("a/MP.litmus");
    dir.write("SB.litmus");
    dir.write("D.litmus");
    ExpectationFile f = ExpectationFile::parse(
        "# the corpus\n"
        "\n"
        "a/MP.litmus  Never  flags=none  states=3  PTX ISA 9.7 (#anchor): why\n"
        "  ./SB.litmus\tSometimes flags=data-race,tmem-race states=12 relaxed; flag data-race: "
        "weak; flag tmem-race: unordered   \r\n"
        "D.litmus Deadlock flags=none states=0 nobody arrives\n",
        dir.path() / "expected.txt");
    REQUIRE(f.entries().size() == 3);
    CHECK(f.entries()[0].path == "a/MP.litmus");
    CHECK(f.entries()[0].expected == Observation::Never);
    CHECK(f.entries()[0].flags.empty());
    CHECK(f.entries()[0].states == 3);
    CHECK(f.entries()[0].reason == "PTX ISA 9.7 (#anchor): why"); // '#' inside a reason stays
    CHECK(f.entries()[0].loc.line == 3);
    CHECK(f.entries()[1].expected == Observation::Sometimes);
    CHECK(f.entries()[1].flags == std::vector<std::string>{"data-race", "tmem-race"});
    CHECK(f.entries()[1].states == 12);
    CHECK(f.entries()[1].reason == "relaxed; flag data-race: weak; flag tmem-race: unordered");
    CHECK(f.entries()[1].loc.col == 3);
    CHECK(f.entries()[2].expected == Observation::Deadlock);
    CHECK(f.entries()[2].states == 0);
    CHECK(f.find(fs::canonical(dir.path() / "SB.litmus")) == &f.entries()[1]);
    CHECK(f.find(dir.path() / "other.litmus") == nullptr);
}

TEST_CASE("expected.txt: the lookup carries the expected flags and states", "[report]") {
    TempDir dir;
    dir.write("expected.txt", "t.litmus Sometimes flags=tmem-race states=2 flag tmem-race: why\n");
    fs::path t = dir.write("t.litmus");
    ExpectationIndex index;
    ExpectationCheck c = index.lookup(t);
    CHECK(c.present);
    CHECK(c.expectedFlags == std::vector<std::string>{"tmem-race"});
    CHECK(c.expectedStates == 2);
}

TEST_CASE("expected.txt: malformed lines give file:line:col", "[report]") {
    TempDir dir;
    dir.write("t.litmus");
    auto where = [](const InputError& e) {
        return std::to_string(e.loc().line) + ":" + std::to_string(e.loc().col);
    };
    SECTION("unknown observation") {
        InputError e = parseError(dir, "# c\nt.litmus Rarely flags=none states=1 because\n");
        CHECK(where(e) == "2:10");
        CHECK(e.message().find("unknown observation 'Rarely'") != std::string::npos);
        CHECK(std::string(e.what()).find("expected.txt:2:10: error: ") != std::string::npos);
    }
    SECTION("Unknown is not an expectation") {
        CHECK(where(parseError(dir, "t.litmus Unknown flags=none states=0 gave up\n")) == "1:10");
    }
    SECTION("missing observation") {
        InputError e = parseError(dir, "t.litmus\n");
        CHECK(where(e) == "1:9");
        CHECK(e.message().find("missing observation") != std::string::npos);
    }
    SECTION("missing reason") {
        InputError e = parseError(dir, "\n\n  t.litmus Never flags=none states=1   \n");
        CHECK(where(e) == "3:37");
        CHECK(e.message().find("missing reason") != std::string::npos);
    }
    SECTION("duplicate path, also spelled differently") {
        InputError e = parseError(dir, "t.litmus Never flags=none states=1 a\n"
                                       "./t.litmus Always flags=none states=1 b\n");
        CHECK(where(e) == "2:1");
        CHECK(e.message().find("duplicate entry for './t.litmus' (first at line 1)") !=
              std::string::npos);
    }
    SECTION("path that does not exist") {
        InputError e = parseError(dir, "t.litmus Never flags=none states=1 a\n"
                                       " gone.litmus Never flags=none states=1 b\n");
        CHECK(where(e) == "2:2");
        CHECK(e.message().find("no such test file 'gone.litmus'") != std::string::npos);
    }
    SECTION("a folder is not a test file") {
        dir.write("sub/x.litmus");
        CHECK(where(parseError(dir, "sub Never flags=none states=1 a\n")) == "1:1");
    }
    SECTION("absolute path") {
        std::string abs = (dir.path() / "t.litmus").string();
        CHECK(parseError(dir, abs + " Never flags=none states=1 a\n")
                  .message()
                  .find("must be relative") != std::string::npos);
    }
}

TEST_CASE("expected.txt: malformed flags= and states= fields", "[report]") {
    TempDir dir;
    dir.write("t.litmus");
    // Where the error points (line:col) and what it says.
    auto check = [&](const std::string& line, const std::string& col, const std::string& text) {
        INFO(line);
        InputError e = parseError(dir, line + "\n");
        CHECK(std::to_string(e.loc().line) + ":" + std::to_string(e.loc().col) == col);
        CHECK_THAT(e.message(), Catch::Contains(text));
    };
    SECTION("the old format: a reason where flags= belongs") {
        check("t.litmus Never fence orders", "1:16",
              "expected flags=none or flags=NAME[,NAME...] after the observation, got 'fence'");
    }
    SECTION("missing flags") {
        check("t.litmus Never", "1:15", "missing flags=none or flags=NAME[,NAME...]");
    }
    SECTION("empty flags") {
        check("t.litmus Never flags= states=1 a", "1:22", "empty flags=");
    }
    SECTION("bad flag name") {
        check("t.litmus Never flags=data-race,tmem!race states=1 data-race tmem!race", "1:36",
              "bad flag name 'tmem!race'");
    }
    SECTION("empty flag name") {
        check("t.litmus Never flags=data-race,,x states=1 data-race x", "1:32", "empty flag name");
        check("t.litmus Never flags=data-race, states=1 data-race", "1:32", "empty flag name");
    }
    SECTION("none with other flags") {
        check("t.litmus Never flags=data-race,none states=1 data-race", "1:32",
              "'none' cannot be listed with other flags");
    }
    SECTION("unsorted flags") {
        check("t.litmus Never flags=tmem-race,data-race states=1 tmem-race data-race", "1:32",
              "flags must be sorted: 'data-race' comes before 'tmem-race'");
    }
    SECTION("duplicate flag") {
        check("t.litmus Never flags=data-race,data-race states=1 data-race", "1:32",
              "duplicate flag 'data-race'");
    }
    SECTION("missing states") {
        check("t.litmus Never flags=none", "1:26", "missing states=N after the flags");
    }
    SECTION("states in the wrong place") {
        check("t.litmus Never flags=none 3 a", "1:27",
              "expected states=N after the flags, got '3'");
    }
    SECTION("bad state counts") {
        check("t.litmus Never flags=none states= a", "1:34", "bad state count ''");
        check("t.litmus Never flags=none states=-1 a", "1:34", "bad state count '-1'");
        check("t.litmus Never flags=none states=2x a", "1:34", "bad state count '2x'");
        check("t.litmus Never flags=none states=99999999999999999999999 a", "1:34",
              "bad state count");
    }
    SECTION("a Deadlock has no final state") {
        check("t.litmus Deadlock flags=none states=1 a", "1:37", "write states=0");
    }
    SECTION("missing reason after the state count") {
        check("t.litmus Never flags=none states=1", "1:35", "missing reason");
    }
}

TEST_CASE("expected.txt: the reason says why each flag is raised", "[report]") {
    TempDir dir;
    dir.write("t.litmus");
    SECTION("a listed flag the reason does not name") {
        InputError e = parseError(
            dir, "t.litmus Sometimes flags=data-race,tmem-race states=2 weak; flag data-race: x\n");
        CHECK(e.loc().col == 36);
        CHECK(e.message() == "the reason must say why flag 'tmem-race' is raised");
    }
    SECTION("a longer word does not count as naming the flag") {
        InputError e =
            parseError(dir, "t.litmus Sometimes flags=race states=2 a tmem-race, a race_2\n");
        CHECK(e.loc().col == 26);
        CHECK(e.message() == "the reason must say why flag 'race' is raised");
    }
    SECTION("named anywhere in the reason, as a word of its own") {
        ExpectationFile f = ExpectationFile::parse(
            "t.litmus Sometimes flags=race states=2 (race) because\n", dir.path() / "expected.txt");
        CHECK(f.entries()[0].flags == std::vector<std::string>{"race"});
    }
}

TEST_CASE("expected.txt: the nearest file governs a test", "[report]") {
    TempDir dir;
    fs::path top =
        dir.write("corpus/expected.txt", "a/one.litmus Never flags=none states=1 top says never\n");
    fs::path one = dir.write("corpus/a/one.litmus");
    fs::path two = dir.write("corpus/a/two.litmus");
    fs::path inner =
        dir.write("corpus/b/expected.txt", "c/three.litmus Always flags=none states=1 inner\n");
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
    // A line of the old format (no flags= and states=) is an input error too.
    TempDir old;
    old.write("expected.txt", "t.litmus Never fence orders\n");
    fs::path u = old.write("t.litmus");
    CHECK_THROWS_AS(ExpectationIndex().lookup(u), InputError);
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

TEST_CASE("typed events, witnesses and cuts are printed one way in text and JSON", "[report]") {
    CHECK(toString(at(-1, "st x, 0", "t.litmus", 2, 3)) == "init: st x, 0 (t.litmus:2:3)");
    CHECK(toString(at(2, "ld r0, x", "t.litmus", 5, 7, "note")) ==
          "P2: ld r0, x (t.litmus:5:7, note)");
    CHECK(witnessText({at(0, "st", "t", 1, 2), at(-1, "st x, 0", "t", 1, 1)}) ==
          "P0: st (t:1:2) / init: st x, 0 (t:1:1)");
    CHECK(blockedText({std::nullopt, "why"}) == "why");
    CHECK(std::string(ir::quantifierText(Q::NotExists)) == "~exists");
    CHECK(std::string(herdKind(Q::Forall)) == "Required");

    CheckResult r = sampleResult(Q::Exists);
    r.observation = Observation::Unknown;
    r.unknownReason = {engine::UnknownKind::UnrollBound, "unroll bound 2 reached"};
    r.boundReached = {at(1, "bne r0, 1, LC00", "t", 6, 4)};
    r.flags = {
        {"hang", "blocks", {{at(1, "bar.sync 0", "t", 7, 2)}, {at(0, "bar.sync 0", "t", 8, 2)}}}};
    std::string text = HerdPrinter({.showTime = false}).format(r);
    CHECK(text.find("States 3 (within the unroll bound)\n") != std::string::npos);
    CHECK(text.find("Flag hang\n  by P1: bar.sync 0 (t:7:2)\n  by P0: bar.sync 0 (t:8:2)\n"
                    "Bound reached: P1: bne r0, 1, LC00 (t:6:4)\n") != std::string::npos);
    nlohmann::ordered_json j = JsonPrinter().toJson(r);
    CHECK(j["bound_reached"].dump() == R"j(["P1: bne r0, 1, LC00 (t:6:4)"])j");
    CHECK(j["flags"][0]["witnesses"].dump() ==
          R"j([[{"file":"t","line":7,"column":2,"thread":1,"instruction":"bar.sync 0"}],)j"
          R"j([{"file":"t","line":8,"column":2,"thread":0,"instruction":"bar.sync 0"}]])j");
    CHECK(
        eventJson(at(-1, "st x, 0", "t", 2, 3, "note")).dump() ==
        R"j({"file":"t","line":2,"column":3,"thread":-1,"instruction":"st x, 0","note":"note"})j");
}

TEST_CASE("CI reports: the section a flag's comment cites, XML escaping", "[report]") {
    DocSection s = sectionOfDoc("Data race (8.7.1 #conflict-and-data-races): conflicting");
    CHECK(s.number == "8.7.1");
    CHECK(s.anchor == "conflict-and-data-races");
    // The first number is the section; its anchor may come later; 9.4 is no section number.
    s = sectionOfDoc("used before init (9.4: 9.7.15.16.5, 9.7.15.16.12); more (9.7.15.16.19 "
                     "#other) and (9.7.15.16.5 #parallel-mbarrier-phase)");
    CHECK(s.number == "9.7.15.16.5");
    CHECK(s.anchor == "parallel-mbarrier-phase");
    s = sectionOfDoc("Conflicting accesses (9.7.18.6.1).");
    CHECK(s.number == "9.7.18.6.1");
    CHECK(s.anchor.empty());
    CHECK(sectionOfDoc("no citation").number.empty());

    CHECK(xmlEscape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&apos;");
    CHECK(xmlEscape("tab\tnl\n") == "tab\tnl\n");
    CHECK(xmlEscape(std::string("nul\0x", 5)) == "nul\xEF\xBF\xBDx");
    CHECK(xmlEscape("\xC3\xA9") == "\xC3\xA9");                                 // é stays
    CHECK(xmlEscape("bad\xFFname") == "bad\xEF\xBF\xBDname");                   // not UTF-8
    CHECK(xmlEscape("\xC3") == "\xEF\xBF\xBD");                                 // cut short
    CHECK(xmlEscape("\xED\xA0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"); // surrogate
}

TEST_CASE("a reading's changes: the flags it raises and those it does not, against the default",
          "[report]") {
    ReadingResult v;
    v.reading = cat::ReadingId{"cutlass-reading"};
    v.flags = {"async-pending-at-exit", "data-race"};
    v.decisions = {"Q1 (9.7.18.6.3)", "Q20 (9.7.10.28.1)"};
    CHECK(readingText(v) == "variants/cutlass-reading.cat (Q1 (9.7.18.6.3), Q20 (9.7.10.28.1))");
    CHECK(flagChanges({"data-race", "tmem-lifetime", "tmem-race"}, v) ==
          "async-pending-at-exit raised; tmem-lifetime, tmem-race not raised");
    CHECK(flagChanges({"async-pending-at-exit", "data-race"}, v).empty());
}
