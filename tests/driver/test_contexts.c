/* test_contexts.c — the primary context, contexts of their own and the per-thread
 * context stack, limits, and handles used in a context they do not belong to. */
#include <pthread.h>

#include "drv.h"

Test(contexts, no_current_context) {
    CK(cuInit(0));
    CUcontext c = (CUcontext)1;
    CK(cuCtxGetCurrent(&c));
    cr_expect_null(c);
    CUdeviceptr d;
    cr_expect_eq(cuMemAlloc(&d, 4), CUDA_ERROR_INVALID_CONTEXT);
    cr_expect_eq(cuCtxSynchronize(), CUDA_ERROR_INVALID_CONTEXT);
    cr_expect_eq(cuCtxPopCurrent(&c), CUDA_ERROR_INVALID_CONTEXT);
}

Test(contexts, primary_retain_release_state) {
    CK(cuInit(0));
    unsigned flags;
    int active;
    CK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    cr_expect_eq(active, 0);
    CUcontext a, b;
    CK(cuDevicePrimaryCtxRetain(&a, 0));
    CK(cuDevicePrimaryCtxRetain(&b, 0));
    cr_expect_eq(a, b);
    CK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    cr_expect_eq(active, 1);
    CK(cuDevicePrimaryCtxSetFlags(0, CU_CTX_SCHED_BLOCKING_SYNC));
    CK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    cr_expect_eq(flags, CU_CTX_SCHED_BLOCKING_SYNC);
    CK(cuDevicePrimaryCtxRelease(0));
    CK(cuDevicePrimaryCtxRelease(0));
    cr_expect_eq(cuDevicePrimaryCtxRetain(&a, 1), CUDA_ERROR_INVALID_DEVICE);
}

Test(contexts, stack) {
    CUcontext primary = drv_setup();
    CUctxCreateParams params = {0};
    CUcontext own;
    CK(cuCtxCreate(&own, &params, 0, 0)); /* made current */
    CUcontext c;
    CK(cuCtxGetCurrent(&c));
    cr_expect_eq(c, own);
    CK(cuCtxPopCurrent(&c));
    cr_expect_eq(c, own);
    CK(cuCtxGetCurrent(&c));
    cr_expect_eq(c, primary);
    CK(cuCtxPushCurrent(own));
    CK(cuCtxSetCurrent(primary)); /* replaces the top */
    CK(cuCtxGetCurrent(&c));
    cr_expect_eq(c, primary);
    unsigned long long id1, id2;
    CK(cuCtxGetId(own, &id1));
    CK(cuCtxGetId(primary, &id2));
    cr_expect_neq(id1, id2);
    CK(cuCtxDestroy(own));
    cr_expect_eq(cuCtxPushCurrent(own), CUDA_ERROR_INVALID_CONTEXT);
    cr_expect_eq(cuCtxDestroy(primary), CUDA_ERROR_INVALID_CONTEXT);
}

static void *current_elsewhere(void *arg) {
    CUcontext c = (CUcontext)1;
    cuCtxGetCurrent(&c);
    *(CUcontext *)arg = c;
    return NULL;
}

/* The stack is the thread's own: a context pushed here is not current on another
 * thread, which has none until it sets one (or calls the runtime). */
Test(contexts, stack_is_per_thread) {
    CUcontext primary = drv_setup();
    CUcontext own;
    CK(cuCtxCreate(&own, NULL, 0, 0));
    CUcontext seen = NULL;
    pthread_t t;
    pthread_create(&t, NULL, current_elsewhere, &seen);
    pthread_join(t, NULL);
    cr_expect_eq(seen, NULL);
    CUcontext here;
    CK(cuCtxGetCurrent(&here));
    cr_expect_eq(here, own);
    CK(cuCtxPopCurrent(&here));
    CK(cuCtxGetCurrent(&here));
    cr_expect_eq(here, primary);
    CK(cuCtxDestroy(own));
}

