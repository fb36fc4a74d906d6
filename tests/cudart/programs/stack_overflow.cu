// stack_overflow.cu — recursion deeper than the per-thread stack: a shallow call
// tree runs, a deep one faults; an H100 reports the overflow as an illegal address
// (sticky), and later calls return the same error.
#include "check.h"

__device__ __noinline__ unsigned deep(unsigned n, unsigned seed) {
    volatile unsigned local[16];   // indexed by data: every frame needs stack memory
    for (int i = 0; i < 16; i++) local[i] = seed * (i + 1) + n;
    unsigned r = n == 0 ? seed : deep(n - 1, seed * 31 + n);
    return r ^ local[(seed + n) & 15];
}

__global__ void run(unsigned depth, unsigned *out) { out[threadIdx.x] = deep(depth, threadIdx.x); }

int main() {
    unsigned *d, h[4];
    CHECK(cudaMalloc(&d, sizeof h));
    run<<<1, 4>>>(3, d);
    SHOW(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("depth 3: %08x %08x %08x %08x\n", h[0], h[1], h[2], h[3]);
    run<<<1, 4>>>(200000, d);
    SHOW(cudaGetLastError());
    SHOW(cudaDeviceSynchronize());
    SHOW(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    SHOW(cudaGetLastError());
    return 0;
}
