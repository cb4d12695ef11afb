// Choice variables and value semantics of a program's executions.
#include "smt/ProgramEncoder.hpp"

#include "engine/GateSemantics.hpp"
#include "engine/MbarrierMachine.hpp"
#include "ir/BaseRelations.hpp"
#include "ir/Gates.hpp"
#include "ir/ValueSemantics.hpp"

#include <algorithm>
#include <stdexcept>

namespace ptxmc::engine::smt {

using ir::Event;
using ir::Value;

ProgramEncoder::ProgramEncoder(z3::context& ctx, const ir::Program& program, bool hangs,
                               const Budget* budget,
                               const std::vector<std::pair<int, int>>& fixedCo)
    : ctx_(ctx),
      program_(program), alg_{ctx}, values_{ctx, static_cast<unsigned>(program.wordBits)},
      constraints_(ctx), fixedCo_(fixedCo.begin(), fixedCo.end()), hangs_(hangs), budget_(budget) {
    if (hangs_)
        for (int w : ir::chosenGates(program_))
            blocked_.emplace(w, ctx_.bool_const(("blocked_" + std::to_string(w)).c_str()));
    for (const auto& e : program_.events)
        if (e.has(ir::Tag::R)) {
            rfCandidates_.emplace(e.id, ir::rfCandidates(program_, e));
            readValue_.emplace(e.id, readValueTerm(e));
        }
    for (std::size_t i = 0; i < program_.choices.size(); ++i)
        choice_.push_back(ctx_.bool_const(("choice_" + std::to_string(i)).c_str()));
    encodeMbarriers(); // wait results feed values, so phases come first
    encodeReadsFrom();
    encodeCoherence();
    encodeFenceSc();
    if (hangs_) encodeRealTime();
}

/**
 * An execution that hangs must happen in real time: program order, an operation's issue
 * before what it performs, and each mbarrier's order fit one timeline (ir::realTimeOrder).
 * This rules out waits that pass only because of each other.
 */
void ProgramEncoder::encodeRealTime() {
    std::map<int, z3::expr> time;
    auto at = [&](int e) {
        auto it = time.find(e);
        if (it == time.end())
            it = time.emplace(e, ctx_.int_const(("t_" + std::to_string(e)).c_str())).first;
        return it->second;
    };
    for (const auto& [a, b] : ir::realTimeOrder(program_))
        constraints_.push_back(at(a) < at(b));
    const std::vector<std::vector<bool>> reach = ir::realTimeReach(program_);
    for (const auto& [a, pa] : mbPos_) {
        poll();
        for (const auto& [b, pb] : mbPos_) {
            if (a == b || program_.events[static_cast<std::size_t>(a)].location !=
                              program_.events[static_cast<std::size_t>(b)].location)
                continue;
            constraints_.push_back(z3::implies(pa < pb, at(a) < at(b)));
            // Implied by the line above and the real-time order; stated, it spares the
            // solver the search for mbarrier orders that real time rules out.
            if (reach[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)])
                constraints_.push_back(pa < pb);
        }
    }
}

z3::expr ProgramEncoder::exists(int event) const {
    auto cached = existsCache_.find(event);
    if (cached != existsCache_.end()) return cached->second;
    const Event& e = program_.events[static_cast<std::size_t>(event)];
    z3::expr out = e.guard ? values_.nonzero(value(e.guard)) : ctx_.bool_val(true);
    if (hangs_) out = gates::throughGates(values_, program_, e, out, blockedOf(), gateMemo_);
    existsCache_.emplace(event, out);
    return out;
}

z3::expr ProgramEncoder::cutReached(std::size_t i) const {
    const ir::Cut& c = program_.cuts.at(i);
    z3::expr out = c.guard ? values_.nonzero(value(c.guard)) : ctx_.bool_val(true);
    if (hangs_) out = gates::throughGates(values_, program_, c.gates, out, blockedOf(), gateMemo_);
    return out;
}

z3::expr ProgramEncoder::cutSpins(std::size_t i) const {
    const ir::Cut& c = program_.cuts.at(i);
    if (!c.spinEligible) return ctx_.bool_val(false);
    z3::expr out = cutReached(i);
    for (int w : c.effects)
        out = out && !exists(w);
    return out;
}

