// Whole program: the CUDA guide's device-heap examples. The heap size is set
// before the first launch, memory allocated in one launch persists into the
// next and is freed in a third, and a request larger than the heap fails.
#include <cstdio>
#include <cuda_runtime.h>

#define NUM_BLOCKS 20

__device__ int *dataptr[NUM_BLOCKS];

__global__ void alloc_mem()
{
    if (threadIdx.x == 0)
        dataptr[blockIdx.x] = (int *)malloc(blockDim.x * 4);
    __syncthreads();
    if (dataptr[blockIdx.x] == NULL)
        return;
    dataptr[blockIdx.x][threadIdx.x] = 0;
}

__global__ void use_mem()
{
    int *ptr = dataptr[blockIdx.x];
    if (ptr != NULL)
        ptr[threadIdx.x] += threadIdx.x;
}

__global__ void free_mem(int *sums)
{
    int *ptr = dataptr[blockIdx.x];
    if (ptr != NULL && threadIdx.x == 0) {
        int s = 0;
        for (unsigned i = 0; i < blockDim.x; i++)
            s += ptr[i];
        sums[blockIdx.x] = s;
        free(ptr);
    }
}

__global__ void too_big(int *ok)
{
    void *p = malloc(256 << 20);
    *ok = p == NULL;
    void *q = malloc(1 << 20);
    ok[1] = q != NULL;
    free(q);
}

int main()
{
    cudaDeviceSetLimit(cudaLimitMallocHeapSize, 128 * 1024 * 1024);
    size_t heap = 0;
    cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
    printf("heap %zu\n", heap);
    int *sums;
    cudaMalloc(&sums, NUM_BLOCKS * sizeof(int));
    cudaMemset(sums, 0xff, NUM_BLOCKS * sizeof(int));
    alloc_mem<<<NUM_BLOCKS, 10>>>();
    for (int i = 0; i < 3; i++)
        use_mem<<<NUM_BLOCKS, 10>>>();
    free_mem<<<NUM_BLOCKS, 10>>>(sums);
    int h[NUM_BLOCKS];
    cudaMemcpy(h, sums, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < NUM_BLOCKS; i++)
        printf("%d%c", h[i], i + 1 < NUM_BLOCKS ? ' ' : '\n');
    too_big<<<1, 1>>>(sums);
    cudaMemcpy(h, sums, 2 * sizeof(int), cudaMemcpyDeviceToHost);
    printf("too big -> NULL: %d, 1 MiB ok: %d\n", h[0], h[1]);
    // Changing the heap size after the first launch is refused.
    cudaError_t e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20);
    printf("resize after launch: %s\n", cudaGetErrorName(e));
    cudaFree(sums);
    return 0;
}
