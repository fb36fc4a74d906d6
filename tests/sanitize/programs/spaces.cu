// spaces.cu MODE: out-of-bounds accesses to module variables, kernel parameters,
// shared memory (static, dynamic) and local memory.
//  1  a write one int past `__device__ int table[10]`
//  2  a read one int before `__device__ int table[10]`
//  3  a char write at index 13 of `__device__ char name[13]`
//  4  a read of `__constant__ int coef[8]` at index 8
//  5  a read past a struct parameter (index 4 of int[4])
//  6  a write one int past `__shared__ int tile[32]`
//  7  a write one int past 40 bytes of dynamic shared memory after 64 static bytes
//  8  a write at index -1 of `__shared__ int tile[32]` in block 1
//  9  a local array written at index 8 of 8 (inside the thread's frame)
// 10  a local array written far past the thread's frame
// 11  a local array read far before the thread's frame
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__device__ int table[10];
__device__ char name[13];
__constant__ int coef[8] = {1, 2, 3, 4, 5, 6, 7, 8};

struct quad {
    int v[4];
};

__global__ void globals(int mode, int at, int *out) {
    if (mode == 1) table[at] = 1;
    if (mode == 2) out[0] = table[at];
    if (mode == 3) name[at] = 'x';
    if (mode == 4) out[0] = coef[at];
}

__global__ void param(quad q, int at, int *out) {
    out[threadIdx.x] = q.v[at + threadIdx.x];
}

__global__ void shared_static(int at, int *out) {
    __shared__ int tile[32];
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0 && (at >= 0 || blockIdx.x == 1)) tile[at] = 5;
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x];
}

__global__ void shared_dyn(int at, int *out) {
    __shared__ int fixed[16];
    extern __shared__ int dyn[];
    fixed[threadIdx.x % 16] = 1;
    dyn[threadIdx.x % 10] = 2;
    __syncthreads();
    if (threadIdx.x == 3) dyn[at] = 3;
    __syncthreads();
    out[threadIdx.x] = fixed[threadIdx.x % 16] + dyn[threadIdx.x % 10];
}

__global__ void local(int at, int *out) {
    volatile int a[8];
    for (int k = 0; k < 8; k++) a[k] = k * threadIdx.x;
    if (threadIdx.x == 1) {
        if (at < 0) out[1] = a[at];
        else a[at] = 9;
    }
    out[threadIdx.x] = a[threadIdx.x % 8];
}

int main(int argc, char **argv) {
    int mode = argc > 1 ? atoi(argv[1]) : 0;
    int *out;
    cudaMalloc(&out, 1024);
    quad q = {{1, 2, 3, 4}};
    switch (mode) {
    case 1: globals<<<1, 1>>>(1, 10, out); break;
    case 2: globals<<<1, 1>>>(2, -1, out); break;
    case 3: globals<<<1, 1>>>(3, 13, out); break;
    case 4: globals<<<1, 1>>>(4, 8, out); break;
    case 5: param<<<1, 1>>>(q, 4, out); break;
    case 6: shared_static<<<1, 32>>>(32, out); break;
    case 7: shared_dyn<<<1, 32, 40>>>(10, out); break;
    case 8: shared_static<<<2, 32>>>(-1, out); break;
    case 9: local<<<1, 4>>>(8, out); break;
    case 10: local<<<1, 4>>>(1 << 24, out); break;
    case 11: local<<<1, 4>>>(-(1 << 24), out); break;
    default: globals<<<1, 1>>>(1, 3, out); break;
    }
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    cudaFree(out);
    return 0;
}
