// inline.cu MODE: records made inside inlined device functions (-lineinfo code names
// each inlined caller in a Device Frame line).
//  1  memcheck: an out-of-bounds write in a helper inlined two levels deep
//  2  racecheck: a write and a read of shared memory in inlined helpers, no barrier
//  3  memcheck: the same helper inlined at two call sites, each writing out of bounds
//     (threads 0 and 1 of one warp: the GPU stops the warp at the first)
//  4  memcheck: one thread writes out of bounds twice, in two instructions
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__device__ __forceinline__ void store(int *p, int i, int v) {
    p[i] = v;
}

__device__ __forceinline__ void scale_store(int *p, int i, int v) {
    store(p, i + 1, v * 2);
}

__global__ void deep(int *p, int n) {
    int i = threadIdx.x;
    if (i < n) scale_store(p, i, i);
}

__device__ __forceinline__ void put(int *s, int i, int v) {
    s[i] = v;
}

__device__ __forceinline__ int get(const int *s, int i) {
    return s[i];
}

__global__ void shared_race(int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    put(s, t, t * 3);
    out[t] = get(s, 63 - t);
}

__global__ void two_sites(int *p, int n) {
    int i = threadIdx.x;
    if (i == 0) store(p, n, 1);
    if (i == 1) store(p, n + 1, 2);
}

__global__ void twice(int *p, int n) {
    if (threadIdx.x == 0) {
        p[n] = 1;
        p[n + 7] = 2;
    }
}

int main(int argc, char **argv) {
    int mode = argc > 1 ? atoi(argv[1]) : 0;
    int *p;
    cudaMalloc(&p, 256);
    switch (mode) {
    case 1: deep<<<1, 64>>>(p, 64); break;
    case 2: shared_race<<<1, 64>>>(p); break;
    case 3: two_sites<<<1, 32>>>(p, 64); break;
    case 4: twice<<<1, 32>>>(p, 64); break;
    default: deep<<<1, 63>>>(p, 63); break;
    }
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    cudaFree(p);
    return 0;
}
