// Asserts the mbarrier facts of the order an acyclicity axiom surely contains (MbarrierFacts.hpp).
#include "smt/MbarrierFacts.hpp"

#include "ir/Gates.hpp"
#include "smt/Schedules.hpp"

#include <algorithm>
#include <map>
#include <set>
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

/** Every mbo pair of the program is a pair of `r` whenever it holds (under the default reading,
 *  relying on the reading literals put in `relied`). */
bool containsMbarrierOrder(const ProgramEncoder& pe, const Z3Rel& r,
                           const std::map<unsigned, z3::expr>& readings,
                           std::set<unsigned>& relied) {
    const auto& positions = pe.mbPositions();
    const auto& events = pe.program().events;
    for (const auto& [a, pa] : positions)
        for (const auto& [b, pb] : positions) {
            if (a == b || events[static_cast<std::size_t>(a)].location !=
                              events[static_cast<std::size_t>(b)].location)
                continue;
            const auto& row = r.rows[static_cast<std::size_t>(a)];
            auto it = row.find(b);
            if (it == row.end() || !holdsWith(it->second, pe.mbOrder(a, b), readings, relied))
                return false;
        }
    return true;
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

} // namespace

MbarrierFactsPlan::MbarrierFactsPlan(const std::vector<z3::expr>& readingLiterals) {
    for (const z3::expr& l : readingLiterals)
        readings_.emplace(l.id(), l);
}

void MbarrierFactsPlan::addAcyclic(const ProgramEncoder& pe, const Z3Rel& r, const z3::expr& lit) {
    if (pe.mbPositions().empty()) return void(why_ = "no mbarrier operations");
    std::set<unsigned> relied;
    if (!containsMbarrierOrder(pe, r, readings_, relied)) return;
    // Where the containment relied on a reading's literal being false, the facts hold only
    // under the readings that leave it false.
    z3::expr when = lit;
    for (unsigned id : relied)
        when = when && !readings_.at(id);
    orders_.push_back({when, surePairs(r)});
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

MbarrierFactsSummary MbarrierFactsPlan::assertAll(z3::solver& solver, const ProgramEncoder& pe,
                                                  const z3::expr& progress, std::size_t maxStates,
                                                  const Budget* budget,
                                                  std::vector<FactsUnder>* found) const {
    MbarrierFactsSummary out;
    out.why = orders_.empty() ? why_ : std::string();
    z3::expr coherent = solver.ctx().bool_val(true);
    for (const z3::expr& lit : coherenceLits_)
        coherent = coherent && lit;
    for (const Order& o : orders_) {
        std::vector<std::pair<int, int>> order = o.pairs;
        order.insert(order.end(), coherent_.begin(), coherent_.end());
        schedules::MbarrierFacts facts =
            schedules::observeMbarriers(pe.program(), order, maxStates, budget);
        out.states += facts.states;
        if (out.completeSchedule.empty())
            out.completeSchedule = bothOrders(pe.program(), order, maxStates, budget);
        if (out.completeSchedule.empty()) out.completeSchedule = facts.completeSchedule;
        out.explored = out.explored || facts.known;
        if (!facts.known) out.why = facts.why; // the reason of a search that gave up
        out.firstMisuses += facts.firstMisuse.size();
        z3::expr beforeMisuse = solver.ctx().bool_val(true);
        for (int op : facts.firstMisuse)
            beforeMisuse = beforeMisuse && !pe.misuse(op);
        const z3::expr when = o.lit && coherent && progress && beforeMisuse;
        // Every event happens and every wait returns where `progress` holds.
        out.facts += assertFacts(solver, pe, facts, facts.misuseFree, when,
                                 [&solver](int) { return solver.ctx().bool_val(true); });
        if (found != nullptr) found->push_back({std::move(facts), when});
    }
    return out;
}

MbarrierFactsSummary assertHangFacts(z3::solver& solver, const ProgramEncoder& pe,
                                     std::size_t maxStates, const Budget* budget) {
    MbarrierFactsSummary out;
    const ir::Program& p = pe.program();
    if (pe.mbPositions().empty()) return out.why = "no mbarrier operations", out;
    schedules::MbarrierFacts facts =
        schedules::observeMbarriers(p, ir::realTimePairs(p), maxStates, budget);
    out.states = facts.states;
    out.explored = facts.known;
    if (!facts.known) return out.why = facts.why, out;
    if (!facts.misuseKnown) return out.why = "a wait's operand depends on the execution", out;
    // A cta_group::2 alloc or dealloc runs in the search without its peer, so an execution
    // where one waits for its peer forever stops short of a state the search must reach.
    const bool peers = std::any_of(p.events.begin(), p.events.end(),
                                   [](const ir::Event& e) { return e.peerEvent >= 0; });
    if (peers && !facts.endedAt.empty())
        return out.why = "a cta_group::2 pair, and a schedule ends at a misuse", out;
    z3::expr beforeMisuse = solver.ctx().bool_val(true);
    for (int op : facts.endedAt)
        beforeMisuse = beforeMisuse && !pe.misuse(op);
    out.firstMisuses = facts.endedAt.size();
    std::set<int> misuseFree;
    for (const auto& [op, position] : pe.mbPositions())
        if (!facts.endedAt.count(op)) misuseFree.insert(op);
    const auto runs = [&pe](int op) {
        const auto b = pe.blocked().find(op);
        return b == pe.blocked().end() ? pe.exists(op) : pe.exists(op) && !b->second;
    };
    out.facts = assertFacts(solver, pe, facts, misuseFree, beforeMisuse, runs);
    // Where no cta_group::2 pair is, an execution's end is a state the search reached.
    if (!peers)
        for (const auto& [gate, stuck] : pe.stuckGates())
            if (!facts.leftAtEnd.count(gate)) {
                solver.add(z3::implies(beforeMisuse, !stuck));
                ++out.facts;
            }
    return out;
}

} // namespace ptxmc::engine::smt