std::map<int, z3::expr> ProgramEncoder::stuckGates() const {
    std::map<int, z3::expr> out;
    for (const auto& g : program_.events)
        if (ir::gateKind(g) != ir::GateKind::None)
            out.emplace(g.id, gates::stuck(values_, program_, g, blockedOf(), gateMemo_));
    return out;
}

/** The leaves of a value in the solver's terms (ir/ValueSemantics.hpp). */
struct ProgramEncoder::Leaves {
    const ProgramEncoder& enc;
    z3::expr read(int r) const { return enc.readValue_.at(r); }
    z3::expr waitSuccess(int w) const { return enc.waitSuccess_.at(w); }
    z3::expr waitReport(int w) const { return enc.waitReport_.at(w); }
    z3::expr phaseBefore(int op) const { return enc.phaseBefore_.at(op); }
    z3::expr choice(std::int64_t i) const { return enc.choice_.at(static_cast<std::size_t>(i)); }
};

z3::expr ProgramEncoder::value(const ir::ValuePtr& v) const {
    auto cached = valueCache_.find(v.get());
    if (cached != valueCache_.end()) return cached->second;
    Leaves leaves{*this};
    z3::expr out =
        applyValue(values_, *v, leaves, [&](std::size_t i) { return value(v->args.at(i)); });
    valueCache_.emplace(v.get(), out);
    return out;
}

/** What read `r` sees when it reads from write `w`: a 32-bit (or narrower) read of a 64-bit word
 *  takes its low half. */
z3::expr ProgramEncoder::seenBy(const Event& r, const Event& w) const {
    return r.narrow && program_.wordBits == 64 ? values_.low(value(w.written)) : value(w.written);
}

/**
 * The value read `r` returns: a fresh word, bound by the write it reads from (encodeReadsFrom).
 * A read whose only candidate write stores a constant returns that constant itself: the solver
 * then folds what is computed from it (a float sum of constants is one word, not a circuit it
 * bit-blasts and searches in every query).
 */
z3::expr ProgramEncoder::readValueTerm(const Event& r) const {
    const std::vector<int>& cands = rfCandidates_.at(r.id);
    if (cands.size() == 1) {
        const Event& w = program_.events[static_cast<std::size_t>(cands.front())];
        if (w.written && w.written->op == Value::Op::Const) return seenBy(r, w).simplify();
    }
    return ctx_.bv_const(("val_" + std::to_string(r.id)).c_str(),
                         static_cast<unsigned>(program_.wordBits));
}

void ProgramEncoder::encodeReadsFrom() {
    for (const auto& r : program_.events) {
        if (!r.has(ir::Tag::R)) continue;
        poll();
        const std::vector<int>& cands = rfCandidates_.at(r.id);
        if (cands.empty()) throw std::logic_error("read without candidate writes: " + r.text);
        z3::expr sel = ctx_.int_const(("rf_" + std::to_string(r.id)).c_str());
        constraints_.push_back(sel >= 0 && sel < static_cast<int>(cands.size()));
        rfSelect_.emplace(r.id, sel);
        for (std::size_t i = 0; i < cands.size(); ++i) {
            int w = cands[i];
            z3::expr chosen = sel == static_cast<int>(i);
            const z3::expr seen = seenBy(r, program_.events[static_cast<std::size_t>(w)]);
            constraints_.push_back(z3::implies(chosen, exists(w) && readValue_.at(r.id) == seen));
            rf_.emplace(std::make_pair(w, r.id), chosen && exists(r.id));
        }
    }
}

void ProgramEncoder::encodeCoherence() {
    std::map<int, std::vector<int>> writes; // location -> writes
    for (const auto& e : program_.events)
        if (e.has(ir::Tag::W)) writes[e.location].push_back(e.id);
    for (const auto& [loc, ws] : writes) {
        for (int w : ws) {
            const Event& e = program_.events[static_cast<std::size_t>(w)];
            z3::expr pos = e.has(ir::Tag::IW) ? ctx_.int_val(0)
                                              : ctx_.int_const(("co_" + std::to_string(w)).c_str());
            if (!e.has(ir::Tag::IW)) constraints_.push_back(pos > 0);
            coPos_.emplace(w, pos);
        }
        for (std::size_t i = 0; i < ws.size(); ++i, poll())
            for (std::size_t j = i + 1; j < ws.size(); ++j)
                if (!fixedCo_.count({ws[i], ws[j]}) && !fixedCo_.count({ws[j], ws[i]}))
                    constraints_.push_back(coPos_.at(ws[i]) != coPos_.at(ws[j]));
    }
    encodeFixedCoherence();
}

