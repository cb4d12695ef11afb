// Host driver of the stmatrix epilogue kernel: many launches per mutant vs what each lane wrote.
#include "../../tests/kernel/hopper_stmatrix_epilogue.cu"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

// Build (validate/kernels/run_stmatrix.sh does): nvcc -gencode=arch=compute_90a,code=sm_90a -O3
//   -DPTXMC_MUTANT=N validate/kernels/stmatrix_host.cu -lcuda -o stmatrix_N
// Run: stmatrix_N [ITERATIONS] [SEED] [CTAS] [BUDGET_SECONDS]; prints one RESULT line.
// Each launch uses its own seed, so a row the TMA store reads before its warp wrote it (or a
// stale row of the previous launch in the same shared memory) is a wrong word; the output is
// reset to 0xFFFFFFFF before each launch.

#define CHECK(x, what)                                                                             \
    do {                                                                                           \
        if (!(x)) {                                                                                \
            std::printf("RESULT mutant=%d status=error at=%s\n", PTXMC_MUTANT, what);              \
            std::exit(3);                                                                          \
        }                                                                                          \
    } while (0)

using namespace stmatrix_epilogue;

// The 32-bit word at (row, word) of CTA `cta`'s 64 x 8-word tile for launch seed `seed`:
// matrix i of warp w holds rows w*16 + (i%2)*8 + j, words (i/2)*4 + c, written from register i
// of lane j*4 + c (the m8n8 fragment: lane t holds row t/4, halves 2(t%4), 2(t%4)+1).
static uint32_t expected(uint32_t seed, int row, int word) {
    const int w = row / 16, i = ((row % 16) / 8) + 2 * (word / 4), j = row % 8, c = word % 4;
    const uint32_t tid = static_cast<uint32_t>(w * 32 + j * 4 + c);
    return seed * 2654435761u + tid + static_cast<uint32_t>(i);
}

int main(int argc, char** argv) {
    const int iterations = argc > 1 ? std::atoi(argv[1]) : 2000;
    const unsigned seed0 = argc > 2 ? static_cast<unsigned>(std::strtoul(argv[2], nullptr, 0)) : 1u;
    const int ctas = argc > 3 ? std::atoi(argv[3]) : 264;
    const double budget_s = argc > 4 ? std::atof(argv[4]) : 30.0;
    const int rows = ctas * ROWS;
    CHECK(cudaFree(nullptr) == cudaSuccess, "init");
    uint32_t* dc = nullptr;
    CHECK(cudaMalloc(&dc, size_t(rows) * ROW_BYTES) == cudaSuccess, "malloc");
    CUtensorMap map;
    cuuint64_t dims[2] = {ROW_BYTES / 2, static_cast<cuuint64_t>(rows)};
    cuuint64_t strides[1] = {ROW_BYTES};
    cuuint32_t box[2] = {ROW_BYTES / 2, ROWS};
    cuuint32_t elem_strides[2] = {1, 1};
    CHECK(cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, dc, dims, strides, box,
                                 elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                 CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                 CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS,
          "tensor map");
    std::vector<uint32_t> host(size_t(rows) * ROW_BYTES / 4);
    long wrong_runs = 0, wrong_words_max = 0, done = 0;
    int first_wrong = -1;
    const auto t0 = std::chrono::steady_clock::now();
    for (int it = 0; it < iterations; ++it) {
        const uint32_t seed = seed0 + static_cast<uint32_t>(it);
        CHECK(cudaMemset(dc, 0xFF, host.size() * 4) == cudaSuccess, "memset");
        stmatrix_epilogue_kernel<<<ctas, THREADS>>>(map, seed);
        CHECK(cudaDeviceSynchronize() == cudaSuccess, "launch");
        CHECK(cudaMemcpy(host.data(), dc, host.size() * 4, cudaMemcpyDeviceToHost) == cudaSuccess,
              "copy");
        long wrong = 0;
        for (int r = 0; r < rows; ++r)
            for (int wd = 0; wd < ROW_BYTES / 4; ++wd)
                if (host[size_t(r) * (ROW_BYTES / 4) + wd] != expected(seed, r % ROWS, wd)) ++wrong;
        ++done;
        if (wrong) {
            ++wrong_runs;
            if (first_wrong < 0) first_wrong = it;
            if (wrong > wrong_words_max) wrong_words_max = wrong;
        }
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > budget_s)
            break;
    }
    std::printf("RESULT mutant=%d launches=%ld wrong_launches=%ld first_wrong=%d "
                "max_wrong_words=%ld of %zu seed=%u ctas=%d\n",
                PTXMC_MUTANT, done, wrong_runs, first_wrong, wrong_words_max, host.size(), seed0,
                ctas);
    return 0;
}
