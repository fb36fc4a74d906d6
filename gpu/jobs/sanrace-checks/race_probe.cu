// race_probe.cu: one kernel per question about racecheck's rules (recorded with
// every report mode and detect level to learn how hazards are counted).
#include <cstdio>
#include <cuda_runtime.h>

// 1. all 64 threads store the same value to one word
__global__ void same_value(int *out) {
    __shared__ int flag;
    flag = 1;
    __syncthreads();
    out[threadIdx.x] = flag;
}
// 2. one byte: thread 0 writes, thread 32 reads (different warps), no barrier
__global__ void one_byte(int *out) {
    __shared__ char c[4];
    if (threadIdx.x == 0) c[0] = 7;
    if (threadIdx.x == 32) out[0] = c[0];
}
// 3. one word: thread 0 writes, thread 33 reads
__global__ void one_word(int *out) {
    __shared__ int x;
    if (threadIdx.x == 0) x = 7;
    if (threadIdx.x == 33) out[0] = x;
}
// 4. one warp, every lane stores its id to one word
__global__ void warp_waw(int *out) {
    __shared__ int x;
    x = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = x;
}
// 5. one warp, neighbour exchange ordered by __syncwarp (expected clean)
__global__ void warp_synced(int *out) {
    __shared__ int s[32];
    s[threadIdx.x] = threadIdx.x;
    __syncwarp();
    out[threadIdx.x] = s[(threadIdx.x + 1) % 32];
}
// 6. one warp, neighbour exchange with only a __shfl_sync in between
__global__ void warp_shfl(int *out) {
    __shared__ int s[32];
    s[threadIdx.x] = threadIdx.x;
    int k = __shfl_sync(0xffffffffu, (int)threadIdx.x, 0);
    out[threadIdx.x] = s[(threadIdx.x + 1) % 32] + k;
}
// 7. shared atomics by all, then a plain read by thread 0 without barrier
__global__ void atomic_then_read(int *out) {
    __shared__ int n;
    if (threadIdx.x == 0) n = 0;
    __syncthreads();
    atomicAdd(&n, 1);
    if (threadIdx.x == 0) out[0] = n;
}
// 8. 8-byte accesses: thread 0 writes a double, thread 32 reads it
__global__ void one_double(double *out) {
    __shared__ double d;
    if (threadIdx.x == 0) d = 1.5;
    if (threadIdx.x == 32) out[0] = d;
}
// 9. read-read only (expected clean) and a write by thread 40 to another word
__global__ void reads_only(int *out) {
    __shared__ int s[64];
    s[threadIdx.x] = 1;
    __syncthreads();
    out[threadIdx.x] = s[0] + s[1];
}
// 10. one warp of 32 lanes, half the lanes write s[l], the other half read s[l-16]
__global__ void half_warp(int *out) {
    __shared__ int s[16];
    int l = threadIdx.x;
    if (l < 16) s[l] = l;
    else out[l] = s[l - 16];
}

int main() {
    int *out;
    double *dout;
    cudaMalloc(&out, 256 * sizeof(int));
    cudaMalloc(&dout, 8);
    same_value<<<1, 64>>>(out); cudaDeviceSynchronize(); printf("1 same_value\n"); fflush(stdout);
    one_byte<<<1, 64>>>(out); cudaDeviceSynchronize(); printf("2 one_byte\n"); fflush(stdout);
    one_word<<<1, 64>>>(out); cudaDeviceSynchronize(); printf("3 one_word\n"); fflush(stdout);
    warp_waw<<<1, 32>>>(out); cudaDeviceSynchronize(); printf("4 warp_waw\n"); fflush(stdout);
    warp_synced<<<1, 32>>>(out); cudaDeviceSynchronize(); printf("5 warp_synced\n"); fflush(stdout);
    warp_shfl<<<1, 32>>>(out); cudaDeviceSynchronize(); printf("6 warp_shfl\n"); fflush(stdout);
    atomic_then_read<<<1, 64>>>(out); cudaDeviceSynchronize(); printf("7 atomic_then_read\n"); fflush(stdout);
    one_double<<<1, 64>>>(dout); cudaDeviceSynchronize(); printf("8 one_double\n"); fflush(stdout);
    reads_only<<<1, 64>>>(out); cudaDeviceSynchronize(); printf("9 reads_only\n"); fflush(stdout);
    half_warp<<<1, 32>>>(out); cudaDeviceSynchronize(); printf("10 half_warp\n"); fflush(stdout);
    return 0;
}
