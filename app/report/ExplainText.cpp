// Rendering explanations: the compact story first, the whole execution when asked.
#include "report/ExplainText.hpp"

#include "ptx/FixDiff.hpp"
#include "report/AnswerText.hpp"
#include "report/WitnessText.hpp"

#include <map>
#include <sstream>

namespace ptxmc::report {

namespace {

using engine::explain::Explanation;
using engine::explain::RemedySearch;

const char* kindName(Explanation::Kind k) {
    switch (k) {
    case Explanation::Kind::Allowed:
        return "Allowed";
    case Explanation::Kind::Forbidden:
        return "Forbidden";
    case Explanation::Kind::Deadlock:
        return "Deadlock";
    case Explanation::Kind::NotRaised:
        return "NotRaised";
    case Explanation::Kind::Unknown:
        return "Unknown";
    }
    return "Unknown";
}

/** An axiom's comment up to its first sentence's end: its name, section and rule. */
std::string firstSentence(const std::string& doc) {
    const std::size_t end = doc.find(". ");
    return end == std::string::npos ? doc : doc.substr(0, end + 1);
}

struct Highlighted {
    std::string from, relation, to;
};

/** The witness's highlighted edges, their events in words. */
std::vector<Highlighted> highlightedSteps(const WitnessGraph& g) {
    std::map<int, const WitnessNode*> byId;
    for (const auto& n : g.nodes)
        byId[n.id] = &n;
    auto text = [&](int id) {
        auto it = byId.find(id);
        return it == byId.end() ? "e" + std::to_string(id) : it->second->description;
    };
    std::vector<Highlighted> out;
    for (const auto& e : g.edges)
        if (e.highlight) out.push_back({text(e.from), e.relation, text(e.to)});
    return out;
}

/** The steps one per line: the first event, then "--relation--> next event", a cycle closing
 *  with "back to" its first event's place ("itself" for a one-step cycle: the event related to
 *  itself, e.g. finishing before it starts in real time). */
std::string stepsText(const Explanation::Violation& v) {
    if (v.steps.empty()) return "";
    std::string out = "    " + v.steps.front().event + "\n";
    const std::string& first = v.steps.front().event;
    for (std::size_t i = 0; i < v.steps.size(); ++i) {
        const auto& s = v.steps[i];
        if (s.relation.empty()) continue;
        out += "      --" + s.relation + "--> ";
        out += i + 1 < v.steps.size() ? v.steps[i + 1].event
               : i == 0               ? std::string("itself")
                                      : "back to " + first.substr(0, first.find(": "));
        out += "\n";
    }
    return out;
}

std::string remediesText(const RemedySearch& r, const ExplainReport& rep) {
    std::ostringstream out;
    const std::string verb = rep.flag.empty() ? "forbid it" : "remove it";
    if (rep.flag.empty())
        out << "\nWhy it is allowed: no rule of the model orders what this outcome needs "
               "ordered.\n";
    else
        out << "\nWhat would remove flag " << rep.flag << ":\n";
    if (!r.skipped.empty()) {
        out << "(No search for a change that would " << verb << ": " << r.skipped << ".)\n";
        return out.str();
    }
    const std::string tally =
        std::to_string(r.tried) + " checks of " + std::to_string(r.candidates) + " changes" +
        (r.rejected ? ", " + std::to_string(r.rejected) +
                          " fixes dropped because the changed test hangs or raises a new flag"
                    : "");
    if (r.found.empty()) {
        out << "No added fence or wait, no load or wait made .acquire, no store or arrive made "
               ".release and no scope widened would "
            << verb << ", alone, repeated at every place, or all together (" << tally << ").\n";
        return out.str();
    }
    out << (r.combined ? "No single or repeated change would " + verb +
                             "; this minimal combination would ("
                       : "These changes would " + verb + ", fewest instructions first (")
        << tally << "):\n";
    for (std::size_t i = 0; i < r.found.size(); ++i) {
        const auto& fix = r.found[i];
        std::string axioms;
        for (const auto& a : fix.axioms)
            axioms += (axioms.empty() ? "" : ", ") + a;
        out << "  " << i + 1 << ". " << fix.change << " (" << fix.instructions
            << (fix.instructions == 1 ? " instruction" : " instructions")
            << (fix.minimal ? "" : "; the budget ran out before each change was tried without")
            << ")\n"
            << "     then: " << fix.after << (axioms.empty() ? "" : "; " + axioms + " forbids it")
            << "\n";
        if (i < kDiffsShown && rep.test && !rep.source.empty())
            out << ptx::fixDiff(*rep.test, rep.source, fix.changes) << "\n";
    }
    return out.str();
}

std::string allowedText(const Explanation& ex, const ExplainReport& r, bool verbose) {
    std::ostringstream out;
    out << "Allowed: " << ex.target << "\n";
    if (verbose) {
        out << toText(ex.witness);
        return out.str();
    }
    out << ex.witness.title << "\n";
    const std::vector<Highlighted> steps = highlightedSteps(ex.witness);
    if (!steps.empty())
        out << (r.flag.empty() ? "The reads that make it:\n" : "The events that raise it:\n");
    for (const auto& s : steps)
        out << "    " << s.from << "\n      --" << s.relation << "--> " << s.to << "\n";
    for (const auto& note : ex.witness.notes)
        out << "  " << note << "\n";
    out << "(every event and edge of this execution: --verbose; a drawing: --format svg)\n";
    return out.str();
}

std::string forbiddenText(const Explanation& ex, bool verbose) {
    std::ostringstream out;
    out << "Forbidden: " << ex.target << "\n";
    if (ex.violations.empty())
        out << "No execution of this program ends in this state, whatever the model: no "
               "instruction produces these values (or the outcome contradicts itself).\n";
    else if (ex.noExecution)
        out << "The model allows no execution of this program at all (States 0): every "
               "candidate execution violates one of these axioms, and some violates only it:\n";
    else
        out << "A minimal set of axioms that forbids it (removing any one allows it), each with "
               "what breaks it in the closest execution without it:\n";
    for (const auto& v : ex.violations) {
        out << "\n"
            << v.axiom << " (" << v.where << ")\n  " << (verbose ? v.doc : firstSentence(v.doc))
            << "\n";
        if (v.steps.empty())
            out << "  breaks on: " << v.evidence << "\n";
        else
            out << "  " << (v.cycle ? "the cycle it forbids:" : "the pair it forbids:") << "\n"
                << stepsText(v);
        if (!verbose) continue;
        out << "  breaks on: " << v.evidence << "\n";
        std::istringstream lines(toText(v.closest));
        for (std::string line; std::getline(lines, line);)
            out << "  " << line << "\n";
    }
    if (!verbose && !ex.violations.empty())
        out << "\n(the rules in full and every event and edge: --verbose)\n";
    return out.str();
}

} // namespace

std::string explanationText(const ExplainReport& r, bool verbose) {
    const Explanation& ex = r.explanation;
    std::string out;
    switch (ex.kind) {
    case Explanation::Kind::Allowed:
        out = allowedText(ex, r, verbose);
        break;
    case Explanation::Kind::Forbidden:
        out = forbiddenText(ex, verbose);
        break;
    case Explanation::Kind::Deadlock:
        out = "Deadlock: no execution lets every spinning wait succeed.\n";
        for (const auto& b : ex.blocked)
            out += "  blocked: " + blockedText(b) + "\n";
        break;
    case Explanation::Kind::Unknown:
        out = "Unknown: " + ex.unknownReason.text + "\n";
        break;
    case Explanation::Kind::NotRaised:
        out = "Not raised: no execution raises " + ex.target + ".\n";
        break;
    }
    if (r.fixes) out += remediesText(*r.fixes, r);
    if (!r.readings.empty()) {
        out += "\nReadings of the open questions of the PTX text (model/variants):\n";
        for (const auto& line : r.readings)
            out += "  " + line + "\n";
    }
    return out;
}

nlohmann::ordered_json explanationJson(const ExplainReport& r) {
    using nlohmann::ordered_json;
    const Explanation& ex = r.explanation;
    ordered_json j;
    j["file"] = r.file;
    j["kind"] = kindName(ex.kind);
    j["target"] = ex.target;
    if (!r.flag.empty()) j["flag"] = r.flag;
    if (ex.kind == Explanation::Kind::Allowed) {
        ordered_json steps = ordered_json::array();
        for (const auto& s : highlightedSteps(ex.witness))
            steps.push_back({{"from", s.from}, {"relation", s.relation}, {"to", s.to}});
        j["witness"] = {{"title", ex.witness.title},
                        {"meaning", ex.witness.highlightMeaning},
                        {"steps", steps},
                        {"notes", ex.witness.notes}};
    }
    ordered_json violations = ordered_json::array();
    for (const auto& v : ex.violations) {
        ordered_json steps = ordered_json::array();
        for (const auto& s : v.steps)
            steps.push_back({{"event", s.event}, {"relation", s.relation}});
        violations.push_back({{"axiom", v.axiom},
                              {"where", v.where},
                              {"doc", v.doc},
                              {"cycle", v.cycle},
                              {"steps", steps}});
    }
    j["violations"] = violations;
    j["no_execution"] = ex.noExecution;
    j["blocked"] = blockedTexts(ex.blocked);
    if (!ex.unknownReason.text.empty()) j["reason"] = ex.unknownReason.text;
    if (r.fixes) {
        ordered_json found = ordered_json::array();
        for (const auto& f : r.fixes->found)
            found.push_back(
                {{"change", f.change},
                 {"instructions", f.instructions},
                 {"minimal", f.minimal},
                 {"then", f.after},
                 {"axioms", f.axioms},
                 {"diff",
                  r.test && !r.source.empty() ? ptx::fixDiff(*r.test, r.source, f.changes) : ""}});
        j["fixes"] = {{"checks", r.fixes->tried},      {"candidates", r.fixes->candidates},
                      {"combined", r.fixes->combined}, {"skipped", r.fixes->skipped},
                      {"rejected", r.fixes->rejected}, {"found", found}};
    }
    j["readings"] = r.readings;
    return j;
}

} // namespace ptxmc::report
