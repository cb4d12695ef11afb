// The Z3 engine: encode program + model, then enumerate every allowed final state.
#include "Checker.hpp"

#include "AxiomEncoder.hpp"
#include "Evaluator.hpp"
#include "ProgramEncoder.hpp"
#include "ResultBuilder.hpp"
#include "lower/Lowerer.hpp"

#include <algorithm>
#include <chrono>
#include <set>

namespace ptxmc {

using engine::Z3Algebra;
using engine::Z3Rel;
using engine::Z3Set;
using report::CheckResult;
using report::Observation;

namespace {

/** Everything one test's queries share. */
struct Encoding {
    z3::context& ctx;
    z3::solver solver;
    z3::expr_vector assumptions; ///< one literal per named axiom, plus progress
    std::vector<std::pair<std::string, z3::expr>> flags;
    std::vector<z3::expr> observed;

    explicit Encoding(z3::context& c) : ctx(c), solver(c), assumptions(c) {}
};

z3::expr encodeCheck(engine::Evaluator<Z3Algebra>& ev, z3::context& ctx, const cat::Axiom& a,
                     const std::string& tag) {
    using T = cat::Stmt::Test;
    auto val = ev.eval(*a.expr);
    z3::expr holds = ctx.bool_val(true);
    if (val.isSet && !val.polymorphicEmpty) {
        holds = engine::encodeEmptySet(ctx, val.set);
    } else {
        Z3Rel r = val.polymorphicEmpty ? Z3Rel(ev.ops().n) : val.rel;
        if (a.test == T::Acyclic) {
            // ~acyclic needs a cycle to exist: r+ has a loop.
            holds = a.negated ? engine::encodeIrreflexive(ctx, ev.ops().plus(r))
                              : engine::encodeAcyclic(ctx, r, tag);
        } else if (a.test == T::Irreflexive) {
            holds = engine::encodeIrreflexive(ctx, r);
        } else {
            holds = engine::encodeEmpty(ctx, r);
        }
    }
    return a.negated ? !holds : holds;
}

void buildEncoding(Encoding& enc, engine::ProgramEncoder& pe, const cat::ResolvedModel& model) {
    z3::context& ctx = enc.ctx;
    Z3Algebra alg{ctx};
    std::map<std::string, Z3Rel> relCache;
    std::map<std::string, Z3Set> setCache;
    engine::Evaluator<Z3Algebra>::Base base{
        [&](const std::string& n) {
            auto it = setCache.find(n);
            if (it == setCache.end()) it = setCache.emplace(n, pe.baseSet(n)).first;
            return it->second;
        },
        [&](const std::string& n) {
            auto it = relCache.find(n);
            if (it == relCache.end()) it = relCache.emplace(n, pe.baseRelation(n)).first;
            return it->second;
        }};
    engine::Evaluator<Z3Algebra> ev(alg, pe.program().events.size(), model, base);
    for (const auto& c : pe.constraints())
        enc.solver.add(c);
    int index = 0;
    for (const auto& a : model.axioms) {
        z3::expr holds = encodeCheck(ev, ctx, a, "ax" + std::to_string(index++));
        if (a.flag) {
            // `flag T r as X`: X is raised in executions where the test T holds.
            enc.flags.emplace_back(a.name, holds);
            continue;
        }
        z3::expr lit = ctx.bool_const(("axiom:" + a.name).c_str());
        enc.solver.add(z3::implies(lit, holds));
        enc.assumptions.push_back(lit);
    }
}

/** z3::expr_vector copies share their contents: build a real copy plus one more literal. */
z3::expr_vector with(const z3::expr_vector& base, const z3::expr& extra) {
    z3::expr_vector out(base.ctx());
    for (unsigned i = 0; i < base.size(); ++i)
        out.push_back(base[i]);
    out.push_back(extra);
    return out;
}

/** Reads a 32-bit value from the model as a signed integer. */
std::int64_t modelValue(const z3::model& m, const z3::expr& e) {
    z3::expr v = m.eval(e, true);
    std::uint64_t u = 0;
    if (!v.is_numeral_u64(u)) throw std::runtime_error("solver returned a non-numeral value");
    return lower::wrap32(static_cast<std::int64_t>(u));
}

bool unknownResult(CheckResult& r, z3::solver& s) {
    r.observation = Observation::Unknown;
    r.unknownReason = s.reason_unknown();
    r.states.clear();
    return true;
}

/** Which blocking waits can never succeed (each alone); all of them if only jointly. */
std::vector<std::string> blockedWaits(Encoding& enc, engine::ProgramEncoder& pe) {
    std::vector<std::string> out;
    for (const auto& [event, success] : pe.blockingWaits()) {
        if (enc.solver.check(with(enc.assumptions, success)) == z3::unsat) {
            const auto& e = pe.program().events[static_cast<std::size_t>(event)];
            out.push_back(
                "P" + std::to_string(pe.program().threads[static_cast<std::size_t>(e.thread)].id) +
                ": " + e.text + " (" + e.loc.str() + ")");
        }
    }
    if (out.empty())
        for (const auto& [event, success] : pe.blockingWaits()) {
            const auto& e = pe.program().events[static_cast<std::size_t>(event)];
            out.push_back(
                "P" + std::to_string(pe.program().threads[static_cast<std::size_t>(e.thread)].id) +
                ": " + e.text + " (" + e.loc.str() + ", only jointly)");
        }
    return out;
}

void enumerate(CheckResult& r, Encoding& enc, const ir::Program& program) {
    std::set<std::vector<std::int64_t>> seen;
    while (true) {
        z3::check_result res = enc.solver.check(enc.assumptions);
        if (res == z3::unknown) {
            unknownResult(r, enc.solver);
            return;
        }
        if (res == z3::unsat) break;
        z3::model m = enc.solver.get_model();
        std::vector<std::int64_t> values;
        z3::expr_vector differs(enc.ctx);
        for (const auto& e : enc.observed) {
            std::int64_t v = modelValue(m, e);
            values.push_back(v);
            differs.push_back(e != enc.ctx.bv_val(static_cast<int64_t>(v), 32));
        }
        if (!seen.insert(values).second) throw std::logic_error("blocking clause failed");
        if (differs.empty()) break; // nothing observed: one (empty) state
        enc.solver.add(z3::mk_or(differs));
    }
    engine::setStates(r, program, seen);
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
        Encoding enc(ctx);
        z3::params params(ctx);
        if (options.timeoutSeconds > 0)
            params.set("timeout", static_cast<unsigned>(options.timeoutSeconds * 1000));
        if (options.rlimit > 0) params.set("rlimit", static_cast<unsigned>(options.rlimit));
        enc.solver.set(params);
        engine::ProgramEncoder pe(ctx, program);
        buildEncoding(enc, pe, model);
        for (const auto& o : program.observed)
            enc.observed.push_back(pe.finalValue(o));
        // Progress: spinning waits return True. Without it the test deadlocks.
        z3::expr progress = ctx.bool_const("progress");
        z3::expr_vector waits(ctx);
        for (const auto& [e, s] : pe.blockingWaits())
            waits.push_back(s);
        enc.solver.add(
            z3::implies(progress, waits.empty() ? ctx.bool_val(true) : z3::mk_and(waits)));
        z3::check_result first = enc.solver.check(enc.assumptions);
        if (first == z3::unknown) {
            unknownResult(r, enc.solver);
            return finish();
        }
        if (first == z3::unsat) {
            r.observation = Observation::Unknown;
            r.unknownReason = "no execution is consistent with the model (model error?)";
            return finish();
        }
        z3::check_result live = enc.solver.check(with(enc.assumptions, progress));
        if (live == z3::unknown) {
            unknownResult(r, enc.solver);
            return finish();
        }
        if (live == z3::unsat) {
            r.observation = Observation::Deadlock;
            r.deadlockedWaits = blockedWaits(enc, pe);
            return finish();
        }
        enc.assumptions.push_back(progress);
        for (const auto& [name, cond] : enc.flags) {
            z3::check_result fr = enc.solver.check(with(enc.assumptions, cond));
            if (fr == z3::unknown) {
                unknownResult(r, enc.solver);
                return finish();
            }
            if (fr == z3::sat) {
                std::string doc;
                for (const auto& ax : model.axioms)
                    if (ax.name == name) doc = ax.doc;
                r.flags.push_back({name, doc});
            }
        }
        enumerate(r, enc, program);
    } catch (const z3::exception& e) {
        r.observation = Observation::Unknown;
        r.unknownReason = std::string("Z3: ") + e.msg();
        r.states.clear();
    }
    return finish();
}

} // namespace ptxmc
