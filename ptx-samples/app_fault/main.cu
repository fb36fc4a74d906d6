// Whole program: a kernel writes through a wild pointer. The launch itself
// succeeds, the fault is reported at synchronization (cudaErrorIllegalAddress),
// it is sticky, and every later call returns it.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void wild(int *p, long long offset)
{
    if (threadIdx.x == 7)
        p[offset] = 42;
}

int main()
{
    int *d;
    cudaMalloc(&d, 1024);
    wild<<<1, 32>>>(d, 0);
    printf("in bounds: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    wild<<<1, 32>>>(d, 1ll << 40);
    printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    printf("again: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    int h;
    printf("copy: %s\n", cudaGetErrorName(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost)));
    printf("malloc: %s\n", cudaGetErrorName(cudaMalloc(&d, 16)));
    return e == cudaErrorIllegalAddress ? 2 : 0;
}
