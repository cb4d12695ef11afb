// `ptxmc patterns`: the kernel-protocol document: each protocol's code, answer under every
// reading, which of its synchronization is load-bearing, and what each form or mutant shows.
#include "cli/Patterns.hpp"

#include "cli/CommonOptions.hpp"
#include "cli/Inputs.hpp"
#include "cli/Parallel.hpp"
#include "cli/Pipeline.hpp"
#include "cli/Readings.hpp"
#include "cli/Weakenings.hpp"
#include "litmus/Parser.hpp"
#include "ptx/Mutation.hpp"
#include "ptx/Program.hpp"
#include "ptx/Sections.hpp"
#include "report/Answer.hpp"
#include "report/Expectations.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>

namespace ptxmc::cli {

namespace fs = std::filesystem;

namespace {

const char* const kPatternsExamples = R"(Examples:
  ptxmc patterns --jobs 2 -o docs/patterns.md litmus/kernels
  ptxmc patterns litmus/kernels/tma-umma

Each folder is a family. A test is a protocol unless its name extends another test's name in
the same folder (umma-2x3-no-fa-mma-k1 extends umma-2x3): then it is one of that protocol's
forms or mutants. Per protocol: the code, its answer under the built-in model and under every
variant (model/variants), each synchronising instruction dropped and weakened (as `ptxmc
fences` does) with the PTX section that defines it, and each form's answer with the reason
its expected.txt line gives. Forms named *cutlass-form* are checked under every reading too;
other forms show the variant answers their expected.<variant>.txt files record.
Every test's answer is also checked against its expected.txt line.
Exit status: 0 every check answered as expected, 1 some check is Unknown, failed or differs
from its expected.txt line, 2 an input error.
No --model or --reading: the document is the built-in model's, with every reading beside it.)";

struct PatternsArgs {
    std::string output;    ///< -o FILE; empty: standard output
    std::string linksFrom; ///< --links-from DIR: links relative to DIR (default: -o's folder)
    unsigned jobs = 1;
    PipelineOptions pipeline; ///< --unroll, --timeout, limits, --engine (no model: see --help)
    std::vector<std::string> paths;
};

/**
 * Protocols with more events than this get neither the fences table nor the readings: the
 * table takes a check per weakening, the readings an enumeration per reading that the
 * protocol's encoding contains, and at that size one takes seconds (the document would take
 * most of an hour). The document says how to get them.
 */
constexpr std::size_t kDetailedEvents = 100;

/** A protocol and the tests that extend its name: its forms and mutants. */
struct Protocol {
    std::string path;
    std::vector<std::string> forms;
};

/** One folder of tests. */
struct Family {
    std::string folder;
    std::vector<Protocol> protocols;
};

std::string stemOf(const std::string& path) {
    return fs::path(path).stem().string();
}

/** Groups tests by folder; each test goes to the protocol with the longest stem it extends. */
std::vector<Family> familiesOf(const std::vector<std::string>& tests) {
    std::map<std::string, std::vector<std::string>> byFolder;
    for (const std::string& t : tests)
        byFolder[fs::path(t).parent_path().string()].push_back(t);
    std::vector<Family> out;
    for (auto& entry : byFolder) {
        std::vector<std::string>& files = entry.second; // named: lambdas capture it
        const std::string& folder = entry.first;
        std::sort(files.begin(), files.end());
        auto extended = [&](const std::string& t) { // the longest stem t extends, or ""
            std::string best;
            for (const std::string& other : files)
                if (stemOf(t).rfind(stemOf(other) + "-", 0) == 0 &&
                    stemOf(other).size() > best.size())
                    best = stemOf(other);
            return best;
        };
        Family f{folder, {}};
        std::map<std::string, std::size_t> protocolOf; // stem -> index in f.protocols
        for (const std::string& t : files)
            if (extended(t).empty()) {
                protocolOf[stemOf(t)] = f.protocols.size();
                f.protocols.push_back({t, {}});
            }
        for (const std::string& t : files) {
            std::string base = extended(t);
            // A mutant of a form: one step up per round. Without the break, the protocol's
            // own file, sorted after its forms ('-' < '.'), would take it one step too far.
            while (!base.empty() && !protocolOf.count(base))
                for (const std::string& other : files)
                    if (stemOf(other) == base) {
                        base = extended(other);
                        break;
                    }
            if (!base.empty()) f.protocols[protocolOf.at(base)].forms.push_back(t);
        }
        out.push_back(std::move(f));
    }
    return out;
}

/** Markdown table cell text: pipes escaped, empty cells kept visible. */
std::string cell(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '|') out += '\\';
        out += c;
    }
    return out;
}

