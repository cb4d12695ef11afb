// A litmus test as text under construction: init entries, a code table, a condition.
#pragma once

#include <string>
#include <vector>

namespace ptxmc::matrix {

/** The parts of one generated test; text() lays them out in the corpus's style. */
struct LitmusText {
    std::string name;
    std::vector<std::string> descriptions;         ///< one quoted line each (no quotes here)
    std::vector<std::string> init;                 ///< init entries without the trailing ';'
    std::vector<std::vector<std::string>> threads; ///< instructions of P0, P1, ... (all CTA 0)
    std::string condition;                         ///< e.g. "exists (P0:r0 == 1)"

    /** Appends an instruction to thread `tid`, creating the thread's column when needed. */
    void add(std::size_t tid, const std::string& instruction);
    /** The whole test; columns padded so that each row reads across. */
    std::string text() const;
};

} // namespace ptxmc::matrix