Test(contexts, limits) {
    drv_setup();
    size_t v;
    CK(cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
    cr_expect_eq(v, 1024);
    CK(cuCtxGetLimit(&v, CU_LIMIT_PRINTF_FIFO_SIZE));
    cr_expect_eq(v, 8650752);
    CK(cuCtxGetLimit(&v, CU_LIMIT_MALLOC_HEAP_SIZE));
    cr_expect_eq(v, 8388608);
    CK(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 1 << 24));
    CK(cuCtxGetLimit(&v, CU_LIMIT_MALLOC_HEAP_SIZE));
    cr_expect_eq(v, 1 << 24);
    CK(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 4096));
    CK(cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
    cr_expect_eq(v, 4096);
    cr_expect_eq(cuCtxSetLimit(CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH, 2), CUDA_ERROR_UNSUPPORTED_LIMIT);
}

/* A context of its own has its own modules: a function of the primary context
 * is no handle there. Its memory is the device's, which every context sees
 * (unified addressing: an H200 copies and frees another context's allocation). */
Test(contexts, handles_from_another_context) {
    drv_setup();
    CUmodule m = drv_module();
    CUfunction f;
    CK(cuModuleGetFunction(&f, m, "scale"));
    CUdeviceptr d;
    CK(cuMemAlloc(&d, 64));
    CUstream s;
    CK(cuStreamCreate(&s, 0));
    CUcontext own;
    CK(cuCtxCreate(&own, NULL, 0, 0));
    unsigned k = 2, n = 16;
    void *args[] = {&d, &k, &n};
    CUdeviceptr mine;
    CK(cuMemAlloc(&mine, 64));
    void *args_mine[] = {&mine, &k, &n};
    CUmodule m2 = drv_module();
    CUfunction f2;
    CK(cuModuleGetFunction(&f2, m2, "scale"));
    cr_expect_eq(cuLaunchKernel(f2, 1, 1, 1, 16, 1, 1, 0, s, args_mine, NULL), CUDA_ERROR_INVALID_HANDLE);
    CK(cuLaunchKernel(f2, 1, 1, 1, 16, 1, 1, 0, NULL, args_mine, NULL));
    unsigned h[16];
    CK(cuMemsetD32(d, 3, 16));
    CK(cuLaunchKernel(f2, 1, 1, 1, 16, 1, 1, 0, NULL, args, NULL)); /* the primary's memory in this context */
    CK(cuMemcpyDtoH(h, d, sizeof h));
    cr_expect_eq(h[15], 6);
    cr_expect_eq(cuLaunchKernel(f, 1, 1, 1, 16, 1, 1, 0, NULL, args, NULL), CUDA_ERROR_INVALID_HANDLE);
    CUcontext owner;
    CK(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, d));
    CUcontext primary;
    CK(cuDevicePrimaryCtxRetain(&primary, 0));
    cr_expect_eq(owner, primary);
    CK(cuMemFree(mine));
    CK(cuCtxDestroy(own));
    CK(cuMemcpyDtoH(h, d, sizeof h)); /* the primary context is current again */
    cr_expect_eq(h[0], 6);
    CK(cuMemFree(d));
    CK(cuDevicePrimaryCtxRelease(0));
}

/* What a context held is gone with it: its modules are invalid handles, and the
 * host memory of a reset primary context is no longer known. */
Test(contexts, handles_die_with_their_context) {
    drv_setup();
    CUcontext own;
    CK(cuCtxCreate(&own, NULL, 0, 0));
    CUmodule m = drv_module();
    CUfunction f;
    CK(cuModuleGetFunction(&f, m, "add"));
    CK(cuCtxDestroy(own));
    cr_expect_eq(cuModuleGetFunction(&f, m, "add"), CUDA_ERROR_INVALID_HANDLE);
    cr_expect_eq(cuModuleUnload(m), CUDA_ERROR_INVALID_HANDLE);
    void *host;
    CK(cuMemAllocHost(&host, 64));
    unsigned type;
    CK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)host));
    cr_expect_eq(type, CU_MEMORYTYPE_HOST);
    CK(cuDevicePrimaryCtxReset(0));
    cr_expect_eq(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)host),
                 CUDA_ERROR_INVALID_VALUE);
    cr_expect_eq(cuMemFreeHost(host), CUDA_ERROR_INVALID_VALUE);
}
