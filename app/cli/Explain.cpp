// Prints explanations as text, Graphviz DOT, or SVG rendered by Graphviz's `dot`.
#include "cli/Explain.hpp"

#include "cat/Resolver.hpp"
#include "cli/CommonOptions.hpp"
#include "cli/KernelLaunch.hpp"
#include "cli/Pipeline.hpp"
#include "cli/Readings.hpp"
#include "engine/Budget.hpp"
#include "explain/Explanation.hpp"
#include "explain/Remedies.hpp"
#include "litmus/Parser.hpp"
#include "report/Answer.hpp"
#include "report/AnswerText.hpp"
#include "report/ExplainText.hpp"
#include "report/WitnessFold.hpp"
#include "report/WitnessText.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>

namespace ptxmc::cli {

namespace {

using engine::explain::Explanation;

struct ExplainArgs {
    std::vector<std::string> tests;
    bool verbose = false;
    std::string outcome;
    std::string format = "text";
    PipelineOptions pipeline; ///< --model, --reading, --unroll, --timeout, limits
    std::string output;
    std::string flag;
    LaunchArgs launch; ///< for a kernel's .ptx, as `ptxmc kernel` takes them
    std::vector<CLI::Option*> launchOptions;
};

/** The drawing: the witness, or the closest execution without the first axiom; at kernel
 *  size only what takes part (report/WitnessFold.hpp), unless --verbose. */
std::string renderDot(const Explanation& ex, bool verbose) {
    auto fold = [verbose](const engine::explain::WitnessGraph& g) {
        return verbose ? g : report::foldWitness(g, {});
    };
    if (ex.kind == Explanation::Kind::Allowed) return report::toDot(fold(ex.witness));
    if (ex.kind == Explanation::Kind::Forbidden && !ex.violations.empty()) {
        engine::explain::WitnessGraph g = fold(ex.violations.front().closest);
        for (const auto& v : ex.violations)
            g.notes.push_back(v.axiom + ": " + v.evidence);
        g.notes.insert(g.notes.begin(), "Forbidden: " + ex.target);
        return report::toDot(g);
    }
    report::ExplainReport r;
    r.explanation = ex;
    engine::explain::WitnessGraph g;
    g.title = report::explanationText(r, false);
    return report::toDot(g);
}

/** Runs Graphviz; a missing `dot` is an error the user can act on. */
std::string renderSvg(const std::string& dot) {
    auto dir = std::filesystem::temp_directory_path();
    auto in = dir / ("ptxmc-" + std::to_string(::getpid()) + ".dot");
    auto out = dir / ("ptxmc-" + std::to_string(::getpid()) + ".svg");
    std::ofstream(in) << dot;
    std::string cmd = "dot -Tsvg '" + in.string() + "' -o '" + out.string() + "'";
    int status = std::system(cmd.c_str());
    std::filesystem::remove(in);
    if (status != 0)
        throw InputError(SourceLoc{}, "rendering SVG needs Graphviz's `dot` (Debian package "
                                      "graphviz); use --format dot to get the graph source");
    std::ifstream svg(out);
    std::stringstream text;
    text << svg.rdbuf();
    std::filesystem::remove(out);
    return text.str();
}

/** The file a test was read from, for the fixes' diffs; empty when it cannot be read. */
std::string sourceOf(const litmus::Test& test) {
    std::ifstream in(test.file);
    std::stringstream text;
    text << in.rdbuf();
    return in ? text.str() : "";
}

/**
 * Which readings of the open questions the test's answer rests on: the verdict and each flag,
 * robust or reading-dependent (as `check --readings` prints them).
 */
std::vector<std::string> renderReadings(const ir::Program& program,
                                        const engine::CheckOptions& options) {
    engine::CheckResult r = checkProgram(program, *modelWithReadings(), options, true);
    if (r.observation == engine::Observation::Unknown || !r.readings) return {};
    if (r.readings->empty())
        return {"the same answer under every reading: this explanation rests on none"};
    std::vector<std::string> out;
    for (const report::Dependence& d : report::dependencesOf(r))
        out.push_back(report::dependenceLine(d));
    return out;
}

/**
 * The test's answer under the limits, so that --timeout, --memory-limit and --rlimit stop
 * an explanation as they stop a check: Unknown because of a limit (not of the unroll bound,
 * within which the explanation still holds) is the explanation's answer.
 */
std::optional<Explanation> limitReached(const engine::CheckResult& checked) {
    if (!checked.stoppedByLimit()) return std::nullopt;
    Explanation ex;
    ex.kind = Explanation::Kind::Unknown;
    ex.unknownReason = checked.unknownReason;
    return ex;
}

/** Events in a kernel's terms, as `ptxmc kernel` names them: "P3 line 120" (a thread of the
 *  extracted program and its PTX line) -> "CTA 0 warp 4 at gemm.ptx:120:5 (gemm.cu:88)"; in a
 *  fix, "P3's" -> "CTA 0 warp 4's" and "(line 120)" -> "(gemm.ptx:120:5 (gemm.cu:88))". */
std::string inKernelTerms(const std::string& text, const kernel::KernelProgram& k) {
    static const std::regex event(R"(\bP(\d+) line (\d+)|\bP(\d+)'s|\(line (\d+)\))");
    auto thread = [&k](const std::ssub_match& m) -> std::optional<std::string> {
        const std::size_t t = std::stoul(m.str());
        if (t >= k.threadNames.size()) return std::nullopt;
        return k.threadNames[t];
    };
    std::string out;
    std::size_t from = 0;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), event);
         it != std::sregex_iterator(); ++it) {
        const std::smatch& m = *it;
        std::string by;
        if (m[1].matched) {
            if (auto who = thread(m[1])) by = *who + " at " + kernelLineText(std::stoi(m[2]), k);
        } else if (m[3].matched) {
            if (auto who = thread(m[3])) by = *who + "'s";
        } else {
            by = "(" + kernelLineText(std::stoi(m[4]), k) + ")";
        }
        if (by.empty()) continue;
        out += text.substr(from, static_cast<std::size_t>(m.position()) - from) + by;
        from = static_cast<std::size_t>(m.position() + m.length());
    }
    return out + text.substr(from);
}

