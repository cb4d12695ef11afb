// The Z3 engine: encode program + model, then enumerate every allowed final state.
#include "smt/Z3Engine.hpp"

#include "engine/ResultBuilder.hpp"
#include "engine/ScheduledRun.hpp"
#include "ir/Gates.hpp"
#include "smt/HangProof.hpp"
#include "smt/Schedules.hpp"
#include "smt/Z3Session.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <fmt/format.h>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <tuple>

namespace ptxmc::engine::smt {

using engine::CheckResult;
using engine::Observation;

namespace {

void unknownResult(CheckResult& r, z3::solver& s) {
    r.observation = Observation::Unknown;
    r.unknownReason = z3Words(s.reason_unknown());
    r.states.clear();
}

/** Deadlock: the blocking waits that can never succeed (each alone). */
void setBlockedWaits(CheckResult& r, Z3Session& s, const ir::Program& p) {
    const auto& blocking = s.encoder().blockingWaits();
    std::vector<int> waits;
    for (const auto& [event, success] : blocking)
        waits.push_back(event);
    z3::expr_vector axioms = s.assumptions(false);
    setDeadlock(r, p, waits, [&](std::size_t i) {
        return s.check(withLiteral(axioms, blocking[i].second), "deadlocked waits") == z3::unsat;
    });
}

/** The final state of `m`: the observed values, in order. */
std::vector<std::int64_t> stateOf(Z3Session& s, const z3::model& m) {
    std::vector<std::int64_t> values;
    for (const auto& e : s.observed())
        values.push_back(modelValue(m, e));
    return values;
}

/** The first witness of a flag that holds in `m`. */
std::vector<int> witnessIn(const z3::model& m, const Z3Session::Witnesses& candidates) {
    for (const auto& [events, cond] : candidates)
        if (m.eval(cond, true).is_true()) return events;
    return {};
}

/**
 * What every allowed execution the solver returns shows for free: its final state and the
 * flags it raises. Each such model saves the query that would otherwise look for it.
 */
struct Harvest {
    std::set<std::vector<std::int64_t>> states;
    FlagWitnesses raised;
    /// each raised flag's session, and whether the executions that raised it may hang
    std::map<std::string, std::pair<Z3Session*, bool>> raisedIn;

