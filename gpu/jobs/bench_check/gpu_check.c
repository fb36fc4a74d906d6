/* gpu_check.c — runs every benchmark case's committed PTX on a real GPU through
 * the CUDA driver API and compares the result with the case's native C
 * reference: evidence that ptxi-bench's references are what hardware computes. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "cuda_job.h"

#define BENCH_ENTRY_(n) &bench_case_##n,
static const bench_case *const cases[] = {BENCH_CASES(BENCH_ENTRY_)};
#undef BENCH_ENTRY_

static int check(const bench_case *c, const char *dir) {
    bench_run r;
    char path[4096], msg[400];
    CUmodule m;
    CUfunction fn;
    CUdeviceptr dev[BENCH_MAX_BUFS];
    void *argv[BENCH_MAX_ARGS];
    CUevent e0, e1;
    float ms;

    memset(&r, 0, sizeof r);
    c->setup(&r, 1.0);
    bench_reset_refs(&r);
    c->native(&r);
    snprintf(path, sizeof path, "%s/%s", dir, c->ptx);
    char *ptx = slurp(path);
    if (!ptx) {
        printf("%-13s cannot read %s\n", c->name, path);
        return 1;
    }
    CK(cuModuleLoadData(&m, ptx));
    CK(cuModuleGetFunction(&fn, m, c->entry));
    for (int i = 0; i < r.nbuf; i++) {
        CK(cuMemAlloc(&dev[i], r.buf[i].bytes));
        if (r.buf[i].dir & BB_IN) CK(cuMemcpyHtoD(dev[i], r.buf[i].init, r.buf[i].bytes));
        else CK(cuMemsetD8(dev[i], 0, r.buf[i].bytes));
    }
    for (int i = 0; i < r.narg; i++) argv[i] = r.arg[i].buf >= 0 ? (void *)&dev[r.arg[i].buf] : (void *)&r.arg[i].bits;
    CK(cuEventCreate(&e0, 0));
    CK(cuEventCreate(&e1, 0));
    CK(cuEventRecord(e0, 0));
    CK(cuLaunchKernel(fn, r.grid.x, r.grid.y, r.grid.z, r.block.x, r.block.y, r.block.z, (unsigned)r.dyn_shared, 0,
                      argv, NULL));
    CK(cuEventRecord(e1, 0));
    CK(cuCtxSynchronize());
    CK(cuEventElapsedTime(&ms, e0, e1));
    for (int i = 0; i < r.nbuf; i++)
        if (r.buf[i].dir & BB_OUT) {
            r.buf[i].got = bench_alloc(r.buf[i].bytes);
            CK(cuMemcpyDtoH(r.buf[i].got, dev[i], r.buf[i].bytes));
        }
    int ok = bench_compare(&r, msg, sizeof msg);
    printf("%-13s %s  (GPU %.3f ms)%s%s\n", c->name, ok ? "GPU == native" : "MISMATCH", ms, ok ? "" : "  ",
           ok ? "" : msg);
    for (int i = 0; i < r.nbuf; i++) cuMemFree(dev[i]);
    cuModuleUnload(m);
    free(ptx);
    return !ok;
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "../../../bench/kernels";
    CUdevice d;
    CUcontext ctx;
    const bench_case *c = cases[0];
    CK(cuInit(0));
    CK(cuDeviceGet(&d, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, d));
    CK(cuCtxSetCurrent(ctx));
    int bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) bad += check(cases[i], dir);
    return bad ? 1 : 0;
}
