// sync_warp_branch.cu: lanes 0-23 call __syncwarp() with a mask of lanes 8-23.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void lanes(int *out) {
    int t = threadIdx.x;
    out[t] = t;
    if (t < 24) __syncwarp(0x00ffff00u);
    out[t] += 1;
}

int main() {
    int *out;
    cudaMalloc(&out, 32 * sizeof(int));
    lanes<<<1, 32>>>(out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    return 0;
}
