// expected.txt files: the verdict each corpus test must produce, and which file governs a test.
#pragma once

#include "report/EngineTypes.hpp"
#include "support/SourceLoc.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ptxmc::report {

/** The name of an expectations file; the nearest one above a test governs it. */
inline constexpr const char* kExpectationsFileName = "expected.txt";

/**
 * `expected.<variant>.txt`, beside an expected.txt: the verdicts that differ under the model
 * `<variant>.cat` (for example model/variants/q4-kind-not-required.cat), same line format.
 */
std::string variantFileName(const std::string& variant);

/** The variant a `--model` argument names: its file name without `.cat`; empty for none. */
std::string variantOfModel(const std::string& modelArg);

/**
 * One line `<path> <Never|Sometimes|Always|Deadlock> flags=<none|NAME[,NAME...]> states=<N>
 * <reason>`; the reason names every listed flag.
 */
struct ExpectationEntry {
    std::string path;               ///< as written, relative to the file's folder
    std::filesystem::path resolved; ///< canonical path of the test file
    Observation expected = Observation::Never;
    std::vector<std::string> flags; ///< undefined-behaviour flags raised: sorted, no duplicates
    std::size_t states = 0;         ///< number of distinct allowed final states
    std::string reason;
    SourceLoc loc; ///< position of the path
};

/** A parsed expected.txt. Every entry names an existing file, at most once. */
class ExpectationFile {
public:
    /** Reads and parses `file`. Throws InputError (file:line:col) on any malformed line. */
    static ExpectationFile load(const std::filesystem::path& file);
    /** Parses `text` as if read from `file`; entry paths are checked relative to its folder. */
    static ExpectationFile parse(const std::string& text, const std::filesystem::path& file);

    const std::filesystem::path& path() const { return path_; }
    const std::vector<ExpectationEntry>& entries() const { return entries_; }
    /** The entry for a test, by canonical path; nullptr when the file has no line for it. */
    const ExpectationEntry* find(const std::filesystem::path& canonicalTest) const;

private:
    std::filesystem::path path_;
    std::vector<ExpectationEntry> entries_;
    std::map<std::filesystem::path, std::size_t> byPath_;
};

/**
 * Finds the expected.txt governing each test and caches the parsed files.
 * Not thread-safe: look up every test from one thread before checking in parallel.
 */
class ExpectationIndex {
public:
    /** With a variant, a test listed in expected.<variant>.txt beside its expected.txt is
     * checked against that line instead; every other test keeps its expected.txt line. */
    explicit ExpectationIndex(std::string variant = {}) : variant_(std::move(variant)) {}

    /** The nearest expected.txt in the test's folder or above it (up to the root), if any. */
    std::optional<std::filesystem::path> governingFile(const std::filesystem::path& test);

    /** The parsed file (loaded on first use). Throws InputError. */
    const ExpectationFile& file(const std::filesystem::path& expectedTxt);

    /** The expectation for a test, `matches` not yet set. Throws InputError for a bad file. */
    ExpectationCheck lookup(const std::filesystem::path& test);

private:
    /** The variant file beside `expectedTxt`, loaded on first use; nullptr when there is none. */
    const ExpectationFile* variantFile(const std::filesystem::path& expectedTxt);

    std::string variant_;
    std::map<std::filesystem::path, std::optional<std::filesystem::path>> governing_;
    std::map<std::filesystem::path, ExpectationFile> files_;
};

/** Stores `check` in the result; it matches when verdict, flag set and state count all agree. */
void applyExpectation(CheckResult& result, ExpectationCheck check);

/** How an expectations file is named in messages: relative to the working folder when below it. */
std::string displayPath(const std::filesystem::path& p);

} // namespace ptxmc::report
