// leak.cu: a correct kernel, but one of two allocations is never freed.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void twice(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = 2 * i;
}

int main() {
    int *a, *b;
    cudaMalloc(&a, 1000 * sizeof(int));
    cudaMalloc(&b, 200);
    twice<<<4, 256>>>(a, 1000);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    cudaFree(b);
    return 0;
}
