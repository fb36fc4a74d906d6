// sync_warp_mask.cu: every lane of the warp calls __syncwarp() with a mask that
// names lanes 0-15 only.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void low_mask(int *out) {
    __shared__ int s[32];
    s[threadIdx.x] = threadIdx.x;
    __syncwarp(0x0000ffffu);
    out[threadIdx.x] = s[threadIdx.x ^ 1];
}

int main() {
    int *out;
    cudaMalloc(&out, 32 * sizeof(int));
    low_mask<<<1, 32>>>(out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    return 0;
}
