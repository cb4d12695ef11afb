// Gates: the blocking events an event's existence depends on, for executions that hang.
#pragma once

#include "ir/Program.hpp"

#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace ptxmc::ir {

/**
 * How a gate decides whether its thread goes on. A spinning mbarrier wait is Chosen: each
 * execution says whether it blocks forever (PTX ISA
 * #parallel-synchronization-and-communication-instructions-mbarrier-test-wait-try-wait). The
 * completion of a bar.sync and a cta_group::2 alloc/dealloc Need other threads' events: the
 * barrier's other arrivals ({BarBarrier}), the peer CTA's operation ({Tcgen05IssueGranularity}).
 * A cta_group::2 dealloc MayBlock: "the program exhibits non-deterministic behavior ... because
 * .dealloc may or may not block" ({Tcgen05IssueGranularity}, Table 57 of the 9.4 text): each
 * execution says whether it blocks (as a Chosen wait), and a blocked one passes once its peer's
 * dealloc is reached (as a Needs gate).
 */
enum class GateKind { None, Chosen, Needs, MayBlock };

/** The barrier number barrier.cluster uses (bar.sync numbers are 0..15). */
inline constexpr int kClusterBarrier = 16;

/** Which barrier instance a BAR event belongs to: (CTA or cluster, number, instance). */
inline std::tuple<int, int, int> barrierKey(const Event& e) {
    return {e.barrierId == kClusterBarrier ? e.cluster : e.cta, e.barrierId, e.barrierInstance};
}

GateKind gateKind(const Event& e);

/** Does the gate hold back itself (Needs) or only what follows it (a wait is performed)? */
bool gateCoversItself(const Event& gate);

/**
 * Fills Event::gates (the gates of its thread before it, and itself where it covers itself)
 * and Event::gateNeeds (the events whose threads must reach them: the gates before each let
 * it through). Returns a description of each set of gates that wait for each other
 * in every execution (a static deadlock).
 */
std::vector<std::string> computeGates(Program& p);

/** Orders every execution keeps in real time: po, issue before its own events (ae), iico,
 *  and each barrier's arrivals before its completions in other threads. */
std::vector<std::pair<int, int>> realTimePairs(const Program& p);

/** realTimePairs transitively reduced (pairs a longer path implies are left out): only for
 *  encodings that order every event, happening or not; dropping an event that does not
 *  happen from the reduced order would lose the order around it. */
std::vector<std::pair<int, int>> realTimeOrder(const Program& p);

/** reach[a][b]: the real-time pairs of realTimeOrder order a before b, transitively. */
std::vector<std::vector<bool>> realTimeReach(const Program& p);

/** The gates each execution may block on: the blocking mbarrier waits (Chosen) and the
 *  cta_group::2 deallocs (MayBlock), in id order. */
std::vector<int> chosenGates(const Program& p);

} // namespace ptxmc::ir
