// race_blocks.cu: a row of words in dynamic shared memory, in each of two
// blocks of three warps: each thread reads the word of a thread of another
// warp and overwrites its own with no barrier in between; then four lanes of
// each warp store to one word at once.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void shift(const int *in, int *out) {
    extern __shared__ int row[];
    int t = threadIdx.x;
    row[t] = in[blockIdx.x * 96 + t];
    __syncthreads();
    int v = row[(t + 32) % 96];
    row[t] = v + 1;
    __syncthreads();
    if ((t & 31) < 4) row[t >> 5] = t * 0x01010101;
    __syncthreads();
    out[blockIdx.x * 96 + t] = row[t];
}

int main() {
    int *in, *out;
    cudaMalloc(&in, 2 * 96 * sizeof(int));
    cudaMalloc(&out, 2 * 96 * sizeof(int));
    cudaMemset(in, 0, 2 * 96 * sizeof(int));
    shift<<<2, 96, 96 * sizeof(int)>>>(in, out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    return 0;
}
