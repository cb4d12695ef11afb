// The pipeline every subcommand runs: its options registered once, its stages as functions.
#include "cli/Pipeline.hpp"

#include "cat/ReadingId.hpp"
#include "cli/CommonOptions.hpp"
#include "cli/ModelArg.hpp"
#include "cli/Readings.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"
#include "ptx/Program.hpp"
#include "ptx/TestHash.hpp"
#include "report/Expectations.hpp"
#include "support/SourceLoc.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>

namespace ptxmc::cli {

namespace {

const char* const kTimeoutHelp = "wall-clock limit per test, parsing, lowering, encoding and "
                                 "solving together; a test that hits it is Unknown (default: "
                                 "none)";
const char* const kReadingHelp = "judge by one reading of the PTX text: the built-in variant "
                                 "model variants/NAME.cat (like --model variants/NAME.cat)";
const char* const kEngineHelp =
    "z3 (default), enumerate (explicit reference engine) or both (they must agree)";

std::string orDefault(const std::string& text, const char* fallback) {
    return text.empty() ? fallback : text;
}

// The engine bounds each Z3 query by --timeout, so a test of many quick queries can run past it,
// and Z3 calls both of its limits "canceled". The promise is per test: past the limit nothing
// counts as proven, and the reason names the limit that stopped the test.
void applyLimits(engine::CheckResult& r, double seconds, const engine::CheckOptions& options) {
    const bool overTime = options.timeoutSeconds > 0 && seconds >= options.timeoutSeconds;
    const std::string timeout = "timeout: the test ran past --timeout " +
                                fmt::format("{:g}", options.timeoutSeconds) + " s";
    if (r.observation == engine::Observation::Unknown) {
        if (r.unknownReason.kind != engine::UnknownKind::SolverLimit) return;
        const std::string& why = r.unknownReason.text;
        // Z3 truncates the timeout to whole milliseconds, so it may stop a hair early.
        if (overTime || (options.timeoutSeconds > 0 && options.rlimit == 0))
            r.unknownReason = {engine::UnknownKind::Timeout, timeout + " (Z3: " + why + ")"};
        else if (options.rlimit > 0)
            r.unknownReason = {engine::UnknownKind::ResourceLimit,
                               "resource limit: a Z3 query used up --rlimit " +
                                   std::to_string(options.rlimit) + " (Z3: " + why + ")"};
        return;
    }
    if (!overTime) return;
    // The search answered, but parsing, lowering and the search together ran past the limit
    // (on a loaded machine, a search that ends a hair late): nothing counts as proven.
    r.observation = engine::Observation::Unknown;
    r.unknownReason = {engine::UnknownKind::Timeout,
                       timeout + "; it was past the limit when its search answered"};
    r.states.clear();
    r.flags.clear();
    r.deadlockedWaits.clear();
    r.positive = r.negative = 0;
    r.ok = false;
}

} // namespace

void addPipelineOptions(CLI::App& sub, PipelineOptions& o, const PipelineHelp& help) {
    auto wanted = [&](PipelineOption option) { return (help.options & option) != 0; };
    if (wanted(kModelOption)) addModelOption(sub, o.model, help.model);
    if (wanted(kReadingOption))
        sub.add_option("--reading", o.reading, orDefault(help.reading, kReadingHelp))
            ->option_text("NAME");
    if (wanted(kUnrollOption)) addUnrollOption(sub, o.unroll);
    if (wanted(kTimeoutOption))
        addTimeoutOption(sub, o.timeoutSeconds, orDefault(help.timeout, kTimeoutHelp));
    if (wanted(kMemoryLimitOption)) addMemoryLimitOption(sub, o.memoryLimitMiB);
    if (wanted(kRlimitOption))
        sub.add_option("--rlimit", o.rlimit,
                       "deterministic Z3 resource limit per query; hitting it gives Unknown")
            ->check(nonNegative(true, 4294967295.0))
            ->option_text("N");
    if (wanted(kEngineOption))
        addEngineOption(sub, o.engine, help.engines, orDefault(help.engine, kEngineHelp));
}

std::string modelArgOf(const PipelineOptions& options) {
    return options.reading.empty() ? options.model
                                   : cat::ReadingId::ofArgument(options.reading).modelFile();
}

std::shared_ptr<const cat::ResolvedModel> loadModel(const PipelineOptions& options) {
    if (!options.reading.empty() && !options.model.empty())
        throw InputError(SourceLoc{"--reading", 1, 1},
                         "--reading NAME names the model itself: it takes no --model");
    return loadModelArg(modelArgOf(options));
}

engine::CheckOptions checkOptionsOf(const PipelineOptions& options) {
    engine::CheckOptions c;
    // Z3 counts whole milliseconds and takes 0 as "no limit": a tiny timeout must stay one.
    c.timeoutSeconds = options.timeoutSeconds > 0 ? std::max(options.timeoutSeconds, 0.001) : 0;
    c.memoryLimitMiB = options.memoryLimitMiB;
    c.rlimit = options.rlimit;
    c.engine = options.engine;
    return c;
}

litmus::Test readTest(const std::string& path) {
    return litmus::parseLitmusFile(path);
}

litmus::Test readTestText(const std::string& text, const std::string& name) {
    return litmus::parseLitmus(text, name);
}

ir::Program lowerTest(const litmus::Test& test, const PipelineOptions& options) {
    const ptx::Program decoded = ptx::decodeProgram(test);
    return lower::lowerProgram(decoded, lower::LowerOptions{options.unroll});
}

engine::CheckResult checkProgram(const ir::Program& program, const cat::ResolvedModel& model,
                                 const engine::CheckOptions& options, bool readings) {
    engine::CheckOptions timed = options;
    if (!timed.startedAt) timed.startedAt = engine::Clock::now();
    engine::CheckResult r =
        readings ? checkWithReadings(program, model, timed) : engine::check(program, model, timed);
    std::chrono::duration<double> elapsed = engine::Clock::now() - *timed.startedAt;
    if (r.seconds == 0) r.seconds = elapsed.count();
    applyLimits(r, elapsed.count(), options);
    return r;
}

void attachReport(engine::CheckResult& r, const litmus::Test& test, const std::string& path,
                  const engine::ExpectationCheck& expectation) {
    if (r.file.empty()) r.file = path;
    if (r.testName.empty()) r.testName = test.name;
    r.hash = ptx::testHash(test);
    report::applyExpectation(r, expectation);
}

engine::CheckResult checkTest(const litmus::Test& test, const std::string& path,
                              const cat::ResolvedModel& model, const PipelineOptions& pipeline,
                              const engine::CheckOptions& options,
                              const engine::ExpectationCheck& expectation, bool readings) {
    engine::CheckOptions timed = options;
    if (!timed.startedAt) timed.startedAt = engine::Clock::now();
    const ir::Program program = lowerTest(test, pipeline);
    engine::CheckResult r = checkProgram(program, model, timed, readings);
    attachReport(r, test, path, expectation);
    return r;
}

engine::CheckResult checkFile(const std::string& path, const cat::ResolvedModel& model,
                              const PipelineOptions& pipeline, const engine::CheckOptions& options,
                              const engine::ExpectationCheck& expectation, bool readings) {
    // The clock starts before reading: --timeout covers parsing too.
    engine::CheckOptions timed = options;
    timed.startedAt = engine::Clock::now();
    return checkTest(readTest(path), path, model, pipeline, timed, expectation, readings);
}

std::vector<engine::ExpectationCheck> expectationsOf(const std::vector<std::string>& tests,
                                                     const std::string& modelArg) {
    report::ExpectationIndex index(report::variantOfModel(modelArg));
    std::vector<engine::ExpectationCheck> out;
    for (const std::string& test : tests)
        out.push_back(index.lookup(test));
    return out;
}

} // namespace ptxmc::cli
