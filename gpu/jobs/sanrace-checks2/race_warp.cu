// race_warp.cu: one warp passes values to its neighbour lane through shared
// memory without __syncwarp() (lanes of a warp are not in lockstep since Volta),
// and every lane stores to one flag word.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void neighbour(int *out) {
    __shared__ int s[32];
    __shared__ int flag;
    int t = threadIdx.x;
    s[t] = t * 3;
    int v = s[(t + 1) % 32];
    flag = t;
    __syncthreads();
    out[t] = v + flag;
}

int main() {
    int *out;
    cudaMalloc(&out, 32 * sizeof(int));
    neighbour<<<1, 32>>>(out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    return 0;
}
