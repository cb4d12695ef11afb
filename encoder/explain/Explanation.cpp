// Explanations: witness from a Z3 model, minimal unsat core over named axioms, evidence.
#include "explain/Explanation.hpp"

#include "engine/Budget.hpp"
#include "engine/ConcreteModel.hpp"
#include "engine/ResultBuilder.hpp"
#include "explain/MisuseHistory.hpp"
#include "explain/Target.hpp"
#include "explain/WitnessBuilder.hpp"
#include "smt/Z3Session.hpp"

#include <algorithm>
#include <functional>
#include <set>

namespace ptxmc::engine::explain {

using smt::Z3Session;

namespace {

/** Assumptions: the given axioms, progress, and the target literal. */
z3::expr_vector query(Z3Session& s, const std::vector<std::string>& axioms,
                      const z3::expr& target) {
    z3::expr_vector out(s.ctx());
    for (const auto& [name, lit] : s.axioms())
        if (std::find(axioms.begin(), axioms.end(), name) != axioms.end()) out.push_back(lit);
    out.push_back(s.progress());
    for (const z3::expr& lit : s.boundLiterals()) // executions within the unroll bound only
        out.push_back(lit);
    out.push_back(target);
    return out;
}

/** Deletion-based minimisation of an unsat core of axiom names (deterministic: model order). */
std::vector<std::string> minimalCore(Z3Session& s, std::vector<std::string> core,
                                     const z3::expr& target) {
    for (std::size_t i = 0; i < core.size();) {
        std::vector<std::string> without = core;
        without.erase(without.begin() + static_cast<std::ptrdiff_t>(i));
        if (s.solver().check(query(s, without, target)) == z3::unsat)
            core = without;
        else
            ++i;
    }
    return core;
}

Explanation::Violation violation(Z3Session& s, const ir::Program& p,
                                 const cat::ResolvedModel& model,
                                 const std::vector<std::string>& core, const std::string& axiom,
                                 const z3::expr& target, const std::string& targetText) {
    Explanation::Violation v;
    v.axiom = axiom;
    const cat::Axiom* a = nullptr;
    for (const auto& ax : model.axioms)
        if (ax.name == axiom) a = &ax;
    v.doc = a->doc;
    v.where = a->loc.str();
    std::vector<std::string> others;
    for (const auto& n : core)
        if (n != axiom) others.push_back(n);
    if (s.solver().check(query(s, others, target)) != z3::sat) {
        v.evidence = "(the solver could not produce an execution without this axiom)";
        return v;
    }
    Choices c = s.choices(s.solver().get_model());
    Outcome o = computeOutcome(p, c);
    if (o.noExecution) {
        v.evidence = "(the solver's execution has guards its mbarrier operations contradict)";
        return v;
    }
    ConcreteModel cm(p, model);
    auto evidence = axiomEvidence(cm, c, o, *a);
    v.evidence = evidence.text;
    v.cycle = evidence.cycle;
    for (std::size_t i = 0; i < evidence.edges.size(); ++i) {
        const auto [from, to] = evidence.edges[i];
        v.steps.push_back({describeEvent(p, o, from), evidence.relations.at(i)});
        if (i + 1 == evidence.edges.size() && !evidence.cycle)
            v.steps.push_back({describeEvent(p, o, to), ""});
    }
    for (int e : evidence.events)
        v.steps.push_back({describeEvent(p, o, e), ""});
    v.closest = buildWitness(p, model, cm, c, o, evidence.edges, axiom);
    v.closest.title = "closest execution to " + targetText + " without " + axiom;
    return v;
}

} // namespace

namespace {

/** The literal raising `flag` in session `s` (with `hangs`, "hang" is any stuck gate). */
std::optional<z3::expr> flagCondition(Z3Session& s, const std::string& flag, bool hangs) {
    if (flag == kHangFlag) {
        if (!hangs) return std::nullopt;
        z3::expr_vector stuck(s.ctx());
        for (const auto& [g, b] : s.encoder().stuckGates())
            stuck.push_back(b);
        return stuck.empty() ? s.ctx().bool_val(false) : z3::mk_or(stuck);
    }
    for (const auto& [name, cond] : s.flags())
        if (name == flag) return cond;
    return std::nullopt;
}

/** The reads whose values the final state shows, as rf pairs (write, read): the edges that
 *  make the outcome, drawn thick. */
std::vector<std::pair<int, int>> outcomeReads(const ir::Program& p, const Choices& c) {
    std::set<int> reads;
    std::function<void(const ir::ValuePtr&)> collect = [&](const ir::ValuePtr& v) {
        if (!v) return;
        if (v->op == ir::Value::Op::ReadOf) reads.insert(v->event);
        for (const auto& a : v->args)
            collect(a);
    };
    for (const auto& obs : p.observed)
        collect(obs.reg);
    std::vector<std::pair<int, int>> out;
    for (int r : reads)
        if (auto it = c.rf.find(r); it != c.rf.end()) out.emplace_back(it->second, r);
    return out;
}

/** Draws the execution of `s`'s current model; the explicit engine must accept it (a
 *  cross-check on every explanation). */
explain::WitnessGraph drawChecked(Z3Session& s, const ir::Program& p,
                                  const cat::ResolvedModel& model, const std::string& title,
                                  const std::string& flag = "") {
    Choices c = s.choices(s.solver().get_model());
    Outcome o = computeOutcome(p, c);
    if (o.noExecution)
        throw std::logic_error("engines disagree: the Z3 execution's mbarrier guards contradict "
                               "what the objects do");
    ConcreteModel cm(p, model);
    ConcreteVerdict v = cm.check(c, o);
    if (!v.consistent)
        throw std::logic_error("engines disagree: the Z3 execution breaks " +
                               v.failedAxioms.front());
    if (!flag.empty()) {
        // a flag's witness: the events that raise it, joined by a thick edge named after it
        std::vector<std::pair<int, int>> raising;
        if (auto it = v.flagWitness.find(flag); it != v.flagWitness.end() && it->second.size() == 2)
            raising.emplace_back(it->second[0], it->second[1]);
        explain::WitnessGraph g = buildWitness(p, model, cm, c, o, raising, flag);
        g.title = title;
        g.highlightMeaning = "the events that raise " + flag;
        // a flag raised by one event (a misuse): that event, marked, and the rule it breaks
        std::set<int> marked(c.blocked.begin(), c.blocked.end());
        if (auto it = v.flagWitness.find(flag); it != v.flagWitness.end() && it->second.size() == 1)
            marked.insert(it->second.front());
        for (auto& n : g.nodes)
            n.marked = marked.count(n.id) > 0;
        if (raising.empty() && marked.size() > c.blocked.size()) {
            const int op = *marked.begin();
            g.notes.push_back("raises " + flag + ": " + describeEvent(p, o, op));
            for (std::string& line : misuseHistory(p, c, o, op))
                g.notes.push_back(std::move(line));
        }
        for (const auto& a : model.axioms)
            if (a.flag && a.name == flag) g.notes.push_back("the rule: " + a.doc);
        for (int w : c.blocked)
            g.notes.push_back("blocks forever: " + toString(eventRef(p, w)));
        return g;
    }
    explain::WitnessGraph g = buildWitness(p, model, cm, c, o, outcomeReads(p, c), "rf");
    g.title = title;
    g.highlightMeaning = "a read whose value the final state shows";
    for (auto& n : g.nodes)
        n.marked = c.blocked.count(n.id) > 0;
    for (int w : c.blocked)
        g.notes.push_back("blocks forever: " + toString(eventRef(p, w)));
    return g;
}

/** Why a query of the explanation came back unknown: the limit that interrupted it, or Z3's
 *  words. */
UnknownReason stoppedExplaining(const Budget& budget, z3::solver& s) {
    if (const std::optional<UnknownReason> limit = budget.reached()) return *limit;
    return smt::z3Words(s.reason_unknown());
}

/** Explanations leave axioms out of their queries: no encoding may fix their consequences
 *  or decide mb-obs pairs under them.
 *  They read the solver's models directly, so no user propagator either (Z3Session's
 *  InvalidModel: Z3 4.8's propagator can return a model that violates the encoding). */
CheckOptions explanationOptions(CheckOptions options) {
    options.fixedOrders = false;
    options.decidedObservations = false;
    options.lazyClosures = false;
    options.graphAcyclic = false;
    return options;
}

} // namespace

Explanation explainOutcome(const ir::Program& p, const cat::ResolvedModel& model,
                           const std::optional<std::string>& outcome, const CheckOptions& options,
                           const engine::CheckResult* checked) {
    Explanation ex;
    if (!p.staticDeadlocks.empty()) {
        ex.kind = Explanation::Kind::Deadlock;
        ex.blocked = staticDeadlocks(p);
        return ex;
    }
    smt::Z3Context ctx;
    const Budget budget(options, Clock::now());
    const Budget::Hook interrupt = budget.onLimit([&ctx] { ctx.interrupt(); });
    Z3Session s(ctx, p, model, explanationOptions(options), false, &budget);
    Target t = outcome ? parseOutcome(*outcome, p, s) : conditionTarget(p, s);
    ex.target = t.text;
    z3::expr targetLit = ctx.bool_const("target");
    s.solver().add(z3::implies(targetLit, t.cond));
    std::vector<std::string> all;
    for (const auto& [name, lit] : s.axioms())
        all.push_back(name);
    z3::check_result live = s.solver().check(s.assumptions(true));
    if (live == z3::unknown) {
        ex.unknownReason = stoppedExplaining(budget, s.solver());
        return ex;
    }
    if (live == z3::unsat) {
        CheckOptions z3Only = options;
        z3Only.engine = EngineKind::Z3;
        const engine::CheckResult r = checked ? *checked : check(p, model, z3Only);
        if (r.forbiddenBy && !r.forbiddenBy->empty()) {
            // The model allows no execution at all: each axiom that alone forbids them all.
            ex.kind = Explanation::Kind::Forbidden;
            ex.noExecution = true;
            for (const auto& name : *r.forbiddenBy)
                ex.violations.push_back(
                    violation(s, p, model, *r.forbiddenBy, name, targetLit, t.text));
            return ex;
        }
        ex.kind = r.observation == engine::Observation::Deadlock ? Explanation::Kind::Deadlock
                                                                 : Explanation::Kind::Unknown;
        ex.blocked = r.deadlockedWaits;
        ex.unknownReason = r.unknownReason;
        return ex;
    }
    z3::check_result res = s.solver().check(query(s, all, targetLit));
    if (res == z3::unknown) {
        ex.unknownReason = smt::z3Words(s.solver().reason_unknown());
        return ex;
    }
    if (res == z3::sat) {
        ex.kind = Explanation::Kind::Allowed;
        ex.witness = drawChecked(s, p, model, p.name + ": an execution ending in " + t.text);
        return ex;
    }
    // Beyond the unroll bound an execution may still reach the state: no proof then.
    z3::expr anyBeyond(ctx.bool_val(false));
    for (const auto& [i, b] : s.boundCuts())
        anyBeyond = anyBeyond || b;
    if (!s.boundCuts().empty() &&
        s.solver().check(smt::withLiteral(s.assumptions(true, {}, true), anyBeyond)) != z3::unsat) {
        ex.unknownReason = {UnknownKind::UnrollBound,
                            "no execution within the unroll bound " + std::to_string(p.unroll) +
                                " ends in " + t.text +
                                ", but some go round a loop more often, and they are not "
                                "covered (rerun with a larger --unroll)"};
        return ex;
    }
    ex.kind = Explanation::Kind::Forbidden;
    std::vector<std::string> core;
    z3::expr_vector unsatCore = s.solver().unsat_core();
    for (const auto& [name, lit] : s.axioms())
        for (unsigned i = 0; i < unsatCore.size(); ++i)
            if (z3::eq(unsatCore[i], lit)) core.push_back(name);
    core = minimalCore(s, core, targetLit);
    for (const auto& name : core)
        ex.violations.push_back(violation(s, p, model, core, name, targetLit, t.text));
    return ex;
}

bool reachable(const ir::Program& p, const cat::ResolvedModel& model,
               const std::optional<std::string>& outcome, const std::string& flag,
               const CheckOptions& options) {
    if (!p.staticDeadlocks.empty()) return false;
    smt::Z3Context ctx;
    const Budget budget(options, Clock::now());
    const Budget::Hook interrupt = budget.onLimit([&ctx] { ctx.interrupt(); });
    Z3Session s(ctx, p, model, options, false, &budget);
    if (flag.empty()) {
        Target t = outcome ? parseOutcome(*outcome, p, s) : conditionTarget(p, s);
        return s.solver().check(smt::withLiteral(s.assumptions(true), t.cond)) == z3::sat;
    }
    for (const auto& [name, cond] : s.flags())
        if (name == flag)
            return s.solver().check(smt::withLiteral(s.assumptions(true), cond)) == z3::sat;
    return false; // `hang` and names the model does not raise: only a whole check tells
}

std::optional<std::vector<std::string>> forbiddingAxioms(const ir::Program& p,
                                                         const cat::ResolvedModel& model,
                                                         const std::optional<std::string>& outcome,
                                                         const CheckOptions& options) {
    if (!p.staticDeadlocks.empty()) return std::nullopt;
    smt::Z3Context ctx;
    const Budget budget(options, Clock::now());
    const Budget::Hook interrupt = budget.onLimit([&ctx] { ctx.interrupt(); });
    Z3Session s(ctx, p, model, explanationOptions(options), false, &budget);
    Target t = outcome ? parseOutcome(*outcome, p, s) : conditionTarget(p, s);
    z3::expr targetLit = ctx.bool_const("target");
    s.solver().add(z3::implies(targetLit, t.cond));
    std::vector<std::string> all;
    for (const auto& [name, lit] : s.axioms())
        all.push_back(name);
    if (s.solver().check(s.assumptions(true)) != z3::sat) return std::nullopt;
    if (s.solver().check(query(s, all, targetLit)) != z3::unsat) return std::nullopt;
    std::vector<std::string> core;
    z3::expr_vector unsatCore = s.solver().unsat_core();
    for (const auto& [name, lit] : s.axioms())
        for (unsigned i = 0; i < unsatCore.size(); ++i)
            if (z3::eq(unsatCore[i], lit)) core.push_back(name);
    z3::expr anyBeyond(ctx.bool_val(false));
    for (const auto& [i, b] : s.boundCuts())
        anyBeyond = anyBeyond || b;
    if (!s.boundCuts().empty() &&
        s.solver().check(smt::withLiteral(s.assumptions(true, {}, true), anyBeyond)) != z3::unsat)
        return std::nullopt;
    return minimalCore(s, core, targetLit);
}

Explanation explainFlag(const ir::Program& p, const cat::ResolvedModel& model,
                        const std::string& flag, const CheckOptions& options) {
    bool known = flag == kHangFlag;
    for (const auto& a : model.axioms)
        known = known || (a.flag && a.name == flag);
    if (!known) {
        std::string names = kHangFlag;
        for (const auto& a : model.axioms)
            if (a.flag) names += ", " + a.name;
        throw InputError(SourceLoc{"--flag", 1, 1},
                         "the model has no flag '" + flag + "' (flags: " + names + ")");
    }
    Explanation ex;
    ex.target = "flag " + flag;
    if (!p.staticDeadlocks.empty()) {
        ex.kind = Explanation::Kind::Deadlock;
        ex.blocked = staticDeadlocks(p);
        return ex;
    }
    smt::Z3Context ctx;
    const Budget budget(options, Clock::now());
    const Budget::Hook interrupt = budget.onLimit([&ctx] { ctx.interrupt(); });
    // Executions that finish first; then those that block forever.
    for (bool hangs : {false, true}) {
        Z3Session s(ctx, p, model, explanationOptions(options), hangs, &budget);
        std::optional<z3::expr> cond = flagCondition(s, flag, hangs);
        if (!cond) continue;
        z3::check_result res = s.solver().check(smt::withLiteral(s.assumptions(!hangs), *cond));
        if (res == z3::unknown) {
            ex.unknownReason = stoppedExplaining(budget, s.solver());
            return ex;
        }
        if (res == z3::unsat) continue;
        ex.kind = Explanation::Kind::Allowed;
        std::string what = flag == kHangFlag ? "an execution in which a wait blocks forever"
                           : hangs           ? "an execution that blocks forever and raises " + flag
                                             : "an execution raising " + flag;
        ex.witness = drawChecked(s, p, model, p.name + ": " + what, flag);
        return ex;
    }
    ex.kind = Explanation::Kind::NotRaised;
    return ex;
}

} // namespace ptxmc::engine::explain
