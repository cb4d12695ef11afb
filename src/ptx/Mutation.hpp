// Mutants (MC Mutants' "weakening"): a test with one synchronising instruction removed or weakened.
#pragma once

#include "litmus/Ast.hpp"
#include "ptx/Insn.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ptxmc::ptx {

/**
 * One weakening of one instruction, written `KIND:Pn:i` (instruction i of thread Pn, counting
 * the thread's non-empty cells from 0):
 *   drop    remove the instruction (a fence, wait, arrive, expect_tx, commit); a barrier is
 *           removed from every thread of the CTA (the instance this bar.sync joins)
 *   relax   .release / .acquire / .acq_rel (or an mbarrier's default) becomes .relaxed
 *   acqrel  fence.sc becomes fence.acq_rel
 *   cta     the scope becomes .cta
 *   read    cp.async.bulk.wait_group becomes wait_group.read
 *   plain   mbarrier.arrive.expect_tx becomes a plain mbarrier.arrive (no transaction count)
 */
struct Mutation {
    enum class Kind { Drop, Relax, AcqRel, Cta, Read, Plain };
    Kind kind = Kind::Drop;
    int thread = 0; ///< the n of Pn
    int index = 0;  ///< instruction index within the thread
};

std::string kindName(Mutation::Kind k);
std::string toString(const Mutation& m);
/** Parses `KIND:Pn:i`; nullopt when malformed. */
std::optional<Mutation> parseMutation(const std::string& text);

/** The test with `m` applied and the name NAME~MUTATION; throws InputError if it does not apply. */
litmus::Test applyMutation(const litmus::Test& test, const Mutation& m);

/**
 * Every weakening of the synchronising instruction `code[index]` of `thread`, strongest first
 * (drop, then the weaker forms); empty for an instruction that does not synchronise.
 */
std::vector<Mutation::Kind> weakenings(const litmus::Test& test, const litmus::Thread& thread,
                                       std::size_t index);

/** Every weakening of every instruction of the test, in thread and program order. */
std::vector<Mutation> allMutations(const litmus::Test& test);

/**
 * The mutants the GPU harness runs: drop a fence or a wait, relax, narrow, wait_group.read;
 * strongest weakening of synchronisation first. Dropping an arrive, expect_tx, commit or
 * barrier is left out: such a mutant hangs on hardware instead of showing a weak outcome.
 */
std::vector<Mutation> hardwareMutations(const litmus::Test& test);

} // namespace ptxmc::ptx
