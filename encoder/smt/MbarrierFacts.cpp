// Asserts the mbarrier facts of the order an acyclicity axiom surely contains (MbarrierFacts.hpp).
#include "smt/MbarrierFacts.hpp"

#include "ir/Gates.hpp"
#include "ir/ValueSemantics.hpp"
#include "smt/Schedules.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ptxmc::engine::smt {

namespace {

bool isOp(const z3::expr& c, Z3_decl_kind kind) {
    return c.is_app() && c.decl().decl_kind() == kind;
}

/**
 * Whether `part` implies `c` under the default reading: `c` is `part` or true, a disjunction
 * with such a disjunct, a conjunction of such, or (with --readings' one encoding, where a
 * reading's literal is false under the default) the negation of a reading's literal or of a
 * conjunction with one. The reading literals it relied on go to `relied`.
 */
bool holdsWith(const z3::expr& c, const z3::expr& part,
               const std::map<unsigned, z3::expr>& readings, std::set<unsigned>& relied) {
    if (c.is_true() || z3::eq(c, part)) return true;
    if (isOp(c, Z3_OP_OR)) {
        for (unsigned i = 0; i < c.num_args(); ++i)
            if (holdsWith(c.arg(i), part, readings, relied)) return true;
        return false;
    }
    if (isOp(c, Z3_OP_AND)) {
        for (unsigned i = 0; i < c.num_args(); ++i)
            if (!holdsWith(c.arg(i), part, readings, relied)) return false;
        return true;
    }
    if (!isOp(c, Z3_OP_NOT)) return false;
    const z3::expr x = c.arg(0); // false under the default reading: a literal, or a conjunction
    if (readings.count(x.id())) return relied.insert(x.id()), true;
    if (isOp(x, Z3_OP_AND))
        for (unsigned i = 0; i < x.num_args(); ++i)
            if (readings.count(x.arg(i).id())) return relied.insert(x.arg(i).id()), true;
    return false;
}

/** Whether `holds(a, b, condition of (a, b) in r)` for every ordered pair of two mbarrier
 *  operations on one object; false at the first pair `r` lacks or `holds` rejects. */
template <class Holds>
bool everyObjectPair(const ProgramEncoder& pe, const Z3Rel& r, const Holds& holds) {
    const auto& positions = pe.mbPositions();
    const auto& events = pe.program().events;
    for (const auto& [a, pa] : positions)
        for (const auto& [b, pb] : positions) {
            if (a == b || events[static_cast<std::size_t>(a)].location !=
                              events[static_cast<std::size_t>(b)].location)
                continue;
            const auto& row = r.rows[static_cast<std::size_t>(a)];
            const auto it = row.find(b);
            if (it == row.end() || !holds(a, b, it->second)) return false;
        }
    return true;
}

/** Every mbo pair of the program is a pair of `r` whenever it holds (under the default reading,
 *  relying on the reading literals put in `relied`). */
bool containsMbarrierOrder(const ProgramEncoder& pe, const Z3Rel& r,
                           const std::map<unsigned, z3::expr>& readings,
                           std::set<unsigned>& relied) {
    return everyObjectPair(pe, r, [&](int a, int b, const z3::expr& c) {
        return holdsWith(c, pe.mbOrder(a, b), readings, relied);
    });
}

/**
 * Where `c` is `mbo`, alone or in a (nested) conjunction with reading literals, the existence
 * of the pair's ends (a guarded operation's membership of a set) and true, the ids of those
 * literals; nullopt otherwise. The facts speak of operations that happen, where `c` is `mbo`.
 */
std::optional<std::set<unsigned>> readingsBeside(const z3::expr& c, const z3::expr& mbo,
                                                 const std::vector<z3::expr>& ends,
                                                 const std::map<unsigned, z3::expr>& readings) {
    std::set<unsigned> literals;
    bool found = false;
    std::vector<z3::expr> todo{c};
    while (!todo.empty()) {
        const z3::expr x = todo.back();
        todo.pop_back();
        if (z3::eq(x, mbo)) {
            found = true;
        } else if (isOp(x, Z3_OP_AND)) {
            for (unsigned i = 0; i < x.num_args(); ++i)
                todo.push_back(x.arg(i));
        } else if (readings.count(x.id())) {
            literals.insert(x.id());
        } else if (!x.is_true() && std::none_of(ends.begin(), ends.end(),
                                                [&](const z3::expr& e) { return z3::eq(x, e); })) {
            return std::nullopt;
        }
    }
    return found ? std::optional<std::set<unsigned>>(literals) : std::nullopt;
}

/** The value of `c` where the literals of `assigned` (by id) take their values, if that
 *  decides it; the literals it read go to `consulted`. */
std::optional<bool> valueUnder(const z3::expr& c, const std::map<unsigned, bool>& assigned,
                               std::set<unsigned>& consulted) {
    if (c.is_true()) return true;
    if (c.is_false()) return false;
    if (const auto it = assigned.find(c.id()); it != assigned.end()) {
        consulted.insert(it->first);
        return it->second;
    }
    if (isOp(c, Z3_OP_NOT)) {
        const auto inner = valueUnder(c.arg(0), assigned, consulted);
        return inner ? std::optional<bool>(!*inner) : std::nullopt;
    }
    const bool conjunction = isOp(c, Z3_OP_AND);
    if (!conjunction && !isOp(c, Z3_OP_OR)) return std::nullopt;
    bool decided = true; // every operand decided, none deciding the whole
    for (unsigned i = 0; i < c.num_args(); ++i) {
        const auto v = valueUnder(c.arg(i), assigned, consulted);
        if (v && *v != conjunction)
            return !conjunction; // false in a conjunction, true in a disjunction
        decided = decided && v.has_value();
    }
    return decided ? std::optional<bool>(conjunction) : std::nullopt;
}

/** The pairs of `r` whose condition is true: in `r` in every execution. */
std::vector<std::pair<int, int>> surePairs(const Z3Rel& r) {
    std::vector<std::pair<int, int>> out;
    for (std::size_t a = 0; a < r.rows.size(); ++a)
        for (const auto& [b, c] : r.rows[a])
            if (c.is_true()) out.emplace_back(static_cast<int>(a), b);
    return out;
}

/**
 * The pairs of `r` in every execution under the default reading: with --readings' one
 * encoding, a pair another reading drops holds under a condition on that reading's literal,
 * never true, and a schedule re-sorted without such pairs broke an axiom under every reading,
 * leaving every reading's first execution to the solver (bench/history.md, 2026-12-04).
 */
std::vector<std::pair<int, int>> defaultSurePairs(const Z3Rel& r,
                                                  const std::map<unsigned, z3::expr>& readings) {
    if (readings.empty()) return surePairs(r);
    std::vector<std::pair<int, int>> out;
    std::set<unsigned> relied;
    for (std::size_t a = 0; a < r.rows.size(); ++a)
        for (const auto& [b, c] : r.rows[a])
            if (c.is_true() || holdsWith(c, c.ctx().bool_val(true), readings, relied))
                out.emplace_back(static_cast<int>(a), b);
    return out;
}

/**
 * Asserts the facts `facts` found, under `when`; returns how many. Each speaks of operations
 * that ran (`runs(op)`: it happens and, a wait, returned), and `misuseFree` are no misuse.
 */
template <class Runs>
std::size_t assertFacts(z3::solver& solver, const ProgramEncoder& pe,
                        const schedules::MbarrierFacts& facts, const std::set<int>& misuseFree,
                        const z3::expr& when, const Runs& runs) {
    std::size_t count = 0;
    for (const auto& [op, phases] : facts.phases) {
        z3::expr_vector any(solver.ctx());
        for (std::int64_t v : phases)
            any.push_back(pe.phaseBefore(op) == solver.ctx().int_val(static_cast<int64_t>(v)));
        solver.add(z3::implies(when && runs(op), z3::mk_or(any)));
        ++count;
    }
    for (int op : misuseFree) {
        solver.add(z3::implies(when && runs(op), !pe.misuse(op)));
        ++count;
    }
    for (const auto& [op, before] : facts.alwaysAfter)
        for (int a : before) {
            solver.add(z3::implies(when && runs(op),
                                   runs(a) && pe.mbPositions().at(a) < pe.mbPositions().at(op)));
            ++count;
        }
    return count;
}

/** One way through the program's choices that guard mbarrier operations and gates. */
struct Way {
    std::vector<bool> absent;                ///< by event: its guard fails (empty: no guard)
    std::vector<std::pair<int, bool>> taken; ///< (choice, went the 1 way)
};

/** Choices whose every combination the facts' search runs: 2^4 searches at most. */
constexpr std::size_t kMaxWayChoices = 4;

/** Collects the choices a guard depends on; false if it depends on anything else but
 *  constants (a read, a wait's result, a phase). */
bool choicesOf(const ir::Value& v, std::set<int>& out) {
    using Op = ir::Value::Op;
    if (v.op == Op::ReadOf || v.op == Op::WaitResult || v.op == Op::WaitReport ||
        v.op == Op::PhaseToken)
        return false;
    if (v.op == Op::Choice) out.insert(static_cast<int>(v.constant));
    return std::all_of(v.args.begin(), v.args.end(),
                       [&out](const ir::ValuePtr& a) { return choicesOf(*a, out); });
}

/** The guard's value where each choice went the way `taken` says. */
std::int64_t guardUnder(const ir::Value& v, const std::map<int, bool>& taken) {
    struct Sources {
        const std::map<int, bool>& taken;
        std::int64_t read(int) const { return 0; } // never: choicesOf checked the leaves
        bool waitSuccess(int) const { return false; }
        bool waitReport(int) const { return false; }
        std::int64_t phaseBefore(int) const { return 0; }
        bool choice(std::int64_t i) const { return taken.at(static_cast<int>(i)); }
    } src{taken};
    return ir::applyValue(ir::ConcreteValues{}, v, src,
                          [&](std::size_t i) { return guardUnder(*v.args.at(i), taken); });
}

/**
 * The ways the facts' search runs the program: one, with no event absent, where no guard
 * stands on an mbarrier operation or a gate; otherwise one per combination of the choices
 * (nondet.pred: a branch on a value the extraction could not decide) those guards depend on.
 * Empty (`why` says why) where a guard depends on anything else, or on too many choices.
 */
std::vector<Way> programWays(const ir::Program& p, std::string& why) {
    std::set<int> choices;
    std::vector<int> guarded;
    for (const ir::Event& e : p.events) {
        const bool scheduled = e.has(ir::Tag::MB) || ir::gateKind(e) != ir::GateKind::None;
        if (!e.guard || !scheduled) continue;
        if (!choicesOf(*e.guard, choices)) {
            why = "an mbarrier operation is guarded by a value read from memory";
            return {};
        }
        guarded.push_back(e.id);
    }
    if (guarded.empty()) return {Way{}};
    if (choices.size() > kMaxWayChoices) {
        why = "more than " + std::to_string(kMaxWayChoices) + " choices guard mbarrier operations";
        return {};
    }
    const std::vector<int> ids(choices.begin(), choices.end());
    std::vector<Way> ways;
    for (std::size_t bits = 0; bits < (std::size_t{1} << ids.size()); ++bits) {
        Way w;
        std::map<int, bool> taken;
        for (std::size_t k = 0; k < ids.size(); ++k) {
            taken[ids[k]] = ((bits >> k) & 1U) != 0;
            w.taken.emplace_back(ids[k], taken[ids[k]]);
        }
        w.absent.assign(p.events.size(), false);
        for (int e : guarded)
            w.absent[static_cast<std::size_t>(e)] =
                guardUnder(*p.events[static_cast<std::size_t>(e)].guard, taken) == 0;
        ways.push_back(std::move(w));
    }
    return ways;
}

/** Where the execution goes way `w`. */
z3::expr wayHolds(z3::context& ctx, const ProgramEncoder& pe, const Way& w) {
    z3::expr out = ctx.bool_val(true);
    for (const auto& [choice, one] : w.taken)
        out = out && (one ? pe.choiceTaken(static_cast<std::size_t>(choice))
                          : !pe.choiceTaken(static_cast<std::size_t>(choice)));
    return out;
}

/**
 * A schedule under both `order` and real time, for the concrete first run (smt/Z3Engine.cpp),
 * which needs one whose sequentially consistent run the whole model accepts: under the model's
 * order alone a thread's plain accesses of one location may run out of program order
 * (SC-per-Location fails), under real time alone an mma's tensor-memory accesses may run before
 * the pipelining order lets them (Tensor-Memory-Order fails); CUTLASS's 1-SM GEMM had both, and
 * its first execution then cost the solver 6-7 s. Empty where none is found.
 */
std::vector<int> bothOrders(const ir::Program& p, std::vector<std::pair<int, int>> order,
                            std::size_t maxStates, const Budget* budget) {
    const auto realTime = ir::realTimePairs(p);
    order.insert(order.end(), realTime.begin(), realTime.end());
    return schedules::firstSchedule(p, order, maxStates, budget).completeSchedule;
}

/**
 * `schedule` with its events moved as little as possible (each as early in it as it can run)
 * so that every pair of `order` runs in order, its mbarrier operations and its fence.sc kept in
 * their order (the waits still return, the fences' order stays). A schedule of the mbarrier
 * search follows the order of the axioms that contain the mbarrier order, and its sequentially
 * consistent run may break another axiom: where a full wait is on the wrong parity no schedule
 * under real time as well completes, and the search's own ran mmas' accumulator reads before
 * the previous mma's writes (Register-Order), leaving the first execution to the solver.
 * Real time is not added: the search's schedule need not follow it, and the axioms' certain
 * pairs are what the run must keep. `schedule` itself where these orders conflict.
 */
std::vector<int> respecting(const ir::Program& p, const std::vector<int>& schedule,
                            const std::vector<std::pair<int, int>>& order) {
    const std::size_t n = p.events.size();
    if (schedule.size() != n) return schedule;
    std::vector<std::vector<int>> succs(n);
    std::vector<int> preds(n, 0);
    auto edge = [&](int a, int b) {
        succs[static_cast<std::size_t>(a)].push_back(b);
        ++preds[static_cast<std::size_t>(b)];
    };
    for (const auto& [a, b] : order)
        edge(a, b);
    std::vector<std::size_t> at(n);
    int lastMb = -1, lastSc = -1;
    for (std::size_t i = 0; i < n; ++i) {
        const int e = schedule[i];
        at[static_cast<std::size_t>(e)] = i;
        const ir::Event& ev = p.events[static_cast<std::size_t>(e)];
        if (ev.has(ir::Tag::MB)) {
            if (lastMb >= 0) edge(lastMb, e);
            lastMb = e;
        }
        if (ev.has(ir::Tag::F) && ev.has(ir::Tag::SC)) {
            if (lastSc >= 0) edge(lastSc, e);
            lastSc = e;
        }
    }
    std::set<std::pair<std::size_t, int>> ready; // by position in `schedule`
    for (int e : schedule)
        if (preds[static_cast<std::size_t>(e)] == 0)
            ready.emplace(at[static_cast<std::size_t>(e)], e);
    std::vector<int> out;
    out.reserve(n);
    while (!ready.empty()) {
        const int e = ready.begin()->second;
        ready.erase(ready.begin());
        out.push_back(e);
        for (int b : succs[static_cast<std::size_t>(e)])
            if (--preds[static_cast<std::size_t>(b)] == 0)
                ready.emplace(at[static_cast<std::size_t>(b)], b);
    }
    return out.size() == n ? out : schedule;
}

/** Asserts the facts of one search, of one way, under `base` (and the way, and none of its
 *  first misuses being misuse); counts them in `out`, and keeps them for the flags' bounds. */
void assertSearched(z3::solver& solver, const ProgramEncoder& pe, schedules::MbarrierFacts facts,
                    const z3::expr& base, const Way& way, bool oneWay, MbarrierFactsSummary& out,
                    std::vector<FactsUnder>* found) {
    out.states += facts.states;
    out.explored = out.explored || facts.known;
    if (!facts.known) out.why = facts.why; // the reason of a search that gave up
    out.misusesPast += facts.misusesPast.size();
    out.misusesLeft += facts.firstMisuses.size();
    // Gone past or not, the search ended a schedule at a misuse after which some
    // spinning wait never returns (none where `progress` holds) or, not going past, at
    // one of firstMisuses (a premise).
    z3::expr beforeMisuse = solver.ctx().bool_val(true);
    for (int op : facts.firstMisuses)
        beforeMisuse = beforeMisuse && !pe.misuse(op);
    const z3::expr when = base && beforeMisuse && wayHolds(solver.ctx(), pe, way);
    // Every event of the way happens and every wait returns where `progress` holds.
    out.facts += assertFacts(solver, pe, facts, facts.misuseFree, when,
                             [&solver](int) { return solver.ctx().bool_val(true); });
    if (found != nullptr && oneWay) found->push_back({std::move(facts), when});
}

} // namespace

