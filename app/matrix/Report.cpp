// Lays the cells out as tables: an overview grid, the one-thread table, the two-thread tables.
#include "matrix/Report.hpp"

#include "matrix/Rules.hpp"
#include "report/Answer.hpp"
#include "report/JsonPrinter.hpp"

#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace ptxmc::matrix {

namespace {

std::string testLink(const MatrixRun& run, const Cell& c) {
    return run.testsLink + "/" + c.id + ".litmus";
}

/** `text` linked to the cell's test, or plain when the tests are not written beside it. */
std::string linkedToTest(const MatrixRun& run, const Cell& c, const std::string& text) {
    return run.testsLink.empty() ? text : "[" + text + "](" + testLink(run, c) + ")";
}

std::string sectionLink(const Rule& r) {
    return "[" + r.section + "](" + ruleUrl(r) + ")";
}

// The overview symbol of one cell: a check mark or a cross, linked to the test.
std::string symbol(const MatrixRun& run, const Cell& c) {
    const CellResult& r = run.result(c.id);
    if (r.verdict == Verdict::NotApplicable) return "—";
    const char* mark = r.verdict == Verdict::Ordered      ? "✓"
                       : r.verdict == Verdict::MayReorder ? "✗"
                                                          : "error";
    return linkedToTest(run, c, mark);
}

bool disagrees(const MatrixRun& run, const Cell& c) {
    const CellResult& r = run.result(c.id);
    return c.test && r.verdict != c.textReading;
}

std::string pairLabel(Op a, Op b) {
    if (a == Op::Mma && b == Op::Mma) return "mma, same accumulator, shape, kind";
    return opLabel(b);
}

std::vector<std::vector<std::string>> overviewRows(const MatrixRun& run) {
    std::vector<std::vector<std::string>> rows;
    for (Op a : tableOps()) {
        std::vector<std::string> row = {"**" + opLabel(a) + "**"};
        for (Op b : tableOps()) {
            if (a == Op::Mma && b == Op::Mma) {
                std::string all;
                for (Op v : {Op::Mma, Op::MmaAcc, Op::MmaShape, Op::MmaKind})
                    all +=
                        (all.empty() ? "" : " ") + symbol(run, run.cell(cellId(a, v, Sync::None)));
                row.push_back(all);
                continue;
            }
            row.push_back(symbol(run, run.cell(cellId(a, b, Sync::None))));
        }
        rows.push_back(row);
    }
    return rows;
}

std::vector<Op> tmemOps() {
    return {Op::Ld, Op::St, Op::Shift, Op::Cp128, Op::Cp4, Op::Mma};
}

std::vector<std::vector<std::string>> pairRows(const MatrixRun& run, bool twoThreads,
                                               const std::vector<Sync>& syncs) {
    std::vector<std::vector<std::string>> rows;
    for (Op a : tmemOps())
        for (Op b : partnersOf(a, twoThreads)) {
            if (!notApplicableReason(a, b).empty()) continue;
            std::vector<std::string> row = {"`" + opLabel(a) + "`", "`" + pairLabel(a, b) + "`"};
            std::string conflict;
            for (Sync s : syncs) {
                const Cell& c = run.cell(cellId(a, b, s));
                if (conflict.empty()) conflict = c.conflict;
                row.push_back(cellMarkdown(run, c));
            }
            // A commit or a wait touches no tensor memory: B conflicts through what it waits
            // for, so the column has nothing to say.
            if (b == Op::Commit || b == Op::WaitLd || b == Op::WaitSt) conflict.clear();
            row.insert(row.begin() + 2, conflict);
            rows.push_back(row);
        }
    return rows;
}

std::vector<std::string> header(const std::vector<Sync>& syncs, bool twoThreads) {
    std::vector<std::string> h = {twoThreads ? "A (P0)" : "A", twoThreads ? "B (P1)" : "B",
                                  "conflict"};
    for (Sync s : syncs)
        h.push_back(syncLabel(s));
    return h;
}

// The clause that says why a cell's test raises `flag`. Only A and B touch tensor memory in
// these tests (besides the initial values), so a tmem-race is always between them.
std::string flagReason(const Cell& c, const std::string& flag) {
    if (flag == "tmem-race")
        return "; flag tmem-race: A and B conflict (" + c.conflict +
               ") and some allowed execution leaves them unordered";
    return "; flag " + flag + ": not explained by the generator (TO REVIEW)";
}

} // namespace

