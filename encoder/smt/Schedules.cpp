// Explicit exploration of real-time schedules over the mbarrier state machine (hang checks).
#include "smt/Schedules.hpp"

#include "engine/MbarrierMachine.hpp"
#include "engine/MbarrierProgress.hpp"
#include "ir/Gates.hpp"
#include "ir/ValueSemantics.hpp"
#include "smt/BitKey.hpp"
#include "smt/ThreadSymmetry.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <map>
#include <numeric>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace ptxmc::engine::schedules {

namespace {

using V = ir::ConcreteValues;
constexpr V values{};
using MbState = mbarrier::State<V>;

/** Evaluates a value that must not depend on the execution; nullopt where it does. */
struct ConstantLeaves {
    bool dynamic = false;
    std::int64_t read(int /*event*/) { return dynamic = true, 0; }
    bool waitSuccess(int /*event*/) { return dynamic = true, false; }
    bool waitReport(int /*event*/) { return dynamic = true, false; }
    std::int64_t phaseBefore(int /*event*/) { return dynamic = true, 0; }
    bool choice(std::int64_t /*index*/) { return dynamic = true, false; }
};

std::optional<std::int64_t> constantOf(const ir::ValuePtr& v) {
    ConstantLeaves leaves;
    std::function<std::int64_t(const ir::ValuePtr&)> eval = [&](const ir::ValuePtr& x) {
        return applyValue(values, *x, leaves, [&](std::size_t i) { return eval(x->args.at(i)); });
    };
    std::int64_t out = eval(v);
    if (leaves.dynamic) return std::nullopt;
    return out;
}

/** The events a search schedules: mbarrier operations and gates. The others run as soon as
 *  their predecessors have (Explorer::settleAfter). */
bool isScheduled(const ir::Event& e) {
    return e.has(ir::Tag::MB) || ir::gateKind(e) != ir::GateKind::None;
}

/**
 * `order` with the `absent` events taken out and the order through them kept: each one's
 * predecessors come before each of its successors. An event after an absent one in program
 * order still waits for what came before both (a transitive reduction would otherwise have
 * dropped that pair in favour of the path through the absent event).
 */
std::vector<std::pair<int, int>> withoutAbsent(std::size_t n,
                                               const std::vector<std::pair<int, int>>& order,
                                               const std::vector<bool>& absent) {
    if (absent.empty()) return order;
    std::vector<std::set<int>> preds(n), succs(n);
    for (const auto& [a, b] : order) {
        succs[static_cast<std::size_t>(a)].insert(b);
        preds[static_cast<std::size_t>(b)].insert(a);
    }
    for (std::size_t x = 0; x < n; ++x) {
        if (!absent[x]) continue;
        for (int a : preds[x]) {
            succs[static_cast<std::size_t>(a)].erase(static_cast<int>(x));
            for (int b : succs[x])
                if (a != b) {
                    succs[static_cast<std::size_t>(a)].insert(b);
                    preds[static_cast<std::size_t>(b)].insert(a);
                }
        }
        for (int b : succs[x])
            preds[static_cast<std::size_t>(b)].erase(static_cast<int>(x));
        preds[x].clear();
        succs[x].clear();
    }
    std::vector<std::pair<int, int>> out;
    for (std::size_t a = 0; a < n; ++a)
        for (int b : succs[a])
            out.emplace_back(static_cast<int>(a), b);
    return out;
}

/**
 * The pairs of `order` (over `n` events) that no longer path implies, or `order` itself where it
 * has a cycle: the same reachability, so the same schedules, with a few predecessors per event
 * where a transitive order (the sure pairs of a closure) has up to n (ring 6x32: the facts'
 * search went from a readiness test over hundreds of predecessors to one over a handful).
 */
std::vector<std::pair<int, int>>
transitiveReduction(std::size_t n, const std::vector<std::pair<int, int>>& order) {
    std::vector<std::vector<int>> succs(n);
    std::vector<std::size_t> indegree(n, 0);
    for (const auto& [a, b] : order) {
        succs[static_cast<std::size_t>(a)].push_back(b);
        ++indegree[static_cast<std::size_t>(b)];
    }
    std::vector<int> topo; // Kahn: sources first
    for (std::size_t i = 0; i < n; ++i)
        if (indegree[i] == 0) topo.push_back(static_cast<int>(i));
    for (std::size_t k = 0; k < topo.size(); ++k)
        for (int b : succs[static_cast<std::size_t>(topo[k])])
            if (--indegree[static_cast<std::size_t>(b)] == 0) topo.push_back(b);
    if (topo.size() != n) return order;
    const std::size_t words = (n + 63) / 64;
    auto bit = [&](const std::vector<std::uint64_t>& set, int i) {
        return ((set[static_cast<std::size_t>(i) / 64] >> (static_cast<unsigned>(i) % 64)) & 1U) !=
               0;
    };
    // below[x]: what x reaches in one or more steps, computed sinks first.
    std::vector<std::vector<std::uint64_t>> below(n, std::vector<std::uint64_t>(words, 0));
    std::vector<std::vector<std::uint64_t>> twoOrMore(n, std::vector<std::uint64_t>(words, 0));
    for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
        const auto x = static_cast<std::size_t>(*it);
        for (int c : succs[x]) {
            const auto& under = below[static_cast<std::size_t>(c)];
            for (std::size_t w = 0; w < words; ++w)
                twoOrMore[x][w] |= under[w];
        }
        below[x] = twoOrMore[x];
        for (int c : succs[x])
            below[x][static_cast<std::size_t>(c) / 64] |= std::uint64_t{1}
                                                          << (static_cast<unsigned>(c) % 64);
    }
    std::vector<std::pair<int, int>> out;
    for (const auto& [a, b] : order)
        if (!bit(twoOrMore[static_cast<std::size_t>(a)], b)) out.emplace_back(a, b);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

/** Appends `v` zigzag-encoded as a base-128 varint: 1 byte for -64..63. */
void appendVarint(std::string& k, std::int64_t v) {
    auto u = (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
    while (u >= 0x80) {
        k.push_back(static_cast<char>((u & 0x7F) | 0x80));
        u >>= 7;
    }
    k.push_back(static_cast<char>(u));
}

/** Appends an object's state, each field a varint. */
void appendState(std::string& k, const MbState& m) {
    for (std::int64_t f :
         {m.phase, m.pending, m.expected, m.tx, m.stamp, static_cast<std::int64_t>(m.valid)})
        appendVarint(k, f);
}

/** Where the search stands: the events run so far and each mbarrier object's state. */
struct Node {
    std::vector<bool> done;
    std::vector<MbState> mb; ///< by Explorer::mbSlot_
    /** By slot, facts only: a wait returned True in the object's current phase instance (the
     *  phase rule of MB_MISUSE, engine/MbarrierMachine.hpp unobservedArrive). */
    std::vector<bool> observed;
};

class Explorer {
public:
    /** `facts`: record every mbarrier step and search on past hangs (observeMbarriers);
     *  `rendezvous`: a cta_group::2 alloc or dealloc waits until its peer's thread reaches the
     *  peer operation (hangs, explore()); without, it runs once its predecessors ran, which
     *  allows every schedule the rendezvous allows and more (facts, a first schedule);
     *  `firstOnly`: stop at the first complete schedule (firstSchedule). */
    Explorer(const ir::Program& p, const std::vector<std::pair<int, int>>& fullOrder,
             std::size_t maxStates, const Budget* budget, MbarrierFacts* facts, Reduction reduction,
             bool rendezvous, bool firstOnly = false, std::vector<bool> absent = {})
        : p_(p), absent_(std::move(absent)), maxStates_(maxStates), budget_(budget),
          firstOnly_(firstOnly), rendezvous_(rendezvous),
          reduce_(reduction == Reduction::PersistentSets), preds_(p.events.size()),
          mbSlot_(p.locations.size(), -1), operand_(p.events.size()), facts_(facts) {
        const auto order = transitiveReduction(p.events.size(),
                                               withoutAbsent(p.events.size(), fullOrder, absent_));
        for (const auto& [a, b] : order)
            preds_[static_cast<std::size_t>(b)].push_back(a);
        succs_.resize(p.events.size());
        for (const auto& [a, b] : order)
            succs_[static_cast<std::size_t>(a)].push_back(b);
    }

    Exploration run() {
        Exploration out;
        if (!supported(out.why)) return out;
        prepare();
        for (const auto& cls : symmetric_) {
            out.interchangeableThreads.emplace_back();
            for (const auto& member : cls)
                out.interchangeableThreads.back().push_back(member.thread);
        }
        search(out);
        return out;
    }

    /** The search goes on past a misuse from which every spinning wait may still return,
     *  while it has taken at most `states` states since the first one it went past; beyond
     *  that it gives up (goneTooFar()). Otherwise each misuse ends its schedule. */
    void goPastMisuses(std::size_t states) { goPastStates_ = states; }
    bool goneTooFar() const { return goneTooFar_; }

    /** After run(), facts only: the misuses gone past, the first misuses left as premises,
     *  those that ended a schedule, and the mbarrier ops no step made misuse, if misuse is a
     *  function of the state. */
    void misuseFacts(MbarrierFacts& facts) const {
        facts.misuseKnown = misuseKnown_;
        if (!misuseKnown_) return;
        facts.misusesPast = misuseSeen_;
        facts.firstMisuses = premises_;
        facts.completionsCut = completionsCut_;
        facts.endedAt = endedAt_;
        for (const auto& ops : opsAt_)
            for (int o : ops)
                if (!misuseSeen_.count(o) && !premises_.count(o)) facts.misuseFree.insert(o);
    }

private:
    /** The fragment whose schedules do not depend on values read from memory. */
    bool supported(std::string& why) {
        if (!p_.cuts.empty()) return why = "the program has loops", false;
        misuseKnown_ = facts_ != nullptr;
        for (const auto& e : p_.events) {
            // A guard on an event the search does not schedule (not an mbarrier operation or a
            // gate) changes no schedule: such an event changes no object, and what it precedes
            // in real time follows its own predecessors, which po and the issue order carry.
            const bool scheduled = isScheduled(e);
            // With a way of the program's choices given (`absent_`), every guard is decided.
            if (e.guard && scheduled && absent_.empty())
                return why = "an event is guarded by a value", false;
            if (isAbsent(e.id)) continue;
            // The search runs the primary phases alone; a conditional phase and a wait's
            // report follow the data a reporting copy inspects (engine/MbarrierMachine.hpp).
            if (e.mbReport && !(e.mbReport->isConst() && e.mbReport->constant == 0))
                return why = "a copy reports on an mbarrier: its conditional phase and reports "
                             "depend on the data copied",
                       false;
            if (e.mbOp != ir::MbOp::Wait) continue;
            const bool spins = ir::gateKind(e) == ir::GateKind::Chosen;
            const ir::ValuePtr& v = e.mbParity ? e.mbParity : e.mbToken;
            if (!v && spins) return why = "a wait without an operand", false;
            operand_[static_cast<std::size_t>(e.id)] = v ? constantOf(v) : std::nullopt;
            if (operand_[static_cast<std::size_t>(e.id)]) continue;
            if (spins) return why = "a wait's operand depends on the execution", false;
            // A test_wait whose operand depends on the execution: its result and a stale
            // token's misuse are no functions of the object's state.
            misuseKnown_ = false;
        }
        return true;
    }

    void prepare() {
        for (const auto& e : p_.events) {
            bool visible = isScheduled(e);
            isInvisible_.push_back(!visible);
            if (isAbsent(e.id)) continue; // done from the start, changing nothing
            (visible ? visible_ : invisible_).push_back(e.id);
            if (e.has(ir::Tag::MB) && mbSlot_[static_cast<std::size_t>(e.location)] < 0) {
                mbSlot_[static_cast<std::size_t>(e.location)] = static_cast<int>(mbLocs_.size());
                mbLocs_.push_back(e.location);
                opsAt_.emplace_back();
            }
            if (e.has(ir::Tag::MB))
                opsAt_[static_cast<std::size_t>(mbSlot_[static_cast<std::size_t>(e.location)])]
                    .push_back(e.id);
        }
        // One pass in a topological order runs every invisible event that can run.
        std::vector<std::size_t> rank = topologicalRank();
        std::sort(invisible_.begin(), invisible_.end(), [&](int a, int b) {
            return rank[static_cast<std::size_t>(a)] < rank[static_cast<std::size_t>(b)];
        });
        findInterchangeable();
        findFollowers();
        if (reduce_ && facts_ == nullptr) findSymmetricThreads();
        groupThreads();
    }

    /**
     * Hang searches only (facts name events, which a permutation would move): classes of
     * threads that swapping maps onto each other (smt/ThreadSymmetry.hpp), such as a CTA's
     * epilogue warps, whose states key() takes up to a permutation of each class. A state and
     * its image have the same schedules up to the permutation, so one of them searched is
     * both: from any state with a hang ahead, some event of its persistent set leads to a
     * state with a hang nearer, and so does that state's image, by induction on the distance.
     */
    void findSymmetricThreads() {
        std::vector<bool> isPeer(p_.events.size(), false);
        for (const auto& e : p_.events)
            if (e.peerEvent >= 0) isPeer[static_cast<std::size_t>(e.peerEvent)] = true;
        std::vector<std::vector<int>> preds(p_.events.size());
        for (int e : visible_)
            preds[static_cast<std::size_t>(e)] = visiblePredecessors(e);
        auto signature = [&](int e) -> std::optional<std::vector<std::int64_t>> {
            const ir::Event& ev = p_.events[static_cast<std::size_t>(e)];
            if (inClass_[static_cast<std::size_t>(e)] || ev.peerEvent >= 0 ||
                isPeer[static_cast<std::size_t>(e)])
                return std::nullopt;
            const auto& operand = operand_[static_cast<std::size_t>(e)];
            std::vector<std::int64_t> sig{static_cast<std::int64_t>(ev.mbOp),
                                          ev.location,
                                          ev.mbAmount,
                                          ev.mbArrivals,
                                          ev.mbNoComplete,
                                          ev.mbDrop,
                                          ev.mbConditional,
                                          ev.blocking,
                                          operand.has_value(),
                                          operand.value_or(0),
                                          ev.mbToken != nullptr,
                                          static_cast<std::int64_t>(ir::gateKind(ev)),
                                          ev.barrierId,
                                          ev.barrierInstance,
                                          ev.barrierWarps,
                                          static_cast<std::int64_t>(ev.scope),
                                          static_cast<std::int64_t>(ev.sem)};
            for (ir::Tag t : ev.tags)
                sig.push_back(static_cast<std::int64_t>(t));
            return sig;
        };
        symmetric_ = findThreadClasses(p_, visible_, preds, signature);
        inSymmetric_.assign(p_.events.size(), false);
        for (const auto& cls : symmetric_)
            for (const auto& member : cls)
                for (int e : member.events)
                    inSymmetric_[static_cast<std::size_t>(e)] = true;
        keySkip_.assign(p_.events.size(), false);
        for (std::size_t e = 0; e < keySkip_.size(); ++e)
            keySkip_[e] = isInvisible_[e] || inClass_[e] || inSymmetric_[e];
    }

    /** The visible events `e` waits for: its predecessors, through invisible ones (which run as
     *  soon as theirs have: settle()), sorted, without those that precede another of them (a
     *  warp's earlier barrier, through the stores it issued since). An absent event waits for
     *  nothing. */
    std::vector<int> visiblePredecessors(int e) const {
        std::vector<int> out = visibleBefore(e, true);
        const std::vector<int> found = out;
        std::erase_if(out, [&](int a) {
            return std::any_of(found.begin(), found.end(), [&](int c) { return follows(a, c); });
        });
        return out;
    }

    /**
     * Groups of threads that share no mbarrier object with other groups (the CTAs of a cluster
     * without multicast): persistentSet() takes its seeds from the group of the lowest thread
     * with an enabled event, so that one group runs on while it can and the search visits about
     * the sum of the groups' states, not their product (a smaller set from another group at
     * every other state lets the groups interleave in every way). Any seed gives a persistent
     * set: the choice changes how many states the search visits, not its end states; with
     * schedules ended at their first misuse it may follow fewer misuse-free prefixes, and each
     * one it leaves is guarded by a first misuse it records (as with any seed).
     */
    void groupThreads() {
        int threads = 0;
        for (const auto& e : p_.events)
            threads = std::max(threads, e.thread + 1);
        std::vector<int> parent(static_cast<std::size_t>(threads));
        std::iota(parent.begin(), parent.end(), 0);
        auto root = [&](int t) {
            while (parent[static_cast<std::size_t>(t)] != t)
                t = parent[static_cast<std::size_t>(t)] =
                    parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(t)])];
            return t;
        };
        for (const auto& ops : opsAt_) {
            int first = -1; // the object's first operation with a thread
            for (int o : ops) {
                const int t = p_.events[static_cast<std::size_t>(o)].thread;
                if (t < 0) continue;
                if (first < 0) first = t;
                const int a = root(first), b = root(t);
                if (a != b) parent[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
            }
        }
        groupOf_.assign(p_.events.size(), -1);
        groupEvents_.assign(static_cast<std::size_t>(threads), {});
        for (const auto& e : p_.events)
            if (e.thread >= 0) {
                const auto id = static_cast<std::size_t>(e.id);
                groupOf_[id] = root(e.thread);
                if (!isAbsent(e.id) && !isInvisible_[id])
                    groupEvents_[static_cast<std::size_t>(root(e.thread))].push_back(e.id);
            }
        linkGroupEvents();
    }

