// Classification and the three report formats of `ptxmc compare`.
#include "hw/Compare.hpp"

#include "engine/Flags.hpp"
#include "support/Json.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace ptxmc::validate {

const char* toString(Verdict v) {
    switch (v) {
    case Verdict::Unsound:
        return "unsound";
    case Verdict::Undefined:
        return "undefined";
    case Verdict::Confirmed:
        return "confirmed";
    case Verdict::Inconclusive:
        return "inconclusive";
    case Verdict::Seen:
        return "seen";
    case Verdict::Unseen:
        return "unseen";
    case Verdict::Deadlock:
        return "deadlock";
    case Verdict::Refused:
        return "refused";
    case Verdict::Error:
        return "error";
    }
    return "error";
}

namespace {

/** The condition's target: states that satisfy it, except for forall (states that break it). */
bool weak(ir::Quantifier quantifier, bool satisfies) {
    return quantifier == ir::Quantifier::Forall ? !satisfies : satisfies;
}

std::string stateText(const std::vector<std::string>& names, const std::vector<std::int64_t>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size() && i < names.size(); ++i)
        s += names[i] + "=" + std::to_string(v[i]) + "; ";
    if (!s.empty()) s.pop_back();
    return s;
}

std::string sci(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2g", v);
    return buf;
}

/** The weak outcomes a mutant (or any allowed test) produced on the device. */
std::uint64_t weakCount(const HwTest& t, const engine::CheckResult& r) {
    std::uint64_t n = 0;
    for (const HwOutcome& o : t.outcomes) {
        auto s = std::find_if(r.states.begin(), r.states.end(),
                              [&](const engine::FinalState& f) { return f.values == o.values; });
        if (s != r.states.end() && weak(r.quantifier, s->satisfies)) n += o.count;
    }
    return n;
}

Comparison classifyOne(const HwTest& t, const ModelAnswer& m) {
    Comparison c;
    c.hw = &t;
    if (t.status == "refused") {
        c.verdict = Verdict::Refused;
        c.note = t.message;
        return c;
    }
    if (t.status != "ok") {
        c.verdict = Verdict::Error;
        c.note = "runner: " + t.message;
        return c;
    }
    if (!m.result) {
        c.verdict = Verdict::Error;
        c.note = "model: " + m.error;
        return c;
    }
    const engine::CheckResult& r = *m.result;
    c.modelObservation = engine::toString(r.observation);
    if (r.observation == engine::Observation::Unknown) {
        c.verdict = Verdict::Error;
        c.note = "model: Unknown (" + r.unknownReason.text + ")";
        return c;
    }
    if (r.observed != t.observed) {
        c.verdict = Verdict::Error;
        c.note = "the runner observed other references than the model: regenerate the kernels";
        return c;
    }
    bool modelWeak = false;
    std::set<std::vector<std::int64_t>> seen;
    for (const HwOutcome& o : t.outcomes) {
        c.completed += o.count;
        seen.insert(o.values);
        auto s = std::find_if(r.states.begin(), r.states.end(),
                              [&](const engine::FinalState& f) { return f.values == o.values; });
        if (s == r.states.end()) {
            c.unsound.push_back({o.values, o.count});
            if (weak(r.quantifier, o.satisfies)) c.weakSeen += o.count;
        } else if (weak(r.quantifier, s->satisfies)) {
            c.weakSeen += o.count;
        }
    }
    for (const engine::FinalState& f : r.states) {
        modelWeak = modelWeak || weak(r.quantifier, f.satisfies);
        ++c.allowed;
        if (seen.count(f.values))
            ++c.allowedSeen;
        else
            c.unseen.push_back(f.values);
    }
    c.bound = c.completed ? -std::log(0.05) / static_cast<double>(c.completed) : 1.0;
    if (t.stuck)
        c.note = std::to_string(t.stuck) +
                 " instances stuck (a blocking wait or a loop ran past the deadline, or an "
                 "indexed address named no element)";
    // Executions the model flags (every flag but hang) have undefined behaviour: the PTX text
    // promises nothing about what they compute, so an outcome outside the model's states, or
    // the end of a run the model says never ends, may come from one of them (litmus/README.md,
    // "Program errors").
    std::string undefined;
    for (const auto& f : r.flags)
        if (f.name != engine::kHangFlag) undefined += (undefined.empty() ? "" : ", ") + f.name;
    if (r.observation == engine::Observation::Deadlock) {
        c.verdict = !c.completed        ? Verdict::Deadlock
                    : undefined.empty() ? Verdict::Unsound
                                        : Verdict::Undefined;
        if (c.completed)
            c.note = undefined.empty()
                         ? "the model says no execution completes, but some did"
                         : "the model says no execution completes, but some did; it flags "
                           "undefined behaviour (" +
                               undefined + "): no guarantee applies";
        return c;
    }
    if (!c.unsound.empty()) {
        c.verdict = undefined.empty() ? Verdict::Unsound : Verdict::Undefined;
        if (!undefined.empty())
            c.note = "forbidden states seen, but the model flags undefined behaviour (" +
                     undefined + "): no guarantee applies";
        return c;
    }
    if (modelWeak) {
        c.verdict = c.weakSeen ? Verdict::Seen : Verdict::Unseen;
        return c;
    }
    c.verdict = Verdict::Inconclusive; // until a killed mutant says the harness can see it
    return c;
}

