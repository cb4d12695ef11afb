// Prints a CheckResult as a herd7-style block (herd's lines plus ptxmc's extras).
#pragma once

#include "report/EngineTypes.hpp"
#include "report/PrintOptions.hpp"

#include <iosfwd>
#include <string>

namespace ptxmc::report {

/** herd's verdict word for a quantifier: exists -> Allowed, ~exists -> Forbidden, forall ->
 * Required. */
const char* herdKind(ir::Quantifier q);

/**
 * The `Expected ...` line for a governed result (on a mismatch, what differs), or "" when no
 * expectations file governs it.
 */
std::string expectationLine(const CheckResult& r);

class HerdPrinter {
public:
    explicit HerdPrinter(PrintOptions options = {}) : options_(options) {}

    /** One block, ending in a blank line. */
    void print(std::ostream& out, const CheckResult& r) const;
    std::string format(const CheckResult& r) const;

private:
    PrintOptions options_;
};

} // namespace ptxmc::report
