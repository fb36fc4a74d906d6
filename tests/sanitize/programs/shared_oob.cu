// shared_oob.cu: 65 threads store into 64 words of dynamic shared memory.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void stage(int *out) {
    extern __shared__ int s[];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) out[0] = s[1];
}

int main() {
    int *out;
    cudaMalloc(&out, 64);
    stage<<<1, 65, 64 * sizeof(int)>>>(out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    return 0;
}
