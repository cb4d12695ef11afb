// Instruction builders shared by the random fragments and the message-passing patterns.
#pragma once

#include "gen/Draft.hpp"
#include "ptx/Insn.hpp"

#include <optional>
#include <string>

namespace ptxmc::gen {

/** A fragment appends instructions to the draft; false when it did not apply. */
using Fragment = bool (*)(Draft&);

/** `op` printed by ptx::printOpcode, then its operands (already in litmus syntax). */
std::string text(const ptx::Op& op, const std::string& operands = "");

// Generic proxy (GenGeneric.cpp). `l` is a location, `inst` the CTA instance accessed.
ptx::Scope pickScope(Rng& rng);
std::string load(Draft& d, int t, int l, int inst);
bool store(Draft& d, int t, int l, int inst, std::optional<std::int64_t> value = std::nullopt);
std::string atomic(Draft& d, int t, int l, int inst);
/** What atom/red/cp.reduce `op` ("add", "and", ...) leaves when it meets `old` with `v`. */
std::int64_t apply(const std::string& op, std::int64_t old, std::int64_t v);
bool reduction(Draft& d, int t, int l, int inst);
void memoryFence(Draft& d, int t);
bool barrier(Draft& d, int cta, std::vector<int> participants);
/** A thread ends with exit (or ret) and the other threads of its CTA then run bar.sync with no
 * thread count: it waits only for the non-exited threads ({BarBarrier}, 9.4 text), so the
 * barrier completes. Appended after the fragments, since nothing may follow the exit. */
bool exitThenBarrier(Draft& d);
/** `L: ld r, [x]; setp.eq p, r, 0; @p bra L`: spins until it reads a nonzero value of a
 *  global or shared location; what `t` emits next runs on the loop's exit path only. */
bool spin(Draft& d, int t);
/** `setp.ne p, r, 0` on a register `t` defined (often by a load), returning `@p ` or `@!p `
 *  to put before the next instruction; empty when `t` has no such register. */
std::string runtimeGuard(Draft& d, int t);
/** A global location, or shared memory of `t`'s CTA (sometimes the peer's); false if none. */
bool pickData(Draft& d, int t, bool forWrite, int& l, int& inst);

// Mixed proxies (GenProxy.cpp).
std::string aliasRead(Draft& d, int t, int root);
bool aliasWrite(Draft& d, int t, int root, std::optional<std::int64_t> value = std::nullopt);
void proxyFence(Draft& d, int t);
/** fence.proxy.async, with a state space covering `space` when given. */
void asyncFence(Draft& d, int t, std::optional<Space> space = std::nullopt);

// mbarrier (GenMbarrier.cpp); `inst` is the mbarrier's CTA instance.
bool arrive(Draft& d, int t, int mb, int inst, int expectTx = 0);
/** A wait; blocking (`_`) or returning its result register (observed, returned). */
std::string mbWait(Draft& d, int t, int mb, bool blocking);
bool txOp(Draft& d, int t, int mb, int inst, bool complete, int bytes);

// Bulk copies (GenBulk.cpp).
/** Copies global memory into `s` (instance `inst`) completing `size` bytes on `mb`. */
bool bulkToShared(Draft& d, int t, int s, int inst, int mb, bool multicast, int size);
/** A bulk copy (or, with `reduce`, a cp.reduce.async.bulk) of the thread's shared memory to
 *  global memory, sometimes committed and waited for. */
bool bulkToGlobal(Draft& d, int t, bool reduce = false);

// tcgen05 (GenTcgen05.cpp). Writers return false when the tmem location cannot be written.
/** What an async write produced in the issuer's CTA: the cell, and its value when every
 * operand still holds its initial value (what a reader sees if it misses a prior write). */
struct Written {
    CellKey cell;
    std::int64_t stale = 0;
};
bool mma(Draft& d, int t, int dst, int a = -1, Written* out = nullptr);
bool tcCopy(Draft& d, int t, int dst, int src = -1, Written* out = nullptr);
bool tcShift(Draft& d, int t, int dst);
bool tcStore(Draft& d, int t, int dst);
std::string tcLoad(Draft& d, int t, int src, bool wait);
bool commit(Draft& d, int t, int mb, int inst);
void tcFence(Draft& d, int t, bool before);
/** A tensor-memory location of `t`'s CTA; for cta_group::2 declared in both CTAs. */
int pickTmem(Draft& d, int t, bool forWrite, int minRows = 1);

// Fragment tables (one per family) and the cross-thread patterns.
std::vector<std::pair<Fragment, int>> genericFragments();
std::vector<std::pair<Fragment, int>> proxyFragments();
std::vector<std::pair<Fragment, int>> mbarrierFragments();
std::vector<std::pair<Fragment, int>> bulkFragments();
std::vector<std::pair<Fragment, int>> tcgen05Fragments();
std::vector<std::pair<Fragment, int>> wgmmaFragments(); // GenWgmma.cpp
bool messagePassing(Draft& d);

/** The final condition over the draft's observables and hints. */
std::string condition(Draft& d);

} // namespace ptxmc::gen