    /** `finalState`: `m` is an execution that completes within the bound. */
    void take(Z3Session& s, const z3::model& m, bool finalState = true) {
        if (finalState) states.insert(stateOf(s, m));
        for (std::size_t i = 0; i < s.flags().size(); ++i) {
            const auto& [name, cond] = s.flags()[i];
            if (raised.count(name) || !m.eval(cond, true).is_true()) continue;
            raised[name].insert(witnessIn(m, s.flagWitnesses()[i]));
            raisedIn.emplace(name, std::make_pair(&s, !finalState));
        }
    }
};

/**
 * One solver answer per distinct final state, each excluded by a blocking clause; the states
 * already found are excluded first.
 */
void enumerate(CheckResult& r, Z3Session& s, const ir::Program& p, Harvest& found) {
    // The blocking clauses hold only under this enumeration's own literal, so that a later
    // reading enumerates on the same solver (keeping what it learned) without them.
    const z3::expr active(s.ctx(), Z3_mk_fresh_const(s.ctx(), "enumeration", s.ctx().bool_sort()));
    z3::expr_vector assumptions = withLiteral(s.assumptions(true), active);
    auto exclude = [&](const std::vector<std::int64_t>& values) {
        z3::expr_vector differs(s.ctx());
        for (std::size_t i = 0; i < values.size(); ++i)
            differs.push_back(s.observed()[i] !=
                              s.ctx().bv_val(static_cast<int64_t>(values[i]),
                                             s.observed()[i].get_sort().bv_size()));
        if (!differs.empty()) s.solver().add(z3::implies(active, z3::mk_or(differs)));
    };
    for (const auto& values : found.states)
        exclude(values);
    // With nothing observed there is one (empty) state, found by the first query already.
    while (!s.observed().empty()) {
        z3::check_result res = s.check(assumptions, "states");
        if (res == z3::unknown) return unknownResult(r, s.solver());
        if (res == z3::unsat) break;
        std::vector<std::int64_t> values = stateOf(s, s.solver().get_model());
        if (!found.states.insert(values).second) throw std::logic_error("blocking clause failed");
        exclude(values);
    }
    setStates(r, p, found.states);
}

/** The model forbids every execution: herd7's States 0, and the axioms that do it. */
void noExecution(CheckResult& r, Z3Session& s, const ir::Program& p) {
    std::vector<std::string> forbidding;
    for (const auto& [name, lit] : s.axioms()) {
        z3::check_result without = s.checkWithout(name, "forbidding axioms");
        if (without == z3::unknown) return unknownResult(r, s.solverWithout(name));
        if (without == z3::sat) forbidding.push_back(name);
    }
    setNoExecution(r, p, std::move(forbidding));
}

/**
 * A schedule the exploration ran to the end is a sequentially consistent execution. Run
 * concretely and checked by the explicit evaluator (engine/ScheduledRun.hpp), it gives the
 * first state and its flags without the solver: a first model costs Z3 a decision on every
 * fresh condition, and the phases it saves slowed the later proofs (ring 2x32: 7-11 s for the
 * model, the tmem-race proof 9.5 s after it and 0.7 s without; bench/history.md).
 */
bool ranConcretely(Harvest& found, const ir::Program& p, const ConcreteModel& model,
                   const std::optional<cat::ReadingId>& reading, const std::vector<int>& schedule,
                   std::vector<engine::QueryTime>* times,
                   const char* what = "first execution, run concretely") {
    if (schedule.empty()) return false;
    const auto began = std::chrono::steady_clock::now();
    std::optional<ScheduledRun> run = runSchedule(p, model, reading, schedule);
    if (times != nullptr)
        recordQuery(
            *times, what, run ? z3::sat : z3::unknown,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
    if (!run) return false;
    found.states.insert(run->state);
    for (const auto& [name, witnesses] : run->flags)
        found.raised[name].insert(witnesses.begin(), witnesses.end());
    return true;
}

/**
 * Deadlock, Unknown or nothing special; fills `r` and returns true when the test stops here.
 * The first query asks for an execution that completes: its answer is the usual one and its
 * model a first state, so executions that need not complete are asked about only when none does.
 */
bool stopsEarly(CheckResult& r, Z3Session& s, const ir::Program& p, Harvest& found,
                const std::vector<int>& schedule) {
    // With the schedule's choices assumed the solver only checks them against the model, where
    // alone it searches the mbarriers' orders. A hint the model rejects (or that the solver
    // cannot settle) costs that one query, then the usual one follows.
    if (!schedule.empty() && s.check(withAll(s.assumptions(true), s.encoder().choicesOf(schedule)),
                                     "first execution, scheduled") == z3::sat) {
        found.take(s, s.solver().get_model());
        return false;
    }
    z3::check_result live = s.check(s.assumptions(true), "first execution");
    if (live == z3::sat) {
        found.take(s, s.solver().get_model());
        return false;
    }
    if (live == z3::unknown) {
        unknownResult(r, s.solver());
        return true;
    }
    // Executions that need not make progress: not on mb-obs pairs decided under it.
    Z3Session& e = s.exact();
    z3::check_result any = e.check(e.assumptions(false), "deadlock");
    if (any == z3::unknown) {
        unknownResult(r, e.solver());
        return true;
    }
    if (any == z3::sat) {
        setBlockedWaits(r, e, p);
        return true;
    }
    // Unless executions exist that the unroll bound or a spin left out.
    if (!p.cuts.empty() && e.check(withLiteral(e.assumptions(false, {}, true, true), e.anyCut()),
                                   "unroll bound") == z3::sat) {
        r.observation = Observation::Unknown;
        r.unknownReason = noExecutionWithinBound(p);
        return true;
    }
    noExecution(r, s, p);
    return true;
}

/**
 * Flags raised by the executions `base` allows (plus `extra`), skipping those already raised.
 * Returns false when the solver gives up (r is then Unknown).
 */
bool collectFlags(CheckResult& r, Z3Session& s, const z3::expr_vector& base, Harvest& found,
                  bool finalStates, const char* purpose,
                  std::vector<engine::Choices>* runs = nullptr) {
    for (std::size_t i = 0; i < s.flags().size(); ++i) {
        const auto& [name, cond] = s.flags()[i];
        if (found.raised.count(name)) continue;
        // By flag in --stats: which flag's proof the time goes to.
        const std::string what = std::string(purpose) + " " + name;
        z3::check_result fr = s.checkFlag(i, base, what.c_str());
        if (fr == z3::unknown) {
            unknownResult(r, s.solver());
            return false;
        }
        if (fr != z3::sat) continue;
        const z3::model m = s.solver().get_model();
        if (runs != nullptr) runs->push_back(s.choices(m));
        found.take(s, m, finalStates);
    }
    return true;
}

/** The states each object's searches may take together for that proof: example 48 needs
 *  101,920 (7 s); at K = 256 they pass 300,000 in 54 s without finishing. */
constexpr std::size_t kProofStates = 150000;

/** The states the search of every real-time schedule takes before each object's own facts are
 *  asked: every corpus test, acceptance kernel and library kernel measured takes at most
 *  2,319; four CTAs whose schedules interleave through multicast copies and commits pass
 *  3,000,000 (bench/history.md 2026-12-05 (6)). */
constexpr std::size_t kFirstStates = 20000;

/** Whether each object's own facts prove that no schedule hangs (smt/HangProof.hpp), and the
 *  seconds it took. */
struct EachObjectProof {
    bool holds = false;
    double seconds = 0;
};

double secondsBetween(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

double secondsSince(Clock::time_point from) {
    return secondsBetween(from, Clock::now());
}

EachObjectProof proveNoHangFromEachObject(const ir::Program& p, const Budget& budget) {
    const auto began = std::chrono::steady_clock::now();
    const schedules::MbarrierFacts each =
        schedules::observeEachObject(p, ir::realTimePairs(p), {}, true, kProofStates, &budget);
    const bool holds = schedules::proveNoHang(p, each).holds;
    return {holds, secondsSince(began)};
}

/**
 * The program's real-time schedules (smt/Schedules.hpp), explored once: the hang pre-check's
 * answer where the program is in the fragment they cover and small enough (exact, and far
 * cheaper than the solver's query on the kernel protocols: bench/history.md), and one complete
 * schedule for the first query. Past kFirstStates, each object's own facts may prove that no
 * schedule hangs (80 warps of CUTLASS example 48, CTAs that multicast to each other): the answer
 * is then NoHang, and neither the rest of the search nor a query of the solver asks whether
 * some execution hangs. Where they do not, the search goes on to its limit.
 */
schedules::Exploration exploreSchedules(const ir::Program& p, const Budget& budget,
                                        std::vector<engine::QueryTime>* times) {
    bool mbarriers = std::any_of(p.events.begin(), p.events.end(),
                                 [](const ir::Event& e) { return e.has(ir::Tag::MB); });
    if (!mbarriers) return {};
    auto began = std::chrono::steady_clock::now();
    schedules::Exploration explored = schedules::explore(p, kFirstStates, &budget);
    double searched = secondsSince(began);
    std::optional<EachObjectProof> proof;
    if (explored.answer == schedules::Answer::TooLarge) {
        proof = proveNoHangFromEachObject(p, budget);
        if (!proof->holds) {
            began = std::chrono::steady_clock::now();
            explored = schedules::explore(p, schedules::kMaxStates, &budget);
            searched += secondsSince(began);
        }
    }
    const schedules::Answer a = explored.answer;
    // --stats names a search that stopped at kFirstStates, which the proof then answered
    const std::string searchedWhat =
        proof && proof->holds
            ? "explicit schedules, the first " + std::to_string(kFirstStates) + " states"
            : std::string("explicit schedules");
    if (times != nullptr) // sat: a schedule hangs; unsat: none does; unknown: left to the solver
        recordQuery(*times, searchedWhat.c_str(),
                    a == schedules::Answer::MayHang  ? z3::sat
                    : a == schedules::Answer::NoHang ? z3::unsat
                                                     : z3::unknown,
                    searched);
    if (times != nullptr && proof)
        recordQuery(*times, "no hang, proved from each object's facts",
                    proof->holds ? z3::unsat : z3::unknown, proof->seconds);
    if (proof && proof->holds) {
        explored.answer = schedules::Answer::NoHang;
        explored.why.clear();
    }
    return explored;
}

/**
 * A cheap necessary condition: can the program's semantics alone (no model axioms, so fewer
 * constraints; real time included) let some gate hold its thread forever? Counting arrivals
 * in real time rules hangs out for correct protocols in well under a second, where the
 * query with the model takes a minute on the kernel protocols; unknown counts as "maybe".
 * The explicit schedules answer first where they can (`explored`, when given).
 */
bool programMayHang(z3::context& ctx, const ir::Program& p, const Budget& budget,
                    std::vector<engine::QueryTime>* times, const schedules::Exploration* explored,
                    SearchProgress* progress = nullptr) {
    if (explored != nullptr && explored->answer == schedules::Answer::NoHang) return false;
    if (explored != nullptr && explored->answer == schedules::Answer::MayHang) return true;
    // Its own solver, outside the numbered queries: a limit reached here names it.
    if (progress != nullptr)
        progress->step("the hang pre-check (whether the program alone, without the model's "
                       "axioms, lets a wait or barrier hold its thread forever)");
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
    const auto began = std::chrono::steady_clock::now();
    z3::check_result answer = s.check();
    if (answer == z3::unknown) budget.poll(); // interrupted by a limit: say which
    if (times != nullptr)
        recordQuery(
            *times, "hang pre-check", answer,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
    return answer != z3::unsat;
}

/**
 * Into `found`, the key of every candidate condition that holds in some execution `base`
 * allows: one query per batch of new ones, each asking for any candidate not found yet.
 * `hints` (each a set of choices, ProgramEncoder::choicesOf, and the candidates expected in
 * it) are asked first, each once with its choices assumed, where one it expects is not found
 * yet. Returns false when the solver gives up (r is then Unknown).
 */
template <class Key, class Candidates>
bool everyPossible(CheckResult& r, Z3Session& s, const z3::expr_vector& base,
                   const Candidates& candidates, std::set<Key>& found, const char* purpose,
                   const std::vector<std::pair<z3::expr_vector, std::vector<Key>>>& hints = {},
                   const char* hintPurpose = nullptr,
                   const std::function<void(const z3::model&)>& onModel = {}) {
    std::size_t hint = 0;
    auto expectsNew = [&](const std::vector<Key>& expected) {
        return std::any_of(expected.begin(), expected.end(),
                           [&](const Key& k) { return !found.count(k); });
    };
    while (true) {
        z3::expr_vector open(s.ctx());
        for (const auto& [k, b] : candidates)
            if (!found.count(k)) open.push_back(b);
        if (open.empty()) return true;
        while (hint < hints.size() && !expectsNew(hints[hint].second))
            ++hint;
        const bool hinted = hint < hints.size();
        const z3::expr_vector asked = hinted ? withAll(base, hints[hint++].first) : base;
        z3::check_result res =
            s.check(withLiteral(asked, z3::mk_or(open)), hinted ? hintPurpose : purpose);
        if (res == z3::unknown) {
            unknownResult(r, s.solver());
            return false;
        }
        if (res == z3::unsat) {
            if (hinted) continue; // that hint holds no candidate left, or the model rejects it
            return true;
        }
        z3::model m = s.solver().get_model();
        for (const auto& [k, b] : candidates)
            if (m.eval(b, true).is_true()) found.insert(k);
        if (onModel) onModel(m);
    }
}

/** The executions a flag raised in `s` was found in: those that complete, or those that hang. */
z3::expr_vector raisingBase(Z3Session& s, bool hangs) {
    if (!hangs) return s.assumptions(true);
    z3::expr_vector any(s.ctx());
    for (const auto& [w, b] : s.encoder().blocked())
        any.push_back(b);
    return withLiteral(s.assumptions(false), z3::mk_or(any));
}

/**
 * The smallest of `candidates` (in the order of their events) that some execution `base`
 * allows, below `known` (one that does). One query first asks for any candidate below `known`:
 * where none is (a witness already the smallest, as a concrete run's often is), that single
 * proof ends it, where a binary search would prove each half it skips on its way down. Otherwise
 * a binary search below the smallest candidate that model holds, whose satisfiable halves narrow
 * it to the smallest candidate their model holds. Nullopt when the solver gives up.
 */
std::optional<std::vector<int>> smallestWitness(Z3Session& s, const z3::expr_vector& base,
                                                const Z3Session::Witnesses& candidates,
                                                const std::vector<int>& known) {
    std::vector<const std::pair<std::vector<int>, z3::expr>*> sorted;
    for (const auto& c : candidates)
        sorted.push_back(&c);
    std::sort(sorted.begin(), sorted.end(),
              [](const auto* a, const auto* b) { return a->first < b->first; });
    std::size_t lo = 0;
    std::size_t hi = static_cast<std::size_t>(
        std::lower_bound(sorted.begin(), sorted.end(), known,
                         [](const auto* c, const std::vector<int>& k) { return c->first < k; }) -
        sorted.begin());
    std::vector<int> best = known;
    // Asks whether an execution holds a candidate of [from, to]; where one does, the smallest
    // candidate its model holds becomes the best and the new bound: nullopt when the solver
    // gives up.
    auto below = [&](std::size_t from, std::size_t to) -> std::optional<bool> {
        z3::expr_vector range(s.ctx());
        for (std::size_t i = from; i <= to; ++i)
            range.push_back(sorted[i]->second);
        z3::check_result res = s.check(withLiteral(base, z3::mk_or(range)), "smallest witness");
        if (res == z3::unknown) return std::nullopt;
        if (res == z3::unsat) return false;
        const z3::model m = s.solver().get_model();
        std::size_t i = from;
        while (i < to && !m.eval(sorted[i]->second, true).is_true())
            ++i;
        best = sorted[i]->first;
        hi = i;
        return true;
    };
    if (hi == 0) return best;
    std::optional<bool> any = below(0, hi - 1);
    if (!any) return std::nullopt;
    while (*any && lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        std::optional<bool> found = below(lo, mid);
        if (!found) return std::nullopt;
        if (!*found) lo = mid + 1;
    }
    return best;
}

/**
 * Every raised flag's witness made its smallest (CheckOptions::canonicalWitnesses): the same
 * whatever was asked before. A flag whose search the solver gives up keeps the witness found.
 */
void canonicalWitnesses(Harvest& found, Z3Session& main) {
    for (auto& [name, witnesses] : found.raised) {
        if (witnesses.empty()) continue;
        // a flag no model raised came from a concrete run: an execution that completes
        auto in = found.raisedIn.find(name);
        const std::pair<Z3Session*, bool> where =
            in != found.raisedIn.end() ? in->second : std::make_pair(&main, false);
        Z3Session& s = *where.first;
        for (std::size_t i = 0; i < s.flags().size(); ++i) {
            if (s.flags()[i].first != name) continue;
            std::optional<std::vector<int>> smallest = smallestWitness(
                s, raisingBase(s, where.second), s.flagWitnesses()[i], *witnesses.begin());
            if (smallest) witnesses = {*smallest};
        }
    }
}

/**
 * What the queries of one test share across its readings: the main encoding and, once some
 * reading needs it, the encoding where waits may block forever.
 */
struct Encodings {
    Z3Context& ctx;
    const ir::Program& p;
    const cat::ResolvedModel& model;
    const CheckOptions& options;
    const Budget& budget;
    bool readings;
    /** Query times while `main` is encoded (the explicit schedules it may ask for), which
     *  timeQueries hands on; later, timeQueries' sink or none. Declared before `main`. */
    std::vector<engine::QueryTime> early;
    std::vector<engine::QueryTime>* times = &early;
    std::optional<schedules::Exploration> explored; ///< exploreSchedules, once
    Z3Session main;
    std::optional<bool> mayHang; ///< programMayHang, asked once
    std::unique_ptr<Z3Session> hang;
    /** Hanging executions found so far (the hang encoding's search's schedules, the solver's
     *  models under earlier readings): each reading runs them concretely before it asks. */
    std::vector<engine::Choices> hangRuns;
    /** Executions that completed and raised a flag under an earlier reading (the solver's
     *  models): each reading runs them concretely before it asks for its flags. */
    std::vector<engine::Choices> flagRuns;
    /** The explicit evaluator's model of the program, shared by the readings' first runs. */
    ConcreteModel concrete;

    /** The mbarrier facts of `main` skip the search of every object's schedules together
     *  where the search of every real-time schedule (explored) passed its limit: kMaxStates,
     *  or kFirstStates where each object's facts then proved that no schedule hangs. */
    Encodings(Z3Context& c, const ir::Program& prog, const cat::ResolvedModel& m,
              const CheckOptions& o, const Budget& b, bool withReadings)
        : ctx(c), p(prog), model(m), options(o), budget(b), readings(withReadings),
          main(c, prog, m, o, false, &b, withReadings,
               // past its limit, whatever the proof from each object's facts said
               [this] { return schedules().cut; }),
          concrete(prog, m) {
        times = nullptr; // later queries are timed only where timeQueries asks (--stats)
    }

    /** Reading `k` as the explicit evaluator takes it (none: the default). */
    std::optional<cat::ReadingId> readingOf(std::size_t k) const {
        if (!readings) return options.reading;
        if (k == 0) return std::nullopt;
        return model.readings.at(k - 1).reading;
    }
    void chooseReading(std::size_t k) {
        main.chooseReading(k);
        if (hang) hang->chooseReading(k);
    }
    std::size_t queries() const { return main.queries() + (hang ? hang->queries() : 0); }
    /** --stats: every later query's time, of both encodings, goes to `sink`. */
    void timeQueries(std::vector<engine::QueryTime>* sink) {
        sink->insert(sink->end(), early.begin(), early.end());
        times = sink;
        main.timeQueries(sink);
        if (hang) hang->timeQueries(sink);
    }
    const schedules::Exploration& schedules() {
        if (!explored) explored = exploreSchedules(p, budget, times);
        return *explored;
    }
    /** The hang encoding, built on first use; null when the program alone cannot hang. */
    Z3Session* hangSession(std::size_t reading) {
        if (!mayHang)
            mayHang = programMayHang(ctx, p, budget, times, &schedules(), options.progress.get());
        if (!*mayHang) return nullptr;
        if (!hang) {
            hang = std::make_unique<Z3Session>(ctx, p, model, options, true, &budget, readings);
            hang->timeQueries(times);
            for (const auto& h : hang->mbarrierFacts().hangSchedules)
                if (auto c = engine::hangChoicesOfSchedule(p, h.schedule, h.stuck))
                    hangRuns.push_back(std::move(*c));
        }
        hang->chooseReading(reading);
        return hang.get();
    }
};

/** A hanging schedule's choices (ProgramEncoder::choicesOf), its events happening and its
 *  stuck waits blocked. */
z3::expr_vector hangChoices(const ProgramEncoder& pe, const schedules::HangSchedule& hang) {
    z3::expr_vector out = pe.choicesOf(hang.schedule);
    for (int e : hang.schedule)
        out.push_back(pe.exists(e));
    for (int w : hang.stuck)
        if (auto b = pe.blocked().find(w); b != pe.blocked().end()) out.push_back(b->second);
    return out;
}

/**
 * Into `hanging`, the gates of each known hanging execution (Encodings::hangRuns) that the
 * explicit evaluator allows under `reading`, the test the enumerating engine puts its own
 * hanging candidates to: under `--readings` the solver found the same hanging executions again
 * for every reading (ThunderKittens' GEMM: 75 satisfiable queries, 24 of its 30 s).
 */
void runHangsConcretely(Encodings& enc, std::size_t reading, std::set<int>& hanging) {
    const std::optional<cat::ReadingId> under = enc.readingOf(reading);
    for (const engine::Choices& c : enc.hangRuns) {
        const std::vector<int> stuck = engine::stuckGates(enc.p, c.blocked);
        if (std::all_of(stuck.begin(), stuck.end(), [&](int g) { return hanging.count(g) > 0; }))
            continue; // nothing it could add
        const auto began = std::chrono::steady_clock::now();
        const std::optional<std::vector<int>> gates =
            engine::hangingGates(enc.p, enc.concrete, under, c);
        if (enc.times != nullptr)
            recordQuery(
                *enc.times, "hanging execution, run concretely", gates ? z3::sat : z3::unknown,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
        if (gates) hanging.insert(gates->begin(), gates->end());
    }
}

/**
 * Into `found`, the state and flags of each execution that raised a flag under an earlier
 * reading (Encodings::flagRuns) and that the explicit evaluator allows under `reading`: under
 * `--readings` the solver otherwise found such an execution again for every reading that
 * raises the flag (CUTLASS's FMHA: mbarrier-misuse under 12 readings, 64 s of 84).
 */
void runFlagsConcretely(Encodings& enc, std::size_t reading, Harvest& found) {
    const std::optional<cat::ReadingId> under = enc.readingOf(reading);
    for (const engine::Choices& c : enc.flagRuns) {
        const auto began = std::chrono::steady_clock::now();
        const std::optional<engine::ScheduledRun> run =
            engine::finishingRun(enc.p, enc.concrete, under, c);
        if (enc.times != nullptr)
            recordQuery(*enc.times, "another reading's flag, run concretely",
                        run ? z3::sat : z3::unknown, secondsSince(began));
        if (!run) continue;
        found.states.insert(run->state);
        for (const auto& [name, witnesses] : run->flags)
            found.raised[name].insert(witnesses.begin(), witnesses.end());
    }
}

/**
 * Executions that block forever (a second encoding where waits may block and what follows a
 * blocked gate does not happen): every wait that can block, and the flags those executions
 * raise. Returns false when the solver gives up.
 */
bool findHangs(CheckResult& r, Encodings& enc, std::size_t reading, Harvest& found) {
    if (ir::chosenGates(enc.p).empty()) return true;
    Z3Session* hs = enc.hangSession(reading);
    if (hs == nullptr) return true;
    Z3Session& h = *hs;
    z3::expr_vector base = h.assumptions(false);
    std::set<int> hanging;
    // Hanging executions known already run concretely under this reading first: the gates of
    // each the model allows hang, and the solver is not asked for them.
    runHangsConcretely(enc, reading, hanging);
    // Then the facts' search's hanging schedules, their choices assumed: the solver checks
    // each, where alone it searches for a hanging execution; the last query, without them,
    // proves that no other gate hangs.
    std::vector<std::pair<z3::expr_vector, std::vector<int>>> hints;
    for (const auto& hang : h.mbarrierFacts().hangSchedules)
        hints.emplace_back(hangChoices(h.encoder(), hang), hang.stuck);
    if (!everyPossible(r, h, base, h.encoder().stuckGates(), hanging, "hanging gates", hints,
                       "hanging gates, scheduled",
                       [&](const z3::model& m) { enc.hangRuns.push_back(h.choices(m)); }))
        return false;
    for (int g : hanging)
        found.raised[kHangFlag].insert({g});
    if (hanging.empty()) return true;
    z3::expr_vector any(enc.ctx);
    for (const auto& [w, b] : h.encoder().blocked())
        any.push_back(b);
    return collectFlags(r, h, withLiteral(base, z3::mk_or(any)), found, false, "hang flag");
}

/**
 * A Deadlock's flag: mbarrier-misuse when an execution that hangs misuses a barrier
 * (kDeadlockFlag). The text then promises nothing, not even the hang. Other flags of the hanging
 * prefix are not asked for: the hang is the finding, and each would cost a query on the hang
 * encoding.
 */
void deadlockFlags(CheckResult& r, Encodings& enc, std::size_t reading, Harvest& found) {
    if (ir::chosenGates(enc.p).empty()) return;
    Z3Session* hs = enc.hangSession(reading);
    if (hs == nullptr) return;
    Z3Session& h = *hs;
    z3::expr_vector any(enc.ctx);
    for (const auto& [w, b] : h.encoder().blocked())
        any.push_back(b);
    const z3::expr_vector base = withLiteral(h.assumptions(false), z3::mk_or(any));
    for (const auto& [name, cond] : h.flags()) {
        if (name != kDeadlockFlag) continue;
        z3::check_result fr = h.check(withLiteral(base, cond), "deadlock flag");
        if (fr == z3::unknown) return unknownResult(r, h.solver());
        if (fr == z3::sat) found.take(h, h.solver().get_model(), false);
    }
    if (enc.options.canonicalWitnesses && reading == 0) canonicalWitnesses(found, enc.main);
    FlagWitnesses raised; // the model may raise others too: only this one is asked for
    if (found.raised.count(kDeadlockFlag)) raised[kDeadlockFlag] = found.raised.at(kDeadlockFlag);
    const std::vector<engine::BlockedWait> blocked = r.deadlockedWaits;
    setFlags(r, enc.p, enc.model, raised);
    r.deadlockedWaits = blocked;
}

/**
 * Which loops some allowed execution goes round more often than the unroll bound (ir::Cut).
 * Asked before enumeration, whose blocking clauses would hide executions. False when the
 * solver gives up.
 */
bool findBoundReached(CheckResult& r, Z3Session& s, std::set<std::size_t>& reached) {
    return everyPossible(r, s, s.assumptions(true, {}, true), s.boundCuts(), reached,
                         "unroll bound");
}

/** Every query of one test under one reading, in order; stops where the answer is complete
 *  or Unknown. */
void runQueries(CheckResult& r, Encodings& enc, std::size_t reading) {
    enc.chooseReading(reading);
    Z3Session& s = enc.main;
    const ir::Program& p = enc.p;
    std::set<std::size_t> beyond;
    Harvest found;
    // The schedule under the model's order first (it respects the tcgen05 orders real time
    // lacks, which an SC run of a real-time schedule can contradict), then the real-time one.
    const std::vector<int>& modelOrdered = s.mbarrierFacts().completeSchedule;
    const std::vector<int>& schedule = enc.schedules().completeSchedule;
    const std::optional<cat::ReadingId> under = enc.readingOf(reading);
    if (!ranConcretely(found, p, enc.concrete, under, modelOrdered, enc.times) &&
        !ranConcretely(found, p, enc.concrete, under, schedule, enc.times) &&
        stopsEarly(r, s, p, found, schedule)) {
        if (r.observation != Observation::Deadlock) return;
        if (!findBoundReached(r, s, beyond)) return;
        setBoundReached(r, p, beyond);
        deadlockFlags(r, enc, reading, found);
        return;
    }
    // A schedule of the facts' search through a misuse, where the model allows its run, is
    // mbarrier-misuse's witness, which the solver would otherwise search for.
    const std::vector<int>& misuseSchedule = s.mbarrierFacts().misuseSchedule;
    const bool misuseRan = ranConcretely(found, p, enc.concrete, under, misuseSchedule, enc.times,
                                         "a schedule through a misuse, run concretely");
    // Where misuses were left to the solver as the facts' premise, that run may break it.
    const bool premised = misuseRan && s.mbarrierFacts().misusesLeft > 0;
    // Flags first: enumeration adds blocking clauses that would hide executions.
    if (!s.settleFlagBounds(s.assumptions(true), premised ? misuseSchedule : std::vector<int>{}))
        return unknownResult(r, s.solver());
    runFlagsConcretely(enc, reading, found);
    if (!collectFlags(r, s, s.assumptions(true), found, true, "flag", &enc.flagRuns)) return;
    if (!findBoundReached(r, s, beyond)) return;
    enumerate(r, s, p, found);
    if (r.observation == Observation::Unknown) return;
    if (!findHangs(r, enc, reading, found)) return;
    // Another reading's answer is compared by its flags' names only: its witnesses go nowhere.
    if (enc.options.canonicalWitnesses && reading == 0) canonicalWitnesses(found, s);
    setFlags(r, p, enc.model, found.raised);
    setBoundReached(r, p, beyond);
}

/** --stats: the main encoding's size and relations, the phases' times, Z3's own counters. */
engine::Stats statsOf(Encodings& enc, const std::array<Clock::time_point, 4>& at) {
    Z3Session& s = enc.main;
    engine::Stats st;
    st.threads = enc.p.threads.size();
    st.events = enc.p.events.size();
    st.lowerSeconds = secondsBetween(at[0], at[1]);
    st.encodeSeconds = secondsBetween(at[1], at[2]);
    st.solveSeconds = secondsBetween(at[2], at[3]);
    st.queries = enc.queries();
    countEncoding(s.solver(), st);
    std::tie(st.lemmasKept, st.lemmasMade) = s.lemmaCounts();
    std::tie(st.lemmasLazy, st.propagations) = s.lazyCounts();
    const auto graphs = s.graphCounts();
    st.acyclicGraphs = graphs[0];
    st.cyclesRefused = graphs[1];
    st.edgesExcluded = graphs[2];
    st.mbarrierFacts = s.mbarrierFacts().facts;
    st.mbarrierFactStates = s.mbarrierFacts().states;
    st.mbarrierMisusesPast = s.mbarrierFacts().misusesPast;
    st.mbarrierMisusesLeft = s.mbarrierFacts().misusesLeft;
    if (enc.hang) st.hangMbarrierFacts = enc.hang->mbarrierFacts().facts;
    std::tie(st.observationsDecided, st.observationPairs) = s.observationCounts();
    st.flagWitnesses = s.flagBounds().witnesses;
    st.flagWitnessesPruned = s.flagBounds().ruledOut;
    st.relations = s.relationSizes();
    st.encodePhases = s.encodePhases();
    z3::stats z = s.solver().statistics();
    for (unsigned i = 0; i < z.size(); ++i)
        st.solver.emplace_back(z.key(i), z.is_uint(i) ? std::to_string(z.uint_value(i))
                                                      : fmt::format("{:.2f}", z.double_value(i)));
    return st;
}

/** Unknown, saying why Z3 stopped: the limit whose watchdog interrupted it, or Z3's words. */
void z3Failure(CheckResult& r, const ir::Program& p, const z3::exception& e, const Budget& budget) {
    setStopped(r, p, budget.reached().value_or(z3Words(std::string("Z3: ") + e.msg())));
}

/** The readings that can change an answer: those whose literal some encoding contains. */
std::set<std::size_t> readingsUsed(Encodings& enc) {
    // The default reading may have stopped before the hang encoding was needed; another
    // reading may not, so its literals count too.
    if (!ir::chosenGates(enc.p).empty()) enc.hangSession(0);
    std::set<std::size_t> used = enc.main.readingsUsed();
    if (enc.hang) used.merge(enc.hang->readingsUsed());
    return used;
}

} // namespace

/**
 * Z3's global parameters, one set per process. The memory limit is the watchdog's
 * (engine/Budget.hpp), not Z3's memory_max_size, whose out_of_memory_error escapes Z3's C API
 * from some allocation sites and aborts the process. Z3 4.8's older simplex solver
 * (smt.arith.solver=2) proves the kernel protocols' real-time and mbarrier-order queries faster
 * than its default, and relevancy propagation off (smt.relevancy=0) sends every atom to its theory
 * at once, which the closure lemmas need; both leave the one-rule corpus's time unchanged (figures:
 * bench/history.md).
 */
static void configureZ3() {
    static std::once_flag once;
    std::call_once(once, [] {
        z3::set_param("smt.arith.solver", 2);
        z3::set_param("smt.relevancy", 0);
    });
}

/**
 * A finished search's solver context, kept per thread until the thread's next search starts or
 * the thread ends: deleting a large test's context takes seconds (ring 2x24: about 1.5 s of
 * 11), and the command line's last one need not be deleted at all (app/cli/main.cpp leaves
 * with std::_Exit). Every term of it is gone by then; only the context stays.
 */
static thread_local std::unique_ptr<Z3Context> lastContext;

/** A new context, the thread's previous one deleted first (its memory counts for the next). */
static std::unique_ptr<Z3Context> freshContext() {
    lastContext.reset();
    return std::make_unique<Z3Context>();
}

bool solverSaysProgramMayHang(const ir::Program& p) {
    configureZ3();
    z3::context ctx;
    const Budget unlimited;
    return programMayHang(ctx, p, unlimited, nullptr, nullptr);
}

/** The options without a user propagator: closure lemmas as clauses, acyclicity as clocks. */
static CheckOptions withoutPropagator(CheckOptions options) {
    options.lazyClosures = false;
    options.graphAcyclic = false;
    return options;
}

void Z3Engine::search(const ir::Program& program, const cat::ResolvedModel& model,
                      const CheckOptions& options, Clock::time_point start, CheckResult& r) const {
    if (options.progress) options.progress->encoding(); // what a limit reached now stops
    configureZ3();
    const CheckResult entry = r;
    std::unique_ptr<Z3Context> owned = freshContext();
    Z3Context& ctx = *owned;
    const Clock::time_point began = Clock::now();
    const Budget budget(options, start);
    const Budget::Hook interrupt = budget.onLimit([&ctx] { ctx.interrupt(); });
    const Budget::AllocationGuard guard = budget.guardAllocations();
    try {
        Encodings enc(ctx, program, model, options, budget, false);
        const Clock::time_point encoded = Clock::now();
        std::vector<engine::QueryTime> times;
        if (options.stats) enc.timeQueries(&times);
        auto measure = [&] {
            if (!options.stats) return;
            r.stats = statsOf(enc, {start, began, encoded, Clock::now()});
            r.stats->queryTimes = times;
        };
        try {
            runQueries(r, enc, 0);
        } catch (const LimitReached&) {
            try { // how far it got: the encoding, and the queries up to the one stopped
                measure();
            } catch (const std::bad_alloc&) { // the memory limit's one allocation failure
                r.stats.reset();
            }
            throw;
        }
        measure();
    } catch (const InvalidModel&) {
        r = entry;
        return search(program, model, withoutPropagator(options), start, r);
    } catch (const z3::exception& e) {
        z3Failure(r, program, e, budget);
    }
    lastContext = std::move(owned);
}

void Z3Engine::searchReadings(const ir::Program& program, const cat::ResolvedModel& model,
                              const CheckOptions& options, std::vector<CheckResult>& out) const {
    if (options.progress) options.progress->encoding();
    configureZ3();
    const std::vector<CheckResult> entry = out;
    std::unique_ptr<Z3Context> owned = freshContext();
    Z3Context& ctx = *owned;
    // One limit for the whole test, every reading included, counted from its start (lowering
    // included): --timeout bounds the test, however many readings it has.
    const Clock::time_point start = options.startedAt.value_or(Clock::now());
    const Clock::time_point encoding = Clock::now();
    Clock::time_point began = start;
    const Budget budget(options, start);
    const Budget::Hook interrupt = budget.onLimit([&ctx] { ctx.interrupt(); });
    const Budget::AllocationGuard guard = budget.guardAllocations();
    std::size_t done = 0;
    try {
        Encodings enc(ctx, program, model, options, budget, true);
        const Clock::time_point encoded = Clock::now();
        std::vector<engine::QueryTime> times;
        if (options.stats) enc.timeQueries(&times);
        std::set<std::size_t> used;
        for (; done < out.size(); ++done) {
            if (done > 0 && !used.count(done)) {
                // No literal of this reading in the encoding: its answer is the default one.
                out[done] = out[0];
                out[done].seconds = 0;
                out[done].stats.reset();
                continue;
            }
            if (done > 0) began = Clock::now();
            try {
                runQueries(out[done], enc, done);
            } catch (const LimitReached& limit) {
                setStopped(out[done], program, limit.reason());
            }
            if (done == 0) {
                try {
                    used = readingsUsed(enc);
                } catch (const LimitReached&) { // unknown which: every reading is asked
                    for (std::size_t k = 1; k < out.size(); ++k)
                        used.insert(k);
                }
            }
            out[done].seconds = secondsBetween(began, Clock::now());
        }
        if (options.stats) {
            // Solve time: every reading's queries.
            out[0].stats = statsOf(enc, {start, encoding, encoded, Clock::now()});
            out[0].stats->queryTimes = times;
        }
    } catch (const InvalidModel&) {
        out = entry;
        return searchReadings(program, model, withoutPropagator(options), out);
    } catch (const z3::exception& e) {
        for (; done < out.size(); ++done)
            z3Failure(out[done], program, e, budget);
    } catch (const LimitReached& limit) { // while encoding: no reading has an answer
        for (; done < out.size(); ++done)
            setStopped(out[done], program, limit.reason());
    } catch (const std::bad_alloc& e) {
        for (; done < out.size(); ++done)
            setStopped(out[done], program, allocationFailure(e));
    }
    lastContext = std::move(owned);
}

} // namespace ptxmc::engine::smt
