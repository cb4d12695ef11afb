// Host driver of tests/kernel/hopper_tma_wgmma.cu: many launches per mutant vs a CPU reference.
#include "../../tests/kernel/hopper_tma_wgmma.cu"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <random>
#include <vector>

#define CHECK_CUDA(x)                                                                              \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            std::printf("RESULT mutant=%d status=cuda-error iteration=%d at=%s:%d err=%s\n",       \
                        PTXMC_MUTANT, g_iteration, __FILE__, __LINE__, cudaGetErrorString(e_));    \
            std::exit(3);                                                                          \
        }                                                                                          \
    } while (0)

#define CHECK_CU(x)                                                                                \
    do {                                                                                           \
        CUresult r_ = (x);                                                                         \
        if (r_ != CUDA_SUCCESS) {                                                                  \
            const char* msg_ = nullptr;                                                            \
            cuGetErrorString(r_, &msg_);                                                           \
            std::printf("RESULT mutant=%d status=cu-error at=%s:%d err=%s\n", PTXMC_MUTANT,        \
                        __FILE__, __LINE__, msg_ ? msg_ : "?");                                    \
            std::exit(3);                                                                          \
        }                                                                                          \
    } while (0)

// Build (validate/kernels/run.sh does): nvcc -gencode=arch=compute_90a,code=sm_90a -O3
//   -DPTXMC_WATCHDOG -DPTXMC_MUTANT=N validate/kernels/hopper_gemm_host.cu -lcuda -o hopper_gemm_N
// Run: hopper_gemm_N [ITERATIONS] [SEED] [M N K] [BUDGET_SECONDS]; prints one RESULT line.
// Each launch uses one of 4 input sets (rotated) of small integers, so every product is exact
// and a stale or partial tile gives a wrong value; C is reset to NaN before each launch.

using namespace hopper_gemm;

static int g_iteration = -1; // the launch a CUDA error is reported at

// Row-major rows x cols f16 matrix, box = box_rows x box_cols, optional 128-byte swizzle.
static CUtensorMap make_map(void* base, uint64_t rows, uint64_t cols, uint32_t box_rows,
                            uint32_t box_cols, bool swizzle) {
    CUtensorMap map;
    cuuint64_t dims[2] = {cols, rows};
    cuuint64_t strides[1] = {cols * sizeof(__half)};
    cuuint32_t box[2] = {box_cols, box_rows};
    cuuint32_t elem_strides[2] = {1, 1};
    CHECK_CU(cuTensorMapEncodeTiled(
        &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, base, dims, strides, box, elem_strides,
        CU_TENSOR_MAP_INTERLEAVE_NONE,
        swizzle ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
        CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    return map;
}

int main(int argc, char** argv) {
    const int iterations = argc > 1 ? std::atoi(argv[1]) : 2000;
    const unsigned seed = argc > 2 ? static_cast<unsigned>(std::strtoul(argv[2], nullptr, 0)) : 1u;
    const int M = argc > 5 ? std::atoi(argv[3]) : 512;
    const int N = argc > 5 ? std::atoi(argv[4]) : 512;
    const int K = argc > 5 ? std::atoi(argv[5]) : 512;
    const double budget_s = argc > 6 ? std::atof(argv[6]) : 30.0;
    constexpr int kSets = 4; // input sets, rotated per launch so stale tiles give wrong values

    CHECK_CUDA(cudaFree(nullptr));
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> val(-2, 2);
    std::vector<std::vector<__half>> ha(kSets), hb(kSets);
    std::vector<std::vector<float>> ref(kSets);
    for (int t = 0; t < kSets; ++t) {
        std::vector<float> fa(size_t(M) * K), fb(size_t(N) * K);
        ha[t].resize(fa.size());
        hb[t].resize(fb.size());
        for (size_t i = 0; i < fa.size(); ++i) {
            fa[i] = float(val(rng));
            ha[t][i] = __float2half(fa[i]);
        }
        for (size_t i = 0; i < fb.size(); ++i) {
            fb[i] = float(val(rng));
            hb[t][i] = __float2half(fb[i]);
        }
        ref[t].assign(size_t(M) * N, 0.0f);
        for (int m = 0; m < M; ++m)
            for (int n = 0; n < N; ++n) {
                float acc = 0.0f; // small integers: every partial sum is exact in f32 and in f16
                for (int k = 0; k < K; ++k)
                    acc += fa[size_t(m) * K + k] * fb[size_t(n) * K + k];
                ref[t][size_t(m) * N + n] = acc;
            }
    }

    __half *da[kSets], *db[kSets], *dc;
    CUtensorMap map_a[kSets], map_b[kSets];
    for (int t = 0; t < kSets; ++t) {
        CHECK_CUDA(cudaMalloc(&da[t], ha[t].size() * sizeof(__half)));
        CHECK_CUDA(cudaMalloc(&db[t], hb[t].size() * sizeof(__half)));
        CHECK_CUDA(
            cudaMemcpy(da[t], ha[t].data(), ha[t].size() * sizeof(__half), cudaMemcpyHostToDevice));
        CHECK_CUDA(
            cudaMemcpy(db[t], hb[t].data(), hb[t].size() * sizeof(__half), cudaMemcpyHostToDevice));
        map_a[t] = make_map(da[t], M, K, BM, BK, true);
        map_b[t] = make_map(db[t], N, K, BN, BK, true);
    }
    CHECK_CUDA(cudaMalloc(&dc, size_t(M) * N * sizeof(__half)));
    const CUtensorMap map_c = make_map(dc, M, N, BM, BN, false);
    std::vector<__half> hc(size_t(M) * N);

    const dim3 grid(N / BN, M / BM);
    long wrong_runs = 0, wrong_elems_max = 0, watchdog_runs = 0, done = 0;
    int first_wrong = -1;
    const auto t0 = std::chrono::steady_clock::now();
    for (int it = 0; it < iterations; ++it) {
        g_iteration = it;
        const int t = it % kSets;
        const unsigned zero = 0;
        CHECK_CUDA(cudaMemcpyToSymbol(g_watchdog_fired, &zero, sizeof zero));
        CHECK_CUDA(cudaMemset(dc, 0xFF, size_t(M) * N * sizeof(__half))); // NaN: unwritten shows
        hopper_tma_wgmma_gemm<<<grid, THREADS>>>(map_a[t], map_b[t], map_c, K);
        CHECK_CUDA(cudaGetLastError());
        CHECK_CUDA(cudaDeviceSynchronize());
        unsigned fired = 0;
        CHECK_CUDA(cudaMemcpyFromSymbol(&fired, g_watchdog_fired, sizeof fired));
        CHECK_CUDA(cudaMemcpy(hc.data(), dc, hc.size() * sizeof(__half), cudaMemcpyDeviceToHost));
        long bad = 0;
        for (size_t i = 0; i < hc.size(); ++i)
            if (!(__half2float(hc[i]) == ref[t][i])) ++bad;
        ++done;
        if (fired) ++watchdog_runs;
        if (bad) {
            ++wrong_runs;
            if (bad > wrong_elems_max) wrong_elems_max = bad;
            if (first_wrong < 0) first_wrong = it;
        }
        const double el =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (watchdog_runs >= 3 || el > budget_s) break;
    }
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("RESULT mutant=%d status=ok M=%d N=%d K=%d seed=%u iterations=%ld wrong_runs=%ld "
                "first_wrong=%d max_wrong_elems=%ld watchdog_runs=%ld seconds=%.2f\n",
                PTXMC_MUTANT, M, N, K, seed, done, wrong_runs, first_wrong, wrong_elems_max,
                watchdog_runs, el);
    return 0;
}
