// sync_div_block.cu: __syncthreads() reached by the first warp of each block
// only; the second warp leaves without it.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void first_warp(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    if (in[t] != 0) return;
    s[t] = t;
    if (t < 32) {
        __syncthreads();
        out[blockIdx.x * 64 + t] = s[t + 32];
    }
}

int main() {
    int *in, *out, h[64];
    cudaMalloc(&in, 64 * sizeof(int));
    cudaMalloc(&out, 2 * 64 * sizeof(int));
    for (int k = 0; k < 64; k++) h[k] = 0;
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    first_warp<<<2, 64>>>(in, out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    return 0;
}
