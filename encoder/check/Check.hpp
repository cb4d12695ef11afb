// The driver: check one lowered program against one model with Z3, enumeration, or both.
#pragma once

#include "engine/Options.hpp"

namespace ptxmc::engine {

/**
 * Every allowed final state of `program` under `model`, with the engine `options.engine`
 * names. With EngineKind::Both, both engines search the same program; when their final states,
 * observations or flags differ, the result is Unknown and unknownReason shows both answers (a
 * disagreement is a bug in one of them). Thread-safe: each call owns its solver state.
 */
engine::CheckResult check(const ir::Program& program, const cat::ResolvedModel& model,
                          const CheckOptions& options);

/**
 * The answer under the default reading and under each of `model.readings`, in that order
 * (one more than the readings). The Z3 engine answers them all from one encoding: the readings
 * are assumption literals, and a reading none of whose literals the encoding of this test
 * contains gets the default answer without a query. The time limit is the whole test's.
 */
std::vector<engine::CheckResult> checkReadings(const ir::Program& program,
                                               const cat::ResolvedModel& model,
                                               const CheckOptions& options);

/** Do two answers agree: the same verdict, final states and flag names, in order? */
bool sameAnswer(const engine::CheckResult& a, const engine::CheckResult& b);

} // namespace ptxmc::engine
