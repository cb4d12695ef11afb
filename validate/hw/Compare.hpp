// Model outcome sets vs. observed histograms: unsound / confirmed / inconclusive / seen / unseen.
#pragma once

#include "engine/Result.hpp"
#include "hw/MutantList.hpp"
#include "hw/Results.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ptxmc::validate {

enum class Verdict {
    Unsound,      ///< an outcome the model forbids was observed: a model (or harness) bug
    Undefined,    ///< a forbidden outcome observed where the model flags undefined behaviour
    Confirmed,    ///< forbidden weak outcome never seen, and its mutant's weak outcome was
    Inconclusive, ///< forbidden weak outcome never seen, but neither was its mutant's
    Seen,         ///< allowed weak outcome observed
    Unseen,       ///< allowed weak outcome never observed (bound on its rate given)
    Deadlock,     ///< the model says no execution completes, and no instance completed
    Refused,      ///< the runner did not run it (built for another architecture)
    Error,        ///< the runner failed, or the model could not answer
};

const char* toString(Verdict v);

/** The model's answer for one test (or why there is none). */
struct ModelAnswer {
    std::optional<engine::CheckResult> result;
    std::string error;
};

struct StateCount {
    std::vector<std::int64_t> values;
    std::uint64_t count = 0;
};

struct Comparison {
    const HwTest* hw = nullptr;
    Verdict verdict = Verdict::Error;
    std::string modelObservation; ///< Never / Sometimes / Always / Deadlock ("" on error)
    std::string note;             ///< why (errors, the mutant's fate, stuck instances)
    std::uint64_t completed = 0;  ///< instances whose waits all succeeded
    std::uint64_t weakSeen = 0;   ///< instances in a weak state (the condition's target)
    std::size_t allowed = 0, allowedSeen = 0;
    std::vector<StateCount> unsound;               ///< observed, forbidden
    std::vector<std::vector<std::int64_t>> unseen; ///< allowed, never observed
    double bound = 0;   ///< 95 % upper bound on a never-seen state's rate: -ln(0.05)/completed
    std::string mutant; ///< for a forbidden test: its mutant's name ("" if none ran)
    /// Inconclusive: why no mutant showed the harness could see the weak outcome, in a few
    /// words (the kind: "no mutant", "mutant not run", "mutant never weak", ...)
    std::string unseenWhy;
};

/** Classifies each test of `run`; `model` is parallel to run.tests. With `mutants` (the file
 *  gen-cuda derived them into), an inconclusive test says why it has no mutant in the run. */
std::vector<Comparison> classify(const HwRun& run, const std::vector<ModelAnswer>& model,
                                 const MutantList* mutants = nullptr);

/** One block per test, in words. */
std::string textReport(const HwRun& run, const std::vector<Comparison>& rows);
/** The README table (markdown), with a summary line above it. */
std::string markdownReport(const HwRun& run, const std::vector<Comparison>& rows);
/** The same as JSON. */
std::string jsonReport(const HwRun& run, const std::vector<Comparison>& rows);

} // namespace ptxmc::validate
