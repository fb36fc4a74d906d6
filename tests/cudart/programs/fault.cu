// fault.cu — a sticky error: a kernel that writes through a bad pointer. The launch
// itself succeeds; the next synchronizing call reports cudaErrorIllegalAddress, every
// later call repeats it (cudaGetLastError still clears its own copy) until cudaDeviceReset.
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
    return 0;
}
