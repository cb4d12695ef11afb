// Flag members and pairs that no execution under the mbarrier facts can raise.
#include "smt/FlagBounds.hpp"

#include "engine/Evaluator.hpp"
#include "engine/MbarrierMachine.hpp"
#include "ir/BaseRelations.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>

namespace ptxmc::engine::smt {

namespace {

using Cond = BoundsAlgebra::Cond;

std::size_t at(int event) {
    return static_cast<std::size_t>(event);
}

/**
 * The base sets and relations of the executions where one facts' `when` holds, as bounds:
 * conditions the encoding already decides (true: must, false: absent), refined by the facts
 * for the choices they fix (mbo, mb-obs, MB_MISUSE).
 */
class BaseBounds {
public:
    BaseBounds(ProgramEncoder& pe, const schedules::MbarrierFacts& facts)
        : pe_(pe), facts_(facts), n_(pe.program().events.size()), sure_(n_) {
        for (std::size_t e = 0; e < n_; ++e)
            if (pe.exists(static_cast<int>(e)).is_true()) sure_.set(e);
        for (const auto& [w, returns] : pe.blockingWaits())
            returning_.insert(w); // where `progress` holds (a guarded one: where it happens)
        for (const auto& [op, before] : facts.alwaysAfter)
            for (int b : before)
                before_.insert({b, op});
    }

    BoundedSet set(ir::Tag tag) const {
        BoundedSet out{BitSet(n_), BitSet(n_)};
        if (tag == ir::Tag::MB_MISUSE) {
            for (const auto& [o, bad] : pe_.baseSet(tag).members)
                if (!(facts_.misuseKnown && facts_.misuseFree.count(o))) out.may.set(at(o));
            return out;
        }
        for (int e : ir::baseSet(pe_.program(), tag)) {
            out.may.set(at(e));
            if (sure_.test(at(e))) out.must.set(at(e));
        }
        return out;
    }

    BoundedRel relation(ir::Rel rel) const {
        switch (rel) {
        case ir::Rel::Rf:
            return readsFrom();
        case ir::Rel::Co:
        case ir::Rel::Sc:
            return decided(pe_.baseRelation(rel));
        case ir::Rel::Mbo:
            return mbarrierOrder();
        case ir::Rel::MbObs:
            return observed();
        default:
            break;
        }
        BoundedRel out{BitRel(n_), BitRel(n_)};
        auto put = [&](std::size_t a, std::size_t b) {
            out.may.set(a, b);
            if (sure_.test(a) && sure_.test(b)) out.must.set(a, b);
        };
        // The dense ones pair by pair: their n^2 pairs as a list cost 120 MB at 3,916 events.
        if (const ir::PairTest test = ir::densePairTest(pe_.program(), rel)) {
            const auto& events = pe_.program().events;
            for (std::size_t a = 0; a < n_; ++a)
                for (std::size_t b = 0; b < n_; ++b)
                    if (test(events[a], events[b])) put(a, b);
            return out;
        }
        for (const auto& [a, b] : ir::staticRelation(pe_.program(), rel))
            put(at(a), at(b));
        return out;
    }

private:
    /** Pairs whose condition is true are in every execution; the others may be. */
    BoundedRel decided(const Z3Rel& r) const {
        BoundedRel out{BitRel(n_), BitRel(n_)};
        for (std::size_t a = 0; a < r.rows.size(); ++a)
            for (const auto& [b, c] : r.rows[a]) {
                out.may.set(a, at(b));
                if (c.is_true()) out.must.set(a, at(b));
            }
        return out;
    }

    /** A read that surely happens and has one candidate write reads from it. */
    BoundedRel readsFrom() const {
        BoundedRel out = decided(pe_.baseRelation(ir::Rel::Rf));
        for (const ir::Event& r : pe_.program().events) {
            if (!r.has(ir::Tag::R) || !sure_.test(at(r.id))) continue;
            const std::vector<int> cands = ir::rfCandidates(pe_.program(), r);
            if (cands.size() == 1) out.must.set(at(cands[0]), at(r.id));
        }
        return out;
    }

    /** The facts' order: a before b in every execution where `when` holds. */
    bool alwaysBefore(int a, int b) const { return before_.count({a, b}) > 0; }