std::string code(const std::string& s) {
    return s.empty() ? "" : "`" + cell(s) + "`";
}

std::string answerOf(const engine::ReadingResult& r) {
    return report::answerText(r.observation, r.flags, r.states);
}

std::string readingsText(const std::optional<std::vector<engine::ReadingResult>>& readings) {
    if (!readings) return "not checked";
    if (readings->empty()) return "robust: the same answer under every reading";
    std::string s;
    for (const auto& r : *readings)
        s += (s.empty() ? "" : "; ") + ("`" + r.reading.name + "`: " + answerOf(r));
    return s;
}

/** The answers recorded for `test` in expected.<variant>.txt files that differ from its own. */
std::string recordedReadings(const std::string& test,
                             const std::vector<cat::ReadingInfo>& readings) {
    std::string s;
    for (const cat::ReadingInfo& r : readings) {
        report::ExpectationIndex index(r.reading.name);
        engine::ExpectationCheck e = index.lookup(test);
        if (!e.present || fs::path(e.file).filename() != report::variantFileName(r.reading.name))
            continue;
        s += (s.empty() ? "" : "; ") +
             ("`" + r.reading.name +
              "`: " + report::answerText(e.expected, e.expectedFlags, e.expectedStates));
    }
    return s.empty() ? "none recorded" : s;
}

/** The test's code: one column per thread, its placement in the header. */
void printCode(std::ostream& out, const litmus::Test& t) {
    std::size_t rows = 0;
    out << '|';
    for (const auto& th : t.threads) {
        out << " P" << th.id << " (CTA " << th.cta
            << (th.cluster ? ", cluster " + std::to_string(*th.cluster) : std::string()) << ") |";
        rows = std::max(rows, th.code.size());
    }
    out << "\n|";
    for (std::size_t i = 0; i < t.threads.size(); ++i)
        out << "---|";
    out << '\n';
    for (std::size_t r = 0; r < rows; ++r) {
        out << '|';
        for (const auto& th : t.threads) {
            std::string text;
            if (r < th.code.size()) {
                const litmus::Instruction& inst = th.code[r];
                text = inst.label ? *inst.label + ":" : instructionText(inst);
            }
            out << ' ' << code(text) << " |";
        }
        out << '\n';
    }
    out << '\n';
}

/** The decoded instruction a mutation names (as instructionOf finds its text). */
const ptx::CodeItem& itemOf(const ptx::Program& p, const ptx::Mutation& m) {
    return p.threads.at(static_cast<std::size_t>(m.thread))
        .code.at(static_cast<std::size_t>(m.index));
}

/** The PTX section of a test's instruction, linked to the PTX ISA text; empty when none. */
std::string sectionText(const ptx::CodeItem& item) {
    if (!item.decoded) return {};
    ptx::Section s = ptx::sectionOf(*item.decoded);
    if (s.number.empty()) return {};
    return "[" + s.number + "](https://docs.nvidia.com/cuda/parallel-thread-execution/#" +
           s.anchor + ")";
}

void printFences(std::ostream& out, const TestRun& run) {
    std::size_t bearing = 0;
    for (const Effect& e : run.effects)
        bearing += e.loadBearing() ? 1 : 0;
    out << "Synchronization (`ptxmc fences`): " << bearing << " of " << run.effects.size()
        << " weakenings load-bearing.\n\n";
    out << "| thread | line | instruction | PTX | weakening | effect |\n";
    out << "|---|---|---|---|---|---|\n";
    const ptx::Program decoded = ptx::decodeProgram(run.test);
    perInstruction(run.effects, [&](std::size_t i, std::size_t j) {
        const litmus::Instruction& inst = instructionOf(run.test, run.effects[i].mutation);
        const ptx::CodeItem& item = itemOf(decoded, run.effects[i].mutation);
        for (std::size_t k = i; k < j; ++k) {
            const Effect& e = run.effects[k];
            bool first = k == i;
            out << "| " << (first ? "P" + std::to_string(e.mutation.thread) : "") << " | "
                << (first ? std::to_string(inst.loc.line) : "") << " | "
                << (first ? code(instructionText(inst)) : "") << " | "
                << (first ? cell(sectionText(item)) : "") << " | " << ptx::kindName(e.mutation.kind)
                << " | " << cell(effectText(e, *run.base) + readingsText(e)) << " |\n";
        }
    });
    out << '\n';
}

/** What one form or protocol gave, filled by the checks. */
struct Answer {
    std::optional<engine::CheckResult> result;
    std::size_t events = 0;
    std::string error;
    bool allReadings = false; ///< readings computed (protocols and CUTLASS forms)
};

