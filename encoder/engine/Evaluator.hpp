// Evaluates a resolved cat model's expressions over one algebra (Z3 terms or concrete bits).
#pragma once

#include "cat/Polarity.hpp"
#include "cat/ReadingReach.hpp"
#include "cat/Resolver.hpp"
#include "engine/Pairwise.hpp"
#include "engine/Relation.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <type_traits>

namespace ptxmc::engine {

template <class Alg> class Evaluator {
public:
    using Cond = typename Alg::Cond;
    using Set = typename Representation<Alg>::Set;
    using Rel = typename Representation<Alg>::Rel;
    using Ops = typename Representation<Alg>::Ops;
    /** Relations can be read per pair (engine/Pairwise.hpp) where they are sparse maps. */
    static constexpr bool kPairwise = std::is_same_v<Rel, SparseRel<Cond>>;
    using PairNode = typename Pairwise<Alg>::Node;

    /** A value of the language: a set or a relation (`0` is both until used). */
    struct Val {
        bool isSet = false;
        bool polymorphicEmpty = false;
        Set set;
        Rel rel;
        /// A relation read per pair (engine/Pairwise.hpp); `rel` is then built on first use.
        std::shared_ptr<const PairNode> pairwise;
        mutable std::optional<Rel> built;
    };

    struct Base {
        std::function<Set(ir::Tag)> set;
        std::function<Rel(ir::Rel)> rel;
        /// The condition under which a reading (cat::ReadingInfo) holds; none: no reading
        /// holds, so Reading choices take the default model's definitions.
        std::function<Cond(const std::string&)> reading;
        /// The dense program-fixed relations, read per pair (engine/Pairwise.hpp) where a
        /// sparse operand bounds them; null for a relation (or no function): built by `rel`.
        std::function<std::shared_ptr<const DenseBase<Cond>>(ir::Rel)> dense;
    };

    /** With `polarity`, closures that only antitone checks use may be over-approximated by
     *  the algebra (RelOps::plusAtLeast); without it every value is exact. */
    Evaluator(Alg& alg, std::size_t n, const cat::ResolvedModel& model, Base base,
              const cat::Polarity* polarity = nullptr)
        : ops_(Representation<Alg>::ops(alg, n)), pairs_{alg, n}, model_(model),
          base_(std::move(base)), defs_(model.definitions.size()), polarity_(polarity) {
        emptySet_ = ops_.emptySet();
        emptyRel_ = ops_.emptyRel();
    }

    const Ops& ops() const { return ops_; }

    /** Closures that may have `pairs` or more pairs make them when read (engine/LazyClosure.hpp),
     *  where the algebra keeps closures and relations are read per pair; none by default. */
    void lazyClosuresFrom(std::size_t pairs) { lazyClosuresFrom_ = pairs; }

    Val eval(const cat::Expr& e) { return whole(evalExpr(&e)); }

    /**
     * Takes from `other` (the same model, events and base, under a reading that differs from
     * this one's only in `changed`) its base relations and each definition it has evaluated
     * that reaches no reading of `changed` (`reach`): their values are the same here, and a
     * reading's evaluation then makes only what that reading changes.
     */
    void reuse(const Evaluator& other, const cat::ReadingReach& reach,
               const std::set<std::string>& changed) {
        baseRels_ = other.baseRels_;
        for (std::size_t i = 0; i < defs_.size(); ++i) {
            const auto& reached = reach.ofDefinition(static_cast<int>(i));
            if (other.defs_[i] &&
                std::none_of(changed.begin(), changed.end(),
                             [&](const std::string& r) { return reached.count(r) > 0; }))
                defs_[i] = other.defs_[i];
        }
    }

    Rel relation(const cat::Expr& e) { return asRel(evalExpr(&e)); }

    /**
     * The reflexive pairs of relation `e`, all that `irreflexive e` reads. A sequence (through
     * definitions not yet evaluated) is composed from its sparsest factor round to the one
     * before it, and the last step builds only the diagonal: irreflexive (a ; b) holds iff
     * irreflexive (b ; a) does, and the whole composition would be a term per pair.
     */
    Rel reflexivePart(const cat::Expr& e) {
        std::vector<const cat::Expr*> factors;
        seqFactors(&e, factors);
        if (factors.size() < 2) return ops_.diagonal(relation(e));
        std::vector<ValPtr> values; // keeps each factor alive while it is read in place
        for (const cat::Expr* f : factors) {
            values.push_back(evalExpr(f));
            // the factors after an empty one unread (Mbarrier-Real-Time's xo, by default)
            if (hasNoPairs(values.back())) return ops_.emptyRel();
        }
        if constexpr (kPairwise)
            if (auto diagonal = reflexiveThroughPairwise(values)) return *diagonal;
        std::vector<const Rel*> rels;
        for (const ValPtr& v : values)
            rels.push_back(&asRel(v));
        return ops_.reflexiveOfCycle(rels);
    }

    /**
     * The pairs of relation `e` whose ends are both among `events` (ascending): where `e` is
     * read per pair, only those pairs are read (a closure's pairs elsewhere are not made).
     */
    Rel among(const cat::Expr& e, const std::vector<int>& events) {
        ValPtr v = evalExpr(&e);
        Rel out = ops_.emptyRel();
        if (v->polymorphicEmpty) return out;
        if constexpr (kPairwise)
            if (v->pairwise) {
                for (int a : events)
                    for (int b : events)
                        if (Cond c = pairs_.at(*v->pairwise, a, b); !ops_.alg.isFalse(c))
                            out.rows[static_cast<std::size_t>(a)].emplace(b, std::move(c));
                return out;
            }
        const Rel& r = asRel(v);
        for (int a : events)
            for (int b : events)
                if (auto it = r.rows[static_cast<std::size_t>(a)].find(b);
                    it != r.rows[static_cast<std::size_t>(a)].end())
                    out.rows[static_cast<std::size_t>(a)].emplace(b, it->second);
        return out;
    }

    /** How many pairs of definition `name` are true and how many are solver terms, without
     *  making a closure's pairs that are not made yet (each counts as a term); none where
     *  the definition is not made (nor made here: ThunderKittens' pf-war took 71 s). */
    std::optional<std::pair<std::size_t, std::size_t>> pairCounts(const std::string& name,
                                                                  const Cond& unmade) {
        std::size_t must = 0, may = 0;
        for (std::size_t i = model_.definitions.size(); i-- > 0;) {
            if (model_.definitions[i].name != name) continue;
            if (!defs_[i]) return std::nullopt;
            const ValPtr& v = defValue(static_cast<int>(i));
            if (v->polymorphicEmpty || v->isSet) return std::pair<std::size_t, std::size_t>{0, 0};
            auto count = [&](const Cond& c) {
                if (!ops_.alg.isFalse(c)) ++(ops_.alg.isTrue(c) ? must : may);
            };
            if constexpr (kPairwise)
                if (v->pairwise && !v->built) {
                    std::vector<int> cands;
                    for (std::size_t a = 0; a < ops_.n; ++a) {
                        pairs_.row(*v->pairwise, static_cast<int>(a), cands);
                        for (int b : cands)
                            count(pairs_.at(*v->pairwise, static_cast<int>(a), b, &unmade));
                    }
                    return std::pair{must, may};
                }
            for (const auto& row : asRel(v).rows)
                for (const auto& [j, c] : row)
                    count(c);
            return std::pair{must, may};
        }
        return std::pair<std::size_t, std::size_t>{0, 0};
    }
    Set set(const cat::Expr& e) { return asSet(evalExpr(&e)); }

    /** Value of a definition by name (the last one with that name). */
    std::optional<Val> definition(const std::string& name) {
        for (std::size_t i = model_.definitions.size(); i-- > 0;)
            if (model_.definitions[i].name == name) return whole(defValue(static_cast<int>(i)));
        return std::nullopt;
    }

private:
    /** Values are shared, not copied: a definition such as causality (10^5 pairs on a ring) is
     *  read by many expressions, and a copy per reading cost a tenth of a ring's check. */
    using ValPtr = std::shared_ptr<const Val>;

    const Rel& asRel(const ValPtr& v) const {
        if (v->polymorphicEmpty) return emptyRel_;
        if (v->isSet) throw std::logic_error("relation expected (resolver bug)");
        if constexpr (kPairwise)
            if (v->pairwise) {
                if (!v->built) v->built = pairs_.materialize(*v->pairwise);
                return *v->built;
            }
        return v->rel;
    }
    /** A copy of the value with a relation read per pair built. */
    Val whole(const ValPtr& v) const {
        Val out = *v;
        if (out.pairwise) {
            out.rel = asRel(v);
            out.pairwise.reset();
            out.built.reset();
        }
        return out;
    }
    static ValPtr ofPairs(PairNode node) {
        Val v;
        v.pairwise = std::make_shared<const PairNode>(std::move(node));
        return std::make_shared<const Val>(std::move(v));
    }
    /** The value as an operand read per pair: its expression (never built here), or its
     *  relation built whole, read in place. */
    std::shared_ptr<const PairNode> pairNode(const ValPtr& v) const {
        if (v->pairwise) return v->pairwise;
        PairNode leaf;
        leaf.owner = v;
        leaf.sparse = &asRel(v);
        return std::make_shared<const PairNode>(std::move(leaf));
    }
    /** Whether relations are read per pair here (the base gives dense relations). */
    bool pairwiseOn() const {
        if constexpr (kPairwise) return static_cast<bool>(base_.dense);
        return false;
    }
    const Set& asSet(const ValPtr& v) const {
        if (v->polymorphicEmpty) return emptySet_;
        if (!v->isSet) throw std::logic_error("set expected (resolver bug)");
        return v->set;
    }
    static ValPtr ofSet(Set s) {
        Val v;
        v.isSet = true;
        v.set = std::move(s);
        return std::make_shared<const Val>(std::move(v));
    }
    static ValPtr ofRel(Rel r) {
        Val v;
        v.rel = std::move(r);
        return std::make_shared<const Val>(std::move(v));
    }
    static ValPtr emptyValue() {
        Val v;
        v.polymorphicEmpty = true;
        return std::make_shared<const Val>(std::move(v));
    }

    const ValPtr& defValue(int index) {
        auto& slot = defs_[static_cast<std::size_t>(index)];
        if (slot) return slot;
        const auto& d = model_.definitions[static_cast<std::size_t>(index)];
        if (d.recursive) {
            evalGroup(d.group);
        } else {
            if (inProgress_.count(index))
                throw std::logic_error("cyclic definition (resolver bug)");
            inProgress_.insert(index);
            ValPtr v = evalExpr(d.expr.get());
            inProgress_.erase(index);
            if (v->polymorphicEmpty)
                v = d.kind == cat::Kind::Set ? ofSet(ops_.emptySet()) : ofRel(ops_.emptyRel());
            defs_[static_cast<std::size_t>(index)] = std::move(v);
        }
        return defs_[static_cast<std::size_t>(index)];
    }

    /** Least fixpoint of a `let rec` group by Kleene iteration from empty relations. */
    void evalGroup(int group) {
        std::vector<int> members;
        for (std::size_t i = 0; i < model_.definitions.size(); ++i)
            if (model_.definitions[i].group == group) members.push_back(static_cast<int>(i));
        for (int m : members)
            defs_[static_cast<std::size_t>(m)] = ofRel(ops_.emptyRel());
        // Each round adds at least one pair in every execution until the fixpoint, so n*n
        // rounds per member suffice; structural equality stops much earlier in practice.
        std::size_t bound = ops_.n * ops_.n * members.size() + 1;
        for (std::size_t round = 0; round < bound; ++round) {
            std::vector<ValPtr> next;
            for (int m : members)
                next.push_back(
                    evalExpr(model_.definitions[static_cast<std::size_t>(m)].expr.get()));
            bool same = true;
            for (std::size_t k = 0; k < members.size(); ++k)
                same = same &&
                       ops_.sameSupportAndTerms(asRel(defs_[static_cast<std::size_t>(members[k])]),
                                                asRel(next[k]));
            for (std::size_t k = 0; k < members.size(); ++k)
                defs_[static_cast<std::size_t>(members[k])] =
                    next[k]->polymorphicEmpty ? ofRel(ops_.emptyRel()) : next[k];
            if (same) return;
        }
    }

    ValPtr evalExpr(const cat::Expr* e) {
        using Op = cat::Expr::Op;
        auto arg = [&](std::size_t i) { return evalExpr(e->args.at(i).get()); };
        switch (e->op) {
        case Op::Name: {
            int b = model_.binding.at(e);
            if (b >= 0) return defValue(b);
            const cat::BaseRef& base = model_.bases.at(e);
            if (const auto* tag = std::get_if<ir::Tag>(&base)) return ofSet(base_.set(*tag));
            const ir::Rel rel = std::get<ir::Rel>(base);
            if constexpr (kPairwise)
                if (pairwiseOn())
                    if (auto dense = base_.dense(rel)) {
                        PairNode node;
                        node.kind = Pairwise<Alg>::Kind::Dense;
                        node.dense = std::move(dense);
                        return ofPairs(std::move(node));
                    }
            // Built once and shared: a base such as cta-shared is millions of pairs on a
            // library kernel, and a copy per mention cost seconds and gigabytes.
            auto [slot, isNew] = baseRels_.try_emplace(rel);
            if (isNew) slot->second = ofRel(base_.rel(rel));
            return slot->second;
        }
        case Op::Empty:
            return emptyValue();
        case Op::Universe:
            return ofSet(ops_.universe());
        case Op::Union:
        case Op::Inter:
        case Op::Diff:
            return combine(e);
        case Op::Seq:
            return sequence(e);
        case Op::Cartesian:
            if constexpr (kPairwise)
                if (pairwiseOn()) return pairwiseCartesian(arg(0), arg(1));
            return ofRel(ops_.cartesian(asSet(arg(0)), asSet(arg(1))));
        case Op::Complement: {
            ValPtr v = arg(0);
            if (isSetExpr(e)) return ofSet(ops_.complementSet(asSet(v)));
            if constexpr (kPairwise)
                if (pairwiseOn()) return pairwiseOf(Pairwise<Alg>::Kind::Complement, {v});
            return ofRel(ops_.complementRel(asRel(v)));
        }
        case Op::Inverse: {
            ValPtr v = arg(0);
            if constexpr (kPairwise)
                if (v->pairwise) return pairwiseOf(Pairwise<Alg>::Kind::Inverse, {v});
            return ofRel(ops_.inverse(asRel(v)));
        }
        case Op::Plus:
            if (mayGrow(e)) {
                ValPtr a = arg(0);
                if (ValPtr lazy = lazyClosure(a)) return lazy;
                return ofRel(ops_.plusAtLeast(asRel(a)));
            }
            return ofRel(ops_.plus(asRel(arg(0))));
        case Op::Star:
            if (mayGrow(e)) {
                ValPtr a = arg(0);
                if constexpr (kPairwise) // RelOps::starAtLeast's union, read per pair
                    if (ValPtr lazy = lazyClosure(a))
                        return pairwiseOf(Pairwise<Alg>::Kind::Union,
                                          {ofRel(ops_.identity()), lazy});
                return ofRel(ops_.starAtLeast(asRel(a)));
            }
            return ofRel(ops_.star(asRel(arg(0))));
        case Op::Opt: {
            ValPtr v = arg(0);
            if constexpr (kPairwise) // RelOps::opt's union, read per pair over a lazy closure
                if (v->pairwise && v->pairwise->lazy)
                    return pairwiseOf(Pairwise<Alg>::Kind::Union, {ofRel(ops_.identity()), v});
            return ofRel(ops_.opt(asRel(v)));
        }
        case Op::Bracket:
            return ofRel(ops_.bracket(asSet(arg(0))));
        case Op::Domain:
            return ofSet(ops_.domain(asRel(arg(0))));
        case Op::Range:
            return ofSet(ops_.range(asRel(arg(0))));
        case Op::Reading:
            return chooseReading(e);
        }
        throw std::logic_error("unknown expression");
    }

    /**
     * reflexivePart where some factor is read per pair over a lazy closure: the cycle is
     * composed from the factor after the last such one round to it, one start event at a time
     * (CycleRow), so that a closure's pairs are made only on paths that may close the cycle.
     * None where no factor is: the caller composes the cycle whole.
     */
    std::optional<Rel> reflexiveThroughPairwise(const std::vector<ValPtr>& values) {
        const std::size_t m = values.size();
        std::size_t at = m;
        for (std::size_t k = 0; k < m; ++k)
            if (values[k]->pairwise && !values[k]->built && values[k]->pairwise->lazy) at = k;
        if (at == m) return std::nullopt;
        CycleRow cycle{*this, {}, {}, 0};
        for (std::size_t k = 1; k <= m; ++k) {
            const ValPtr& v = values[(at + k) % m];
            cycle.factors.push_back(v->pairwise && !v->built ? Factor{nullptr, v->pairwise.get()}
                                                             : Factor{&asRel(v), nullptr});
        }
        Rel out = ops_.emptyRel();
        std::vector<int> starts;
        for (std::size_t i = 0; i < ops_.n; ++i) {
            ops_.poll();
            cycle.successors(0, static_cast<int>(i), starts);
            if (starts.empty()) continue;
            if (auto d = cycle.closing(static_cast<int>(i)))
                out.rows[i].emplace(static_cast<int>(i), std::move(*d));
        }
        return out;
    }

    /** A factor of a cycle: built whole, or read per pair. */
    struct Factor {
        const Rel* built;
        const PairNode* pairwise;
    };

    /**
     * The cycles from one start event through the factors and back to it, composed as
     * RelOps::seq composes them, through only the events from which the cycle may still close:
     * an event after factor s may when some path on through the later factors ends at the
     * start with every pair possible (Pairwise::possible makes no term). So a pair read per pair
     * is read only on such a path, and no term is made for a path that cannot close. CUTLASS
     * example 48's proxy rule `rf ; (xo & pf-cov^-1) ; po ; xo?`, its intersection built whole,
     * made 261,000 pairs of `xo`, 530 MB of Z3 constants, and no cycle could close
     * (bench/history.md, 2026-12-05 (2)).
     */
    struct CycleRow {
        Evaluator& ev;
        std::vector<Factor> factors;
        std::vector<std::map<int, bool>> mayClose; ///< per factor: event after it -> may close
        int start;

        /** The events y with (x, y) possibly in factor s, ascending. */
        void successors(std::size_t s, int x, std::vector<int>& out) const {
            out.clear();
            const Factor& f = factors[s];
            if (f.built != nullptr) {
                for (const auto& [y, c] : f.built->rows[static_cast<std::size_t>(x)])
                    out.push_back(y);
                return;
            }
            std::vector<int> candidates;
            ev.pairs_.row(*f.pairwise, x, candidates);
            for (int y : candidates)
                if (ev.pairs_.possible(*f.pairwise, x, y)) out.push_back(y);
        }
        Cond pair(std::size_t s, int x, int y) const {
            const Factor& f = factors[s];
            if (f.built == nullptr) return ev.pairs_.at(*f.pairwise, x, y);
            const auto& row = f.built->rows[static_cast<std::size_t>(x)];
            auto it = row.find(y);
            return it == row.end() ? ev.ops_.alg.fls() : it->second;
        }

        /** Whether the cycle from `start` may close from event x, reached by factor s. */
        bool closes(std::size_t s, int x) {
            if (s + 1 == factors.size()) return x == start;
            auto [it, isNew] = mayClose[s].try_emplace(x, false);
            if (!isNew) return it->second;
            bool out = false;
            std::vector<int> next;
            successors(s + 1, x, next);
            for (int y : next)
                if ((out = closes(s + 1, y))) break;
            mayClose[s][x] = out;
            return out;
        }

        /** The condition of the cycles from i back to i, where some path may close one. */
        std::optional<Cond> closing(int i) {
            const auto& alg = ev.ops_.alg;
            start = i;
            mayClose.assign(factors.size(), {});
            std::map<int, Cond> reached{{i, alg.tru()}}; // before factor s: event -> condition
            std::vector<int> next;
            for (std::size_t s = 0; s < factors.size() && !reached.empty(); ++s) {
                std::map<int, std::vector<Cond>> acc;
                for (const auto& [x, c1] : reached) {
                    ev.ops_.poll();
                    successors(s, x, next);
                    for (int y : next) {
                        if (!closes(s, y)) continue;
                        Cond c2 = pair(s, x, y);
                        if (alg.isFalse(c2)) continue;
                        Cond c = alg.conj(c1, c2);
                        if (!alg.isFalse(c)) acc[y].push_back(std::move(c));
                    }
                }
                reached.clear();
                for (auto& [y, cs] : acc)
                    if (Cond d = alg.disj(std::move(cs)); !alg.isFalse(d))
                        reached.emplace(y, std::move(d));
            }
            auto it = reached.find(i);
            if (it == reached.end()) return std::nullopt;
            return it->second;
        }
    };

    /** a+ as a closure whose pairs are made when read (engine/LazyClosure.hpp), where the
     *  algebra keeps closures and relations are read per pair; null otherwise. */
    ValPtr lazyClosure(const ValPtr& a) {
        if constexpr (kPairwise) {
            // off: no reachability computed twice (plusAtLeast computes its own)
            if (!pairwiseOn() || lazyClosuresFrom_ == static_cast<std::size_t>(-1)) return nullptr;
            auto closure = ops_.plusAtLeastLazy(asRel(a), lazyClosuresFrom_);
            if (!closure) return nullptr;
            PairNode node;
            node.kind = Pairwise<Alg>::Kind::Closure;
            node.closure = std::move(closure);
            node.lazy = true;
            return ofPairs(std::move(node));
        }
        return nullptr;
    }

    /** [s] ; x or, `after`, x ; [s] with x read per pair: again read per pair, an intersection
     *  with s * _ or _ * s (the same condition per pair as the composition). */
    ValPtr bracketed(const cat::Expr* bracket, const ValPtr& x, bool after) {
        ValPtr s = evalExpr(bracket->args.at(0).get());
        ValPtr all = ofSet(ops_.universe());
        PairNode node;
        node.kind = Pairwise<Alg>::Kind::Cartesian;
        node.left = &asSet(after ? all : s);
        node.right = &asSet(after ? s : all);
        node.owner = std::make_shared<const std::pair<ValPtr, ValPtr>>(s, all);
        ValPtr filter = ofPairs(std::move(node));
        return after ? pairwiseOf(Pairwise<Alg>::Kind::Inter, {x, filter})
                     : pairwiseOf(Pairwise<Alg>::Kind::Inter, {filter, x});
    }

    /** Which columns row i of a value needs (RelOps::seqWhere): nothing else reads it. */
    using RowKeep = std::function<void(std::size_t, std::vector<char>&)>;

    /**
     * A sequence, left to right; an operand read per pair is read where the other is sparse.
     * Each step makes only the columns the next factor has rows for, and where the sequence
     * is intersected (`keep`), the steps from the last factor that is no bracket make only
     * the pairs the intersection may keep: `vloc & (fence-after ; cause-base ; [GEN])` made
     * every pair of causality after a proxy fence, and took most of the 156 s of
     * ThunderKittens' pp-cause-base (bench/history.md, 2026-12-02).
     */
    ValPtr sequence(const cat::Expr* e, const RowKeep* keep = nullptr) {
        const std::size_t m = e->args.size();
        std::size_t lastFactor = m - 1; // brackets after it keep each pair where it is
        while (lastFactor > 0 && e->args[lastFactor]->op == cat::Expr::Op::Bracket)
            --lastFactor;
        ValPtr acc = evalExpr(e->args.at(0).get()); // read in place, not copied
        ValPtr ahead;                               // the factor after `next`, evaluated early
        for (std::size_t i = 1; i < m; ++i) {
            // An empty prefix leaves the factors after it unread: tc-issue's eo-chain, a
            // closure over every event, is 880 MiB of example 48's 3,152 (no tcgen05 there).
            if (hasNoPairs(acc)) return ofRel(ops_.emptyRel());
            const cat::Expr* f = e->args[i].get();
            if constexpr (kPairwise) {
                if (acc->pairwise && acc->pairwise->lazy && f->op == cat::Expr::Op::Bracket) {
                    acc = bracketed(f, acc, true);
                    ahead.reset();
                    continue;
                }
            }
            ValPtr next = ahead ? std::move(ahead) : evalExpr(f);
            ahead.reset();
            if constexpr (kPairwise) {
                if (next->pairwise && next->pairwise->lazy && i == 1 &&
                    e->args[0]->op == cat::Expr::Op::Bracket) {
                    acc = bracketed(e->args[0].get(), next, false);
                    continue;
                }
                if ((next->pairwise && next->pairwise->lazy) ||
                    (acc->pairwise && acc->pairwise->lazy)) {
                    // over a lazy closure: read per pair too, built where something reads
                    // it whole, else only at the pairs an intersection or a check reads
                    acc = pairwiseOf(Pairwise<Alg>::Kind::Seq, {acc, next});
                    continue;
                }
                if (next->pairwise) {
                    acc = ofRel(pairs_.seqAfter(asRel(acc), *next->pairwise));
                    continue;
                }
                if (acc->pairwise) {
                    acc = ofRel(pairs_.seqBefore(*acc->pairwise, asRel(next)));
                    continue;
                }
                if (hasNoPairs(next)) return ofRel(ops_.emptyRel());
                if (i + 1 < m) ahead = evalExpr(e->args[i + 1].get());
                if (RowKeep k = stepKeep(ahead, i >= lastFactor ? keep : nullptr)) {
                    acc = ofRel(ops_.seqWhere(asRel(acc), asRel(next), k));
                    continue;
                }
            }
            acc = ofRel(ops_.seq(asRel(acc), asRel(next)));
        }
        return acc;
    }

    /** A relation built whole with no pair (an empty or polymorphic `0`); false for one read
     *  per pair. */
    static bool hasNoPairs(const ValPtr& v) {
        if (v->polymorphicEmpty) return true;
        if constexpr (kPairwise) {
            if (v->isSet || v->pairwise) return false;
            return std::all_of(v->rel.rows.begin(), v->rel.rows.end(),
                               [](const auto& row) { return row.empty(); });
        } else {
            return false;
        }
    }

    /** The columns a step of a sequence needs: the rows of the factor after it (`ahead`,
     *  when built whole), and those `keep` allows; null: all. */
    RowKeep stepKeep(const ValPtr& ahead, const RowKeep* keep) const {
        std::shared_ptr<std::vector<char>> rows;
        if (ahead && !ahead->polymorphicEmpty && !ahead->isSet && !ahead->pairwise) {
            rows = std::make_shared<std::vector<char>>(ops_.n, 0);
            for (std::size_t k = 0; k < ops_.n; ++k)
                (*rows)[k] = ahead->rel.rows[k].empty() ? 0 : 1;
        }
        if (!rows && keep == nullptr) return nullptr;
        RowKeep inner = keep != nullptr ? *keep : RowKeep{};
        return [rows, inner](std::size_t i, std::vector<char>& row) {
            if (inner)
                inner(i, row);
            else
                std::fill(row.begin(), row.end(), 1);
            if (rows)
                for (std::size_t j = 0; j < row.size(); ++j)
                    row[j] = static_cast<char>(row[j] & (*rows)[j]);
        };
    }

    /**
     * An intersection with a sequence among its operands: the others first, then the
     * sequence made only where all of them may hold (sequence's `keep`); null when there is
     * no sequence. The intersection is then taken as usual, so its terms are the same.
     */
    std::optional<std::vector<ValPtr>> intersectionWithSequence(const cat::Expr* e) {
        std::size_t s = e->args.size();
        for (std::size_t k = 0; k < e->args.size() && s == e->args.size(); ++k)
            if (e->args[k]->op == cat::Expr::Op::Seq) s = k;
        if (s == e->args.size()) return std::nullopt;
        std::vector<ValPtr> vals(e->args.size());
        for (std::size_t k = 0; k < e->args.size(); ++k)
            if (k != s) vals[k] = evalExpr(e->args[k].get());
        for (const ValPtr& v : vals)
            if (v && (v->polymorphicEmpty || v->isSet)) {
                vals[s] = evalExpr(e->args[s].get());
                return vals;
            }
        RowKeep keep = [this, &vals, s](std::size_t i, std::vector<char>& row) {
            std::fill(row.begin(), row.end(), 1);
            for (std::size_t k = 0; k < vals.size(); ++k) {
                if (k == s) continue;
                if (vals[k]->pairwise && !vals[k]->built) {
                    for (std::size_t j = 0; j < row.size(); ++j)
                        if (row[j] != 0 && !pairs_.possible(*vals[k]->pairwise, static_cast<int>(i),
                                                            static_cast<int>(j)))
                            row[j] = 0;
                    continue;
                }
                const auto& r = asRel(vals[k]).rows[i];
                for (std::size_t j = 0; j < row.size(); ++j)
                    if (row[j] != 0 && r.find(static_cast<int>(j)) == r.end()) row[j] = 0;
            }
        };
        vals[s] = sequence(e->args[s].get(), &keep);
        return vals;
    }

    /** `op` over operands read per pair (those built whole are read in place). */
    ValPtr pairwiseOf(typename Pairwise<Alg>::Kind op, const std::vector<ValPtr>& vals) {
        PairNode node;
        node.kind = op;
        for (const ValPtr& v : vals) {
            node.args.push_back(pairNode(v));
            node.lazy = node.lazy || node.args.back()->lazy;
        }
        return ofPairs(std::move(node));
    }

    ValPtr pairwiseCartesian(const ValPtr& a, const ValPtr& b) {
        PairNode node;
        node.kind = Pairwise<Alg>::Kind::Cartesian;
        node.left = &asSet(a);
        node.right = &asSet(b);
        node.owner = std::make_shared<const std::pair<ValPtr, ValPtr>>(a, b);
        return ofPairs(std::move(node));
    }

    /**
     * Union, intersection or difference of relations one of which is read per pair: again
     * read per pair, except an intersection with a relation built whole or a difference from
     * one, which that relation bounds: those are built now, over its pairs.
     */
    ValPtr pairwiseCombine(const cat::Expr* e, const std::vector<ValPtr>& vals) {
        using Op = cat::Expr::Op;
        using Kind = typename Pairwise<Alg>::Kind;
        const Kind kind = e->op == Op::Union   ? Kind::Union
                          : e->op == Op::Inter ? Kind::Inter
                                               : Kind::Diff;
        ValPtr out = pairwiseOf(kind, vals);
        bool bounded = false;
        for (std::size_t i = 0; i < vals.size(); ++i)
            if (!vals[i]->pairwise && (kind == Kind::Inter || (kind == Kind::Diff && i == 0)))
                bounded = true;
        // Over a lazy closure it stays read per pair: built, it would make the closure's pair
        // at each of the bounding relation's pairs, where a cycle reads only those on a path
        // that may close (CycleRow); it is built where something reads it whole.
        if (!bounded || out->pairwise->lazy) return out;
        return ofRel(pairs_.materialize(*out->pairwise));
    }

    /** A Reading choice: one side when the reading's condition is constant, else both. */
    ValPtr chooseReading(const cat::Expr* e) {
        if (!base_.reading) return evalExpr(e->args.at(1).get());
        Cond c = base_.reading(e->name);
        if (Alg::isFalse(c)) return evalExpr(e->args.at(1).get());
        if (Alg::isTrue(c)) return evalExpr(e->args.at(0).get());
        if constexpr (requires { ops_.selectRels(c, Rel{}, Rel{}); }) {
            ValPtr under = evalExpr(e->args.at(0).get());
            ValPtr otherwise = evalExpr(e->args.at(1).get());
            if (isSetExpr(e)) return ofSet(ops_.selectSets(c, asSet(under), asSet(otherwise)));
            if (!model_.kinds.count(e)) return under; // both `0`
            // Read per pair where relations are: decision Q3's `_ * _` against `po` was the
            // whole square of events, each pair a term, where the model reads it only within
            // causality (bench/history.md, 2026-12-04 (2)).
            if constexpr (kPairwise)
                if (pairwiseOn()) {
                    PairNode node;
                    node.kind = Pairwise<Alg>::Kind::Select;
                    node.choice = c;
                    for (const ValPtr& v : {under, otherwise}) {
                        node.args.push_back(pairNode(v));
                        node.lazy = node.lazy || node.args.back()->lazy;
                    }
                    return ofPairs(std::move(node));
                }
            return ofRel(ops_.selectRels(c, asRel(under), asRel(otherwise)));
        } else {
            throw std::logic_error("this algebra takes readings as constants");
        }
    }

    /** The factors of a sequence, opening definitions of a sequence that are not yet
     *  evaluated (an evaluated one is reused whole). */
    void seqFactors(const cat::Expr* e, std::vector<const cat::Expr*>& out) const {
        if (e->op == cat::Expr::Op::Seq) {
            for (const auto& a : e->args)
                seqFactors(a.get(), out);
            return;
        }
        if (e->op == cat::Expr::Op::Name) {
            const int b = model_.binding.at(e);
            if (b >= 0) {
                const auto& d = model_.definitions[static_cast<std::size_t>(b)];
                if (!d.recursive && !defs_[static_cast<std::size_t>(b)] &&
                    d.expr->op == cat::Expr::Op::Seq)
                    return seqFactors(d.expr.get(), out);
            }
        }
        out.push_back(e);
    }

    bool mayGrow(const cat::Expr* e) const { return polarity_ && polarity_->mayGrow(e); }
    std::map<ir::Rel, ValPtr> baseRels_; ///< the base relations built whole, once each
    std::size_t lazyClosuresFrom_ = static_cast<std::size_t>(-1);

    bool isSetExpr(const cat::Expr* e) const {
        auto it = model_.kinds.find(e);
        return it != model_.kinds.end() && it->second == cat::Kind::Set;
    }

    ValPtr combine(const cat::Expr* e) {
        using Op = cat::Expr::Op;
        std::vector<ValPtr> vals;
        if constexpr (kPairwise)
            if (e->op == Op::Inter && !isSetExpr(e))
                if (auto masked = intersectionWithSequence(e)) vals = std::move(*masked);
        // An intersection with an empty operand, or a difference from an empty relation, is
        // empty whatever the operands after it are: they are left unread (tmem-race's
        // `tmem-conflict \ (xo | xo^-1)` on a kernel with no tensor memory).
        const bool emptyDecides =
            (e->op == Op::Inter || e->op == Op::Diff) && !isSetExpr(e) && model_.kinds.count(e);
        if (vals.empty())
            for (const auto& a : e->args) {
                vals.push_back(evalExpr(a.get()));
                if (emptyDecides && hasNoPairs(vals.back()) &&
                    (e->op == Op::Inter || vals.size() == 1))
                    return ofRel(ops_.emptyRel());
            }
        bool set = isSetExpr(e);
        if (!model_.kinds.count(e)) return emptyValue(); // only `0`s: still empty
        if (set) {
            Set acc = asSet(vals[0]);
            for (std::size_t i = 1; i < vals.size(); ++i) {
                const Set& s = asSet(vals[i]);
                acc = e->op == Op::Union   ? ops_.unionSets(acc, s)
                      : e->op == Op::Inter ? ops_.interSets(acc, s)
                                           : ops_.diffSets(acc, s);
            }
            return ofSet(std::move(acc));
        }
        if (vals.size() == 1) return vals[0];
        if constexpr (kPairwise)
            for (const ValPtr& v : vals)
                if (v->pairwise) return pairwiseCombine(e, vals);
        if (e->op == Op::Union) { // one copy of the first argument, grown in place
            Rel acc = asRel(vals[0]);
            for (std::size_t i = 1; i < vals.size(); ++i)
                ops_.unionInto(acc, asRel(vals[i]));
            return ofRel(std::move(acc));
        }
        Rel acc = e->op == Op::Inter ? ops_.interRels(asRel(vals[0]), asRel(vals[1]))
                                     : ops_.diffRels(asRel(vals[0]), asRel(vals[1]));
        for (std::size_t i = 2; i < vals.size(); ++i) {
            const Rel& r = asRel(vals[i]);
            acc = e->op == Op::Inter ? ops_.interRels(acc, r) : ops_.diffRels(acc, r);
        }
        return ofRel(std::move(acc));
    }

    Ops ops_;
    Pairwise<Alg> pairs_;
    const cat::ResolvedModel& model_;
    Base base_;
    std::vector<ValPtr> defs_; ///< evaluated definitions; null: not yet
    Set emptySet_;
    Rel emptyRel_;
    std::set<int> inProgress_;
    const cat::Polarity* polarity_;
};

} // namespace ptxmc::engine
