// Reads the litmus runner's results.json (histograms observed on a GPU) for `ptxmc compare`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ptxmc::validate {

struct HwOutcome {
    std::vector<std::int64_t> values;
    std::uint64_t count = 0;
    bool satisfies = false; ///< the runner's evaluation of the condition's proposition
};

/** One test as the runner reported it. */
struct HwTest {
    std::string name, file, mutantOf, mutation, arch, status, message;
    std::string quantifier, condition;
    std::vector<std::string> observed;
    std::vector<HwOutcome> outcomes; ///< completed instances only
    std::uint64_t launches = 0, instances = 0, stuck = 0, overflow = 0;
    double seconds = 0;
};

/** A whole results file: where it ran, and the tests. */
struct HwRun {
    std::string path;
    std::string device, computeCapability, driver, runtime, started;
    std::uint64_t seed = 0;
    std::vector<HwTest> tests;
};

/** Parses a results.json; throws InputError (with the file name) when it is not one. */
HwRun readResults(const std::string& path);
/** Parses results text (for tests); `path` names it in errors. */
HwRun parseResults(const std::string& text, const std::string& path);

} // namespace ptxmc::validate