/**
 * The fixed pairs as position constraints, one per pair that no chain through a write that
 * always happens implies: a thread's counted loop of n writes to one location gives n - 1.
 */
void ProgramEncoder::encodeFixedCoherence() {
    std::map<int, std::vector<int>> after; // a -> the b of its fixed pairs, in event order
    for (const auto& [a, b] : fixedCo_)
        after[a].push_back(b);
    auto always = [&](int e) { return exists(e).is_true(); };
    const bool acyclic = fixedPairsAcyclic(after);
    for (const auto& [a, bs] : after) {
        poll();
        // The first successor that always happens orders a before everything it precedes.
        int via = -1;
        if (acyclic)
            for (int b : bs)
                if (always(b)) {
                    via = b;
                    break;
                }
        for (int b : bs) {
            if (b != via && via >= 0 && fixedCo_.count({via, b})) continue;
            z3::expr both = alg_.conj(exists(a), exists(b));
            constraints_.push_back(both.is_true() ? coPos_.at(a) < coPos_.at(b)
                                                  : z3::implies(both, coPos_.at(a) < coPos_.at(b)));
        }
    }
}

/** Whether the fixed pairs form no cycle (then an implied pair may be left out). */
bool ProgramEncoder::fixedPairsAcyclic(const std::map<int, std::vector<int>>& after) const {
    std::map<int, int> state; // 1: on the stack, 2: done
    std::vector<std::pair<int, std::size_t>> stack;
    for (const auto& [root, unused] : after) {
        if (state[root] != 0) continue;
        stack.emplace_back(root, 0);
        state[root] = 1;
        while (!stack.empty()) {
            auto& [node, next] = stack.back();
            auto it = after.find(node);
            if (it == after.end() || next == it->second.size()) {
                state[node] = 2;
                stack.pop_back();
                continue;
            }
            int child = it->second[next++];
            if (state[child] == 1) return false;
            if (state[child] == 0) {
                state[child] = 1;
                stack.emplace_back(child, 0);
            }
        }
    }
    return true;
}

void ProgramEncoder::encodeFenceSc() {
    std::vector<int> fences;
    for (const auto& e : program_.events)
        if (e.has(ir::Tag::F) && e.has(ir::Tag::SC)) fences.push_back(e.id);
    for (int f : fences)
        scPos_.emplace(f, ctx_.int_const(("sc_" + std::to_string(f)).c_str()));
    for (std::size_t i = 0; i < fences.size(); ++i)
        for (std::size_t j = i + 1; j < fences.size(); ++j)
            constraints_.push_back(scPos_.at(fences[i]) != scPos_.at(fences[j]));
}

z3::expr ProgramEncoder::orderBy(const std::map<int, z3::expr>& pos, int a, int b) const {
    return exists(a) && exists(b) && pos.at(a) < pos.at(b);
}

void ProgramEncoder::encodeMbarriers() {
    std::map<int, std::vector<int>> ops;
    bool guarded = false;
    for (const auto& e : program_.events)
        if (e.has(ir::Tag::MB)) {
            ops[e.location].push_back(e.id);
            guarded = guarded || e.guard;
        }
    // An operation issued on some paths only changes the object where its guard holds, and
    // the guard may read a wait's result or a phase token of any object, the one it acts on
    // included: they are named first, and each bound to what its object's slots give.
    if (guarded)
        for (const auto& [loc, list] : ops)
            for (int o : list) {
                const std::string id = std::to_string(o);
                phaseBefore_.emplace(o, ctx_.int_const(("phase_" + id).c_str()));
                if (program_.events[static_cast<std::size_t>(o)].mbOp == ir::MbOp::Wait) {
                    waitSuccess_.emplace(o, ctx_.bool_const(("success_" + id).c_str()));
                    waitReport_.emplace(o, ctx_.bool_const(("report_" + id).c_str()));
                }
            }
    for (const auto& [loc, list] : ops)
        encodeMbarrier(loc, list);
}

void ProgramEncoder::bind(std::map<int, z3::expr>& named, int op, const z3::expr& value) {
    auto it = named.find(op);
    if (it == named.end())
        named.emplace(op, value);
    else
        constraints_.push_back(it->second == value);
}

/** True once the phase the wait names completed (engine/MbarrierMachine.hpp), seen at `stamp`
 *  and primary `phase`; a conditional wait's phase discounts the instances that reported. */
