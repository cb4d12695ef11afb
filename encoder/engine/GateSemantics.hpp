// Which gates let their thread through in a hang (ir/Gates.hpp), written once over an algebra.
#pragma once

#include "ir/Gates.hpp"
#include "ir/Program.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace ptxmc::engine::gates {

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
                          std::vector<int>& stack) {
    const ir::Event& g = p.events[static_cast<std::size_t>(gate)];
    const ir::GateKind kind = ir::gateKind(g);
    if (kind == ir::GateKind::Chosen) return !blocked(gate);
    // Needs that lead back to this gate cannot let it through (the least fixpoint): a
    // cta_group::2 dealloc then passes only when it does not block.
    if (std::find(stack.begin(), stack.end(), gate) != stack.end())
        return kind == ir::GateKind::MayBlock ? !blocked(gate) : v.truth(false);
    stack.push_back(gate);
    auto out = v.truth(true);
    for (int n : g.gateNeeds)
        for (int x : p.events[static_cast<std::size_t>(n)].gates)
            if (x != n) out = out && passesOn(v, p, x, blocked, stack);
    stack.pop_back();
    // A cta_group::2 dealloc that does not block passes; one that blocks waits for its peer.
    if (kind == ir::GateKind::MayBlock) return !blocked(gate) || out;
    return out;
}

template <class V, class Blocked>
typename V::Bool passes(const V& v, const ir::Program& p, int gate, const Blocked& blocked) {
    std::vector<int> stack;
    return passesOn(v, p, gate, blocked, stack);
}

/** `start` (the event's guard, or true) and every gate of `gates` passes. */
template <class V, class Blocked>
typename V::Bool throughGates(const V& v, const ir::Program& p, const std::vector<int>& gates,
                              typename V::Bool start, const Blocked& blocked) {
    for (int g : gates)
        start = start && passes(v, p, g, blocked);
    return start;
}

/** `start` (the event's guard, or true) and every gate before event `e` passes. */
template <class V, class Blocked>
typename V::Bool throughGates(const V& v, const ir::Program& p, const ir::Event& e,
                              typename V::Bool start, const Blocked& blocked) {
    return throughGates(v, p, e.gates, start, blocked);
}

/** Gate `g` holds its thread forever: a blocked wait, or a gate reached that never passes. */
template <class V, class Blocked>
typename V::Bool stuck(const V& v, const ir::Program& p, const ir::Event& g,
                       const Blocked& blocked) {
    if (ir::gateKind(g) == ir::GateKind::Chosen) return blocked(g.id);
    auto reached = v.truth(true);
    for (int earlier : g.gates)
        if (earlier != g.id) reached = reached && passes(v, p, earlier, blocked);
    return reached && !passes(v, p, g.id, blocked);
}

} // namespace ptxmc::engine::gates
