// Concrete program semantics: values through reads-from, mbarrier phases through mbo.
#include "Execution.hpp"

#include "ir/Gates.hpp"
#include "lower/Lowerer.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace ptxmc::engine {

using ir::Value;

namespace {

std::int64_t wrap(std::uint64_t v) {
    return lower::wrap32(static_cast<std::int64_t>(v));
}
std::uint32_t u32(std::int64_t v) {
    return static_cast<std::uint32_t>(v);
}

/** Memoised evaluation with cycle detection (a value that depends on itself is thin air). */
struct ValueEval {
    const ir::Program& p;
    const Choices& c;
    Outcome& o;
    std::map<const Value*, std::int64_t> memo;
    std::map<int, int> state; // read event -> 0 unvisited, 1 in progress, 2 done
    std::map<int, std::int64_t> readValue;

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
        if (it != c.rf.end()) v = eval(p.events[static_cast<std::size_t>(it->second)].written);
        readValue[r] = v;
        s = 2;
        return v;
    }

    /** True once the phase the wait names completed, seen at `phase`. */
    bool condition(const ir::Event& e, std::int64_t phase, bool valid) {
        if (!valid) return false;
        if (e.mbParity) {
            std::uint32_t parity = u32(eval(e.mbParity));
            return (phase % 2) != static_cast<std::int64_t>(parity % 2);
        }
        return phase > static_cast<std::int64_t>(u32(eval(e.mbToken)));
    }

    /** A wait's result: phase seen versus its parity or phase-token operand. */
    bool wait(int w) {
        auto done = o.waitSuccess.find(w);
        if (done != o.waitSuccess.end()) return done->second;
        int& s = state[-1 - w];
        if (s == 1) {
            o.valueCycle = true;
            return false;
        }
        s = 1;
        const ir::Event& e = p.events[static_cast<std::size_t>(w)];
        bool success = condition(e, o.phaseBefore.at(w), validBefore.at(w));
        o.waitSuccess[w] = success;
        s = 2;
        return success;
    }

    std::map<int, bool> validBefore;

    std::int64_t eval(const ir::ValuePtr& v) {
        auto m = memo.find(v.get());
        if (m != memo.end()) return m->second;
        auto a = [&](std::size_t i) { return eval(v->args.at(i)); };
        std::int64_t out = 0;
        switch (v->op) {
        case Value::Op::Const:
            out = wrap(static_cast<std::uint64_t>(v->constant));
            break;
        case Value::Op::ReadOf:
            out = read(v->event);
            break;
        case Value::Op::WaitResult:
            out = wait(v->event) ? 1 : 0;
            break;
        case Value::Op::PhaseToken:
            out = wrap(static_cast<std::uint64_t>(o.phaseBefore.at(v->event)));
            break;
        case Value::Op::Add:
            out = wrap(std::uint64_t{u32(a(0))} + u32(a(1)));
            break;
        case Value::Op::Sub:
            out = wrap(std::uint64_t{u32(a(0))} - u32(a(1)));
            break;
        case Value::Op::Mul:
            out = wrap(std::uint64_t{u32(a(0))} * u32(a(1)));
            break;
        case Value::Op::And:
            out = wrap(u32(a(0)) & u32(a(1)));
            break;
        case Value::Op::Or:
            out = wrap(u32(a(0)) | u32(a(1)));
            break;
        case Value::Op::Xor:
            out = wrap(u32(a(0)) ^ u32(a(1)));
            break;
        case Value::Op::Max:
            out = std::max(a(0), a(1));
            break; // signed, as bvsgt
        case Value::Op::Min:
            out = std::min(a(0), a(1));
            break;
        case Value::Op::Eq:
            out = a(0) == a(1) ? 1 : 0;
            break;
        case Value::Op::Ite:
            out = a(0) != 0 ? a(1) : a(2);
            break;
        }
        memo.emplace(v.get(), out);
        return out;
    }
};

