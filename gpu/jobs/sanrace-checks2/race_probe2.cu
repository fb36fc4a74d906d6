// race_probe2.cu: more of racecheck's counting rules, one kernel each.
#include <cstdio>
#include <cuda_runtime.h>

// a. thread 0 stores a word, then every thread of two warps reads it (no barrier)
__global__ void broadcast(const int *in, int *out) {
    __shared__ int x;
    if (threadIdx.x == 0) x = in[0] + 5;
    out[threadIdx.x] = x;
}
// b. every thread of two warps reads a word, then thread 63 stores it
__global__ void readers_then_writer(const int *in, int *out) {
    __shared__ int x;
    if (threadIdx.x == 0) x = in[1];
    __syncthreads();
    int v = x;
    out[threadIdx.x] = v;
    if (threadIdx.x == 63) x = v + 9;
}
// c. four threads store bytes, thread 40 reads them as one word
__global__ void bytes_word(const int *in, int *out) {
    __shared__ int w;
    unsigned char *c = (unsigned char *)&w;
    if (threadIdx.x < 4) c[threadIdx.x] = (unsigned char)(in[2] + threadIdx.x + 1);
    if (threadIdx.x == 40) out[0] = w;
}
// d. lanes 0 and 1 of one warp store to one word from two instructions
__global__ void warp_two_stores(const int *in, int *out) {
    __shared__ int x;
    if (threadIdx.x == 0) x = in[3] + 1;
    else if (threadIdx.x == 1) x = in[3] + 0x1020304;
    __syncthreads();
    out[threadIdx.x] = x;
}
// e. threads 0 and 32 store different values to one word from two instructions
__global__ void warps_two_stores(const int *in, int *out) {
    __shared__ int x;
    if (threadIdx.x == 0) x = in[4] + 0x10000;
    else if (threadIdx.x == 32) x = in[4] + 0x2000000;
    __syncthreads();
    out[threadIdx.x] = x;
}
// f. a write and a read through a generic pointer into shared memory
__global__ void generic_ptr(const int *in, int *out) {
    __shared__ int s[64];
    int *p = in[5] ? (int *)out : s;
    p[threadIdx.x] = threadIdx.x;
    out[threadIdx.x] = p[63 - threadIdx.x];
}

int main() {
    int *in, *out;
    cudaMalloc(&in, 64 * sizeof(int));
    cudaMalloc(&out, 64 * sizeof(int));
    cudaMemset(in, 0, 64 * sizeof(int));
    broadcast<<<1, 64>>>(in, out); cudaDeviceSynchronize(); printf("a broadcast\n"); fflush(stdout);
    readers_then_writer<<<1, 64>>>(in, out); cudaDeviceSynchronize(); printf("b readers_then_writer\n"); fflush(stdout);
    bytes_word<<<1, 64>>>(in, out); cudaDeviceSynchronize(); printf("c bytes_word\n"); fflush(stdout);
    warp_two_stores<<<1, 32>>>(in, out); cudaDeviceSynchronize(); printf("d warp_two_stores\n"); fflush(stdout);
    warps_two_stores<<<1, 64>>>(in, out); cudaDeviceSynchronize(); printf("e warps_two_stores\n"); fflush(stdout);
    generic_ptr<<<1, 64>>>(in, out); cudaDeviceSynchronize(); printf("f generic_ptr\n"); fflush(stdout);
    return 0;
}
