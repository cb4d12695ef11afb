// One complete schedule as a concrete execution, checked by the explicit evaluator.
#include "engine/ScheduledRun.hpp"

#include "engine/ConcreteModel.hpp"
#include "engine/Execution.hpp"
#include "ir/BaseRelations.hpp"

#include <algorithm>
#include <map>

namespace ptxmc::engine {

namespace {

/** The choices of the sequentially consistent run of `schedule`; nothing where a read's last
 *  write is not one it may read. */
std::optional<Choices> choicesOfSchedule(const ir::Program& p, const std::vector<int>& schedule) {
    Choices c;
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
    Outcome o = computeOutcome(p, *c);
    if (o.noExecution || o.valueCycle || !waitsHold(p, *c, o)) return std::nullopt;
    if (std::find(o.exists.begin(), o.exists.end(), false) != o.exists.end()) return std::nullopt;
    if (!cutsReached(p, *c, o).empty()) return std::nullopt;
    const ConcreteVerdict v = model.underReading(reading).check(*c, o);
    if (!v.consistent) return std::nullopt;
    ScheduledRun run{finalState(p, *c, o), {}};
    for (const std::string& f : v.flags)
        run.flags[f].insert(v.flagWitness.at(f));
    return run;
}

} // namespace ptxmc::engine