void toKernelTerms(engine::explain::WitnessGraph& g, const kernel::KernelProgram& k) {
    g.title = inKernelTerms(g.title, k);
    g.threadNames = k.threadNames; // --verbose lists every event by its thread
    for (auto& n : g.nodes) {
        n.description = inKernelTerms(n.description, k);
        if (n.line > 0) n.where = kernelLineText(n.line, k); // the PTX and the CUDA line
    }
    for (auto& note : g.notes)
        note = inKernelTerms(note, k);
}

/** Every event the report names, in the kernel's terms. */
void toKernelTerms(report::ExplainReport& r, const kernel::KernelProgram& k) {
    Explanation& ex = r.explanation;
    toKernelTerms(ex.witness, k);
    for (auto& v : ex.violations) {
        v.evidence = inKernelTerms(v.evidence, k);
        for (auto& s : v.steps)
            s.event = inKernelTerms(s.event, k);
        toKernelTerms(v.closest, k);
    }
    if (!r.fixes) return;
    for (auto& fix : r.fixes->found) {
        fix.change = inKernelTerms(fix.change, k);
        fix.after = inKernelTerms(fix.after, k);
    }
    if (!r.fixes->skipped.empty())
        r.fixes->skipped += "; for a kernel, `ptxmc kernel --emit-litmus` writes the program for "
                            "it, and a smaller launch (--block, --cluster, --tiles, a loop "
                            "bound's --param) makes a smaller one";
}

