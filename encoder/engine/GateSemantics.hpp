// Which gates let their thread through in a hang (ir/Gates.hpp), written once over an algebra.
#pragma once

#include "ir/Gates.hpp"
#include "ir/Program.hpp"

#include <cstddef>

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
typename V::Bool passes(const V& v, const ir::Program& p, int gate, const Blocked& blocked) {
    const ir::Event& g = p.events[static_cast<std::size_t>(gate)];
    if (ir::gateKind(g) == ir::GateKind::Chosen) return !blocked(gate);
    auto out = v.truth(true);
    for (int n : g.gateNeeds)
        for (int x : p.events[static_cast<std::size_t>(n)].gates)
            if (x != n) out = out && passes(v, p, x, blocked);
    return out;
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