std::string relativeLink(const std::string& test, const fs::path& from) {
    return fs::relative(fs::absolute(test), fs::absolute(from)).generic_string();
}

std::string answerCell(const Answer& a) {
    if (!a.error.empty()) return "error: " + a.error;
    if (!a.result) return "not checked";
    if (a.result->observation == engine::Observation::Unknown)
        return "Unknown: " + a.result->unknownReason.text;
    return report::answerText(a.result->observation, report::flagNames(a.result->flags),
                              a.result->states.size());
}

void printProtocol(std::ostream& out, const Protocol& p, const TestRun& run,
                   const std::map<std::string, Answer>& answers,
                   const std::vector<cat::ReadingInfo>& readings, const fs::path& outDir) {
    const litmus::Test test = readTest(p.path); // checked already: it parses
    out << "### [" << test.name << "](" << relativeLink(p.path, outDir) << ")\n\n";
    std::string rules;
    for (const std::string& d : test.docs) {
        if (d.rfind("PTX ISA", 0) == 0)
            rules = d;
        else
            out << d << '\n';
    }
    out << '\n';
    if (!rules.empty()) out << "Rules: " << rules << "\n\n";
    printCode(out, test);
    const Answer& own = answers.at(p.path);
    out << "Answer under the built-in model: **" << answerCell(own) << "**.";
    if (own.events > kDetailedEvents) {
        out << " " << own.events << " events: readings and the fences table are left out here "
            << "(`ptxmc check --readings` and `ptxmc fences` on the test give them); the "
            << "smaller sizes of this protocol have them.\n\n";
    } else {
        out << " Readings: " << (own.result ? readingsText(own.result->readings) : "not checked")
            << ".\n\n";
        if (run.base && run.base->observation != engine::Observation::Unknown)
            printFences(out, run);
    }
    if (p.forms.empty()) return;
    out << "Forms and mutants:\n\n| test | answer | other readings | what it shows (expected.txt) "
           "|\n"
           "|---|---|---|---|\n";
    report::ExpectationIndex index;
    for (const std::string& f : p.forms) {
        const Answer& a = answers.at(f);
        std::string other = a.allReadings && a.result ? readingsText(a.result->readings)
                                                      : recordedReadings(f, readings);
        engine::ExpectationCheck e = index.lookup(f);
        out << "| [" << stemOf(f) << "](" << relativeLink(f, outDir) << ") | " << answerCell(a)
            << " | " << cell(other) << " | " << cell(e.present ? e.reason : "no expected.txt line")
            << " |\n";
    }
    out << '\n';
}

