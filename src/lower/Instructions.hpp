// One lowering function per event-making instruction of ptx::Op; Dispatch.cpp visits them all.
#pragma once

#include "lower/Lowerer.hpp"

namespace ptxmc::lower {

// Generic.cpp
void lowerLoad(Lowerer& l, const ptx::Ld& ld);
void lowerStore(Lowerer& l, const ptx::St& st);
void lowerAtomic(Lowerer& l, const ptx::Atom& at);
void lowerRedAsync(Lowerer& l, const ptx::RedAsync& r);
void lowerMatrix(Lowerer& l, const ptx::Matrix& m);
void lowerFence(Lowerer& l, const ptx::Fence& f);
void lowerMembar(Lowerer& l, const ptx::Membar& m);
void lowerProxyFence(Lowerer& l, const ptx::ProxyFence& f);
void lowerBarrier(Lowerer& l, const ptx::Barrier& b);
void lowerArithmetic(Lowerer& l, const ptx::Arith& a);
void lowerTensormapReplace(Lowerer& l, const ptx::TensormapReplace& r);
void lowerTensormapCopy(Lowerer& l, const ptx::TensormapCopy& c);

// Multimem.cpp
void lowerMultimem(Lowerer& l, const ptx::Multimem& m);

// WarpCollective.cpp: no event, registers only (ControlFlow.cpp's step calls it)
bool isWarpCollective(const ptx::Insn& insn);
void lowerWarpCollective(Lowerer& l, const ptx::Insn& insn);

// Mbarrier.cpp
void lowerInit(Lowerer& l, const ptx::MbarrierInit& init);
void lowerArrive(Lowerer& l, const ptx::MbarrierArrive& arrive);
void lowerTx(Lowerer& l, const ptx::MbarrierTx& t);
void lowerWait(Lowerer& l, const ptx::MbarrierWait& w);
void lowerCpAsyncArrive(Lowerer& l, const ptx::CpAsyncArrive& a);
void lowerPendingCount(Lowerer& l, const ptx::MbarrierPendingCount& c);
void lowerCheckLayout(Lowerer& l, const ptx::MbarrierCheckLayout& c);

// Bulk.cpp
void lowerCopy(Lowerer& l, const ptx::BulkCopy& copy);
void lowerCommitGroup(Lowerer& l, const ptx::BulkCommit& c);
void lowerWaitGroup(Lowerer& l, const ptx::BulkWait& w);
void lowerNonBulkCopy(Lowerer& l, const ptx::CpAsync& c);
void lowerPrefetch(Lowerer& l, const ptx::BulkPrefetch& p);
void lowerTryCancel(Lowerer& l, const ptx::ClcTryCancel& c);
void lowerQueryCancel(Lowerer& l, const ptx::ClcQueryCancel& q);

// Tcgen05.cpp
void lowerAlloc(Lowerer& l, const ptx::Tcgen05Alloc& a);
void lowerRelinquish(Lowerer& l, const ptx::Tcgen05Relinquish& r);
void lowerMma(Lowerer& l, const ptx::Tcgen05Mma& m);
void lowerCp(Lowerer& l, const ptx::Tcgen05Cp& c);
void lowerShift(Lowerer& l, const ptx::Tcgen05Shift& sh);
void lowerLd(Lowerer& l, const ptx::Tcgen05Ld& ld);
void lowerSt(Lowerer& l, const ptx::Tcgen05St& st);
void lowerWait(Lowerer& l, const ptx::Tcgen05Wait& w);
void lowerCommit(Lowerer& l, const ptx::Tcgen05Commit& c);
void lowerFence(Lowerer& l, const ptx::Tcgen05Fence& f);

// Wgmma.cpp
void lowerWgmmaFence(Lowerer& l, const ptx::WgmmaFence& f);
void lowerWgmmaMma(Lowerer& l, const ptx::WgmmaMma& m);
void lowerWgmmaCommit(Lowerer& l, const ptx::WgmmaCommit& c);
void lowerWgmmaWait(Lowerer& l, const ptx::WgmmaWait& w);

} // namespace ptxmc::lower
