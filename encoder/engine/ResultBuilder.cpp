// The answer from what a search found (states, flags, waits, cuts), identically for both engines.
#include "engine/ResultBuilder.hpp"

#include "ptx/Sections.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <iterator>
#include <map>
#include <set>

namespace ptxmc::engine {

using engine::Observation;

engine::CheckResult resultSkeleton(const ir::Program& p) {
    engine::CheckResult r;
    r.testName = p.name;
    r.file = p.file;
    r.quantifier = p.condition.quantifier;
    r.conditionText = p.conditionText;
    for (const auto& o : p.observed)
        r.observed.push_back(o.name);
    return r;
}

void setStopped(engine::CheckResult& r, const ir::Program& p, const UnknownReason& reason) {
    r = resultSkeleton(p);
    r.observation = engine::Observation::Unknown;
    r.unknownReason = reason;
}

void setStates(engine::CheckResult& r, const ir::Program& p,
               const std::set<std::vector<std::int64_t>>& states) {
    r.states.clear();
    for (const auto& values : states) {
        engine::FinalState s;
        s.values = values;
        s.satisfies = ir::holds(p.condition.prop, values);
        r.states.push_back(s);
    }
    r.positive = static_cast<std::size_t>(
        std::count_if(r.states.begin(), r.states.end(), [](const auto& s) { return s.satisfies; }));
    r.negative = r.states.size() - r.positive;
    r.observation = r.positive == 0   ? Observation::Never
                    : r.negative == 0 ? Observation::Always
                                      : Observation::Sometimes;
    r.ok = ir::conditionOk(p.condition.quantifier, r.positive, r.negative);
}

namespace {

/** Which run of its instruction `at` (an issue event) is, counted over the distinct runs of
 *  that instruction in its thread; -1 when it runs once. */
int iterationOf(const ir::Program& p, const ir::Event& at) {
    if (at.thread < 0 || at.instruction < 0) return -1;
    std::set<int> runs;
    for (int id : p.threads[static_cast<std::size_t>(at.thread)].events) {
        const ir::Event& e = p.events[static_cast<std::size_t>(id)];
        if (e.instruction == at.instruction) runs.insert(e.instance);
    }
    if (runs.size() < 2) return -1;
    return static_cast<int>(std::distance(runs.begin(), runs.find(at.instance)));
}

/** The nondet.pred choices a guard requires (its conjuncts that are one, or its negation). */
void chosenWays(const ir::Program& p, const ir::ValuePtr& g, std::vector<std::string>& out) {
    using ValueOp = ir::Value::Op;
    if (!g) return;
    if (g->op == ValueOp::LAnd) {
        chosenWays(p, g->args[0], out);
        chosenWays(p, g->args[1], out);
        return;
    }
    bool one = true;
    ir::ValuePtr x = g;
    while (x->op == ValueOp::Not) {
        one = !one;
        x = x->args[0];
    }
    if (x->op != ValueOp::Choice) return;
    const ir::ChoiceSite& c = p.choices.at(static_cast<std::size_t>(x->constant));
    out.push_back(fmt::format("{} ({}) is {}", c.text, c.loc.str(), one ? 1 : 0));
}

/** "where nondet.pred p (f.litmus:9:2) is 1": on which way of a choice the event runs. */
std::string wayNote(const ir::Program& p, const ir::Event& at) {
    std::vector<std::string> ways;
    chosenWays(p, at.guard, ways);
    std::string out;
    for (const std::string& w : ways)
        out += (out.empty() ? "where " : " and ") + w;
    return out;
}

} // namespace

EventRef eventRef(const ir::Program& p, int id, const std::string& note) {
    const ir::Event& e = p.events[static_cast<std::size_t>(id)];
    const ir::Event& at = e.issue >= 0 ? p.events[static_cast<std::size_t>(e.issue)] : e;
    int thread = at.thread >= 0 ? p.threads[static_cast<std::size_t>(at.thread)].id : -1;
    EventRef ref;
    ref.event = id;
    ref.thread = thread;
    ref.text = e.text;
    ref.loc = at.loc;
    ref.note = note.empty() ? wayNote(p, e.guard ? e : at) : note;
    if (e.mbOp != ir::MbOp::None && e.location >= 0)
        ref.barrier = p.locations[static_cast<std::size_t>(e.location)].name;
    if (e.mbOp == ir::MbOp::Wait && e.mbParity && e.mbParity->isConst())
        ref.parity = e.mbParity->constant;
    ref.iteration = iterationOf(p, at);
    return ref;
}

EventRef cutRef(const ir::Program& p, std::size_t i) {
    const ir::Cut& c = p.cuts.at(i);
    EventRef ref;
    ref.thread = p.threads[static_cast<std::size_t>(c.thread)].id;
    ref.text = c.text;
    ref.loc = c.loc;
    return ref;
}

void setBoundReached(engine::CheckResult& r, const ir::Program& p,
                     const std::set<std::size_t>& cuts) {
    r.boundReached.clear();
    for (std::size_t i : cuts) { // one per backward branch, however many paths reach it
        EventRef cut = cutRef(p, i);
        if (std::find(r.boundReached.begin(), r.boundReached.end(), cut) == r.boundReached.end())
            r.boundReached.push_back(std::move(cut));
    }
    if (r.boundReached.empty()) return;
    using engine::Observation;
    if (r.observation != Observation::Never && r.observation != Observation::Always &&
        r.observation != Observation::Deadlock)
        return;
    std::string claim = engine::toString(r.observation);
    r.observation = Observation::Unknown;
    r.ok = false;
    r.unknownReason = {UnknownKind::UnrollBound,
                       "unroll bound " + std::to_string(p.unroll) + " reached at " +
                           toString(r.boundReached.front()) +
                           ": executions that loop longer are not covered, so " + claim +
                           " is not a proof (rerun with a larger --unroll)"};
}

UnknownReason noExecutionWithinBound(const ir::Program& p) {
    return {UnknownKind::UnrollBound,
            "no execution finishes within the unroll bound " + std::to_string(p.unroll) +
                ": every one goes round a loop more often (a loop that never exits, or a bound "
                "too small: rerun with a larger --unroll)"};
}

namespace {

std::vector<FlagWitness> witnessesOf(const ir::Program& p, const std::set<std::vector<int>>& tuples,
                                     std::size_t most = kWitnessesShown) {
    std::vector<FlagWitness> out;
    for (const auto& tuple : tuples) {
        if (out.size() == most) break;
        FlagWitness w;
        for (int id : tuple)
            w.push_back(eventRef(p, id));
        out.push_back(std::move(w));
    }
    return out;
}

} // namespace

void setFlags(engine::CheckResult& r, const ir::Program& p, const cat::ResolvedModel& model,
              const FlagWitnesses& witnesses) {
    r.flags.clear();
    for (const auto& a : model.axioms) {
        auto it = witnesses.find(a.name);
        if (!a.flag || it == witnesses.end()) continue;
        r.flags.push_back({a.name, a.doc, witnessesOf(p, it->second)});
    }
    auto hang = witnesses.find(kHangFlag);
    if (hang != witnesses.end())
        r.flags.push_back({kHangFlag,
                           "a spinning wait can block forever: it waits for a phase that never "
                           "completes, or that completes and is overtaken before the wait sees "
                           "it (" +
                               ptx::cite(ptx::Sec::MbarrierTestWaitTryWait) +
                               "); the outcomes are those of the executions that finish",
                           witnessesOf(p, hang->second, hang->second.size())});
}

std::vector<BlockedWait> staticDeadlocks(const ir::Program& p) {
    std::vector<BlockedWait> out;
    for (const std::string& reason : p.staticDeadlocks)
        out.push_back({std::nullopt, reason});
    return out;
}

void setStaticDeadlock(engine::CheckResult& r, const ir::Program& p) {
    r.observation = Observation::Deadlock;
    r.deadlockedWaits = staticDeadlocks(p);
}

namespace {

/** "P0 line 12": where an event's instruction is, for a sentence. */
std::string placeOf(const ir::Program& p, const ir::Event& e) {
    const ir::Event& at = e.issue >= 0 ? p.events[static_cast<std::size_t>(e.issue)] : e;
    return "P" + std::to_string(p.threads[static_cast<std::size_t>(at.thread)].id) + " line " +
           std::to_string(at.loc.line);
}

/**
 * Why wait `w` never succeeds, in words, given the waits that block: nothing arrives on its
 * barrier, or every arrive comes after a blocked wait of its thread (which one), or the
 * arrives there are do not complete the phase it waits for.
 */
std::string whyBlocked(const ir::Program& p, int w, const std::vector<int>& blocked) {
    const ir::Event& wait = p.events[static_cast<std::size_t>(w)];
    if (wait.mbOp != ir::MbOp::Wait || wait.location < 0) return "";
    const std::string& barrier = p.locations[static_cast<std::size_t>(wait.location)].name;
    std::set<int> arriveLines;
    std::size_t arrives = 0, held = 0;
    std::map<int, std::set<int>> heldBy; // blocked wait -> lines of the arrives after it
    for (const ir::Event& e : p.events) {
        if (e.location != wait.location ||
            (e.mbOp != ir::MbOp::Arrive && e.mbOp != ir::MbOp::CompleteTx))
            continue;
        const ir::Event& at = e.issue >= 0 ? p.events[static_cast<std::size_t>(e.issue)] : e;
        ++arrives;
        arriveLines.insert(at.loc.line);
        for (int g : at.gates)
            if (std::find(blocked.begin(), blocked.end(), g) != blocked.end()) {
                heldBy[g].insert(at.loc.line);
                ++held;
                break;
            }
    }
    auto lines = [](const std::set<int>& ls) {
        std::string out = ls.size() == 1 ? "line " : "lines ";
        for (int l : ls)
            out += (out.back() == ' ' ? "" : ", ") + std::to_string(l);
        return out;
    };
    if (arrives == 0) return "nothing arrives on " + barrier;
    if (held == arrives) {
        std::string out = "every arrive on " + barrier + " comes after a wait that blocks: ";
        bool first = true;
        for (const auto& [g, ls] : heldBy) {
            out += (first ? "" : "; ") + placeOf(p, p.events[static_cast<std::size_t>(g)]) +
                   "'s wait holds back " + lines(ls);
            first = false;
        }
        return out;
    }
    std::set<int> reportLines; // copies whose report-on may hold the conditional phase back
    for (const ir::Event& e : p.events)
        if (wait.mbConditional && e.location == wait.location && e.mbReport)
            reportLines.insert(p.events[static_cast<std::size_t>(e.issue)].loc.line);
    if (!reportLines.empty())
        return "the conditional phase it waits for never advances: a phase completes with a "
               "non-zero payload report where a copy's inspection matches (" +
               lines(reportLines) + ", its report-on), or the arrives and tx completions on " +
               barrier + " (" + lines(arriveLines) + ") are not enough";
    return "the phase it waits for never completes: the arrives and tx completions on " + barrier +
           " (" + lines(arriveLines) +
           ") are not enough, or complete it before this wait looks for this parity";
}

} // namespace

void setDeadlock(engine::CheckResult& r, const ir::Program& p, const std::vector<int>& waits,
                 const std::function<bool(std::size_t)>& neverSucceeds) {
    r.observation = Observation::Deadlock;
    r.deadlockedWaits.clear();
    std::vector<int> never; // the waits that block whatever the others do
    for (std::size_t i = 0; i < waits.size(); ++i)
        if (neverSucceeds(i)) never.push_back(waits[i]);
    for (int w : never)
        r.deadlockedWaits.push_back({eventRef(p, w, whyBlocked(p, w, never)), ""});
    if (!r.deadlockedWaits.empty()) return;
    // none blocks alone: they wait for one another
    for (int w : waits) {
        std::string why = whyBlocked(p, w, waits);
        r.deadlockedWaits.push_back({eventRef(p, w,
                                              "blocks only together with the other waits listed" +
                                                  (why.empty() ? "" : ": " + why)),
                                     ""});
    }
}

void setNoExecution(engine::CheckResult& r, const ir::Program& p,
                    std::vector<std::string> forbidding) {
    std::sort(forbidding.begin(), forbidding.end());
    forbidding.erase(std::unique(forbidding.begin(), forbidding.end()), forbidding.end());
    setStates(r, p, {});
    r.forbiddenBy = std::move(forbidding);
}

} // namespace ptxmc::engine
