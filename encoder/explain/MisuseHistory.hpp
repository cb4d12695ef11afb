// Why an mbarrier operation of a witness is undefined behaviour: its object's operations in
// mbarrier order up to it, and the rule it breaks.
#pragma once

#include "engine/Execution.hpp"

#include <string>
#include <vector>

namespace ptxmc::engine::explain {

/**
 * Notes for mbarrier operation `op`, which the execution (`c`, `o`) makes misuse: which rule it
 * breaks, with the object's state as it found it ("the object is not initialised: its
 * mbarrier.init, P0 line 210, comes after it in the mbarrier order"), then the object's
 * operations in mbarrier order up to it. Empty for an event that is no mbarrier operation.
 */
std::vector<std::string> misuseHistory(const ir::Program& p, const Choices& c, const Outcome& o,
                                       int op);

} // namespace ptxmc::engine::explain