z3::expr ProgramEncoder::waitCondition(const Event& e, const Reports& reports,
                                       const z3::expr& stamp, const z3::expr& phase,
                                       const z3::expr& valid) const {
    const z3::expr seen =
        e.mbConditional ? mbarrier::conditionalPhase(values_, reports, stamp, phase) : phase;
    return mbarrier::waitCondition(values_, e, seen, valid,
                                   [&] { return value(e.mbParity ? e.mbParity : e.mbToken); });
}

/** `into` becomes `step` where `here` holds: one mbo slot's candidate operation. */
static void merge(mbarrier::State<Z3Values>& into, const z3::expr& here,
                  const mbarrier::State<Z3Values>& step) {
    into.phase = z3::ite(here, step.phase, into.phase);
    into.pending = z3::ite(here, step.pending, into.pending);
    into.expected = z3::ite(here, step.expected, into.expected);
    into.tx = z3::ite(here, step.tx, into.tx);
    into.valid = z3::ite(here, step.valid, into.valid);
    into.stamp = z3::ite(here, step.stamp, into.stamp);
}

/**
 * The object's state after slot `k` as named integers (and a Boolean), each equal to the term
 * the slot built: the next slot's terms refer to the names, so no term nests slots.
 */
void ProgramEncoder::nameSlot(mbarrier::State<Z3Values>& state, int location, int k) {
    const std::string at = "mb_" + std::to_string(location) + "_" + std::to_string(k) + "_";
    auto name = [&](z3::expr& field, const char* what) {
        if (field.is_numeral() || field.is_const()) return;
        z3::expr named = field.is_bool() ? ctx_.bool_const((at + what).c_str())
                                         : ctx_.int_const((at + what).c_str());
        constraints_.push_back(named == field);
        field = named;
    };
    name(state.phase, "phase");
    name(state.pending, "pending");
    name(state.expected, "expected");
    name(state.tx, "tx");
    name(state.stamp, "stamp");
    name(state.valid, "valid");
}

/**
 * Simulates one mbarrier object (PTX ISA
 * #parallel-synchronization-and-communication-instructions-mbarrier): its operations happen one at
 * a time in the order mbo (positions 0..m-1); slot k applies the operation at position k to the
 * state (phase, pending arrivals, expected arrivals, tx-count, initialised). An operation that does
 * not happen (after a blocked gate) keeps its slot and changes nothing. `stamp` counts phase
 * completions and inits, naming the phase instance each operation falls in.
 */
