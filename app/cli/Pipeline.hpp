// The one way every subcommand reads, lowers, checks and judges litmus tests: read -> decode ->
// lower -> check -> report, with one set of options that mean the same everywhere.
#pragma once

#include "cat/Resolver.hpp"
#include "check/Check.hpp"
#include "engine/Result.hpp"
#include "ir/Program.hpp"
#include "litmus/Ast.hpp"
#include "lower/Lowerer.hpp"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ptxmc::cli {

/** The options of the pipeline, as every subcommand that checks tests takes them. */
struct PipelineOptions {
    std::string model;   ///< --model: a cat file or built-in name; empty: the built-in model
    std::string reading; ///< --reading NAME: the built-in variant variants/NAME.cat
    int unroll = lower::LowerOptions{}.unroll;
    double timeoutSeconds = 0; ///< per test; 0: none
    std::size_t memoryLimitMiB = engine::defaultMemoryLimitMiB();
    std::uint64_t rlimit = 0; ///< Z3 resource limit per query; 0: none
    engine::EngineKind engine = engine::EngineKind::Z3;
};

/** The pipeline options, one bit each: a subcommand registers those that apply to it. */
enum PipelineOption : unsigned {
    kModelOption = 1u << 0,
    kReadingOption = 1u << 1,
    kUnrollOption = 1u << 2,
    kTimeoutOption = 1u << 3,
    kMemoryLimitOption = 1u << 4,
    kRlimitOption = 1u << 5,
    kEngineOption = 1u << 6,
    kAllPipelineOptions = (1u << 7) - 1,
};

/** Which options a subcommand takes, and what it adds to their descriptions. */
struct PipelineHelp {
    unsigned options = kAllPipelineOptions;
    std::string model;   ///< appended to --model's description
    std::string reading; ///< --reading's description; empty: the common one
    std::string timeout; ///< --timeout's description; empty: the common one
    std::vector<engine::EngineKind> engines = {
        engine::EngineKind::Z3, engine::EngineKind::Enumerate, engine::EngineKind::Both};
    std::string engine; ///< --engine's description; empty: the common one
};

/** Registers the options `help.options` names on `sub`, with CommonOptions' spellings. */
void addPipelineOptions(CLI::App& sub, PipelineOptions& options, const PipelineHelp& help = {});

/** The --model argument the options amount to: variants/NAME.cat for --reading NAME. */
std::string modelArgOf(const PipelineOptions& options);

/** Loads the model --model or --reading names (not both: InputError). */
std::shared_ptr<const cat::ResolvedModel> loadModel(const PipelineOptions& options);

/** The engine's options: engine, limits; --timeout below Z3's millisecond stays a limit. */
engine::CheckOptions checkOptionsOf(const PipelineOptions& options);

/** Stage 1: read and parse. Throws InputError. */
litmus::Test readTest(const std::string& path);

/** Stage 1 for a generated test: its text, named `name` in messages. Throws InputError. */
litmus::Test readTestText(const std::string& text, const std::string& name);

/** Stages 2 and 3: every instruction decoded once (ptx::decodeProgram), then the decoded
 *  program lowered with --unroll. Throws InputError. */
ir::Program lowerTest(const litmus::Test& test, const PipelineOptions& options);

/**
 * Stage 4: `program` checked (under every reading of `model` with `readings`), with the
 * per-test limits applied: past --timeout nothing counts as proven, and an Unknown names the
 * limit that stopped it. `options.startedAt` is the test's clock.
 */
engine::CheckResult checkProgram(const ir::Program& program, const cat::ResolvedModel& model,
                                 const engine::CheckOptions& options, bool readings = false);

/** Stage 5: what a report shows beside the answer: file, name, hash, the expectation. */
void attachReport(engine::CheckResult& result, const litmus::Test& test, const std::string& path,
                  const engine::ExpectationCheck& expectation);

/**
 * Stages 2-4 on a test already read: its clock starts before lowering, so --timeout covers
 * lowering too.
 */
engine::CheckResult checkTest(const litmus::Test& test, const std::string& path,
                              const cat::ResolvedModel& model, const PipelineOptions& pipeline,
                              const engine::CheckOptions& options,
                              const engine::ExpectationCheck& expectation, bool readings = false);

/** Every stage on one file. Throws InputError. */
engine::CheckResult checkFile(const std::string& path, const cat::ResolvedModel& model,
                              const PipelineOptions& pipeline, const engine::CheckOptions& options,
                              const engine::ExpectationCheck& expectation, bool readings = false);

/**
 * Each test's expectation under the model `modelArg` names (expected.<name>.txt overrides
 * expected.txt); looked up on the calling thread, as the index is not thread-safe.
 */
std::vector<engine::ExpectationCheck> expectationsOf(const std::vector<std::string>& tests,
                                                     const std::string& modelArg);

} // namespace ptxmc::cli