int runPatterns(const PatternsArgs& args) {
    Inputs inputs = expandInputs(args.paths);
    for (const auto& e : inputs.errors)
        std::cerr << e << '\n';
    if (!inputs.errors.empty()) return 2;
    const std::vector<Family> families = familiesOf(inputs.tests);
    auto model = modelWithReadings();

    // Every test once under the built-in model; protocols and CUTLASS forms under every reading.
    std::vector<std::string> protocols, all;
    for (const Family& f : families)
        for (const Protocol& p : f.protocols) {
            protocols.push_back(p.path);
            all.push_back(p.path);
            all.insert(all.end(), p.forms.begin(), p.forms.end());
        }
    const engine::CheckOptions options = checkOptionsOf(args.pipeline);
    std::map<std::string, Answer> answers;
    for (const std::string& t : all)
        answers[t].allReadings = stemOf(t).find("cutlass-form") != std::string::npos;
    for (const std::string& t : protocols)
        answers[t].allReadings = true;
    runInOrder(
        all.size(), args.jobs,
        [&](std::size_t i) {
            Answer& a = answers.at(all[i]);
            try {
                engine::CheckOptions timed = options;
                timed.startedAt = engine::Clock::now();
                const ir::Program program = lowerTest(readTest(all[i]), args.pipeline);
                a.events = program.events.size();
                a.result = checkProgram(program, *model, timed,
                                        a.allReadings && a.events <= kDetailedEvents);
            } catch (const InputError& e) {
                a.error = e.what();
            }
        },
        [](std::size_t) {});

    WeakeningOptions weakening;
    weakening.pipeline = args.pipeline;
    weakening.jobs = args.jobs;
    std::map<std::string, TestRun> runs;
    std::size_t failures = 0;
    // A protocol with a CUTLASS form has its weakenings weighed under every reading too: the
    // table then shows which synchronization the reading CUTLASS relies on makes redundant.
    std::vector<std::string> detailed, detailedWithReadings;
    for (const Family& f : families)
        for (const Protocol& p : f.protocols) {
            if (answers.at(p.path).events > kDetailedEvents) continue;
            bool cutlass = std::any_of(p.forms.begin(), p.forms.end(), [](const std::string& t) {
                return stemOf(t).find("cutlass-form") != std::string::npos;
            });
            (cutlass ? detailedWithReadings : detailed).push_back(p.path);
        }
    auto keep = [&](TestRun& run) {
        for (const Effect& e : run.effects) {
            if (!e.unknown()) continue;
            // say which: the document cannot show a weakening that has no answer
            std::cerr << run.path << ": weakening " << ptx::toString(e.mutation) << ": "
                      << (!e.error.empty() ? e.error
                          : e.result       ? "Unknown: " + e.result->unknownReason.text
                                           : std::string("no answer"))
                      << '\n';
            ++failures;
        }
        runs[run.path] = std::move(run);
    };
    weakenTests(detailed, *model, weakening, keep);
    weakening.readings = true;
    weakenTests(detailedWithReadings, *model, weakening, keep);
    for (const auto& [path, a] : answers)
        if (!a.result || a.result->observation == engine::Observation::Unknown) {
            std::cerr << path << ": " << answerCell(a) << '\n';
            ++failures;
        }

    // Each answer against its expected.txt line: the document shows answers, and a kernel
    // protocol whose answer changed must not slip into it unnoticed.
    report::ExpectationIndex expectations;
    for (const std::string& t : all) {
        Answer& a = answers.at(t);
        if (!a.result || a.result->observation == engine::Observation::Unknown) continue;
        report::applyExpectation(*a.result, expectations.lookup(t));
        if (!a.result->expectation.present) {
            std::cerr << t << ": no expected.txt line\n";
            ++failures;
        } else if (!a.result->expectation.matches) {
            std::cerr << t << ": answer " << answerCell(a) << " differs from expected "
                      << report::expectedAnswer(a.result->expectation) << '\n';
            ++failures;
        }
    }

    StdoutTo redirect(args.output);
    const fs::path outDir = !args.linksFrom.empty() ? fs::absolute(args.linksFrom)
                            : args.output.empty()   ? fs::current_path()
                                                    : fs::absolute(args.output).parent_path();
    std::ostream& out = std::cout;
    out << "# Kernel protocols, checked\n\n"
           "Generated by `ptxmc patterns` from the tests under `litmus/kernels/` and the "
           "built-in model; do not edit (a ctest regenerates it and fails when it differs).\n\n"
           "Each protocol is a litmus test of the synchronization a real kernel uses; its "
           "forms and mutants are the tests whose names extend its name. For each: the code, "
           "the answer (verdict, program-error flags, number of final states) under the "
           "built-in model, which readings of open questions of the PTX text (the variant "
           "models, `model/README.md`) change it, and what dropping or weakening each "
           "synchronising instruction does (`ptxmc fences`); for a protocol with a CUTLASS "
           "form, also under which readings a weakening is redundant or load-bearing "
           "otherwise (`ptxmc fences --readings`): which synchronization each reading "
           "needs.\n\n";
    for (const Family& f : families) {
        out << "## " << fs::path(f.folder).filename().string() << "\n\n";
        for (const Protocol& p : f.protocols)
            printProtocol(out, p, runs[p.path], answers, model->readings, outDir);
    }
    std::cout.flush();
    return failures > 0 ? 1 : 0;
}

} // namespace

void setupPatterns(CLI::App& app) {
    auto args = std::make_shared<PatternsArgs>();
    CLI::App* sub = app.add_subcommand(
        "patterns", "Document kernel protocols: code, answer per reading, load-bearing syncs");
    addOutputOption(*sub, args->output, "the document");
    sub->add_option("--links-from", args->linksFrom,
                    "write links to tests relative to DIR (default: the -o file's folder)")
        ->option_text("DIR");
    addJobsOption(*sub, args->jobs, "run N checks at a time; the output does not change");
    PipelineHelp help;
    // The document shows every answer under the built-in model and each of its readings.
    help.options = kAllPipelineOptions & ~kModelOption & ~kReadingOption;
    help.timeout = "wall-clock limit per check; a check that hits it is reported unknown";
    addPipelineOptions(*sub, args->pipeline, help);
    sub->add_option("PATH", args->paths,
                    "a .litmus file, a folder (searched recursively) or a herd @index file")
        ->required()
        ->option_text("...");
    sub->footer(kPatternsExamples);
    sub->callback([args] {
        if (int status = runPatterns(*args); status != 0) throw CLI::RuntimeError(status);
    });
}

} // namespace ptxmc::cli
