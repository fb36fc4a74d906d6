// sync_two_bars.cu: the first two warps of each block wait at one
// __syncthreads(), the third at another.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void split(int *out) {
    __shared__ int s[96];
    int t = threadIdx.x;
    s[t] = t;
    if (t < 64) {
        __syncthreads();
        out[blockIdx.x * 96 + t] = s[95 - t];
    } else {
        __syncthreads();
        out[blockIdx.x * 96 + t] = -s[95 - t];
    }
}

int main() {
    int *out;
    cudaMalloc(&out, 2 * 96 * sizeof(int));
    split<<<2, 96>>>(out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    return 0;
}
