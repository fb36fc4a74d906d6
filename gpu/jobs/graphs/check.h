// check.h — shared by the cudart test programs: print a CUDA call's result by name,
// so that a run on ptxi and a run on a GPU can be compared line by line.
#pragma once
#include <cstdio>
#include <cuda_runtime.h>

#define SHOW(call)                                                          \
    do {                                                                    \
        cudaError_t e_ = (call);                                            \
        printf("%-40.40s -> %s\n", #call, cudaGetErrorName(e_));            \
    } while (0)

#define CHECK(call)                                                         \
    do {                                                                    \
        cudaError_t e_ = (call);                                            \
        if (e_ != cudaSuccess) {                                            \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,   \
                    cudaGetErrorString(e_));                                \
            return 1;                                                       \
        }                                                                   \
    } while (0)