void addNote(Comparison& c, const std::string& note) {
    c.note = c.note.empty() ? note : note + "; " + c.note;
}

} // namespace

namespace {

/** Why an inconclusive test has no mutant in the run, from the mutants file when given. */
void noMutantRan(Comparison& c, const MutantList* mutants) {
    const std::string file = std::filesystem::path(c.hw->file).lexically_normal().generic_string();
    if (mutants == nullptr) {
        c.unseenWhy = "no mutant ran";
        addNote(c, "no mutant ran: nothing shows the harness could see it");
    } else if (auto none = mutants->none.find(file); none != mutants->none.end()) {
        c.unseenWhy = "no mutant";
        addNote(c, "no mutant of it: " + none->second);
    } else if (mutants->mutations.count(file) > 0) {
        c.unseenWhy = "mutant not run";
        addNote(c, "its mutant (" + ptx::toString(mutants->mutations.find(file)->second) +
                       ") is not in this run: not generated, or refused");
    } else {
        c.unseenWhy = "no mutant derived";
        addNote(c, "the mutants file has no line for it (derived before the test or the model "
                   "changed)");
    }
}

/** Why a mutant in the run did not confirm its original. */
void mutantNeverWeak(Comparison& c, const Comparison& mutant) {
    auto why = [&](const char* kind, const std::string& note) {
        c.unseenWhy = kind;
        addNote(c, note);
    };
    switch (mutant.verdict) {
    case Verdict::Refused:
        return why("mutant refused", "its mutant " + c.mutant + " was not run: " + mutant.note);
    case Verdict::Error:
        return why("mutant error", "its mutant " + c.mutant + " gave no answer: " + mutant.note);
    case Verdict::Inconclusive:
    case Verdict::Confirmed:
        return why("mutant forbidden too",
                   "the model forbids its mutant " + c.mutant + "'s weak outcome as well");
    case Verdict::Undefined:
        return why("mutant undefined", "its mutant " + c.mutant +
                                           " showed its weak outcome, but the model flags "
                                           "undefined behaviour there");
    case Verdict::Deadlock:
        return why("mutant never completed",
                   "no instance of its mutant " + c.mutant + " completed its waits");
    default:
        break;
    }
    if (mutant.completed == 0)
        return why("mutant never completed",
                   "no instance of its mutant " + c.mutant + " completed its waits");
    std::ostringstream os;
    os << "its mutant " << c.mutant << " never showed its weak outcome either (" << mutant.completed
       << " instances, rate < " << sci(mutant.bound) << ")";
    why("mutant never weak", os.str());
}

} // namespace

std::vector<Comparison> classify(const HwRun& run, const std::vector<ModelAnswer>& model,
                                 const MutantList* mutants) {
    std::vector<Comparison> rows;
    for (std::size_t i = 0; i < run.tests.size(); ++i)
        rows.push_back(classifyOne(run.tests[i], model.at(i)));
    // A forbidden test is confirmed only when one of its mutants showed the weak outcome.
    for (Comparison& c : rows) {
        if (c.verdict != Verdict::Inconclusive) continue;
        const Comparison* last = nullptr;
        for (std::size_t i = 0; i < run.tests.size(); ++i) {
            const HwTest& t = run.tests[i];
            if (t.mutantOf != c.hw->name) continue;
            c.mutant = t.name;
            last = &rows[i];
            const Comparison& mc = rows[i];
            if ((mc.verdict == Verdict::Seen || mc.verdict == Verdict::Unsound) &&
                model[i].result && weakCount(t, *model[i].result) > 0) {
                c.verdict = Verdict::Confirmed;
                addNote(c, "mutant " + t.name + " showed its weak outcome " +
                               std::to_string(mc.weakSeen) + " times");
                break;
            }
        }
        if (c.verdict != Verdict::Inconclusive) continue;
        if (last == nullptr)
            noMutantRan(c, mutants);
        else
            mutantNeverWeak(c, *last);
    }
    return rows;
}

