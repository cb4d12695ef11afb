// DeepGEMM's sm90 fp8 GEMM (1D-2D scaling: per-128-channel scale factors of A by TMA, of B in
// global memory; 128x128x128 blocks, 4 stages, no multicast, shapes at run time), instantiated as
// its JIT does, for bench/library-kernels.sh.
#include <deep_gemm/impls/sm90_fp8_gemm_1d2d.cuh>
using namespace deep_gemm;
void instantiateKernel() {
    auto kernel = reinterpret_cast<void*>(&sm90_fp8_gemm_1d2d_impl<
        cute::UMMA::Major::K,  // scale factors of B, K-major
        0, 0, 0,               // shapes M, N, K given at launch
        1,                     // groups
        128, 128, 128,         // BLOCK_M, BLOCK_N, BLOCK_K
        128, 128, 0,           // swizzles of A, B, D
        4,                     // stages
        128, 256,              // TMA and math threads (two math warpgroups)
        1, false,              // no multicast
        132,                   // SMs
        GemmType::Normal, cutlass::bfloat16_t, epilogue::transform::EpilogueIdentity>);
    (void)kernel;
}
