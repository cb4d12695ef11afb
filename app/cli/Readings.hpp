// Readings: the built-in model with its variants (model/variants) folded in, and answers under
// each.
#pragma once

#include "cat/Resolver.hpp"
#include "check/Check.hpp"
#include "engine/Result.hpp"
#include "ir/Program.hpp"

#include <memory>
#include <string>

namespace ptxmc::cli {

/**
 * The built-in model with every variant under model/variants as a reading of it
 * (cat/Readings.hpp), in name order: checked without a reading it is the built-in model.
 */
std::shared_ptr<const cat::ResolvedModel> modelWithReadings();

/**
 * `program`'s answer under the default reading, with `readings` set to the readings under
 * which the answer (verdict, flags or number of states) differs: one encoding for them all.
 * An Unknown default answer gets no readings (nothing to compare them with).
 */
engine::CheckResult checkWithReadings(const ir::Program& program, const cat::ResolvedModel& model,
                                      const engine::CheckOptions& options);

} // namespace ptxmc::cli
