// assert.cu — a device-side assert: the message the device prints, cudaErrorAssert
// from the synchronizing call, printf output written before the assert, and the
// program's own error report and exit status.
#include <cassert>
#include "check.h"

__global__ void check_positive(const int *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) printf("checking %d values\n", n);
    if (i < n) assert(v[i] > 0);
}

int main() {
    int h[64];
    for (int i = 0; i < 64; i++) h[i] = i == 37 ? -1 : i + 1;
    int *d;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    printf("before launch\n");
    check_positive<<<1, 64>>>(d, 64);
    printf("after launch\n");
    cudaError_t e = cudaDeviceSynchronize();
    printf("synchronize: %s\n", cudaGetErrorName(e));
    fprintf(stderr, "error: %s\n", cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 2;
}
