// ctx_threads.cu — the context the runtime works in is each host thread's own: threads
// that create contexts of their own use the runtime in them at once (memory, streams,
// kernels and __device__ variables of each context apart), while another thread stays in
// the primary context; a context made current with cuCtxSetCurrent is the runtime's too,
// until it is unbound; and a context destroyed by another thread is refused.
#include <cuda.h>
#include <atomic>
#include <thread>
#include "check.h"

__device__ int tag;

__global__ void fill(int *p, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v + tag;
}

const int n = 4096;

// One thread's rounds of create, use, leave and destroy: how many checks failed, the first.
struct tally {
    int failed = 0;
    const char *first = "none";
    void check(bool ok, const char *what) {
        if (!ok && !failed++) first = what;
    }
};

static void worker(int t, CUdevice dev, CUcontext primary, tally *r) {
    for (int round = 0; round < 3; round++) {
        CUcontext ctx = 0, cur = 0, owner = 0;
        CUctxCreateParams params = {};
        r->check(cuCtxCreate(&ctx, &params, 0, dev) == CUDA_SUCCESS, "cuCtxCreate");
        int v = 100 * (t + 1) + round;
        r->check(cudaMemcpyToSymbol(tag, &v, sizeof v) == cudaSuccess, "cudaMemcpyToSymbol");
        int *d = nullptr;
        r->check(cudaMalloc(&d, n * sizeof(int)) == cudaSuccess, "cudaMalloc");
        r->check(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)d) == CUDA_SUCCESS &&
                     owner == ctx,
                 "memory in the thread's context");
        cudaStream_t s;
        r->check(cudaStreamCreate(&s) == cudaSuccess, "cudaStreamCreate");
        CUcontext sctx = 0;
        r->check(cuStreamGetCtx((CUstream)s, &sctx) == CUDA_SUCCESS && sctx == ctx, "stream in the thread's context");
        fill<<<(n + 255) / 256, 256, 0, s>>>(d, n, t);
        r->check(cudaGetLastError() == cudaSuccess, "launch");
        r->check(cudaStreamSynchronize(s) == cudaSuccess, "cudaStreamSynchronize");
        static thread_local int h[n];
        r->check(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess, "cudaMemcpy");
        int bad = 0;
        for (int i = 0; i < n; i++) bad += h[i] != t + v;
        r->check(bad == 0, "the kernel saw the context's variable");
        void *sym = nullptr;
        r->check(cudaGetSymbolAddress(&sym, tag) == cudaSuccess, "cudaGetSymbolAddress");
        r->check(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)sym) == CUDA_SUCCESS &&
                     owner == ctx,
                 "variable in the thread's context");
        r->check(cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == ctx, "still current");
        r->check(cudaStreamDestroy(s) == cudaSuccess, "cudaStreamDestroy");
        r->check(cudaFree(d) == cudaSuccess, "cudaFree");
        r->check(cuCtxPopCurrent(&cur) == CUDA_SUCCESS && cur == ctx, "cuCtxPopCurrent");
        int pv = 0;
        r->check(cudaMemcpyFromSymbol(&pv, tag, sizeof pv) == cudaSuccess && pv == 7, "the primary's variable");
        r->check(cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == primary, "the primary is current");
        r->check(cuCtxDestroy(ctx) == CUDA_SUCCESS, "cuCtxDestroy");
    }
}

// A thread that only uses the runtime stays in the primary context meanwhile.
static void plain(tally *r) {
    int *d = nullptr;
    r->check(cudaMalloc(&d, n * sizeof(int)) == cudaSuccess, "cudaMalloc");
    static int h[n];
    for (int round = 0; round < 10; round++) {
        fill<<<(n + 255) / 256, 256>>>(d, n, round);
        r->check(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess, "cudaMemcpy");
        int bad = 0;
        for (int i = 0; i < n; i++) bad += h[i] != round + 7;
        r->check(bad == 0, "the kernel saw the primary's variable");
    }
    r->check(cudaFree(d) == cudaSuccess, "cudaFree");
}

int main() {
    DRV(cuInit(0));
    CUdevice dev;
    DRV(cuDeviceGet(&dev, 0));
    CHECK(cudaFree(0));
    CUcontext primary = 0, cur = 0, owner = 0;
    DRV(cuDevicePrimaryCtxRetain(&primary, dev));
    int seven = 7;
    CHECK(cudaMemcpyToSymbol(tag, &seven, sizeof seven));

    const int T = 4;
    tally r[T + 1];
    std::thread th[T + 1];
    for (int t = 0; t < T; t++) th[t] = std::thread(worker, t, dev, primary, &r[t]);
    th[T] = std::thread(plain, &r[T]);
    for (int t = 0; t <= T; t++) th[t].join();
    for (int t = 0; t < T; t++) printf("thread %d, contexts of its own: %d failed (first: %s)\n", t, r[t].failed, r[t].first);
    printf("thread in the primary context: %d failed (first: %s)\n", r[T].failed, r[T].first);

    // cuCtxSetCurrent of a context another thread created
    CUcontext x = 0;
    CUctxCreateParams params = {};
    DRV(cuCtxCreate(&x, &params, 0, dev));
    DRV(cuCtxPopCurrent(&cur));
    std::thread([&] {
        void *q = nullptr, *p = nullptr;
        DRV(cuCtxSetCurrent(x));
        SHOW(cudaMalloc(&q, 256));
        DRV(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)q));
        printf("cudaMalloc after cuCtxSetCurrent: in that context: %d\n", (int)(owner == x));
        cudaFunction_t fx = 0, fp = 0;
        SHOW(cudaGetFuncBySymbol(&fx, (const void *)fill));
        DRV(cuCtxSetCurrent(NULL));
        SHOW(cudaMalloc(&p, 256));
        DRV(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)p));
        printf("after cuCtxSetCurrent(NULL): in the primary context: %d\n", (int)(owner == primary));
        DRV(cuCtxGetCurrent(&cur));
        printf("the primary is current: %d\n", (int)(cur == primary));
        SHOW(cudaGetFuncBySymbol(&fp, (const void *)fill));
        printf("a kernel's function differs between the contexts: %d\n", (int)(fx != fp));
        DRV(cuCtxPushCurrent(x));
        SHOW(cudaFree(q));
        DRV(cuCtxPopCurrent(&cur));
        SHOW(cudaFree(p));
    }).join();
    DRV(cuCtxDestroy(x));

    // a context destroyed while current on another thread
    std::atomic<int> step{0};
    CUcontext y = 0;
    std::thread other([&] {
        CUctxCreateParams ps = {};
        cuCtxCreate(&y, &ps, 0, dev);
        step = 1;
        while (step != 2) std::this_thread::yield();
        void *q = nullptr;
        SHOW(cudaMalloc(&q, 256));
        CUcontext popped;
        cuCtxPopCurrent(&popped);
        SHOW(cudaMalloc(&q, 256));
        DRV(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)q));
        printf("after the pop: in the primary context: %d\n", (int)(owner == primary));
        SHOW(cudaFree(q));
    });
    while (step != 1) std::this_thread::yield();
    DRV(cuCtxDestroy(y));
    step = 2;
    other.join();
    DRV(cuDevicePrimaryCtxRelease(dev));
    printf("done\n");
    return 0;
}