/** A litmus test takes no launch: a launch option given with one is an error, not ignored. */
void noLaunchFor(const std::string& path, const ExplainArgs& args) {
    for (const CLI::Option* o : args.launchOptions)
        if (o->count() > 0)
            throw InputError(SourceLoc{"--" + o->get_lnames().front(), 1, 1},
                             "--" + o->get_lnames().front() +
                                 " is a launch option of a kernel's PTX module; " + path +
                                 " is a litmus test, which has no launch");
}

/** One test explained, with its fixes and readings when they apply. */
report::ExplainReport explainOne(const std::string& path, const ExplainArgs& args,
                                 const cat::ResolvedModel& model, litmus::Test& test) {
    if (!std::filesystem::exists(path)) // the message check and fences give
        throw InputError(SourceLoc{path, 0, 0}, "no such file or folder");
    std::optional<kernel::KernelProgram> k; // a kernel's .ptx: extracted as `ptxmc kernel` does
    if (isPtxModule(path)) {
        k = extractKernelFile(path, launchOf(args.launch));
        test = k->test;
    } else {
        noLaunchFor(path, args);
        test = readTest(path);
    }
    // --outcome may name any declared location: observe it
    if (!args.outcome.empty())
        for (const litmus::Ref& r :
             litmus::referencesOf(*litmus::parseProposition(args.outcome, "--outcome")))
            test.observed.push_back(r);
    const engine::CheckOptions options = checkOptionsOf(args.pipeline);
    engine::CheckOptions timed = options;
    timed.startedAt = engine::Clock::now();
    ir::Program program = lowerTest(test, args.pipeline);
    const engine::CheckResult checked = checkProgram(program, model, timed);
    std::optional<std::string> outcome;
    if (!args.outcome.empty()) outcome = args.outcome;
    std::optional<Explanation> stopped = limitReached(checked);
    report::ExplainReport r;
    r.file = path;
    r.flag = args.flag;
    r.test = &test;
    try {
        r.explanation =
            stopped ? *stopped
            : args.flag.empty()
                ? engine::explain::explainOutcome(program, model, outcome, options, &checked)
                : engine::explain::explainFlag(program, model, args.flag, options);
    } catch (const engine::LimitReached& limit) { // the explanation's own queries ran out
        r.explanation = Explanation{};
        r.explanation.kind = Explanation::Kind::Unknown;
        r.explanation.unknownReason = limit.reason();
    }
    const Explanation& ex = r.explanation;
    if (args.format == "dot" || args.format == "svg") {
        if (k) toKernelTerms(r, *k);
        return r;
    }
    if (ex.kind == Explanation::Kind::Allowed) {
        r.fixes = engine::explain::findRemedies(test, program.events.size(), model,
                                                {outcome, args.flag}, checked,
                                                lower::LowerOptions{args.pipeline.unroll}, options);
        r.source = sourceOf(test);
    }
    // Under the built-in model: whether the answer explained rests on a reading.
    if (args.pipeline.model.empty() && args.pipeline.reading.empty() &&
        ex.kind != Explanation::Kind::Unknown)
        r.readings = renderReadings(program, options);
    if (k) toKernelTerms(r, *k);
    return r;
}

int runExplain(const ExplainArgs& args) {
    auto model = loadModel(args.pipeline);
    if (args.tests.size() > 1 && (args.format == "dot" || args.format == "svg"))
        throw InputError(SourceLoc{"--format", 1, 1},
                         "a drawing (dot, svg) is of one test; give one TEST, or use text or json");
    std::string text;
    nlohmann::ordered_json all = nlohmann::ordered_json::array();
    bool unknown = false;
    for (const std::string& path : args.tests) {
        litmus::Test test;
        report::ExplainReport r = explainOne(path, args, *model, test);
        unknown = unknown || r.explanation.kind == Explanation::Kind::Unknown;
        if (args.format == "json")
            all.push_back(report::explanationJson(r));
        else if (args.format == "text")
            text += (args.tests.size() > 1
                         ? (text.empty() ? "" : "\n") + std::string("== ") + path + "\n"
                         : "") +
                    report::explanationText(r, args.verbose);
        else
            text = args.format == "dot" ? renderDot(r.explanation, args.verbose)
                                        : renderSvg(renderDot(r.explanation, args.verbose));
    }
    if (args.format == "json") text = all.dump(2) + "\n";
    if (args.output.empty()) {
        std::cout << text;
    } else {
        std::ofstream out(args.output);
        if (!out)
            throw InputError(SourceLoc{args.output, 0, 0}, "cannot write this file (-o/--output)");
        out << text;
    }
    return unknown ? 1 : 0;
}

} // namespace

