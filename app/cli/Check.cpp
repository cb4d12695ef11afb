// `ptxmc check`: parse, check and report each test; exit status sums up the whole run.
#include "cli/Check.hpp"

#include "cat/Resolver.hpp"
#include "check/Check.hpp"
#include "cli/CommonOptions.hpp"
#include "cli/Inputs.hpp"
#include "cli/Parallel.hpp"
#include "cli/Pipeline.hpp"
#include "cli/Progress.hpp"
#include "cli/Readings.hpp"
#include "engine/ResultBuilder.hpp"
#include "report/Answer.hpp"
#include "report/CiReports.hpp"
#include "report/Expectations.hpp"
#include "report/HerdPrinter.hpp"
#include "report/JsonPrinter.hpp"
#include "support/Plural.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

namespace ptxmc::cli {

namespace {

const char* const kCheckExamples = R"(Examples:
  ptxmc check litmus/                     every test under litmus/, against its expected.txt
  ptxmc check --jobs 2 litmus/@all        the tests a herd index file lists, two at a time
  ptxmc check --json --no-time t.litmus   JSON, without timings (reproducible)
  ptxmc check --stats t.litmus            what the check cost: encoding size, may/must pairs, times
  ptxmc check --model my.cat t.litmus     another model (cat file) instead of the built-in one
  ptxmc check --expectations-only litmus  only check that expected.txt covers every test
  ptxmc check --fail-on-flag any litmus/  also fail when a test raises any undefined-behaviour flag
  ptxmc check --format sarif -o ptxmc.sarif litmus/    SARIF 2.1.0 for code scanning
  ptxmc check --format junit -o ptxmc.xml litmus/      JUnit XML for test dashboards
  ptxmc check --sarif-output a.sarif --junit-output a.xml litmus/   text, and both reports
  ptxmc check --shard 2/4 litmus/         the second of four CI jobs: tests 2, 6, 10, ... of the order
  ptxmc check --list --shard 2/4 litmus/  which tests that job checks (checks nothing)

Exit status: 0 all matched, 1 a mismatch, missing expectation, Unknown or a flag named by
--fail-on-flag, 2 an input error (bad path, parse error, bad model), 3 an internal error.)";

// `--fail-on-flag any` fails on every flag.
constexpr const char* kAnyFlag = "any";

struct Tally {
    std::size_t tests = 0, matched = 0, mismatched = 0, unknown = 0, errors = 0;
    std::size_t flagged = 0; ///< tests raising a flag that --fail-on-flag names
    bool failOnFlag = false; ///< --fail-on-flag was given: the summary counts flagged tests
    bool internal = false;

