// Runs independent jobs on several threads but hands their results over in input order.
#pragma once

#include <cstddef>
#include <functional>

namespace ptxmc::cli {

/**
 * Calls work(i) for i in [0, count) on up to `jobs` threads, and emit(i) on the calling thread
 * in increasing i as soon as work(0..i) are done, so output does not depend on `jobs`.
 * An exception thrown by work(i) is rethrown from the calling thread when i is due.
 */
void runInOrder(std::size_t count, unsigned jobs, const std::function<void(std::size_t)>& work,
                const std::function<void(std::size_t)>& emit);

} // namespace ptxmc::cli
