// A proof that no real-time schedule hangs, read off each mbarrier object's own facts.
#pragma once

#include "ir/Program.hpp"
#include "smt/Schedules.hpp"

#include <string>
#include <vector>

namespace ptxmc::engine::schedules {

/** What proveNoHang found: whether the proof holds, and a schedule that runs every event, or
 *  why it does not. */
struct HangProof {
    bool holds = false;
    std::string why;           ///< the first condition that failed (holds false)
    std::vector<int> schedule; ///< every event, in an order real time allows (holds true)
};

/**
 * Whether explore()'s answer is NoHang, shown without searching the schedules of the whole
 * program: for kernels of many warps (CUTLASS example 48's 80) that search passes its limit, while
 * each mbarrier object's own search stays small (`each`: observeEachObject under real time, in
 * rounds that order each wait after the changes always before it).
 *
 * Each object's facts hold in every real-time schedule (each schedule, seen from one object, is
 * one of that object's relaxed program). The proof needs them to fix every change (arrive,
 * expect_tx, complete_tx) and every spinning wait to one phase, with no misuse in any schedule,
 * and then three conditions:
 *  - every phase a wait waits for is exact: its changes bring the init count of arrivals and as
 *    many bytes completed as expected, so the phase completes once they all ran (it cannot
 *    complete sooner: the changes after would be in the next phase);
 *  - the graph of real-time pairs and, into each wait, the changes of the phase it waits for
 *    has no cycle;
 *  - no wait is overtaken: the phase after the one it waits for cannot complete without a change
 *    that must run after the wait (a path of real-time pairs and necessary changes: an exact
 *    phase needs each arrival, and each complete_tx where no standalone expect_tx may be left
 *    out), or lacks arrivals to complete at all.
 * Then in any schedule the first event of that graph's order not run is enabled: past its
 * predecessors, a wait's phase has completed and the next one has not, so the parity it names
 * is the one that completed. So no schedule stops with events left, and the graph's order is
 * a schedule that runs every event. Programs with cta_group::2 rendezvous are left out.
 */
HangProof proveNoHang(const ir::Program& p, const MbarrierFacts& each);

} // namespace ptxmc::engine::schedules
