// Builds the Z3 encoding of one test: program semantics plus the model's named checks.
#include "smt/Z3Session.hpp"

#include "cat/CycleBase.hpp"
#include "engine/Evaluator.hpp"
#include "engine/FixedOrders.hpp"
#include "ir/ValueSemantics.hpp"
#include "smt/AxiomEncoder.hpp"
#include "smt/DecidedObservations.hpp"
#include "smt/FactSources.hpp"
#include "smt/FlagBounds.hpp"
#include "smt/LemmaCone.hpp"
#include "smt/Schedules.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <set>

namespace ptxmc::engine::smt {

namespace {

template <class Value>
z3::expr encodeCheck(const Value& val, z3::context& ctx, Evaluator<Z3Algebra>& ev,
                     const cat::Axiom& a, const std::string& tag) {
    using T = cat::Stmt::Test;
    z3::expr holds = ctx.bool_val(true);
    if (val.isSet && !val.polymorphicEmpty) {
        holds = encodeEmptySet(ctx, val.set);
    } else {
        Z3Rel r = val.polymorphicEmpty ? Z3Rel(ev.ops().n) : val.rel;
        if (a.test == T::Acyclic) {
            // ~acyclic needs a cycle to exist: r+ has a loop.
            holds =
                a.negated ? encodeIrreflexive(ctx, ev.ops().plus(r)) : encodeAcyclic(ctx, r, tag);
        } else if (a.test == T::Irreflexive) {
            holds = encodeIrreflexive(ctx, r);
        } else {
            holds = encodeEmpty(ctx, r);
        }
    }
    return a.negated ? !holds : holds;
}

/** The members or pairs of a flag's set or relation, each with its condition. */
template <class Value> Z3Session::Witnesses witnessesOf(const Value& val) {
    Z3Session::Witnesses out;
    if (val.polymorphicEmpty) return out;
    if (val.isSet) {
        for (const auto& [id, c] : val.set.members)
            out.emplace_back(std::vector<int>{id}, c);
        return out;
    }
    for (std::size_t i = 0; i < val.rel.rows.size(); ++i)
        for (const auto& [j, c] : val.rel.rows[i])
            out.emplace_back(static_cast<int>(i) == j ? std::vector<int>{j}
                                                      : std::vector<int>{static_cast<int>(i), j},
                             c);
    return out;
}

/** The pairs of `r` whose condition is not false. */
std::size_t countPairs(const Z3Rel& r) {
    std::size_t out = 0;
    for (const auto& row : r.rows)
        for (const auto& [b, c] : row)
            out += c.is_false() ? 0 : 1;
    return out;
}

/** A reading's condition for the flags' bounds: whether it is the one --reading asked for;
 *  none for the default reading (and under --readings, whose readings go by their literals). */
std::function<BoundsAlgebra::Cond(const std::string&)> boundsReading(const CheckOptions& options) {
    using Cond = BoundsAlgebra::Cond;
    if (!options.reading) return {};
    return [&options](const std::string& n) {
        return n == options.reading->modelFile() ? Cond::True : Cond::False;
    };
}

/** Pairs that are constant true (must) and that are solver terms (may), per relation. */
std::vector<engine::RelationSize> sizesOf(const cat::ResolvedModel& model, Evaluator<Z3Algebra>& ev,
                                          const z3::expr& unmade) {
    std::vector<engine::RelationSize> out;
    std::set<std::string> done;
    for (std::size_t i = model.definitions.size(); i-- > 0;) { // the last definition counts
        const auto& d = model.definitions[i];
        if (d.kind != cat::Kind::Relation || !done.insert(d.name).second) continue;
        if (const auto counts = ev.pairCounts(d.name, unmade))
            out.push_back(engine::RelationSize{d.name, counts->first, counts->second});
        else
            out.push_back(engine::RelationSize{d.name, 0, 0, false});
    }
    std::reverse(out.begin(), out.end());
    return out;
}

} // namespace

UnknownReason z3Words(const std::string& words) {
    const bool limit =
        words == "canceled" || words == "timeout" || words.find("resource") != std::string::npos;
    return {limit ? UnknownKind::SolverLimit : UnknownKind::SolverGaveUp, words};
}

void countEncoding(const z3::solver& s, engine::Stats& stats) {
    z3::expr_vector roots = s.assertions();
    stats.assertions = roots.size();
    std::set<unsigned> seen;
    std::vector<z3::expr> todo;
    for (unsigned i = 0; i < roots.size(); ++i)
        todo.push_back(roots[i]);
    while (!todo.empty()) {
        z3::expr e = todo.back();
        todo.pop_back();
        if (!seen.insert(e.id()).second || !e.is_app()) continue;
        if (e.is_const() && e.decl().decl_kind() == Z3_OP_UNINTERPRETED) {
            if (e.is_bool())
                ++stats.boolVars;
            else if (e.is_int())
                ++stats.intVars;
            else if (e.is_bv())
                ++stats.bitVectorVars;
            continue;
        }
        for (unsigned k = 0; k < e.num_args(); ++k)
            todo.push_back(e.arg(k));
    }
}

void recordQuery(std::vector<engine::QueryTime>& times, const char* purpose,
                 z3::check_result answer, double seconds) {
    auto it = std::find_if(times.begin(), times.end(),
                           [&](const engine::QueryTime& q) { return q.purpose == purpose; });
    if (it == times.end()) it = times.insert(times.end(), engine::QueryTime{purpose});
    ++(answer == z3::sat ? it->sat : answer == z3::unsat ? it->unsat : it->unknown);
    it->seconds += seconds;
}

z3::check_result Z3Session::check(const z3::expr_vector& assumptions, const char* purpose) {
    ++queries_;
    if (options_.progress) options_.progress->query(queries_, purpose);
    if (budget_ != nullptr && budget_->timed()) {
        // Each query gets what is left of the test's time, not the whole limit again.
        budget_->poll();
        z3::params params(ctx_);
        params.set("timeout", budget_->millisLeft());
        solver_.set(params);
    }
    const auto start = std::chrono::steady_clock::now();
    provenBySolver_ = !(readings_ && readingProofs_.proven(assumptions, chosen_));
    if (!provenBySolver_) {
        if (queryTimes_ != nullptr)
            recordQuery(*queryTimes_, "another reading's proof", z3::unsat, 0.0);
        return z3::unsat;
    }
    z3::check_result answer = solver_.check(assumptions);
    if (readings_ && answer == z3::unsat)
        readingProofs_.add(assumptions, chosen_, solver_.unsat_core());
    // Z3 4.8's user propagator can answer sat with a model that misses a value some assertion
    // needs (seen on small mbarrier tests): a test whose model fails is checked again without
    // a propagator (InvalidModel). One that watches nothing (attached early, then given no graph
    // and no lemma) propagates nothing, and the model is Z3's own.
    if (answer == z3::sat && propagator_ && !propagator_->watched().empty() &&
        !modelHolds(solver_.get_model()))
        throw InvalidModel(purpose);
    if (queryTimes_ != nullptr)
        recordQuery(
            *queryTimes_, purpose, answer,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    // An interrupted query answers unknown ("canceled"): say which limit interrupted it (and
    // options_.progress, which query).
    if (answer == z3::unknown && budget_ != nullptr) budget_->poll();
    return answer;
}

z3::expr_vector withLiteral(const z3::expr_vector& base, const z3::expr& extra) {
    z3::expr_vector one(base.ctx());
    one.push_back(extra);
    return withAll(base, one);
}

z3::expr_vector withAll(const z3::expr_vector& base, const z3::expr_vector& extra) {
    z3::expr_vector out(base.ctx());
    for (unsigned i = 0; i < base.size(); ++i)
        out.push_back(base[i]);
    for (unsigned i = 0; i < extra.size(); ++i)
        out.push_back(extra[i]);
    return out;
}

std::int64_t modelValue(const z3::model& m, const z3::expr& e) {
    z3::expr v = m.eval(e, true);
    std::uint64_t u = 0;
    if (!v.is_numeral_u64(u)) throw std::runtime_error("solver returned a non-numeral value");
    // a 64-bit word is all of it; a 32-bit one is read as signed
    return e.get_sort().bv_size() == 64 ? static_cast<std::int64_t>(u)
                                        : ir::wrap32(static_cast<std::int64_t>(u));
}

Z3Session::Z3Session(Z3Context& ctx, const ir::Program& p, const cat::ResolvedModel& model,
                     const CheckOptions& options, bool hangs, const Budget* budget, bool readings,
                     const std::function<bool()>& wholeSearchTooLarge)
    : ctx_(ctx), program_(p), model_(model), options_(options), hangs_(hangs), readings_(readings),
      solver_(ctx, z3::solver::simple()), progress_(ctx.bool_const("progress")),
      withinBound_(ctx.bool_const("within-bound")), noSpin_(ctx.bool_const("no-spin")),
      anyCut_(ctx.bool_val(false)), budget_(budget) {
    if (options.progress) options.progress->encodingAt(hangs, "the program's events");
    z3::params params(ctx);
    if (options.timeoutSeconds > 0)
        params.set("timeout", static_cast<unsigned>(options.timeoutSeconds * 1000));
    if (options.rlimit > 0) params.set("rlimit", static_cast<unsigned>(options.rlimit));
    solver_.set(params);
    FixedCoherence fixed;
    if (options.fixedOrders) fixed = fixedCoherence(p, model);
    fixedFrom_ = fixed.axioms;
    lap("fixed orders");
    pe_ = std::make_unique<ProgramEncoder>(ctx, p, hangs, budget, fixed.pairs);
    for (unsigned i = 0; i < pe_->constraints().size(); ++i) {
        if (budget_ != nullptr && (i & 255U) == 0) budget_->poll(); // Z3 simplifies each
        solver_.add(pe_->constraints()[i]);
    }
    lap("program");

    // Executions that reach a cut are left out: a spin iteration adds no final state, and
    // beyond the unroll bound the path is not lowered (the bound query asks for them).
    for (std::size_t i = 0; i < p.cuts.size(); ++i) {
        z3::expr spins = pe_->cutSpins(i);
        z3::expr beyond = pe_->cutReached(i) && !spins;
        anyCut_ = anyCut_ || pe_->cutReached(i);
        solver_.add(z3::implies(noSpin_, !spins));
        solver_.add(z3::implies(withinBound_, !beyond));
        boundCuts_.emplace_back(i, beyond);
    }
    // Z3 configures its solver when the propagator is attached, reading every assertion made
    // so far at a cost that grows faster than they do: at the first axiom watched as a graph,
    // that read was 13.1 G of the 2-SM kernel's 50.0 G instructions under --readings (1.0 G
    // by default); here, after the program's constraints alone, 0.26 G, and the queries cost
    // the same (bench/history.md, 2026-12-05 (8)). Attached only where a relation over these
    // events can reach graphAcyclicFrom pairs: a propagator changes how Z3 configures itself.
    const std::size_t eventCount = p.events.size();
    if (options.graphAcyclic && eventCount * eventCount >= options.graphAcyclicFrom) propagator();

    z3::expr_vector lemmas(ctx);
    Z3Algebra alg{ctx, &lemmas, budget, &ctx.freshNames};
    std::vector<ClosureRecord> closures;
    alg.closures = &closures; // lemmas made on demand, propagated or as clauses below
    std::map<ir::Tag, Z3Set> setCache;
    Evaluator<Z3Algebra>::Base base{[&](ir::Tag n) {
                                        auto it = setCache.find(n);
                                        if (it == setCache.end())
                                            it = setCache.emplace(n, pe_->baseSet(n)).first;
                                        return it->second;
                                    },
                                    [&](ir::Rel n) { return pe_->baseRelation(n); },
                                    {},
                                    {}};
    std::map<ir::Rel, std::shared_ptr<const DenseBase<z3::expr>>> denseCache;
    base.dense = [&](ir::Rel n) -> std::shared_ptr<const DenseBase<z3::expr>> {
        if (auto it = denseCache.find(n); it != denseCache.end()) return it->second;
        const ir::PairTest test = ir::densePairTest(p, n);
        auto& slot = denseCache[n];
        if (test == nullptr) return slot; // null, and not asked again
        if (!slot) {
            const ProgramEncoder* pe = pe_.get();
            slot = std::make_shared<const DenseBase<z3::expr>>(DenseBase<z3::expr>{
                [pe, test](int a, int b) { return pe->densePairHolds(test, a, b); },
                [pe](int a, int b) { return pe->bothExist(a, b); }, std::nullopt});
        }
        return slot;
    };
    std::map<std::string, z3::expr> readingLit;
    if (readings) {
        for (const cat::ReadingInfo& r : model.readings)
            readingLits_.push_back(
                readingLit
                    .emplace(r.reading.modelFile(),
                             ctx.bool_const(("reading:" + r.reading.modelFile()).c_str()))
                    .first->second);
        base.reading = [&readingLit](const std::string& n) { return readingLit.at(n); };
        chooseReading(0);
    } else if (options.reading) {
        base.reading = [&ctx, &options](const std::string& n) {
            return ctx.bool_val(n == options.reading->modelFile());
        };
    }
    const cat::Polarity polarity = cat::analysePolarity(model);
    const bool facts = !hangs && options.mbarrierFacts;
    // Asked by both searches of the facts, the one before the axioms and the one after.
    std::optional<bool> tooLarge;
    std::function<bool()> tooLargeOnce;
    if (wholeSearchTooLarge)
        tooLargeOnce = [&tooLarge, &wholeSearchTooLarge] {
            if (!tooLarge) tooLarge = wholeSearchTooLarge();
            return *tooLarge;
        };
    std::optional<DecidedObservations> decided;
    if (facts) observationCounts_.second = countPairs(pe_->baseRelation(ir::Rel::MbObs));
    // The facts' sources read on the program's own mb-obs, here and after the axioms (the
    // search on the decided relations' certain pairs passed its limit on cute's Hopper
    // tutorial, 600,002 states, where on these it takes 231): its closures' lemmas are never
    // asserted.
    z3::expr_vector sourceLemmas(ctx);
    Z3Algebra sourceAlg{ctx, &sourceLemmas, budget, &ctx.freshNames};
    std::vector<ClosureRecord> sourceClosures;
    sourceAlg.closures = &sourceClosures;
    std::optional<Evaluator<Z3Algebra>> sources;
    const auto everyReadingUnknown = [](const std::string&) {
        return BoundsAlgebra::Cond::Unknown;
    };
    const std::function<BoundsAlgebra::Cond(const std::string&)> sourceReading =
        readings ? std::function<BoundsAlgebra::Cond(const std::string&)>(everyReadingUnknown)
                 : boundsReading(options);
    // Nothing to decide without an observation: the sources' relations are not read twice.
    if (facts && options.decidedObservations && observationCounts_.second > 0) {
        if (options.progress)
            options.progress->encodingAt(hangs, "the mbarrier facts before the axioms");
        // An evaluator on the program's own mb-obs, for the facts' sources alone: its
        // closures' records and lemmas are dropped with it.
        sources.emplace(sourceAlg, p.events.size(), model, base,
                        options.exactClosures ? nullptr : &polarity);
        sources->lazyClosuresFrom(options.lazyClosurePairsFrom);
        const std::vector<FactsUnder> before =
            factsBeforeAxioms(*pe_, model, *sources, sourceReading, readingLits_, progress_,
                              options, budget, tooLargeOnce);
        decided = decideObservations(*pe_, before, readingLits_, progress_, solver_);
        lap("decided observations");
    }
    if (decided) {
        decided_ = true;
        decidedFrom_ = decided->premises;
        observationCounts_ = {decided->decided, decided->pairs};
        base.rel = [this, &decided](ir::Rel n) {
            return n == ir::Rel::MbObs ? decided->relation : pe_->baseRelation(n);
        };
    }
    Evaluator<Z3Algebra> ev(alg, p.events.size(), model, base,
                            options.exactClosures ? nullptr : &polarity);
    ev.lazyClosuresFrom(options.lazyClosurePairsFrom);
    MbarrierFactsPlan mbarrierPlan(readingLits_);
    if (facts) mbarrierPlan.observations(pe_->baseRelation(ir::Rel::MbObs));
    int index = 0;
    for (const auto& a : model.axioms) {
        std::string tag = "ax" + std::to_string(index++);
        if (options.progress)
            options.progress->encodingAt(hangs, (a.flag ? "flag " : "axiom ") + a.name);
        if (!a.flag && !a.negated && a.test == cat::Stmt::Test::Acyclic) {
            z3::expr lit = ctx.bool_const(("axiom:" + a.name).c_str());
            Z3Rel r = cycleBaseRelation(ev, model, a);
            assertAcyclic(lit, r, tag);
            axioms_.emplace_back(a.name, lit);
            lap("axiom " + a.name);
            // Where every wait returns; the hang encoding's executions need not
            // (smt/MbarrierFacts.hpp).
            if (facts)
                mbarrierPlan.addAcyclic(*pe_,
                                        decided_ && reachesBase(model, *a.expr, ir::Rel::Mbo)
                                            ? cycleBaseRelation(*sources, model, a)
                                            : r,
                                        lit);
            continue;
        }
        if (!a.flag && a.test == cat::Stmt::Test::Irreflexive) {
            // Only the diagonal is read: no term for the other pairs of a composition.
            z3::expr holds = encodeIrreflexive(ctx, ev.reflexivePart(*a.expr));
            z3::expr lit = ctx.bool_const(("axiom:" + a.name).c_str());
            solver_.add(z3::implies(lit, a.negated ? !holds : holds));
            axioms_.emplace_back(a.name, lit);
            if (const cat::Expr* x = facts && !a.negated ? mboPartner(model, *a.expr) : nullptr) {
                // the facts read the partner between the mbarrier operations alone
                mbarrierPlan.addMboCoherence(
                    *pe_,
                    decided_ ? certainAmong(*pe_, model, *x, sourceReading, mbarrierEvents(*pe_))
                             : ev.among(*x, mbarrierEvents(*pe_)),
                    lit);
            } else if (facts && !a.negated && a.expr->op == cat::Expr::Op::Seq &&
                       a.expr->args.size() == 2) {
                addPerObjectOrder(mbarrierPlan, decided_ ? *sources : ev, model, *a.expr, lit,
                                  *pe_);
            }
            lap("axiom " + a.name);
            continue;
        }
        auto val = ev.eval(*a.expr);
        z3::expr holds = encodeCheck(val, ctx, ev, a, tag);
        lap((a.flag ? "flag " : "axiom ") + a.name);
        if (a.flag) {
            // `flag T r as X`: X is raised in executions where the test T holds.
            flags_.emplace_back(a.name, holds);
            flagWitnesses_.push_back(witnessesOf(val));
            continue;
        }
        z3::expr lit = ctx.bool_const(("axiom:" + a.name).c_str());
        solver_.add(z3::implies(lit, holds));
        axioms_.emplace_back(a.name, lit);
    }
    if (options.progress) options.progress->encodingAt(hangs, "the mbarrier facts");
    if (hangs && options.mbarrierFacts) {
        mbarrierFacts_ = assertHangFacts(solver_, *pe_, options.mbarrierFactStates, budget);
        lap("mbarrier facts");
    }
    unsigned boundsFrom = 0, boundsTo = 0; // the flags' bounds among the assertions
    if (facts) {
        std::vector<FactsUnder> found;
        mbarrierFacts_ = mbarrierPlan.assertAll(
            solver_, *pe_, progress_, options.mbarrierFactStates, budget, &found, tooLargeOnce);
        lap("mbarrier facts");
        if (options.flagBounds) {
            boundsFrom = solver_.assertions().size();
            flagBounds_ = ruleOutFlagMembers(*pe_, model, found, boundsReading(options),
                                             readingLits_, flagWitnesses_, solver_);
            boundsTo = solver_.assertions().size();
            lap("flag bounds");
        }
    }
    // The fresh conditions' lower bounds: satisfiable on their own, so asserted outright; only
    // those some check or flag depends on (smt/LemmaCone.hpp).
    z3::expr_vector roots = solver_.assertions();
    for (const auto& [name, cond] : flags_)
        roots.push_back(cond);
    for (const Witnesses& ws : flagWitnesses_)
        for (const auto& [events, cond] : ws)
            roots.push_back(cond);
    for (const z3::expr& atom : graphAtoms_)
        roots.push_back(atom);
    if (budget_ != nullptr) budget_->poll();
    if (options.progress) options.progress->encodingAt(hangs, "the closures' lemmas");
    const Cone needed = lemmaCone(roots, lemmas, closures, Z3Algebra::isFresh);
    lap("lemma cone");
    lemmasKept_ = needed.lemmas.size() + needed.steps.size();
    lemmasMade_ = lemmas.size();
    for (const ClosureRecord& c : closures)
        lemmasMade_ += c.lemmaCount;
    closures.clear(); // the kept lemmas are made: the records' pairs are not needed after
    for (std::size_t k = 0; k < needed.lemmas.size(); ++k) {
        if (budget_ != nullptr && (k & 255U) == 0) budget_->poll();
        solver_.add(lemmas[static_cast<unsigned>(needed.lemmas[k])]);
    }
    // With lazy closures the closures' lower bounds go to the propagator instead, when there
    // are enough of them to pay for it (CheckOptions::lazyClosuresFrom).
    const bool lazy = options.lazyClosures && !needed.steps.empty() &&
                      needed.steps.size() >= options.lazyClosuresFrom;
    for (std::size_t k = 0; k < needed.steps.size(); ++k) {
        if (budget_ != nullptr && (k & 255U) == 0) budget_->poll();
        const StepLemma& step = needed.steps[k];
        if (step.antecedents.empty())
            solver_.add(step.head); // a certain edge and pair (never made: the head is true)
        else if (lazy)
            propagator().add(step);
        else
            solver_.add(step.clause());
    }
    lap("closure lemmas");
    // Afterwards, of the definitions the checks made: a closure's pairs not made yet are
    // counted, not made.
    if (options.stats) // a closure's pairs not made yet count as terms, and stay unmade
        relationSizes_ = sizesOf(model, ev, ctx.bool_const("closure-pair-not-made"));
    lap("relation sizes");
    z3::expr_vector waits(ctx);
    for (const auto& [e, s] : pe_->blockingWaits())
        waits.push_back(s);
    solver_.add(z3::implies(progress_, waits.empty() ? ctx.bool_val(true) : z3::mk_and(waits)));
    if (readings) {
        const z3::expr_vector made = solver_.assertions();
        std::vector<z3::expr> encoded;
        for (unsigned i = 0; i < made.size(); ++i)
            if (i < boundsFrom || i >= boundsTo) encoded.push_back(made[i]);
        assertedReadings_ = readingsNamed(std::move(encoded));
    }
    for (const auto& o : p.observed)
        observed_.push_back(pe_->finalValue(o));
}

bool Z3Session::modelHolds(const z3::model& m) const {
    const z3::expr_vector assertions = solver_.assertions();
    for (unsigned i = 0; i < assertions.size(); ++i)
        if (!m.eval(assertions[i], true).is_true()) return false;
    return propagator_->violatedBy(m) == 0 && !propagator_->cyclicIn(m);
}

ClosurePropagator& Z3Session::propagator() {
    if (!propagator_) propagator_ = std::make_unique<ClosurePropagator>(solver_);
    return *propagator_;
}

void Z3Session::assertAcyclic(const z3::expr& lit, const Z3Rel& r, const std::string& tag) {
    std::size_t possible = 0;
    for (const auto& row : r.rows)
        possible += row.size();
    if (!options_.graphAcyclic || possible < options_.graphAcyclicFrom) {
        solver_.add(z3::implies(lit, encodeAcyclic(ctx_, r, tag)));
        return;
    }
    // Self-loops stay clauses; an edge between strongly connected components can close no
    // cycle; a composite condition is named by a literal it implies.
    std::vector<GraphEdge> edges;
    const std::vector<int> component = stronglyConnected(r);
    for (std::size_t i = 0; i < r.size(); ++i)
        for (const auto& [j, c] : r.rows[i]) {
            if (static_cast<int>(i) == j) {
                solver_.add(z3::implies(lit, !c));
                continue;
            }
            if (component[i] != component[static_cast<std::size_t>(j)]) continue;
            z3::expr atom = c;
            if (!Z3Algebra::isAtom(c)) {
                atom = ctx_.bool_const(
                    (tag + "_edge_" + std::to_string(i) + "_" + std::to_string(j)).c_str());
                solver_.add(z3::implies(c, atom));
            }
            if (!atom.is_true()) graphAtoms_.push_back(atom);
            edges.push_back({static_cast<int>(i), j, atom});
        }
    // The propagator watches a literal of its own: an assumption it registers itself would
    // be one Z3 4.8's propagator mishandles (models that violate the assertions).
    z3::expr on = ctx_.bool_const((tag + "_graph").c_str());
    solver_.add(z3::implies(lit, on));
    graphAtoms_.push_back(on);
    propagator().addAcyclic(on, r.size(), edges);
    ++graphs_;
}

void Z3Session::lap(const std::string& phase) {
    if (!options_.stats) return;
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - lapStart_).count();
    lapStart_ = now;
    auto it = std::find_if(phases_.begin(), phases_.end(),
                           [&](const engine::PhaseTime& t) { return t.phase == phase; });
    if (it == phases_.end()) it = phases_.insert(phases_.end(), engine::PhaseTime{phase});
    it->seconds += seconds;
}

void Z3Session::chooseReading(std::size_t k) {
    reading_ = k;
    if (unfixed_) unfixed_->chooseReading(k);
    chosen_.clear();
    for (std::size_t i = 0; i < readingLits_.size(); ++i)
        chosen_.push_back(i + 1 == k ? readingLits_[i] : !readingLits_[i]);
}

std::set<std::size_t> Z3Session::readingsNamed(std::vector<z3::expr> todo) const {
    std::map<unsigned, std::size_t> reading; // literal's id -> reading
    for (std::size_t i = 0; i < readingLits_.size(); ++i)
        reading[readingLits_[i].id()] = i + 1;
    std::set<std::size_t> used;
    if (reading.empty()) return used;
    std::set<unsigned> seen;
    while (!todo.empty()) {
        z3::expr e = todo.back();
        todo.pop_back();
        if (!seen.insert(e.id()).second || !e.is_app()) continue;
        if (auto it = reading.find(e.id()); it != reading.end()) used.insert(it->second);
        for (unsigned k = 0; k < e.num_args(); ++k)
            todo.push_back(e.arg(k));
    }
    return used;
}

std::set<std::size_t> Z3Session::readingsUsed() const {
    if (readingLits_.empty()) return {};
    std::vector<z3::expr> todo;
    for (const auto& [name, cond] : flags_) // flags are asked as queries, never asserted
        todo.push_back(cond);
    if (propagator_) // nor are the lazy closure lemmas
        for (const z3::expr& e : propagator_->watched())
            todo.push_back(e);
    for (const Witnesses& ws : flagWitnesses_)
        for (const auto& [events, cond] : ws)
            todo.push_back(cond);
    std::set<std::size_t> used = readingsNamed(std::move(todo));
    used.insert(assertedReadings_.begin(), assertedReadings_.end());
    return used;
}

namespace {

/** The ids of `v`'s terms, sorted. */
std::vector<unsigned> idsOf(const z3::expr_vector& v) {
    std::vector<unsigned> out;
    for (unsigned i = 0; i < v.size(); ++i)
        out.push_back(v[i].id());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

z3::check_result Z3Session::checkFlag(std::size_t i, const z3::expr_vector& base,
                                      const char* purpose) {
    const std::size_t k = readingLits_.empty() ? 0 : reading_;
    if (settled_ && settled_->first == reading_ && k < flagBounds_.settled.size() &&
        flagBounds_.settled[k].at(i) && settled_->second == idsOf(base)) {
        if (queryTimes_ != nullptr)
            recordQuery(*queryTimes_, "flags the bounds rule out", z3::unsat, 0.0);
        return z3::unsat;
    }
    return check(withLiteral(base, flags_.at(i).second), purpose);
}

bool Z3Session::settleFlagBounds(const z3::expr_vector& base, const std::vector<int>& allowedRun) {
    settled_.reset();
    // Under --readings the facts of an order some readings leave out hold only under the
    // others: under those, their `when` is false and there is nothing to ask of it (Q22's
    // variant on cute's tutorial: a query of 80 s that can only find an execution). The
    // others are asked as they are, not as this reading makes them, so that a proof under
    // one reading serves each other one whose literals it did not read (ReadingProofs).
    z3::expr_vector kept(ctx_);
    for (const z3::expr& when : flagBounds_.premises)
        if (readingLits_.empty() || !falseUnderReading(when, readingLits_, reading_))
            kept.push_back(when);
    if (kept.empty()) return true;
    const z3::expr premise = z3::mk_and(kept);
    // A run through a misuse the facts' search met first breaks the condition: with its
    // choices assumed the solver only checks them, where alone it searches for such a run.
    if (!allowedRun.empty() &&
        check(withLiteral(withAll(base, encoder().choicesOf(allowedRun)), !premise),
              "flag bounds, scheduled") == z3::sat)
        return true;
    const z3::expr denied = !premise;
    const z3::check_result r = check(withLiteral(base, denied), "flag bounds");
    if (r == z3::unknown) return false;
    // The lemma's premise is the proof's core, not the whole of `base`: with every reading's
    // literal in it, each reading's flag proofs that read it would be its own (ReadingProofs).
    // Where another reading's proof answered, the lemma asserted with it holds here too.
    if (r == z3::unsat) settled_.emplace(reading_, idsOf(base));
    if (r == z3::unsat && provenBySolver_) {
        const z3::expr_vector core = solver_.unsat_core();
        z3::expr_vector needed(ctx_);
        for (unsigned i = 0; i < core.size(); ++i)
            if (!z3::eq(core[i], denied)) needed.push_back(core[i]);
        solver_.add(z3::implies(z3::mk_and(needed), premise));
    }
    return true;
}

Z3Session& Z3Session::unfixed() {
    if (!unfixed_) {
        CheckOptions unfixed = options_;
        unfixed.fixedOrders = false;
        unfixed.decidedObservations = false;
        unfixed_ = std::make_unique<Z3Session>(ctx_, program_, model_, unfixed, hangs_, budget_,
                                               readings_);
        if (queryTimes_ != nullptr) unfixed_->timeQueries(queryTimes_);
        unfixed_->chooseReading(reading_);
    }
    return *unfixed_;
}

Z3Session& Z3Session::exact() {
    return decided_ ? unfixed() : *this;
}

/** Whether checkWithout(axiom) asks the encoding without fixed orders or decided pairs. */
bool Z3Session::withoutNeedsUnfixed(const std::string& axiom) const {
    // Without progress: never on decided mb-obs pairs, which rest on it.
    return decided_ || std::find(fixedFrom_.begin(), fixedFrom_.end(), axiom) != fixedFrom_.end();
}

z3::solver& Z3Session::solverWithout(const std::string& axiom) {
    return withoutNeedsUnfixed(axiom) ? unfixed().solver() : solver_;
}

z3::check_result Z3Session::checkWithout(const std::string& axiom, const char* purpose) {
    if (!withoutNeedsUnfixed(axiom)) return check(assumptions(false, {axiom}), purpose);
    Z3Session& other = unfixed(); // its queries count in queries()
    return other.check(other.assumptions(false, {axiom}), purpose);
}

z3::expr_vector Z3Session::assumptions(bool withProgress, const std::set<std::string>& without,
                                       bool beyondBound, bool spins) const {
    for (const std::string& name : fixedFrom_)
        if (without.count(name))
            throw std::logic_error("a query leaves out axiom " + name +
                                   ", whose consequences the encoding fixes: use checkWithout");
    for (const std::string& name : decidedFrom_)
        if (without.count(name))
            throw std::logic_error("a query leaves out axiom " + name +
                                   ", on which decided mb-obs pairs rest: use checkWithout");
    if (!withProgress && decided_)
        throw std::logic_error("a query without progress on an encoding whose mb-obs pairs rest "
                               "on it: use exact()");
    z3::expr_vector out(ctx_);
    for (const auto& [name, lit] : axioms_)
        if (!without.count(name)) out.push_back(lit);
    if (withProgress) out.push_back(progress_);
    if (!beyondBound) out.push_back(withinBound_);
    if (!spins) out.push_back(noSpin_);
    for (const z3::expr& lit : chosen_)
        out.push_back(lit);
    return out;
}

Choices Z3Session::choices(const z3::model& m) {
    return pe_->choices(m);
}

} // namespace ptxmc::engine::smt
