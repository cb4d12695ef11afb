// The engine's front door: check one parsed litmus test against one loaded model.
#pragma once

#include "litmus/Ast.hpp"
#include "report/Result.hpp"

#include <cstdint>
#include <memory>
#include <string>

namespace ptxmc {

namespace cat {
class ResolvedModel;
}

/** Which engine answers: Z3, explicit enumeration, or both (which must agree). */
enum class Engine { Z3, Enumerate, Both };

struct CheckOptions {
    Engine engine = Engine::Z3;
    double timeoutSeconds = 0; ///< wall-clock limit per test (0: none); hitting it gives Unknown
    std::uint64_t rlimit = 0;  ///< deterministic Z3 resource limit per query (0: none)
};

/**
 * Enumerates every allowed final state of `test` under `model` with Z3.
 * Throws InputError for a malformed program (unknown instruction, mixed cta_group, ...).
 * Thread-safe: each call uses its own Z3 context.
 */
report::CheckResult checkTest(const litmus::Test& test, const cat::ResolvedModel& model,
                              const CheckOptions& options);

/**
 * Checks with the engine `options.engine` names. With Engine::Both, both engines run; when
 * their final states, observations or flags differ, the result is Unknown and unknownReason
 * shows both answers (a disagreement is a bug in one of them).
 */
report::CheckResult runEngines(const litmus::Test& test, const cat::ResolvedModel& model,
                               const CheckOptions& options);

} // namespace ptxmc