    /**
     * For groupStuckForever, which looks at visible events only: each one's nearest visible
     * predecessors of its own group, through invisible events of that group (an invisible
     * event runs once its predecessors have, so it may run exactly when those may), and the
     * reverse. Another group's event and a cta_group::2 operation end a path: groupStuckForever
     * takes them as able to run. In each object's own search nearly every event is invisible
     * (the other objects' operations are plain), and this runs at every state of mayComplete.
     */
    void linkGroupEvents() {
        groupPreds_.assign(p_.events.size(), {});
        groupSuccs_.assign(p_.events.size(), {});
        std::vector<int> seenFrom(p_.events.size(), -1);
        for (int x : visible_) {
            const int g = groupOf_[static_cast<std::size_t>(x)];
            if (g < 0) continue;
            std::vector<int> todo{x};
            while (!todo.empty()) {
                const int y = todo.back();
                todo.pop_back();
                for (int a : preds_[static_cast<std::size_t>(y)]) {
                    const auto ia = static_cast<std::size_t>(a);
                    if (seenFrom[ia] == x || groupOf_[ia] != g) continue;
                    seenFrom[ia] = x;
                    if (!isInvisible_[ia])
                        groupPreds_[static_cast<std::size_t>(x)].push_back(a);
                    else if (p_.events[ia].peerEvent < 0)
                        todo.push_back(a);
                }
            }
            for (int a : groupPreds_[static_cast<std::size_t>(x)])
                groupSuccs_[static_cast<std::size_t>(a)].push_back(x);
        }
    }

    /**
     * Whether group `g` has a spinning wait that can never return from `s`, whatever the other
     * groups do. The events of the group that may still run are the least set closed under:
     * an event whose pending predecessors of the group may run, and which is no spinning wait,
     * or one its object's phase lets through now, or one an operation that changes its object
     * and may run could release (only operations change an object, and all of an object's
     * operations with a thread are in one group, groupThreads()). Predecessors and operations
     * of other groups (and of no thread), and cta_group::2 operations that wait for their peer,
     * are taken as able to run. Only the visible events are tracked, each waiting for its
     * linkGroupEvents() predecessors: the invisible ones between follow them. Every event that runs
     * in some schedule from `s` is in the set (each needs its predecessors, and a wait the phase
     * holds a change, to run before it). A spinning wait outside it never returns, and no schedule
     * from `s` returns every one: mayComplete prunes the state.
     */
    bool groupStuckForever(const Node& s, int g) const {
        const std::vector<int>& events = groupEvents_[static_cast<std::size_t>(g)];
        const auto pending = [&](int x) {
            const auto ix = static_cast<std::size_t>(x);
            return !s.done[ix] && groupOf_[ix] == g;
        };
        // The least set, grown from a worklist: an event joins once its last pending
        // predecessor of the group has, and a spinning wait once a change of its object may run.
        // Scratch kept across calls (this runs at every state of mayComplete's searches):
        // only the group's entries are written, and they are cleared before returning.
        std::vector<char>& mayRun = stuckScratch_.mayRun;
        std::vector<int>& waitingFor = stuckScratch_.waitingFor;   // pending group preds not in
        std::vector<signed char>& changed = stuckScratch_.changed; // by slot: a change may run
        mayRun.resize(p_.events.size(), 0);
        waitingFor.resize(p_.events.size(), 0);
        changed.assign(opsAt_.size(), -1); // -1: not asked yet
        auto changeMayRun = [&](std::size_t slot) {
            if (changed[slot] < 0) {
                changed[slot] = 0;
                for (int o : opsAt_[slot]) {
                    const auto io = static_cast<std::size_t>(o);
                    if (!s.done[io] && groupOf_[io] != g && mbarrier::changesObject(p_.events[io]))
                        changed[slot] = 1;
                }
            }
            return changed[slot] == 1;
        };
        std::vector<int>& todo = stuckScratch_.todo; // empty between calls
        auto tryRun = [&](int x) {
            const auto ix = static_cast<std::size_t>(x);
            if (mayRun[ix] != 0) return;
            const ir::Event& ev = p_.events[ix];
            if (ev.peerEvent < 0 && (waitingFor[ix] > 0 || (spinning(ev) && !phaseAllows(s, x) &&
                                                            !changeMayRun(slotOf(x)))))
                return;
            mayRun[ix] = 1;
            todo.push_back(x);
        };
        for (int x : events)
            if (pending(x))
                for (int a : groupPreds_[static_cast<std::size_t>(x)])
                    waitingFor[static_cast<std::size_t>(x)] += pending(a) ? 1 : 0;
        for (int x : events)
            if (pending(x)) tryRun(x);
        while (!todo.empty()) {
            const int x = todo.back();
            todo.pop_back();
            for (int c : groupSuccs_[static_cast<std::size_t>(x)])
                if (pending(c) && --waitingFor[static_cast<std::size_t>(c)] == 0) tryRun(c);
            const ir::Event& ev = p_.events[static_cast<std::size_t>(x)];
            if (!ev.has(ir::Tag::MB) || !mbarrier::changesObject(ev)) continue;
            const std::size_t slot = slotOf(x);
            if (changed[slot] == 1) continue; // its waits were tried with a change already
            changed[slot] = 1;
            for (int o : opsAt_[slot])
                if (pending(o) && spinning(p_.events[static_cast<std::size_t>(o)])) tryRun(o);
        }
        bool stuck = false;
        for (int x : events) {
            const auto ix = static_cast<std::size_t>(x);
            stuck = stuck || (pending(x) && mayRun[ix] == 0 && spinning(p_.events[ix]));
            mayRun[ix] = 0;
            waitingFor[ix] = 0;
        }
        return stuck;
    }

