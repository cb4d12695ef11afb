// The Z3 engine: encode program + model, then enumerate every allowed final state.
#include "smt/Z3Engine.hpp"

#include "engine/ResultBuilder.hpp"
#include "ir/Gates.hpp"
#include "smt/Z3Session.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <mutex>
#include <set>

namespace ptxmc::engine::smt {

using report::CheckResult;
using report::Observation;

namespace {

void unknownResult(CheckResult& r, z3::solver& s) {
    r.observation = Observation::Unknown;
    r.unknownReason = s.reason_unknown();
    r.states.clear();
}

/** Which blocking waits can never succeed (each alone); all of them if only jointly. */
std::vector<std::string> blockedWaits(Z3Session& s, const ir::Program& p) {
    std::vector<std::string> out;
    z3::expr_vector axioms = s.assumptions(false);
    for (const auto& [event, success] : s.encoder().blockingWaits())
        if (s.check(withLiteral(axioms, success)) == z3::unsat)
            out.push_back(describeEvent(p, event));
    if (out.empty())
        for (const auto& [event, success] : s.encoder().blockingWaits())
            out.push_back(describeEvent(p, event, "only jointly"));
    return out;
}

/** One solver answer per distinct final state, each excluded by a blocking clause. */
void enumerate(CheckResult& r, Z3Session& s, const ir::Program& p) {
    std::set<std::vector<std::int64_t>> seen;
    z3::expr_vector assumptions = s.assumptions(true);
    while (true) {
        z3::check_result res = s.check(assumptions);
        if (res == z3::unknown) return unknownResult(r, s.solver());
        if (res == z3::unsat) break;
        z3::model m = s.solver().get_model();
        std::vector<std::int64_t> values;
        z3::expr_vector differs(s.ctx());
        for (const auto& e : s.observed()) {
            std::int64_t v = modelValue(m, e);
            values.push_back(v);
            differs.push_back(e != s.ctx().bv_val(static_cast<int64_t>(v), 32));
        }
        if (!seen.insert(values).second) throw std::logic_error("blocking clause failed");
        if (differs.empty()) break; // nothing observed: one (empty) state
        s.solver().add(z3::mk_or(differs));
    }
    setStates(r, p, seen);
}

/** Deadlock, Unknown or nothing special; fills `r` and returns true when the test stops here. */
bool stopsEarly(CheckResult& r, Z3Session& s, const ir::Program& p) {
    z3::check_result any = s.check(s.assumptions(false));
    if (any == z3::unknown) {
        unknownResult(r, s.solver());
        return true;
    }
    if (any == z3::unsat) {
        // Unless executions exist that the unroll bound or a spin left out.
        if (!p.cuts.empty() &&
            s.check(withLiteral(s.assumptions(false, {}, true, true), s.anyCut())) == z3::sat) {
            r.observation = Observation::Unknown;
            r.unknownReason = noExecutionWithinBound(p);
            return true;
        }
        // The model forbids every execution: herd7's States 0, and the axioms that do it.
        std::vector<std::string> forbidding;
        for (const auto& [name, lit] : s.axioms()) {
            z3::check_result without = s.check(s.assumptions(false, {name}));
            if (without == z3::unknown) {
                unknownResult(r, s.solver());
                return true;
            }
            if (without == z3::sat) forbidding.push_back(name);
        }
        std::sort(forbidding.begin(), forbidding.end());
        setStates(r, p, {});
        r.forbiddenBy = forbidding;
        return true;
    }
    z3::check_result live = s.check(s.assumptions(true));
    if (live == z3::unknown) {
        unknownResult(r, s.solver());
        return true;
    }
    if (live == z3::unsat) {
        r.observation = Observation::Deadlock;
        r.deadlockedWaits = blockedWaits(s, p);
        return true;
    }
    return false;
}

/** The first witness of a flag that holds in `m`. */
std::vector<int> witnessIn(const z3::model& m, const Z3Session::Witnesses& candidates) {
    for (const auto& [events, cond] : candidates)
        if (m.eval(cond, true).is_true()) return events;
    return {};
}

/**
 * Flags raised by the executions `base` allows (plus `extra`), skipping those already raised.
 * Returns false when the solver gives up (r is then Unknown).
 */
bool collectFlags(CheckResult& r, Z3Session& s, const z3::expr_vector& base,
                  FlagWitnesses& raised) {
    for (std::size_t i = 0; i < s.flags().size(); ++i) {
        const auto& [name, cond] = s.flags()[i];
        if (raised.count(name)) continue;
        z3::check_result fr = s.check(withLiteral(base, cond));
        if (fr == z3::unknown) {
            unknownResult(r, s.solver());
            return false;
        }
        if (fr == z3::sat)
            raised[name].insert(witnessIn(s.solver().get_model(), s.flagWitnesses()[i]));
    }
    return true;
}

/**
 * A cheap necessary condition: can the program's semantics alone (no model axioms, so fewer
 * constraints; real time included) let some gate hold its thread forever? Counting arrivals
 * in real time rules hangs out for correct protocols in well under a second, where the
 * query with the model takes a minute on the kernel protocols; unknown counts as "maybe".
 */
bool programMayHang(z3::context& ctx, const ir::Program& p, const Budget& budget) {
    ProgramEncoder pe(ctx, p, true, &budget);
    z3::solver s(ctx);
    z3::params params(ctx);
    if (budget.timed()) params.set("timeout", budget.millisLeft());
    s.set(params);
    for (unsigned i = 0; i < pe.constraints().size(); ++i) {
        if ((i & 255U) == 0) budget.poll();
        s.add(pe.constraints()[i]);
    }
    z3::expr_vector stuck(ctx);
    for (const auto& [g, b] : pe.stuckGates())
        stuck.push_back(b);
    s.add(z3::mk_or(stuck));
    return s.check() != z3::unsat;
}

/**
 * Into `found`, the key of every candidate condition that holds in some execution `base`
 * allows: one query per batch of new ones, each asking for any candidate not found yet.
 * Returns false when the solver gives up (r is then Unknown).
 */
template <class Key, class Candidates>
bool everyPossible(CheckResult& r, Z3Session& s, const z3::expr_vector& base,
                   const Candidates& candidates, std::set<Key>& found) {
    while (true) {
        z3::expr_vector open(s.ctx());
        for (const auto& [k, b] : candidates)
            if (!found.count(k)) open.push_back(b);
        if (open.empty()) return true;
        z3::check_result res = s.check(withLiteral(base, z3::mk_or(open)));
        if (res == z3::unknown) {
            unknownResult(r, s.solver());
            return false;
        }
        if (res == z3::unsat) return true;
        z3::model m = s.solver().get_model();
        for (const auto& [k, b] : candidates)
            if (m.eval(b, true).is_true()) found.insert(k);
    }
}

/**
 * Executions that block forever (a second encoding where waits may block and what follows a
 * blocked gate does not happen): every wait that can block, and the flags those executions
 * raise. Returns false when the solver gives up.
 */
bool findHangs(CheckResult& r, z3::context& ctx, const ir::Program& p,
               const cat::ResolvedModel& model, const CheckOptions& options, const Budget& budget,
               FlagWitnesses& raised, std::size_t& queries) {
    if (ir::chosenGates(p).empty() || !programMayHang(ctx, p, budget)) return true;
    Z3Session h(ctx, p, model, options, true, &budget);
    struct CountOnExit { // the hang session's queries, whichever way this returns
        std::size_t& to;
        const Z3Session& from;
        ~CountOnExit() { to += from.queries(); }
    } count{queries, h};
    z3::expr_vector base = h.assumptions(false);
    std::set<int> hanging;
    if (!everyPossible(r, h, base, h.encoder().stuckGates(), hanging)) return false;
    for (int g : hanging)
        raised[kHangFlag].insert({g});
    if (hanging.empty()) return true;
    z3::expr_vector any(ctx);
    for (const auto& [w, b] : h.encoder().blocked())
        any.push_back(b);
    return collectFlags(r, h, withLiteral(base, z3::mk_or(any)), raised);
}

/**
 * Which loops some allowed execution goes round more often than the unroll bound (ir::Cut).
 * Asked before enumeration, whose blocking clauses would hide executions. False when the
 * solver gives up.
 */
bool findBoundReached(CheckResult& r, Z3Session& s, std::set<std::size_t>& reached) {
    return everyPossible(r, s, s.assumptions(true, {}, true), s.boundCuts(), reached);
}

/** Every query of one test, in order; stops where the answer is complete or Unknown. */
void runQueries(CheckResult& r, z3::context& ctx, Z3Session& s, const ir::Program& p,
                const cat::ResolvedModel& model, const CheckOptions& options, const Budget& budget,
                std::size_t& hangQueries) {
    std::set<std::size_t> beyond;
    if (stopsEarly(r, s, p)) {
        if (r.observation == Observation::Deadlock && findBoundReached(r, s, beyond))
            setBoundReached(r, p, beyond);
        return;
    }
    // Flags first: enumeration adds blocking clauses that would hide executions.
    FlagWitnesses raised;
    if (!collectFlags(r, s, s.assumptions(true), raised)) return;
    if (!findBoundReached(r, s, beyond)) return;
    enumerate(r, s, p);
    if (r.observation == Observation::Unknown) return;
    if (!findHangs(r, ctx, p, model, options, budget, raised, hangQueries)) return;
    setFlags(r, p, model, raised);
    setBoundReached(r, p, beyond);
}

double secondsBetween(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

/** --stats: the main encoding's size and relations, the phases' times, Z3's own counters. */
report::Stats statsOf(Z3Session& s, const ir::Program& p, std::size_t hangQueries,
                      const std::array<Clock::time_point, 4>& at) {
    report::Stats st;
    st.threads = p.threads.size();
    st.events = p.events.size();
    st.lowerSeconds = secondsBetween(at[0], at[1]);
    st.encodeSeconds = secondsBetween(at[1], at[2]);
    st.solveSeconds = secondsBetween(at[2], at[3]);
    st.queries = s.queries() + hangQueries;
    countEncoding(s.solver(), st);
    st.relations = s.relationSizes();
    z3::stats z = s.solver().statistics();
    for (unsigned i = 0; i < z.size(); ++i)
        st.solver.emplace_back(z.key(i), z.is_uint(i) ? std::to_string(z.uint_value(i))
                                                      : fmt::format("{:.2f}", z.double_value(i)));
    return st;
}

} // namespace

/** Z3's allocator cap is one per process: the first check's --memory-limit sets it. */
static void capZ3Memory(std::size_t mib) {
    static std::once_flag once;
    std::call_once(once, [mib] {
        if (mib > 0)
            z3::set_param("memory_max_size",
                          static_cast<int>(std::min<std::size_t>(mib, 1U << 30U)));
    });
}

void Z3Engine::search(const ir::Program& program, const cat::ResolvedModel& model,
                      const CheckOptions& options, Clock::time_point start, CheckResult& r) const {
    capZ3Memory(options.memoryLimitMiB);
    // Z3 bounds each query by the limit; the caller holds the test as a whole to it.
    z3::context ctx;
    const Clock::time_point began = Clock::now();
    const Budget budget(options, start);
    try {
        Z3Session s(ctx, program, model, options, false, &budget);
        const Clock::time_point encoded = Clock::now();
        std::size_t hangQueries = 0;
        runQueries(r, ctx, s, program, model, options, budget, hangQueries);
        if (options.stats)
            r.stats = statsOf(s, program, hangQueries, {start, began, encoded, Clock::now()});
    } catch (const z3::exception& e) {
        r.observation = Observation::Unknown;
        r.unknownReason = std::string("Z3: ") + e.msg();
        if (r.unknownReason.find("out of memory") != std::string::npos)
            r.unknownReason = fmt::format("memory limit: Z3 passed --memory-limit {} MiB ({})",
                                          options.memoryLimitMiB, r.unknownReason);
        r.states.clear();
    }
}

} // namespace ptxmc::engine::smt
