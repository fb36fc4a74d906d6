// Whole program: the guide's single-pass sum with __threadfence and a ticket
// counter, run several times (the last block resets the counter), and a
// message-passing pair of blocks ordered by fences through volatile memory.
#include <cstdio>
#include <cuda_runtime.h>

#define BLOCK 256
__device__ unsigned int count = 0;

__global__ void sum(const float *x, unsigned n, volatile float *partial, float *result)
{
    __shared__ float s[BLOCK];
    __shared__ bool is_last;
    unsigned t = threadIdx.x, i = blockIdx.x * BLOCK + t;
    s[t] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (unsigned k = BLOCK / 2; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        unsigned v = atomicInc(&count, gridDim.x);
        is_last = v == gridDim.x - 1;
    }
    __syncthreads();
    if (is_last && t == 0) {
        float total = 0;
        for (unsigned b = 0; b < gridDim.x; b++)
            total += partial[b];
        *result = total;
        count = 0;
    }
}

// Block 0 writes data then a flag; block 1 spins on the flag, then reads.
__global__ void message(volatile int *data, volatile int *flag, int *seen)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        data[0] = 123;
        data[1] = 456;
        __threadfence();
        *flag = 1;
    } else {
        while (*flag == 0)
            ;
        __threadfence();
        seen[0] = data[0];
        seen[1] = data[1];
    }
}

int main()
{
    const unsigned n = 100000, blocks = (n + BLOCK - 1) / BLOCK;
    float *hx = new float[n];
    for (unsigned i = 0; i < n; i++)
        hx[i] = (float)(i % 1000) * 0.001f;
    float *x, *partial, *result;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&partial, blocks * sizeof(float));
    cudaMalloc(&result, sizeof(float));
    cudaMemcpy(x, hx, n * sizeof(float), cudaMemcpyHostToDevice);
    for (int run = 0; run < 3; run++) {
        sum<<<blocks, BLOCK>>>(x, n, partial, result);
        float r;
        cudaMemcpy(&r, result, sizeof r, cudaMemcpyDeviceToHost);
        printf("run %d: sum %.3f\n", run, r);
    }
    int *buf;
    cudaMalloc(&buf, 8 * sizeof(int));
    cudaMemset(buf, 0, 8 * sizeof(int));
    message<<<2, 32>>>(buf, buf + 2, buf + 4);
    int h[8];
    cudaMemcpy(h, buf, sizeof h, cudaMemcpyDeviceToHost);
    printf("message: %d %d\n", h[4], h[5]);
    printf("status: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    delete[] hx;
    return 0;
}
