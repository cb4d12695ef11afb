// The compact explanation's cycle lines: each step's relation, a cycle closing "back to" its
// first event, a one-step cycle closing on "itself".
#include "report/ExplainText.hpp"

#include <catch2/catch.hpp>

using ptxmc::engine::explain::Explanation;
using ptxmc::report::ExplainReport;
using ptxmc::report::explanationText;

namespace {

ExplainReport forbiddenBy(std::vector<Explanation::Step> steps) {
    ExplainReport r;
    r.file = "t.litmus";
    r.explanation.kind = Explanation::Kind::Forbidden;
    r.explanation.target = "P1:r0 == 0";
    Explanation::Violation v;
    v.axiom = "Execution-Order";
    v.doc = "Execution-Order: real time is respected by memory and by each mbarrier.";
    v.where = "<builtin>/tcgen05.cat:149:1";
    v.steps = std::move(steps);
    v.cycle = true;
    r.explanation.violations.push_back(std::move(v));
    return r;
}

} // namespace

TEST_CASE("explain text: a cycle closes back to its first event, a one-step one on itself",
          "[explain]") {
    const std::string longer =
        explanationText(forbiddenBy({{"P0 line 3: st.global.u32 x", "po"},
                                     {"P1 line 5: ld.global.u32 x, reads x = 0", "fr"}}),
                        false);
    CHECK_THAT(longer, Catch::Contains("    P0 line 3: st.global.u32 x\n"
                                       "      --po--> P1 line 5: ld.global.u32 x, reads x = 0\n"
                                       "      --fr--> back to P0 line 3\n"));
    const std::string one = explanationText(
        forbiddenBy({{"P0 line 19: mbarrier.try_wait on empty0, parity 0, in phase 1", "xo"}}),
        false);
    CHECK_THAT(one, Catch::Contains("    P0 line 19: mbarrier.try_wait on empty0, parity 0, in "
                                    "phase 1\n      --xo--> itself\n"));
    CHECK_THAT(one, !Catch::Contains("back to"));
}
