// The seed guide's claims (nvFuser "tcgen05 Synchronization Guide") and how to test each one.
#pragma once

#include "matrix/Cells.hpp"
#include "matrix/Document.hpp"
#include "matrix/LitmusText.hpp"
#include "matrix/Report.hpp"

#include <string>
#include <vector>

namespace ptxmc::matrix {

/** The guide's seed-matrix operations (its §4.1 rows and columns, `fence` left out). */
const std::vector<std::string>& seedMatrixOps();

/** Its §4.1 mark for row A, column B: "✅", "❌" or "❓". */
std::string seedMark(const std::string& a, const std::string& b);

/** The model operations a seed-matrix operation stands for (cp: both shapes). */
std::vector<Op> modelOpsOf(const std::string& seedOp);

/** A behavioural claim, decided by a corpus test. */
struct BehaviourClaim {
    std::string section; ///< where the guide says it, e.g. "4.2"
    std::string quote;   ///< the claim, briefly (inline Markdown)
    std::string test;    ///< path under the corpus folder
    std::string holdsIf; ///< the observation under which the claim would be right
    std::string rule;    ///< what the PTX text says instead (matrix/Rules.hpp key)
    std::string why;     ///< that rule applied to the test, in a few words
};
const std::vector<BehaviourClaim>& behaviourClaims();

/** A syntax claim: the guide's instruction inside an otherwise valid test. */
struct SyntaxClaim {
    std::string id;      ///< file stem
    std::string section; ///< where the guide writes it
    std::string quote;   ///< the guide's instruction, as written there
    std::string correct; ///< the valid PTX the guide meant (inline Markdown)
    std::string rule;
    LitmusText test;  ///< with the claimed instruction
    LitmusText fixed; ///< the same with the correct instruction (must be accepted)
};
std::vector<SyntaxClaim> syntaxClaims();

/** Parses and lowers a test: the error message, or empty when ptxmc accepts it. */
std::string frontEndError(const LitmusText& test);

/** What checking each behaviour claim's corpus test gave, parallel to behaviourClaims(). */
struct SeedRun {
    const MatrixRun* matrix = nullptr;
    std::string corpusLink = "../litmus"; ///< the corpus, relative to the document
    std::string syntaxLink = "matrix/syntax";
    std::vector<std::string> observations; ///< per behaviour claim (or "error: ...")
};

Document seedCheckDocument(const SeedRun& run);

} // namespace ptxmc::matrix
