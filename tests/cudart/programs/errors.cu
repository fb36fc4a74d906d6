// errors.cu — errors that are not sticky: bad launch configurations, too much shared
// memory and the opt-in, unknown kernels, names and messages of error codes, and how
// cudaGetLastError / cudaPeekAtLastError report and clear them.
#include "check.h"

__global__ void k(int *p) { if (p) p[threadIdx.x] = threadIdx.x; }

extern __shared__ int dyn[];
__global__ void uses_dyn(int *p, int n) {
    for (int i = threadIdx.x; i < n; i += blockDim.x) dyn[i] = i;
    __syncthreads();
    if (threadIdx.x == 0) p[0] = dyn[n - 1];
}

__global__ void __launch_bounds__(64) bounded(int *p) { p[threadIdx.x] = 1; }

int main() {
    int *d;
    CHECK(cudaMalloc(&d, 1 << 20));
    SHOW(cudaGetLastError());
    k<<<1, 2048>>>(d);
    SHOW(cudaPeekAtLastError());
    SHOW(cudaPeekAtLastError());
    SHOW(cudaGetLastError());
    SHOW(cudaGetLastError());
    k<<<0, 32>>>(d);
    SHOW(cudaGetLastError());
    k<<<dim3(1, 70000), 32>>>(d);
    SHOW(cudaGetLastError());
    k<<<1, dim3(32, 32, 2)>>>(d);
    SHOW(cudaGetLastError());
    k<<<1, dim3(1, 1, 128)>>>(d);
    SHOW(cudaGetLastError());
    bounded<<<1, 128>>>(d);
    SHOW(cudaGetLastError());
    bounded<<<1, 64>>>(d);
    SHOW(cudaGetLastError());

    const int big = 60 * 1024;
    uses_dyn<<<1, 256, big>>>(d, big / 4);
    SHOW(cudaGetLastError());
    SHOW(cudaFuncSetAttribute(uses_dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, big));
    uses_dyn<<<1, 256, big>>>(d, big / 4);
    SHOW(cudaGetLastError());
    int r = 0;
    SHOW(cudaMemcpy(&r, d, 4, cudaMemcpyDeviceToHost));
    printf("dyn[last]=%d\n", r);
    SHOW(cudaFuncSetAttribute(uses_dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, 300 * 1024));
    uses_dyn<<<1, 256, 240 * 1024>>>(d, 16);
    SHOW(cudaGetLastError());

    void *args[] = {&d};
    SHOW(cudaLaunchKernel((const void *)&main, dim3(1), dim3(1), args, 0, 0));
    SHOW(cudaGetLastError());
    SHOW(cudaSetDevice(1));
    SHOW(cudaSetDevice(0));
    SHOW(cudaDeviceSynchronize());

    const cudaError_t codes[] = {cudaSuccess, cudaErrorInvalidValue, cudaErrorMemoryAllocation,
                                 cudaErrorInvalidConfiguration, cudaErrorInvalidDeviceFunction,
                                 cudaErrorNoKernelImageForDevice, cudaErrorIllegalAddress,
                                 cudaErrorAssert, cudaErrorLaunchFailure, cudaErrorNotSupported,
                                 (cudaError_t)12345};
    for (cudaError_t c : codes) printf("%d %s: %s\n", (int)c, cudaGetErrorName(c), cudaGetErrorString(c));
    fprintf(stderr, "done with %s\n", cudaGetErrorName(cudaGetLastError()));
    SHOW(cudaFree(d));
    return 3;
}
