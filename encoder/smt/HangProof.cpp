// Proves that no real-time schedule hangs from each mbarrier object's facts (HangProof.hpp).
#include "smt/HangProof.hpp"

#include "ir/Gates.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <queue>

namespace ptxmc::engine::schedules {

namespace {

bool changesPhase(const ir::Event& e) {
    return e.mbOp == ir::MbOp::Arrive || e.mbOp == ir::MbOp::ExpectTx ||
           e.mbOp == ir::MbOp::CompleteTx;
}

bool isSpinningWait(const ir::Event& e) {
    return e.mbOp == ir::MbOp::Wait && ir::gateKind(e) == ir::GateKind::Chosen;
}

/** One phase of one object: its changes and what they add up to. */
struct PhaseChanges {
    std::vector<int> arrivals, completes, expects; ///< expects: standalone expect_tx
    std::int64_t arrived = 0, expected = 0, completed = 0;
};

/** One mbarrier object: its init and count, and its changes by phase. */
struct ObjectPhases {
    int init = -1;
    std::int64_t count = 0;
    std::vector<int> ops;
    std::map<std::int64_t, PhaseChanges> phases;

    const PhaseChanges* phase(std::int64_t k) const {
        auto it = phases.find(k);
        return it == phases.end() ? nullptr : &it->second;
    }
    /** The phase completes once its changes all ran, and not before. */
    bool exact(std::int64_t k) const {
        const PhaseChanges* ph = phase(k);
        return ph != nullptr && ph->arrived == count && ph->expected == ph->completed;
    }
    /** No schedule completes the phase: too few arrivals, or bytes expected that never
     *  complete once every arrival (and so every expect_tx) is in. */
    bool neverCompletes(std::int64_t k) const {
        const PhaseChanges* ph = phase(k);
        return ph == nullptr || ph->arrived < count ||
               (ph->arrived == count && ph->expects.empty() && ph->expected > ph->completed);
    }
    /** The changes of an exact phase without which it cannot complete: every arrival (the
     *  count is exact), and every complete_tx where each expect_tx comes with an arrival. */
    std::vector<int> necessary(std::int64_t k) const {
        const PhaseChanges& ph = *phase(k);
        std::vector<int> out = ph.arrivals;
        if (ph.expects.empty()) out.insert(out.end(), ph.completes.begin(), ph.completes.end());
        return out;
    }
};

class HangProver {
public:
    HangProver(const ir::Program& p, const MbarrierFacts& each)
        : p_(p), each_(each), must_(p.events.size()), all_(p.events.size()) {}

    HangProof run() {
        HangProof out;
        if (auto why = unsupported()) return failed(*why);
        if (auto why = collect()) return failed(*why);
        if (auto why = linkWaits()) return failed(*why);
        if (!topologicalOrder(out.schedule)) return failed("the waits' dependencies form a cycle");
        if (auto why = overtaken()) return failed(*why);
        out.holds = true;
        return out;
    }

private:
    static HangProof failed(std::string why) {
        HangProof out;
        out.why = std::move(why);
        return out;
    }

    std::optional<std::string> unsupported() const {
        if (!each_.known) return "each object's search did not finish: " + each_.why;
        if (!each_.misuseKnown) return std::string("a wait's operand is not a constant");
        if (!each_.misusesPast.empty() || !each_.firstMisuses.empty() || !each_.endedAt.empty() ||
            each_.completionsCut)
            return std::string("some schedule misuses an mbarrier");
        for (const ir::Event& e : p_.events) {
            if (e.guard) return std::string("an event runs under a guard");
            if (e.peerEvent >= 0) return std::string("a cta_group::2 rendezvous");
            if (e.mbOp == ir::MbOp::Inval || e.mbOp == ir::MbOp::Increment)
                return std::string("an mbarrier.inval or a pending-count increment");
            if (e.mbOp == ir::MbOp::Arrive && (e.mbDrop || e.mbNoComplete))
                return std::string("an arrive_drop or a .noComplete arrive");
            if (isSpinningWait(e) && (e.mbToken || e.mbConditional))
                return std::string("a wait on a state token or a conditional phase");
        }
        return std::nullopt;
    }

    /** The one phase the facts give `e`, or none. */
    std::optional<std::int64_t> onePhase(int e) const {
        auto it = each_.phases.find(e);
        if (it == each_.phases.end() || it->second.size() != 1) return std::nullopt;
        return *it->second.begin();
    }

