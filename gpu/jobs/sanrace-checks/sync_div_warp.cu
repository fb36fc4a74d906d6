// sync_div_warp.cu: __syncthreads() inside a branch only half of a warp takes.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void half(int *out) {
    __shared__ int s[32];
    s[threadIdx.x] = threadIdx.x;
    if (threadIdx.x < 16) {
        __syncthreads();
        out[threadIdx.x] = s[31 - threadIdx.x];
    }
}

int main() {
    int *out;
    cudaMalloc(&out, 32 * sizeof(int));
    half<<<1, 32>>>(out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    return 0;
}
