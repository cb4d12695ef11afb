// Runner output: litmus7-style histogram blocks and the JSON results file (plain C++, no CUDA).
#pragma once

#include "Launch.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace litmus {

/** One distinct final state seen on the device, with how many instances ended in it. */
struct Outcome {
    std::vector<int> values;
    unsigned flags = 0; ///< kFlagStuck: a blocking wait timed out (values meaningless)
    unsigned long long count = 0;
    bool satisfies = false; ///< the condition's proposition holds
};

/** The result of running one test. */
struct TestRun {
    std::string name, file, mutantOf, mutation, arch;
    std::string status = "ok"; ///< ok, refused or error
    std::string message;       ///< why it was refused or failed
    std::string quantifier, condition;
    std::vector<std::string> observed;
    std::vector<Outcome> outcomes;
    unsigned long long launches = 0, instances = 0, stuck = 0, overflow = 0;
    double seconds = 0;
    unsigned long long seed = 0;
    std::string environment; ///< the stress settings drawn per launch, in words
};

/** Where and how the tests ran. */
struct RunInfo {
    std::string device, computeCapability, driver, runtime, harness = "ptxmc-litmus-runner 1";
    unsigned long long seed = 0;
    double secondsPerTest = 0;
    unsigned long long maxLaunches = 0;
    std::string started;
};

inline unsigned long long positive(const TestRun& r) {
    unsigned long long n = 0;
    for (const Outcome& o : r.outcomes)
        if (!o.flags && o.satisfies) n += o.count;
    return n;
}

inline unsigned long long negative(const TestRun& r) {
    unsigned long long n = 0;
    for (const Outcome& o : r.outcomes)
        if (!o.flags && !o.satisfies) n += o.count;
    return n;
}

/** herd's Observation word over instances: Never, Sometimes or Always. */
inline const char* observation(unsigned long long pos, unsigned long long neg) {
    if (pos == 0) return "Never";
    return neg == 0 ? "Always" : "Sometimes";
}

/** herd's Ok/No: exists -> some positive, ~exists -> none, forall -> all. */
inline bool conditionOk(const std::string& quantifier, unsigned long long pos,
                        unsigned long long neg) {
    if (quantifier == "~exists") return pos == 0;
    if (quantifier == "forall") return neg == 0;
    return pos > 0;
}

inline std::string stateText(const TestRun& r, const Outcome& o) {
    std::string s;
    for (std::size_t i = 0; i < o.values.size() && i < r.observed.size(); ++i)
        s += r.observed[i] + "=" + std::to_string(o.values[i]) + "; ";
    if (!s.empty()) s.pop_back();
    return s;
}

/** Outcomes sorted by their values (stuck ones last), as litmus7 prints them. */
inline std::vector<Outcome> sortedOutcomes(const TestRun& r) {
    std::vector<Outcome> out = r.outcomes;
    std::sort(out.begin(), out.end(), [](const Outcome& a, const Outcome& b) {
        if (a.flags != b.flags) return a.flags < b.flags;
        return a.values < b.values;
    });
    return out;
}

/** The histogram block in litmus7's format, plus the harness's own lines. */
inline std::string litmus7Block(const TestRun& r) {
    std::ostringstream os;
    os << "Test " << r.name << (r.status == "ok" ? "" : " " + r.status) << '\n';
    if (r.status != "ok") {
        os << "Message " << r.message << "\n\n";
        return os.str();
    }
    std::size_t states = 0;
    for (const Outcome& o : r.outcomes)
        if (!o.flags) ++states;
    os << "Histogram (" << states << " states)\n";
    for (const Outcome& o : sortedOutcomes(r)) {
        if (o.flags) continue;
        os << o.count << (o.satisfies ? " *>" : " :>") << stateText(r, o) << '\n';
    }
    if (r.stuck) os << "Stuck " << r.stuck << " (a blocking wait timed out)\n";
    unsigned long long pos = positive(r), neg = negative(r);
    bool ok = conditionOk(r.quantifier, pos, neg);
    os << (ok ? "Ok" : "No") << "\nWitnesses\nPositive: " << pos << ", Negative: " << neg << '\n';
    os << "Condition " << r.condition << " is " << (ok ? "" : "NOT ") << "validated\n";
    os << "Observation " << r.name << ' ' << observation(pos, neg) << ' ' << pos << ' ' << neg
       << '\n';
    char rate[64];
    std::snprintf(rate, sizeof rate, "%.3g", r.seconds > 0 ? r.instances / r.seconds : 0.0);
    os << "Time " << r.name << ' ' << r.seconds << '\n';
    os << "Instances " << r.instances << " in " << r.launches << " launches, " << rate
       << " per second\n\n";
    return os.str();
}

