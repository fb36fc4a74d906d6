// assert64.cu — a device assert that fails in every one of 64 threads (two
// warps): the GPU prints every thread's message (the order of the lines is the
// GPU's own: the test compares them sorted) and the launch ends with cudaErrorAssert.
#include <cassert>
#include "check.h"

__global__ void all_fail(const int *v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(v[i] < 0);
}

int main() {
    int h[64];
    for (int i = 0; i < 64; i++) h[i] = i + 1;
    int *d;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    all_fail<<<1, 64>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("synchronize: %s\n", cudaGetErrorName(e));
    return e == cudaSuccess ? 0 : 2;
}
