// Flag members and pairs that no execution under the mbarrier facts can raise.
#include "smt/FlagBounds.hpp"

#include "engine/Evaluator.hpp"
#include "engine/MbarrierMachine.hpp"
#include "ir/BaseRelations.hpp"

#include <map>
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

} // namespace

FlagBoundsSummary
ruleOutFlagMembers(ProgramEncoder& pe, const cat::ResolvedModel& model,
                   const std::vector<FactsUnder>& found,
                   const std::function<BoundsAlgebra::Cond(const std::string&)>& reading,
                   const std::vector<FlagMembers>& witnesses, z3::solver& solver) {
    FlagBoundsSummary out;
    for (const FlagMembers& ws : witnesses)
        out.witnesses += ws.size();
    // Each member counts once, however many facts rule it out (--readings has the default
    // order's and decision Q22's: "6714 of 3491" on the FA4-like kernel).
    std::set<std::pair<std::size_t, std::size_t>> counted; // (flag, member)
    for (const FactsUnder& f : found) {
        if (!f.facts.known) continue;
        BaseBounds bounds(pe, f.facts);
        std::map<ir::Tag, BoundedSet> sets;
        std::map<ir::Rel, BoundedRel> rels;
        Evaluator<BoundsAlgebra>::Base base{[&](ir::Tag t) {
                                                auto it = sets.find(t);
                                                if (it == sets.end())
                                                    it = sets.emplace(t, bounds.set(t)).first;
                                                return it->second;
                                            },
                                            [&](ir::Rel r) {
                                                auto it = rels.find(r);
                                                if (it == rels.end())
                                                    it = rels.emplace(r, bounds.relation(r)).first;
                                                return it->second;
                                            },
                                            reading,
                                            {}};
        BoundsAlgebra alg;
        Evaluator<BoundsAlgebra> ev(alg, pe.program().events.size(), model, base);
        std::size_t k = 0;
        bool some = false;
        // A condition two witnesses share (two flags', or pairs whose closure pairs repeat
        // others through a chain: engine/ClosureChains.hpp) is asserted once.
        std::set<unsigned> ruledOut;
        for (const cat::Axiom& a : model.axioms) {
            if (!a.flag) continue;
            const std::size_t index = k++;
            if (a.test != cat::Stmt::Test::Empty || !a.negated) continue;
            const auto val = ev.eval(*a.expr);
            const FlagMembers& members = witnesses.at(index);
            for (std::size_t m = 0; m < members.size(); ++m) {
                const auto& [events, cond] = members[m];
                if (mayHold(val, events) || cond.is_false()) continue;
                if (ruledOut.insert(cond.id()).second) solver.add(z3::implies(f.when, !cond));
                counted.emplace(index, m);
                some = true;
            }
        }
        out.ruledOut = counted.size();
        if (some) out.premise = out.premise ? *out.premise && f.when : f.when;
    }
    return out;
}

} // namespace ptxmc::engine::smt
