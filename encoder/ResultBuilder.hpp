// Shared by both engines: turning final states into a herd-style CheckResult.
#pragma once

#include "ir/Program.hpp"
#include "report/Result.hpp"

#include <cstdint>
#include <set>
#include <vector>

namespace ptxmc::engine {

/** A result with the test's name, condition and observed names filled in. */
report::CheckResult resultSkeleton(const ir::Program& p);

/** Adds the distinct final states (sorted), then counts, Observation and Ok/No. */
void setStates(report::CheckResult& r, const ir::Program& p,
               const std::set<std::vector<std::int64_t>>& states);

} // namespace ptxmc::engine
