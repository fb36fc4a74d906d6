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
    float ms;
    if (gpu_run_case(c, ptxfile, scale, &r, &ms)) return 1;
    double worst = 0;
    size_t over = 0, differ = 0, n = 0, at = 0;
    for (int i = 0; i < r.nbuf; i++)
        if (r.buf[i].dir & BB_OUT) {
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
    return over != 0;
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "kernels", *res = argc > 2 ? argv[2] : ".";
    static const double scales[] = {0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0};
    char path[4096];
    if (gpu_open()) return 1;
    int bad = 0;
    for (size_t s = 0; s < sizeof scales / sizeof scales[0]; s++) {
        snprintf(path, sizeof path, "%s/softmax.ptx", dir);
        bad += run(&bench_case_triton_softmax, path, scales[s], res);
        snprintf(path, sizeof path, "%s/layernorm.ptx", dir);
        bad += run(&bench_case_triton_layernorm, path, scales[s], res);
    }
    return bad ? 1 : 0;
}
