// Concrete program semantics: values through reads-from, mbarrier phases through mbo.
#include "engine/Execution.hpp"

#include "engine/GateSemantics.hpp"
#include "engine/MbarrierMachine.hpp"
#include "ir/Gates.hpp"
#include "ir/ValueSemantics.hpp"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>

namespace ptxmc::engine {

using ir::Value;

namespace {

using V = ir::ConcreteValues;
constexpr V values{};

/** Memoised evaluation with cycle detection (a value that depends on itself is thin air). */
struct ValueEval {
    const ir::Program& p;
    const Choices& c;
    Outcome& o;
    std::map<const Value*, std::int64_t> memo;
    std::map<int, int> state; // read event -> 0 unvisited, 1 in progress, 2 done
    std::map<int, std::int64_t> readValue;
    std::map<int, bool> validBefore;
    std::map<int, int> guardState; // event -> 1 in progress, 2 done
    std::map<int, bool> guardHolds;

    /**
     * Does event `e` happen: past its gates (o.exists so far) and its guard holds? Guards
     * read values, which come from writes that must happen themselves: evaluated on demand,
     * so a write later in the event order is judged by its own guard (a cycle is thin air).
     */
    bool happens(int e) {
        if (!o.exists[static_cast<std::size_t>(e)]) return false;
        const ir::Event& ev = p.events[static_cast<std::size_t>(e)];
        if (!ev.guard) return true;
        int& s = guardState[e];
        if (s == 2) return guardHolds[e];
        if (s == 1) {
            o.valueCycle = true;
            return false;
        }
        s = 1;
        bool holds = V::nonzero(eval(ev.guard));
        guardHolds[e] = holds;
        guardState[e] = 2;
        return holds;
    }

    std::int64_t read(int r) {
        int& s = state[r];
        if (s == 2) return readValue[r];
        if (s == 1) {
            o.valueCycle = true;
            return 0;
        }
        s = 1;
        auto it = c.rf.find(r);
        std::int64_t v = 0;
        // A candidate may read from a write after a blocked gate (it is discarded later):
        // that write's value may name operations that never ran.
        if (it != c.rf.end() && happens(it->second))
            v = eval(p.events[static_cast<std::size_t>(it->second)].written);
        // a 32-bit (or narrower) read of a 64-bit word takes its low half
        if (p.wordBits == 64 && p.events[static_cast<std::size_t>(r)].narrow) v = ir::wrap32(v);
        readValue[r] = v;
        s = 2;
        return v;
    }

    /**
     * The report-on operations of mbarrier `location` in phase instances before `stamp`: only
     * those are evaluated, since a later copy's data may depend on what a wait in `stamp`
     * returns (every formula of engine/MbarrierMachine.hpp reads earlier instances only).
     */
    std::vector<mbarrier::ReportOn<V>> reportsOn(int location, std::int64_t stamp) {
        std::vector<mbarrier::ReportOn<V>> out;
        for (int id : c.mbo.at(location)) {
            const ir::Event& e = p.events[static_cast<std::size_t>(id)];
            if (!e.mbReport || !o.exists[static_cast<std::size_t>(id)]) continue;
            if (o.stampBefore.at(id) >= stamp) break; // stamps grow along mbo
            out.push_back({V::nonzero(eval(e.mbReport)), o.stampBefore.at(id)});
        }
        return out;
    }

    /** True once the phase the wait names completed, seen at `stamp` and primary `phase`. */
    bool condition(const ir::Event& e, std::int64_t stamp, std::int64_t phase, bool valid) {
        if (e.mbConditional)
            phase = mbarrier::conditionalPhase(values, reportsOn(e.location, stamp), stamp, phase);
        return mbarrier::waitCondition(values, e, phase, valid,
                                       [&] { return eval(e.mbParity ? e.mbParity : e.mbToken); });
    }

    /** A wait's result: phase seen versus its parity or phase-token operand. */
    bool waitSuccess(int w) {
        auto done = o.waitSuccess.find(w);
        if (done != o.waitSuccess.end()) return done->second;
        int& s = state[-1 - w];
        if (s == 1) {
            o.valueCycle = true;
            return false;
        }
        s = 1;
        const ir::Event& e = p.events[static_cast<std::size_t>(w)];
        bool success = condition(e, o.stampBefore.at(w), o.phaseBefore.at(w), validBefore.at(w));
        o.waitSuccess[w] = success;
        s = 2;
        return success;
    }