void setupExplain(CLI::App& app) {
    auto args = std::make_shared<ExplainArgs>();
    CLI::App* sub = app.add_subcommand(
        "explain",
        "Show a witness execution for an allowed outcome, or the named axioms that forbid it");
    sub->add_option("TEST", args->tests,
                    "litmus files, or kernels' PTX modules (a .ptx name, or text that starts "
                    "with .version), extracted as `ptxmc kernel` does (one for --format dot or "
                    "svg)")
        ->required();
    sub->add_option(
        "--outcome", args->outcome,
        "final state to explain, e.g. \"P1:r0=0; x=1\" (default: the test's condition)");
    CLI::Option* outcomeOpt = sub->get_option("--outcome");
    sub->add_option("--flag", args->flag,
                    "draw an execution raising this flag (data-race, mbarrier-misuse, hang, ...) "
                    "instead of explaining an outcome")
        ->excludes(outcomeOpt);
    sub->add_option("--format", args->format,
                    "text (default), json (an array, one object per test), dot or svg")
        ->check(CLI::IsMember({"text", "json", "dot", "svg"}));
    sub->add_flag("-v,--verbose", args->verbose,
                  "text: every event and edge of each execution and the rules in full; dot/svg: "
                  "draw every event (kernel-size drawings fold what does not take part)");
    PipelineHelp help;
    // Witnesses and minimal axiom sets are read off Z3's models: no other engine gives them.
    help.options = kAllPipelineOptions & ~kEngineOption;
    help.reading = "explain under one reading of the PTX text: the built-in variant model "
                   "variants/NAME.cat (like --model variants/NAME.cat)";
    help.timeout = "wall-clock limit for the check behind the explanation; hitting it "
                   "explains nothing (Unknown, exit status 1)";
    addPipelineOptions(*sub, args->pipeline, help);
    addOutputOption(*sub, args->output, "the explanation");
    args->launchOptions = addLaunchOptions(*sub, args->launch);
    for (CLI::Option* o : args->launchOptions)
        o->group("Launch of a kernel's .ptx (as ptxmc kernel takes it)");
    sub->footer(
        "Examples:\n"
        "  ptxmc explain litmus/tcgen05/commit/L17-MP+commit+fa.litmus\n"
        "      which axioms forbid the stale read\n"
        "  ptxmc explain --format svg -o w.svg litmus/tcgen05/commit/L16-MP+commit-nofa.litmus\n"
        "      draw an execution where the stale read happens\n"
        "  ptxmc explain --flag hang litmus/async/hang/parity-reuse-slow-waiter.litmus\n"
        "      draw an execution in which a wait blocks forever\n"
        "  ptxmc explain --reading q1-acquire-wait-orders-tcgen05 "
        "litmus/tcgen05/proxy/L39-tma-mma-nofa.litmus\n"
        "      the same question under CUTLASS's reading of Q1\n"
        "  ptxmc explain --flag data-race gemm.ptx --param k_tiles=4\n"
        "      a kernel's data race, its events at their PTX and CUDA lines\n\n"
        "Under the built-in model the text ends with the readings of the open questions the "
        "answer rests on (robust, or which readings change the verdict or a flag).\n"
        "No --engine: witnesses and minimal sets of axioms are read off Z3's models, so the "
        "explanation always solves with Z3.");
    sub->callback([args]() {
        int status = runExplain(*args);
        if (status != 0) throw CLI::RuntimeError(status);
    });
}

} // namespace ptxmc::cli
