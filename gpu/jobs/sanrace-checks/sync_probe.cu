// sync_probe.cu KIND: one synccheck question per run (a kernel that synccheck
// stops may leave the context unusable, so each runs in its own process).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// a: every lane calls __ballot_sync with a mask of lanes 0-15
__global__ void ballot_low(int *out) {
    out[threadIdx.x] = (int)__ballot_sync(0x0000ffffu, threadIdx.x & 1);
}
// b: lanes 16-31 exit, lanes 0-15 call __syncwarp() with the full mask
__global__ void syncwarp_exited(const int *in, int *out) {
    if (in[threadIdx.x]) return;
    out[threadIdx.x] = 1;
    __syncwarp();
    out[threadIdx.x] += 1;
}
// c: every lane calls __shfl_sync with a mask of lanes 0-15
__global__ void shfl_low(int *out) {
    out[threadIdx.x] = __shfl_sync(0x0000ffffu, (int)threadIdx.x, 2);
}
// d: the two halves of the block reach different __syncthreads()
__global__ void two_barriers(int *out) {
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    if (threadIdx.x < 32) {
        __syncthreads();
        out[threadIdx.x] = s[63 - threadIdx.x];
    } else {
        __syncthreads();
        out[threadIdx.x] = -s[63 - threadIdx.x];
    }
}
// e: __match_any_sync and __reduce_add_sync with exited lanes in the mask
__global__ void match_exited(const int *in, int *out) {
    if (in[threadIdx.x]) return;
    unsigned m = __match_any_sync(0xffffffffu, threadIdx.x & 3);
    out[threadIdx.x] = (int)m + (int)__reduce_add_sync(0xffffffffu, threadIdx.x);
}
// f: __syncthreads() reached by lanes 0-15 of each of two warps
__global__ void half_of_each(int *out) {
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    if ((threadIdx.x & 31) < 16) {
        __syncthreads();
        out[threadIdx.x] = s[63 - threadIdx.x];
    }
}
// g: __syncwarp(mask) in a branch that lanes outside the mask also take
__global__ void syncwarp_branch(int *out) {
    if (threadIdx.x < 24) __syncwarp(0x00ffff00u);
    out[threadIdx.x] = 1;
}
// h: bar.sync 1 with 32 threads by both warps of a 64-thread block
__global__ void bar_small(int *out) {
    asm volatile("bar.sync 1, 32;" ::: "memory");
    out[threadIdx.x] = 1;
}

int main(int argc, char **argv) {
    char k = argc > 1 ? argv[1][0] : 'a';
    int *in, *out, h[64];
    cudaMalloc(&in, 64 * sizeof(int));
    cudaMalloc(&out, 64 * sizeof(int));
    for (int j = 0; j < 64; j++) h[j] = (j & 31) >= 16;
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    switch (k) {
    case 'a': ballot_low<<<1, 32>>>(out); break;
    case 'b': syncwarp_exited<<<1, 32>>>(in, out); break;
    case 'c': shfl_low<<<1, 32>>>(out); break;
    case 'd': two_barriers<<<1, 64>>>(out); break;
    case 'e': match_exited<<<1, 32>>>(in, out); break;
    case 'f': half_of_each<<<1, 64>>>(out); break;
    case 'g': syncwarp_branch<<<1, 32>>>(out); break;
    case 'h': bar_small<<<1, 64>>>(out); break;
    }
    cudaError_t e = cudaDeviceSynchronize();
    printf("%c sync: %s\n", k, cudaGetErrorName(e));
    return 0;
}
