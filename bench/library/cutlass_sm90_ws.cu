// CUTLASS's Hopper warp-specialized GEMM (example 48's builders on one CTA per cluster), run once
// and its Params dumped. -DPTXMC_EX48: example 48's own configuration instead (tf32 A and B,
// 128x128x32 tiles, a 4x2 cluster). Device side: `nvcc -arch=sm_90a -ptx` gives the kernel ptxmc
// checks. Host side (built with -gencode=arch=compute_90a,code=sm_90a, run on a Hopper GPU):
// launches the GEMM as GemmUniversalAdapter does and writes the launched Params with
// ptxmc/params_dump.h, for `ptxmc kernel --param-bytes 0=FILE` (docs/kernel.md's walk-through).
// Usage: cutlass_sm90_ws OUT.bin [M N K]
#include "cute/tensor.hpp"
#include "cutlass/cutlass.h"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/dispatch_policy.hpp"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/util/packed_stride.hpp"

#include <cstdio>
#include <cstdlib>
#include <ptxmc/params_dump.h>
#include <vector>

using namespace cute;
#ifdef PTXMC_EX48
using ElementA = float;
using ElementB = float;
using TileMNK = Shape<_128, _128, _32>;
using ClusterMNK = Shape<_4, _2, _1>;
#else
using ElementA = cutlass::half_t;
using ElementB = cutlass::half_t;
using TileMNK = Shape<_128, _128, _64>;
using ClusterMNK = Shape<_1, _1, _1>;
#endif
using ElementC = float;
constexpr int kAlignAB = 128 / cutlass::sizeof_bits<ElementA>::value; // 16-byte accesses
using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileMNK, ClusterMNK,
    cutlass::epilogue::collective::EpilogueTileAuto, float, float, ElementC,
    cutlass::layout::ColumnMajor, 4, ElementC, cutlass::layout::ColumnMajor, 4,
    cutlass::epilogue::collective::EpilogueScheduleAuto>::CollectiveOp;
using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, ElementA, cutlass::layout::RowMajor,
    kAlignAB, ElementB, cutlass::layout::ColumnMajor, kAlignAB, float, TileMNK, ClusterMNK,
    cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(
        sizeof(typename Epilogue::SharedStorage))>,
    cutlass::gemm::collective::KernelScheduleAuto>::CollectiveOp;
using Kernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int>, Mainloop, Epilogue>;
using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;

template <class T> T* deviceZeros(std::size_t n) {
    T* p = nullptr;
    if (cudaMalloc(&p, sizeof(T) * n) != cudaSuccess) return nullptr;
    cudaMemset(p, 0, sizeof(T) * n);
    return p;
}

int main(int argc, char** argv) {
    if (argc != 2 && argc != 5) {
        std::fprintf(stderr, "usage: %s OUT.bin [M N K]\n", argv[0]);
        return 2;
    }
    const int m = argc == 5 ? std::atoi(argv[2]) : 256;
    const int n = argc == 5 ? std::atoi(argv[3]) : 256;
    const int k = argc == 5 ? std::atoi(argv[4]) : 256;
    auto* a = deviceZeros<ElementA>(std::size_t(m) * k);
    auto* b = deviceZeros<ElementB>(std::size_t(n) * k);
    auto* c = deviceZeros<ElementC>(std::size_t(m) * n);
    auto* d = deviceZeros<ElementC>(std::size_t(m) * n);
    if (!a || !b || !c || !d) {
        std::fprintf(stderr, "cudaMalloc failed\n");
        return 1;
    }
    typename Gemm::Arguments args{
        cutlass::gemm::GemmUniversalMode::kGemm,
        {m, n, k},
        {a, cutlass::make_cute_packed_stride(typename Kernel::StrideA{}, {m, k, 1}), b,
         cutlass::make_cute_packed_stride(typename Kernel::StrideB{}, {n, k, 1})},
        {{1.0f, 0.0f},
         c,
         cutlass::make_cute_packed_stride(typename Kernel::StrideC{}, {m, n, 1}),
         d,
         cutlass::make_cute_packed_stride(typename Kernel::StrideD{}, {m, n, 1})}};
    Gemm gemm;
    void* workspace = nullptr;
    std::size_t bytes = Gemm::get_workspace_size(args);
    if (bytes != 0 && cudaMalloc(&workspace, bytes) != cudaSuccess) return 1;
    if (gemm.can_implement(args) != cutlass::Status::kSuccess ||
        gemm.initialize(args, workspace) != cutlass::Status::kSuccess) {
        std::fprintf(stderr, "CUTLASS cannot run this launch\n");
        return 1;
    }
    const cutlass::Status ran = gemm.run();
    const cudaError_t synced = cudaDeviceSynchronize();
    if (ptxmc::dump_params(argv[1], gemm.params()) != 0) {
        std::fprintf(stderr, "cannot write %s\n", argv[1]);
        return 1;
    }
    const dim3 grid = Kernel::get_grid_shape(gemm.params());
    std::printf("%s: %zu bytes; M N K = %d %d %d; grid %u,%u,%u; block %u; cluster %d,%d; run: "
                "%s, %s\n",
                argv[1], sizeof(typename Kernel::Params), m, n, k, grid.x, grid.y, grid.z,
                Kernel::get_block_shape().x, int(size<0>(ClusterMNK{})), int(size<1>(ClusterMNK{})),
                cutlass::cutlassGetStatusString(ran), cudaGetErrorString(synced));
    return ran == cutlass::Status::kSuccess && synced == cudaSuccess ? 0 : 1;
}