inline std::string jsonString(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += c;
            }
        }
    }
    return out + "\"";
}

inline std::string jsonNumber(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

inline std::string testJson(const TestRun& r) {
    std::ostringstream os;
    os << "    {\"name\": " << jsonString(r.name) << ", \"file\": " << jsonString(r.file)
       << ", \"mutant_of\": " << jsonString(r.mutantOf)
       << ", \"mutation\": " << jsonString(r.mutation) << ", \"arch\": " << jsonString(r.arch)
       << ",\n     \"status\": " << jsonString(r.status)
       << ", \"message\": " << jsonString(r.message);
    if (r.status == "ok") {
        unsigned long long pos = positive(r), neg = negative(r);
        os << ",\n     \"quantifier\": " << jsonString(r.quantifier)
           << ", \"condition\": " << jsonString(r.condition) << ",\n     \"observed\": [";
        for (std::size_t i = 0; i < r.observed.size(); ++i)
            os << (i ? ", " : "") << jsonString(r.observed[i]);
        os << "],\n     \"launches\": " << r.launches << ", \"instances\": " << r.instances
           << ", \"seconds\": " << jsonNumber(r.seconds) << ", \"instances_per_second\": "
           << jsonNumber(r.seconds > 0 ? r.instances / r.seconds : 0) << ", \"seed\": " << r.seed
           << ",\n     \"environment\": " << jsonString(r.environment)
           << ",\n     \"positive\": " << pos << ", \"negative\": " << neg
           << ", \"stuck\": " << r.stuck << ", \"overflow\": " << r.overflow
           << ", \"observation\": " << jsonString(observation(pos, neg))
           << ",\n     \"histogram\": [";
        bool first = true;
        for (const Outcome& o : sortedOutcomes(r)) {
            if (o.flags) continue;
            os << (first ? "\n" : ",\n") << "       {\"values\": [";
            for (std::size_t i = 0; i < o.values.size(); ++i)
                os << (i ? ", " : "") << o.values[i];
            os << "], \"count\": " << o.count
               << ", \"satisfies\": " << (o.satisfies ? "true" : "false") << "}";
            first = false;
        }
        os << "]";
    }
    os << "}";
    return os.str();
}

/** The whole results file: where it ran, then one object per test. */
inline std::string resultsJson(const RunInfo& info, const std::vector<TestRun>& runs) {
    std::ostringstream os;
    os << "{\"harness\": " << jsonString(info.harness)
       << ",\n \"device\": " << jsonString(info.device)
       << ", \"compute_capability\": " << jsonString(info.computeCapability)
       << ",\n \"driver\": " << jsonString(info.driver)
       << ", \"runtime\": " << jsonString(info.runtime) << ",\n \"seed\": " << info.seed
       << ", \"seconds_per_test\": " << jsonNumber(info.secondsPerTest)
       << ", \"max_launches\": " << info.maxLaunches
       << ", \"started\": " << jsonString(info.started) << ",\n \"tests\": [\n";
    for (std::size_t i = 0; i < runs.size(); ++i)
        os << testJson(runs[i]) << (i + 1 < runs.size() ? ",\n" : "\n");
    os << " ]}\n";
    return os.str();
}

} // namespace litmus
