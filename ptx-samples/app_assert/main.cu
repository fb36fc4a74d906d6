// Whole program: a device assert fails; the launch reports cudaErrorAssert
// at the next synchronization, the error is sticky, and later calls fail too.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void check(const int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        assert(v[i] >= 0);
}

int main()
{
    int h[64];
    for (int i = 0; i < 64; i++)
        h[i] = i == 42 ? -1 : i;
    int *d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    check<<<2, 32>>>(d, 40);                 // all good
    cudaError_t e = cudaDeviceSynchronize();
    printf("first launch: %s\n", cudaGetErrorName(e));
    check<<<2, 32>>>(d, 64);                 // element 42 fails
    cudaError_t launch = cudaGetLastError();
    e = cudaDeviceSynchronize();
    printf("launch: %s, sync: %s (%s)\n", cudaGetErrorName(launch), cudaGetErrorName(e), cudaGetErrorString(e));
    e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("copy after assert: %s\n", cudaGetErrorName(e));
    cudaError_t peek = cudaPeekAtLastError();
    cudaError_t get = cudaGetLastError();
    cudaError_t again = cudaGetLastError();
    printf("peek: %s, get: %s, get again: %s\n", cudaGetErrorName(peek), cudaGetErrorName(get),
           cudaGetErrorName(again));
    return e == cudaSuccess ? 0 : 3;
}
