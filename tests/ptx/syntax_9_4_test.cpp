// The syntax table of the PTX ISA 9.4 text (tests/ptx/syntax-9.4.txt): every instance marked
#include "../unit/LitmusText.hpp"
// `decodes` decodes, and prints a form that decodes again; every instance marked `open` (a form
// of the text ptxmc does not decode yet) still fails, so that the day it decodes its line moves.
#include "litmus/Parser.hpp"
#include "ptx/Decode.hpp"
#include "ptx/Print.hpp"
#include "support/SourceLoc.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace ptxmc;
using testing::parseInsn;

namespace {

struct Line {
    int number = 0;
    bool decodes = false;
    std::string section;
    std::string instance;
};

std::string trim(const std::string& s) {
    auto b = s.find_first_not_of(" \t");
    auto e = s.find_last_not_of(" \t");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<Line> readTable() {
    std::ifstream in(std::string(PTXMC_SOURCE_DIR) + "/tests/ptx/syntax-9.4.txt");
    REQUIRE(in);
    std::vector<Line> lines;
    std::string text;
    for (int n = 1; std::getline(in, text); ++n) {
        if (trim(text).empty() || trim(text)[0] == '#') continue;
        // cells are separated by " | ", so that an instance may hold a '|' of its own
        // (waitComplete|reportPredicate, d|p)
        std::vector<std::string> cells;
        for (std::size_t from = 0;;) {
            std::size_t bar = text.find(" | ", from);
            cells.push_back(trim(text.substr(from, bar == std::string::npos ? bar : bar - from)));
            if (bar == std::string::npos) break;
            from = bar + 3;
        }
        INFO("tests/ptx/syntax-9.4.txt:" << n << ": " << text);
        REQUIRE(cells.size() >= 3);
        REQUIRE((cells[0] == "decodes" || cells[0] == "open"));
        if (cells[0] == "open") REQUIRE(cells.size() == 4); // an open form says why
        lines.push_back({n, cells[0] == "decodes", cells[1], cells[2]});
    }
    return lines;
}

/** The instruction `text` as the one instruction of a one-thread litmus test. */
bool decodes(const std::string& text, std::string& why) {
    try {
        ptx::decode(parseInsn(text));
        return true;
    } catch (const InputError& e) {
        why = e.what();
        return false;
    }
}

} // namespace

TEST_CASE("every syntax line of the 9.4 text decodes, or is listed as open", "[ptx][syntax]") {
    auto lines = readTable();
    CHECK(lines.size() > 100);
    for (const Line& l : lines) {
        INFO("tests/ptx/syntax-9.4.txt:" << l.number << " (" << l.section << "): " << l.instance);
        std::string why;
        bool ok = decodes(l.instance, why);
        INFO(why);
        if (!l.decodes) {
            CHECK_FALSE(ok); // decodes now: mark it `decodes`, with tests of its semantics
            continue;
        }
        CHECK(ok); // every line that fails is reported, not only the first
        if (!ok) continue;
        // the printed opcode decodes again, to the same print
        auto insn = ptx::decode(parseInsn(l.instance));
        std::string printed = ptx::print(insn);
        std::string again = printed.substr(0, printed.find(' '));
        auto space = l.instance.find(' ');
        std::string operands = space == std::string::npos ? "" : l.instance.substr(space);
        CHECK(ptx::print(ptx::decode(parseInsn(again + operands))) == printed);
    }
}
