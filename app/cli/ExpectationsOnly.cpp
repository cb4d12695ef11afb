// `ptxmc check --expectations-only`: is every test covered, and does every line still apply?
#include "cli/Check.hpp"
#include "cli/Inputs.hpp"
#include "report/Expectations.hpp"
#include "support/Plural.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <set>

namespace ptxmc::cli {

namespace fs = std::filesystem;

namespace {

fs::path canonicalOf(const fs::path& p) {
    std::error_code ec;
    fs::path c = fs::weakly_canonical(p, ec);
    return ec ? fs::absolute(p) : c;
}

// expected.txt files below the named folders: they must be valid even if no test reaches them.
void findExpectationFiles(const std::vector<std::string>& folders, std::set<fs::path>& out) {
    for (const std::string& folder : folders) {
        std::error_code ec;
        fs::recursive_directory_iterator it(folder, ec), end;
        for (; !ec && it != end; it.increment(ec))
            if (it->path().filename() == report::kExpectationsFileName)
                out.insert(canonicalOf(it->path()));
    }
}

} // namespace

int runExpectationsOnly(const CheckArgs& args) {
    Inputs inputs = expandInputs(args.paths, args.shard);
    std::size_t errors = 0, gaps = 0, covered = 0;
    for (const std::string& e : inputs.errors) {
        std::cerr << e << '\n';
        ++errors;
    }
    report::ExpectationIndex index;
    std::set<fs::path> files;
    try {
        for (const std::string& test : inputs.tests) {
            engine::ExpectationCheck c = index.lookup(test);
            if (!c.governed) {
                std::cerr << test << ": error: no " << report::kExpectationsFileName
                          << " in the test's folder or above\n";
                ++gaps;
                continue;
            }
            files.insert(canonicalOf(*index.governingFile(test)));
            if (c.present) {
                ++covered;
            } else {
                std::cerr << test << ": error: no expectation line in " << c.file << '\n';
                ++gaps;
            }
        }
        findExpectationFiles(inputs.folders, files);
        // A line for a test that a nearer expected.txt governs is dead: it would never be read.
        for (const fs::path& path : files) {
            for (const report::ExpectationEntry& e : index.file(path).entries()) {
                std::optional<fs::path> governing = index.governingFile(e.resolved);
                if (governing && canonicalOf(*governing) == path) continue;
                std::string owner = governing ? report::displayPath(*governing) : "no file";
                std::cerr << e.loc.str() << ": error: '" << e.path << "' is governed by " << owner
                          << ", not by this file\n";
                ++gaps;
            }
        }
    } catch (const InputError& e) {
        std::cerr << e.what() << '\n';
        ++errors;
    }
    std::cerr << "ptxmc: " << plural(inputs.tests.size(), "test") << ", " << covered
              << " with expectations, " << plural(gaps, "gap") << ", " << plural(errors, "error")
              << "\n";
    if (errors > 0) return 2;
    return gaps > 0 ? 1 : 0;
}

} // namespace ptxmc::cli
