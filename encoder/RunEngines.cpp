// Engine selection, and the cross-check that makes the two engines keep each other honest.
#include "Checker.hpp"
#include "Enumerator.hpp"

#include <sstream>

namespace ptxmc {

namespace {

std::string describe(const report::CheckResult& r) {
    std::ostringstream out;
    out << report::toString(r.observation) << " states {";
    for (const auto& s : r.states) {
        out << " [";
        for (std::size_t i = 0; i < s.values.size(); ++i)
            out << (i ? " " : "") << r.observed[i] << "=" << s.values[i];
        out << "]";
    }
    out << " } flags {";
    for (const auto& f : r.flags)
        out << " " << f.name;
    out << " }";
    if (!r.unknownReason.empty()) out << " (" << r.unknownReason << ")";
    return out.str();
}

bool sameAnswer(const report::CheckResult& a, const report::CheckResult& b) {
    if (a.observation != b.observation || a.states.size() != b.states.size()) return false;
    for (std::size_t i = 0; i < a.states.size(); ++i)
        if (a.states[i].values != b.states[i].values) return false;
    if (a.flags.size() != b.flags.size()) return false;
    for (std::size_t i = 0; i < a.flags.size(); ++i)
        if (a.flags[i].name != b.flags[i].name) return false;
    return true;
}

} // namespace

report::CheckResult runEngines(const litmus::Test& test, const cat::ResolvedModel& model,
                               const CheckOptions& options) {
    if (options.engine == Engine::Z3) return checkTest(test, model, options);
    if (options.engine == Engine::Enumerate) return enumerateTest(test, model, options);
    report::CheckResult z3 = checkTest(test, model, options);
    report::CheckResult ex = enumerateTest(test, model, options);
    if (z3.observation == report::Observation::Unknown || sameAnswer(z3, ex)) {
        z3.seconds += ex.seconds;
        return z3;
    }
    report::CheckResult r = z3;
    r.observation = report::Observation::Unknown;
    r.unknownReason = "ENGINES DISAGREE: z3: " + describe(z3) + "; enumerate: " + describe(ex);
    r.seconds += ex.seconds;
    return r;
}

} // namespace ptxmc
