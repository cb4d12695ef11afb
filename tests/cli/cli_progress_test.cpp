// Unit tests of the progress line: its format, silence when disabled, clearing around output.
#include "cli/Progress.hpp"

#include <catch2/catch.hpp>
#include <sstream>
#include <string>

using ptxmc::cli::formatProgress;
using ptxmc::cli::Progress;

TEST_CASE("progress line: tests done of total, elapsed seconds, failures", "[cli][progress]") {
    CHECK(formatProgress(57, 219, 12.34, 0) == "ptxmc: 57/219 tests, 12.3 s, 0 failures");
    CHECK(formatProgress(0, 1, 0.0, 0) == "ptxmc: 0/1 tests, 0.0 s, 0 failures");
    CHECK(formatProgress(219, 219, 3600.06, 12) == "ptxmc: 219/219 tests, 3600.1 s, 12 failures");
}

TEST_CASE("progress disabled (not a terminal) writes nothing at all", "[cli][progress]") {
    std::ostringstream err;
    std::string printed;
    {
        Progress progress(3, /*enabled=*/false, err);
        progress.report(false, true, [&] { printed += "a"; });
        progress.report(true, false, [&] { printed += "b"; });
        progress.finish();
        progress.report(false, true, [&] { printed += "c"; });
    }
    CHECK(printed == "abc"); // the output itself still happens, in order
    CHECK(err.str().empty());
}

TEST_CASE("progress enabled: drawn, cleared around output, cleared at the end", "[cli][progress]") {
    std::ostringstream err;
    {
        Progress progress(2, /*enabled=*/true, err);
        progress.report(true, true, [&] { err << "<block>"; });
        progress.finish();
    }
    const std::string s = err.str();
    INFO(s);
    // First draw, before any test is done.
    REQUIRE(s.rfind("\rptxmc: 0/2 tests, ", 0) == 0);
    // The line is blanked before the block and redrawn after it with the failure counted.
    const std::size_t block = s.find("<block>");
    REQUIRE(block != std::string::npos);
    CHECK(s[block - 1] == '\r');
    CHECK(s.find("ptxmc: 1/2 tests, ", block) != std::string::npos);
    CHECK(s.find(" s, 1 failures", block) != std::string::npos);
    // finish() leaves a blank line behind: carriage return, spaces, carriage return.
    REQUIRE(s.size() >= 2);
    CHECK(s.back() == '\r');
    const std::size_t lastDraw = s.rfind("ptxmc:");
    const std::size_t blanks = s.find_first_not_of(' ', s.rfind('\r', s.size() - 2) + 1);
    CHECK(blanks == s.size() - 1);
    CHECK(lastDraw < s.rfind('\r', s.size() - 2));
}

TEST_CASE("progress: output that is not on the terminal leaves the line in place",
          "[cli][progress]") {
    std::ostringstream err;
    Progress progress(2, true, err);
    progress.report(false, /*onTerminal=*/false, [] {});
    const std::string s = err.str();
    INFO(s);
    // Two draws and no blanking in between: "\rptxmc: 0/2 ...\rptxmc: 1/2 ...".
    CHECK(s.find("\r ") == std::string::npos);
    CHECK(s.find("\rptxmc: 1/2 tests, ") != std::string::npos);
    progress.finish();
}

TEST_CASE("progress: finish twice and destruction after finish are harmless", "[cli][progress]") {
    std::ostringstream err;
    Progress progress(1, true, err);
    progress.finish();
    const std::string once = err.str();
    progress.finish();
    CHECK(err.str() == once);
}