MbarrierFactsPlan::MbarrierFactsPlan(const std::vector<z3::expr>& readingLiterals) {
    for (const z3::expr& l : readingLiterals)
        readings_.emplace(l.id(), l);
}

void MbarrierFactsPlan::addAcyclic(const ProgramEncoder& pe, const Z3Rel& r, const z3::expr& lit) {
    if (pe.mbPositions().empty()) return void(why_ = "no mbarrier operations");
    const std::vector<std::pair<int, int>> certain = defaultSurePairs(r, readings_);
    certainOrder_.insert(certainOrder_.end(), certain.begin(), certain.end());
    std::set<unsigned> relied;
    if (!containsMbarrierOrder(pe, r, readings_, relied)) return;
    // Where the containment relied on a reading's literal being false, the facts hold only
    // under the readings that leave it false.
    z3::expr when = lit;
    for (unsigned id : relied)
        when = when && !readings_.at(id);
    orders_.push_back({when, surePairs(r), containsObservations(r)});
}

void MbarrierFactsPlan::addPerObjectOrder(const ProgramEncoder& pe, const Z3Rel& m,
                                          const Z3Rel& xBase, const z3::expr& lit) {
    std::optional<std::set<unsigned>> literals; // the same for every pair, or no facts
    const bool each = everyObjectPair(pe, m, [&](int a, int b, const z3::expr& c) {
        const auto beside =
            readingsBeside(c, pe.mbOrder(a, b), {pe.exists(a), pe.exists(b)}, readings_);
        if (!beside || (literals && *literals != *beside)) return false;
        literals = beside;
        return true;
    });
    if (!each || !literals) return; // no object with two operations: nothing to order
    // Under --readings' one encoding, the reading those literals make (each other one false):
    // `xBase`'s pairs certain there, the facts asserted where the literals they read have those
    // values (and only those: a literal in the encoding makes its reading ask its own queries).
    std::map<unsigned, bool> reading;
    for (const auto& [id, l] : readings_)
        reading[id] = literals->count(id) > 0;
    std::set<unsigned> consulted(literals->begin(), literals->end());
    std::vector<std::pair<int, int>> certain;
    for (std::size_t a = 0; a < xBase.rows.size(); ++a)
        for (const auto& [b, c] : xBase.rows[a])
            if (valueUnder(c, reading, consulted) == std::optional<bool>(true))
                certain.emplace_back(static_cast<int>(a), b);
    z3::expr when = lit;
    for (unsigned id : consulted)
        when = when && (reading.at(id) ? readings_.at(id) : !readings_.at(id));
    perObject_.push_back({when, std::move(certain), containsObservations(xBase)});
}

