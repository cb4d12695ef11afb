// Evaluates a relation of the model that the program alone determines (no rf/co/mbarrier choice).
#pragma once

#include "cat/Resolver.hpp"
#include "ir/Program.hpp"

#include <string>
#include <utility>
#include <vector>

namespace ptxmc::engine {

/**
 * The pairs (event id, event id) of the model's relation definition `name` on `program`,
 * sorted, with every event taken to exist (guards aside: what the program could ever do).
 * Throws std::invalid_argument when `name` is no relation definition of the model, or when
 * it depends on what an execution chooses (rf, co, sc, mbo, mb-obs, MB_MISUSE), where the
 * answer would depend on an execution this function does not have.
 */
std::vector<std::pair<int, int>> staticRelation(const ir::Program& program,
                                                const cat::ResolvedModel& model,
                                                const std::string& name);

} // namespace ptxmc::engine