    bool anyGroupStuckForever(const Node& s) const {
        for (std::size_t g = 0; g < groupEvents_.size(); ++g)
            if (!groupEvents_[g].empty() && groupStuckForever(s, static_cast<int>(g))) return true;
        return false;
    }

    static bool spinning(const ir::Event& ev) {
        return ev.mbOp == ir::MbOp::Wait && ir::gateKind(ev) == ir::GateKind::Chosen;
    }

    /**
     * Classes of completions that only their number run tells apart: the CompleteTx operations
     * of one object with one byte count that no event follows in real time (no successor) and
     * that the same visible events precede (invisible events run as soon as they can, settle(),
     * so they are released in the same step of every schedule). Two of them commute on every
     * state (tx-count falls by the same bytes either way, and the phase completes at the same
     * point of the pair: engine/MbarrierMachine.hpp apply), neither enables or disables
     * anything, and swapping which of them ran at each point of a schedule gives a schedule: the
     * search keeps one state per orbit (key) and record() writes each fact for every member. A
     * TMA load split into many copies that complete on one barrier (cute's Hopper tutorial: 32
     * per stage) otherwise gives 2^32 states of which copies have landed. Only with persistent
     * sets: the full search stays the reference the tests compare with.
     */
    void findInterchangeable() {
        inClass_.assign(p_.events.size(), false);
        classOf_.assign(p_.events.size(), -1);
        if (!reduce_) return;
        std::map<std::tuple<std::size_t, std::int64_t, std::vector<int>>, std::vector<int>> byKind;
        for (int e : visible_) {
            const ir::Event& ev = p_.events[static_cast<std::size_t>(e)];
            if (ev.mbOp == ir::MbOp::CompleteTx && succs_[static_cast<std::size_t>(e)].empty())
                byKind[{slotOf(e), ev.mbAmount, visibleAncestors(e)}].push_back(e);
        }
        for (auto& [kind, members] : byKind) {
            if (members.size() < 2) continue;
            for (int m : members) {
                inClass_[static_cast<std::size_t>(m)] = true;
                classOf_[static_cast<std::size_t>(m)] = static_cast<int>(classes_.size());
            }
            classes_.push_back(std::move(members));
        }
    }

    /** The visible events that precede `e` in real time, in increasing order. */
    std::vector<int> visibleAncestors(int e) const { return visibleBefore(e, false); }

    /** The visible events before `e` in real time, sorted; `nearest`: only those reached
     *  through invisible events, absent ones left out. */
    std::vector<int> visibleBefore(int e, bool nearest) const {
        std::vector<bool> seen(p_.events.size(), false);
        std::vector<int> todo{e}, out;
        while (!todo.empty()) {
            const int x = todo.back();
            todo.pop_back();
            for (int a : preds_[static_cast<std::size_t>(x)]) {
                if (seen[static_cast<std::size_t>(a)] || (nearest && isAbsent(a))) continue;
                seen[static_cast<std::size_t>(a)] = true;
                const bool visible = !isInvisible_[static_cast<std::size_t>(a)];
                if (visible) out.push_back(a);
                if (!visible || !nearest) todo.push_back(a);
            }
        }
        std::sort(out.begin(), out.end());
        return out;
    }

    /** The operations a step of `e` from `s` stands for: `e`, or every member of its class,
     *  run or not (all were released together; a permutation of the class maps `e` onto each,
     *  and the state onto one with as many of them run). */
    std::vector<int> images(int e) const {
        const int c = classOf_[static_cast<std::size_t>(e)];
        return c < 0 ? std::vector<int>{e} : classes_[static_cast<std::size_t>(c)];
    }

    /** Whether misuse `e` from `s` may be followed by every spinning wait returning: the
     *  object alone first (cheap, "no" is sure), then the whole program. `completion`: where
     *  one is found, the visible events that follow `e` in it. */
    bool mayGoOn(const Node& s, int e, std::vector<int>* completion = nullptr) {
        Node n = s;
        runEvent(n, e);
        return mayStillProgress(n, slotOf(e)) && mayComplete(std::move(n), e, completion);
    }

    /**
     * Whether some schedule from `from`, where step `misuse` just ran, ends with every spinning
     * wait returned: the whole program this time, every object and the order, where
     * mayStillProgress looks at one object alone. A misuse after which none does needs no
     * guard either (a copy completing before its barrier's init, whose bytes a later phase's
     * copies could make up only out of the order the other barriers impose). The states of all
     * these searches together are bounded by the search's own bound; past it, "yes".
     */
    bool mayComplete(Node from, int misuse, std::vector<int>* completion = nullptr) {
        settleAfter(from, misuse); // what follows the step without a choice, as for any step
        std::string start = key(from);
        if (stuck_.count(start)) return false;
        if (completion == nullptr && completing_.count(start)) return true;
        std::unordered_set<std::string> seen{start};
        // Each state with the step that led to it: the event, the index of the step before,
        // and its key (for completing_).
        std::vector<Step> steps{{-1, 0, std::move(start)}};
        std::vector<std::pair<Node, std::size_t>> stack;
        stack.emplace_back(std::move(from), 0);
        // The misuse's group first; a state where some group cannot go on is a dead end, so the
        // groups' interleavings after their own misuses are not explored.
        const int group = groupOf_[static_cast<std::size_t>(misuse)];
        while (!stack.empty()) {
            auto [n, at] = std::move(stack.back());
            stack.pop_back();
            if (reduce_ && anyGroupStuckForever(n)) continue; // the full search: the reference
            const std::vector<int> next = persistentSet(n, group);
            if (next.empty() && spinningWaitsReturned(n)) return completes(steps, at, completion);
            for (int e : next) {
                Node m = n;
                runEvent(m, e);
                settleAfter(m, e);
                std::string k = key(m);
                if (stuck_.count(k) || !seen.insert(k).second) continue;
                if (completion == nullptr && completing_.count(k)) {
                    steps.push_back({e, at, std::move(k)});
                    return completes(steps, steps.size() - 1, nullptr);
                }
                if (++completionStates_ > maxStates_) return completionsCut_ = true;
                if (budget_ != nullptr && (completionStates_ & 1023U) == 0) budget_->poll();
                steps.push_back({e, at, std::move(k)});
                stack.emplace_back(std::move(m), steps.size() - 1);
            }
        }
        // The search finished without a schedule on: none is from any state it met.
        stuck_.merge(seen);
        return false;
    }

    /** A step of mayComplete's search: the event run, the index of the step before, the key
     *  of the state it led to. */
    struct Step {
        int event;
        std::size_t before;
        std::string state;
    };

    /** mayComplete found a schedule on from step `at`: every state on its way there has one
     *  (completing_), and `completion`, if given, gets the events from the start. */
    bool completes(std::vector<Step>& steps, std::size_t at, std::vector<int>* completion) {
        for (std::size_t s = at;; s = steps[s].before) {
            completing_.insert(std::move(steps[s].state));
            if (s == 0) break;
            if (completion != nullptr) completion->insert(completion->begin(), steps[s].event);
        }
        return true;
    }

    /** Every spinning wait of the program ran (returned True) in `s`. */
    bool spinningWaitsReturned(const Node& s) const {
        // every spinning wait is visible (an mbarrier operation); an absent one is done
        return std::all_of(visible_.begin(), visible_.end(), [&](int e) {
            return s.done[static_cast<std::size_t>(e)] ||
                   !spinning(p_.events[static_cast<std::size_t>(e)]);
        });
    }

    /**
     * Whether the spinning waits of object `slot` that `s` has not run can still all return,
     * with some of its other operations run in some order between: the other objects and the
     * order are left out, so "no" is sure. The facts are asserted where every spinning wait returns
     * (`progress`), so a misuse after which its object cannot get there (a copy completing
     * before its barrier's init: its bytes are lost, and the phase a wait needs never
     * completes) needs no guard. A search too large to finish says "yes".
     */
    bool mayStillProgress(const Node& s, std::size_t slot) const {
        ObjectItem start{objectOpsDone(s, slot), s.mb[slot],
                         !s.observed.empty() && s.observed[slot]};
        if (allSpinsRan(slot, start.ran)) return true;
        std::string at = objectKey(slot, start);
        if (const auto known = progressOf_.find(at); known != progressOf_.end())
            return known->second;
        if (outOfReach(slot, start)) return progressOf_[std::move(at)] = false;
        // Each object state met is answered once: a search that finds every spinning wait
        // returned answers its start (a later search reaching it stops there), one that ends
        // without answers every state it met.
        constexpr std::size_t kMaxItems = 20000;
        const std::vector<int>& ops = opsAt_[slot];
        const std::vector<std::vector<std::size_t>>& before = objectOrder(slot);
        std::unordered_set<std::string> seen{at};
        std::vector<ObjectItem> stack{std::move(start)};
        while (!stack.empty()) {
            ObjectItem it = std::move(stack.back());
            stack.pop_back();
            for (std::size_t i = 0; i < ops.size(); ++i) {
                if (it.ran[i] || !firstOfClassLeft(ops, it.ran, i)) continue;
                if (!allRan(before[i], it.ran)) continue;
                const ir::Event& ev = p_.events[static_cast<std::size_t>(ops[i])];
                if (spinning(ev) && !succeeds(it.m, ev)) continue;
                ObjectItem next = it;
                next.ran[i] = true;
                stepObject(next.m, next.observed, ev);
                std::string k = objectKey(slot, next);
                const auto known = progressOf_.find(k);
                if (allSpinsRan(slot, next.ran) || (known != progressOf_.end() && known->second))
                    return progressOf_[std::move(at)] = true;
                if (known != progressOf_.end() || !seen.insert(std::move(k)).second) continue;
                if (outOfReach(slot, next)) continue; // no schedule on from here either
                // Too large to finish: "yes", as for a state no search answered.
                if (seen.size() > kMaxItems) return progressOf_[std::move(at)] = true;
                stack.push_back(std::move(next));
            }
        }
        for (std::string k : seen)
            progressOf_.emplace(std::move(k), false);
        return false;
    }

