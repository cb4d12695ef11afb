// A sure "never" for an mbarrier object's waits: the phases they need against the arrivals and
// bytes left.
#pragma once

#include "engine/MbarrierMachine.hpp"
#include "ir/ValueSemantics.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace ptxmc::engine::mbarrier {

/** One of an object's operations not yet run, as phasesOutOfReach reads it. */
struct OpLeft {
    const ir::Event* event = nullptr;
    std::optional<std::int64_t> operand; ///< a wait's parity or token, where it is a constant
    bool spinning = false;               ///< a wait that loops until it returns True
    /// Indices into the same list of the operations every schedule runs before this one
    /// (transitively closed: an ancestor's ancestors are listed too)
    std::vector<std::size_t> after;
};

/**
 * Whether, from `now`, no order of the operations in `left` (each after its `after`, a spinning
 * wait only when its phase lets it through) returns every spinning wait: "true" is sure, "false"
 * says nothing. The waits need a number of phase completions (a parity wait returns once the
 * phase's parity differs from its operand, and the phase never goes back without an init); each
 * completion needs the pending arrivals down to zero, and tx-count at zero
 * ({MbarrierPhaseCompletion}), so by the last of them the bytes completed equal tx-count now and
 * the bytes every arrival it needed expected. Too few arrivals, or fewer bytes left to complete
 * than the cheapest such arrivals expect (a copy's bytes lost to a complete_tx before the
 * object's init), and the waits never all return. Operations the bound does not follow (inval,
 * the cp.async increment, arrive_drop, a token wait, a second init) make it say "false".
 */
bool phasesOutOfReach(const State<ir::ConcreteValues>& now, const std::vector<OpLeft>& left);

} // namespace ptxmc::engine::mbarrier
