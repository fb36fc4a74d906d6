/* test_threads.c — several host threads using the driver at once on the primary
 * context: each its own stream, memory, launches, events and host functions; the
 * results are each thread's own and exact. */
#include <pthread.h>

#include "drv.h"

enum { THREADS = 4, ROUNDS = 20, N = 256 };

static CUfunction scale;
static CUcontext primary;
static int host_calls[THREADS];

static void count(void *user) { host_calls[(intptr_t)user]++; }

static void *worker(void *arg) {
    intptr_t id = (intptr_t)arg;
    if (cuCtxSetCurrent(primary) != CUDA_SUCCESS) return (void *)1;
    CUstream s;
    CUevent e;
    CUdeviceptr d;
    if (cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) || cuEventCreate(&e, 0) || cuMemAlloc(&d, N * 4)) return (void *)2;
    unsigned h[N];
    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < N; i++) h[i] = (unsigned)(i + id);
        unsigned k = 3, n = N;
        void *args[] = {&d, &k, &n};
        if (cuMemcpyHtoDAsync(d, h, sizeof h, s) || cuLaunchKernel(scale, N / 64, 1, 1, 64, 1, 1, 0, s, args, NULL) ||
            cuLaunchHostFunc(s, count, (void *)id) || cuEventRecord(e, s) || cuEventSynchronize(e) ||
            cuMemcpyDtoHAsync(h, d, sizeof h, s) || cuStreamSynchronize(s))
            return (void *)3;
        for (int i = 0; i < N; i++)
            if (h[i] != 3u * (unsigned)(i + id)) return (void *)4;
    }
    if (cuMemFree(d) || cuEventDestroy(e) || cuStreamDestroy(s)) return (void *)5;
    return NULL;
}

Test(threads, streams_memory_launches_at_once) {
    primary = drv_setup();
    CUmodule m = drv_module();
    CK(cuModuleGetFunction(&scale, m, "scale"));
    pthread_t t[THREADS];
    for (intptr_t i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < THREADS; i++) {
        void *rc;
        pthread_join(t[i], &rc);
        cr_expect_null(rc, "thread %d failed at step %d", i, (int)(intptr_t)rc);
        cr_expect_eq(host_calls[i], ROUNDS);
    }
}
