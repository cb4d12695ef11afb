// The Z3 engine: encode program + model, then enumerate every allowed final state.
#include "Checker.hpp"

#include "ResultBuilder.hpp"
#include "Z3Session.hpp"
#include "lower/Lowerer.hpp"

#include <chrono>
#include <set>

namespace ptxmc {

using engine::Z3Session;
using report::CheckResult;
using report::Observation;

namespace {

void unknownResult(CheckResult& r, z3::solver& s) {
    r.observation = Observation::Unknown;
    r.unknownReason = s.reason_unknown();
    r.states.clear();
}

std::string waitName(const ir::Program& p, int event) {
    const auto& e = p.events[static_cast<std::size_t>(event)];
    return "P" + std::to_string(p.threads[static_cast<std::size_t>(e.thread)].id) + ": " + e.text +
           " (" + e.loc.str();
}

/** Which blocking waits can never succeed (each alone); all of them if only jointly. */
std::vector<std::string> blockedWaits(Z3Session& s, const ir::Program& p) {
    std::vector<std::string> out;
    z3::expr_vector axioms = s.assumptions(false);
    for (const auto& [event, success] : s.encoder().blockingWaits())
        if (s.solver().check(engine::withLiteral(axioms, success)) == z3::unsat)
            out.push_back(waitName(p, event) + ")");
    if (out.empty())
        for (const auto& [event, success] : s.encoder().blockingWaits())
            out.push_back(waitName(p, event) + ", only jointly)");
    return out;
}

/** One solver answer per distinct final state, each excluded by a blocking clause. */
void enumerate(CheckResult& r, Z3Session& s, const ir::Program& p) {
    std::set<std::vector<std::int64_t>> seen;
    z3::expr_vector assumptions = s.assumptions(true);
    while (true) {
        z3::check_result res = s.solver().check(assumptions);
        if (res == z3::unknown) return unknownResult(r, s.solver());
        if (res == z3::unsat) break;
        z3::model m = s.solver().get_model();
        std::vector<std::int64_t> values;
        z3::expr_vector differs(s.ctx());
        for (const auto& e : s.observed()) {
            std::int64_t v = engine::modelValue(m, e);
            values.push_back(v);
            differs.push_back(e != s.ctx().bv_val(static_cast<int64_t>(v), 32));
        }
        if (!seen.insert(values).second) throw std::logic_error("blocking clause failed");
        if (differs.empty()) break; // nothing observed: one (empty) state
        s.solver().add(z3::mk_or(differs));
    }
    engine::setStates(r, p, seen);
}

/** Deadlock, Unknown or nothing special; fills `r` and returns true when the test stops here. */
bool stopsEarly(CheckResult& r, Z3Session& s, const ir::Program& p) {
    z3::check_result any = s.solver().check(s.assumptions(false));
    if (any == z3::unknown) {
        unknownResult(r, s.solver());
        return true;
    }
    if (any == z3::unsat) {
        r.observation = Observation::Unknown;
        r.unknownReason = "no execution is consistent with the model (model error?)";
        return true;
    }
    z3::check_result live = s.solver().check(s.assumptions(true));
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

} // namespace

CheckResult checkTest(const litmus::Test& test, const cat::ResolvedModel& model,
                      const CheckOptions& options) {
    auto start = std::chrono::steady_clock::now();
    ir::Program program = lower::lowerTest(test);
    CheckResult r = engine::resultSkeleton(program);
    auto finish = [&]() {
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return r;
    };
    if (!program.staticDeadlocks.empty()) {
        r.observation = Observation::Deadlock;
        r.deadlockedWaits = program.staticDeadlocks;
        return finish();
    }
    z3::context ctx;
    try {
        Z3Session s(ctx, program, model, options);
        if (stopsEarly(r, s, program)) return finish();
        // Flags first: enumeration adds blocking clauses that would hide executions.
        for (const auto& [name, cond] : s.flags()) {
            z3::check_result fr = s.solver().check(engine::withLiteral(s.assumptions(true), cond));
            if (fr == z3::unknown) {
                unknownResult(r, s.solver());
                return finish();
            }
            if (fr == z3::sat) {
                std::string doc;
                for (const auto& ax : model.axioms)
                    if (ax.name == name) doc = ax.doc;
                r.flags.push_back({name, doc});
            }
        }
        enumerate(r, s, program);
    } catch (const z3::exception& e) {
        r.observation = Observation::Unknown;
        r.unknownReason = std::string("Z3: ") + e.msg();
        r.states.clear();
    }
    return finish();
}

} // namespace ptxmc
