// Whole program: the runtime's error codes for bad requests that leave the
// context usable: invalid launch configurations (too many threads, a zero or
// oversized grid, too much shared memory, a block over __launch_bounds__),
// bad copies and frees, and the get/peek behaviour of the last error.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void k(int *p)
{
    if (p)
        p[threadIdx.x] = threadIdx.x;
}

__global__ void __launch_bounds__(64) bounded(int *p)
{
    p[threadIdx.x] = 1;
}

__global__ void dyn(int *p)
{
    extern __shared__ int s[];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    p[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}

#define REPORT(what) report(what, cudaGetLastError())
static void report(const char *what, cudaError_t e)
{
    printf("%-28s %s\n", what, cudaGetErrorName(e));
}

int main()
{
    int *d;
    cudaMalloc(&d, 4096 * sizeof(int));
    k<<<1, 1025>>>(d);
    REPORT("block of 1025");
    k<<<1, dim3(32, 32, 2)>>>(d);
    REPORT("block 32x32x2");
    k<<<1, dim3(1, 1, 65)>>>(d);
    REPORT("block z 65");
    k<<<0, 32>>>(d);
    REPORT("grid of 0");
    k<<<dim3(1, 65536), 32>>>(nullptr);
    REPORT("grid y 65536");
    k<<<dim3(1u << 31, 1), 32>>>(nullptr);
    REPORT("grid x 2^31");
    bounded<<<1, 128>>>(d);
    REPORT("over launch bounds");
    dyn<<<1, 32, 200 * 1024>>>(d);
    REPORT("200 KiB dynamic shared");
    dyn<<<1, 32, 64 * 1024>>>(d);
    REPORT("64 KiB without opt-in");
    cudaFuncSetAttribute(dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
    dyn<<<1, 32, 64 * 1024>>>(d);
    REPORT("64 KiB with opt-in");
    cudaDeviceSynchronize();
    REPORT("sync");
    k<<<1, 32>>>(d);
    REPORT("good launch");
    int h[32];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("h[31] = %d\n", h[31]);
    report("copy past allocation", cudaMemcpy(h, d + 4090, sizeof h, cudaMemcpyDeviceToHost));
    REPORT("(last error after it)");
    report("free of a bad pointer", cudaFree((void *)0x1234));
    report("double free", (cudaFree(d), cudaFree(d)));
    REPORT("(last error)");
    report("huge malloc", cudaMalloc(&d, (size_t)1 << 50));
    report("peek", cudaPeekAtLastError());
    report("get", cudaGetLastError());
    report("get again", cudaGetLastError());
    report("memset null", cudaMemset(nullptr, 0, 16));
    printf("string: %s\n", cudaGetErrorString(cudaErrorInvalidConfiguration));
    report("set device 99", cudaSetDevice(99));
    cudaGetLastError();
    int n = -1;
    cudaGetDeviceCount(&n);
    printf("devices >= 1: %d\n", n >= 1);
    report("final sync", cudaDeviceSynchronize());
    return 0;
}