void ProgramEncoder::encodeMbarrier(int location, const std::vector<int>& ops) {
    const ir::Location& cell = program_.locations[static_cast<std::size_t>(location)];
    int m = static_cast<int>(ops.size());
    for (int o : ops) {
        z3::expr pos = ctx_.int_const(("mbo_" + std::to_string(o)).c_str());
        constraints_.push_back(pos >= 0 && pos < m);
        mbPos_.emplace(o, pos);
    }
    for (std::size_t i = 0; i < ops.size(); ++i)
        for (std::size_t j = i + 1; j < ops.size(); ++j)
            constraints_.push_back(mbPos_.at(ops[i]) != mbPos_.at(ops[j]));
    using State = mbarrier::State<Z3Values>;
    State state = mbarrier::initial(values_, cell);
    std::map<int, z3::expr> phaseAt, validAt, pendingAt, stampAt, countMisuseAt;
    for (int o : ops) {
        countMisuseAt.emplace(o, ctx_.bool_val(false));
        phaseAt.emplace(o, ctx_.int_val(0));
        validAt.emplace(o, state.valid);
        pendingAt.emplace(o, ctx_.int_val(0));
        stampAt.emplace(o, ctx_.int_val(0));
    }
    for (int k = 0; k < m; ++k) {
        poll();
        State next = state;
        for (int o : ops) {
            const Event& e = program_.events[static_cast<std::size_t>(o)];
            z3::expr here = mbPos_.at(o) == k;
            phaseAt.at(o) = z3::ite(here, state.phase, phaseAt.at(o));
            validAt.at(o) = z3::ite(here, state.valid, validAt.at(o));
            stampAt.at(o) = z3::ite(here, state.stamp, stampAt.at(o));
            if (e.guard || (hangs_ && !e.gates.empty())) here = here && exists(o);
            auto step = mbarrier::apply(values_, state, e);
            if (mbarrier::mayComplete(e)) {
                pendingAt.at(o) =
                    z3::ite(mbPos_.at(o) == k, step.pendingAfterArrival, pendingAt.at(o));
                countMisuseAt.at(o) =
                    z3::ite(mbPos_.at(o) == k, step.countMisuse, countMisuseAt.at(o));
            }
            merge(next, here, step.after);
        }
        nameSlot(next, location, k);
        state = next;
    }
    Reports reports; // the report-on operations: a copy's complete-tx whose inspection matched
    for (int o : ops) {
        const Event& e = program_.events[static_cast<std::size_t>(o)];
        if (e.mbReport)
            reports.push_back({exists(o) && values_.nonzero(value(e.mbReport)), stampAt.at(o)});
    }
    for (int o : ops) {
        const Event& e = program_.events[static_cast<std::size_t>(o)];
        bind(phaseBefore_, o, phaseAt.at(o));
        z3::expr bad =
            mbarrier::misuse<Z3Values>(e, validAt.at(o), pendingAt.at(o), countMisuseAt.at(o));
        if (e.mbOp == ir::MbOp::Wait && e.mbToken)
            bad = bad || mbarrier::staleToken(values_, phaseAt.at(o), value(e.mbToken));
        misuse_.emplace(o, bad && exists(o));
        if (e.mbOp != ir::MbOp::Wait) continue;
        z3::expr success = waitCondition(e, reports, stampAt.at(o), phaseAt.at(o), validAt.at(o));
        // A spinning wait that does not happen (its guard fails) does not spin.
        if (e.blocking)
            blocking_.emplace_back(o, e.guard ? z3::implies(exists(o), success) : success);
        auto b = blocked_.find(o);
        if (b != blocked_.end()) {
            // A wait that returns performs where mbo puts it; one that blocks forever fails on
            // the state the mbarrier keeps once everything that happens has happened.
            constraints_.push_back(z3::implies(exists(o) && !b->second, success));
            constraints_.push_back(
                z3::implies(b->second, exists(o) && !waitCondition(e, reports, state.stamp,
                                                                   state.phase, state.valid)));
            success = success && !b->second;
        }
        bind(waitSuccess_, o, success);
        observedPhase_.emplace(
            o, mbarrier::observedPhase(values_, e, reports, stampAt.at(o), phaseAt.at(o)));
        bind(waitReport_, o,
             reports.empty() ? ctx_.bool_val(false)
                             : success && mbarrier::observedReport(values_, reports, stampAt.at(o),
                                                                   phaseAt.at(o)));
    }
    encodePhaseRule(ops, stampAt);
    // Named: the flag's query and the mbarrier facts (smt/MbarrierFacts.hpp) then share one
    // atom; Z3 rewrites an asserted term and a query's assumption apart, and a fact on the
    // rewritten copy left the mbarrier-misuse proof a search (ring 2x24: 2 s, not 0.01 s).
    for (int o : ops) {
        z3::expr& bad = misuse_.at(o);
        if (bad.is_false()) continue;
        z3::expr named = ctx_.bool_const(("misuse_" + std::to_string(o)).c_str());
        constraints_.push_back(named == bad);
        bad = named;
    }
}

/**
 * "For each phase of the mbarrier object, at least one test_wait or try_wait operation that
 * returns True must be performed before an arrive-on operation of the next phase" (PTX ISA
 * {MbarrierPhase}): an arrive after the first completion since init needs a True wait earlier in
 * mbo within the same phase instance.
 */
void ProgramEncoder::encodePhaseRule(const std::vector<int>& ops,
                                     const std::map<int, z3::expr>& stampAt) {
    for (int o : ops) {
        const Event& e = program_.events[static_cast<std::size_t>(o)];
        if (e.mbOp != ir::MbOp::Arrive) continue;
        z3::expr observed = ctx_.bool_val(false);
        for (int w : ops)
            if (program_.events[static_cast<std::size_t>(w)].mbOp == ir::MbOp::Wait)
                observed = observed || mbarrier::observes<Z3Values>(exists(w), waitSuccess_.at(w),
                                                                    mbPos_.at(w) < mbPos_.at(o),
                                                                    stampAt.at(w), stampAt.at(o));
        z3::expr unobserved =
            mbarrier::unobservedArrive<Z3Values>(exists(o), phaseBefore_.at(o), observed);
        misuse_.at(o) = misuse_.at(o) || unobserved;
    }
}

