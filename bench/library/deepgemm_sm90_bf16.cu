// DeepGEMM's sm90 bf16 GEMM (K-major A and B, 128x128x64 blocks, 4 stages, no multicast, shapes
// at run time), instantiated as its JIT does, for bench/library-kernels.sh.
#include <deep_gemm/impls/sm90_bf16_gemm.cuh>
using namespace deep_gemm;
void instantiateKernel() {
    auto kernel = reinterpret_cast<void*>(&sm90_bf16_gemm_impl<
        cute::UMMA::Major::K, cute::UMMA::Major::K,
        0, 0, 0,       // shapes M, N, K given at launch
        1,             // groups
        128, 128, 64,  // BLOCK_M, BLOCK_N, BLOCK_K
        128, 128, 128, // swizzles of A, B, D
        4,             // stages
        128, 256,      // TMA and math threads (two math warpgroups)
        1, false,      // no multicast
        132,           // SMs
        GemmType::Normal, false, cutlass::bfloat16_t>);
    (void)kernel;
}