bool MbarrierFactsPlan::containsObservations(const Z3Rel& r) const {
    std::set<unsigned> relied;
    for (std::size_t a = 0; a < mbObs_.rows.size(); ++a)
        for (const auto& [b, c] : mbObs_.rows[a]) {
            const auto& row = r.rows.at(a);
            const auto it = row.find(b);
            if (c.is_false()) continue;
            if (it == row.end() || !holdsWith(it->second, c, {}, relied)) return false;
        }
    return true;
}

void MbarrierFactsPlan::addMboCoherence(const ProgramEncoder& pe, const Z3Rel& x,
                                        const z3::expr& lit) {
    const auto& events = pe.program().events;
    const auto& positions = pe.mbPositions();
    std::size_t before = coherent_.size();
    for (const auto& [a, b] : surePairs(x))
        if (a != b && positions.count(a) && positions.count(b) &&
            events[static_cast<std::size_t>(a)].location ==
                events[static_cast<std::size_t>(b)].location)
            coherent_.emplace_back(a, b);
    if (coherent_.size() > before) coherenceLits_.push_back(lit);
}

MbarrierFactsSummary
MbarrierFactsPlan::assertAll(z3::solver& solver, const ProgramEncoder& pe, const z3::expr& progress,
                             std::size_t maxStates, const Budget* budget,
                             std::vector<FactsUnder>* found,
                             const std::function<bool()>& wholeSearchTooLarge) const {
    MbarrierFactsSummary out;
    out.why = orders_.empty() && perObject_.empty() ? why_ : std::string();
    const std::vector<Way> ways = programWays(pe.program(), out.why);
    // One way with no event absent: the facts hold in every execution (the flags' bounds
    // read them so); with choices, each way's only where the execution goes it.
    const bool oneWay = ways.size() == 1 && ways[0].absent.empty();
    z3::expr coherent = solver.ctx().bool_val(true);
    for (const z3::expr& lit : coherenceLits_)
        coherent = coherent && lit;
    for (const Order& o : orders_) {
        std::vector<std::pair<int, int>> order = o.pairs;
        order.insert(order.end(), coherent_.begin(), coherent_.end());
        if (oneWay && out.completeSchedule.empty())
            out.completeSchedule = bothOrders(pe.program(), order, maxStates, budget);
        for (const Way& way : ways) {
            // Left out where the search of every real-time schedule passed its limit: then
            // `facts` gave up (known false), and each object's own search follows.
            schedules::MbarrierFacts facts;
            if (!(oneWay && wholeSearchTooLarge && wholeSearchTooLarge()))
                facts =
                    schedules::observeMbarriers(pe.program(), order, maxStates, budget,
                                                schedules::Reduction::PersistentSets, way.absent);
            else
                facts.why = "every real-time schedule passed the search's limit";
            if (oneWay && out.completeSchedule.empty())
                out.completeSchedule = facts.completeSchedule;
            if (oneWay && out.misuseSchedule.empty()) out.misuseSchedule = facts.misuseSchedule;
            // Past the search's limit, each object on its own under the same order: weaker
            // facts, and they hold here too (the axiom's relation and mbo have no cycle, and
            // the mb-obs pairs the rounds add are pairs of it).
            if (!facts.known) {
                const std::size_t joint = facts.states;
                facts = schedules::observeEachObject(pe.program(), order, {}, o.observed, maxStates,
                                                     budget, way.absent);
                facts.states += joint;
            }
            assertSearched(solver, pe, std::move(facts), o.lit && coherent && progress, way, oneWay,
                           out, found);
        }
    }
    // Each object on its own, with its own coherence pairs (edges of its own mbo); another
    // object's would order operations the object's order need not respect.
    for (const Order& o : perObject_) {
        // With no order over every object (decision Q22's variant), the first schedule for the
        // concrete first run comes from one of these: the run is checked, so any will do.
        if (oneWay && out.completeSchedule.empty()) {
            std::vector<std::pair<int, int>> order = o.pairs;
            order.insert(order.end(), coherent_.begin(), coherent_.end());
            out.completeSchedule = bothOrders(pe.program(), order, maxStates, budget);
        }
        for (const Way& way : ways)
            assertSearched(solver, pe,
                           schedules::observeEachObject(pe.program(), o.pairs, coherent_,
                                                        o.observed, maxStates, budget, way.absent),
                           o.lit && coherent && progress, way, oneWay, out, found);
    }
    out.completeSchedule = respecting(pe.program(), out.completeSchedule, certainOrder_);
    out.misuseSchedule = respecting(pe.program(), out.misuseSchedule, certainOrder_);
    return out;
}

