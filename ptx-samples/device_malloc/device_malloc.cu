// Device-side malloc/free, after the CUDA guide's examples: per-thread
// allocations, a per-block allocation shared through shared memory, and a
// request larger than the heap, which returns NULL. Pointer values differ run
// to run, so only their properties are recorded. (__nv_aligned_device_malloc
// has its own sample, aligned_malloc: it needs a second extern in the PTX.)
#include <cstdint>

extern "C" __global__ void per_thread(unsigned *out)
{
    unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
    size_t size = 16 + id % 7 * 24;
    unsigned *p = (unsigned *)malloc(size);
    unsigned ok = p != nullptr;
    ok |= ((uintptr_t)p % 16 == 0) << 1;
    ok |= __isGlobal(p) << 2;
    if (p) {
        for (unsigned i = 0; i < size / 4; i++)
            p[i] = id * 1000 + i;
    }
    __syncthreads();
    unsigned sum = 0;
    if (p) {
        for (unsigned i = 0; i < size / 4; i++)
            sum += p[i];
        free(p);
    }
    out[2 * id] = ok;
    out[2 * id + 1] = sum;
}

extern "C" __global__ void per_block(unsigned *out)
{
    __shared__ int *data;
    if (threadIdx.x == 0)
        data = (int *)malloc(blockDim.x * 64 * sizeof(int));
    __syncthreads();
    if (data == nullptr)
        return;
    int *ptr = data;
    for (int i = 0; i < 64; ++i)
        ptr[i * blockDim.x + threadIdx.x] = threadIdx.x + i;
    __syncthreads();
    unsigned s = 0;
    for (int i = 0; i < 64; ++i)
        s += ptr[i * blockDim.x + (threadIdx.x + 1) % blockDim.x] * (i + 1);
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.x == 0)
        free(data);
}

extern "C" __global__ void limits(unsigned long long *out)
{
    void *big = malloc(64u << 20);                 // larger than the default 8 MiB heap
    out[0] = big == nullptr;
    void *zero = malloc(0);
    out[1] = 7;                                    // malloc(0): NULL or a valid pointer; only freed
    free(zero);
    free(nullptr);                                 // no-op
    void *p = malloc(100);
    out[2] = p != nullptr;
    out[3] = (uintptr_t)p % 16;
    free(p);
    // Many small blocks fit; their count shows the heap holds at least 4 MiB.
    unsigned n = 0;
    void *keep[64];
    for (int i = 0; i < 64; i++) {
        keep[i] = malloc(64 << 10);
        n += keep[i] != nullptr;
    }
    for (int i = 0; i < 64; i++)
        free(keep[i]);
    out[4] = n;
}
