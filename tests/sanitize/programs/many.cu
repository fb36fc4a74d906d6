// many.cu: 256 threads each write past a 64-byte buffer (192 records: how many
// are printed by default, and what the summary counts).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void spill(int *p) {
    p[threadIdx.x] = threadIdx.x;
}

int main() {
    int *p;
    cudaMalloc(&p, 64);
    spill<<<1, 256>>>(p);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    cudaFree(p);
    return 0;
}
