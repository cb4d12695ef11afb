// Variant expectations: expected.<variant>.txt overrides expected.txt under model <variant>.cat.
#include "../unit/TempDir.hpp"
#include "report/Expectations.hpp"

#include <catch2/catch.hpp>
#include <filesystem>

using namespace ptxmc;
using namespace ptxmc::report;
namespace fs = std::filesystem;
using testing::TempDir;

TEST_CASE("variant name of a --model argument", "[report][variant]") {
    CHECK(variantOfModel("") == "");
    CHECK(variantOfModel("model/variants/q4-kind-not-required.cat") == "q4-kind-not-required");
    CHECK(variantOfModel("variants/q1-x.cat") == "q1-x");
    CHECK(variantOfModel("tcgen05.cat") == "tcgen05");
    CHECK(variantFileName("q4-kind-not-required") == "expected.q4-kind-not-required.txt");
}

TEST_CASE("a variant file overrides only the tests it lists", "[report][variant]") {
    TempDir dir;
    dir.write("c/expected.txt", "a/one.litmus Sometimes flags=data-race states=2 data-race\n"
                                "a/two.litmus Never flags=none states=1 default\n");
    fs::path variantFile =
        dir.write("c/expected.qx.txt", "a/one.litmus Never flags=none states=1 qx says never\n");
    fs::path one = dir.write("c/a/one.litmus");
    fs::path two = dir.write("c/a/two.litmus");

    ExpectationIndex plain;
    CHECK(plain.lookup(one).expected == Observation::Sometimes);

    ExpectationIndex qx("qx");
    ExpectationCheck c1 = qx.lookup(one);
    CHECK(c1.present);
    CHECK(c1.expected == Observation::Never);
    CHECK(c1.expectedFlags.empty());
    CHECK(c1.expectedStates == 1);
    CHECK(c1.reason == "qx says never");
    CHECK(c1.file == displayPath(variantFile));
    ExpectationCheck c2 = qx.lookup(two);
    CHECK(c2.present);
    CHECK(c2.expected == Observation::Never);
    CHECK(c2.reason == "default");

    // A variant without a file of its own falls back to expected.txt everywhere.
    ExpectationIndex other("qy");
    CHECK(other.lookup(one).expected == Observation::Sometimes);
}

TEST_CASE("a broken variant file is an input error", "[report][variant]") {
    TempDir dir;
    dir.write("expected.txt", "t.litmus Never flags=none states=1 fine\n");
    dir.write("expected.qx.txt", "t.litmus Never flags=none states=1\n");
    fs::path t = dir.write("t.litmus");
    ExpectationIndex qx("qx");
    CHECK_THROWS_AS(qx.lookup(t), InputError);
}

// Each variant must change the corpus: its files list at least one test, each with an answer
// (verdict, flags or state count) that differs from the sibling expected.txt's (the variant
// ctests check the model gives them).
TEST_CASE("every variant model changes at least one corpus answer", "[report][variant]") {
    fs::path source(PTXMC_SOURCE_DIR);
    std::size_t variants = 0;
    for (const auto& model : fs::directory_iterator(source / "model" / "variants")) {
        if (model.path().extension() != ".cat") continue;
        ++variants;
        std::string name = variantOfModel(model.path().string());
        INFO("variant " << name);
        std::size_t changes = 0;
        for (const auto& f : fs::recursive_directory_iterator(source / "litmus")) {
            if (f.path().filename() != variantFileName(name)) continue;
            fs::path sibling = f.path().parent_path() / kExpectationsFileName;
            REQUIRE(fs::is_regular_file(sibling));
            ExpectationFile base = ExpectationFile::load(sibling);
            ExpectationFile variant = ExpectationFile::load(f.path());
            for (const ExpectationEntry& e : variant.entries()) {
                INFO(e.path);
                const ExpectationEntry* d = base.find(e.resolved);
                REQUIRE(d != nullptr);
                CHECK((d->expected != e.expected || d->flags != e.flags || d->states != e.states));
                ++changes;
            }
        }
        CHECK(changes > 0);
    }
    CHECK(variants > 0);
}