namespace {

/** assertHangFacts for one way of the program's choices. */
void assertHangFactsOf(z3::solver& solver, const ProgramEncoder& pe, const Way& way,
                       std::size_t maxStates, const Budget* budget, MbarrierFactsSummary& out) {
    const ir::Program& p = pe.program();
    schedules::MbarrierFacts facts =
        schedules::observeMbarriers(p, ir::realTimePairs(p), maxStates, budget,
                                    schedules::Reduction::PersistentSets, way.absent);
    out.states += facts.states;
    out.explored = out.explored || facts.known;
    if (way.absent.empty()) // with a way's events absent, no hint covers the whole program
        out.hangSchedules.insert(out.hangSchedules.end(), facts.hangSchedules.begin(),
                                 facts.hangSchedules.end());
    if (!facts.known) return void(out.why = facts.why);
    if (!facts.misuseKnown) return void(out.why = "a wait's operand depends on the execution");
    // A cta_group::2 alloc or dealloc runs in the search without its peer, so an execution
    // where one waits for its peer forever stops short of a state the search must reach.
    const bool peers = std::any_of(p.events.begin(), p.events.end(),
                                   [](const ir::Event& e) { return e.peerEvent >= 0; });
    if (peers && !facts.endedAt.empty())
        return void(out.why = "a cta_group::2 pair, and a schedule ends at a misuse");
    z3::expr when = wayHolds(solver.ctx(), pe, way);
    for (int op : facts.endedAt)
        when = when && !pe.misuse(op);
    out.misusesPast += facts.misusesPast.size();
    out.misusesLeft += facts.endedAt.size();
    // Ops no step made misuse; those that ended a schedule are no misuse under `when`.
    const std::set<int>& misuseFree = facts.misuseFree;
    const auto runs = [&pe](int op) {
        const auto b = pe.blocked().find(op);
        return b == pe.blocked().end() ? pe.exists(op) : pe.exists(op) && !b->second;
    };
    out.facts += assertFacts(solver, pe, facts, misuseFree, when, runs);
    // Where no cta_group::2 pair is, an execution's end is a state the search reached. A
    // guarded gate is left out: the encoding may count a bar.sync whose guard fails as stuck.
    if (!peers)
        for (const auto& [gate, stuck] : pe.stuckGates())
            if (!facts.leftAtEnd.count(gate) && !p.events[static_cast<std::size_t>(gate)].guard) {
                solver.add(z3::implies(when, !stuck));
                ++out.facts;
            }
}

} // namespace

MbarrierFactsSummary assertHangFacts(z3::solver& solver, const ProgramEncoder& pe,
                                     std::size_t maxStates, const Budget* budget) {
    MbarrierFactsSummary out;
    if (pe.mbPositions().empty()) return out.why = "no mbarrier operations", out;
    for (const Way& way : programWays(pe.program(), out.why))
        assertHangFactsOf(solver, pe, way, maxStates, budget, out);
    return out;
}

} // namespace ptxmc::engine::smt