    /** The primary phase up to which wait `w` observed its object (engine/MbarrierMachine.hpp). */
    void observedPhase(int w) {
        const ir::Event& e = p.events[static_cast<std::size_t>(w)];
        const std::int64_t stamp = o.stampBefore.at(w);
        o.observedPhase[w] = mbarrier::observedPhase(values, e, reportsOn(e.location, stamp), stamp,
                                                     o.phaseBefore.at(w));
    }

    /** A wait's reportPredicate: False where it returned False (undefined: 0 is one value). */
    bool waitReport(int w) {
        auto done = o.waitReport.find(w);
        if (done != o.waitReport.end()) return done->second;
        const ir::Event& e = p.events[static_cast<std::size_t>(w)];
        const std::int64_t stamp = o.stampBefore.at(w);
        bool report =
            waitSuccess(w) && mbarrier::observedReport(values, reportsOn(e.location, stamp), stamp,
                                                       o.phaseBefore.at(w));
        o.waitReport[w] = report;
        return report;
    }

    std::int64_t phaseBefore(int op) const { return o.phaseBefore.at(op); }
    bool choice(std::int64_t i) const { return c.choice.at(static_cast<std::size_t>(i)); }

    std::int64_t eval(const ir::ValuePtr& v) {
        auto m = memo.find(v.get());
        if (m != memo.end()) return m->second;
        std::int64_t out =
            applyValue(values, *v, *this, [&](std::size_t i) { return eval(v->args.at(i)); });
        memo.emplace(v.get(), out);
        return out;
    }
};

/** Runs one mbarrier object's operations in mbo order (PTX ISA
 * #parallel-synchronization-and-communication-instructions-mbarrier). */
void simulateMbarrier(const ir::Program& p, int location, const std::vector<int>& ops,
                      ValueEval& ev, Outcome& o) {
    // Waits do not change the object, so phases follow from the other operations alone.
    auto s = mbarrier::initial(values, p.locations[static_cast<std::size_t>(location)]);
    for (int id : ops) {
        const ir::Event& e = p.events[static_cast<std::size_t>(id)];
        o.phaseBefore[id] = s.phase;
        o.stampBefore[id] = s.stamp;
        ev.validBefore[id] = s.valid;
        if (!o.exists[static_cast<std::size_t>(id)]) continue; // after a blocked gate
        auto step = mbarrier::apply(values, s, e);
        if (mbarrier::misuse<V>(e, s.valid, step.pendingAfterArrival, step.countMisuse))
            o.misuse.push_back(id);
        s = step.after;
    }
    o.finalPhase[location] = s.phase;
    o.finalStamp[location] = s.stamp;
    o.finalValid[location] = s.valid;
}

/**
 * The wait rules checked once every wait's result is known: a state token names the current
 * or the immediately preceding phase (PTX ISA
 * #parallel-synchronization-and-communication-instructions-mbarrier-test-wait-try-wait); an
 * arrive-on after a phase completed needs a True wait in that phase before it ({MbarrierPhase}).
 */
void checkWaitRules(const ir::Program& p, const std::vector<int>& ops, ValueEval& ev, Outcome& o) {
    for (std::size_t i = 0; i < ops.size(); ++i) {
        int id = ops[i];
        const ir::Event& e = p.events[static_cast<std::size_t>(id)];
        if (!o.exists[static_cast<std::size_t>(id)]) continue;
        if (e.mbOp == ir::MbOp::Wait && e.mbToken &&
            mbarrier::staleToken(values, o.phaseBefore.at(id), ev.eval(e.mbToken)))
            o.misuse.push_back(id);
        if (e.mbOp != ir::MbOp::Arrive || o.phaseBefore.at(id) < 1) continue;
        bool observed = false;
        for (std::size_t j = 0; j < i && !observed; ++j) {
            int w = ops[j];
            observed =
                p.events[static_cast<std::size_t>(w)].mbOp == ir::MbOp::Wait &&
                mbarrier::observes<V>(o.exists[static_cast<std::size_t>(w)], o.waitSuccess.at(w),
                                      true, o.stampBefore.at(w), o.stampBefore.at(id));
        }
        if (mbarrier::unobservedArrive<V>(true, o.phaseBefore.at(id), observed))
            o.misuse.push_back(id);
    }
}

/** A chosen gate blocks forever when the candidate says so. */
struct Blocked {
    const std::set<int>& blocked;
    bool operator()(int gate) const { return blocked.count(gate) != 0; }
};

} // namespace

std::vector<bool> gateExistence(const ir::Program& p, const std::set<int>& blocked) {
    std::vector<bool> out(p.events.size(), true);
    if (blocked.empty()) return out;
    gates::GateMemo<V> memo;
    for (const auto& e : p.events)
        out[static_cast<std::size_t>(e.id)] =
            gates::throughGates(values, p, e, true, Blocked{blocked}, memo);
    return out;
}

bool gateReached(const ir::Program& p, const std::set<int>& blocked, int gate) {
    std::vector<int> before;
    for (int g : p.events[static_cast<std::size_t>(gate)].gates)
        if (g != gate) before.push_back(g);
    return gates::throughGates(values, p, before, true, Blocked{blocked});
}

std::vector<int> stuckGates(const ir::Program& p, const std::set<int>& blocked) {
    std::vector<int> out;
    gates::GateMemo<V> memo;
    for (const auto& g : p.events)
        if (ir::gateKind(g) != ir::GateKind::None &&
            gates::stuck(values, p, g, Blocked{blocked}, memo))
            out.push_back(g.id);
    return out;
}

Outcome computeOutcome(const ir::Program& p, const Choices& c) {
    Outcome o;
    const std::vector<bool> gated = gateExistence(p, c.blocked);
    // mbarrier operations are simulated first because values may depend on their results
    // (WaitResult) and on phase tokens. A blocked wait never returns. An operation with a guard
    // (an arrive, or a copy's complete-tx, issued on some paths) changes the object only where
    // its guard holds, and the guard may read values that depend on wait results: all are
    // first taken to happen, then simulated again without those whose guard fails, until the
    // guesses agree.
    std::vector<int> guarded;
    for (const auto& [loc, ops] : c.mbo)
        for (int id : ops)
            if (p.events[static_cast<std::size_t>(id)].guard) guarded.push_back(id);
    std::optional<ValueEval> ev;
    // Simulates with the guarded operations in `off` left out; returns those whose guard fails.
    auto attempt = [&](const std::set<int>& off) {
        o = Outcome{};
        o.value.assign(p.events.size(), 0);
        o.exists = gated;
        for (int id : off)
            o.exists[static_cast<std::size_t>(id)] = false;
        ev.emplace(ValueEval{p, c, o, {}, {}, {}, {}, {}, {}});
        for (const auto& [loc, ops] : c.mbo)
            simulateMbarrier(p, loc, ops, *ev, o);
        for (int w : c.blocked)
            if (ir::gateKind(p.events[static_cast<std::size_t>(w)]) == ir::GateKind::Chosen)
                o.waitSuccess[w] = false;
        for (const auto& [loc, ops] : c.mbo)
            for (int id : ops)
                if (p.events[static_cast<std::size_t>(id)].mbOp == ir::MbOp::Wait) {
                    ev->waitSuccess(id);
                    ev->waitReport(id);
                    ev->observedPhase(id);
                }
        std::set<int> now;
        for (int id : guarded)
            if (!gated[static_cast<std::size_t>(id)] ||
                !V::nonzero(ev->eval(p.events[static_cast<std::size_t>(id)].guard)))
                now.insert(id);
        return now;
    };
    std::set<int> off;
    bool agree = false;
    for (int round = 0; round < 4 && !agree; ++round) {
        std::set<int> now = attempt(off);
        agree = now == off;
        off = std::move(now);
    }
    // Guesses that go round in circles: try every set of skipped operations (few: the
    // generator and kernels guard one or two). None that agrees with its own guards: these
    // choices are no execution (the Z3 engine finds no model with them).
    constexpr std::size_t kMaxGuardedSearch = 8;
    if (!agree && guarded.size() <= kMaxGuardedSearch) {
        for (std::uint32_t mask = 0; mask < (1u << guarded.size()) && !agree; ++mask) {
            std::set<int> guess;
            for (std::size_t i = 0; i < guarded.size(); ++i)
                if (mask & (1u << i)) guess.insert(guarded[i]);
            agree = attempt(guess) == guess;
        }
    }
    if (!agree) {
        o.noExecution = true;
        return o;
    }
    for (const auto& [loc, ops] : c.mbo)
        checkWaitRules(p, ops, *ev, o);
    for (int w : c.blocked) {
        const ir::Event& e = p.events[static_cast<std::size_t>(w)];
        if (ir::gateKind(e) != ir::GateKind::Chosen) continue; // a dealloc: gates::passes
        bool stillFails = o.exists[static_cast<std::size_t>(w)] && o.finalPhase.count(e.location) &&
                          !ev->condition(e, o.finalStamp.at(e.location),
                                         o.finalPhase.at(e.location), o.finalValid.at(e.location));
        o.blockedHold = o.blockedHold && stillFails;
    }
    std::vector<bool> happens(p.events.size());
    for (const auto& e : p.events)
        happens[static_cast<std::size_t>(e.id)] = ev->happens(e.id);
    o.exists = happens;
    for (const auto& e : p.events) {
        // What follows a blocked gate does not happen: its values may name operations that
        // never ran (a wait's result outside mbo), and nothing reads them.
        if (!o.exists[static_cast<std::size_t>(e.id)]) continue;
        if (e.has(ir::Tag::W)) o.value[static_cast<std::size_t>(e.id)] = ev->eval(e.written);
        if (e.has(ir::Tag::R)) o.value[static_cast<std::size_t>(e.id)] = ev->read(e.id);
    }
    std::sort(o.misuse.begin(), o.misuse.end());
    return o;
}

bool waitsHold(const ir::Program& p, const Choices& c, const Outcome& o) {
    if (!o.blockedHold) return false;
    for (const auto& e : p.events)
        if (ir::gateKind(e) == ir::GateKind::Chosen && !c.blocked.count(e.id) &&
            o.exists[static_cast<std::size_t>(e.id)] && !o.waitSuccess.at(e.id))
            return false;
    return true;
}

bool fitsRealTime(const ir::Program& p, const Choices& c, const Outcome& o) {
    std::vector<std::vector<int>> next(p.events.size());
    auto happens = [&](int e) { return o.exists[static_cast<std::size_t>(e)]; };
    // The full order: events that do not happen are dropped, so no pair may rely on them.
    for (const auto& [a, b] : ir::realTimePairs(p))
        if (happens(a) && happens(b)) next[static_cast<std::size_t>(a)].push_back(b);
    for (const auto& [loc, ops] : c.mbo)
        for (std::size_t i = 0; i + 1 < ops.size(); ++i)
            next[static_cast<std::size_t>(ops[i])].push_back(ops[i + 1]);
    std::vector<int> state(p.events.size(), 0); // 0 new, 1 on the path, 2 done
    std::function<bool(int)> cyclic = [&](int v) {
        state[static_cast<std::size_t>(v)] = 1;
        for (int u : next[static_cast<std::size_t>(v)]) {
            int su = state[static_cast<std::size_t>(u)];
            if (su == 1 || (su == 0 && cyclic(u))) return true;
        }
        state[static_cast<std::size_t>(v)] = 2;
        return false;
    };
    for (const auto& e : p.events)
        if (state[static_cast<std::size_t>(e.id)] == 0 && cyclic(e.id)) return false;
    return true;
}

std::int64_t evalValue(const ir::ValuePtr& v, const ir::Program& p, const Choices& c, Outcome& o) {
    ValueEval ev{p, c, o, {}, {}, {}, {}, {}, {}};
    return ev.eval(v); // every wait result is already in o.waitSuccess and o.waitReport
}

std::vector<std::size_t> cutsReached(const ir::Program& p, const Choices& c, Outcome& o) {
    std::vector<std::size_t> out;
    gates::GateMemo<V> memo;
    for (std::size_t i = 0; i < p.cuts.size(); ++i) {
        const ir::Cut& cut = p.cuts[i];
        if (!gates::throughGates(values, p, cut.gates, true, Blocked{c.blocked}, memo)) continue;
        if (cut.guard && !V::nonzero(evalValue(cut.guard, p, c, o))) continue;
        out.push_back(i);
    }
    return out;
}

bool cutSpins(const ir::Program& p, std::size_t i, const Outcome& o) {
    const ir::Cut& cut = p.cuts.at(i);
    if (!cut.spinEligible) return false;
    for (int w : cut.effects)
        if (o.exists[static_cast<std::size_t>(w)]) return false;
    return true;
}

std::vector<std::int64_t> finalState(const ir::Program& p, const Choices& c, Outcome& o) {
    std::vector<std::int64_t> out;
    for (const auto& obs : p.observed) {
        std::int64_t v = 0;
        if (obs.reg) {
            v = evalValue(obs.reg, p, c, o);
        } else {
            const auto& order = c.co.at(obs.location);
            if (order.empty()) throw std::logic_error("location without writes");
            v = o.value[static_cast<std::size_t>(order.back())];
        }
        out.push_back(obs.wide ? v : ir::wrap32(v)); // a 32-bit observable: its low half
    }
    return out;
}

} // namespace ptxmc::engine
