// ctx_managed_reset.cu — a __managed__ variable used by kernels of the primary context and of a
// context made with cuCtxCreate, before and after cudaDeviceReset resets the primary context:
// what the host reads through the variable after each kernel (on a GPU the variable keeps its
// value through the reset and stays shared), and a __device__ variable of each context (the
// created context's keeps its value; the primary's starts again from its initializer).
#include <cuda.h>
#include "check.h"

__managed__ int m = 7;

__device__ int d = 5;

__global__ void bump(int by) {
    m += by;
    d += by;
}

static int dev_d() {
    int v = -1;
    SHOW(cudaMemcpyFromSymbol(&v, d, sizeof v));
    return v;
}

int main() {
    DRV(cuInit(0));
    CUdevice dev;
    DRV(cuDeviceGet(&dev, 0));
    bump<<<1, 1>>>(10);
    SHOW(cudaDeviceSynchronize());
    printf("primary kernel: %d\n", m);

    CUcontext ctx = 0, cur = 0;
    CUctxCreateParams params = {};
    DRV(cuCtxCreate(&ctx, &params, 0, dev));
    bump<<<1, 1>>>(100);
    SHOW(cudaDeviceSynchronize());
    printf("created context's kernel: %d, __device__ %d\n", m, dev_d());
    m = 1000;
    bump<<<1, 1>>>(1);
    SHOW(cudaDeviceSynchronize());
    printf("host write, then the created context's kernel: %d\n", m);
    DRV(cuCtxPopCurrent(&cur));

    SHOW(cudaDeviceReset());
    bump<<<1, 1>>>(0);
    SHOW(cudaDeviceSynchronize());
    printf("after the reset, primary: %d, __device__ %d\n", m, dev_d());
    m = 50;
    bump<<<1, 1>>>(2);
    SHOW(cudaDeviceSynchronize());
    printf("host write, then the primary's kernel: %d\n", m);

    DRV(cuCtxPushCurrent(ctx));
    bump<<<1, 1>>>(20);
    SHOW(cudaGetLastError());
    SHOW(cudaDeviceSynchronize());
    printf("after the reset, created context's kernel: %d, __device__ %d\n", m, dev_d());
    m = 3;
    bump<<<1, 1>>>(4);
    SHOW(cudaDeviceSynchronize());
    printf("host write, then the created context's kernel: %d\n", m);
    DRV(cuCtxPopCurrent(&cur));
    bump<<<1, 1>>>(30);
    SHOW(cudaDeviceSynchronize());
    printf("then the primary's kernel: %d\n", m);
    DRV(cuCtxDestroy(ctx));
    return 0;
}
