// DeepGEMM's sm100 bf16 GEMM (K-major A and B, 128x128x64 blocks, 4 stages, 2-CTA multicast on
// B, shapes at run time), instantiated as its JIT does, for bench/library-kernels.sh.
#include <deep_gemm/impls/sm100_bf16_gemm.cuh>
using namespace deep_gemm;
void instantiateKernel() {
    auto kernel = reinterpret_cast<void*>(&sm100_bf16_gemm_impl<
        cute::UMMA::Major::K, cute::UMMA::Major::K,
        0, 0, 0,       // shapes M, N, K given at launch
        128, 128, 64,  // BLOCK_M, BLOCK_N, BLOCK_K
        1,             // groups
        128, 128, 128, // swizzles of A, B, CD
        4,             // stages
        128, 128,      // non-epilogue and epilogue threads
        2, false,      // multicast 2, on B
        2,             // SMs
        128,           // K alignment
        false, false,  // swap AB, zero padding
        GemmType::Normal, false, cutlass::bfloat16_t,
        100>);         // tensor-core utilization control
    (void)kernel;
}
