// One schedule as a concrete execution, complete or hanging, checked by the explicit evaluator.
#include "engine/ScheduledRun.hpp"

#include "engine/ConcreteModel.hpp"
#include "engine/Execution.hpp"
#include "ir/BaseRelations.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace ptxmc::engine {

namespace {

/** The choices of the sequentially consistent run of `schedule`; nothing where a read's last
 *  write is not one it may read. */
std::optional<Choices> choicesOfSchedule(const ir::Program& p, const std::vector<int>& schedule) {
    Choices c;
    // Reads the schedule leaves out do not happen: any candidate stands for their choice.
    for (const auto& e : p.events)
        if (e.has(ir::Tag::R))
            if (const std::vector<int> cands = ir::rfCandidates(p, e); !cands.empty())
                c.rf[e.id] = cands.front();
    c.choice.assign(p.choices.size(), false); // a choice's 1 side is another schedule's
    std::map<int, int> lastWrite;             // location -> its last write so far
    for (const auto& loc : p.locations)
        if (loc.init >= 0) {
            lastWrite[loc.id] = loc.init;
            c.co[loc.id] = {loc.init};
        }
    for (int id : schedule) {
        const ir::Event& e = p.events[static_cast<std::size_t>(id)];
        if (e.has(ir::Tag::MB)) c.mbo[e.location].push_back(id);
        if (e.has(ir::Tag::F) && e.has(ir::Tag::SC)) c.sc.push_back(id);
        if (e.has(ir::Tag::R)) {
            auto last = lastWrite.find(e.location);
            const std::vector<int> cands = ir::rfCandidates(p, e);
            if (last == lastWrite.end() ||
                std::find(cands.begin(), cands.end(), last->second) == cands.end())
                return std::nullopt;
            c.rf[id] = last->second;
        }
        if (e.has(ir::Tag::W) && !e.has(ir::Tag::IW)) {
            lastWrite[e.location] = id;
            c.co[e.location].push_back(id);
        }
    }
    return c;
}

} // namespace

std::optional<Choices> hangChoicesOfSchedule(const ir::Program& p, const std::vector<int>& schedule,
                                             const std::vector<int>& stuck) {
    if (stuck.empty()) return std::nullopt;
    std::vector<bool> run(p.events.size(), false);
    for (int e : schedule)
        run[static_cast<std::size_t>(e)] = true;
    // A barrier that holds its thread is reached, but the search never ran it: it happens
    // last (its thread's events after it do not happen).
    std::vector<int> whole = schedule;
    const std::vector<bool> past = gateExistence(p, std::set<int>(stuck.begin(), stuck.end()));
    for (std::size_t e = 0; e < past.size(); ++e)
        if (past[e] && !run[e]) {
            whole.push_back(static_cast<int>(e));
            run[e] = true;
        }
    std::optional<Choices> c = choicesOfSchedule(p, whole);
    if (!c) return std::nullopt;
    c->blocked.insert(stuck.begin(), stuck.end());
    const Outcome o = computeOutcome(p, *c);
    if (o.noExecution || run != o.exists) return std::nullopt;
    return c;
}

std::optional<std::vector<int>> hangingGates(const ir::Program& p, const ConcreteModel& model,
                                             const std::optional<cat::ReadingId>& reading,
                                             const Choices& c) {
    if (c.blocked.empty()) return std::nullopt;
    for (int w : c.blocked)
        if (!gateReached(p, c.blocked, w)) return std::nullopt; // held back by another
    Outcome o = computeOutcome(p, c);
    if (o.noExecution || o.valueCycle || !waitsHold(p, c, o) || !fitsRealTime(p, c, o))
        return std::nullopt;
    if (!cutsReached(p, c, o).empty()) return std::nullopt;
    if (!model.underReading(reading).check(c, o, {}, true).consistent) return std::nullopt;
    return stuckGates(p, c.blocked);
}

std::optional<ScheduledRun> finishingRun(const ir::Program& p, const ConcreteModel& model,
                                         const std::optional<cat::ReadingId>& reading,
                                         const Choices& c) {
    if (!c.blocked.empty()) return std::nullopt;
    Outcome o = computeOutcome(p, c);
    if (o.noExecution || o.valueCycle || !waitsHold(p, c, o)) return std::nullopt;
    if (!cutsReached(p, c, o).empty()) return std::nullopt;
    const ConcreteVerdict v = model.underReading(reading).check(c, o);
    if (!v.consistent) return std::nullopt;
    ScheduledRun run{finalState(p, c, o), {}};
    for (const std::string& f : v.flags)
        run.flags[f].insert(v.flagWitness.at(f));
    return run;
}

std::optional<ScheduledRun> runSchedule(const ir::Program& p, const cat::ResolvedModel& model,
                                        const std::optional<cat::ReadingId>& reading,
                                        const std::vector<int>& schedule) {
    return runSchedule(p, ConcreteModel(p, model), reading, schedule);
}

std::optional<ScheduledRun> runSchedule(const ir::Program& p, const ConcreteModel& model,
                                        const std::optional<cat::ReadingId>& reading,
                                        const std::vector<int>& schedule) {
    // Every event happens and no gate holds: a barrier or a cta_group::2 pair missing a
    // participant (the lowering's static deadlocks, ir/Gates.hpp) is beyond the schedules'
    // search, which lets such gates through.
    if (schedule.size() != p.events.size() || !p.staticDeadlocks.empty() ||
        !stuckGates(p, {}).empty())
        return std::nullopt;
    std::optional<Choices> c = choicesOfSchedule(p, schedule);
    if (!c) return std::nullopt;
    const Outcome o = computeOutcome(p, *c);
    if (std::find(o.exists.begin(), o.exists.end(), false) != o.exists.end()) return std::nullopt;
    return finishingRun(p, model, reading, *c);
}

} // namespace ptxmc::engine