z3::expr ProgramEncoder::finalValue(const ir::Observable& o) {
    // a 32-bit observable is the low half of its word (the whole word where words are 32-bit)
    return o.wide ? lastValue(o) : values_.low(lastValue(o));
}

z3::expr ProgramEncoder::lastValue(const ir::Observable& o) {
    if (o.reg) return value(o.reg);
    std::vector<int> ws;
    for (const auto& e : program_.events)
        if (e.has(ir::Tag::W) && e.location == o.location) ws.push_back(e.id);
    z3::expr out = bv(0);
    for (int w : ws) {
        z3::expr last = exists(w);
        for (int other : ws) {
            if (other == w || fixedCo_.count({other, w})) continue; // other is before w
            if (fixedCo_.count({w, other}))
                last = exists(other).is_true() ? ctx_.bool_val(false) : last && !exists(other);
            else
                last = last && z3::implies(exists(other), coPos_.at(other) < coPos_.at(w));
        }
        out = z3::ite(last, value(program_.events[static_cast<std::size_t>(w)].written), out);
    }
    return out;
}

z3::expr_vector ProgramEncoder::choicesOf(const std::vector<int>& schedule) const {
    z3::expr_vector out(ctx_);
    std::map<int, int> mbCount, lastWrite; // location -> operations so far; its last write
    for (const auto& loc : program_.locations)
        if (loc.init >= 0) lastWrite[loc.id] = loc.init;
    for (int e : schedule) {
        const Event& ev = program_.events[static_cast<std::size_t>(e)];
        if (auto pos = mbPos_.find(e); pos != mbPos_.end())
            out.push_back(pos->second == mbCount[ev.location]++);
        if (auto sel = rfSelect_.find(e); sel != rfSelect_.end()) {
            const std::vector<int>& cands = rfCandidates_.at(e);
            auto last = lastWrite.find(ev.location);
            auto w = last == lastWrite.end() ? cands.end()
                                             : std::find(cands.begin(), cands.end(), last->second);
            if (w != cands.end()) out.push_back(sel->second == static_cast<int>(w - cands.begin()));
        }
        if (ev.has(ir::Tag::W) && !ev.has(ir::Tag::IW)) {
            auto before = lastWrite.find(ev.location);
            if (before != lastWrite.end()) out.push_back(coPos_.at(before->second) < coPos_.at(e));
            lastWrite[ev.location] = e;
        }
    }
    return out;
}

Choices ProgramEncoder::choices(const z3::model& m) const {
    Choices c;
    auto intOf = [&](const z3::expr& e) { return m.eval(e, true).get_numeral_int64(); };
    auto exists = [&](int e) { return m.eval(this->exists(e), true).is_true(); };
    for (const auto& [read, sel] : rfSelect_)
        c.rf[read] = rfCandidates_.at(read).at(static_cast<std::size_t>(intOf(sel)));
    auto ordered = [&](const std::map<int, z3::expr>& pos, const std::vector<int>& events) {
        std::vector<std::pair<std::int64_t, int>> keyed;
        for (int e : events)
            if (exists(e)) keyed.emplace_back(intOf(pos.at(e)), e);
        std::sort(keyed.begin(), keyed.end());
        std::vector<int> out;
        for (const auto& [k, e] : keyed)
            out.push_back(e);
        return out;
    };
    std::map<int, std::vector<int>> writes, ops;
    for (const auto& [w, pos] : coPos_)
        writes[program_.events[static_cast<std::size_t>(w)].location].push_back(w);
    for (const auto& [o, pos] : mbPos_)
        ops[program_.events[static_cast<std::size_t>(o)].location].push_back(o);
    for (const auto& [loc, ws] : writes)
        c.co[loc] = ordered(coPos_, ws);
    for (const auto& [loc, os] : ops)
        c.mbo[loc] = ordered(mbPos_, os);
    std::vector<int> fences;
    for (const auto& [f, pos] : scPos_)
        fences.push_back(f);
    c.sc = ordered(scPos_, fences);
    for (const auto& [w, b] : blocked_)
        if (m.eval(b, true).is_true()) c.blocked.insert(w);
    for (const z3::expr& x : choice_)
        c.choice.push_back(m.eval(x, true).is_true());
    return c;
}

