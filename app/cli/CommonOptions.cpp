// Options several subcommands take: one spelling, one check and one description for each.
#include "cli/CommonOptions.hpp"

#include "support/SourceLoc.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <iostream>
#include <map>
#include <utility>

namespace ptxmc::cli {

namespace {

const char* engineName(engine::EngineKind kind) {
    switch (kind) {
    case engine::EngineKind::Z3:
        return "z3";
    case engine::EngineKind::Enumerate:
        return "enumerate";
    case engine::EngineKind::Both:
        return "both";
    }
    return "?";
}

} // namespace

CLI::Option* addModelOption(CLI::App& sub, std::string& model, const std::string& more) {
    std::string description = "cat model file, or a built-in model such as "
                              "variants/q4-kind-not-required.cat (default: model/tcgen05.cat)";
    if (!more.empty()) description += "; " + more;
    return sub.add_option("--model", model, description)->option_text("MODEL");
}

CLI::Option* addJobsOption(CLI::App& sub, unsigned& jobs, const std::string& description) {
    return sub.add_option("-j,--jobs", jobs, description)
        ->check(CLI::Range(1u, 1024u))
        ->option_text("N");
}

CLI::Option* addShardOption(CLI::App& sub, std::string& spec) {
    // Checked by keepShard, so that a bad value is an input error like a bad path (exit 2).
    return sub
        .add_option("--shard", spec,
                    "check only shard I of N (1 <= I <= N): the tests at positions I, I+N, "
                    "I+2N, ... of the input order (after expanding folders and @index files); "
                    "shards 1/N to N/N together check every test once, for CI matrices")
        ->option_text("I/N");
}

CLI::Option* addTimeoutOption(CLI::App& sub, double& seconds, const std::string& description) {
    return sub.add_option("--timeout", seconds, description)
        ->check(nonNegative(false, 4294967.0))
        ->option_text("SEC");
}

CLI::Option* addEngineOption(CLI::App& sub, engine::EngineKind& kind,
                             const std::vector<engine::EngineKind>& allowed,
                             const std::string& description) {
    std::map<std::string, engine::EngineKind> names;
    std::string list;
    for (engine::EngineKind k : allowed) {
        names.emplace(engineName(k), k);
        list += std::string(list.empty() ? "" : ",") + engineName(k);
    }
    // CheckedTransformer both checks the name and converts it; its own description would show
    // the enum's numbers, so the names are listed instead.
    return sub.add_option("--engine", kind, description)
        ->transform(CLI::CheckedTransformer(names).description("{" + list + "}"))
        ->option_text("NAME");
}

CLI::Option* addMemoryLimitOption(CLI::App& sub, std::size_t& mib) {
    return sub
        .add_option("--memory-limit", mib,
                    fmt::format("resident memory (MiB) above which a test stops as Unknown; "
                                "tests checked at once share it; 0: none (default: a third "
                                "of this machine's memory, {} MiB)",
                                engine::defaultMemoryLimitMiB()))
        ->check(nonNegative(true, 1 << 30))
        ->option_text("MIB");
}

CLI::Option* addUnrollOption(CLI::App& sub, int& unroll) {
    return sub
        .add_option("--unroll", unroll,
                    "how many times a path may take a backward branch whose condition depends on "
                    "values read at run time (default 2, as herd); executions that would go "
                    "round more often are reported, and then Never is not claimed. Loops with "
                    "constant conditions always run to their end")
        ->check(nonNegative(true, 1000))
        ->option_text("N");
}

CLI::Option* addOutputOption(CLI::App& sub, std::string& path, const std::string& what) {
    return sub
        .add_option("-o,--output", path,
                    "write " + what +
                        " to this file instead of "
                        "standard output")
        ->option_text("FILE");
}

CLI::Option* addFormatOption(CLI::App& sub, std::string& format,
                             const std::vector<std::string>& formats,
                             const std::string& description) {
    format = formats.front();
    CLI::Option* f = sub.add_option("--format", format, description)
                         ->check(CLI::IsMember(formats))
                         ->option_text("FORMAT");
    if (std::find(formats.begin(), formats.end(), "json") != formats.end()) {
        CLI::Option* j = sub.add_flag_callback(
            "--json", [&format] { format = "json"; }, "the same as --format json");
        j->excludes(f);
    }
    return f;
}

StdoutTo::StdoutTo(const std::string& path) {
    if (path.empty()) return;
    file_.open(path, std::ios::binary);
    if (!file_) throw InputError(SourceLoc{path, 0, 0}, "cannot write this file (-o/--output)");
    saved_ = std::cout.rdbuf(file_.rdbuf());
}

StdoutTo::~StdoutTo() {
    if (!saved_) return;
    std::cout.flush();
    std::cout.rdbuf(saved_);
}

CLI::Validator nonNegative(bool integer, double max) {
    return CLI::Validator(
        [integer, max](std::string& text) -> std::string {
            const std::string range = fmt::format("in [0, {:.0f}]", max);
            bool digits = !text.empty() && text.find_first_not_of("0123456789") == text.npos;
            try {
                std::size_t used = 0;
                double value = std::stod(text, &used);
                if ((digits || !integer) && std::isfinite(value) && value >= 0 &&
                    used == text.size() && value <= max)
                    return "";
            } catch (const std::exception&) {
            }
            return (integer ? "expected a whole number " : "expected a number ") + range +
                   ", got '" + text + "'";
        },
        integer ? "UINT" : "NUMBER");
}

} // namespace ptxmc::cli