    std::size_t failures() const { return mismatched + unknown + errors + flagged; }
    int status() const {
        if (internal) return 3;
        if (errors > 0) return 2;
        return mismatched > 0 || unknown > 0 || flagged > 0 ? 1 : 0;
    }
    void printSummary() const {
        std::cout.flush();
        std::cerr << "ptxmc: " << plural(tests, "test") << ", " << matched << " matched, "
                  << mismatched << " mismatched, " << unknown << " unknown, "
                  << plural(errors, "error");
        if (failOnFlag) std::cerr << ", " << flagged << " failed on flags";
        std::cerr << '\n';
    }
};

// What one worker produced for one test: a result, or the message of the error that stopped it.
struct Outcome {
    std::optional<engine::CheckResult> result;
    std::string error;
    bool internal = false;
};

Outcome checkOne(const std::string& path, const cat::ResolvedModel& model,
                 const PipelineOptions& pipeline, const engine::CheckOptions& options,
                 const engine::ExpectationCheck& expectation, bool readings) {
    Outcome out;
    try {
        out.result = checkFile(path, model, pipeline, options, expectation, readings);
    } catch (const InputError& e) {
        out.error = e.what();
    } catch (const std::exception& e) {
        out.error = path + ": internal error: " + e.what();
        out.internal = true;
    } catch (...) {
        out.error = path + ": internal error: unknown exception";
        out.internal = true;
    }
    return out;
}

// The flags `r` raises that --fail-on-flag names, sorted.
std::vector<std::string> failingFlags(const engine::CheckResult& r,
                                      const std::vector<std::string>& failOn) {
    auto named = [&](const std::string& name) {
        return std::find(failOn.begin(), failOn.end(), name) != failOn.end();
    };
    std::vector<std::string> failing;
    for (const std::string& name : report::flagNames(r.flags))
        if (named(kAnyFlag) || named(name)) failing.push_back(name);
    return failing;
}

// One stderr line per flag that fails the run: which test raised which flag.
void printFailingFlags(const engine::CheckResult& r, const std::vector<std::string>& failing) {
    std::cout.flush(); // keep stdout and stderr in input order on a terminal
    for (const std::string& name : failing)
        std::cerr << r.file << ": error: test " << r.testName << " raises flag " << name
                  << " (--fail-on-flag)\n";
}

// A flag name as the model may spell it, or `any`.
CLI::Validator flagName() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            if (!text.empty() && std::all_of(text.begin(), text.end(), report::isFlagNameChar))
                return "";
            return "expected a flag name (letters, digits, '_' and '-') or 'any', got '" + text +
                   "'";
        },
        "NAME");
}

// Every --fail-on-flag name is a flag of `model` (or `hang`, or `any`): a misspelt name would
// otherwise never match and the gate would pass whatever the tests raise.
void checkFlagNames(const std::vector<std::string>& names, const cat::ResolvedModel& model) {
    std::vector<std::string> known{kAnyFlag, engine::kHangFlag};
    for (const cat::Axiom& a : model.axioms)
        if (a.flag && std::find(known.begin(), known.end(), a.name) == known.end())
            known.push_back(a.name);
    std::sort(known.begin(), known.end());
    for (const std::string& n : names) {
        if (std::find(known.begin(), known.end(), n) != known.end()) continue;
        std::string list;
        for (const std::string& k : known)
            list += (list.empty() ? "" : ", ") + k;
        throw InputError(SourceLoc{"--fail-on-flag", 1, 1},
                         "unknown flag '" + n + "': the model's flags are " + list);
    }
}

void count(Tally& tally, const engine::CheckResult& r) {
    const engine::ExpectationCheck& e = r.expectation;
    if (r.observation == engine::Observation::Unknown)
        ++tally.unknown;
    else if (e.governed && e.matches)
        ++tally.matched;
    else if (e.governed)
        ++tally.mismatched; // also a governed test without a line: the corpus is incomplete
}

/**
 * For each reading, its answer (the base answer where readingsOf found no difference) against
 * what the expectation files record under it; one message per reading that differs.
 */
std::vector<std::string>
readingMismatchesOf(const engine::CheckResult& r, const std::vector<cat::ReadingInfo>& readings,
                    const std::vector<engine::ExpectationCheck>& expected) {
    std::vector<std::string> out;
    for (std::size_t k = 0; k < readings.size(); ++k) {
        const engine::ExpectationCheck& e = expected[k];
        if (!e.present) continue; // ungoverned: nothing recorded for any reading
        engine::Observation obs = r.observation;
        std::vector<std::string> flags = report::flagNames(r.flags);
        std::size_t states = r.states.size();
        for (const engine::ReadingResult& v : *r.readings)
            if (v.reading == readings[k].reading) {
                obs = v.observation;
                flags = v.flags;
                states = v.states;
            }
        if (obs == e.expected && flags == e.expectedFlags && states == e.expectedStates) continue;
        out.push_back(r.file + ": under " + readings[k].reading.modelFile() + " the answer is " +
                      report::answerText(obs, flags, states) + ", but " +
                      report::displayPath(e.file) + " records " + report::expectedAnswer(e));
    }
    return out;
}

