// One complete schedule as a concrete execution, checked by the explicit evaluator.
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

} // namespace ptxmc::engine
