// The driver: check one lowered program against one model with Z3, enumeration, or both.
#pragma once

#include "ir/Program.hpp"
#include "report/Result.hpp"

#include <chrono>
#include <cstdint>
#include <optional>

namespace ptxmc::cat {
class ResolvedModel;
}

namespace ptxmc::engine {

/** Which engine answers: Z3, explicit enumeration, or both (which must agree). */
enum class EngineKind { Z3, Enumerate, Both };

using Clock = std::chrono::steady_clock;

/** Two thirds of the machine's physical memory, in MiB (engine/Budget.cpp). */
std::size_t defaultMemoryLimitMiB();

struct CheckOptions {
    EngineKind engine = EngineKind::Z3;
    double timeoutSeconds = 0; ///< wall-clock limit per test (0: none); hitting it gives Unknown
    /// Resident memory of the process above which a test stops as Unknown (0: none); by
    /// default two thirds of the machine's memory, so that no test can exhaust it.
    std::size_t memoryLimitMiB = defaultMemoryLimitMiB();
    std::uint64_t rlimit = 0; ///< deterministic Z3 resource limit per query (0: none)
    /// When the test's clock started: callers start it before lowering so that the limit and
    /// the reported seconds cover lowering too. Unset: when check() is called.
    std::optional<Clock::time_point> startedAt;
    /// Fill CheckResult::stats: encoding sizes, may/must pairs per relation, phase times.
    bool stats = false;
    /// Z3: encode every closure exactly by repeated squaring, instead of fresh conditions
    /// bounded below where the model's polarity allows (cat/Polarity.hpp). For the bench's
    /// side-by-side comparison; the answers are the same.
    bool exactClosures = false;
    /// Z3: assert the mbarrier facts that the model's acyclicity axioms imply
    /// (smt/MbarrierFacts.hpp). Off only for the bench's side-by-side comparison: states,
    /// verdicts and flags are the same; the execution the solver returns (a flag's witness)
    /// may differ.
    bool mbarrierFacts = true;
    /// Which of the model's readings (cat::ReadingInfo::name) its Reading choices take;
    /// empty: the default model's definitions.
    std::string reading;
};

/**
 * Every allowed final state of `program` under `model`, with the engine `options.engine`
 * names. With EngineKind::Both, both engines search the same program; when their final states,
 * observations or flags differ, the result is Unknown and unknownReason shows both answers (a
 * disagreement is a bug in one of them). Thread-safe: each call owns its solver state.
 */
report::CheckResult check(const ir::Program& program, const cat::ResolvedModel& model,
                          const CheckOptions& options);

/**
 * The answer under the default reading and under each of `model.readings`, in that order
 * (one more than the readings). The Z3 engine answers them all from one encoding: the readings
 * are assumption literals, and a reading none of whose literals the encoding of this test
 * contains gets the default answer without a query. The time limit is the whole test's.
 */
std::vector<report::CheckResult> checkReadings(const ir::Program& program,
                                               const cat::ResolvedModel& model,
                                               const CheckOptions& options);

/** Do two answers agree: the same verdict, final states and flag names, in order? */
bool sameAnswer(const report::CheckResult& a, const report::CheckResult& b);

} // namespace ptxmc::engine
