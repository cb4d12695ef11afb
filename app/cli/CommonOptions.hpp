// Options several subcommands take: one spelling, one check and one description for each.
#pragma once

#include "check/Check.hpp"

#include <CLI/CLI.hpp>
#include <fstream>
#include <string>
#include <vector>

namespace ptxmc::cli {

/** `--model MODEL`: a cat file, or a built-in model by name (loaded with loadModelArg). */
CLI::Option* addModelOption(CLI::App& sub, std::string& model, const std::string& more = "");

/** `-j,--jobs N`, 1 to 1024. */
CLI::Option* addJobsOption(CLI::App& sub, unsigned& jobs, const std::string& description);

/** `--shard I/N`: keep every N-th test of the input order, starting at the I-th (see keepShard). */
CLI::Option* addShardOption(CLI::App& sub, std::string& spec);

/** `--timeout SEC`: a wall-clock limit in seconds, 0 to what Z3 takes (32-bit milliseconds). */
CLI::Option* addTimeoutOption(CLI::App& sub, double& seconds, const std::string& description);

/** `--engine NAME` among `allowed`, checked and converted by CLI11 (z3, enumerate, both). */
CLI::Option* addEngineOption(CLI::App& sub, engine::EngineKind& kind,
                             const std::vector<engine::EngineKind>& allowed,
                             const std::string& description);

/** `--memory-limit MIB`: resident memory above which a test stops as Unknown; 0: none. */
CLI::Option* addMemoryLimitOption(CLI::App& sub, std::size_t& mib);

/** `--unroll N`: how often a loop whose condition depends on run-time values is unrolled. */
CLI::Option* addUnrollOption(CLI::App& sub, int& unroll);

/** `-o,--output FILE`: write there instead of standard output. */
CLI::Option* addOutputOption(CLI::App& sub, std::string& path, const std::string& what);

/**
 * `--format FORMAT` among `formats` (the first is the default); with "json" among them also
 * `--json`, the same as `--format json` (kept for scripts written against older versions).
 */
CLI::Option* addFormatOption(CLI::App& sub, std::string& format,
                             const std::vector<std::string>& formats,
                             const std::string& description);

/**
 * While alive, standard output goes to the file `path` names (-o/--output); an empty path
 * changes nothing. A file that cannot be written is an input error (exit status 2).
 */
class StdoutTo {
public:
    explicit StdoutTo(const std::string& path);
    ~StdoutTo();
    StdoutTo(const StdoutTo&) = delete;
    StdoutTo& operator=(const StdoutTo&) = delete;
    /** Standard output is a file now (so no terminal, whatever fd 1 is). */
    bool redirected() const { return saved_ != nullptr; }

private:
    std::ofstream file_;
    std::streambuf* saved_ = nullptr;
};

/**
 * A number in [0, max] (a whole one when `integer`). CLI11's own range checks print huge bounds
 * and let "-5" wrap around in an unsigned option; Z3 takes limits as 32-bit unsigned.
 */
CLI::Validator nonNegative(bool integer, double max);

} // namespace ptxmc::cli
