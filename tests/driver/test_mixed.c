/* test_mixed.c — one device for both libraries: what the runtime creates (memory,
 * streams, events, the primary context) is a handle the driver takes, and the other
 * way round; a reset through either clears the fault both see. */
#include <pthread.h>
#include <stdlib.h>

#include "drv.h"

#define RT(call) cr_assert_eq((call), cudaSuccess, "%s", #call)

Test(mixed, runtime_memory_in_driver_calls) {
    RT(cudaFree(0)); /* the runtime makes the primary context current */
    CK(cuInit(0));
    CUcontext c, primary;
    CK(cuCtxGetCurrent(&c));
    CK(cuDevicePrimaryCtxRetain(&primary, 0));
    cr_expect_eq(c, primary);
    int *d;
    RT(cudaMalloc((void **)&d, 64 * sizeof(int)));
    int h[64];
    for (int i = 0; i < 64; i++) h[i] = i;
    RT(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    int back[64] = {0};
    CK(cuMemcpyDtoH(back, (CUdeviceptr)d, sizeof back));
    cr_expect_eq(memcmp(back, h, sizeof h), 0);
    CUdeviceptr base;
    size_t size;
    CK(cuMemGetAddressRange(&base, &size, (CUdeviceptr)(d + 3)));
    cr_expect_eq(base, (CUdeviceptr)d);
    cr_expect_eq(size, sizeof h);
    CK(cuMemsetD32((CUdeviceptr)d, 7, 64));
    RT(cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost));
    cr_expect_eq(back[63], 7);
    /* driver memory freed by the runtime */
    CUdeviceptr x;
    CK(cuMemAlloc(&x, 16));
    RT(cudaFree((void *)x));
}

Test(mixed, streams_and_events_are_shared) {
    CK(cuInit(0));
    cudaStream_t rs;
    RT(cudaStreamCreateWithPriority(&rs, cudaStreamNonBlocking, -2));
    CK(cuStreamSynchronize((CUstream)rs));
    int prio;
    unsigned flags;
    CK(cuStreamGetPriority((CUstream)rs, &prio));
    CK(cuStreamGetFlags((CUstream)rs, &flags));
    cr_expect_eq(prio, -2);
    cr_expect_eq(flags, CU_STREAM_NON_BLOCKING);
    CUstream ds;
    CK(cuStreamCreate(&ds, 0));
    RT(cudaStreamQuery((cudaStream_t)ds));
    cudaEvent_t a;
    RT(cudaEventCreate(&a));
    CUevent b;
    CK(cuEventCreate(&b, 0));
    RT(cudaEventRecord(a, (cudaStream_t)ds));
    CK(cuEventRecord(b, (CUstream)rs));
    float ms;
    CK(cuEventElapsedTime(&ms, (CUevent)a, b));
    cr_expect_geq(ms, 0.0f);
    RT(cudaEventElapsedTime(&ms, a, (cudaEvent_t)b));
    RT(cudaStreamDestroy((cudaStream_t)ds));
    cr_expect_eq(cuStreamSynchronize(ds), CUDA_ERROR_INVALID_HANDLE);
    CK(cuStreamDestroy((CUstream)rs));
    cr_expect_eq(cudaStreamSynchronize(rs), cudaErrorInvalidResourceHandle);
}

/* A fault raised by a driver launch is the runtime's error too; cudaDeviceReset
 * clears it for the driver as well. */
