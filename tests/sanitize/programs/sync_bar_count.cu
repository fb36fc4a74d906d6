// sync_bar_count.cu: two warps meet at named barrier 1, but one says 64 threads
// and the other 96.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void counts(int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    if (t < 32) asm volatile("bar.sync 1, 64;" ::: "memory");
    else asm volatile("bar.sync 1, 96;" ::: "memory");
    out[t] = s[63 - t];
}

int main() {
    int *out;
    cudaMalloc(&out, 64 * sizeof(int));
    counts<<<1, 64>>>(out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    return 0;
}