const CellResult& MatrixRun::result(const std::string& id) const {
    for (std::size_t i = 0; i < cells.size(); ++i)
        if (cells[i].id == id) return results.at(i);
    throw std::out_of_range("matrix: no cell '" + id + "'");
}

const Cell& MatrixRun::cell(const std::string& id) const {
    for (const Cell& c : cells)
        if (c.id == id) return c;
    throw std::out_of_range("matrix: no cell '" + id + "'");
}

Verdict verdictOf(const std::string& observation) {
    if (observation == "Never") return Verdict::Ordered;
    if (observation == "Sometimes" || observation == "Always") return Verdict::MayReorder;
    return Verdict::Error;
}

std::string cellMarkdown(const MatrixRun& run, const Cell& c) {
    if (!c.test) return "—";
    const CellResult& r = run.result(c.id);
    std::string label = verdictLabel(r.verdict);
    if (r.verdict == Verdict::Ordered) label = "**" + label + "**";
    std::string out = linkedToTest(run, c, label);
    if (!c.pair.empty()) out += " " + c.pair;
    out += " " + sectionLink(rule(c.rule));
    if (disagrees(run, c)) out += " ⚠";
    if (!run.result(c.id).readings.empty()) out += " ‡";
    return out;
}

std::vector<std::string> readingDependentCells(const MatrixRun& run) {
    std::vector<std::string> cells;
    for (const Cell& c : run.cells) {
        const CellResult& r = run.result(c.id);
        if (r.readings.empty()) continue;
        std::string line = linkedToTest(run, c, c.id) + ": " + verdictLabel(r.verdict) +
                           " under the default reading";
        for (const CellResult::OtherReading& o : r.readings) {
            std::string questions;
            for (const std::string& q : o.decisions)
                questions += std::string(questions.empty() ? "" : ", ") + q;
            line += std::string("; ") + verdictLabel(o.verdict) + " under `" +
                    o.reading.modelFile() + "` (" + questions + ")";
        }
        cells.push_back(line + ".");
    }
    return cells;
}

