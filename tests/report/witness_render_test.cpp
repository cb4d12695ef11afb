// The witness as people read it: threads in order, initial writes apart, labelled accesses.
#include "report/WitnessText.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace ptxmc::report;

namespace {

WitnessGraph sample() {
    WitnessGraph g;
    g.title = "t";
    g.nodes.push_back({0, "init", -1, "", "W x", 0, 0, false, "", false, ""});
    g.nodes.push_back({1, "P10", 1, "st.relaxed.gpu", "W x", 7, 1, false, "", false, ""});
    g.nodes.push_back({2, "P2", 0, "ld.relaxed.gpu", "R x", 4, 0, false, "", false, ""});
    g.nodes.push_back({3, "P2", 0, "fence.sc.gpu", "", 5, std::nullopt, false, "", false, ""});
    g.edges.push_back({0, 2, "rf", true});
    g.edges.push_back({2, 3, "po", false});
    g.highlightMeaning = "a read whose value the final state shows";
    return g;
}

} // namespace

TEST_CASE("witness text: each event with its thread, line and access", "[report]") {
    const std::string text = toText(sample());
    CHECK(text.find("  e0  init  W x=0\n") != std::string::npos);
    CHECK(text.find("  e1  P10@cta1 (line 7)  W x=1  st.relaxed.gpu\n") != std::string::npos);
    CHECK(text.find("  e2  P2@cta0 (line 4)  R x=0  ld.relaxed.gpu\n") != std::string::npos);
    CHECK(text.find("  e3  P2@cta0 (line 5)  fence.sc.gpu\n") != std::string::npos);
    CHECK(text.find("rf: e0 -> e2   <== a read whose value the final state shows") !=
          std::string::npos);
}

TEST_CASE("witness picture: threads in number order, initial writes on top, a legend", "[report]") {
    const std::string dot = toDot(sample());
    // P2 (in CTA 0) before P10 (in CTA 1): CTAs ordered by their first thread's number
    const auto p2 = dot.find("label=\"P2\"");
    const auto p10 = dot.find("label=\"P10\"");
    REQUIRE(p2 != std::string::npos);
    REQUIRE(p10 != std::string::npos);
    CHECK(p2 < p10);
    // the initial write in its own top row, above each thread's first event
    CHECK(dot.find("subgraph init {\n    rank=min;\n    e0 [label=\"e0: W x=0\"];") !=
          std::string::npos);
    CHECK(dot.find("e0 -> e2 [style=invis, weight=0];") != std::string::npos);
    CHECK(dot.find("e0 -> e1 [style=invis, weight=0];") != std::string::npos);
    // accesses labelled, with the source line
    CHECK(dot.find("e1: W x=1  st.relaxed.gpu\\nline 7") != std::string::npos);
    // the highlighted edge thick, and a legend naming only the relations drawn
    CHECK(dot.find("e0 -> e2 [label=\"rf\", color=\"red\", fontcolor=\"red\", penwidth=3") !=
          std::string::npos);
    // a base relation's legend is its vocabulary entry (ir/Vocabulary.def), up to its ':'
    CHECK(dot.find(">rf</font></td><td align=\"left\">reads-from</td>") != std::string::npos);
    CHECK(dot.find(">po</font>") != std::string::npos);
    CHECK(dot.find(">co</font>") == std::string::npos);
    CHECK(dot.find("a read whose value the final state shows") != std::string::npos);
}
