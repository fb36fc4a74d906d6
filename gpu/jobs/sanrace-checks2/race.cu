// race.cu: a shared-memory reduction missing its __syncthreads (read-after-write
// hazard between warps) and a write-after-write on one word.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void reduce(const int *in, int *out, int half) {
    __shared__ int s[64];
    __shared__ int last;
    s[threadIdx.x] = in[threadIdx.x];
    if (threadIdx.x < 32) s[threadIdx.x] += s[threadIdx.x + half];
    last = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) out[0] = s[0] + last;
}

int main() {
    int *in, *out;
    cudaMalloc(&in, 64 * sizeof(int));
    cudaMalloc(&out, sizeof(int));
    cudaMemset(in, 0, 64 * sizeof(int));
    reduce<<<1, 64>>>(in, out, 32);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    return 0;
}
