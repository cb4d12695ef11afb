// Host code's dump of a kernel parameter's bytes for `ptxmc kernel --param-bytes NAME=FILE`.
//
// Header-only, C++11, no CUDA needed (it compiles in .cu and .cpp files alike). Include it in
// the host code that launches the kernel and dump the parameter as the launch passes it, e.g.
// CUTLASS 3.x/4.x:
//
//   #include <ptxmc/params_dump.h>
//   auto params = GemmKernel::to_underlying_arguments(args, workspace); // or gemm.params()
//   ptxmc::dump_params("gemm.params.bin", params);
//
// then `ptxmc kernel gemm.ptx --param-bytes 0=gemm.params.bin`. The bytes are the object's
// representation, as cudaLaunchKernel copies it into the parameter space, so every field has
// the value the host computed (sizes, the tile scheduler's divisors, transaction bytes).
// Pointers are device addresses: ptxmc reads them as numbers. Run it on the host that
// launches: a dump is little-endian and has the host compiler's layout, the one the kernel's
// PTX was compiled for.
#ifndef PTXMC_PARAMS_DUMP_H
#define PTXMC_PARAMS_DUMP_H

#include <cstddef>
#include <cstdio>

namespace ptxmc {

/** Writes the `size` bytes at `data` to the file `path`; 0 on success, -1 if it cannot. */
inline int dump_param_bytes(const char* path, const void* data, std::size_t size) {
    std::FILE* f = std::fopen(path, "wb");
    if (f == nullptr) return -1;
    std::size_t written = size == 0 ? 0 : std::fwrite(data, 1, size, f);
    int closed = std::fclose(f);
    return written == size && closed == 0 ? 0 : -1;
}

/**
 * Writes `params`, a kernel parameter passed by value (a `Params` struct, a globals struct, a
 * scalar), to `path`: sizeof(T) bytes, what `--param-bytes INDEX=path` reads for the
 * parameter at INDEX (the position in the kernel's parameter list, from 0).
 */
template <class T> inline int dump_params(const char* path, const T& params) {
    return dump_param_bytes(path, &params, sizeof(T));
}

} // namespace ptxmc

#endif // PTXMC_PARAMS_DUMP_H
