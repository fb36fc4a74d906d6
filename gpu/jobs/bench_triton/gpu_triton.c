/* gpu_triton.c — runs the benchmark's Triton softmax and layer norm on a GPU
 * through the CUDA driver API with ptxi-bench's inputs, at the sizes the
 * benchmark is run at, and prints for each the FNV-1a digest of the GPU's
 * output words (bench_digest_of) and its distance from the native reference:
 * the largest |gpu - ref| / (|ref| + tol_floor), and how many words exceed
 * the case's tolerance or differ at all. At scale 0.01 the outputs are also
 * written to $RES as <case>.out.bin. */
#include <cuda.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cuda_job.h"

extern const bench_case bench_case_triton_softmax, bench_case_triton_layernorm;

static int run(const bench_case *c, const char *ptxfile, double scale, const char *res) {
    bench_run r;
    CUmodule m;
    CUfunction fn;
    CUdeviceptr dev[BENCH_MAX_BUFS];
    void *argv[BENCH_MAX_ARGS];
    CUevent e0, e1;
    float ms;

    memset(&r, 0, sizeof r);
    c->setup(&r, scale);
    bench_reset_refs(&r);
    c->native(&r);
    char *ptx = slurp(ptxfile);
    if (!ptx) {
        printf("%-17s cannot read %s\n", c->name, ptxfile);
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
    double worst = 0;
    size_t over = 0, differ = 0, n = 0, at = 0;
    for (int i = 0; i < r.nbuf; i++)
        if (r.buf[i].dir & BB_OUT) {
            r.buf[i].got = bench_alloc(r.buf[i].bytes);
            CK(cuMemcpyDtoH(r.buf[i].got, dev[i], r.buf[i].bytes));
            const float *g = r.buf[i].got, *w = r.buf[i].ref;
            for (size_t j = 0; j < r.buf[i].bytes / 4; j++, n++) {
                double e = fabs((double)g[j] - w[j]) / (fabs((double)w[j]) + r.tol_floor);
                if (!(e <= worst)) worst = e, at = n;
                over += !(e <= r.tol);
                differ += memcmp(&g[j], &w[j], 4) != 0;
            }
            if (scale == 0.01) {
                char path[4096];
                snprintf(path, sizeof path, "%s/%s.out.bin", res, c->name);
                FILE *f = fopen(path, "wb");
                if (f) {
                    fwrite(r.buf[i].got, 1, r.buf[i].bytes, f);
                    fclose(f);
                }
            }
        }
    printf("%-17s scale %-5g digest 0x%016llxull  max_err %.3g (word %zu)  over_tol(%g) %zu  differ %zu of %zu"
           "  (GPU %.3f ms)\n",
           c->name, scale, (unsigned long long)bench_digest_of(&r), worst, at, r.tol, over, differ, n, ms);
    for (int i = 0; i < r.nbuf; i++) cuMemFree(dev[i]);
    cuModuleUnload(m);
    free(ptx);
    return over != 0;
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "kernels", *res = argc > 2 ? argv[2] : ".";
    static const double scales[] = {0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0};
    const bench_case *c = &bench_case_triton_softmax;
    CUdevice d;
    CUcontext ctx;
    char path[4096];
    CK(cuInit(0));
    CK(cuDeviceGet(&d, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, d));
    CK(cuCtxSetCurrent(ctx));
    int bad = 0;
    for (size_t s = 0; s < sizeof scales / sizeof scales[0]; s++) {
        snprintf(path, sizeof path, "%s/softmax.ptx", dir);
        bad += run(&bench_case_triton_softmax, path, scales[s], res);
        snprintf(path, sizeof path, "%s/layernorm.ptx", dir);
        bad += run(&bench_case_triton_layernorm, path, scales[s], res);
    }
    return bad ? 1 : 0;
}
