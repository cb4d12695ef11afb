// JSON output: the same content as a herd block, with counts unswapped and nothing abbreviated.
#include "report/JsonPrinter.hpp"

#include "report/Answer.hpp"
#include "report/AnswerText.hpp"
#include "report/CiReports.hpp"
#include "report/StatsPrinter.hpp"

namespace ptxmc::report {

using nlohmann::ordered_json;

namespace {

ordered_json stateJson(const CheckResult& r, const FinalState& s) {
    ordered_json values = ordered_json::object();
    for (std::size_t i = 0; i < r.observed.size() && i < s.values.size(); ++i)
        values[r.observed[i]] = s.values[i];
    return ordered_json{{"values", std::move(values)}, {"satisfies", s.satisfies}};
}

ordered_json expectationJson(const CheckResult& r) {
    const ExpectationCheck& e = r.expectation;
    if (!e.governed) return nullptr;
    ordered_json j;
    // A governed test without a line has no expected answer: nulls, and it never matches.
    auto ifPresent = [&](ordered_json value) { return e.present ? value : ordered_json(nullptr); };
    j["expected"] = ifPresent(toString(e.expected));
    j["flags"] = ifPresent(e.expectedFlags);
    j["states"] = ifPresent(e.expectedStates);
    j["reason"] = ifPresent(e.reason);
    j["matches"] = e.present && e.matches;
    std::string mismatch = mismatchText(r);
    j["mismatch"] = mismatch.empty() ? ordered_json(nullptr) : ordered_json(mismatch);
    j["file"] = e.file;
    return j;
}

} // namespace

ordered_json JsonPrinter::toJson(const CheckResult& r) const {
    ordered_json j;
    j["name"] = r.testName;
    j["file"] = r.file;
    j["quantifier"] = ir::quantifierText(r.quantifier);
    j["condition"] = r.conditionText;
    j["observed"] = r.observed;
    ordered_json states = ordered_json::array();
    for (const FinalState& s : r.states)
        states.push_back(stateJson(r, s));
    j["states"] = std::move(states);
    j["ok"] = r.ok;
    j["positive"] = r.positive;
    j["negative"] = r.negative;
    j["observation"] = toString(r.observation);
    ordered_json flags = ordered_json::array();
    for (const RaisedFlag& f : r.flags) {
        // Each witness: the events that together raise the flag, with where they are.
        ordered_json witnesses = ordered_json::array();
        for (const FlagWitness& w : f.witnesses) {
            ordered_json events = ordered_json::array();
            for (const EventRef& e : w)
                events.push_back(eventJson(e));
            witnesses.push_back(std::move(events));
        }
        flags.push_back(
            ordered_json{{"name", f.name}, {"doc", f.doc}, {"witnesses", std::move(witnesses)}});
    }
    j["flags"] = std::move(flags);
    j["deadlocked_waits"] = blockedTexts(r.deadlockedWaits);
    j["unknown_reason"] = r.unknownReason.text;
    if (!r.hash.empty()) j["hash"] = r.hash;
    if (r.readings) {
        ordered_json differs = ordered_json::array();
        for (const ReadingResult& v : *r.readings)
            differs.push_back(ordered_json{{"model", v.reading.modelFile()},
                                           {"observation", toString(v.observation)},
                                           {"flags", v.flags},
                                           {"states", v.states},
                                           {"decisions", v.decisions}});
        // Per verdict and flag: the same under every reading, or which readings change it.
        ordered_json dependence = ordered_json::array();
        for (const Dependence& d : dependencesOf(r)) {
            ordered_json under = ordered_json::array();
            for (const auto& [v, value] : d.otherwise)
                under.push_back(ordered_json{{"model", v->reading.modelFile()}, {"value", value}});
            dependence.push_back(ordered_json{{"subject", d.subject},
                                              {"robust", d.otherwise.empty()},
                                              {"default", d.underDefault},
                                              {"otherwise", under}});
        }
        j["readings"] = ordered_json{
            {"robust", r.readings->empty()}, {"differs", differs}, {"dependence", dependence}};
    }
    if (r.forbiddenBy) j["no_execution_forbidden_by"] = *r.forbiddenBy;
    j["bound_reached"] = eventTexts(r.boundReached);
    if (options_.showTime) j["time"] = r.seconds;
    if (r.stats) j["stats"] = statsJson(*r.stats, options_.showTime);
    j["expectation"] = expectationJson(r);
    return j;
}

} // namespace ptxmc::report
