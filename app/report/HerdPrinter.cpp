// herd7-compatible text output: tools that read herd logs (mcompare and friends) read ours.
#include "report/HerdPrinter.hpp"

#include "report/Answer.hpp"
#include "report/AnswerText.hpp"
#include "report/StatsPrinter.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <ostream>
#include <sstream>

namespace ptxmc::report {

const char* herdKind(ir::Quantifier q) {
    switch (q) {
    case ir::Quantifier::Exists:
        return "Allowed";
    case ir::Quantifier::NotExists:
        return "Forbidden";
    case ir::Quantifier::Forall:
        return "Required";
    }
    return "Allowed";
}

std::string expectationLine(const CheckResult& r) {
    const ExpectationCheck& e = r.expectation;
    if (!e.governed) return "";
    if (!e.present) return fmt::format("Expected: MISSING (no line in {})", e.file);
    if (e.matches) return fmt::format("Expected {}: ok", expectedAnswer(e));
    return fmt::format("Expected: MISMATCH: {} (reason: {})", mismatchText(r), e.reason);
}

namespace {

// herd's state line: `P1:r0=0; x=1;`
std::string stateLine(const CheckResult& r, const FinalState& s) {
    std::string line;
    // A short values vector would be an engine bug; print what there is rather than crash.
    std::size_t n = std::min(r.observed.size(), s.values.size());
    for (std::size_t i = 0; i < n; ++i) {
        if (i > 0) line += ' ';
        line += fmt::format("{}={};", r.observed[i], s.values[i]);
    }
    return line;
}

/** Why the model allows no execution (CheckResult::forbiddenBy). */
std::string forbiddenText(const std::vector<std::string>& axioms) {
    if (axioms.empty())
        return "the model's axioms together forbid every candidate execution (no one of them "
               "alone)";
    std::string names;
    for (std::size_t i = 0; i < axioms.size(); ++i)
        names += (i ? ", " : "") + axioms[i];
    return "every candidate execution violates " +
           std::string(axioms.size() == 1 ? "axiom " : "one of the axioms ") + names;
}

void printBody(std::ostream& out, const CheckResult& r) {
    switch (r.observation) {
    case Observation::Deadlock:
        // No execution completes, so there are no final states to count or witness.
        out << "States 0\nDeadlock\n";
        for (const BlockedWait& w : r.deadlockedWaits)
            out << "Blocked: " << blockedText(w) << '\n';
        return;
    case Observation::Unknown:
        // Whatever states the solver found before giving up are not the full set: print none,
        // except those of the executions within the unroll bound, which are all there.
        out << "Unknown: " << r.unknownReason.text << '\n';
        if (r.boundReached.empty()) return;
        out << "States " << r.states.size() << " (within the unroll bound)\n";
        for (const FinalState& s : r.states)
            out << stateLine(r, s) << '\n';
        return;
    default:
        break;
    }
    out << "States " << r.states.size() << '\n';
    for (const FinalState& s : r.states)
        out << stateLine(r, s) << '\n';
    if (r.forbiddenBy) out << "No execution: " << forbiddenText(*r.forbiddenBy) << '\n';
    out << (r.ok ? "Ok" : "No") << '\n';
    out << "Witnesses\n";
    // herd counts witnesses of the whole condition, so ~exists swaps them.
    bool swap = r.quantifier == ir::Quantifier::NotExists;
    out << "Positive: " << (swap ? r.negative : r.positive)
        << " Negative: " << (swap ? r.positive : r.negative) << '\n';
}

} // namespace

void HerdPrinter::print(std::ostream& out, const CheckResult& r) const {
    out << "Test " << r.testName << ' ' << herdKind(r.quantifier) << '\n';
    printBody(out, r);
    // herd's `Flag NAME` line, then what raises it: "  by P1: <instruction> (file:line:col)".
    for (const RaisedFlag& f : r.flags) {
        out << "Flag " << f.name << '\n';
        for (const FlagWitness& w : f.witnesses)
            out << "  by " << witnessText(w) << '\n';
    }
    for (const EventRef& b : r.boundReached)
        out << "Bound reached: " << toString(b) << '\n';
    out << "Condition " << ir::quantifierText(r.quantifier) << ' ' << r.conditionText << '\n';
    bool counted = r.observation != Observation::Deadlock && r.observation != Observation::Unknown;
    out << "Observation " << r.testName << ' ' << toString(r.observation) << ' '
        << (counted ? r.positive : 0) << ' ' << (counted ? r.negative : 0) << '\n';
    if (r.readings) {
        if (r.readings->empty())
            out << "Readings robust: the same answer under every variant of model/variants\n";
        for (const ReadingResult& v : *r.readings) {
            std::string flags;
            for (const auto& f : v.flags)
                flags += (flags.empty() ? "" : ",") + f;
            out << "Reading-dependent: under " << v.reading.modelFile() << ": "
                << toString(v.observation) << " flags=" << (flags.empty() ? "none" : flags)
                << " states=" << v.states
                << (v.states == r.states.size() && v.observation == r.observation &&
                            v.flags == flagNames(r.flags)
                        ? " (other final states)"
                        : "")
                << '\n';
        }
        if (!r.readings->empty())
            for (const Dependence& d : dependencesOf(r))
                out << dependenceLine(d) << '\n';
    }
    if (options_.showTime) out << fmt::format("Time {} {:.2f}\n", r.testName, r.seconds);
    if (!r.hash.empty()) out << "Hash=" << r.hash << '\n';
    if (r.stats) printStats(out, r.testName, *r.stats, options_.showTime);
    std::string expected = expectationLine(r);
    if (!expected.empty()) out << expected << '\n';
    out << '\n';
}

std::string HerdPrinter::format(const CheckResult& r) const {
    std::ostringstream out;
    print(out, r);
    return out.str();
}

} // namespace ptxmc::report
