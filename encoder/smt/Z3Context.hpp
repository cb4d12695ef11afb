// A Z3 context with its own count of fresh condition names (Z3Algebra::fresh).
#pragma once

#include <z3++.h>

namespace ptxmc::engine::smt {

/**
 * Every session of one context (main, hang, unfixed) takes fresh names from the context's
 * count, so no two share a name. The count is the context's, not the process's: with a
 * process-wide count a test's names, and with them Z3's choice among equal models (the
 * witness a flag prints), depended on the tests checked before it, on which thread
 * (`--jobs 2` and `--jobs 1` printed different data-race witnesses).
 */
class Z3Context : public z3::context {
public:
    unsigned freshNames = 0;
};

} // namespace ptxmc::engine::smt
