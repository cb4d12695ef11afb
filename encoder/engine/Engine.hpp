// The interface every engine implements: search one lowered program, nothing else.
#pragma once

#include "engine/Options.hpp"

#include <memory>

namespace ptxmc::engine {

/**
 * A search engine. The driver builds the result skeleton, answers static deadlocks and times
 * the run; an engine only fills in the observation, states, flags and blocked waits (or
 * Unknown with a reason) for a program without static deadlocks.
 */
class Engine {
public:
    virtual ~Engine() = default;

    /** A copy, for a search on a thread that may outlive the caller (check/LeftBehind.hpp). */
    virtual std::shared_ptr<const Engine> clone() const = 0;

    /** Searches `p`; `start` is when this engine's clock started (its deadline counts from it). */
    virtual void search(const ir::Program& p, const cat::ResolvedModel& model,
                        const CheckOptions& options, Clock::time_point start,
                        engine::CheckResult& r) const = 0;

    /**
     * Searches `p` under the default reading and each of model.readings, into `out` (one
     * result each, skeletons filled in). By default one search() per reading, all within
     * the test's one time limit.
     */
    virtual void searchReadings(const ir::Program& p, const cat::ResolvedModel& model,
                                const CheckOptions& options,
                                std::vector<engine::CheckResult>& out) const;
};

} // namespace ptxmc::engine
