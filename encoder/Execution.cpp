// Concrete program semantics: values through reads-from, mbarrier phases through mbo.
#include "Execution.hpp"

#include "lower/Lowerer.hpp"

#include <algorithm>
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
        std::int64_t phase = o.phaseBefore.at(w);
        bool success = false;
        if (e.mbParity) {
            std::uint32_t parity = u32(eval(e.mbParity));
            success = (phase % 2) != static_cast<std::int64_t>(parity % 2);
        } else {
            success = phase > static_cast<std::int64_t>(u32(eval(e.mbToken)));
        }
        success = success && validBefore.at(w);
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
    std::int64_t phase = 0, pending = cell.mbCount, expected = cell.mbCount, tx = 0;
    bool valid = cell.mbCount > 0;
    for (int id : ops) {
        const ir::Event& e = p.events[static_cast<std::size_t>(id)];
        o.phaseBefore[id] = phase;
        ev.validBefore[id] = valid;
        bool bad = !valid;
        bool completes = false;
        switch (e.mbOp) {
        case ir::MbOp::Init:
            bad = valid; // re-initialising a valid object is UB
            phase = 0;
            pending = expected = e.mbAmount;
            tx = 0;
            valid = true;
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
        }
        if (bad && o.exists[static_cast<std::size_t>(id)]) o.misuse.push_back(id);
    }
}

} // namespace

Outcome computeOutcome(const ir::Program& p, const Choices& c) {
    Outcome o;
    o.value.assign(p.events.size(), 0);
    o.exists.assign(p.events.size(), true);
    ValueEval ev{p, c, o, {}, {}, {}, {}};
    // mbarrier operations carry no guards; waits are simulated first because values may
    // depend on their results (WaitResult) and on phase tokens.
    for (const auto& [loc, ops] : c.mbo)
        simulateMbarrier(p, loc, ops, ev, o);
    for (const auto& [loc, ops] : c.mbo)
        for (int id : ops)
            if (p.events[static_cast<std::size_t>(id)].mbOp == ir::MbOp::Wait) ev.wait(id);
    for (const auto& e : p.events) {
        if (e.guard) o.exists[static_cast<std::size_t>(e.id)] = ev.eval(e.guard) != 0;
        if (e.has("W")) o.value[static_cast<std::size_t>(e.id)] = ev.eval(e.written);
        if (e.has("R")) o.value[static_cast<std::size_t>(e.id)] = ev.read(e.id);
    }
    std::sort(o.misuse.begin(), o.misuse.end());
    return o;
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