    std::optional<std::string> collect() {
        for (const ir::Event& e : p_.events) {
            if (!e.has(ir::Tag::MB) || e.location < 0) continue;
            ObjectPhases& o = objects_[e.location];
            o.ops.push_back(e.id);
            if (e.mbOp == ir::MbOp::Init) {
                if (o.init >= 0) return std::string("an object initialized twice");
                o.init = e.id;
                o.count = e.mbAmount;
            }
            if (!changesPhase(e) && !isSpinningWait(e)) continue;
            const auto k = onePhase(e.id);
            if (!k) return "an operation in more than one phase (or in none): " + e.text;
            if (isSpinningWait(e)) {
                waitPhase_.emplace(e.id, *k);
                continue;
            }
            PhaseChanges& ph = o.phases[*k];
            if (e.mbOp == ir::MbOp::Arrive) {
                ph.arrivals.push_back(e.id);
                ph.arrived += e.mbArrivals;
                ph.expected += e.mbAmount;
            } else if (e.mbOp == ir::MbOp::ExpectTx) {
                ph.expects.push_back(e.id);
                ph.expected += e.mbAmount;
            } else {
                ph.completes.push_back(e.id);
                ph.completed += e.mbAmount;
            }
        }
        for (const auto& [loc, o] : objects_)
            if (o.init < 0) return std::string("an object with no mbarrier.init");
        for (const auto& [a, b] : ir::realTimePairs(p_))
            edge(a, b, true);
        // No schedule misuses an object, so none runs an operation before the init.
        for (const auto& [loc, o] : objects_)
            for (int op : o.ops)
                if (op != o.init) edge(o.init, op, true);
        return std::nullopt;
    }

    /** Into each wait, the changes of the phase it waits for (the one before it runs in). */
    std::optional<std::string> linkWaits() {
        for (const auto& [w, k] : waitPhase_) {
            if (k == 0) continue; // a parity wait a fresh object passes
            const ObjectPhases& o = objects_.at(p_.events[static_cast<std::size_t>(w)].location);
            if (!o.exact(k - 1))
                return "a wait's phase does not complete exactly with its changes: " +
                       p_.events[static_cast<std::size_t>(w)].text;
            // All of them enable it; those the phase cannot complete without also order it.
            const PhaseChanges& ph = *o.phase(k - 1);
            for (int c : ph.arrivals)
                edge(c, w, true);
            for (int c : ph.completes)
                edge(c, w, ph.expects.empty());
            for (int c : ph.expects)
                edge(c, w, false);
        }
        return std::nullopt;
    }

    /** Kahn's order, the lowest event first among those ready: false on a cycle. */
    bool topologicalOrder(std::vector<int>& order) const {
        const std::size_t n = p_.events.size();
        std::vector<int> indegree(n, 0);
        for (std::size_t a = 0; a < n; ++a)
            for (int b : all_[a])
                ++indegree[static_cast<std::size_t>(b)];
        std::priority_queue<int, std::vector<int>, std::greater<>> ready;
        for (std::size_t a = 0; a < n; ++a)
            if (indegree[a] == 0) ready.push(static_cast<int>(a));
        while (!ready.empty()) {
            const int a = ready.top();
            ready.pop();
            order.push_back(a);
            for (int b : all_[static_cast<std::size_t>(a)])
                if (--indegree[static_cast<std::size_t>(b)] == 0) ready.push(b);
        }
        return order.size() == n;
    }

    /** A wait whose object may complete the next phase before it runs, or none. */
    std::optional<std::string> overtaken() const {
        for (const auto& [w, k] : waitPhase_) {
            const ir::Event& we = p_.events[static_cast<std::size_t>(w)];
            const ObjectPhases& o = objects_.at(we.location);
            if (o.neverCompletes(k)) continue;
            if (!o.exact(k) || !reaches(w, o.necessary(k)))
                return "a wait may be overtaken by its object's next phase: " + we.text;
        }
        return std::nullopt;
    }

    /** Whether some of `targets` must run after `from` (a path of must-run-before pairs). */
    bool reaches(int from, const std::vector<int>& targets) const {
        std::vector<bool> target(p_.events.size(), false), seen(p_.events.size(), false);
        for (int t : targets)
            target[static_cast<std::size_t>(t)] = true;
        std::vector<int> todo{from};
        seen[static_cast<std::size_t>(from)] = true;
        while (!todo.empty()) {
            const int a = todo.back();
            todo.pop_back();
            for (int b : must_[static_cast<std::size_t>(a)]) {
                if (target[static_cast<std::size_t>(b)]) return true;
                if (!seen[static_cast<std::size_t>(b)]) {
                    seen[static_cast<std::size_t>(b)] = true;
                    todo.push_back(b);
                }
            }
        }
        return false;
    }

    /** a runs before b in every schedule (`must`), or b needs a to have run to be enabled. */
    void edge(int a, int b, bool must) {
        all_[static_cast<std::size_t>(a)].push_back(b);
        if (must) must_[static_cast<std::size_t>(a)].push_back(b);
    }

    const ir::Program& p_;
    const MbarrierFacts& each_;
    std::map<int, ObjectPhases> objects_;      ///< by location
    std::map<int, std::int64_t> waitPhase_;    ///< spinning wait -> the phase it runs in
    std::vector<std::vector<int>> must_, all_; ///< successors
};

} // namespace

HangProof proveNoHang(const ir::Program& p, const MbarrierFacts& each) {
    return HangProver(p, each).run();
}

} // namespace ptxmc::engine::schedules
