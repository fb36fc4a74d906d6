// race_war.cu: each thread reads the word of its mirror thread in the other warp,
// then overwrites its own word with no barrier in between: write-after-read and
// read-after-write hazards between the two warps.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void mirror(int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    int v = s[63 - t];
    s[t] = v * 2;
    __syncthreads();
    out[t] = s[t];
}

int main() {
    int *out;
    cudaMalloc(&out, 64 * sizeof(int));
    mirror<<<1, 64>>>(out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    return 0;
}
