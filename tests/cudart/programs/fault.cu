// fault.cu — a sticky error: a kernel that writes through a bad pointer. The launch
// itself succeeds; the next synchronizing call reports cudaErrorIllegalAddress, every
// later call repeats it, and cudaDeviceReset brings the device back.
#include "check.h"

__global__ void wild(int *p) { p[threadIdx.x] = 1; }
__global__ void good(int *p) { p[threadIdx.x] = threadIdx.x + 1; }

int main() {
    int *d;
    CHECK(cudaMalloc(&d, 256));
    good<<<1, 32>>>(d);
    SHOW(cudaDeviceSynchronize());
    wild<<<1, 32>>>((int *)0x10);
    SHOW(cudaDeviceSynchronize());
    SHOW(cudaGetLastError());
    SHOW(cudaGetLastError());
    SHOW(cudaPeekAtLastError());
    int *e;
    SHOW(cudaMalloc(&e, 16));
    int h = 0;
    SHOW(cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost));
    good<<<1, 32>>>(d);
    SHOW(cudaGetLastError());
    SHOW(cudaDeviceReset());
    SHOW(cudaGetLastError());
    SHOW(cudaMalloc(&d, 256));
    good<<<1, 32>>>(d);
    SHOW(cudaMemcpy(&h, d + 5, 4, cudaMemcpyDeviceToHost));
    printf("after reset d[5]=%d\n", h);
    SHOW(cudaFree(d));
    return 0;
}