/** A comparison switch of the Z3 engine: on (default) or off. */
void addOnOffOption(CLI::App& sub, const std::string& name, std::string& value,
                    const std::string& help) {
    sub.add_option(name, value, help)->check(CLI::IsMember({"on", "off"}))->option_text("on|off");
}

} // namespace

void setupCheck(CLI::App& app) {
    auto args = std::make_shared<CheckArgs>();
    CLI::App* sub = app.add_subcommand(
        "check", "Enumerate every allowed final state of litmus tests under the model");
    addFormatOption(*sub, args->format, {"text", "json", "sarif", "junit"},
                    "text (herd7's log, the default), json (a JSON array, one object per test), "
                    "sarif (SARIF 2.1.0: one result per raised flag, failed expectation, error "
                    "or Unknown, for code scanning) or junit (JUnit XML, one test case per test)");
    addOutputOption(*sub, args->output, "the results");
    addJobsOption(*sub, args->jobs,
                  "check N tests at a time; output order and content do not change");
    PipelineHelp help;
    help.model = "expected.<name>.txt overrides expected.txt";
    help.reading = "judge every test by one reading of the PTX text: the built-in variant "
                   "model variants/NAME.cat, with expected.NAME.txt overriding expected.txt "
                   "(like --model variants/NAME.cat)";
    addPipelineOptions(*sub, args->pipeline, help);
    sub->add_flag("--no-time", args->noTime, "leave timings out (reproducible output)");
    sub->add_flag("--stats", args->stats,
                  "print what each check cost: events, encoding size, solver queries, pairs of "
                  "each relation fixed by the program or decided by the solver, and (without "
                  "--no-time) phase times and Z3's counters (Z3 engine)");
    sub->add_option("--closures", args->closures,
                    "how Z3 encodes transitive closures: auto (default: fresh conditions "
                    "bounded below where the model's polarity allows it, the bounds propagated "
                    "inside the search where a test has 5,000 or more, else clauses), lazy "
                    "(always propagated), fixpoint (always clauses) or squaring (exact terms "
                    "everywhere); for comparison, the answers agree")
        ->check(CLI::IsMember({"auto", "lazy", "fixpoint", "squaring"}))
        ->option_text("ENCODING");
    sub->add_option("--acyclicity", args->acyclicity,
                    "how Z3 encodes the model's acyclicity axioms: auto (default: graphs where "
                    "an axiom's relation has 5,000 or more possible edges, else clocks), graph "
                    "(always: a graph per axiom inside the search, a cycle a conflict as its "
                    "last edge comes and an edge that would close one kept out) or clocks "
                    "(always: an integer clock per event, a clock constraint per edge); for "
                    "comparison, the answers agree")
        ->check(CLI::IsMember({"auto", "graph", "clocks"}))
        ->option_text("ENCODING");
    addOnOffOption(*sub, "--mbarrier-facts", args->mbarrierFacts,
                   "whether Z3 is told, per mbarrier operation, the phases and the order that "
                   "every execution the model allows where every spinning wait returns gives "
                   "it, found by exploring the schedules of the order the model's acyclicity "
                   "axioms impose: on (default) or off (for comparison); states, verdicts and "
                   "flags agree, the witness printed for a flag may differ");
    addOnOffOption(*sub, "--flag-bounds", args->flagBounds,
                   "whether Z3 is told that a flag's members and pairs no execution with "
                   "those mbarrier facts can raise are absent there, found by evaluating the "
                   "model on must and may bounds of its relations: on (default) or off (for "
                   "comparison); states, verdicts and flags agree, the witness printed for a "
                   "flag may differ");
    addOnOffOption(*sub, "--fixed-orders", args->fixedOrders,
                   "whether Z3 fixes the coherence order of the write pairs that an axiom "
                   "irreflexive (co ; S) with S of the program alone orders (a thread's writes "
                   "to one address, by Write-Program-Order) instead of searching it: on "
                   "(default) or off (for comparison); the answers agree");
    addOnOffOption(*sub, "--decided-observations", args->decidedObservations,
                   "whether Z3 takes which phase each wait observes from the mbarrier facts "
                   "where they decide it, before the axioms are encoded, so that the closures "
                   "over the observations hold only pairs some execution can have: on "
                   "(default) or off (for comparison); the answers agree");
    sub->add_option("--fail-on-flag", args->failOnFlags,
                    "exit 1 when a test raises this undefined-behaviour flag (data-race, "
                    "tmem-race, ...), even when its expectation matches; 'any': every flag; "
                    "repeatable")
        ->expected(1) // one value per --fail-on-flag, so PATH is never taken for a flag
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
        ->check(flagName())
        ->option_text("NAME");
    sub->add_flag("--readings", args->readings,
                  "also check each test under every variant model (model/variants: one open "
                  "question of the PTX text read the other way) and say whether the verdict "
                  "and each flag are robust or which readings change them; one encoding holds "
                  "every reading");
    sub->add_flag("--strict", args->strict,
                  "with --readings: every reading's answer must match its expectation "
                  "(expected.<variant>.txt, else expected.txt); without it a reading that "
                  "differs from its expectation is a warning");
    CLI::Option* expectationsOnly =
        sub->add_flag("--expectations-only", args->expectationsOnly,
                      "solve nothing: check that every test has an expected.txt line and every "
                      "line names an existing test it governs");
    sub->add_option("--sarif-output", args->sarifOutput,
                    "also write the SARIF log (as --format sarif prints it) to this file, "
                    "whatever --format prints: one check, both reports")
        ->option_text("FILE");
    sub->add_option("--junit-output", args->junitOutput,
                    "also write the JUnit XML (as --format junit prints it) to this file, "
                    "whatever --format prints")
        ->option_text("FILE");
    addShardOption(*sub, args->shard);
    sub->add_flag("--list", args->list,
                  "print the tests the PATHs (and --shard) select, one per line, in the order "
                  "they would be checked; check nothing")
        ->excludes(expectationsOnly);
    sub->add_option("PATH", args->paths,
                    "a .litmus file, a folder (searched recursively) or a herd @index file")
        ->required()
        ->option_text("...");
    sub->footer(kCheckExamples);
    sub->callback([args] {
        // CLI11's way of leaving parse() with a status: App::exit returns it without printing.
        if (int status = runCheck(*args); status != 0) throw CLI::RuntimeError(status);
    });
}

