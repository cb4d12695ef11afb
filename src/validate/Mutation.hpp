// Mutants (MC Mutants' "weakening"): a forbidden test with one fence, ordering or wait removed.
#pragma once

#include "litmus/Ast.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ptxmc::validate {

/**
 * One weakening of one instruction, written `KIND:Pn:i` (instruction i of thread Pn, counting
 * the thread's non-empty cells from 0):
 *   drop   remove the instruction (fences, waits)
 *   relax  .release / .acquire / .acq_rel (or an mbarrier's default) becomes .relaxed
 *   cta    the scope becomes .cta
 *   read   cp.async.bulk.wait_group becomes wait_group.read
 */
struct Mutation {
    enum class Kind { Drop, Relax, Cta, Read };
    Kind kind = Kind::Drop;
    int thread = 0; ///< the n of Pn
    int index = 0;  ///< instruction index within the thread
};

std::string toString(const Mutation& m);
/** Parses `KIND:Pn:i`; nullopt when malformed. */
std::optional<Mutation> parseMutation(const std::string& text);

/** The test with `m` applied and the name NAME~MUTATION; throws InputError if it does not apply. */
litmus::Test applyMutation(const litmus::Test& test, const Mutation& m);

/** Every mutation that changes the test, strongest weakening of synchronisation first. */
std::vector<Mutation> candidateMutations(const litmus::Test& test);

} // namespace ptxmc::validate
