// Tensor maps for a test's cp.async.bulk.tensor copies, built on the host with the driver API.
#pragma once

#include "TestInfo.hpp"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <string>
#include <vector>

namespace litmus {

/**
 * Builds one 128-byte map per global location that a tensor copy names, over the whole global
 * array seen as rows of the location's box width (uint32 elements): a box is one slot's
 * `bytes N`, and the kernel's coordinates (slot offset / width) pick its instance's slot. A 1d
 * map is the array as one row. Writes the maps to `deviceMaps` (globals x 128 bytes); returns
 * "" or why it failed.
 */
inline std::string buildTensorMaps(const TestInfo& t, unsigned* gmem, unsigned long long words,
                                   void* deviceMaps) {
    if (!t.tensorMaps) return "";
    void* entry = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &entry, 12000, cudaEnableDefault,
                                         &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess || !entry)
        return "the driver has no cuTensorMapEncodeTiled";
    auto encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(entry);
    std::vector<CUtensorMap> maps(t.globals);
    for (unsigned loc = 0; loc < t.globals; ++loc) {
        const unsigned rank = t.tensorMaps[3 * loc], width = t.tensorMaps[3 * loc + 1],
                       height = t.tensorMaps[3 * loc + 2];
        if (rank == 0) continue;
        cuuint64_t dims[5] = {1, 1, 1, 1, 1}, strides[4] = {0, 0, 0, 0};
        cuuint32_t box[5] = {1, 1, 1, 1, 1}, elementStrides[5] = {1, 1, 1, 1, 1};
        if (rank == 1) {
            dims[0] = words;
            box[0] = width;
        } else {
            dims[0] = width;
            dims[1] = words / width;
            box[0] = width;
            box[1] = height;
            strides[0] = 4ull * width;
            for (unsigned k = 1; k + 1 < rank; ++k) // outer dimensions of extent 1
                strides[k] = 4ull * words;
        }
        CUresult e =
            encode(&maps[loc], CU_TENSOR_MAP_DATA_TYPE_UINT32, rank, gmem, dims, strides, box,
                   elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                   CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
        if (e != CUDA_SUCCESS)
            return "cuTensorMapEncodeTiled failed (" + std::to_string(static_cast<int>(e)) +
                   ") for global location " + std::to_string(loc);
    }
    if (cudaMemcpy(deviceMaps, maps.data(), maps.size() * sizeof(CUtensorMap),
                   cudaMemcpyHostToDevice) != cudaSuccess)
        return "copying the tensor maps to the device failed";
    return "";
}

} // namespace litmus