    /** Of object `slot`'s operations (opsAt_ order), those the order puts before each: every
     *  schedule runs them first, mayComplete's included, so mayStillProgress keeps to them and
     *  its "no" stays sure (without them its search took every order of a barrier's arrivals and
     *  waits: a 2-SM GEMM's per-object facts, 0.45 s a round for one barrier). */
    const std::vector<std::vector<std::size_t>>& objectOrder(std::size_t slot) const {
        if (objectBefore_.size() != opsAt_.size()) objectBefore_.resize(opsAt_.size());
        auto& out = objectBefore_[slot];
        const std::vector<int>& ops = opsAt_[slot];
        if (out.size() == ops.size()) return out;
        std::map<int, std::size_t> indexOf; // an mbarrier operation is visible
        for (std::size_t i = 0; i < ops.size(); ++i)
            indexOf.emplace(ops[i], i);
        out.assign(ops.size(), {});
        for (std::size_t i = 0; i < ops.size(); ++i)
            for (int a : visibleAncestors(ops[i]))
                if (const auto it = indexOf.find(a); it != indexOf.end())
                    out[i].push_back(it->second);
        return out;
    }

    static bool allRan(const std::vector<std::size_t>& ops, const std::vector<bool>& ran) {
        return std::all_of(ops.begin(), ops.end(), [&](std::size_t j) { return ran[j]; });
    }

    /** mayStillProgress's state of one object: which of its operations ran (opsAt_ order),
     *  its fields, and whether a wait observed its current phase. */
    struct ObjectItem {
        std::vector<bool> ran;
        MbState m;
        bool observed;
    };

    /** mbarrier::phasesOutOfReach for object `slot` in `it`: sure that its spinning waits
     *  cannot all return (a copy's bytes lost before the init, which the search would otherwise
     *  show by running every order of the later phases' copies). */
    bool outOfReach(std::size_t slot, const ObjectItem& it) const {
        const std::vector<int>& ops = opsAt_[slot];
        const std::vector<std::vector<std::size_t>>& before = objectOrder(slot);
        std::vector<std::size_t> index(ops.size(), SIZE_MAX);
        std::vector<mbarrier::OpLeft> left;
        for (std::size_t i = 0; i < ops.size(); ++i) {
            if (it.ran[i]) continue;
            index[i] = left.size();
            const ir::Event& ev = p_.events[static_cast<std::size_t>(ops[i])];
            left.push_back({&ev, operand_[static_cast<std::size_t>(ev.id)], spinning(ev), {}});
        }
        for (std::size_t i = 0; i < ops.size(); ++i)
            if (index[i] != SIZE_MAX)
                for (std::size_t b : before[i])
                    if (index[b] != SIZE_MAX) left[index[i]].after.push_back(index[b]);
        return mbarrier::phasesOutOfReach(it.m, left);
    }

    std::string objectKey(std::size_t slot, const ObjectItem& it) const {
        std::string k;
        appendVarint(k, static_cast<std::int64_t>(slot));
        appendBits(k, it.ran);
        appendState(k, it.m);
        appendVarint(k, it.observed ? 1 : 0);
        return k;
    }

    /** Every spinning wait of object `slot` ran (`ran`, opsAt_ order); the other operations may
     *  never happen (after a barrier that blocks), so need not run. */
    bool allSpinsRan(std::size_t slot, const std::vector<bool>& ran) const {
        const std::vector<int>& ops = opsAt_[slot];
        for (std::size_t i = 0; i < ops.size(); ++i)
            if (!ran[i] && spinning(p_.events[static_cast<std::size_t>(ops[i])])) return false;
        return true;
    }

    /** Which of object `slot`'s operations `s` has run, in opsAt_ order. */
    std::vector<bool> objectOpsDone(const Node& s, std::size_t slot) const {
        std::vector<bool> out;
        out.reserve(opsAt_[slot].size());
        for (int o : opsAt_[slot])
            out.push_back(s.done[static_cast<std::size_t>(o)]);
        return out;
    }

    /** Of the members of ops[i]'s class not yet run (`ran`), ops[i] is the first (true outside a
     *  class): members are interchangeable, so the check runs them in one order. */
    bool firstOfClassLeft(const std::vector<int>& ops, const std::vector<bool>& ran,
                          std::size_t i) const {
        const int c = classOf_[static_cast<std::size_t>(ops[i])];
        if (c < 0) return true;
        for (std::size_t j = 0; j < i; ++j)
            if (!ran[j] && classOf_[static_cast<std::size_t>(ops[j])] == c) return false;
        return true;
    }

    /** Whether every member of `o`'s class but `e` ran in `s` (true outside a class): only
     *  then does each permutation of `s` have them all run. */
    bool classRanBut(const Node& s, int o, int e) const {
        const int c = classOf_[static_cast<std::size_t>(o)];
        if (c < 0) return true;
        const auto& members = classes_[static_cast<std::size_t>(c)];
        return std::all_of(members.begin(), members.end(),
                           [&](int m) { return m == e || s.done[static_cast<std::size_t>(m)]; });
    }

    std::vector<std::size_t> topologicalRank() const {
        std::size_t n = p_.events.size();
        std::vector<std::size_t> rank(n, 0);
        // Longest path from a root (real-time order has no cycle, ir::realTimeReach; on a
        // cyclic order the events of the cycle never become ready anyway).
        bool changed = true;
        for (std::size_t round = 0; changed && round <= n; ++round) {
            changed = false;
            for (std::size_t b = 0; b < n; ++b)
                for (int a : preds_[b])
                    if (rank[b] <= rank[static_cast<std::size_t>(a)]) {
                        rank[b] = rank[static_cast<std::size_t>(a)] + 1;
                        changed = true;
                    }
        }
        return rank;
    }

    bool ready(const Node& s, int e) const {
        if (s.done[static_cast<std::size_t>(e)]) return false;
        for (int a : preds_[static_cast<std::size_t>(e)])
            if (!s.done[static_cast<std::size_t>(a)]) return false;
        const ir::Event& ev = p_.events[static_cast<std::size_t>(e)];
        if (ev.peerEvent >= 0) return !rendezvous_ || peerGateLeft(s, e) < 0;
        return ir::gateKind(ev) != ir::GateKind::Chosen || phaseAllows(s, e);
    }

    /** A spinning wait `e`: whether its object's phase in `s` lets it through. */
    bool phaseAllows(const Node& s, int e) const {
        const ir::Event& ev = p_.events[static_cast<std::size_t>(e)];
        const MbState& m =
            s.mb[static_cast<std::size_t>(mbSlot_[static_cast<std::size_t>(ev.location)])];
        std::int64_t operand = *operand_[static_cast<std::size_t>(e)];
        return mbarrier::waitCondition(values, ev, m.phase, m.valid, [&] { return operand; });
    }

    /**
     * With the rendezvous, a gate before `e`'s peer operation in the peer's thread that has not
     * run, or -1 where the peer's thread has reached it: a cta_group::2 alloc or dealloc passes
     * once its peer's thread gets past the gates before the peer (engine/GateSemantics.hpp,
     * passesOn). A dealloc that may block is taken as blocking: a schedule where some deallocs
     * block and hang has one where every dealloc blocks and hangs (a dealloc whose peer is
     * reached still passes), and that is an execution too.
     */
    int peerGateLeft(const Node& s, int e) const {
        const int peer = p_.events[static_cast<std::size_t>(e)].peerEvent;
        for (int g : p_.events[static_cast<std::size_t>(peer)].gates)
            if (g != peer && !s.done[static_cast<std::size_t>(g)]) return g;
        return -1;
    }

    void runEvent(Node& s, int e) const {
        s.done[static_cast<std::size_t>(e)] = true;
        const ir::Event& ev = p_.events[static_cast<std::size_t>(e)];
        if (!ev.has(ir::Tag::MB)) return;
        const auto slot = static_cast<std::size_t>(mbSlot_[static_cast<std::size_t>(ev.location)]);
        MbState& m = s.mb[slot];
        if (s.observed.empty()) {
            m = mbarrier::apply(values, m, ev).after;
            return;
        }
        bool observed = s.observed[slot];
        stepObject(m, observed, ev);
        s.observed[slot] = observed;
    }

    /** `ev` acts on its object (`m`, and whether a wait returned True in its current phase
     *  instance: the phase rule's `observed`). */
    void stepObject(MbState& m, bool& observed, const ir::Event& ev) const {
        if (ev.mbOp == ir::MbOp::Wait && succeeds(m, ev)) observed = true;
        const std::int64_t stamp = m.stamp;
        m = mbarrier::apply(values, m, ev).after;
        if (m.stamp != stamp) observed = false;
    }

    /** A wait returns True on the object in state `m` (its operand a constant). */
    bool succeeds(const MbState& m, const ir::Event& wait) const {
        const auto& operand = operand_[static_cast<std::size_t>(wait.id)];
        return operand &&
               mbarrier::waitCondition(values, wait, m.phase, m.valid, [&] { return *operand; });
    }

    /** Whether `e` run on the object in state `m` is undefined behaviour: MB_MISUSE as the
     *  encodings compute it (smt/ProgramEncoder.cpp, engine/Execution.cpp) for one step. */
    bool misuseOf(const MbState& m, bool observed, const ir::Event& e) const {
        const auto step = mbarrier::apply(values, m, e);
        if (mbarrier::misuse<V>(e, m.valid, step.pendingAfterArrival, step.countMisuse))
            return true;
        const auto& operand = operand_[static_cast<std::size_t>(e.id)];
        if (e.mbOp == ir::MbOp::Wait && e.mbToken)
            return !operand || mbarrier::staleToken(values, m.phase, *operand);
        return e.mbOp == ir::MbOp::Arrive && mbarrier::unobservedArrive<V>(true, m.phase, observed);
    }

