// Runs a search on a thread of its own, so that a solver deaf to its interrupt cannot hold
// the caller past the time limit.
#pragma once

#include "engine/Options.hpp"

#include <functional>
#include <vector>

namespace ptxmc::engine {

/** A search over copies of the program and model that fills in `out`. */
using DetachableSearch =
    std::function<void(const ir::Program& program, const cat::ResolvedModel& model,
                       std::vector<engine::CheckResult>& out)>;

/**
 * Runs `search` on a new thread that owns copies of `program` and `model`, and waits for it
 * until `deadline`. True: it finished and `out` holds its results. False: it did not (Z3 4.8
 * ignores the watchdog's interrupt inside some long steps of a query); the thread is left to
 * finish on its own, its copies with it, and `out` is untouched.
 */
bool searchWithin(const ir::Program& program, const cat::ResolvedModel& model,
                  Clock::time_point deadline, std::vector<engine::CheckResult>& out,
                  DetachableSearch search);

/** How many searches this process has left behind: a program that has any ends with
 *  std::_Exit after flushing its output, not waiting for them. */
std::size_t searchesLeftBehind();

} // namespace ptxmc::engine
