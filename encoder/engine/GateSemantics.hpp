// Which gates let their thread through in a hang (ir/Gates.hpp), written once over an algebra.
#pragma once

#include "ir/Gates.hpp"
#include "ir/Program.hpp"

#include <algorithm>
#include <cstddef>
#include <map>
#include <vector>

namespace ptxmc::engine::gates {

/**
 * What gates were found to do, for one `blocked`: only gates whose needs reach no cycle are kept,
 * since a gate on a cycle is cut where the recursion meets it again, which depends on where the
 * recursion started. Without it a kernel's rounds of bar.sync (each needing every participant's
 * earlier gates) cost the number of paths through them, exponential in the rounds.
 */
template <class V> struct GateMemo {
    std::map<int, typename V::Bool> passes;
    std::size_t cuts = 0; ///< cycles cut so far: a gate whose recursion cut none is kept
};

/**
 * Does `gate` let its thread go on? A spinning mbarrier wait (Chosen) passes unless the
 * execution lets it block forever (`blocked(gate)`); a bar.sync or a cta_group::2 pair
 * (Needs) passes once every thread it needs reaches its event there, that is, once the gates
 * before each such event pass (PTX ISA
 * #parallel-synchronization-and-communication-instructions-bar: bar.sync waits for all
 * participants).
 */
template <class V, class Blocked>
typename V::Bool passesOn(const V& v, const ir::Program& p, int gate, const Blocked& blocked,
                          std::vector<int>& stack, GateMemo<V>& memo) {
    const ir::Event& g = p.events[static_cast<std::size_t>(gate)];
    const ir::GateKind kind = ir::gateKind(g);
    if (kind == ir::GateKind::Chosen) return !blocked(gate);
    if (auto known = memo.passes.find(gate); known != memo.passes.end()) return known->second;
    // Needs that lead back to this gate cannot let it through (the least fixpoint): a
    // cta_group::2 dealloc then passes only when it does not block.
    if (std::find(stack.begin(), stack.end(), gate) != stack.end()) {
        ++memo.cuts;
        return kind == ir::GateKind::MayBlock ? !blocked(gate) : v.truth(false);
    }
    const std::size_t cutsBefore = memo.cuts;
    stack.push_back(gate);
    auto out = v.truth(true);
    for (int n : g.gateNeeds)
        for (int x : p.events[static_cast<std::size_t>(n)].gates)
            if (x != n) out = out && passesOn(v, p, x, blocked, stack, memo);
    stack.pop_back();
    // A cta_group::2 dealloc that does not block passes; one that blocks waits for its peer.
    if (kind == ir::GateKind::MayBlock) out = !blocked(gate) || out;
    if (memo.cuts == cutsBefore) memo.passes.emplace(gate, out);
    return out;
}

template <class V, class Blocked>
typename V::Bool passes(const V& v, const ir::Program& p, int gate, const Blocked& blocked,
                        GateMemo<V>& memo) {
    std::vector<int> stack;
    return passesOn(v, p, gate, blocked, stack, memo);
}

template <class V, class Blocked>
typename V::Bool passes(const V& v, const ir::Program& p, int gate, const Blocked& blocked) {
    GateMemo<V> memo;
    return passes(v, p, gate, blocked, memo);
}

/** `start` (the event's guard, or true) and every gate of `gates` passes. */
template <class V, class Blocked>
typename V::Bool throughGates(const V& v, const ir::Program& p, const std::vector<int>& gates,
                              typename V::Bool start, const Blocked& blocked, GateMemo<V>& memo) {
    for (int g : gates)
        start = start && passes(v, p, g, blocked, memo);
    return start;
}

template <class V, class Blocked>
typename V::Bool throughGates(const V& v, const ir::Program& p, const std::vector<int>& gates,
                              typename V::Bool start, const Blocked& blocked) {
    GateMemo<V> memo;
    return throughGates(v, p, gates, start, blocked, memo);
}

/** `start` (the event's guard, or true) and every gate before event `e` passes. */
template <class V, class Blocked>
typename V::Bool throughGates(const V& v, const ir::Program& p, const ir::Event& e,
                              typename V::Bool start, const Blocked& blocked, GateMemo<V>& memo) {
    return throughGates(v, p, e.gates, start, blocked, memo);
}

template <class V, class Blocked>
typename V::Bool throughGates(const V& v, const ir::Program& p, const ir::Event& e,
                              typename V::Bool start, const Blocked& blocked) {
    GateMemo<V> memo;
    return throughGates(v, p, e.gates, start, blocked, memo);
}

/** Gate `g` holds its thread forever: a blocked wait, or a gate reached that never passes. */
template <class V, class Blocked>
typename V::Bool stuck(const V& v, const ir::Program& p, const ir::Event& g, const Blocked& blocked,
                       GateMemo<V>& memo) {
    if (ir::gateKind(g) == ir::GateKind::Chosen) return blocked(g.id);
    auto reached = v.truth(true);
    for (int earlier : g.gates)
        if (earlier != g.id) reached = reached && passes(v, p, earlier, blocked, memo);
    return reached && !passes(v, p, g.id, blocked, memo);
}

template <class V, class Blocked>
typename V::Bool stuck(const V& v, const ir::Program& p, const ir::Event& g,
                       const Blocked& blocked) {
    GateMemo<V> memo;
    return stuck(v, p, g, blocked, memo);
}

} // namespace ptxmc::engine::gates
