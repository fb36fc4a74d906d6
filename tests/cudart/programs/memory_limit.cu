// memory_limit.cu — asks for $ASK bytes of device memory and fills them, then for half
// of what cudaMemGetInfo called free: an allocation the device cannot hold must come back
// as cudaErrorMemoryAllocation, and the program must live on to make the second one.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

int main() {
    const char *ask = getenv("ASK");
    size_t want = ask ? strtoull(ask, nullptr, 10) : 0;
    size_t free_b = 0, total = 0;
    cudaError_t e = cudaMemGetInfo(&free_b, &total);
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    printf("cudaMemGetInfo -> %s, total %zu, totalGlobalMem %zu, free <= total %d\n", cudaGetErrorName(e), total,
           p.totalGlobalMem, free_b <= total);
    for (size_t n : {want, free_b / 2}) {
        void *d = nullptr;
        e = cudaMalloc(&d, n);
        printf("cudaMalloc(%zu) -> %s\n", n, cudaGetErrorName(e));
        if (e != cudaSuccess) {
            printf("cudaGetLastError -> %s\n", cudaGetErrorName(cudaGetLastError()));
            continue;
        }
        printf("cudaMemset -> %s\n", cudaGetErrorName(cudaMemset(d, 1, n)));
        printf("cudaFree -> %s\n", cudaGetErrorName(cudaFree(d)));
    }
    return 0;
}