    /** Runs every invisible event that can run (they never disable anything), into `ran`. */
    void settle(Node& s, std::vector<int>* ran = nullptr) const {
        for (int e : invisible_)
            if (ready(s, e)) {
                runEvent(s, e);
                if (ran != nullptr) ran->push_back(e);
            }
    }

    /** settle() after `e` ran in a settled state: an invisible event waits only for its
     *  predecessors, so only the successors of what just ran can have become ready. */
    void settleAfter(Node& s, int e) const {
        std::vector<int> todo(succs_[static_cast<std::size_t>(e)]);
        while (!todo.empty()) {
            const int c = todo.back();
            todo.pop_back();
            if (!isInvisible_[static_cast<std::size_t>(c)] || !ready(s, c)) continue;
            runEvent(s, c);
            const auto& more = succs_[static_cast<std::size_t>(c)];
            todo.insert(todo.end(), more.begin(), more.end());
        }
    }

    /**
     * The state as bytes, one per state in `seen`: the done events as bits, then each object's
     * fields as zigzag varints (an object's counts are small, and 48 fixed bytes per object made
     * the keys most of the search's memory: 3.8 KB a state on CUTLASS's 1-SM GEMM), then the
     * observed bits. Every part has a fixed count of self-delimiting fields. Members of an
     * interchangeable class (findInterchangeable) count as a number run, not as bits: equal keys
     * are states equal up to a permutation of each class's released members.
     */
    std::string key(const Node& s) const {
        std::string k;
        k.reserve(s.done.size() / 8 + 1 + s.mb.size() * 6 + s.observed.size() / 8 + 1 +
                  classes_.size());
        if (symmetric_.empty()) {
            appendBits(k, s.done, classes_.empty() ? nullptr : &inClass_);
        } else { // invisible events' bits follow from the visible ones' (settle())
            appendBits(k, s.done, &keySkip_);
            appendSortedMembers(k, s);
        }
        for (const auto& members : classes_)
            appendVarint(k, static_cast<std::int64_t>(
                                std::count_if(members.begin(), members.end(), [&](int m) {
                                    return s.done[static_cast<std::size_t>(m)];
                                })));
        for (const MbState& m : s.mb)
            appendState(k, m);
        appendBits(k, s.observed);
        return k;
    }

    /** Each class of symmetric threads: the members whose prefix has not run, in order, then
     *  the others' events run, as bits, sorted: one key for every permutation of those. */
    void appendSortedMembers(std::string& k, const Node& s) const {
        std::vector<std::string> members;
        auto ran = [&](int e) { return s.done[static_cast<std::size_t>(e)]; };
        for (const auto& cls : symmetric_) {
            members.clear();
            for (const auto& member : cls) {
                std::vector<bool> bits;
                for (int e : member.events)
                    bits.push_back(ran(e));
                std::string b;
                appendBits(b, bits);
                if (std::all_of(member.prefix.begin(), member.prefix.end(), ran))
                    members.push_back(std::move(b));
                else
                    k += b;
            }
            std::sort(members.begin(), members.end());
            for (const auto& m : members)
                k += m;
        }
    }

    /**
     * The visible events the search takes from `s`: a persistent set (Godefroid), so that every
     * maximal schedule has an equivalent one through it, up to reordering events of different
     * objects. Events of different mbarrier objects commute and never disable each other (an
     * event's readiness is its predecessors and its own object's phase), and so do two waits
     * on one object (a wait changes nothing, engine/MbarrierMachine.hpp): on an acyclic state
     * space every end state and every object's sequence of operations, up to the order of
     * adjacent waits, stays reachable: the hangs, the complete schedules and each step's facts
     * (a function of its object's changes so far) are those of the full search, without the
     * order of two waits, which record() leaves out. Rings with many stages and kernels whose
     * copies complete on several barriers at once interleave mostly across objects; warps that
     * all wait on one barrier (a tile scheduler's response) interleave only their waits.
     */
    std::vector<int> persistentSet(const Node& s, int prefer = -1) const {
        std::vector<int> enabled;
        for (int e : visible_)
            if (ready(s, e)) enabled.push_back(e);
        if (enabled.size() <= 1 || !reduce_) return enabled;
        // A gate on no mbarrier (a bar.sync completion) commutes with everything: alone it is one.
        for (int e : enabled)
            if (!p_.events[static_cast<std::size_t>(e)].has(ir::Tag::MB)) return {e};
        std::vector<int> best = enabled;
        std::vector<bool> tried(opsAt_.size(), false);
        // seeds from one group: `prefer` where it has an enabled event, else the lowest
        int group = groupOf_[static_cast<std::size_t>(enabled.front())];
        bool preferred = false;
        for (int e : enabled) {
            group = std::min(group, groupOf_[static_cast<std::size_t>(e)]);
            preferred =
                preferred || (prefer >= 0 && groupOf_[static_cast<std::size_t>(e)] == prefer);
        }
        if (preferred) group = prefer;
        for (int e : enabled) {
            if (groupOf_[static_cast<std::size_t>(e)] != group) continue; // groupThreads()
            if (tried[slotOf(e)]) continue; // one seed per object: each pulls in its whole object
            tried[slotOf(e)] = true;
            std::vector<int> t = stubbornFrom(s, e, best.size());
            if (t.size() < best.size()) best = std::move(t);
            if (best.size() == 1) break;
        }
        return oneOfEachClass(best);
    }

    /** `set` with one member of each interchangeable class: the others lead to the same
     *  state up to a permutation of the class, which key() does not tell apart. */
    std::vector<int> oneOfEachClass(std::vector<int> set) const {
        if (classes_.empty()) return set;
        std::vector<bool> seen(classes_.size(), false);
        std::erase_if(set, [&](int e) {
            const int c = classOf_[static_cast<std::size_t>(e)];
            if (c < 0) return false;
            if (seen[static_cast<std::size_t>(c)]) return true;
            seen[static_cast<std::size_t>(c)] = true;
            return false;
        });
        return set;
    }

    /**
     * The enabled events of a stubborn set (Valmari) grown from `seed`: with an enabled
     * mbarrier operation, every pending operation of its object that may run before it and does
     * not commute with it (addOperations); with a disabled event, what must run before it can:
     * a pending predecessor, or for a spinning wait one change its phase needs
     * (necessaryChange), else its object's pending changes. No schedule from `s` can then run
     * one of the set's events without first running an enabled one of them, and each event it
     * runs before commutes with all of them: the enabled ones are a persistent set. Gives up
     * (returns `enabled` of size `cap` or more) once it cannot beat `cap`.
     */
    std::vector<int> stubbornFrom(const Node& s, int seed, std::size_t cap) const {
        std::vector<bool> in(p_.events.size(), false);
        std::vector<int> todo{seed}, enabled;
        in[static_cast<std::size_t>(seed)] = true;
        auto add = [&](int x) {
            if (!in[static_cast<std::size_t>(x)] && !s.done[static_cast<std::size_t>(x)]) {
                in[static_cast<std::size_t>(x)] = true;
                todo.push_back(x);
            }
        };
        while (!todo.empty()) {
            const int x = todo.back();
            todo.pop_back();
            const ir::Event& ev = p_.events[static_cast<std::size_t>(x)];
            if (ready(s, x)) {
                enabled.push_back(x);
                if (enabled.size() >= cap) return enabled;
                if (!ev.has(ir::Tag::MB)) continue;
                const bool wait = ev.mbOp == ir::MbOp::Wait;
                // the phase's guard, where it adds fewer than the operations that do not commute
                const int guard = phaseGuard(s, x);
                const bool guardNew = guard >= 0 && !in[static_cast<std::size_t>(guard)];
                if (guard != kNoGuard &&
                    (!guardNew || countOperations(s, slotOf(x), wait, x, in) > 1)) {
                    if (guardNew) add(guard);
                    continue;
                }
                addOperations(slotOf(x), wait, x, add);
                continue;
            }
            int pending = -1;
            for (int a : preds_[static_cast<std::size_t>(x)])
                if (!s.done[static_cast<std::size_t>(a)]) {
                    pending = a;
                    if (in[static_cast<std::size_t>(a)]) break; // already in: nothing new
                }
            if (pending >= 0) {
                add(pending);
                continue;
            }
            // A cta_group::2 operation whose peer's thread has not reached the peer: a gate
            // before the peer must run first.
            if (const int gate = ev.peerEvent >= 0 ? peerGateLeft(s, x) : -1; gate >= 0) {
                add(gate);
                continue;
            }
            // A spinning wait its object's phase holds: only the object's changes release it,
            // and where one of them must run for the phase to complete, that one alone.
            if (const int needed = necessaryChange(s, x, in); needed >= 0)
                add(needed);
            else
                addOperations(slotOf(x), true, x, add);
        }
        std::sort(enabled.begin(), enabled.end());
        return enabled;
    }

    /** phaseGuard's answer where the object's current phase has no guard. */
    static constexpr int kNoGuard = -2;

    /**
     * Hang searches only: for an enabled wait, arrival or tx change `x`, a change of its object
     * other than `x` that every schedule from `s` runs before the object's current phase
     * completes (the guard), which `x`'s set must hold: -1 where the guard follows `x` in real
     * time (no schedule runs it before `x`), kNoGuard where there is none. Until the guard runs
     * the phase cannot complete, so the object's other waits and changes commute with `x` (the
     * changes add to the pending count and the tx-count; the waits see one phase): with the
     * guard in the set, or after `x`, every state a schedule reaches from `s` without the set
     * is such a state. In CUTLASS's 2-SM pipelines the peer CTA's and the multicast copies'
     * bytes complete on the leader's full barrier in any order around its expect_tx arrival,
     * and the leader's own copy, issued after that arrival, guards the phase.
     */
    int phaseGuard(const Node& s, int x) const {
        if (facts_ != nullptr) return kNoGuard; // the facts name which step was the misuse
        const ir::Event& xe = p_.events[static_cast<std::size_t>(x)];
        if (xe.mbOp != ir::MbOp::Wait && !plainChange(xe)) return kNoGuard;
        const std::size_t slot = slotOf(x);
        const MbState& m = s.mb[slot];
        if (!m.valid) return kNoGuard;
        std::int64_t arrivals = 0, bytes = 0;
        for (int o : opsAt_[slot]) {
            const ir::Event& ev = p_.events[static_cast<std::size_t>(o)];
            if (s.done[static_cast<std::size_t>(o)] || !mbarrier::changesObject(ev)) continue;
            if (!plainChange(ev)) return kNoGuard;
            if (ev.mbOp == ir::MbOp::Arrive) arrivals += ev.mbArrivals;
            if (ev.mbOp == ir::MbOp::CompleteTx) bytes += ev.mbAmount;
        }
        // Arrivals every completion needs, and the bytes those add: completed bytes must reach
        // the tx-count plus them.
        auto arrivalNeeded = [&](const ir::Event& ev) {
            return ev.mbOp == ir::MbOp::Arrive && arrivals - ev.mbArrivals < m.pending;
        };
        std::int64_t neededBytes = m.tx;
        for (int o : opsAt_[slot]) {
            const ir::Event& ev = p_.events[static_cast<std::size_t>(o)];
            if (!s.done[static_cast<std::size_t>(o)] && arrivalNeeded(ev))
                neededBytes += ev.mbAmount;
        }
        int guard = kNoGuard;
        for (int o : opsAt_[slot]) {
            const ir::Event& ev = p_.events[static_cast<std::size_t>(o)];
            if (o == x || s.done[static_cast<std::size_t>(o)]) continue;
            const bool needed = arrivalNeeded(ev) || (ev.mbOp == ir::MbOp::CompleteTx &&
                                                      bytes - ev.mbAmount < neededBytes);
            if (!needed) continue;
            if (follows(x, o)) return -1;
            if (guard == kNoGuard) guard = o;
        }
        return guard;
    }

