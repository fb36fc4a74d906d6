// check.h — shared by the cudart test programs: print a CUDA call's result by name,
// so that a run on ptxi and a run on a GPU can be compared line by line.
#pragma once
#include <cstdio>
#include <cuda_runtime.h>

#define SHOW(call)                                               \
    do {                                                         \
        cudaError_t e_ = (call);                                 \
        printf("%-40.40s -> %s\n", #call, cudaGetErrorName(e_)); \
    } while (0)

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

// DRV(call): a driver API call's result by name, as SHOW prints a runtime call's
// (for programs that include <cuda.h> before this file).
#ifdef __cuda_cuda_h__
#define DRV(call)                              \
    do {                                       \
        CUresult r_ = (call);                  \
        const char *n_ = "?";                  \
        cuGetErrorName(r_, &n_);               \
        printf("%-48.48s -> %s\n", #call, n_); \
    } while (0)
#endif
