// The reordering tables as a document (Markdown/HTML) or JSON, from cells and their verdicts.
#pragma once

#include "cat/ReadingId.hpp"
#include "matrix/Cells.hpp"
#include "matrix/Document.hpp"

#include <string>
#include <vector>

namespace ptxmc::matrix {

/** What checking one cell's test gave. */
struct CellResult {
    Verdict verdict = Verdict::NotApplicable;
    std::string observation;        ///< Never, Sometimes, ... (empty without a test)
    std::vector<std::string> flags; ///< undefined-behaviour flags raised (tmem-race, ...)
    std::string error;              ///< with Verdict::Error
    std::size_t states = 0;         ///< distinct allowed final states
    /// With the built-in model: the readings of open questions (model/variants) under which
    /// the verdict differs, each with that verdict and the questions it reads otherwise
    struct OtherReading {
        cat::ReadingId reading; ///< printed as its file, "variants/q4-kind-not-required.cat"
        Verdict verdict = Verdict::NotApplicable;
        std::vector<std::string> decisions; ///< "Q4 (<section>)"
    };
    std::vector<OtherReading> readings;
    bool readingsChecked = false; ///< readings computed (the built-in model)
};

/** Every cell with its result; the input of every renderer. */
struct MatrixRun {
    std::string model; ///< how the model is named in the documents
    /// the tests folder, relative to the document; empty: no tests written (-o FILE)
    std::string testsLink = "matrix/tests";
    std::vector<Cell> cells;
    std::vector<CellResult> results; ///< parallel to cells
    bool readings = false;           ///< every cell checked under every reading too

    /** The result of the cell with this id; throws std::out_of_range when there is none. */
    const CellResult& result(const std::string& id) const;
    /** The cell with this id; throws std::out_of_range when there is none. */
    const Cell& cell(const std::string& id) const;
};

/** The verdict an observation of the "reordered" condition means. */
Verdict verdictOf(const std::string& observation);

/** The cells whose verdict some reading changes: "id: verdict under the default reading;
 *  other verdict under `variant` (Q4 (<section>))." with the cell linked to its test. */
std::vector<std::string> readingDependentCells(const MatrixRun& run);

/** One table cell in inline Markdown: verdict linked to its test, pair, PTX section. */
std::string cellMarkdown(const MatrixRun& run, const Cell& c);

Document matrixDocument(const MatrixRun& run);
std::string matrixJson(const MatrixRun& run);

/** expected.txt for the tests folder, so that `ptxmc check` re-checks the generated tests. */
std::string matrixExpectations(const MatrixRun& run);

/** The command that regenerates the committed documents. */
inline constexpr const char* kRegenerateCommand = "ptxmc matrix --out-dir docs";

} // namespace ptxmc::matrix