    BoundedRel mbarrierOrder() const {
        BoundedRel out = decided(pe_.baseRelation(ir::Rel::Mbo));
        for (std::size_t a = 0; a < n_; ++a)
            out.may.forEachInRow(a, [&](std::size_t b) {
                const int ia = static_cast<int>(a), ib = static_cast<int>(b);
                if (alwaysBefore(ia, ib) && sure_.test(a) && sure_.test(b)) out.must.set(a, b);
            });
        dropReversed(out);
        return out;
    }

    /** The one phase the facts give `op`, if they give one. */
    std::optional<std::int64_t> phase(int op) const {
        auto it = facts_.phases.find(op);
        if (it == facts_.phases.end() || it->second.size() != 1) return std::nullopt;
        return *it->second.begin();
    }

    /** mb-obs (a, b): a before b in mbo, b returned True, and a's phase is before b's. */
    BoundedRel observed() const {
        BoundedRel out = decided(pe_.baseRelation(ir::Rel::MbObs));
        BitRel drop(n_);
        for (std::size_t a = 0; a < n_; ++a)
            out.may.forEachInRow(a, [&](std::size_t b) {
                const int ia = static_cast<int>(a), ib = static_cast<int>(b);
                const std::optional<std::int64_t> pa = phase(ia), pb = phase(ib);
                if (pa && pb && *pa >= *pb) return drop.set(a, b); // not after: never seen
                if (pa && pb && alwaysBefore(ia, ib) && returning_.count(ib) && sure_.test(a) &&
                    sure_.test(b))
                    out.must.set(a, b);
            });
        out.may = BitOps{n_}.diffRels(out.may, drop);
        dropReversed(out);
        return out;
    }

    /** No pair whose events the facts order the other way round. */
    void dropReversed(BoundedRel& r) const {
        for (const auto& [a, b] : before_) {
            r.may.reset(at(b), at(a));
            r.must.reset(at(b), at(a));
        }
    }

    ProgramEncoder& pe_;
    const schedules::MbarrierFacts& facts_;
    std::size_t n_;
    BitSet sure_;             ///< events that happen in every execution
    std::set<int> returning_; ///< spinning waits that return True
    std::set<std::pair<int, int>> before_;
};

/** Whether the flag's member or pair `events` is in the may-bound `val`. */
template <class Val> bool mayHold(const Val& val, const std::vector<int>& events) {
    if (val.polymorphicEmpty) return false;
    if (val.isSet) return events.size() == 1 && val.set.may.test(at(events[0]));
    const int a = events[0], b = events.size() > 1 ? events[1] : events[0];
    return val.rel.may.test(at(a), at(b));
}

/**
 * Where a member is ruled out under the readings `out` says (by index: 0 the default, k the
 * k-th literal's), the condition on the literals under which it is: true where under all;
 * with the default, none of the others' literals; without it, one of its readings' (one
 * reading is chosen at a time: Z3Session::chooseReading). Null where under none.
 */
std::optional<z3::expr> readingsGuard(z3::context& ctx, const std::vector<bool>& out,
                                      const std::vector<z3::expr>& literals) {
    if (std::all_of(out.begin(), out.end(), [](bool b) { return b; })) return ctx.bool_val(true);
    z3::expr_vector terms(ctx);
    for (std::size_t k = 1; k < out.size(); ++k)
        if (out[0] && !out[k])
            terms.push_back(!literals[k - 1]);
        else if (!out[0] && out[k])
            terms.push_back(literals[k - 1]);
    if (out[0]) return z3::mk_and(terms);
    if (terms.empty()) return std::nullopt;
    return z3::mk_or(terms);
}

/** The base sets and relations of one facts' bounds, each made once for every reading. */
struct BaseCache {
    BaseBounds& bounds;
    std::map<ir::Tag, BoundedSet> sets;
    std::map<ir::Rel, BoundedRel> rels;
};

/** The flags' values on bounds under one facts and one reading (`reading`), reusing what
 *  the default reading's evaluator has made that the reading does not change. */
class ReadingBounds {
public:
    using Eval = Evaluator<BoundsAlgebra>;