/** Runs one mbarrier object's operations in mbo order (PTX ISA 9.7.13.15). */
void simulateMbarrier(const ir::Program& p, int location, const std::vector<int>& ops,
                      ValueEval& ev, Outcome& o) {
    // Waits do not change the object, so phases follow from the other operations alone.
    const ir::Location& cell = p.locations[static_cast<std::size_t>(location)];
    std::int64_t phase = 0, pending = cell.mbCount, expected = cell.mbCount, tx = 0, stamp = 0;
    bool valid = cell.mbCount > 0;
    for (int id : ops) {
        const ir::Event& e = p.events[static_cast<std::size_t>(id)];
        o.phaseBefore[id] = phase;
        o.stampBefore[id] = stamp;
        ev.validBefore[id] = valid;
        if (!o.exists[static_cast<std::size_t>(id)]) continue; // after a blocked gate
        bool bad = !valid;
        bool completes = false;
        switch (e.mbOp) {
        case ir::MbOp::Init:
            bad = valid; // re-initialising a valid object is UB
            phase = 0;
            pending = expected = e.mbAmount;
            tx = 0;
            valid = true;
            ++stamp;
            break;
        case ir::MbOp::Arrive:
            tx += e.mbAmount;
            pending -= 1;
            bad = bad || pending < 0;
            completes = true;
            break;
        case ir::MbOp::ExpectTx:
            tx += e.mbAmount;
            break;
        case ir::MbOp::CompleteTx:
            tx -= e.mbAmount;
            completes = true;
            break;
        case ir::MbOp::Wait: // waits change nothing: their results are computed on demand
        case ir::MbOp::None:
            break;
        }
        if (completes && pending == 0 && tx == 0) {
            phase += 1;
            pending = expected;
            ++stamp;
        }
        if (bad) o.misuse.push_back(id);
    }
    o.finalPhase[location] = phase;
    o.finalValid[location] = valid;
}

/**
 * The wait rules checked once every wait's result is known: a state token names the current
 * or the immediately preceding phase (PTX ISA 9.7.13.15.16); an arrive-on after a phase
 * completed needs a True wait in that phase before it (9.7.13.15.4).
 */
void checkWaitRules(const ir::Program& p, const std::vector<int>& ops, ValueEval& ev, Outcome& o) {
    for (std::size_t i = 0; i < ops.size(); ++i) {
        int id = ops[i];
        const ir::Event& e = p.events[static_cast<std::size_t>(id)];
        if (!o.exists[static_cast<std::size_t>(id)]) continue;
        if (e.mbOp == ir::MbOp::Wait && e.mbToken) {
            std::int64_t token = u32(ev.eval(e.mbToken));
            std::int64_t phase = o.phaseBefore.at(id);
            if (phase != token && phase != token + 1) o.misuse.push_back(id);
        }
        if (e.mbOp != ir::MbOp::Arrive || o.phaseBefore.at(id) < 1) continue;
        bool observed = false;
        for (std::size_t j = 0; j < i && !observed; ++j) {
            int w = ops[j];
            observed = p.events[static_cast<std::size_t>(w)].mbOp == ir::MbOp::Wait &&
                       o.exists[static_cast<std::size_t>(w)] && o.waitSuccess.at(w) &&
                       o.stampBefore.at(w) == o.stampBefore.at(id);
        }
        if (!observed) o.misuse.push_back(id);
    }
}

/** Does the gate let its thread go on: a wait that does not block, or the events it needs? */
bool gatePasses(const ir::Program& p, int gate, const std::set<int>& blocked,
                std::vector<int>& memo);

/** 1 happens, 0 does not; memo: -1 unknown. */
bool happens(const ir::Program& p, int id, const std::set<int>& blocked, std::vector<int>& memo) {
    int& m = memo[static_cast<std::size_t>(id)];
    if (m >= 0) return m == 1;
    bool yes = true;
    for (int g : p.events[static_cast<std::size_t>(id)].gates)
        yes = yes && gatePasses(p, g, blocked, memo);
    memo[static_cast<std::size_t>(id)] = yes ? 1 : 0;
    return yes;
}

