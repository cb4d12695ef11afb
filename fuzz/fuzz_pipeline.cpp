// libFuzzer target: litmus text through parse, lower, encode and solve with a small Z3 budget.
#include "cat/Loader.hpp"
#include "cat/Resolver.hpp"
#include "check/Check.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"
#include "support/SourceLoc.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace {

// Beyond these the test is legitimately exponential (one query per final state): a slow run
// would be the model checker doing its job, not a bug, and would starve the fuzzer.
constexpr std::size_t kMaxInput = 4096;
constexpr std::size_t kMaxEvents = 48;
constexpr std::size_t kMaxObserved = 6;

const ptxmc::cat::ResolvedModel& model() {
    // Resolved once: every run checks against the same built-in model, as `ptxmc check` does.
    static const std::shared_ptr<const ptxmc::cat::ResolvedModel> m =
        ptxmc::cat::resolveModel(ptxmc::cat::loadBuiltinModel());
    return *m;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > kMaxInput) return -1; // -1: libFuzzer keeps it out of the corpus
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        ptxmc::litmus::Test test = ptxmc::litmus::parseLitmus(text, "fuzz.litmus");
        ptxmc::ir::Program program = ptxmc::lower::lowerTest(test);
        if (program.events.size() > kMaxEvents || program.observed.size() > kMaxObserved) return -1;
        ptxmc::engine::CheckOptions options;
        options.rlimit = 200000;     // deterministic: the same input always takes the same path
        options.timeoutSeconds = 10; // a backstop only; rlimit should stop every query first
        ptxmc::engine::check(program, model(), options);
    } catch (const ptxmc::InputError&) {
    }
    return 0;
}