    /** An arrival (not a drop, no .noComplete), an expect_tx or completed bytes: a change that
     *  only lowers the pending count or moves the tx-count, by a fixed amount. */
    static bool plainChange(const ir::Event& ev) {
        if (ev.mbReport) return false;
        if (ev.mbOp == ir::MbOp::Arrive) return !ev.mbDrop && !ev.mbNoComplete && ev.mbAmount >= 0;
        return (ev.mbOp == ir::MbOp::CompleteTx && ev.mbAmount > 0) ||
               (ev.mbOp == ir::MbOp::ExpectTx && ev.mbAmount >= 0);
    }

    /**
     * For a spinning wait `x` its object's phase holds in `s`: a change of the object that
     * every schedule runs before `x` can return (one already in the set `in` where there is
     * one), or -1. The wait returns only once the current phase completes, which needs the
     * pending count at zero (only arrivals lower it, where no init, increment or drop is left)
     * and the tx-count at zero (only completed bytes lower it, where no arrival or expect_tx
     * adds any). An arrival without which the arrivals left (those that may run before `x`)
     * cannot bring the pending count to zero is such a change, and so are completed bytes
     * without which the tx-count cannot reach zero: a necessary enabling set of one (Godefroid),
     * where all of the object's changes would pull in every warp that arrives on it (two CTAs'
     * epilogues on their pair's accumulator barrier).
     */
    int necessaryChange(const Node& s, int x, const std::vector<bool>& in) const {
        const std::size_t slot = slotOf(x);
        const MbState& m = s.mb[slot];
        if (!m.valid) return -1;
        std::vector<int> left;
        std::int64_t arrivals = 0, bytes = 0;
        bool addsBytes = false;
        for (int o : opsAt_[slot]) {
            const ir::Event& ev = p_.events[static_cast<std::size_t>(o)];
            if (s.done[static_cast<std::size_t>(o)] || !mbarrier::changesObject(ev) ||
                follows(x, o))
                continue;
            if (ev.mbOp == ir::MbOp::Arrive && !ev.mbDrop) {
                arrivals += ev.mbArrivals;
                addsBytes = addsBytes || ev.mbAmount != 0;
            } else if (ev.mbOp == ir::MbOp::CompleteTx) {
                bytes += ev.mbAmount;
            } else if (ev.mbOp == ir::MbOp::ExpectTx) {
                addsBytes = true;
            } else {
                return -1; // an init, increment, drop or inval changes what completes the phase
            }
            left.push_back(o);
        }
        auto needed = [&](int o) {
            const ir::Event& ev = p_.events[static_cast<std::size_t>(o)];
            if (ev.mbOp == ir::MbOp::Arrive) return arrivals - ev.mbArrivals < m.pending;
            return ev.mbOp == ir::MbOp::CompleteTx && !addsBytes && bytes - ev.mbAmount < m.tx;
        };
        int chosen = -1;
        for (int o : left)
            if (needed(o) && (chosen < 0 || in[static_cast<std::size_t>(o)])) {
                chosen = o;
                if (in[static_cast<std::size_t>(o)]) break;
            }
        return chosen;
    }

    /**
     * Adds the operations of object `slot` that may run before `x`: only those that change it
     * (`changesOnly`), the dependents of a wait (or what may release a held one), or all of
     * them, the dependents of a change. An operation after `x` in real time runs in no
     * schedule from here before `x` does (an init's object's operations behind a cluster
     * barrier), so it can neither interfere with `x` nor release it first.
     */
    template <class Add>
    void addOperations(std::size_t slot, bool changesOnly, int x, Add& add) const {
        for (int o : opsAt_[slot])
            if ((!changesOnly || mbarrier::changesObject(p_.events[static_cast<std::size_t>(o)])) &&
                !follows(x, o) && !sameChange(x, o))
                add(o);
    }

    /** How many operations addOperations would add to the set `in` from `s`. */
    std::size_t countOperations(const Node& s, std::size_t slot, bool changesOnly, int x,
                                const std::vector<bool>& in) const {
        std::size_t n = 0;
        auto count = [&](int o) {
            n += in[static_cast<std::size_t>(o)] || s.done[static_cast<std::size_t>(o)] ? 0 : 1;
        };
        addOperations(slot, changesOnly, x, count);
        return n;
    }

    /**
     * Hang searches only: `x` and `o` change their object by the same function (one operation
     * with the same counts and bytes: two warps' arrivals on an accumulator's empty barrier).
     * Applying a function twice is the same in either order, and no change is ever held by
     * the object's state, so they are independent; which of them was a misuse is the facts'
     * business, so the facts' search orders them.
     */
    bool sameChange(int x, int o) const {
        if (facts_ != nullptr) return false;
        const ir::Event& a = p_.events[static_cast<std::size_t>(x)];
        const ir::Event& b = p_.events[static_cast<std::size_t>(o)];
        return a.mbOp == b.mbOp && a.mbOp != ir::MbOp::Wait && a.mbAmount == b.mbAmount &&
               a.mbArrivals == b.mbArrivals && a.mbDrop == b.mbDrop &&
               a.mbNoComplete == b.mbNoComplete && !a.mbReport && !b.mbReport;
    }

    /** Whether visible event `o` follows `x` in real time (a path of predecessors). */
    bool follows(int x, int o) const {
        const int i = visibleIndex_[static_cast<std::size_t>(o)];
        const auto& below = below_[static_cast<std::size_t>(x)];
        return i >= 0 && !below.empty() &&
               ((below[static_cast<std::size_t>(i) / 64] >> (static_cast<unsigned>(i) % 64)) & 1U);
    }

    /** below_: for each event, the visible events that follow it in real time, as bits. */
    void findFollowers() {
        visibleIndex_.assign(p_.events.size(), -1);
        for (std::size_t i = 0; i < visible_.size(); ++i)
            visibleIndex_[static_cast<std::size_t>(visible_[i])] = static_cast<int>(i);
        const std::size_t words = (visible_.size() + 63) / 64;
        below_.assign(p_.events.size(), std::vector<std::uint64_t>(words, 0));
        std::vector<std::size_t> rank = topologicalRank();
        std::vector<int> order(p_.events.size());
        std::iota(order.begin(), order.end(), 0);
        std::sort(order.begin(), order.end(), [&](int a, int b) {
            return rank[static_cast<std::size_t>(a)] > rank[static_cast<std::size_t>(b)];
        });
        for (int x : order)
            for (int c : succs_[static_cast<std::size_t>(x)]) {
                auto& mine = below_[static_cast<std::size_t>(x)];
                const auto& theirs = below_[static_cast<std::size_t>(c)];
                for (std::size_t w = 0; w < words; ++w)
                    mine[w] |= theirs[w];
                if (const int i = visibleIndex_[static_cast<std::size_t>(c)]; i >= 0)
                    mine[static_cast<std::size_t>(i) / 64] |= std::uint64_t{1}
                                                              << (static_cast<unsigned>(i) % 64);
            }
    }

    std::size_t slotOf(int e) const {
        return static_cast<std::size_t>(
            mbSlot_[static_cast<std::size_t>(p_.events[static_cast<std::size_t>(e)].location)]);
    }

    /** Depth-first over the visible events, each state once. */
    void search(Exploration& out) {
        Node start = initialNode();
        settle(start);
        struct Frame {
            Node node;
            std::vector<int> next;
            std::size_t taken = 0;
        };
        std::unordered_set<std::string> seen{key(start)};
        std::vector<Frame> stack;
        std::vector<int> path;        // the visible events that led to the top frame
        std::vector<bool> pastMisuse; // by step of `path`: it went past a misuse
        std::size_t misusesOnPath = 0;
        std::set<std::vector<int>> hangsKept; // the waits each kept hang holds
        auto push = [&](Node n) {
            std::vector<int> next = persistentSet(n);
            Frame f{std::move(n), std::move(next), 0};
            if (f.next.empty() && hangs(f.node)) out.answer = Answer::MayHang;
            if (f.next.empty() && hangs(f.node) && facts_ != nullptr &&
                out.hangSchedules.size() < kHangSchedules)
                keepHang(out, f.node, path, hangsKept);
            if (f.next.empty() && facts_ != nullptr) recordEnd(f.node);
            if (f.next.empty() && !hangs(f.node) && out.completeSchedule.empty())
                out.completeSchedule = replay(path);
            if (f.next.empty() && !hangs(f.node) && misusesOnPath > 0 && out.misuseSchedule.empty())
                out.misuseSchedule = replay(path);
            stack.push_back(std::move(f));
        };
        push(std::move(start));
        while (!stack.empty() && (out.answer != Answer::MayHang || facts_ != nullptr) &&
               !(firstOnly_ && !out.completeSchedule.empty())) {
            Frame& top = stack.back();
            if (top.taken == top.next.size()) {
                stack.pop_back();
                if (!stack.empty()) {
                    path.pop_back();
                    misusesOnPath -= pastMisuse.back() ? 1 : 0;
                    pastMisuse.pop_back();
                }
                continue;
            }
            int e = top.next[top.taken++];
            Node n = top.node;
            // A misuse after which no schedule has every spinning wait return ends its
            // schedule (MbarrierFacts::endedAt); the search goes on past every other one.
            if (facts_ != nullptr && !record(top.node, e)) {
                const std::vector<int> as = images(e);
                endedAt_.insert(as.begin(), as.end());
                // Not going past: a misuse with a schedule on is a premise of the facts, and
                // the first such schedule is the misuse's (Exploration::misuseSchedule).
                std::vector<int> on;
                if (goPastStates_ == 0 && !premises_.count(e) &&
                    mayGoOn(top.node, e, out.misuseSchedule.empty() ? &on : nullptr)) {
                    premises_.insert(as.begin(), as.end());
                    if (out.misuseSchedule.empty()) out.misuseSchedule = replay(path, e, on);
                }
                continue;
            }
            runEvent(n, e);
            settleAfter(n, e);
            if (!seen.insert(key(n)).second) continue;
            statesSeen_ = seen.size();
            if (!misuseSeen_.empty() && misuseKnown_ && goPastStates_ > 0 &&
                seen.size() > statesAtFirstPast_ + goPastStates_) {
                out.answer = Answer::TooLarge;
                out.cut = true;
                out.why =
                    "more than " + std::to_string(goPastStates_) + " schedule states past a misuse";
                out.states = seen.size();
                goneTooFar_ = true;
                return;
            }
            if (seen.size() > maxStates_) {
                out.answer = Answer::TooLarge;
                out.cut = true;
                out.why = "more than " + std::to_string(maxStates_) + " schedule states";
                out.states = seen.size();
                return;
            }
            if (budget_ != nullptr && (seen.size() & 1023U) == 0) budget_->poll();
            path.push_back(e);
            pastMisuse.push_back(steppedPastMisuse_);
            misusesOnPath += steppedPastMisuse_ ? 1 : 0;
            push(std::move(n));
        }
        out.states = seen.size();
        if (out.answer != Answer::MayHang) out.answer = Answer::NoHang;
    }

