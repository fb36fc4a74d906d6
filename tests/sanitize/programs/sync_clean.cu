// sync_clean.cu: barriers used as the rules allow: __syncthreads() by all, a
// __syncwarp() and collectives over the lanes that are there (__activemask() in
// a branch) and a named barrier shared by two of four warps.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void rules(int *out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    int v = s[127 - t];
    __syncwarp();
    v += __shfl_sync(0xffffffffu, v, 3);
    if ((t & 31) < 8) {
        unsigned m = __activemask();
        v += __shfl_sync(m, v, 1);
        v += (int)__ballot_sync(m, v & 1);
        __syncwarp(m);
    }
    if (t < 64) {
        asm volatile("bar.sync 1, 64;" ::: "memory");
        v += s[(t + 1) % 64];
    }
    __syncthreads();
    out[t] = v;
}

int main() {
    int *out;
    cudaMalloc(&out, 128 * sizeof(int));
    rules<<<1, 128>>>(out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    return 0;
}
