// Strengthenings: one synchronising instruction added, or one instruction made stronger.
#pragma once

#include "ir/Event.hpp"
#include "litmus/Ast.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ptxmc::ptx {

/**
 * One strengthening of a test: the inverse of a Mutation (ptx/Mutation.hpp). `explain` tries
 * them, alone and together, to say which change would forbid an allowed outcome or flag.
 *   after   insert tcgen05.fence::after_thread_sync before instruction `index`
 *   before  insert tcgen05.fence::before_thread_sync before instruction `index`
 *   proxy   insert fence.proxy.async before instruction `index`
 *   fence   insert fence.acq_rel.gpu before instruction `index`
 *   acquire make instruction `index` (a load, atom or mbarrier wait) .acquire
 *   release make instruction `index` (a store or mbarrier/cluster arrive) .release
 *   wait    insert the wait that completes an earlier asynchronous operation of the thread
 *           before instruction `index`: cp.async.wait_all, tcgen05.wait::ld / wait::st,
 *           cp.async.bulk.wait_group{.read} 0
 *   widen   give instruction `index` (an mbarrier arrive or wait, a fence, a strong load,
 *           store or atom) the wider scope `scope`
 *   mbwait  insert a copy of the mbarrier wait `copyOf` (of thread `copyThread`, or of this
 *           one) with parity `parity` (or the register `parityRegister`), waiting on `barrier`
 *           when given (else on the copy's own), before instruction `index`: the wait missing
 *           where two waits on one barrier in a row expect the same parity (a ring's wait for a
 *           round dropped), or in a loop, on a barrier other threads arrive on, with a parity
 *           register the loop flips
 */
struct Strengthening {
    enum class Kind { After, Before, Proxy, Fence, Acquire, Release, Wait, Widen, MbarrierWait };
    Kind kind = Kind::After;
    int thread = 0; ///< the n of Pn
    int index = 0;  ///< instruction index within the thread (insertions go before it)
    /// Wait: 0 cp.async.wait_all, 1 tcgen05.wait::ld, 2 tcgen05.wait::st,
    /// 3 cp.async.bulk.wait_group.read 0 (before a generic write), 4 cp.async.bulk.wait_group 0
    /// (before a release)
    int waitFor = 0;
    ir::Scope scope = ir::Scope::None; ///< Widen: the new scope
    int copyOf = 0;                    ///< MbarrierWait: the wait copied (an index in its thread)
    int copyThread = -1;          ///< MbarrierWait: the thread of the wait copied (-1: this one)
    int parity = 0;               ///< MbarrierWait: the copy's parity (without parityRegister)
    std::string parityRegister{}; ///< MbarrierWait: the parity as a register
    std::optional<litmus::Operand> barrier{}; ///< MbarrierWait: the barrier waited on

    /** Inserts an instruction (else it rewrites the one at `index`). */
    bool inserts() const;
};

/** Every strengthening that can matter for the test, in thread and program order. */
std::vector<Strengthening> strengthenings(const litmus::Test& test);

/** The test with every change of `changes` applied (indices refer to the unchanged test; at
 *  most one Widen per instruction). Throws InputError when one does not apply. */
litmus::Test applyStrengthenings(const litmus::Test& test, std::vector<Strengthening> changes);

/** What `changes` do together, the same change at several places said once: "fence.proxy.async
 *  before P1's mbarrier.arrive.shared::cta.b64 (lines 12, 15) and P2's (line 12)". */
std::string describe(const litmus::Test& test, const std::vector<Strengthening>& changes);

/** An instruction as the test would spell it: guard, opcode, operands. */
std::string instructionText(const litmus::Instruction& i);

/** The text of the instruction `s` inserts or rewrites to, as the test would spell it. */
std::string changedText(const litmus::Test& test, const Strengthening& s);

/** What identifies an inserted mbarrier wait beside its place: barrier and parity, as text. */
std::string waitIdentity(const litmus::Test& test, const Strengthening& s);

/** Changes that are the same change at another place (another iteration or thread) share it. */
std::string patternOf(const litmus::Test& test, const Strengthening& s);

} // namespace ptxmc::ptx
