/* test_streams.c — streams (flags, priorities clamped to the device's range [-5, 0],
 * capture state), events and their elapsed time, host functions and stream callbacks
 * running in order after the work queued before them. */
#include "drv.h"

Test(streams, flags_priorities_capture) {
    drv_setup();
    int least, greatest;
    CK(cuCtxGetStreamPriorityRange(&least, &greatest));
    cr_expect_eq(least, 0);
    cr_expect_eq(greatest, -5);
    CUstream s;
    CK(cuStreamCreateWithPriority(&s, CU_STREAM_NON_BLOCKING, -100));
    int prio;
    unsigned flags;
    CK(cuStreamGetPriority(s, &prio));
    CK(cuStreamGetFlags(s, &flags));
    cr_expect_eq(prio, -5);
    cr_expect_eq(flags, CU_STREAM_NON_BLOCKING);
    CUstreamCaptureStatus cs;
    CK(cuStreamIsCapturing(s, &cs));
    cr_expect_eq(cs, CU_STREAM_CAPTURE_STATUS_NONE);
    CK(cuStreamSynchronize(s));
    CK(cuStreamQuery(s));
    CK(cuStreamSynchronize(CU_STREAM_PER_THREAD));
    CK(cuStreamDestroy(s));
    cr_expect_eq(cuStreamSynchronize(s), CUDA_ERROR_INVALID_HANDLE);
    cr_expect_eq(cuStreamDestroy(s), CUDA_ERROR_INVALID_HANDLE);
    cr_expect_eq(cuStreamCreate(&s, 8), CUDA_ERROR_INVALID_VALUE);
}

static int order[8], norder;
static void host_fn(void *user) { order[norder++] = (int)(intptr_t)user; }
static void callback(CUstream s, CUresult st, void *user) {
    (void)s;
    order[norder++] = st == CUDA_SUCCESS ? (int)(intptr_t)user : -1;
}

Test(streams, host_functions_in_order) {
    drv_setup();
    CUstream a, b;
    CK(cuStreamCreate(&a, 0));
    CK(cuStreamCreate(&b, 0));
    CK(cuLaunchHostFunc(a, host_fn, (void *)1));
    CK(cuLaunchHostFunc(b, host_fn, (void *)2));
    CK(cuStreamAddCallback(a, callback, (void *)3, 0));
    cr_expect_eq(cuStreamAddCallback(a, callback, (void *)3, 1), CUDA_ERROR_INVALID_VALUE);
    CK(cuStreamSynchronize(a)); /* a's two, in order; b's may have run too */
    int first = -1, second = -1;
    for (int i = 0; i < norder; i++)
        if (order[i] == 1) first = i;
        else if (order[i] == 3) second = i;
    cr_expect(first >= 0 && second > first);
    CK(cuCtxSynchronize());
    cr_expect_eq(norder, 3);
}

Test(streams, events) {
    drv_setup();
    CUstream s;
    CK(cuStreamCreate(&s, 0));
    CUevent e0, e1, nt;
    CK(cuEventCreate(&e0, CU_EVENT_DEFAULT));
    CK(cuEventCreate(&e1, CU_EVENT_BLOCKING_SYNC));
    CK(cuEventCreate(&nt, CU_EVENT_DISABLE_TIMING));
    float ms;
    cr_expect_eq(cuEventElapsedTime(&ms, e0, e1), CUDA_ERROR_INVALID_HANDLE); /* not recorded */
    CK(cuEventRecord(e0, s));
    CUmodule m = drv_module();
    CUfunction f;
    CK(cuModuleGetFunction(&f, m, "empty"));
    CK(cuLaunchKernel(f, 64, 1, 1, 256, 1, 1, 0, s, NULL, NULL));
    CK(cuEventRecord(e1, s));
    CK(cuEventRecord(nt, s));
    CK(cuEventSynchronize(e1));
    CK(cuEventQuery(e1));
    CK(cuEventElapsedTime(&ms, e0, e1));
    cr_expect_geq(ms, 0.0f);
    cr_expect_eq(cuEventElapsedTime(&ms, e0, nt), CUDA_ERROR_INVALID_HANDLE);
    CK(cuStreamWaitEvent(NULL, e1, 0));
    CK(cuEventDestroy(e0));
    cr_expect_eq(cuEventRecord(e0, s), CUDA_ERROR_INVALID_HANDLE);
    cr_expect_eq(cuEventCreate(&e0, CU_EVENT_INTERPROCESS), CUDA_ERROR_INVALID_VALUE);
}

Test(streams, launch_waits_for_earlier_host_functions) {
    drv_setup();
    CUstream s;
    CK(cuStreamCreate(&s, 0));
    CK(cuLaunchHostFunc(s, host_fn, (void *)7));
    CUmodule m = drv_module();
    CUfunction f;
    CK(cuModuleGetFunction(&f, m, "empty"));
    CK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, NULL, NULL));
    cr_expect_eq(norder, 1);
    cr_expect_eq(order[0], 7);
}

Test(streams, attributes_and_context_events) {
    CUcontext ctx = drv_setup();
    CUstream s;
    CK(cuStreamCreateWithPriority(&s, 0, -3));
    CUstreamAttrValue v;
    CK(cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_PRIORITY, &v));
    cr_expect_eq(v.priority, -3);
    CK(cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v));
    CUevent e;
    CK(cuEventCreate(&e, 0));
    CK(cuCtxRecordEvent(ctx, e));
    CK(cuCtxWaitEvent(ctx, e));
    CK(cuEventSynchronize(e));
    CUdeviceptr m;
    CK(cuMemAllocManaged(&m, 64, CU_MEM_ATTACH_GLOBAL));
    CK(cuStreamAttachMemAsync(s, m, 0, CU_MEM_ATTACH_SINGLE));
}
