// The documents of `ptxmc matrix`: Markdown and HTML rendering, cells, expectations.
#include "matrix/Document.hpp"
#include "matrix/Report.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc::matrix;

namespace {

// A stand-in model in which every relation holds between every two events: enough to make
// mma -> mma the pair P1 without the engine, which this test binary does not link.
std::vector<std::pair<int, int>> allPairs(const ptxmc::ir::Program& p, const std::string&) {
    std::vector<std::pair<int, int>> out;
    for (const auto& x : p.events)
        for (const auto& y : p.events)
            out.emplace_back(x.id, y.id);
    return out;
}

} // namespace

TEST_CASE("Markdown blocks", "[matrix][render]") {
    Document d;
    d.heading(2, "Title");
    d.paragraph("text with `code`");
    d.table({"a", "b"}, {{"1", cellText("x|y")}});
    d.list({"one", "two"});
    CHECK(renderMarkdown(d) == "## Title\n\ntext with `code`\n\n| a | b |\n|---|---|\n"
                               "| 1 | x\\|y |\n\n- one\n- two\n");
}

TEST_CASE("inline Markdown as HTML", "[matrix][render]") {
    CHECK(inlineHtml("a `<b>` **c** [d](e.litmus)") ==
          "a <code>&lt;b&gt;</code> <strong>c</strong> <a href=\"e.litmus\">d</a>");
    CHECK(inlineHtml("[**ok**](t.litmus)") == "<a href=\"t.litmus\"><strong>ok</strong></a>");
    CHECK(inlineHtml("x\\|y") == "x|y");
    Document d;
    d.title = "T";
    d.heading(1, "Some Title");
    CHECK_THAT(renderHtml(d), Catch::Contains("<h1 id=\"some-title\">Some Title</h1>"));
}

TEST_CASE("a cell links its test and its PTX section", "[matrix][render]") {
    MatrixRun run;
    run.model = "m";
    run.cells = {makeCell(Op::Mma, Op::Mma, Sync::None, allPairs),
                 makeCell(Op::Mma, Op::Ld, Sync::Wait, allPairs)};
    run.results = {{Verdict::Ordered, "Never", {}, "", 1, {}, false}, {}};
    CHECK(cellMarkdown(run, run.cells[0]) ==
          "[**ordered**](matrix/tests/same-mma-mma-none.litmus) P1 [9.7.18.6.2]"
          "(https://docs.nvidia.com/cuda/parallel-thread-execution/"
          "#tcgen05-memory-consistency-model-pipelined-instructions)");
    CHECK(cellMarkdown(run, run.cells[1]) == "—");
    CHECK_THAT(matrixExpectations(run),
               Catch::Contains("same-mma-mma-none.litmus  Never  flags=none  states=1  ordered "
                               "(nothing)"));
    run.results[0] = {Verdict::MayReorder, "Sometimes", {"tmem-race"}, "", 2, {}, true};
    CHECK_THAT(cellMarkdown(run, run.cells[0]), Catch::EndsWith(" ⚠"));
    // Reading-dependent: marked in the table and listed with the readings and their questions.
    run.readings = true;
    run.results[0].readings = {
        {ptxmc::cat::ReadingId{"q4-kind-not-required"}, Verdict::Ordered, {"Q4 (9.7.18.6.2)"}}};
    CHECK_THAT(cellMarkdown(run, run.cells[0]), Catch::EndsWith(" ⚠ ‡"));
    REQUIRE(readingDependentCells(run).size() == 1);
    CHECK_THAT(readingDependentCells(run)[0],
               Catch::Contains("same-mma-mma-none](matrix/tests/same-mma-mma-none.litmus): may "
                               "reorder under the default reading; ordered under "
                               "`variants/q4-kind-not-required.cat` (Q4 (9.7.18.6.2))."));
    CHECK_THAT(matrixJson(run), Catch::Contains("\"robust\": false"));
    run.results[0].readings.clear();
    run.readings = false;
    CHECK_THAT(matrixExpectations(run),
               Catch::Contains("same-mma-mma-none.litmus  Sometimes  flags=tmem-race  states=2  "
                               "may reorder (nothing)"));
    CHECK_THAT(matrixExpectations(run),
               Catch::EndsWith("; flag tmem-race: A and B conflict (" + run.cells[0].conflict +
                               ") and some allowed execution leaves them unordered\n"));
}

TEST_CASE("verdicts from observations", "[matrix][render]") {
    CHECK(verdictOf("Never") == Verdict::Ordered);
    CHECK(verdictOf("Sometimes") == Verdict::MayReorder);
    CHECK(verdictOf("Deadlock") == Verdict::Error);
}

TEST_CASE("table cells link by reference, so rows read in an editor", "[matrix][render]") {
    Document d;
    d.table({"A", "B"}, {{"[✗](matrix/tests/same-ld-st-none.litmus) [9.7.18.6.1](https://x/#a)",
                          "t[2] [**ordered**](matrix/tests/t2.litmus)"},
                         {"[✓](matrix/tests/same-ld-st-none.litmus)", "—"}});
    d.paragraph("A [link](https://y) in a paragraph stays inline.");
    const std::string md = renderMarkdown(d);
    CHECK(md.find("| [✗][same-ld-st-none] [9.7.18.6.1] | t[2] [**ordered**][t2] |\n") !=
          std::string::npos);
    CHECK(md.find("| [✓][same-ld-st-none] | — |\n") != std::string::npos);
    // each definition once, after the table
    CHECK(md.find("\n[same-ld-st-none]: matrix/tests/same-ld-st-none.litmus\n"
                  "[9.7.18.6.1]: https://x/#a\n[t2]: matrix/tests/t2.litmus\n") !=
          std::string::npos);
    CHECK(md.find("[same-ld-st-none]: ", md.find("[same-ld-st-none]: ") + 1) == std::string::npos);
    CHECK(md.find("A [link](https://y) in a paragraph stays inline.") != std::string::npos);
}