Document matrixDocument(const MatrixRun& run) {
    Document d;
    d.title = "Reordering tables for tcgen05 operations";
    d.heading(1, d.title);
    if (run.testsLink.empty()) {
        // -o FILE or standard output: no tests beside it, and no test watching it.
        d.paragraph("Generated by `ptxmc matrix` from the model **" + run.model +
                    "**. No verdict here is written by hand: each one is what the model answers "
                    "for a litmus test the generator wrote. `ptxmc matrix --out-dir DIR` also "
                    "writes those tests, each verdict linked to its own.");
    } else {
        d.comment(std::string("Generated by `") + kRegenerateCommand +
                  "`; do not edit. The ctest docs/reordering-up-to-date fails when it is stale.");
        d.paragraph("Generated by `ptxmc matrix` from the model **" + run.model +
                    "**. No verdict here is written by hand: each one is what the model answers "
                    "for a litmus test the generator wrote, and each links that test. "
                    "Regenerate with `" +
                    kRegenerateCommand + "`. The tests folder (`" + run.testsLink +
                    "`) also holds their verdicts in an expected.txt, so `ptxmc check` on it "
                    "re-checks them.");
    }
    d.paragraph("Each cell asks: A is issued before B; can B's memory effects take place before "
                "A's complete? The test puts A and B on one tensor-memory cell (B reads what A "
                "writes, B overwrites what A writes, or B overwrites what A reads) and its "
                "condition asks for any final state other than the program-order one.");
    d.list({"**ordered**: no allowed final state shows B before A.",
            "may reorder: some allowed final state does (the model also raises its "
            "`tmem-race` flag there).",
            "—: nothing to test, for the reason given.",
            "P1–P13: A → B is one of the pipelined pairs of the 9.4 list in " +
                ptx::cite(ptx::Sec::Tcgen05Pipelined) + ".",
            "The section number (PTX ISA " + std::string(ptx::sectionsIsaVersion()) +
                " numbering) links the rule behind the verdict by its HTML anchor; the "
                "[rules](#ptx-rules-cited) table lists them.",
            "⚠: the model's verdict differs from the literal reading of that rule (listed "
            "[at the end](#where-the-model-differs-from-the-literal-reading))."});
    if (run.readings)
        d.paragraph("‡: the verdict is reading-dependent: under some reading of an open question "
                    "of the PTX text (a variant in model/variants) it is the other one (listed "
                    "[at the end](#reading-dependent-cells)). Every other cell has the same "
                    "verdict under every reading.");

    d.heading(2, "Overview: one thread, nothing between A and B");
    d.paragraph("✓ ordered, ✗ may reorder (each links its test), — nothing to test. Row A, "
                "column B. The `mma` × `mma` cell holds four tests: same accumulator, shape and "
                "kind (P1); other accumulator; other shape; other kind. The `commit`, "
                "`wait::ld` and `wait::st` columns ask whether that instruction waits for A: "
                "a later operation reads (or overwrites) A's cell after it (after a commit: "
                "an mbarrier wait and after_thread_sync).");
    std::vector<std::string> h = {"A \\ B"};
    for (Op b : tableOps())
        h.push_back("`" + opLabel(b) + "`");
    d.table(h, overviewRows(run));

    d.heading(2, "One thread");
    d.paragraph("A and B in one thread, in program order, with the column's instructions "
                "between them: nothing; `tcgen05.wait::ld` after an ld or `tcgen05.wait::st` "
                "after an st (— for mma, cp and shift: no wait exists for them); "
                "`tcgen05.commit` to an mbarrier and a `mbarrier.try_wait.parity.relaxed` spin; "
                "the same plus `tcgen05.fence::after_thread_sync`. For B = commit, wait::ld or "
                "wait::st only \"nothing\" applies: B is itself the completion mechanism.");
    d.table(header(sameThreadSyncs(), false), pairRows(run, false, sameThreadSyncs()));

    d.heading(3, "Pairs with nothing to reorder");
    std::vector<std::string> na;
    for (Op a : {Op::Alloc, Op::Commit, Op::WaitLd, Op::WaitSt, Op::Dealloc})
        na.push_back("**" + opLabel(a) + " → any**: " + notApplicableReason(a, Op::Ld) + " (" +
                     sectionLink(rule(run.cell(cellId(a, Op::Ld, Sync::None)).rule)) + ").");
    for (Op b : {Op::Alloc, Op::Dealloc})
        na.push_back("**any → " + opLabel(b) + "**: " + notApplicableReason(Op::St, b) + " (" +
                     sectionLink(rule("alloc")) + ").");
    na.push_back("**ld → ld**: " + notApplicableReason(Op::Ld, Op::Ld) + " (" +
                 sectionLink(rule("async")) + ").");
    d.list(na);

    d.heading(2, "Two threads of one CTA");
    d.paragraph("A in thread P0, B in thread P1 of the same CTA. Mbarrier: P0 "
                "`tcgen05.fence::before_thread_sync; mbarrier.arrive.relaxed.cluster` / P1 "
                "`mbarrier.try_wait.parity.relaxed.cluster` spin, "
                "`tcgen05.fence::after_thread_sync`. bar.sync: the fences around `bar.sync 0` in "
                "both threads. Relaxed flag: P0 `st.relaxed.cta` of a flag / P1 "
                "`ld.relaxed.cta` of it; the condition then also requires that P1 saw the flag. "
                "Completion: P0 waits for A first (`tcgen05.wait::ld` or `wait::st`, then "
                "before_thread_sync and the arrive; for mma, cp and shift a `tcgen05.commit` to "
                "the mbarrier, which implies before_thread_sync), P1 as for the mbarrier.");
    d.table(header(twoThreadSyncs(), true), pairRows(run, true, twoThreadSyncs()));
    d.heading(3, "With a fence dropped");
    d.paragraph("The same programs without one of the two tcgen05 fences.");
    d.table(header(droppedFenceSyncs(), true), pairRows(run, true, droppedFenceSyncs()));

    d.heading(2, "PTX rules cited");
    std::vector<std::vector<std::string>> rr;
    for (const Rule& r : rules())
        rr.push_back({"`" + r.key + "`", sectionLink(r), "`#" + r.anchor + "`", r.summary});
    d.table({"rule", "PTX ISA section", "anchor", "what it says"}, rr);

    d.heading(2, "Where the model differs from the literal reading");
    std::vector<std::string> diffs;
    for (const Cell& c : run.cells)
        if (disagrees(run, c))
            diffs.push_back(linkedToTest(run, c, c.id) + ": the model says " +
                            verdictLabel(run.result(c.id).verdict) + ", the literal reading of " +
                            sectionLink(rule(c.rule)) + " says " + verdictLabel(c.textReading) +
                            ".");
    if (diffs.empty())
        d.paragraph("Nowhere: on every cell the model gives the verdict the literal reading of "
                    "the cited rule gives.");
    else
        d.list(diffs);
    if (run.readings) {
        d.heading(2, "Reading-dependent cells");
        std::vector<std::string> cells = readingDependentCells(run);
        if (cells.empty())
            d.paragraph("None: every cell has the same verdict under every reading.");
        else
            d.list(cells);
    }
    return d;
}

