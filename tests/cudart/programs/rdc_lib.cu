// rdc_lib.cu — the other half of rdc_main.cu: defines the shared device function and
// variable, and launches a kernel of its own.
#include "check.h"

__device__ int lib_bias = 100;
__device__ int lib_twice(int x) { return 2 * x; }
__global__ void lib_kernel(int *p) { p[0] = lib_twice(lib_bias) + 1; }

int lib_run() {
    int *d, h = 0;
    CHECK(cudaMalloc(&d, sizeof h));
    lib_kernel<<<1, 1>>>(d);
    SHOW(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("lib: %d\n", h);
    return 0;
}
