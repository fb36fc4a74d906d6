// Whole program: device printf flushed at the points the CUDA guide lists
// (synchronize, blocking copy), interleaved with host output, across several
// launches, with the printf FIFO size set and read back.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void hello(int launch)
{
    if (threadIdx.x < 4)
        printf("launch %d: block %d thread %d\n", launch, blockIdx.x, threadIdx.x);
}

__global__ void serial(int n)
{
    for (int i = 0; i < n; i++) {
        if (threadIdx.x == (unsigned)i)
            printf("thread %d of %d: %5.2f %s\n", i, n, i * 1.25, i % 2 ? "odd" : "even");
        __syncthreads();
    }
}

int main()
{
    size_t fifo = 0;
    cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1 << 20);
    cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize);
    printf("host: fifo %zu\n", fifo);
    hello<<<1, 32>>>(0);
    cudaDeviceSynchronize();
    printf("host: after first sync\n");
    serial<<<1, 64>>>(6);
    int *d, h = 0;
    cudaMalloc(&d, sizeof(int));
    cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);   // flushes too
    printf("host: after copy\n");
    for (int k = 1; k <= 3; k++)
        hello<<<1, 4>>>(k);
    cudaDeviceSynchronize();
    printf("host: done, last error %s\n", cudaGetErrorName(cudaGetLastError()));
    cudaFree(d);
    return 0;
}
