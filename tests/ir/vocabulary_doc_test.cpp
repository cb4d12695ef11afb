// model/README.md documents exactly the base vocabulary the engine provides.
#include "ir/Vocabulary.hpp"
#include "ptx/Sections.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

TEST_CASE("model/README.md lists every base set and relation, and nothing else", "[vocabulary]") {
    std::ifstream in(std::string(PTXMC_SOURCE_DIR) + "/model/README.md");
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    std::string doc = text.str();
    std::set<std::string> documented;
    std::regex row(R"(\n\| `([^`]+)` \|)");
    auto section = doc.substr(doc.find("## Base vocabulary"));
    for (std::sregex_iterator it(section.begin(), section.end(), row), end; it != end; ++it)
        documented.insert((*it)[1]);
    std::set<std::string> provided;
    for (const auto& b : ptxmc::ir::baseVocabulary()) {
        provided.insert(b.name);
        INFO(b.name);
        CHECK(doc.find("| `" + b.name + "` |") != std::string::npos);
        CHECK(doc.find(b.doc) != std::string::npos);
        // The citation column: section keys resolved in ptx/Sections.cpp's table.
        if (!b.source.empty())
            CHECK(doc.find("| " + ptxmc::ptx::expandCitations(b.source) + " |") !=
                  std::string::npos);
    }
    CHECK(documented == provided);
}
