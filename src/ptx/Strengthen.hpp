// Strengthenings: one synchronising instruction added, or one access made acquire/release.
#pragma once

#include "litmus/Ast.hpp"

#include <string>
#include <vector>

namespace ptxmc::ptx {

/**
 * One strengthening of a test: the inverse of a Mutation (ptx/Mutation.hpp). `explain` tries
 * them to say which change would forbid an allowed outcome.
 *   after   insert tcgen05.fence::after_thread_sync before instruction `index`
 *   before  insert tcgen05.fence::before_thread_sync before instruction `index`
 *   proxy   insert fence.proxy.async before instruction `index`
 *   fence   insert fence.acq_rel.gpu before instruction `index`
 *   acquire make instruction `index` (a load, atom or mbarrier wait) .acquire
 *   release make instruction `index` (a store or mbarrier/cluster arrive) .release
 *   wait    insert the wait that completes an earlier asynchronous operation of the thread
 *           before instruction `index`: cp.async.wait_all, tcgen05.wait::ld / wait::st
 */
struct Strengthening {
    enum class Kind { After, Before, Proxy, Fence, Acquire, Release, Wait };
    Kind kind = Kind::After;
    int thread = 0;  ///< the n of Pn
    int index = 0;   ///< instruction index within the thread (insertions go before it)
    int waitFor = 0; ///< Wait: 0 cp.async.wait_all, 1 tcgen05.wait::ld, 2 tcgen05.wait::st
};

/** Every strengthening that can matter for the test, in thread and program order. */
std::vector<Strengthening> strengthenings(const litmus::Test& test);

/** The test with `s` applied (the instruction at `s.index` keeps its source position). */
litmus::Test applyStrengthening(const litmus::Test& test, const Strengthening& s);

/** What `s` does, in words: "a tcgen05.fence::after_thread_sync before P1's tcgen05.mma (line
 *  12)", "P1's mbarrier.try_wait... (line 11) made .acquire". */
std::string describe(const litmus::Test& test, const Strengthening& s);

} // namespace ptxmc::ptx