    /**
     * The mbarrier facts of one step: `e` runs from `s`. False when the step is undefined
     * behaviour, misuse is a function of the state (misuseKnown_) and no schedule on from it
     * has every spinning wait return: the search then goes no further.
     */
    bool record(const Node& s, int e) {
        steppedPastMisuse_ = false;
        const ir::Event& ev = p_.events[static_cast<std::size_t>(e)];
        if (!ev.has(ir::Tag::MB)) return true;
        const auto slot = static_cast<std::size_t>(mbSlot_[static_cast<std::size_t>(ev.location)]);
        const std::vector<int> as = images(e);
        if (misuseOf(s.mb[slot], s.observed[slot], ev)) {
            if (misuseKnown_ && (goPastStates_ == 0 || (!misuseSeen_.count(e) && !mayGoOn(s, e))))
                return false;
            if (misuseKnown_ && misuseSeen_.empty()) statesAtFirstPast_ = statesSeen_;
            misuseSeen_.insert(as.begin(), as.end());
            steppedPastMisuse_ = true;
        }
        for (int m : as)
            facts_->phases[m].insert(s.mb[slot].phase);
        // Two waits commute (persistent sets take one order of them): no fact orders them.
        const bool wait = ev.mbOp == ir::MbOp::Wait;
        // Of a class, only members run in every permutation of `s`: all of them (e's own
        // class: all but the image itself, when all but e ran).
        const int own = classOf_[static_cast<std::size_t>(e)];
        std::vector<int> before;
        for (int o : opsAt_[slot])
            if (o != e && s.done[static_cast<std::size_t>(o)] &&
                !(wait && p_.events[static_cast<std::size_t>(o)].mbOp == ir::MbOp::Wait) &&
                (own < 0 || classOf_[static_cast<std::size_t>(o)] != own) && classRanBut(s, o, e))
                before.push_back(o);
        const bool siblingsRan = own >= 0 && classRanBut(s, e, e);
        for (int m : as) {
            std::vector<int> mine = before;
            if (siblingsRan)
                for (int o : as)
                    if (o != m) mine.push_back(o);
            std::sort(mine.begin(), mine.end());
            intersectAlwaysAfter(m, mine);
        }
        return true;
    }

    /** An end state: its gates that did not run (MbarrierFacts::leftAtEnd). */
    void recordEnd(const Node& s) {
        for (std::size_t e = 0; e < s.done.size(); ++e)
            if (!s.done[e] && ir::gateKind(p_.events[e]) != ir::GateKind::None)
                for (int m : images(static_cast<int>(e)))
                    facts_->leftAtEnd.insert(m);
    }

    void intersectAlwaysAfter(int e, const std::vector<int>& before) {
        auto [it, first] = facts_->alwaysAfter.emplace(e, before);
        if (first) return;
        std::vector<int> both;
        std::set_intersection(it->second.begin(), it->second.end(), before.begin(), before.end(),
                              std::back_inserter(both));
        it->second = std::move(both);
    }

    /** A schedule that can go no further with events left over: a gate holds its thread. */
    static bool hangs(const Node& s) {
        return std::find(s.done.begin(), s.done.end(), false) != s.done.end();
    }

    /** An end state where events are left: kept (Exploration::hangSchedules) where the
     *  spinning waits that hold their threads are a set not kept yet. */
    void keepHang(Exploration& out, const Node& s, const std::vector<int>& path,
                  std::set<std::vector<int>>& kept) const {
        std::vector<int> stuck;
        for (const ir::Event& ev : p_.events) {
            const auto e = static_cast<std::size_t>(ev.id);
            if (s.done[e] || ev.mbOp != ir::MbOp::Wait || ir::gateKind(ev) != ir::GateKind::Chosen)
                continue;
            if (std::all_of(preds_[e].begin(), preds_[e].end(),
                            [&](int a) { return s.done[static_cast<std::size_t>(a)]; }))
                stuck.push_back(ev.id);
        }
        if (stuck.empty() || !kept.insert(stuck).second) return;
        out.hangSchedules.push_back({replay(path), std::move(stuck)});
    }

    /** The whole schedule of a path of visible events: the others where they ran. */
    std::vector<int> replay(const std::vector<int>& path) const {
        Node s = initialNode();
        std::vector<int> order;
        settle(s, &order);
        for (int e : path) {
            runEvent(s, e);
            order.push_back(e);
            settle(s, &order);
        }
        return order;
    }

    /** replay() of `path`, then `step`, then `after`. */
    std::vector<int> replay(std::vector<int> path, int step, const std::vector<int>& after) const {
        path.push_back(step);
        path.insert(path.end(), after.begin(), after.end());
        return replay(path);
    }

    Node initialNode() const {
        Node start{std::vector<bool>(p_.events.size(), false), {}, {}};
        for (std::size_t e = 0; e < absent_.size(); ++e)
            if (absent_[e]) start.done[e] = true;
        for (int loc : mbLocs_)
            start.mb.push_back(
                mbarrier::initial(values, p_.locations[static_cast<std::size_t>(loc)]));
        if (facts_ != nullptr) start.observed.assign(mbLocs_.size(), false);
        return start;
    }

    bool isAbsent(int e) const { return !absent_.empty() && absent_[static_cast<std::size_t>(e)]; }

    const ir::Program& p_;
    /// by event, with a way of the program's choices: its guard fails (empty: no way given)
    std::vector<bool> absent_;
    std::size_t completionStates_ = 0; ///< states of the mayComplete searches, together
    /** groupStuckForever's working sets, by event and by slot (reused: see there). */
    struct StuckScratch {
        std::vector<char> mayRun;
        std::vector<int> waitingFor;
        std::vector<signed char> changed;
        std::vector<int> todo;
    };
    mutable StuckScratch stuckScratch_;
    /// States from which mayComplete found a schedule with every spinning wait returned, and
    /// those from which its finished search found none: later searches stop at either. A state
    /// answers alike whichever misuse led to it (the persistent sets keep every end state).
    std::unordered_set<std::string> completing_, stuck_;
    /// mayStillProgress's answers, by the object and its own state (ops run, fields, observed).
    mutable std::unordered_map<std::string, bool> progressOf_;
    /// objectOrder's answers, by slot (filled when first asked).
    mutable std::vector<std::vector<std::vector<std::size_t>>> objectBefore_;
    bool completionsCut_ = false; ///< they reached maxStates_ (MbarrierFacts::completionsCut)
    std::set<int> endedAt_;       ///< the ops some schedule ended at (MbarrierFacts::endedAt)
    std::size_t maxStates_;
    const Budget* budget_;
    bool firstOnly_;  ///< firstSchedule: the search ends with its first complete schedule
    bool rendezvous_; ///< cta_group::2 pairs wait for their peers (explore())
    bool reduce_;     ///< persistent sets (Reduction::PersistentSets)
    std::vector<std::vector<int>> preds_;              ///< real-time predecessors of each event
    std::vector<std::vector<int>> succs_;              ///< and successors
    std::vector<bool> isInvisible_;                    ///< by event: in invisible_
    std::vector<int> visible_, invisible_;             ///< mbarrier operations and gates; the rest
    std::vector<int> mbSlot_;                          ///< location -> index in Node::mb, or -1
    std::vector<int> mbLocs_;                          ///< the mbarrier locations, by slot
    std::vector<std::optional<std::int64_t>> operand_; ///< spinning wait -> parity or token
    std::vector<std::vector<int>> opsAt_;              ///< by slot: the object's operations
    std::vector<int> groupOf_; ///< event -> its thread's group (groupThreads(): the lowest thread)
    std::vector<std::vector<int>> groupEvents_; ///< group -> its visible events (not absent)
    std::vector<std::vector<int>> groupPreds_;  ///< linkGroupEvents(): by visible event
    std::vector<std::vector<int>> groupSuccs_;  ///< and the reverse
    MbarrierFacts* facts_;                      ///< observeMbarriers: where facts go
    bool misuseKnown_ = false;                  ///< facts: every wait's operand is a constant
    std::set<int> misuseSeen_;                  ///< facts: the mbarrier ops some step made misuse
    bool steppedPastMisuse_ = false;            ///< facts: record()'s step was a misuse, gone past
    std::set<int> premises_;                ///< facts, not going past: misuses with a schedule on
    std::size_t goPastStates_ = 0;          ///< goPastMisuses(); 0: each misuse ends its schedule
    std::size_t statesSeen_ = 0;            ///< states the search has seen so far
    std::size_t statesAtFirstPast_ = 0;     ///< and when it first went past a misuse
    bool goneTooFar_ = false;               ///< it gave up past a misuse (goPastStates_)
    std::vector<std::vector<int>> classes_; ///< interchangeable completions (findInterchangeable)
    std::vector<int> classOf_;              ///< by event: its class, or -1
    std::vector<bool> inClass_;             ///< by event: classOf_ >= 0
    std::vector<int> visibleIndex_;         ///< by event: its index in visible_, or -1
    std::vector<std::vector<std::uint64_t>> below_; ///< findFollowers()
    ThreadClasses symmetric_;       ///< interchangeable threads (findSymmetricThreads)
    std::vector<bool> inSymmetric_; ///< by event: an event of a member of symmetric_
    std::vector<bool> keySkip_;     ///< by event, with symmetric_: left out of key()'s bits
};

/** States the facts' search may take past a misuse before it falls back to premises. */
constexpr std::size_t kStatesPastMisuse = 20000;