namespace {

// `check --list`: the selected tests, one per line.
int listTests(const CheckArgs& args) {
    Inputs inputs = expandInputs(args.paths, args.shard);
    StdoutTo redirect(args.output);
    for (const std::string& t : inputs.tests)
        std::cout << t << '\n';
    std::cout.flush();
    for (const std::string& e : inputs.errors)
        std::cerr << e << '\n';
    return inputs.errors.empty() ? 0 : 2;
}

} // namespace

std::vector<report::FlagRule> flagRulesOf(const cat::ResolvedModel* model) {
    std::vector<report::FlagRule> rules;
    if (model == nullptr) return rules;
    for (const cat::Axiom& a : model->axioms)
        if (a.flag) rules.push_back({a.name, a.doc});
    return rules;
}

int runCheck(const CheckArgs& args) {
    if (args.expectationsOnly) return runExpectationsOnly(args);
    if (args.list) return listTests(args);
    Tally tally;
    tally.failOnFlag = !args.failOnFlags.empty();
    Inputs inputs = expandInputs(args.paths, args.shard);
    tally.tests = inputs.tests.size();
    for (const std::string& e : inputs.errors) {
        std::cerr << e << '\n';
        ++tally.errors;
    }
    // SARIF and JUnit are whole documents, written at the end, errors included; on standard
    // output (--format) and/or to their own files (--sarif-output, --junit-output).
    const bool asSarif = args.format == "sarif", asJunit = args.format == "junit";
    std::ofstream sarifOut, junitOut;
    report::PrintOptions print;
    print.showTime = !args.noTime;
    std::optional<report::SarifReport> sarif;
    std::optional<report::JunitReport> junit;
    auto startReports = [&](const cat::ResolvedModel* model) {
        if (asSarif || sarifOut.is_open()) sarif.emplace(PTXMC_VERSION, flagRulesOf(model));
        if (asJunit || junitOut.is_open()) junit.emplace(print);
        for (const std::string& e : inputs.errors) {
            if (sarif) sarif->addError(e);
            if (junit) junit->addError(e);
        }
    };
    auto writeReports = [&] {
        if (sarif && asSarif) std::cout << sarif->text();
        if (sarif && sarifOut.is_open()) sarifOut << sarif->text();
        if (junit && asJunit) std::cout << junit->text();
        if (junit && junitOut.is_open()) junitOut << junit->text();
        std::cout.flush();
    };
    // Opened first, so that a file that cannot be written stops the run before any check.
    auto openReport = [](std::ofstream& out, const std::string& path, const char* option) {
        if (path.empty()) return;
        out.open(path, std::ios::binary);
        if (!out)
            throw InputError(SourceLoc{path, 0, 0},
                             std::string("cannot write this file (") + option + ")");
    };
    std::shared_ptr<const cat::ResolvedModel> model;
    std::vector<engine::ExpectationCheck> expectations;
    std::vector<cat::ReadingInfo> readings;
    // Per test, per reading: the answer the expectation files record under that reading.
    std::vector<std::vector<engine::ExpectationCheck>> readingExpectations;
    const PipelineOptions& pipeline = args.pipeline;
    const std::string modelFile = modelArgOf(pipeline);
    try {
        openReport(sarifOut, args.sarifOutput, "--sarif-output");
        openReport(junitOut, args.junitOutput, "--junit-output");
        if (!pipeline.reading.empty() && (!pipeline.model.empty() || args.readings))
            throw InputError(SourceLoc{"--reading", 1, 1},
                             "--reading NAME names the model itself: it takes neither "
                             "--model nor --readings");
        if (args.strict && !args.readings)
            throw InputError(SourceLoc{"--strict", 1, 1},
                             "--strict judges every reading: it needs --readings");
        if (args.readings) {
            // the variants redefine one decision of the built-in model each
            if (!pipeline.model.empty())
                throw InputError(SourceLoc{"--readings", 1, 1},
                                 "--readings compares the built-in model with its variants "
                                 "(model/variants); it takes no --model");
            model = modelWithReadings();
            readings = model->readings;
        } else {
            model = loadModel(pipeline);
        }
        checkFlagNames(args.failOnFlags, *model);
        // Looked up here, on one thread: the index caches files and is not thread-safe.
        // Under model X.cat, expected.X.txt (beside expected.txt) overrides the lines it lists.
        expectations = expectationsOf(inputs.tests, modelFile);
        if (!readings.empty()) readingExpectations.resize(inputs.tests.size());
        for (const cat::ReadingInfo& reading : readings) {
            report::ExpectationIndex under(reading.reading.name);
            for (std::size_t i = 0; i < inputs.tests.size(); ++i)
                readingExpectations[i].push_back(under.lookup(inputs.tests[i]));
        }
    } catch (const InputError& e) {
        // Without a model or with a broken expected.txt no verdict would mean anything.
        std::cerr << e.what() << '\n';
        ++tally.errors;
        if (asSarif || asJunit || sarifOut.is_open() || junitOut.is_open()) {
            StdoutTo redirect(asSarif || asJunit ? args.output : std::string());
            startReports(model.get());
            if (sarif) sarif->addError(e.what());
            if (junit) junit->addError(e.what());
            writeReports();
        }
        tally.printSummary();
        return tally.status();
    }
    startReports(model.get());

    engine::CheckOptions options = checkOptionsOf(pipeline);
    options.stats = args.stats;
    options.exactClosures = args.closures == "squaring";
    options.lazyClosures = args.closures == "auto" || args.closures == "lazy";
    if (args.closures == "lazy") options.lazyClosuresFrom = 0;
    options.graphAcyclic = args.acyclicity != "clocks";
    if (args.acyclicity == "graph") options.graphAcyclicFrom = 0;
    options.mbarrierFacts = args.mbarrierFacts == "on";
    options.flagBounds = args.flagBounds == "on";
    options.fixedOrders = args.fixedOrders == "on";
    options.decidedObservations = args.decidedObservations == "on";
    StdoutTo redirect(args.output);
    const bool asJson = args.format == "json";
    const bool asDocument = asJson || asSarif || asJunit; // printed whole at the end
    report::HerdPrinter herd(print);
    report::JsonPrinter json(print);
    nlohmann::ordered_json array = nlohmann::ordered_json::array();

    Progress progress(inputs.tests.size(), stderrIsTerminal(), std::cerr);
    const bool stdoutTerminal = !redirect.redirected() && stdoutIsTerminal();
    std::vector<Outcome> outcomes(inputs.tests.size());
    auto work = [&](std::size_t i) {
        outcomes[i] =
            checkOne(inputs.tests[i], *model, pipeline, options, expectations[i], args.readings);
    };
    auto emit = [&](std::size_t i) {
        Outcome& o = outcomes[i];
        const std::size_t failuresBefore = tally.failures();
        std::vector<std::string> failing;
        std::vector<std::string> readingMismatches;
        if (o.result && o.result->readings && !readingExpectations.empty())
            readingMismatches = readingMismatchesOf(*o.result, readings, readingExpectations[i]);
        if (o.result) {
            count(tally, *o.result);
            // Under --strict a reading that differs from its expectation fails like the test.
            if (args.strict && !readingMismatches.empty() && o.result->expectation.matches) {
                --tally.matched;
                ++tally.mismatched;
            }
            failing = failingFlags(*o.result, args.failOnFlags);
            tally.flagged += failing.empty() ? 0 : 1;
        } else {
            ++tally.errors;
            tally.internal = tally.internal || o.internal;
        }
        // The progress line steps aside while a block or an error is printed on the terminal.
        const bool onTerminal = !o.result || !failing.empty() || (!asDocument && stdoutTerminal);
        progress.report(tally.failures() > failuresBefore, onTerminal, [&] {
            report::TestOutcome outcome;
            outcome.path = inputs.tests[i];
            outcome.result = o.result ? &*o.result : nullptr;
            outcome.error = o.error;
            outcome.failing = failing;
            outcome.readingMismatches = readingMismatches;
            outcome.strict = args.strict;
            if (sarif) sarif->add(outcome);
            if (junit) junit->add(outcome);
            if (!o.result) {
                std::cout.flush(); // keep stdout and stderr in input order on a terminal
                std::cerr << o.error << '\n';
                return;
            }
            if (asJson)
                array.push_back(json.toJson(*o.result));
            else if (!asSarif && !asJunit) // those documents hold the result already
                herd.print(std::cout, *o.result);
            std::cout.flush(); // show each block as soon as it is known
            printFailingFlags(*o.result, failing);
            for (const std::string& m : readingMismatches)
                std::cerr << (args.strict ? "error: " : "warning: ") << m << '\n';
        });
        o.result.reset(); // a corpus's results need not all stay in memory
    };
    runInOrder(inputs.tests.size(), args.jobs, work, emit);
    progress.finish();
    if (asJson) std::cout << dumpJson(array);
    writeReports();
    tally.printSummary();
    return tally.status();
}

} // namespace ptxmc::cli
