// Prints explanations as text, Graphviz DOT, or SVG rendered by Graphviz's `dot`.
#include "cli/Explain.hpp"

#include "cat/Resolver.hpp"
#include "cli/CommonOptions.hpp"
#include "cli/Pipeline.hpp"
#include "cli/Readings.hpp"
#include "engine/Budget.hpp"
#include "explain/Explanation.hpp"
#include "explain/Remedies.hpp"
#include "litmus/Parser.hpp"
#include "ptx/FixDiff.hpp"
#include "report/Answer.hpp"
#include "report/AnswerText.hpp"
#include "report/WitnessText.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace ptxmc::cli {

namespace {

using engine::explain::Explanation;

struct ExplainArgs {
    std::string test;
    std::string outcome;
    std::string format = "text";
    PipelineOptions pipeline; ///< --model, --reading, --unroll, --timeout, limits
    std::string output;
    std::string flag;
};

std::string renderText(const Explanation& ex) {
    std::ostringstream out;
    switch (ex.kind) {
    case Explanation::Kind::Allowed:
        out << "Allowed: " << ex.target << "\n" << report::toText(ex.witness);
        break;
    case Explanation::Kind::Forbidden:
        out << "Forbidden: " << ex.target << "\n";
        if (ex.violations.empty())
            out << "No execution of this program ends in this state, whatever the model: no "
                   "instruction produces these values (or the outcome contradicts itself).\n";
        else if (ex.noExecution)
            out << "The model allows no execution of this program at all (States 0): every "
                   "candidate execution violates one of these axioms, and some violates only "
                   "it:\n";
        else
            out << "A minimal set of axioms that forbids it (removing any one allows it):\n";
        for (const auto& v : ex.violations) {
            out << "\n"
                << v.axiom << " (" << v.where << ")\n  " << v.doc << "\n  breaks on: " << v.evidence
                << "\n";
            std::istringstream lines(report::toText(v.closest));
            for (std::string line; std::getline(lines, line);)
                out << "  " << line << "\n";
        }
        break;
    case Explanation::Kind::Deadlock:
        out << "Deadlock: no execution lets every spinning wait succeed.\n";
        for (const auto& b : ex.blocked)
            out << "  blocked: " << report::blockedText(b) << "\n";
        break;
    case Explanation::Kind::Unknown:
        out << "Unknown: " << ex.reason << "\n";
        break;
    case Explanation::Kind::NotRaised:
        out << "Not raised: no execution raises " << ex.target << ".\n";
        break;
    }
    return out.str();
}

std::string renderDot(const Explanation& ex) {
    if (ex.kind == Explanation::Kind::Allowed) return report::toDot(ex.witness);
    if (ex.kind == Explanation::Kind::Forbidden && !ex.violations.empty()) {
        engine::explain::WitnessGraph g = ex.violations.front().closest;
        for (const auto& v : ex.violations)
            g.notes.push_back(v.axiom + ": " + v.evidence);
        g.notes.insert(g.notes.begin(), "Forbidden: " + ex.target);
        return report::toDot(g);
    }
    engine::explain::WitnessGraph g;
    g.title = renderText(ex);
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

/** At most this many fixes are printed with their diffs (the rest in one line each). */
constexpr std::size_t kDiffsShown = 3;

/** Why an allowed outcome or flag is allowed: the changes found that would forbid it, each as
 *  a diff of the test. */
std::string renderRemedies(const engine::explain::RemedySearch& r, const litmus::Test& test,
                           const std::string& flag) {
    std::ostringstream out;
    const std::string what = flag.empty() ? "this outcome" : "flag " + flag;
    const std::string verb = flag.empty() ? "forbid it" : "remove it";
    out << "\nWhy it is allowed: no rule of the model orders what " << what << " needs ordered.\n";
    if (!r.skipped.empty()) {
        out << "(No search for a change that would " << verb << ": " << r.skipped << ".)\n";
        return out.str();
    }
    const std::string tally = std::to_string(r.tried) + " checks of " +
                              std::to_string(r.candidates) + " changes" +
                              (r.rejected ? ", " + std::to_string(r.rejected) +
                                                " fixes dropped because the changed test hangs "
                                                "or raises a new flag"
                                          : "");
    if (r.found.empty()) {
        out << "No added fence or wait, no load or wait made .acquire, no store or arrive made "
               ".release and no scope widened would "
            << verb << ", alone, repeated at every place, or all together (" << tally << ").\n";
        return out.str();
    }
    out << (r.combined ? "No single or repeated change would " + verb +
                             "; this minimal combination would ("
                       : "These changes would " + verb + ", fewest instructions first (")
        << tally << "):\n";
    const std::string source = sourceOf(test);
    for (std::size_t i = 0; i < r.found.size(); ++i) {
        const auto& remedy = r.found[i];
        std::string axioms;
        for (const auto& a : remedy.axioms)
            axioms += (axioms.empty() ? "" : ", ") + a;
        out << "  " << i + 1 << ". " << remedy.change << " (" << remedy.changes.size()
            << (remedy.changes.size() == 1 ? " instruction" : " instructions") << ")\n"
            << "     then: " << remedy.after
            << (axioms.empty() ? "" : "; " + axioms + " forbids it") << "\n";
        if (i < kDiffsShown && !source.empty())
            out << ptx::fixDiff(test, source, remedy.changes) << "\n";
    }
    return out.str();
}

/**
 * Which readings of the open questions the test's answer rests on: the verdict and each flag,
 * robust or reading-dependent (as `check --readings` prints them).
 */
std::string renderReadings(const ir::Program& program, const engine::CheckOptions& options) {
    engine::CheckResult r = checkProgram(program, *modelWithReadings(), options, true);
    if (r.observation == engine::Observation::Unknown || !r.readings) return "";
    std::string out = "\nReadings of the open questions of the PTX text (model/variants):\n";
    if (r.readings->empty())
        return out + "  the same answer under every reading: this explanation rests on none\n";
    for (const report::Dependence& d : report::dependencesOf(r))
        out += "  " + report::dependenceLine(d) + "\n";
    return out;
}

/**
 * The test's answer under the limits, so that --timeout, --memory-limit and --rlimit stop
 * an explanation as they stop a check: Unknown because of a limit (not of the unroll bound,
 * within which the explanation still holds) is the explanation's answer.
 */
std::optional<Explanation> limitReached(const engine::CheckResult& checked) {
    if (!stoppedByLimit(checked)) return std::nullopt;
    Explanation ex;
    ex.kind = Explanation::Kind::Unknown;
    ex.reason = checked.unknownReason;
    return ex;
}

int runExplain(const ExplainArgs& args) {
    auto model = loadModel(args.pipeline);
    if (!std::filesystem::exists(args.test)) // the message check and fences give
        throw InputError(SourceLoc{args.test, 0, 0}, "no such file or folder");
    litmus::Test test = readTest(args.test);
    // --outcome may name any declared location: observe it
    if (!args.outcome.empty())
        for (const litmus::Ref& r :
             litmus::referencesOf(*litmus::parseProposition(args.outcome, "--outcome")))
            test.observed.push_back(r);
    const engine::CheckOptions options = checkOptionsOf(args.pipeline);
    engine::CheckOptions timed = options;
    timed.startedAt = engine::Clock::now();
    ir::Program program = lowerTest(test, args.pipeline);
    const engine::CheckResult checked = checkProgram(program, *model, timed);
    std::optional<std::string> outcome;
    if (!args.outcome.empty()) outcome = args.outcome;
    std::optional<Explanation> stopped = limitReached(checked);
    Explanation ex;
    try {
        ex = stopped ? *stopped
             : args.flag.empty()
                 ? engine::explain::explainOutcome(program, *model, outcome, options, &checked)
                 : engine::explain::explainFlag(program, *model, args.flag, options);
    } catch (const engine::LimitReached& limit) { // the explanation's own queries ran out
        ex = Explanation{};
        ex.kind = Explanation::Kind::Unknown;
        ex.reason = limit.what();
    }
    std::string text = args.format == "text"  ? renderText(ex)
                       : args.format == "dot" ? renderDot(ex)
                                              : renderSvg(renderDot(ex));
    if (args.format == "text" && ex.kind == Explanation::Kind::Allowed)
        text += renderRemedies(engine::explain::findRemedies(
                                   test, program.events.size(), *model, {outcome, args.flag},
                                   checked, lower::LowerOptions{args.pipeline.unroll}, options),
                               test, args.flag);
    // Under the built-in model: whether the answer explained rests on a reading.
    if (args.format == "text" && args.pipeline.model.empty() && args.pipeline.reading.empty() &&
        ex.kind != Explanation::Kind::Unknown)
        text += renderReadings(program, options);
    if (args.output.empty()) {
        std::cout << text;
    } else {
        std::ofstream out(args.output);
        if (!out)
            throw InputError(SourceLoc{args.output, 0, 0}, "cannot write this file (-o/--output)");
        out << text;
    }
    return ex.kind == Explanation::Kind::Unknown ? 1 : 0;
}

} // namespace

void setupExplain(CLI::App& app) {
    auto args = std::make_shared<ExplainArgs>();
    CLI::App* sub = app.add_subcommand(
        "explain",
        "Show a witness execution for an allowed outcome, or the named axioms that forbid it");
    sub->add_option("TEST", args->test, "a litmus file")->required();
    sub->add_option(
        "--outcome", args->outcome,
        "final state to explain, e.g. \"P1:r0=0; x=1\" (default: the test's condition)");
    CLI::Option* outcomeOpt = sub->get_option("--outcome");
    sub->add_option("--flag", args->flag,
                    "draw an execution raising this flag (data-race, mbarrier-misuse, hang, ...) "
                    "instead of explaining an outcome")
        ->excludes(outcomeOpt);
    sub->add_option("--format", args->format, "text (default), dot or svg")
        ->check(CLI::IsMember({"text", "dot", "svg"}));
    PipelineHelp help;
    // Witnesses and minimal axiom sets are read off Z3's models: no other engine gives them.
    help.options = kAllPipelineOptions & ~kEngineOption;
    help.reading = "explain under one reading of the PTX text: the built-in variant model "
                   "variants/NAME.cat (like --model variants/NAME.cat)";
    help.timeout = "wall-clock limit for the check behind the explanation; hitting it "
                   "explains nothing (Unknown, exit status 1)";
    addPipelineOptions(*sub, args->pipeline, help);
    addOutputOption(*sub, args->output, "the explanation");
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
        "      the same question under CUTLASS's reading of Q1\n\n"
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
