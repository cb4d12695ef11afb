// Answers in expected.txt's words, and the text that says how a result missed its expectation.
#include "report/Answer.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

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

} // namespace ptxmc::report
