// Answers in expected.txt's words, and the text that says how a result missed its expectation.
#include "report/Answer.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <iterator>

namespace ptxmc::report {

std::vector<std::vector<std::int64_t>> stateValues(const CheckResult& r) {
    std::vector<std::vector<std::int64_t>> out;
    for (const FinalState& s : r.states)
        out.push_back(s.values);
    return out;
}

std::vector<std::vector<std::int64_t>>
statesOnlyIn(const std::vector<std::vector<std::int64_t>>& x,
             const std::vector<std::vector<std::int64_t>>& y) {
    std::vector<std::vector<std::int64_t>> out;
    std::set_difference(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(out));
    return out;
}

std::string stateText(const std::vector<std::string>& observed,
                      const std::vector<std::int64_t>& values) {
    std::string out;
    for (std::size_t i = 0; i < observed.size() && i < values.size(); ++i)
        out += (out.empty() ? "" : " ") + observed[i] + "=" + std::to_string(values[i]) + ";";
    return out;
}

bool isFlagNameChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
}

std::vector<std::string> flagNames(const std::vector<RaisedFlag>& flags) {
    std::vector<std::string> names;
    for (const RaisedFlag& f : flags)
        names.push_back(f.name);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

std::string flagsText(const std::vector<std::string>& names) {
    if (names.empty()) return "none";
    std::string text;
    for (const std::string& n : names)
        text += (text.empty() ? "" : ",") + n;
    return text;
}

std::string answerText(Observation o, const std::vector<std::string>& flags, std::size_t states) {
    return fmt::format("{} flags={} states={}", toString(o), flagsText(flags), states);
}

std::string expectedAnswer(const ExpectationCheck& e) {
    return answerText(e.expected, e.expectedFlags, e.expectedStates);
}

std::string actualAnswer(const CheckResult& r) {
    return answerText(r.observation, flagNames(r.flags), r.states.size());
}

std::string mismatchText(const CheckResult& r) {
    const ExpectationCheck& e = r.expectation;
    if (!e.present || e.matches) return "";
    return fmt::format("expected {}, got {}", expectedAnswer(e), actualAnswer(r));
}

std::vector<Dependence> dependencesOf(const CheckResult& r) {
    std::vector<Dependence> out;
    if (!r.readings) return out;
    Dependence verdict{"Verdict", toString(r.observation), {}};
    for (const ReadingResult& v : *r.readings)
        if (v.observation != r.observation)
            verdict.otherwise.emplace_back(&v, toString(v.observation));
    out.push_back(std::move(verdict));
    std::vector<std::string> names = flagNames(r.flags);
    const std::vector<std::string> raised = names;
    for (const ReadingResult& v : *r.readings)
        names.insert(names.end(), v.flags.begin(), v.flags.end());
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    auto has = [](const std::vector<std::string>& flags, const std::string& f) {
        return std::find(flags.begin(), flags.end(), f) != flags.end();
    };
    for (const std::string& f : names) {
        const bool byDefault = has(raised, f);
        Dependence d{"Flag " + f, byDefault ? "raised" : "not raised", {}};
        for (const ReadingResult& v : *r.readings)
            if (has(v.flags, f) != byDefault)
                d.otherwise.emplace_back(&v, byDefault ? "not raised" : "raised");
        out.push_back(std::move(d));
    }
    return out;
}

std::string dependenceLine(const Dependence& d) {
    if (d.otherwise.empty())
        return d.subject + " robust: " + d.underDefault + " under every reading";
    std::string line =
        d.subject + " reading-dependent: " + d.underDefault + " under the default reading";
    // Readings with the same value are listed together, in the order of the readings.
    std::vector<std::string> values;
    for (const auto& [v, value] : d.otherwise)
        if (std::find(values.begin(), values.end(), value) == values.end()) values.push_back(value);
    for (const std::string& value : values) {
        line += "; " + value + " under ";
        bool first = true;
        for (const auto& [v, own] : d.otherwise) {
            if (own != value) continue;
            line += (first ? "" : ", ") + readingText(*v);
            first = false;
        }
    }
    return line;
}

std::string readingText(const ReadingResult& v) {
    std::string decisions;
    for (const std::string& q : v.decisions)
        decisions += (decisions.empty() ? "" : ", ") + q;
    return v.reading.modelFile() + (decisions.empty() ? "" : " (" + decisions + ")");
}

std::string flagChanges(const std::vector<std::string>& byDefault, const ReadingResult& v) {
    std::vector<std::string> raised, cleared;
    std::set_difference(v.flags.begin(), v.flags.end(), byDefault.begin(), byDefault.end(),
                        std::back_inserter(raised));
    std::set_difference(byDefault.begin(), byDefault.end(), v.flags.begin(), v.flags.end(),
                        std::back_inserter(cleared));
    auto joined = [](const std::vector<std::string>& names) {
        std::string out;
        for (const std::string& n : names)
            out += (out.empty() ? "" : ", ") + n;
        return out;
    };
    std::string out = raised.empty() ? "" : joined(raised) + " raised";
    if (!cleared.empty()) out += (out.empty() ? "" : "; ") + joined(cleared) + " not raised";
    return out;
}

} // namespace ptxmc::report
