// Reports for CI tools: SARIF 2.1.0 (code scanning) and JUnit XML (test dashboards).
#pragma once

#include "report/EngineTypes.hpp"
#include "report/PrintOptions.hpp"

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ptxmc::report {

/**
 * The PTX section a flag's documentation cites first: "8.7.1", and the anchor written after the
 * number somewhere in the text ("conflict-and-data-races"); empty when it cites none. The model
 * is the source: each flag's cat comment cites its section.
 */
struct DocSection {
    std::string number;
    std::string anchor;
};
DocSection sectionOfDoc(const std::string& doc);

/** An undefined-behaviour flag the model can raise: its name and its cat comment. */
struct FlagRule {
    std::string name;
    std::string doc;
};

/** A CUDA source line a PTX line came from, and what it is to that line ("inlined at"). */
struct SourceFrame {
    std::string file;
    int line = 0;
    std::string role;
};

/**
 * What one test came to, as `check` knows it when it reports: a result, or the error that
 * stopped it (an InputError's "file:line:col: error: ..." text, or an internal error).
 */
struct TestOutcome {
    std::string path; ///< the test file as given (after expanding folders)
    const CheckResult* result = nullptr;
    std::string error;                ///< when there is no result
    std::vector<std::string> failing; ///< flags --fail-on-flag names that the result raises
    /// with --readings: each reading whose answer differs from what the files record under it
    std::vector<std::string> readingMismatches;
    bool strict = false; ///< --strict: a reading mismatch fails the test (else a warning)
    /// `kernel`: every raised flag and a Deadlock answer fail (the kernel's own exit status)
    bool everyFlagFails = false;
    /// `kernel`: the source lines a PTX line came from, when `.loc` says: results are located
    /// at the first, the PTX line and the others (the inlining chain) related
    std::function<std::vector<SourceFrame>(int)> sourceOf;
};

/**
 * SARIF 2.1.0: one run of tool ptxmc whose rules are the model's flags (each with its PTX
 * section) and expectation-mismatch, input-error, unknown; one result per raised flag (level
 * error when --fail-on-flag names it, else warning; located at the first event of its first
 * witness, the other events related), per failed or missing expectation, per error and per
 * Unknown. Paths are given as relative URIs, as the command line named them.
 */
class SarifReport {
public:
    SarifReport(std::string version, std::vector<FlagRule> flags);
    void add(const TestOutcome& outcome);
    /** An error that belongs to no test (a bad PATH, a bad model or option). */
    void addError(const std::string& message);
    /** The whole log, as text. */
    std::string text() const;

private:
    void addRule(const std::string& name, const std::string& doc);
    nlohmann::ordered_json errorResult(const std::string& message) const;

    std::string version_;
    std::vector<FlagRule> rules_;
    nlohmann::ordered_json results_ = nlohmann::ordered_json::array();
};

/**
 * JUnit XML: <testsuites> holding one <testsuite name="ptxmc">, one <testcase> per test
 * (classname: the test's folder, name: the test's name; time unless --no-time). A failed or
 * missing expectation, or a flag --fail-on-flag names, is a <failure> whose message is the
 * mismatch text; an input or internal error is an <error>; Unknown is an <error type="unknown">
 * (the check did not come to a verdict, and the run fails, so it is not a <skipped>).
 */
class JunitReport {
public:
    explicit JunitReport(PrintOptions options) : options_(options) {}
    void add(const TestOutcome& outcome);
    /** An error that belongs to no test: a test case named after the file the error names. */
    void addError(const std::string& message);
    std::string text() const;

private:
    PrintOptions options_;
    std::string cases_;
    std::size_t tests_ = 0, failures_ = 0, errors_ = 0;
    double seconds_ = 0;
};

/** `text` with &, <, >, " and ' escaped, bad UTF-8 and characters XML 1.0 forbids replaced. */
std::string xmlEscape(const std::string& text);

/** An event as JSON: file, line, column, thread (-1: the initial state), instruction, note. */
nlohmann::ordered_json eventJson(const EventRef& e);

} // namespace ptxmc::report
