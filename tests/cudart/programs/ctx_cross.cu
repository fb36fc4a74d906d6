// ctx_cross.cu — memory of one context used while another context of the same device
// is current: with unified addressing every context sees every allocation of the
// device, so copies, memsets, pointer attributes, frees and kernels take pointers
// from any context. Also the context stack's edges: popping the primary context
// the runtime made current, and a runtime kernel handle in driver attribute calls.
#include <cuda.h>
#include <cstring>
#include "check.h"

__global__ void twice(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2 * in[i];
}

__managed__ int counter = 5;

__global__ void bump(int by) { counter += by; }

static int wrong(const int *got, const int *want, int n) {
    int bad = 0;
    for (int i = 0; i < n; i++) bad += got[i] != want[i];
    return bad;
}

int main() {
    enum { N = 64 };
    DRV(cuInit(0));
    CUdevice dev;
    DRV(cuDeviceGet(&dev, 0));
    CUcontext a = 0, b = 0, cur = 0, owner = 0;
    CUctxCreateParams params = {};
    DRV(cuCtxCreate(&a, &params, 0, dev));
    CUdeviceptr da = 0, db = 0;
    DRV(cuMemAlloc(&da, N * sizeof(int)));
    int h[N], back[N], dbl[N];
    for (int i = 0; i < N; i++) h[i] = 3 * i + 1, dbl[i] = 2 * h[i];
    DRV(cuMemcpyHtoD(da, h, sizeof h));
    DRV(cuCtxCreate(&b, &params, 0, dev));
    DRV(cuMemAlloc(&db, N * sizeof(int)));

    // driver copies in b with a's pointer
    DRV(cuMemcpyDtoD(db, da, sizeof h));
    memset(back, 0, sizeof back);
    DRV(cuMemcpyDtoH(back, db, sizeof back));
    printf("cuMemcpyDtoD from the other context's memory: %d wrong\n", wrong(back, h, N));
    memset(back, 0, sizeof back);
    DRV(cuMemcpyDtoH(back, da, sizeof back));
    printf("cuMemcpyDtoH of the other context's memory: %d wrong\n", wrong(back, h, N));
    DRV(cuMemsetD32(db, 0, N));
    DRV(cuMemcpy(db, da, sizeof h));
    memset(back, 0, sizeof back);
    DRV(cuMemcpyDtoH(back, db, sizeof back));
    printf("cuMemcpy (unified) from the other context's memory: %d wrong\n", wrong(back, h, N));
    DRV(cuMemsetD32(da + 4 * sizeof(int), 9, 2));
    DRV(cuMemcpyDtoH(back, da, sizeof back));
    printf("cuMemsetD32 on the other context's memory: %d %d %d %d\n", back[3], back[4], back[5], back[6]);
    DRV(cuMemcpyHtoD(da, h, sizeof h));

    // pointer attributes of a's memory, asked in b
    unsigned mt = 0;
    DRV(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, da));
    printf("memory type: %s\n", mt == CU_MEMORYTYPE_DEVICE ? "device" : mt == CU_MEMORYTYPE_HOST ? "host" : "other");
    DRV(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, da));
    printf("its context is the one that allocated it: %d\n", (int)(owner == a));
    CUdeviceptr base = 0;
    size_t size = 0;
    DRV(cuMemGetAddressRange(&base, &size, da + 8));
    printf("address range: base ok %d, size %zu\n", (int)(base == da), size);

    // the runtime, in b, with a's memory
    cudaPointerAttributes pa;
    SHOW(cudaPointerGetAttributes(&pa, (void *)da));
    printf("cudaPointerGetAttributes type: %d\n", (int)pa.type);
    SHOW(cudaMemcpy((void *)db, (void *)da, sizeof h, cudaMemcpyDefault));
    SHOW(cudaMemcpy(back, (void *)da, sizeof back, cudaMemcpyDefault));
    printf("cudaMemcpy Default, the other context's memory: %d wrong\n", wrong(back, h, N));
    SHOW(cudaMemcpy((void *)db, (void *)da, sizeof h, cudaMemcpyDeviceToDevice));
    twice<<<1, N>>>((const int *)da, (int *)db, N);
    SHOW(cudaGetLastError());
    SHOW(cudaDeviceSynchronize());
    memset(back, 0, sizeof back);
    SHOW(cudaMemcpy(back, (void *)db, sizeof back, cudaMemcpyDeviceToHost));
    printf("kernel in b reading a's memory: %d wrong\n", wrong(back, dbl, N));

    // a kernel handle from the runtime in driver attribute calls
    cudaFunction_t f;
    SHOW(cudaGetFuncBySymbol(&f, (const void *)twice));
    int regs = -1, maxt = -1;
    DRV(cuFuncGetAttribute(&maxt, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, (CUfunction)f));
    DRV(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, (CUfunction)f));
    printf("max threads per block %d, registers > 0: %d\n", maxt, (int)(regs > 0));

    // free a's memory while b is current
    DRV(cuMemFree(da));
    DRV(cuCtxGetCurrent(&cur));
    printf("b still current: %d\n", (int)(cur == b));
    DRV(cuMemFree(db));

    // the context stack: pop b and a, then one more
    DRV(cuCtxPopCurrent(&cur));
    printf("popped b: %d\n", (int)(cur == b));
    DRV(cuCtxPopCurrent(&cur));
    printf("popped a: %d\n", (int)(cur == a));
    cur = (CUcontext)1;
    DRV(cuCtxPopCurrent(&cur));
    printf("pop of an empty stack leaves the handle null: %d\n", (int)(cur == 0));

    // the runtime makes the primary context current; popping it is allowed
    SHOW(cudaFree(0));
    CUcontext primary = 0;
    DRV(cuDevicePrimaryCtxRetain(&primary, dev));
    DRV(cuCtxGetCurrent(&cur));
    printf("the runtime made the primary context current: %d\n", (int)(cur == primary));
    cur = 0;
    DRV(cuCtxPopCurrent(&cur));
    printf("popped the primary context: %d\n", (int)(cur == primary));
    DRV(cuCtxGetCurrent(&cur));
    printf("nothing current after the pop: %d\n", (int)(cur == 0));

    // a __managed__ variable, seen from the host while another context is current
    DRV(cuCtxPushCurrent(b));
    printf("managed variable from the host in b: %d\n", counter);
    counter = 11;
    bump<<<1, 1>>>(100);
    SHOW(cudaDeviceSynchronize());
    printf("managed variable after a kernel in b added 100: %d\n", counter);
    DRV(cuCtxPopCurrent(&cur));
    SHOW(cudaDeviceSynchronize());
    printf("managed variable in the primary context: %d\n", counter);
    bump<<<1, 1>>>(1000);
    SHOW(cudaDeviceSynchronize());
    printf("after a kernel in the primary context added 1000: %d\n", counter);
    DRV(cuDevicePrimaryCtxRelease(dev));
    DRV(cuCtxDestroy(b));
    DRV(cuCtxDestroy(a));
    printf("done\n");
    return 0;
}
