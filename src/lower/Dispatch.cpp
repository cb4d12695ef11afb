// The one dispatch over instructions: an overload per alternative of ptx::Op, so that an
// instruction added to ptx/Instructions.def without a lowering does not compile.
#include "lower/Instructions.hpp"

#include <variant>

namespace ptxmc::lower {

namespace {

/** Lowers one event-making instruction; says false for control ones (ControlFlow's). */
struct Lower {
    Lowerer& l;

    bool operator()(const ptx::Ld& x) const { return lowerLoad(l, x), true; }
    bool operator()(const ptx::St& x) const { return lowerStore(l, x), true; }
    bool operator()(const ptx::Atom& x) const { return lowerAtomic(l, x), true; }
    bool operator()(const ptx::Fence& x) const { return lowerFence(l, x), true; }
    bool operator()(const ptx::Membar& x) const { return lowerMembar(l, x), true; }
    bool operator()(const ptx::ProxyFence& x) const { return lowerProxyFence(l, x), true; }
    bool operator()(const ptx::Barrier& x) const { return lowerBarrier(l, x), true; }
    bool operator()(const ptx::Arith& x) const { return lowerArithmetic(l, x), true; }
    bool operator()(const ptx::TensormapReplace& x) const {
        return lowerTensormapReplace(l, x), true;
    }
    bool operator()(const ptx::TensormapCopy& x) const { return lowerTensormapCopy(l, x), true; }
    bool operator()(const ptx::RedAsync& x) const { return lowerRedAsync(l, x), true; }
    bool operator()(const ptx::Multimem& x) const { return lowerMultimem(l, x), true; }
    bool operator()(const ptx::Matrix& x) const { return lowerMatrix(l, x), true; }

    bool operator()(const ptx::MbarrierInit& x) const { return lowerInit(l, x), true; }
    bool operator()(const ptx::MbarrierArrive& x) const { return lowerArrive(l, x), true; }
    bool operator()(const ptx::MbarrierTx& x) const { return lowerTx(l, x), true; }
    bool operator()(const ptx::MbarrierWait& x) const { return lowerWait(l, x), true; }
    bool operator()(const ptx::CpAsyncArrive& x) const { return lowerCpAsyncArrive(l, x), true; }
    bool operator()(const ptx::MbarrierCheckLayout& x) const {
        return lowerCheckLayout(l, x), true;
    }
    bool operator()(const ptx::MbarrierPendingCount& x) const {
        return lowerPendingCount(l, x), true;
    }

    bool operator()(const ptx::BulkCopy& x) const { return lowerCopy(l, x), true; }
    bool operator()(const ptx::BulkCommit& x) const { return lowerCommitGroup(l, x), true; }
    bool operator()(const ptx::BulkWait& x) const { return lowerWaitGroup(l, x), true; }
    bool operator()(const ptx::CpAsync& x) const { return lowerNonBulkCopy(l, x), true; }
    bool operator()(const ptx::BulkPrefetch& x) const { return lowerPrefetch(l, x), true; }
    bool operator()(const ptx::ClcTryCancel& x) const { return lowerTryCancel(l, x), true; }
    // no event: the registers a try_cancel response decodes to
    bool operator()(const ptx::ClcQueryCancel& x) const { return lowerQueryCancel(l, x), true; }

    bool operator()(const ptx::Tcgen05Alloc& x) const { return lowerAlloc(l, x), true; }
    bool operator()(const ptx::Tcgen05Relinquish& x) const { return lowerRelinquish(l, x), true; }
    bool operator()(const ptx::Tcgen05Mma& x) const { return lowerMma(l, x), true; }
    bool operator()(const ptx::Tcgen05Cp& x) const { return lowerCp(l, x), true; }
    bool operator()(const ptx::Tcgen05Shift& x) const { return lowerShift(l, x), true; }
    bool operator()(const ptx::Tcgen05Ld& x) const { return lowerLd(l, x), true; }
    bool operator()(const ptx::Tcgen05St& x) const { return lowerSt(l, x), true; }
    bool operator()(const ptx::Tcgen05Wait& x) const { return lowerWait(l, x), true; }
    bool operator()(const ptx::Tcgen05Commit& x) const { return lowerCommit(l, x), true; }
    bool operator()(const ptx::Tcgen05Fence& x) const { return lowerFence(l, x), true; }

    bool operator()(const ptx::WgmmaFence& x) const { return lowerWgmmaFence(l, x), true; }
    bool operator()(const ptx::WgmmaMma& x) const { return lowerWgmmaMma(l, x), true; }
    bool operator()(const ptx::WgmmaCommit& x) const { return lowerWgmmaCommit(l, x), true; }
    bool operator()(const ptx::WgmmaWait& x) const { return lowerWgmmaWait(l, x), true; }

    // Branches, setp, mov, elect.sync, the warp collectives, nanosleep and exit change the path (or
    // nothing), not the events: ControlFlow.cpp.
    bool operator()(const ptx::Bra&) const { return false; }
    bool operator()(const ptx::CompareBranch&) const { return false; }
    bool operator()(const ptx::Setp&) const { return false; }
    bool operator()(const ptx::Mov&) const { return false; }
    bool operator()(const ptx::Elect&) const { return false; }
    bool operator()(const ptx::Vote&) const { return false; }
    bool operator()(const ptx::Match&) const { return false; }
    bool operator()(const ptx::Activemask&) const { return false; }
    bool operator()(const ptx::Redux&) const { return false; }
    bool operator()(const ptx::BarWarpSync&) const { return false; }
    bool operator()(const ptx::Nondet&) const { return false; }
    bool operator()(const ptx::Nanosleep&) const { return false; }
    bool operator()(const ptx::Setmaxnreg&) const { return false; }
    bool operator()(const ptx::Griddepcontrol&) const { return false; }
    bool operator()(const ptx::Exit&) const { return false; }
};

} // namespace

bool lowerInsn(Lowerer& l, const ptx::Insn& insn) {
    return std::visit(Lower{l}, insn.op);
}

} // namespace ptxmc::lower
