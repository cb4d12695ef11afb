// The 1-SM warp-specialized sm100 GEMM of CUTLASS's collective builders (128x128x64, no C), for bench/library-kernels.sh.
#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cutlass/gemm/dispatch_policy.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
using namespace cute;
using ElementA = cutlass::half_t; using ElementB = cutlass::half_t; using ElementD = float;
using MmaTile = Shape<_128, _128, _64>; using Cluster = Shape<_1, _1, _1>;
using Epi = typename cutlass::epilogue::collective::CollectiveBuilder<
    cutlass::arch::Sm100, cutlass::arch::OpClassTensorOp, MmaTile, Cluster,
    cutlass::epilogue::collective::EpilogueTileAuto, float, float,
    void, cutlass::layout::ColumnMajor, 4, ElementD, cutlass::layout::ColumnMajor, 4,
    cutlass::epilogue::TmaWarpSpecialized1Sm>::CollectiveOp;
using Main = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm100, cutlass::arch::OpClassTensorOp, ElementA, cutlass::layout::RowMajor, 8,
    ElementB, cutlass::layout::ColumnMajor, 8, float, MmaTile, Cluster,
    cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename Epi::SharedStorage))>,
    cutlass::gemm::KernelTmaWarpSpecialized1SmSm100>::CollectiveOp;
using Kernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, Main, Epi, void>;
using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;
void launch(typename Gemm::Arguments const& a) { Gemm g; g.initialize(a); g.run(); }
