/* A stand-in for libcudart.so.13 with no GPU: enough for bench/library/cutlass_sm90_ws.cu's host
 * to build and dump its Params where no Hopper GPU is at hand. Device pointers are distinct fake
 * addresses, tensor maps are zeros (a copy names its map by address; ptxmc reads no map), the
 * device is an H200 (132 SMs), and no kernel runs.
 * Build: gcc -shared -fPIC -O1 -w -Wl,--version-script=cudart_stub.map -Wl,-soname,libcudart.so.13
 *          cudart_stub.c -o DIR/libcudart.so.13
 * Use:   nvcc ... -cudart shared cutlass_sm90_ws.cu -o host; LD_LIBRARY_PATH=DIR ./host OUT.bin M N
 * K
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
typedef int cudaError_t;
typedef struct {
    unsigned x, y, z;
} dim3;
static void* handle[4];
void** __cudaRegisterFatBinary(void* f) {
    (void)f;
    return handle;
}
void __cudaRegisterFatBinaryEnd(void** h) {
    (void)h;
}
void __cudaRegisterFunction(void** h, const char* a, char* b, const char* c, int d, void* e,
                            void* f, void* g, void* i, int* j) {}
void __cudaRegisterVar(void** h, char* a, char* b, const char* c, int d, size_t e, int f, int g) {}
void __cudaUnregisterFatBinary(void** h) {}
cudaError_t __cudaPopCallConfiguration(dim3* g, dim3* b, size_t* s, void* st) {
    return 0;
}
cudaError_t __cudaGetKernel(void** k, const void* f) {
    *k = (void*)f;
    return 0;
}
cudaError_t __cudaLaunchKernel(const void* k, dim3 g, dim3 b, void** a, size_t s, void* st) {
    return 0;
}
cudaError_t cudaDeviceGetAttribute(int* v, int attr, int dev) {
    switch (attr) {
    case 16:
        *v = 132;
        break; /* multiprocessor count, an H200's */
    case 97:
        *v = 232448;
        break; /* max shared memory per block (opt-in) */
    case 75:
        *v = 9;
        break;
    case 76:
        *v = 0;
        break; /* compute capability */
    default:
        *v = 0;
    }
    fprintf(stderr, "shim: attribute %d -> %d\n", attr, *v);
    return 0;
}
cudaError_t cudaDeviceSynchronize(void) {
    return 0;
}
cudaError_t cudaDriverGetVersion(int* v) {
    *v = 13000;
    return 0;
}
cudaError_t cudaFuncSetAttribute(const void* f, int a, int v) {
    return 0;
}
cudaError_t cudaGetDevice(int* d) {
    *d = 0;
    return 0;
}
static int encodeTiled(void* map, ...) {
    memset(map, 0, 128);
    return 0;
}
cudaError_t cudaGetDriverEntryPointByVersion(const char* s, void** fn, unsigned ver,
                                             unsigned long long flags, int* status) {
    fprintf(stderr, "shim: entry point %s\n", s);
    *fn = strcmp(s, "cuTensorMapEncodeTiled") == 0 ? (void*)encodeTiled : NULL;
    if (status) *status = *fn ? 0 : 1;
    return *fn ? 0 : 1;
}
const char* cudaGetErrorString(cudaError_t e) {
    return e ? "shim error" : "no error";
}
cudaError_t cudaGetLastError(void) {
    return 0;
}
cudaError_t cudaLaunchKernelExC(const void* config, const void* f, void** args) {
    return 0;
}
static uintptr_t next = 0x7f2a00000000ULL;
cudaError_t cudaMalloc(void** p, size_t n) {
    *p = (void*)next;
    next += (n + 0xfffff) & ~(uintptr_t)0xfffff;
    return 0;
}
cudaError_t cudaMemset(void* p, int v, size_t n) {
    return 0;
}