Test(mixed, fault_and_reset_across_libraries) {
    setenv("PTXI_QUIET", "1", 1);
    drv_setup();
    CUmodule m = drv_module();
    CUfunction f;
    CK(cuModuleGetFunction(&f, m, "fault"));
    CUdeviceptr bad = 16;
    void *args[] = {&bad};
    CK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
    cr_expect_eq(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    cr_expect_eq(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
    RT(cudaDeviceReset());
    CK(cuCtxSynchronize());
    void *p;
    RT(cudaMalloc(&p, 16));
    CUdeviceptr d;
    CK(cuMemAlloc(&d, 16));
}

/* A capture begun by the runtime is what the driver's capture queries report. */
Test(mixed, runtime_capture_seen_by_the_driver) {
    cudaStream_t s;
    RT(cudaStreamCreate(&s));
    CK(cuInit(0));
    CUstreamCaptureStatus st;
    CK(cuStreamIsCapturing((CUstream)s, &st));
    cr_expect_eq(st, CU_STREAM_CAPTURE_STATUS_NONE);
    RT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CK(cuStreamIsCapturing((CUstream)s, &st));
    cr_expect_eq(st, CU_STREAM_CAPTURE_STATUS_ACTIVE);
    cuuint64_t id = 0;
    CUgraph g = NULL;
    CK(cuStreamGetCaptureInfo((CUstream)s, &st, &id, &g, NULL, NULL, NULL));
    cr_expect_eq(st, CU_STREAM_CAPTURE_STATUS_ACTIVE);
    cr_expect_neq(id, 0);
    cudaGraph_t graph;
    RT(cudaStreamEndCapture(s, &graph));
    cr_expect_eq((void *)g, (void *)graph, "the driver names the runtime's graph");
    CK(cuStreamIsCapturing((CUstream)s, &st));
    cr_expect_eq(st, CU_STREAM_CAPTURE_STATUS_NONE);
    RT(cudaGraphDestroy(graph));
    RT(cudaStreamDestroy(s));
}

/* The runtime works in the context the driver made current, each thread in its own
 * (NVIDIA's simpleDrvRuntime: a driver kernel on a runtime stream over cudaMalloc'd
 * memory), and in the primary context again once that one is popped. */
typedef struct {
    int t, failed;
    CUcontext primary;
} ctx_job;

static void *in_own_context(void *arg) {
    ctx_job *j = arg;
    enum { n = 1000 };
    static _Thread_local float ha[n], hb[n], hc[n];
    for (int round = 0; round < 4; round++) {
        CUcontext ctx = 0, cur = 0, owner = 0, sctx = 0;
        CUctxCreateParams params = {0};
        CUmodule m;
        CUfunction add;
        float *a = NULL, *b = NULL, *c = NULL;
        void *p = NULL;
        cudaStream_t s;
        j->failed += cuCtxCreate(&ctx, &params, 0, 0) != CUDA_SUCCESS;
        j->failed += cuModuleLoadData(&m, PTX_KERNELS) != CUDA_SUCCESS;
        j->failed += cuModuleGetFunction(&add, m, "add") != CUDA_SUCCESS;
        j->failed += cudaMalloc((void **)&a, sizeof ha) != cudaSuccess;
        j->failed += cudaMalloc((void **)&b, sizeof hb) != cudaSuccess;
        j->failed += cudaMalloc((void **)&c, sizeof hc) != cudaSuccess;
        j->failed += cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)c) != CUDA_SUCCESS;
        j->failed += owner != ctx;
        j->failed += cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess;
        j->failed += cuStreamGetCtx((CUstream)s, &sctx) != CUDA_SUCCESS || sctx != ctx;
        for (int i = 0; i < n; i++) ha[i] = (float)(i + j->t), hb[i] = (float)(round * i);
        j->failed += cudaMemcpyAsync(a, ha, sizeof ha, cudaMemcpyHostToDevice, s) != cudaSuccess;
        j->failed += cudaMemcpyAsync(b, hb, sizeof hb, cudaMemcpyHostToDevice, s) != cudaSuccess;
        unsigned nn = n;
        void *args[] = {&a, &b, &c, &nn};
        j->failed += cuLaunchKernel(add, (n + 127) / 128, 1, 1, 128, 1, 1, 0, (CUstream)s, args, NULL) != CUDA_SUCCESS;
        j->failed += cudaMemcpyAsync(hc, c, sizeof hc, cudaMemcpyDeviceToHost, s) != cudaSuccess;
        j->failed += cudaStreamSynchronize(s) != cudaSuccess;
        for (int i = 0; i < n; i++) j->failed += hc[i] != (float)(i + j->t + round * i);
        j->failed += cuCtxGetCurrent(&cur) != CUDA_SUCCESS || cur != ctx;
        j->failed += cudaStreamDestroy(s) != cudaSuccess;
        j->failed += cudaFree(a) != cudaSuccess || cudaFree(b) != cudaSuccess || cudaFree(c) != cudaSuccess;
        j->failed += cuModuleUnload(m) != CUDA_SUCCESS;
        j->failed += cuCtxPopCurrent(&cur) != CUDA_SUCCESS || cur != ctx;
        j->failed += cudaMalloc(&p, 64) != cudaSuccess;
        j->failed += cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)p) != CUDA_SUCCESS;
        j->failed += owner != j->primary;
        j->failed += cudaFree(p) != cudaSuccess;
        j->failed += cuCtxDestroy(ctx) != CUDA_SUCCESS;
    }
    return NULL;
}

Test(mixed, runtime_in_each_threads_context) {
    RT(cudaFree(0));
    CK(cuInit(0));
    CUcontext primary;
    CK(cuDevicePrimaryCtxRetain(&primary, 0));
    enum { T = 6 };
    ctx_job jobs[T];
    pthread_t th[T];
    for (int t = 0; t < T; t++) {
        jobs[t] = (ctx_job){t, 0, primary};
        cr_assert_eq(pthread_create(&th[t], NULL, in_own_context, &jobs[t]), 0);
    }
    for (int t = 0; t < T; t++) pthread_join(th[t], NULL);
    for (int t = 0; t < T; t++) cr_expect_eq(jobs[t].failed, 0, "thread %d: %d checks failed", t, jobs[t].failed);
    CUcontext cur;
    CK(cuCtxGetCurrent(&cur));
    cr_expect_eq(cur, primary);
}
