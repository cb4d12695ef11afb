// Which blocking events must complete before each event happens, and static gate cycles.
#include "ir/Gates.hpp"

#include "ir/BaseRelations.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>
#include <tuple>

namespace ptxmc::ir {

GateKind gateKind(const Event& e) {
    if (e.has(Tag::MB_WAIT) && e.blocking) return GateKind::Chosen;
    if (e.has(Tag::DEALLOC) && e.peerEvent >= 0) return GateKind::MayBlock;
    if (e.has(Tag::BAR_WAIT) || e.peerEvent >= 0) return GateKind::Needs;
    return GateKind::None;
}

bool gateCoversItself(const Event& gate) {
    GateKind k = gateKind(gate);
    return k == GateKind::Needs || k == GateKind::MayBlock;
}

namespace {

/** Kahn's algorithm; throws when the graph has a cycle (static orders never do). */
std::vector<int> topologicalOrder(const std::vector<std::vector<int>>& next) {
    std::vector<int> indegree(next.size(), 0), order, ready;
    for (const auto& succ : next)
        for (int b : succ)
            ++indegree[static_cast<std::size_t>(b)];
    for (std::size_t a = 0; a < next.size(); ++a)
        if (indegree[a] == 0) ready.push_back(static_cast<int>(a));
    while (!ready.empty()) {
        int a = ready.back();
        ready.pop_back();
        order.push_back(a);
        for (int b : next[static_cast<std::size_t>(a)])
            if (--indegree[static_cast<std::size_t>(b)] == 0) ready.push_back(b);
    }
    if (order.size() != next.size()) throw std::logic_error("real-time order has a cycle");
    return order;
}

/** Each bar.sync completion needs the arrivals of the other threads of its instance. */
void fillNeeds(Program& p) {
    std::map<std::tuple<int, int, int>, std::vector<int>> arrivals;
    for (const auto& e : p.events)
        if (e.has(Tag::BAR_ARRIVE)) arrivals[barrierKey(e)].push_back(e.id);
    for (auto& e : p.events) {
        if (e.has(Tag::BAR_WAIT))
            for (int a : arrivals[barrierKey(e)])
                if (p.events[static_cast<std::size_t>(a)].thread != e.thread)
                    e.gateNeeds.push_back(a);
        if (e.peerEvent >= 0) e.gateNeeds.push_back(e.peerEvent);
    }
}

/** Issue-level gates of every thread, then exec events inherit their issue's gates. */
void fillGates(Program& p) {
    for (const auto& t : p.threads) {
        std::vector<int> open;
        for (int id : t.events) {
            Event& e = p.events[static_cast<std::size_t>(id)];
            e.gates = open;
            if (gateKind(e) == GateKind::None) continue;
            if (gateCoversItself(e)) e.gates.push_back(id);
            open.push_back(id);
        }
    }
    for (auto& e : p.events)
        if (e.issue >= 0) e.gates = p.events[static_cast<std::size_t>(e.issue)].gates;
    // A cut is reached once the gates before it pass, as an event there would be.
    for (auto& cut : p.cuts) {
        const auto& events = p.threads[static_cast<std::size_t>(cut.thread)].events;
        cut.gates.clear();
        for (int k = 0; k < cut.position; ++k) {
            const Event& e =
                p.events[static_cast<std::size_t>(events[static_cast<std::size_t>(k)])];
            if (gateKind(e) != GateKind::None) cut.gates.push_back(e.id);
        }
    }
}

} // namespace

std::vector<std::string> computeGates(Program& p) {
    fillNeeds(p);
    fillGates(p);
    // A gate that needs, through other gates, its own thread's later events never opens.
    std::vector<int> state(p.events.size(), 0);
    std::vector<std::string> cycles;
    std::function<bool(int)> cyclic = [&](int id) {
        int& s = state[static_cast<std::size_t>(id)];
        if (s != 0) return s == 1;
        const Event& e = p.events[static_cast<std::size_t>(id)];
        // A gate that may not block (a cta_group::2 dealloc) lets some executions through.
        if (gateKind(e) == GateKind::MayBlock) return s = 2, false;
        s = 1;
        bool found = false;
        for (int g : e.gates) {
            if (g == id) continue;
            found = found || cyclic(g);
        }
        for (int n : e.gateNeeds) // reaching n: the gates before it
            for (int x : p.events[static_cast<std::size_t>(n)].gates)
                if (x != n) found = found || cyclic(x);
        s = 2;
        return found;
    };
    for (const auto& e : p.events)
        if (gateKind(e) == GateKind::Needs && state[static_cast<std::size_t>(e.id)] == 0 &&
            cyclic(e.id))
            cycles.push_back("P" +
                             std::to_string(p.threads[static_cast<std::size_t>(e.thread)].id) +
                             ": " + e.text + " (" + e.loc.str() +
                             ") waits, through other threads' barriers, for its own thread");
    return cycles;
}

std::vector<std::pair<int, int>> realTimePairs(const Program& p) {
    std::vector<std::pair<int, int>> out;
    for (Rel rel : {Rel::Po, Rel::Ae, Rel::Iico})
        for (const auto& pair : staticRelation(p, rel))
            out.push_back(pair);
    // A barrier completes after every participant arrived (PTX ISA
    // #parallel-synchronization-and-communication-instructions-bar,
    // #parallel-synchronization-and-communication-instructions-barrier-cluster), a .relaxed arrival
    // included: it orders no memory, but the wait cannot return before it.
    std::map<std::tuple<int, int, int>, std::vector<int>> arrivals;
    for (const auto& e : p.events)
        if (e.has(Tag::BAR_ARRIVE)) arrivals[barrierKey(e)].push_back(e.id);
    for (const auto& e : p.events)
        if (e.has(Tag::BAR_WAIT))
            for (int a : arrivals[barrierKey(e)])
                if (p.events[static_cast<std::size_t>(a)].thread != e.thread)
                    out.emplace_back(a, e.id);
    return out;
}

std::vector<std::vector<bool>> realTimeReach(const Program& p) {
    std::size_t n = p.events.size();
    std::vector<std::vector<int>> next(n);
    for (const auto& [a, b] : realTimePairs(p))
        next[static_cast<std::size_t>(a)].push_back(b);
    // reach[a][b]: a path from a to b. po, ae and iico form no cycle, so ordering events by
    // their longest path from a root is a topological order; fill reach in reverse.
    std::vector<std::vector<bool>> reach(n, std::vector<bool>(n, false));
    std::vector<int> order = topologicalOrder(next);
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        auto a = static_cast<std::size_t>(*it);
        for (int b : next[a]) {
            reach[a][static_cast<std::size_t>(b)] = true;
            for (std::size_t c = 0; c < n; ++c)
                if (reach[static_cast<std::size_t>(b)][c]) reach[a][c] = true;
        }
    }
    return reach;
}

std::vector<std::pair<int, int>> realTimeOrder(const Program& p) {
    std::size_t n = p.events.size();
    std::vector<std::vector<int>> next(n);
    for (const auto& [a, b] : realTimePairs(p))
        next[static_cast<std::size_t>(a)].push_back(b);
    const std::vector<std::vector<bool>> reach = realTimeReach(p);
    // The transitive reduction: a pair implied by a longer path adds no real-time constraint
    // (po alone has a quadratic number of pairs, its reduction a linear one).
    std::vector<std::pair<int, int>> out;
    for (std::size_t a = 0; a < n; ++a)
        for (int b : next[a]) {
            bool bypassed = false;
            for (int via : next[a])
                bypassed =
                    bypassed ||
                    (via != b && reach[static_cast<std::size_t>(via)][static_cast<std::size_t>(b)]);
            if (!bypassed) out.emplace_back(static_cast<int>(a), b);
        }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<int> chosenGates(const Program& p) {
    std::vector<int> out;
    for (const auto& e : p.events)
        if (gateKind(e) == GateKind::Chosen || gateKind(e) == GateKind::MayBlock)
            out.push_back(e.id);
    return out;
}

} // namespace ptxmc::ir
