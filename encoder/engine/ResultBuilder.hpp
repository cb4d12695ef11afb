// Shared by both engines: turning what a search found into the typed answer (CheckResult).
#pragma once

#include "cat/Resolver.hpp"
#include "engine/Flags.hpp"
#include "engine/Result.hpp"
#include "ir/Program.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ptxmc::engine {

/** A result with the test's name, condition and observed names filled in. */
engine::CheckResult resultSkeleton(const ir::Program& p);

/** Unknown with `reason` (a limit, a failure), nothing of a search that stopped half way kept. */
void setStopped(engine::CheckResult& r, const ir::Program& p, const UnknownReason& reason);

/** Adds the distinct final states (sorted), then counts, Observation and Ok/No. */
void setStates(engine::CheckResult& r, const ir::Program& p,
               const std::set<std::vector<std::int64_t>>& states);

/** Witness event tuples of each raised flag (a set member, or a relation pair), by flag name. */
using FlagWitnesses = std::map<std::string, std::set<std::vector<int>>>;

/** How many witnesses a flag line shows (every one for `hang`). */
inline constexpr std::size_t kWitnessesShown = 3;

/** Event `id` as an answer names it: its issuing thread and position, its own text. */
EventRef eventRef(const ir::Program& p, int id, const std::string& note = "");

/** The backward branch of cut `i` of the program. */
EventRef cutRef(const ir::Program& p, std::size_t i);

/**
 * Sets r.boundReached from the Bound cuts some allowed execution reaches (indices into
 * p.cuts). A verdict that claims an absence (Never, Always, Deadlock) is then no proof: it
 * becomes Unknown, saying which loops reached the bound; the states found stay listed.
 */
void setBoundReached(engine::CheckResult& r, const ir::Program& p,
                     const std::set<std::size_t>& cuts);

/** The Unknown reason when every consistent execution reaches a cut of the program. */
UnknownReason noExecutionWithinBound(const ir::Program& p);

/**
 * Sets r.flags: the model's flags in its order, then `hang`, each with up to three witnesses
 * (every one for `hang`).
 */
void setFlags(engine::CheckResult& r, const ir::Program& p, const cat::ResolvedModel& model,
              const FlagWitnesses& witnesses);

/** What lowering found blocks for good (ir::Program::staticDeadlocks), as deadlocked waits. */
std::vector<BlockedWait> staticDeadlocks(const ir::Program& p);

/** A deadlock found before any search: Observation::Deadlock and the static reasons. */
void setStaticDeadlock(engine::CheckResult& r, const ir::Program& p);

/**
 * Observation::Deadlock, with the waits that never succeed: each of `waits` (event ids, in
 * order) for which `neverSucceeds(i)` holds of the i-th alone; when none does alone, every
 * one of them, noted "only jointly".
 */
void setDeadlock(engine::CheckResult& r, const ir::Program& p, const std::vector<int>& waits,
                 const std::function<bool(std::size_t)>& neverSucceeds);

/**
 * The model forbids every execution (herd7's States 0): no states, and the axioms that each,
 * deleted, would let one through (sorted, no duplicates; empty when none does alone).
 */
void setNoExecution(engine::CheckResult& r, const ir::Program& p,
                    std::vector<std::string> forbidding);

} // namespace ptxmc::engine