std::string textReport(const HwRun& run, const std::vector<Comparison>& rows) {
    std::ostringstream os;
    os << "Device " << run.device << " (" << run.driver << "), seed " << run.seed << ", "
       << run.path << "\n\n";
    for (const Comparison& c : rows) {
        const HwTest& t = *c.hw;
        os << t.name << ": " << toString(c.verdict);
        if (!c.modelObservation.empty())
            os << " (model " << c.modelObservation << "; " << c.weakSeen << " of " << c.completed
               << " instances weak; " << c.allowedSeen << "/" << c.allowed
               << " allowed states seen)";
        os << '\n';
        if (!c.note.empty()) os << "  " << c.note << '\n';
        for (const StateCount& s : c.unsound)
            os << "  UNSOUND " << stateText(t.observed, s.values) << "  x" << s.count << '\n';
        for (const auto& s : c.unseen)
            os << "  unseen " << stateText(t.observed, s) << "  (rate < " << sci(c.bound) << ")\n";
    }
    std::map<Verdict, int> n;
    for (const Comparison& c : rows)
        ++n[c.verdict];
    os << "\nptxmc compare: " << rows.size() << " tests";
    for (const auto& [v, k] : n)
        os << ", " << k << " " << toString(v);
    os << '\n';
    return os.str();
}

std::string markdownReport(const HwRun& run, const std::vector<Comparison>& rows) {
    std::ostringstream os;
    std::vector<double> rates;
    std::uint64_t total = 0;
    for (const Comparison& c : rows)
        if (c.hw->status == "ok" && c.hw->seconds > 0) {
            rates.push_back(static_cast<double>(c.hw->instances) / c.hw->seconds);
            total += c.hw->instances;
        }
    std::sort(rates.begin(), rates.end());
    std::map<Verdict, int> n;
    for (const Comparison& c : rows)
        ++n[c.verdict];
    os << "Device: " << run.device << "; " << run.driver << "; seed " << run.seed << "; "
       << rows.size() << " tests, " << total << " instances";
    if (!rates.empty())
        os << "; instances per second: median " << sci(rates[rates.size() / 2]) << ", max "
           << sci(rates.back());
    os << ".\n\nResults:";
    for (const auto& [v, k] : n)
        os << " " << k << " " << toString(v) << ";";
    std::map<std::string, int> why;
    for (const Comparison& c : rows)
        if (c.verdict == Verdict::Inconclusive) ++why[c.unseenWhy];
    if (!why.empty()) {
        os << "\n\nInconclusive, why:";
        for (const auto& [w, k] : why)
            os << " " << k << " " << w << ";";
    }
    os << "\n\n| test | model | instances | weak outcome seen | states seen / allowed | result |\n";
    os << "|---|---|---|---|---|---|\n";
    for (const Comparison& c : rows) {
        const HwTest& t = *c.hw;
        os << "| `" << t.name << "` | " << (c.modelObservation.empty() ? "-" : c.modelObservation)
           << " | " << (t.status == "ok" ? sci(static_cast<double>(t.instances)) : "-") << " | "
           << (t.status == "ok" ? std::to_string(c.weakSeen) : "-") << " | ";
        if (t.status == "ok" && !c.modelObservation.empty())
            os << c.allowedSeen << " / " << c.allowed;
        else
            os << "-";
        os << " | **" << toString(c.verdict) << "**";
        if (c.verdict == Verdict::Unseen) os << " (rate < " << sci(c.bound) << ")";
        if (c.verdict == Verdict::Undefined) os << " (" << c.note << ")";
        if (c.verdict == Verdict::Unsound)
            os << " (" << c.unsound.size() << " forbidden state"
               << (c.unsound.size() == 1 ? "" : "s") << ")";
        if (c.verdict == Verdict::Confirmed) os << " (mutant `" << c.mutant << "`)";
        if (c.verdict == Verdict::Inconclusive)
            os << " ("
               << (c.mutant.empty() ? c.unseenWhy : "mutant `" + c.mutant + "`, " + c.unseenWhy)
               << ")";
        if (c.verdict == Verdict::Refused || c.verdict == Verdict::Error) os << " " << c.note;
        os << " |\n";
    }
    return os.str();
}

std::string jsonReport(const HwRun& run, const std::vector<Comparison>& rows) {
    nlohmann::ordered_json j;
    j["device"] = run.device;
    j["driver"] = run.driver;
    j["seed"] = run.seed;
    j["results"] = run.path;
    j["tests"] = nlohmann::ordered_json::array();
    for (const Comparison& c : rows) {
        nlohmann::ordered_json t;
        t["name"] = c.hw->name;
        t["file"] = c.hw->file;
        t["verdict"] = toString(c.verdict);
        t["model"] = c.modelObservation;
        t["instances"] = c.hw->instances;
        t["completed"] = c.completed;
        t["weak_seen"] = c.weakSeen;
        t["allowed_states"] = c.allowed;
        t["allowed_seen"] = c.allowedSeen;
        t["rate_bound"] = c.bound;
        t["mutant"] = c.mutant;
        if (c.verdict == Verdict::Inconclusive) t["unseen_why"] = c.unseenWhy;
        t["note"] = c.note;
        nlohmann::ordered_json bad = nlohmann::ordered_json::array();
        for (const StateCount& s : c.unsound)
            bad.push_back({{"values", s.values}, {"count", s.count}});
        t["unsound"] = bad;
        t["unseen"] = c.unseen;
        j["tests"].push_back(t);
    }
    return dumpJson(j);
}

} // namespace ptxmc::validate
