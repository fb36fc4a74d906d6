// ctx_runtime.cu — the runtime works in the context the driver made current: after
// cuCtxCreate, cudaMalloc'd memory, runtime streams and kernels belong to that
// context, and driver launches may use runtime streams and memory (as NVIDIA's
// simpleDrvRuntime sample does); once the context is popped the runtime goes back
// to the primary context.
#include <cuda.h>
#include "check.h"

__global__ void add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int main() {
    DRV(cuInit(0));
    CUdevice dev;
    DRV(cuDeviceGet(&dev, 0));
    CUcontext ctx = 0, primary = 0, cur = 0;
    CUctxCreateParams params = {};
    DRV(cuCtxCreate(&ctx, &params, 0, dev));
    DRV(cuCtxGetCurrent(&cur));
    printf("current is the created context: %d\n", (int)(cur == ctx));

    const int n = 1000;
    float *a, *b, *c;
    CHECK(cudaMalloc(&a, n * sizeof(float)));
    CHECK(cudaMalloc(&b, n * sizeof(float)));
    CHECK(cudaMalloc(&c, n * sizeof(float)));
    CUcontext owner = 0;
    DRV(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)a));
    printf("cudaMalloc'd memory belongs to it: %d\n", (int)(owner == ctx));
    DRV(cuCtxGetCurrent(&cur));
    printf("still current after runtime calls: %d\n", (int)(cur == ctx));

    float h[n];
    for (int i = 0; i < n; i++) h[i] = (float)i;
    CHECK(cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, h, sizeof h, cudaMemcpyHostToDevice));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CUcontext sctx = 0;
    DRV(cuStreamGetCtx((CUstream)s, &sctx));
    printf("runtime stream belongs to it: %d\n", (int)(sctx == ctx));
    add<<<(n + 255) / 256, 256, 0, s>>>(a, b, c, n);
    SHOW(cudaGetLastError());
    SHOW(cudaStreamSynchronize(s));
    float r[n];
    CHECK(cudaMemcpy(r, c, sizeof r, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) bad += r[i] != 2.0f * i;
    printf("runtime kernel in the created context: %d wrong\n", bad);

    // the runtime's kernel through the driver: cudaGetFuncBySymbol
    cudaFunction_t f;
    SHOW(cudaGetFuncBySymbol(&f, (const void *)add));
    CHECK(cudaMemset(c, 0, n * sizeof(float)));
    int nn = n;
    void *args[] = {&a, &a, &c, &nn};
    DRV(cuLaunchKernel((CUfunction)f, (n + 255) / 256, 1, 1, 256, 1, 1, 0, (CUstream)s, args, NULL));
    DRV(cuStreamSynchronize((CUstream)s));
    CHECK(cudaMemcpy(r, c, sizeof r, cudaMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < n; i++) bad += r[i] != 2.0f * i;
    printf("driver launch on a runtime stream: %d wrong\n", bad);
    CHECK(cudaStreamDestroy(s));

    // back to the primary context
    DRV(cuCtxPopCurrent(&cur));
    printf("popped the created context: %d\n", (int)(cur == ctx));
    float *p;
    CHECK(cudaMalloc(&p, 64));
    DRV(cuDevicePrimaryCtxRetain(&primary, dev));
    DRV(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)p));
    printf("then cudaMalloc'd memory belongs to the primary context: %d\n", (int)(owner == primary));
    DRV(cuCtxGetCurrent(&cur));
    printf("current is the primary context: %d\n", (int)(cur == primary));
    CHECK(cudaFree(p));
    DRV(cuDevicePrimaryCtxRelease(dev));

    DRV(cuCtxPushCurrent(ctx));
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
    DRV(cuCtxDestroy(ctx));
    printf("done\n");
    return 0;
}
