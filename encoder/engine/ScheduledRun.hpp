// One schedule as a concrete execution, complete or hanging, checked by the explicit evaluator.
#pragma once

#include "cat/Resolver.hpp"
#include "engine/ConcreteModel.hpp"
#include "engine/ResultBuilder.hpp"
#include "ir/Program.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptxmc::engine {

/** What an allowed execution shows: its final state and the flags it raises. */
struct ScheduledRun {
    std::vector<std::int64_t> state; ///< the observed values, in order
    FlagWitnesses flags;             ///< each raised flag with one witness
};

/**
 * The execution that runs `schedule` (every event once, in that order) sequentially
 * consistently: each read reads the last write before it to its location, writes are coherence
 * ordered, mbarrier operations and fence.sc run in schedule order. When every event happens,
 * every spinning wait returns and the model (under `reading`; none: the default) allows it,
 * its state and flags; otherwise nothing (a read whose last write is not among its candidates,
 * a wait that fails, an axiom that forbids it).
 */
std::optional<ScheduledRun> runSchedule(const ir::Program& p, const cat::ResolvedModel& model,
                                        const std::optional<cat::ReadingId>& reading,
                                        const std::vector<int>& schedule);

/** The same with the model of `p` given (ConcreteModel::underReading shares what one reading
 *  made with the next). */
std::optional<ScheduledRun> runSchedule(const ir::Program& p, const ConcreteModel& model,
                                        const std::optional<cat::ReadingId>& reading,
                                        const std::vector<int>& schedule);

/**
 * The execution of choices `c` (the solver's model of one, under another reading) where it
 * completes and the model allows it under `reading`: nothing blocked, every spinning wait that
 * happens returning, no cut reached, no value depending on itself, and the model (under
 * `reading`) consistent: its state and flags, the test the enumerating engine puts each
 * finishing candidate to. Nothing otherwise.
 */
std::optional<ScheduledRun> finishingRun(const ir::Program& p, const ConcreteModel& model,
                                         const std::optional<cat::ReadingId>& reading,
                                         const Choices& c);

/**
 * The gates a hanging execution holds forever (ir stuckGates: its blocked waits, and each
 * barrier or cta_group::2 pair reached but missing a participant), where the explicit evaluator
 * takes `c` as one: some wait blocked, each reached, every wait that runs and is not blocked
 * returning, each blocked one failing on the final state, the events fitting one real-time
 * order, no cut reached, and the model (under `reading`) allowing it; the same test the
 * enumerating engine puts each hanging candidate to. Nothing otherwise.
 */
std::optional<std::vector<int>> hangingGates(const ir::Program& p, const ConcreteModel& model,
                                             const std::optional<cat::ReadingId>& reading,
                                             const Choices& c);

/**
 * The choices of the sequentially consistent run of a hanging schedule: `schedule` the events
 * that happen, in order, `stuck` the waits that never return. Nothing where a read's last write
 * is not one it may read, or where the events that happen given those waits and the program's
 * choices (each taken its 0 way) are not the schedule's.
 */
std::optional<Choices> hangChoicesOfSchedule(const ir::Program& p, const std::vector<int>& schedule,
                                             const std::vector<int>& stuck);

} // namespace ptxmc::engine