std::string matrixJson(const MatrixRun& run) {
    nlohmann::ordered_json cells = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < run.cells.size(); ++i) {
        const Cell& c = run.cells[i];
        const CellResult& r = run.results.at(i);
        const Rule& ru = rule(c.rule);
        nlohmann::ordered_json j;
        j["id"] = c.id;
        j["a"] = opLabel(c.a);
        j["b"] = opLabel(c.b);
        j["sync"] = syncLabel(c.sync);
        j["threads"] = c.twoThreads ? 2 : 1;
        j["verdict"] = verdictLabel(r.verdict);
        j["textReading"] = verdictLabel(c.textReading);
        if (c.test) {
            if (!run.testsLink.empty()) j["test"] = testLink(run, c);
            j["observation"] = r.observation;
            j["flags"] = r.flags;
            j["conflict"] = c.conflict;
        } else {
            j["reason"] = c.reason;
        }
        if (!c.pair.empty()) j["pair"] = c.pair;
        j["rule"] = {{"section", ru.section}, {"anchor", ru.anchor}, {"summary", ru.summary}};
        if (!r.error.empty()) j["error"] = r.error;
        if (r.readingsChecked) {
            nlohmann::ordered_json other = nlohmann::ordered_json::array();
            for (const CellResult::OtherReading& o : r.readings)
                other.push_back({{"model", o.reading.modelFile()},
                                 {"verdict", verdictLabel(o.verdict)},
                                 {"decisions", o.decisions}});
            j["readings"] = {{"robust", r.readings.empty()}, {"differs", other}};
        }
        cells.push_back(j);
    }
    nlohmann::ordered_json out;
    out["model"] = run.model;
    out["cells"] = cells;
    return dumpJson(out);
}

std::string matrixExpectations(const MatrixRun& run) {
    std::string out = "# Written by `" + std::string(kRegenerateCommand) + "` under " + run.model +
                      ": the verdict, flags and state count of each generated test.\n";
    for (std::size_t i = 0; i < run.cells.size(); ++i) {
        const Cell& c = run.cells[i];
        const CellResult& r = run.results.at(i);
        if (!c.test || r.observation.empty()) continue;
        const Rule& ru = rule(c.rule);
        out += c.id + ".litmus  " + r.observation + "  flags=" + report::flagsText(r.flags) +
               "  states=" + std::to_string(r.states) + "  " + verdictLabel(r.verdict) + " (" +
               syncLabel(c.sync) + "): PTX ISA " + ru.section + " (#" + ru.anchor + ")";
        for (const std::string& flag : r.flags)
            out += flagReason(c, flag);
        out += "\n";
    }
    return out;
}

} // namespace ptxmc::matrix
