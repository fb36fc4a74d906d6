// initcheck.cu MODE: reads of global memory nothing wrote (initcheck), one kind per MODE.
//  1  a kernel reads a cudaMalloc'd buffer nothing wrote
//  2  half of a buffer memset, threads read across the boundary
//  3  a kernel writes bytes 0..5, the next reads the int at byte 4 (bytes 6, 7 unwritten)
//  4  a partial cudaMemcpy to the device, a read past the copied part (8 bytes)
//  5  cudaMemcpy back to the host from a buffer nothing wrote (host API)
//  6  a device-to-device copy from a buffer nothing wrote, then a kernel reads the copy
//  7  clean: a kernel, a memset and a copy write everything read
//  8  256 threads read unwritten words (how many records are printed)
//  9  a block from device malloc read before it is written
// 10  atomicAdd on a word nothing wrote
// 11  clean: a kernel reads `__device__ int table[4]` nothing wrote (zeroed at load)
// 12  a kernel reads cudaMallocManaged memory nothing wrote
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void load(const int *in, int *out, int off) {
    int i = threadIdx.x;
    out[i] = in[i + off];
}

__global__ void bytes(char *p, int n) {
    for (int k = 0; k < n; k++) p[k] = (char)k;
}

__global__ void word_at(const char *p, int *out) {
    out[0] = *(const int *)(p + 4);
}

__global__ void dword(const long long *p, long long *out, int at) {
    out[0] = p[at];
}

__global__ void fill(int *p) {
    p[threadIdx.x] = threadIdx.x;
}

__global__ void heap_read(int *out) {
    volatile int *p = (int *)malloc(64);
    if (!p) return;
    out[threadIdx.x] = p[threadIdx.x];
    free((void *)p);
}

__device__ int table[4];

__global__ void count(int *p) {
    atomicAdd(p + 3, 1);
}

__global__ void from_table(int *out) {
    out[threadIdx.x] = table[threadIdx.x];
}

int main(int argc, char **argv) {
    int mode = argc > 1 ? atoi(argv[1]) : 7;
    int *a, *out;
    cudaMalloc(&a, 4096);
    cudaMalloc(&out, 4096);
    cudaMemset(out, 0, 4096);
    switch (mode) {
    case 1: load<<<1, 1>>>(a, out, 5); break;
    case 2:
        cudaMemset(a, 0, 256);
        load<<<1, 8>>>(a, out, 60);
        break;
    case 3:
        bytes<<<1, 1>>>((char *)a, 6);
        word_at<<<1, 1>>>((const char *)a, out);
        break;
    case 4: {
        long long h[4] = {1, 2, 3, 4};
        cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
        dword<<<1, 1>>>((const long long *)a, (long long *)out, 4);
        break;
    }
    case 5: {
        int h[16];
        cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost);
        break;
    }
    case 6:
        cudaMemcpy(out, a, 64, cudaMemcpyDeviceToDevice);
        load<<<1, 1>>>(out, out + 512, 2);
        break;
    case 7: {
        int h[32] = {0};
        fill<<<1, 32>>>(a);
        cudaMemset(a + 32, 1, 128);
        cudaMemcpy(a + 64, h, sizeof h, cudaMemcpyHostToDevice);
        load<<<1, 96>>>(a, out, 0);
        cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost);
        break;
    }
    case 8: load<<<1, 256>>>(a, out, 0); break;
    case 9: heap_read<<<1, 2>>>(out); break;
    case 10: count<<<1, 1>>>(a); break;
    case 11: from_table<<<1, 4>>>(out); break;
    case 12: {
        int *m;
        cudaMallocManaged(&m, 256);
        load<<<1, 1>>>(m, out, 1);
        cudaDeviceSynchronize();
        cudaFree(m);
        break;
    }
    }
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    cudaFree(a);
    cudaFree(out);
    return 0;
}