Z3Set ProgramEncoder::baseSet(ir::Tag tag) {
    Z3Set s;
    if (tag == ir::Tag::MB_MISUSE) {
        for (const auto& [o, bad] : misuse_)
            s.members.emplace(o, bad);
        return s;
    }
    for (int id : ir::baseSet(program_, tag))
        s.members.emplace(id, exists(id));
    return s;
}

namespace {

/** Whether `later` happening implies `earlier` happening, by their form: `earlier` has no guard
 *  or `later`'s, and its gates are a prefix of `later`'s (exists() is the guard and every gate
 *  passing). Program order gives it to most pairs of a thread in the hang encoding. */
bool existenceImplies(const Event& later, const Event& earlier) {
    return (!earlier.guard || earlier.guard == later.guard) &&
           earlier.gates.size() <= later.gates.size() &&
           std::equal(earlier.gates.begin(), earlier.gates.end(), later.gates.begin());
}

} // namespace

z3::expr ProgramEncoder::bothExist(int a, int b) const {
    const Event& ea = program_.events[static_cast<std::size_t>(a)];
    const Event& eb = program_.events[static_cast<std::size_t>(b)];
    // Folded by hand: Z3's simplify() on each of the n^2 pairs cost 6% of a ring's check.
    const bool ifA = ea.guard || (hangs_ && !ea.gates.empty());
    const bool ifB = eb.guard || (hangs_ && !eb.gates.empty());
    // One event's existence implying the other's: the pair's condition is that one term, so
    // pairs along a thread share their events' terms instead of one conjunction each.
    if (ifA && ifB && existenceImplies(eb, ea)) return exists(b);
    if (ifA && ifB && existenceImplies(ea, eb)) return exists(a);
    return ifA && ifB ? (exists(a) && exists(b)).simplify()
           : ifA      ? exists(a)
           : ifB      ? exists(b)
                      : ctx_.bool_val(true);
}

bool ProgramEncoder::densePairHolds(const ir::PairTest& test, int a, int b) const {
    return test(program_.events[static_cast<std::size_t>(a)],
                program_.events[static_cast<std::size_t>(b)]);
}

Z3Rel ProgramEncoder::baseRelation(ir::Rel rel) {
    std::size_t n = program_.events.size();
    Z3Rel r(n);
    std::size_t puts = 0;
    auto put = [&](int a, int b, z3::expr c) {
        if ((++puts & 255U) == 0) poll(); // a relation may have a pair per two events
        if (!c.is_false()) r.rows[static_cast<std::size_t>(a)].insert_or_assign(b, c);
    };
    switch (rel) {
    case ir::Rel::Rf:
        for (const auto& [key, c] : rf_)
            put(key.first, key.second, c);
        return r;
    case ir::Rel::Co:
        for (const auto& [a, pa] : coPos_)
            for (const auto& [b, pb] : coPos_) {
                if (a == b || program_.events[static_cast<std::size_t>(a)].location !=
                                  program_.events[static_cast<std::size_t>(b)].location)
                    continue;
                if (fixedCo_.count({a, b}))
                    put(a, b, alg_.conj(exists(a), exists(b)));
                else if (!fixedCo_.count({b, a}))
                    put(a, b, orderBy(coPos_, a, b));
            }
        return r;
    case ir::Rel::Sc:
        for (const auto& [a, pa] : scPos_)
            for (const auto& [b, pb] : scPos_)
                if (a != b) put(a, b, orderBy(scPos_, a, b));
        return r;
    case ir::Rel::Mbo:
    case ir::Rel::MbObs:
        for (const auto& [a, pa] : mbPos_)
            for (const auto& [b, pb] : mbPos_) {
                const Event& ea = program_.events[static_cast<std::size_t>(a)];
                const Event& eb = program_.events[static_cast<std::size_t>(b)];
                if (a == b || ea.location != eb.location) continue;
                if (rel == ir::Rel::Mbo) {
                    put(a, b, orderBy(mbPos_, a, b));
                } else if (mbarrier::mayBeObserved(ea, eb)) {
                    put(a, b,
                        mbarrier::observedBy<Z3Values>(orderBy(mbPos_, a, b), waitSuccess_.at(b),
                                                       phaseBefore_.at(a), observedPhase_.at(b)));
                }
            }
        return r;
    default: // program-determined (ir::staticRelation lists every one)
        break;
    }
    for (const auto& [a, b] : ir::staticRelation(program_, rel))
        put(a, b, bothExist(a, b));
    return r;
}

} // namespace ptxmc::engine::smt
