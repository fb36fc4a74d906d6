// Whole program: device and constant symbols. cudaMemcpyToSymbol /
// FromSymbol with offsets, cudaGetSymbolAddress and cudaGetSymbolSize, a
// kernel reading __constant__ tables and updating a __device__ variable, and
// static initializers seen by the host before any write.
#include <cstdio>
#include <cuda_runtime.h>

__constant__ float coeffs[8];
__constant__ int bias = 5;
__device__ int counter = 100;
__device__ float table[16] = {1, 2, 3, 4};

__global__ void poly(const float *x, float *y, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc = 0.0f;
    for (int k = 7; k >= 0; k--)
        acc = acc * x[i] + coeffs[k];
    y[i] = acc + (float)bias + table[i & 15];
    atomicAdd(&counter, 1);
}

int main()
{
    int c0 = -1, b0 = -1;
    float t0[16];
    cudaMemcpyFromSymbol(&c0, counter, sizeof c0);
    cudaMemcpyFromSymbol(&b0, bias, sizeof b0);
    cudaMemcpyFromSymbol(t0, table, sizeof t0);
    printf("initial: counter %d bias %d table %g %g %g %g %g\n", c0, b0, t0[0], t0[1], t0[2], t0[3], t0[4]);
    float h[8] = {1, 0.5f, 0.25f, 0.125f, 0, 0, 0, 0.001f};
    cudaMemcpyToSymbol(coeffs, h, sizeof h);
    float two = 2.0f;
    cudaMemcpyToSymbol(coeffs, &two, sizeof two, 4 * sizeof(float));   // coeffs[4] = 2
    float extra[2] = {-10.0f, 10.0f};
    cudaMemcpyToSymbol(table, extra, sizeof extra, 14 * sizeof(float));
    size_t size = 0;
    void *addr = nullptr;
    cudaGetSymbolSize(&size, table);
    cudaGetSymbolAddress(&addr, counter);
    printf("sizeof table %zu, counter address is set: %d\n", size, addr != nullptr);
    const unsigned n = 64;
    float hx[n], hy[n];
    for (unsigned i = 0; i < n; i++)
        hx[i] = (float)i / 16.0f - 2.0f;
    float *x, *y;
    cudaMalloc(&x, sizeof hx);
    cudaMalloc(&y, sizeof hy);
    cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
    poly<<<2, 32>>>(x, y, n);
    cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
    for (unsigned i = 0; i < n; i += 8)
        printf("y[%u] = %.6f\n", i, hy[i]);
    int c1;
    cudaMemcpy(&c1, addr, sizeof c1, cudaMemcpyDeviceToHost);   // through the symbol's address
    printf("counter after: %d\n", c1);
    cudaError_t e = cudaMemcpyToSymbol(coeffs, h, sizeof h, 4 * sizeof(float));  // past the end
    printf("overrun copy: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    cudaFree(x);
    cudaFree(y);
    return 0;
}
