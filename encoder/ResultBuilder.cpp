// Final states to Observation / Ok / Positive-Negative, identically for both engines.
#include "ResultBuilder.hpp"

#include "lower/Lowerer.hpp"

#include <algorithm>
#include <map>

namespace ptxmc::engine {

using report::Observation;

namespace {

std::string quantifierText(litmus::Condition::Quantifier q) {
    switch (q) {
    case litmus::Condition::Quantifier::Exists:
        return "exists";
    case litmus::Condition::Quantifier::NotExists:
        return "~exists";
    case litmus::Condition::Quantifier::Forall:
        return "forall";
    }
    return "exists";
}

} // namespace

report::CheckResult resultSkeleton(const ir::Program& p) {
    report::CheckResult r;
    r.testName = p.name;
    r.file = p.file;
    r.quantifier = quantifierText(p.quantifier);
    r.conditionText = p.conditionText;
    for (const auto& o : p.observed)
        r.observed.push_back(o.name);
    return r;
}

void setStates(report::CheckResult& r, const ir::Program& p,
               const std::set<std::vector<std::int64_t>>& states) {
    r.states.clear();
    for (const auto& values : states) {
        report::FinalState s;
        s.values = values;
        std::map<std::string, std::int64_t> named;
        for (std::size_t i = 0; i < values.size(); ++i)
            named[p.observed[i].name] = values[i];
        s.satisfies = lower::evaluateProp(*p.prop, named);
        r.states.push_back(s);
    }
    r.positive = static_cast<std::size_t>(
        std::count_if(r.states.begin(), r.states.end(), [](const auto& s) { return s.satisfies; }));
    r.negative = r.states.size() - r.positive;
    r.observation = r.positive == 0   ? Observation::Never
                    : r.negative == 0 ? Observation::Always
                                      : Observation::Sometimes;
    switch (p.quantifier) {
    case litmus::Condition::Quantifier::Exists:
        r.ok = r.positive > 0;
        break;
    case litmus::Condition::Quantifier::NotExists:
        r.ok = r.positive == 0;
        break;
    case litmus::Condition::Quantifier::Forall:
        r.ok = r.negative == 0;
        break;
    }
}

} // namespace ptxmc::engine
