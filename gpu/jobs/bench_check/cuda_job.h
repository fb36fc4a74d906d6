/* cuda_job.h — what the benchmark's GPU jobs (bench_check, bench_triton)
 * share: a CUDA driver call checked in a function that returns 1 on error
 * (naming the case `c`), a whole file read into a string, and one case run
 * on the GPU with the benchmark's inputs. Include bench.h first. */
#ifndef BENCH_CUDA_JOB_H
#define BENCH_CUDA_JOB_H

#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(call)                                                       \
    do {                                                               \
        CUresult e_ = (call);                                          \
        if (e_ != CUDA_SUCCESS) {                                      \
            const char *s_ = "?";                                      \
            cuGetErrorName(e_, &s_);                                   \
            printf("%-13s CUDA ERROR %s at %s\n", c->name, s_, #call); \
            return 1;                                                  \
        }                                                              \
    } while (0)

static inline char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = calloc(1, (size_t)n + 1);
    if (fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    return p;
}

/* Sets case c up at `scale`, computes its native reference, runs the PTX in
 * ptxfile on the GPU and copies every output buffer into r->buf[i].got.
 * *ms: the kernel's time by CUDA events. 0 on success, 1 after printing why. */
static inline int gpu_run_case(const bench_case *c, const char *ptxfile, double scale, bench_run *r, float *ms) {
    CUmodule m;
    CUfunction fn;
    CUdeviceptr dev[BENCH_MAX_BUFS];
    void *argv[BENCH_MAX_ARGS];
    CUevent e0, e1;

    memset(r, 0, sizeof *r);
    c->setup(r, scale);
    bench_reset_refs(r);
    c->native(r);
    char *ptx = slurp(ptxfile);
    if (!ptx) {
        printf("%-13s cannot read %s\n", c->name, ptxfile);
        return 1;
    }
    CK(cuModuleLoadData(&m, ptx));
    free(ptx);
    CK(cuModuleGetFunction(&fn, m, c->entry));
    for (int i = 0; i < r->nbuf; i++) {
        CK(cuMemAlloc(&dev[i], r->buf[i].bytes));
        if (r->buf[i].dir & BB_IN) CK(cuMemcpyHtoD(dev[i], r->buf[i].init, r->buf[i].bytes));
        else CK(cuMemsetD8(dev[i], 0, r->buf[i].bytes));
    }
    for (int i = 0; i < r->narg; i++)
        argv[i] = r->arg[i].buf >= 0 ? (void *)&dev[r->arg[i].buf] : (void *)&r->arg[i].bits;
    CK(cuEventCreate(&e0, 0));
    CK(cuEventCreate(&e1, 0));
    CK(cuEventRecord(e0, 0));
    CK(cuLaunchKernel(fn, r->grid.x, r->grid.y, r->grid.z, r->block.x, r->block.y, r->block.z,
                      (unsigned)r->dyn_shared, 0, argv, NULL));
    CK(cuEventRecord(e1, 0));
    CK(cuCtxSynchronize());
    CK(cuEventElapsedTime(ms, e0, e1));
    for (int i = 0; i < r->nbuf; i++)
        if (r->buf[i].dir & BB_OUT) {
            r->buf[i].got = bench_alloc(r->buf[i].bytes);
            CK(cuMemcpyDtoH(r->buf[i].got, dev[i], r->buf[i].bytes));
        }
    for (int i = 0; i < r->nbuf; i++) cuMemFree(dev[i]);
    cuEventDestroy(e0);
    cuEventDestroy(e1);
    cuModuleUnload(m);
    return 0;
}

/* The primary context of device 0, made current. */
static inline int gpu_open(void) {
    const bench_case setup = {.name = "(set-up)"}, *c = &setup;
    CUdevice d;
    CUcontext ctx;
    CK(cuInit(0));
    CK(cuDeviceGet(&d, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, d));
    CK(cuCtxSetCurrent(ctx));
    return 0;
}

#endif