/** The facts of a finished search (what it saw, or nothing where it gave up). */
MbarrierFacts finish(MbarrierFacts facts, const Exploration& e, const Explorer& explorer) {
    facts.states = e.states;
    facts.completeSchedule = e.completeSchedule;
    facts.misuseSchedule = e.misuseSchedule;
    facts.hangSchedules = e.hangSchedules;
    facts.known = e.answer == Answer::NoHang || e.answer == Answer::MayHang;
    if (facts.known) explorer.misuseFacts(facts);
    if (!facts.known) {
        facts.why = e.why;
        facts.phases.clear();
        facts.alwaysAfter.clear();
    }
    return facts;
}

/** `p` with its mbarrier operations off `location` and its gates made plain events. */
ir::Program withObjectAlone(const ir::Program& p, int location) {
    ir::Program out = p;
    for (ir::Event& e : out.events) {
        if (e.has(ir::Tag::MB) && e.location == location) continue;
        e.tags.erase(ir::Tag::MB);
        e.tags.erase(ir::Tag::MB_WAIT);
        e.tags.erase(ir::Tag::BAR_WAIT);
        e.mbOp = ir::MbOp::None;
        e.mbReport = nullptr;
        e.blocking = false;
        e.peerEvent = -1;
    }
    return out;
}

/** Adds `more`, the facts of another object's search, to `into`. */
void mergeObjectFacts(MbarrierFacts& into, MbarrierFacts more) {
    into.states += more.states;
    if (!more.known) {
        into.known = false;
        if (into.why.empty()) into.why = more.why;
        return;
    }
    into.phases.merge(more.phases);
    into.alwaysAfter.merge(more.alwaysAfter);
    into.misuseKnown = into.misuseKnown && more.misuseKnown;
    into.misusesPast.merge(more.misusesPast);
    into.firstMisuses.merge(more.firstMisuses);
    into.completionsCut = into.completionsCut || more.completionsCut;
    into.endedAt.merge(more.endedAt);
    into.misuseFree.merge(more.misuseFree);
}

} // namespace

Exploration explore(const ir::Program& p, std::size_t maxStates, const Budget* budget,
                    Reduction reduction) {
    return Explorer(p, ir::realTimePairs(p), maxStates, budget, nullptr, reduction, true).run();
}

Exploration firstSchedule(const ir::Program& p, const std::vector<std::pair<int, int>>& order,
                          std::size_t maxStates, const Budget* budget) {
    return Explorer(p, order, maxStates, budget, nullptr, Reduction::PersistentSets, false, true)
        .run();
}

MbarrierFacts observeMbarriers(const ir::Program& p, const std::vector<std::pair<int, int>>& order,
                               std::size_t maxStates, const Budget* budget, Reduction reduction,
                               std::vector<bool> absent) {
    // Past misuses first: facts with no premise. Where the states multiply after a misuse (a
    // warp's lanes arriving past the pending count, each arrive one more misuse: the
    // 300,000-state cap, 2 facts where there are 68), each misuse ends its schedule and those after
    // which every spinning wait may still return become the facts' premises.
    {
        MbarrierFacts facts;
        Explorer explorer(p, order, maxStates, budget, &facts, reduction, false, false, absent);
        explorer.goPastMisuses(kStatesPastMisuse);
        Exploration e = explorer.run();
        if (!explorer.goneTooFar()) return finish(std::move(facts), e, explorer);
    }
    MbarrierFacts facts;
    Explorer explorer(p, order, maxStates, budget, &facts, reduction, false, false,
                      std::move(absent));
    Exploration e = explorer.run();
    return finish(std::move(facts), e, explorer);
}

std::vector<std::uint64_t> scheduledOrder(const ir::Program& p,
                                          const std::vector<std::pair<int, int>>& order,
                                          const std::vector<bool>& absent) {
    const std::size_t n = p.events.size();
    std::vector<std::size_t> bit(n, SIZE_MAX);
    std::size_t scheduled = 0;
    for (const ir::Event& e : p.events)
        if (isScheduled(e)) bit[static_cast<std::size_t>(e.id)] = scheduled++;
    const std::size_t words = (scheduled + 63) / 64;
    std::vector<std::vector<int>> succs(n);
    std::vector<std::size_t> preds(n, 0);
    for (const auto& [a, b] : withoutAbsent(n, order, absent)) {
        succs[static_cast<std::size_t>(a)].push_back(b);
        ++preds[static_cast<std::size_t>(b)];
    }
    std::vector<std::uint64_t> before(n * words, 0);
    std::vector<int> ready;
    for (std::size_t e = 0; e < n; ++e)
        if (preds[e] == 0) ready.push_back(static_cast<int>(e));
    std::size_t reached = 0;
    while (!ready.empty()) {
        const auto a = static_cast<std::size_t>(ready.back());
        ready.pop_back();
        ++reached;
        for (int b : succs[a]) {
            const auto ib = static_cast<std::size_t>(b);
            for (std::size_t w = 0; w < words; ++w)
                before[ib * words + w] |= before[a * words + w];
            if (bit[a] != SIZE_MAX) before[ib * words + bit[a] / 64] |= 1ULL << (bit[a] % 64);
            if (--preds[ib] == 0) ready.push_back(b);
        }
    }
    if (reached < n) return {};
    std::vector<std::uint64_t> out;
    out.reserve(scheduled * words);
    for (std::size_t e = 0; e < n; ++e)
        if (bit[e] != SIZE_MAX)
            out.insert(out.end(), before.begin() + static_cast<std::ptrdiff_t>(e * words),
                       before.begin() + static_cast<std::ptrdiff_t>((e + 1) * words));
    return out;
}

namespace {

/** An object's last search in observeEachObject's rounds: the order it read (scheduledOrder)
 *  and what it found. */
struct ObjectSearch {
    std::vector<std::uint64_t> order;
    MbarrierFacts facts;
};

/**
 * The mb-obs pairs `facts` make certain: an operation that advances a spinning wait's object,
 * always before the wait and of a phase below every phase the wait may find, contributed to a
 * phase the wait observed complete (engine/MbarrierMachine.hpp observedBy), and the model puts
 * that pair in xo (xsync in model/tcgen05.cat), which every object's order respects as well.
 */
std::set<std::pair<int, int>> observedPairs(const ir::Program& p, const MbarrierFacts& facts) {
    std::set<std::pair<int, int>> out;
    for (const auto& [w, before] : facts.alwaysAfter) {
        const ir::Event& wait = p.events[static_cast<std::size_t>(w)];
        const auto seen = facts.phases.find(w);
        if (wait.mbOp != ir::MbOp::Wait || ir::gateKind(wait) != ir::GateKind::Chosen ||
            wait.mbConditional || seen == facts.phases.end() || seen->second.empty())
            continue;
        for (int a : before) {
            const auto contributed = facts.phases.find(a);
            if (mbarrier::mayBeObserved(p.events[static_cast<std::size_t>(a)], wait) &&
                contributed != facts.phases.end() && !contributed->second.empty() &&
                *contributed->second.rbegin() < *seen->second.begin())
                out.emplace(a, w);
        }
    }
    return out;
}

/**
 * One round of observeEachObject: every object searched on its own under `order`, each after
 * the mb-obs pairs that the objects before it in this round made certain (`observed` grows as
 * they are found where `addObserved`): a barrier searched after the one whose waits hand its
 * arrivals on starts from their order, not the last round's (a 2-SM GEMM's rounds 8 -> 5).
 */
MbarrierFacts eachObjectOnce(const ir::Program& p, const std::vector<std::pair<int, int>>& order,
                             const std::vector<std::pair<int, int>>& ownOrder,
                             std::set<std::pair<int, int>>& observed, bool addObserved,
                             std::size_t maxStates, const Budget* budget,
                             const std::vector<bool>& absent,
                             std::map<int, ObjectSearch>& searched) {
    std::set<int> objects;
    for (const ir::Event& e : p.events)
        if (e.has(ir::Tag::MB)) objects.insert(e.location);
    MbarrierFacts out;
    out.known = true;
    out.misuseKnown = true;
    for (int location : objects) {
        if (out.states >= maxStates) {
            MbarrierFacts none;
            none.why = "the objects' searches took the state limit together";
            mergeObjectFacts(out, std::move(none));
            continue;
        }
        std::vector<std::pair<int, int>> objectOrder = order;
        for (const auto& [a, b] : ownOrder)
            if (p.events[static_cast<std::size_t>(a)].location == location &&
                p.events[static_cast<std::size_t>(b)].location == location)
                objectOrder.emplace_back(a, b);
        // Another object's mb-obs pairs only: on the object itself they would add nothing its
        // search does not see, and would keep its completions from being interchangeable.
        for (const auto& [a, b] : observed)
            if (p.events[static_cast<std::size_t>(a)].location != location)
                objectOrder.emplace_back(a, b);
        const ir::Program alone = withObjectAlone(p, location);
        std::vector<std::uint64_t> read = scheduledOrder(alone, objectOrder, absent);
        // Another round's pairs may leave what this object's search reads unchanged: its
        // facts are the same, and its states are not searched again.
        const auto last = searched.find(location);
        if (last != searched.end() && !read.empty() && last->second.order == read &&
            last->second.facts.known) {
            MbarrierFacts again = last->second.facts;
            again.states = 0;
            mergeObjectFacts(out, std::move(again));
            continue;
        }
        MbarrierFacts facts = observeMbarriers(alone, objectOrder, maxStates - out.states, budget,
                                               Reduction::PersistentSets, absent);
        if (addObserved && facts.known) observed.merge(observedPairs(p, facts));
        searched[location] = {std::move(read), facts};
        mergeObjectFacts(out, std::move(facts));
    }
    return out;
}

} // namespace

MbarrierFacts observeEachObject(const ir::Program& p, const std::vector<std::pair<int, int>>& order,
                                const std::vector<std::pair<int, int>>& ownOrder,
                                bool observedInOrder, std::size_t maxStates, const Budget* budget,
                                std::vector<bool> absent) {
    std::set<std::pair<int, int>> observed;
    std::set<int> premises;
    std::size_t states = 0;
    MbarrierFacts best;
    std::map<int, ObjectSearch> searched;
    // Rounds until one adds no mb-obs pair (each round's pairs are the last one's and more, so
    // this ends), within the state limit. A ring's hand-offs may take a round per wrap: four
    // rounds of the last round's pairs alone left a 2-SM GEMM's later wraps without facts.
    for (int round = 0; states < maxStates; ++round) {
        const std::size_t before = observed.size();
        MbarrierFacts facts = eachObjectOnce(p, order, ownOrder, observed, observedInOrder,
                                             maxStates - states, budget, absent, searched);
        states += facts.states;
        premises.insert(facts.firstMisuses.begin(), facts.firstMisuses.end());
        const bool complete = facts.known;
        if (round == 0 || complete) best = std::move(facts);
        if (!complete || !observedInOrder || observed.size() == before) break;
    }
    best.states = states;
    best.firstMisuses = std::move(premises);
    return best;
}

} // namespace ptxmc::engine::schedules
