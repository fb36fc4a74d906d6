// Whole program: managed memory (cudaMallocManaged and __managed__ variables)
// touched by host and device in turn, with prefetch and memadvise calls that
// must not change results, and cudaPointerGetAttributes on each kind of
// pointer.
#include <cstdio>
#include <cuda_runtime.h>

__device__ __managed__ int ticks = 0;

__global__ void step(int *v, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v[i] * 2 + (int)i;
    if (i == 0)
        ticks++;
}

static const char *kind(cudaMemoryType t)
{
    switch (t) {
    case cudaMemoryTypeUnregistered: return "unregistered";
    case cudaMemoryTypeHost: return "host";
    case cudaMemoryTypeDevice: return "device";
    case cudaMemoryTypeManaged: return "managed";
    }
    return "?";
}

int main()
{
    const unsigned n = 1000;
    int *v;
    cudaMallocManaged(&v, n * sizeof(int));
    for (unsigned i = 0; i < n; i++)
        v[i] = (int)i % 10;
    int dev = 0;
    cudaGetDevice(&dev);
    for (int round = 0; round < 3; round++) {
        step<<<(n + 127) / 128, 128>>>(v, n);
        cudaDeviceSynchronize();
        long long s = 0;
        for (unsigned i = 0; i < n; i++)
            s += v[i];
        printf("round %d: v[0]=%d v[999]=%d sum=%lld ticks=%d\n", round, v[0], v[n - 1], s, ticks);
        v[5] = -1000;                      // host writes between launches
    }
    cudaMemAdvise(v, n * sizeof(int), cudaMemAdviseSetReadMostly, cudaMemLocation{cudaMemLocationTypeDevice, dev});
    cudaMemPrefetchAsync(v, n * sizeof(int), cudaMemLocation{cudaMemLocationTypeDevice, dev}, 0, 0);
    step<<<(n + 127) / 128, 128>>>(v, n);
    cudaDeviceSynchronize();
    printf("after advise/prefetch: v[5]=%d ticks=%d\n", v[5], ticks);
    int *d, *h;
    cudaMalloc(&d, 16);
    cudaMallocHost(&h, 16);
    int plain[4];
    void *ptrs[] = {v, d, h, plain};
    for (int i = 0; i < 4; i++) {
        cudaPointerAttributes a;
        cudaError_t e = cudaPointerGetAttributes(&a, ptrs[i]);
        printf("pointer %d: %s %s\n", i, cudaGetErrorName(e), kind(a.type));
    }
    cudaFree(v);
    cudaFree(d);
    cudaFreeHost(h);
    return 0;
}
