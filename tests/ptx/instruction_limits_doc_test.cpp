// litmus/README.md's table of operand limits names every shape, repeat, kind and format the
// decoder accepts (src/ptx/Tables.cpp), so the two cannot drift apart.
#include "ptx/Tables.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

namespace {

std::string limitsSection() {
    std::ifstream in(std::string(PTXMC_SOURCE_DIR) + "/litmus/README.md");
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    const std::string doc = text.str();
    const auto begin = doc.find("### Operand limits the decoder enforces");
    REQUIRE(begin != std::string::npos);
    return doc.substr(begin, doc.find("\n### ", begin + 1) - begin);
}

} // namespace

TEST_CASE("litmus/README.md's operand limits list the decoder's tables", "[ptx][docs]") {
    using namespace ptxmc::ptx;
    const std::string limits = limitsSection();
    auto documented = [&](const std::string& word) {
        INFO(word);
        CHECK(limits.find("`" + word + "`") != std::string::npos);
    };
    for (const auto& s : kLdStShapes)
        documented(std::string(s.name));
    for (const auto& s : kCpShapes)
        documented(std::string(s.name));
    for (const auto& w : kCpWarps)
        documented(std::string(".").append(w.name));
    for (const auto& f : kCpDecompress)
        documented(std::string(f));
    for (const auto& k : kMmaKinds)
        documented(std::string(k));
    for (const auto& p : kPacks)
        documented(std::string(".").append(p.name));
    std::string repeats;
    for (std::size_t i = 0; i < kLdStRepeats.size(); ++i)
        repeats += (i ? ", " : "") + std::to_string(kLdStRepeats[i]);
    INFO(repeats);
    CHECK(limits.find("N in " + repeats) != std::string::npos);
}