    ReadingBounds(ProgramEncoder& pe, const cat::ResolvedModel& model, BaseCache& cache,
                  std::function<Cond(const std::string&)> reading)
        : model_(model) {
        Eval::Base base{[&cache](ir::Tag t) {
                            auto it = cache.sets.find(t);
                            if (it == cache.sets.end())
                                it = cache.sets.emplace(t, cache.bounds.set(t)).first;
                            return it->second;
                        },
                        [&cache](ir::Rel r) {
                            auto it = cache.rels.find(r);
                            if (it == cache.rels.end())
                                it = cache.rels.emplace(r, cache.bounds.relation(r)).first;
                            return it->second;
                        },
                        std::move(reading),
                        {}};
        ev_ = std::make_unique<Eval>(alg_, pe.program().events.size(), model, base);
    }

    void reuse(const ReadingBounds& from, const cat::ReadingReach& reach,
               const std::string& changed) {
        ev_->reuse(*from.ev_, reach, {changed});
    }

    BoundedRel relation(const cat::Expr& x) { return ev_->relation(x); }

    /** By flag axiom (in the model's order) and member: whether `witnesses` lies outside the
     *  flag's may-bound (false for a member whose condition is already false). */
    std::vector<std::vector<bool>> ruledOut(const std::vector<FlagMembers>& witnesses) {
        std::vector<std::vector<bool>> out;
        for (const cat::Axiom& a : model_.axioms) {
            if (!a.flag) continue;
            const FlagMembers& members = witnesses.at(out.size());
            out.emplace_back(members.size(), false);
            if (a.test != cat::Stmt::Test::Empty || !a.negated) continue;
            const auto val = ev_->eval(*a.expr);
            for (std::size_t m = 0; m < members.size(); ++m)
                out.back()[m] = !mayHold(val, members[m].first) && !members[m].second.is_false();
        }
        return out;
    }

private:
    const cat::ResolvedModel& model_;
    BoundsAlgebra alg_;
    std::unique_ptr<Eval> ev_;
};

/** The readings some flag's expression reaches (the others leave every flag as the default
 *  reading has it). */
std::set<std::string> readingsOfFlags(const cat::ResolvedModel& model,
                                      const cat::ReadingReach& reach) {
    std::set<std::string> out;
    for (const cat::Axiom& a : model.axioms)
        if (a.flag) out.merge(reach.of(*a.expr));
    return out;
}

} // namespace

BoundedRel observationBounds(ProgramEncoder& pe, const schedules::MbarrierFacts& facts) {
    return BaseBounds(pe, facts).relation(ir::Rel::MbObs);
}

Z3Rel certainAmong(ProgramEncoder& pe, const cat::ResolvedModel& model, const cat::Expr& x,
                   const std::function<BoundsAlgebra::Cond(const std::string&)>& reading,
                   const std::vector<int>& events) {
    const schedules::MbarrierFacts none;
    BaseBounds bounds(pe, none);
    BaseCache cache{bounds, {}, {}};
    ReadingBounds on(pe, model, cache, reading);
    const BoundedRel r = on.relation(x);
    z3::context& ctx = pe.ctx();
    Z3Rel out(pe.program().events.size());
    for (int a : events)
        for (int b : events)
            if (r.must.test(at(a), at(b))) out.rows[at(a)].emplace(b, ctx.bool_val(true));
    return out;
}

bool falseUnderReading(const z3::expr& c, const std::vector<z3::expr>& readingLiterals,
                       std::size_t reading) {
    z3::expr_vector from(c.ctx()), to(c.ctx());
    for (std::size_t i = 0; i < readingLiterals.size(); ++i) {
        from.push_back(readingLiterals[i]);
        to.push_back(c.ctx().bool_val(i + 1 == reading));
    }
    return z3::expr(c).substitute(from, to).simplify().is_false();
}

FlagBoundsSummary
ruleOutFlagMembers(ProgramEncoder& pe, const cat::ResolvedModel& model,
                   const std::vector<FactsUnder>& found,
                   const std::function<BoundsAlgebra::Cond(const std::string&)>& reading,
                   const std::vector<z3::expr>& readingLiterals,
                   const std::vector<FlagMembers>& witnesses, z3::solver& solver) {
    FlagBoundsSummary out;
    for (const FlagMembers& ws : witnesses)
        out.witnesses += ws.size();
    const cat::ReadingReach reach(model);
    const std::set<std::string> reached = readingsOfFlags(model, reach);
    z3::context& ctx = solver.ctx();
    const std::size_t readings = readingLiterals.size() + 1; // the default, then each literal's
    // Each member counts once, however many facts rule it out (--readings has the default
    // order's and decision Q22's: "6714 of 3491" on the FA4-like kernel).
    std::set<std::pair<std::size_t, std::size_t>> counted; // (flag, member)
    // A condition two witnesses share (two flags', or pairs whose closure pairs repeat others
    // through a chain: engine/ClosureChains.hpp) is asserted once.
    std::set<unsigned> asserted;
    // By reading, flag and member: false, or ruled out under that reading by facts whose
    // `when` it leaves open.
    std::vector<std::vector<std::vector<bool>>> outUnder(readings);
    for (auto& byFlag : outUnder)
        for (const FlagMembers& ws : witnesses) {
            byFlag.emplace_back(ws.size());
            for (std::size_t m = 0; m < ws.size(); ++m)
                byFlag.back()[m] = ws[m].second.is_false();
        }
    for (const FactsUnder& f : found) {
        if (!f.facts.known) continue;
        BaseBounds bounds(pe, f.facts);
        BaseCache cache{bounds, {}, {}};
        // The default reading (or the one --reading chose), then, under --readings, each
        // reading on its own, where the facts hold under it and it reaches a flag.
        ReadingBounds first(pe, model, cache, reading);
        std::vector<std::vector<std::vector<bool>>> byReading{first.ruledOut(witnesses)};
        std::vector<bool> vacuous(readings, false);
        for (std::size_t k = 1; k < readings; ++k) {
            const std::string& name = model.readings.at(k - 1).reading.modelFile();
            vacuous[k] = falseUnderReading(f.when, readingLiterals, k);
            if (vacuous[k] || !reached.count(name)) {
                byReading.push_back(byReading[0]);
                continue;
            }
            ReadingBounds one(pe, model, cache, [&name](const std::string& r) {
                return r == name ? Cond::True : Cond::False;
            });
            one.reuse(first, reach, name);
            byReading.push_back(one.ruledOut(witnesses));
        }
        vacuous[0] = !readingLiterals.empty() && falseUnderReading(f.when, readingLiterals, 0);
        if (std::all_of(vacuous.begin(), vacuous.end(), [](bool b) { return b; })) continue;
        for (std::size_t k = 0; k < readings; ++k)
            if (!vacuous[k])
                for (std::size_t index = 0; index < witnesses.size(); ++index)
                    for (std::size_t m = 0; m < witnesses[index].size(); ++m)
                        if (byReading[k][index][m]) outUnder[k][index][m] = true;
        bool some = false;
        for (std::size_t index = 0; index < witnesses.size(); ++index)
            for (std::size_t m = 0; m < witnesses[index].size(); ++m) {
                std::vector<bool> under(readings);
                for (std::size_t k = 0; k < under.size(); ++k)
                    under[k] = vacuous[k] || byReading[k][index][m];
                const std::optional<z3::expr> guard = readingsGuard(ctx, under, readingLiterals);
                if (!guard) continue;
                const z3::expr fact = z3::implies(guard->is_true() ? f.when : f.when && *guard,
                                                  !witnesses[index][m].second);
                if (asserted.insert(fact.id()).second) solver.add(fact);
                counted.emplace(index, m);
                some = true;
            }
        out.ruledOut = counted.size();
        if (some && std::none_of(out.premises.begin(), out.premises.end(),
                                 [&](const z3::expr& w) { return z3::eq(w, f.when); }))
            out.premises.push_back(f.when);
    }
    for (const auto& byFlag : outUnder) {
        out.settled.emplace_back();
        std::size_t index = 0;
        for (const cat::Axiom& a : model.axioms) {
            if (!a.flag) continue;
            const auto& members = byFlag.at(index++);
            out.settled.back().push_back(
                a.test == cat::Stmt::Test::Empty && a.negated &&
                std::all_of(members.begin(), members.end(), [](bool b) { return b; }));
        }
    }
    return out;
}

} // namespace ptxmc::engine::smt