bool gatePasses(const ir::Program& p, int gate, const std::set<int>& blocked,
                std::vector<int>& memo) {
    const ir::Event& g = p.events[static_cast<std::size_t>(gate)];
    if (ir::gateKind(g) == ir::GateKind::Chosen) return blocked.count(gate) == 0;
    for (int n : g.gateNeeds) // n's thread reaches n: the gates before it let it through
        for (int x : p.events[static_cast<std::size_t>(n)].gates)
            if (x != n && !gatePasses(p, x, blocked, memo)) return false;
    return true;
}

} // namespace

std::vector<bool> gateExistence(const ir::Program& p, const std::set<int>& blocked) {
    std::vector<int> memo(p.events.size(), -1);
    std::vector<bool> out(p.events.size(), true);
    if (blocked.empty()) return out;
    for (const auto& e : p.events)
        out[static_cast<std::size_t>(e.id)] = happens(p, e.id, blocked, memo);
    return out;
}

std::vector<int> stuckGates(const ir::Program& p, const std::set<int>& blocked) {
    std::vector<int> memo(p.events.size(), -1), out;
    for (const auto& g : p.events) {
        if (ir::gateKind(g) == ir::GateKind::Chosen && blocked.count(g.id)) out.push_back(g.id);
        if (ir::gateKind(g) != ir::GateKind::Needs) continue;
        bool reached = true;
        for (int earlier : g.gates)
            if (earlier != g.id) reached = reached && gatePasses(p, earlier, blocked, memo);
        if (reached && !gatePasses(p, g.id, blocked, memo)) out.push_back(g.id);
    }
    return out;
}

Outcome computeOutcome(const ir::Program& p, const Choices& c) {
    Outcome o;
    o.value.assign(p.events.size(), 0);
    o.exists = gateExistence(p, c.blocked);
    ValueEval ev{p, c, o, {}, {}, {}, {}};
    // mbarrier operations carry no guards; waits are simulated first because values may
    // depend on their results (WaitResult) and on phase tokens. A blocked wait never returns.
    for (const auto& [loc, ops] : c.mbo)
        simulateMbarrier(p, loc, ops, ev, o);
    for (int w : c.blocked)
        o.waitSuccess[w] = false;
    for (const auto& [loc, ops] : c.mbo)
        for (int id : ops)
            if (p.events[static_cast<std::size_t>(id)].mbOp == ir::MbOp::Wait) ev.wait(id);
    for (const auto& [loc, ops] : c.mbo)
        checkWaitRules(p, ops, ev, o);
    for (int w : c.blocked) {
        const ir::Event& e = p.events[static_cast<std::size_t>(w)];
        bool stillFails =
            o.exists[static_cast<std::size_t>(w)] && o.finalPhase.count(e.location) &&
            !ev.condition(e, o.finalPhase.at(e.location), o.finalValid.at(e.location));
        o.blockedHold = o.blockedHold && stillFails;
    }
    for (const auto& e : p.events) {
        if (e.guard && o.exists[static_cast<std::size_t>(e.id)])
            o.exists[static_cast<std::size_t>(e.id)] = ev.eval(e.guard) != 0;
        if (e.has("W")) o.value[static_cast<std::size_t>(e.id)] = ev.eval(e.written);
        if (e.has("R")) o.value[static_cast<std::size_t>(e.id)] = ev.read(e.id);
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
    for (const auto& [a, b] : ir::realTimeOrder(p))
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
    ValueEval ev{p, c, o, {}, {}, {}, {}};
    return ev.eval(v); // every wait result is already in o.waitSuccess
}

std::vector<std::int64_t> finalState(const ir::Program& p, const Choices& c, Outcome& o) {
    std::vector<std::int64_t> out;
    for (const auto& obs : p.observed) {
        if (obs.reg) {
            out.push_back(evalValue(obs.reg, p, c, o));
            continue;
        }
        const auto& order = c.co.at(obs.location);
        if (order.empty()) throw std::logic_error("location without writes");
        out.push_back(o.value[static_cast<std::size_t>(order.back())]);
    }
    return out;
}

} // namespace ptxmc::engine
