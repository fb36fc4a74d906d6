/* gpu_check.c — runs every benchmark case's committed PTX on a real GPU through
 * the CUDA driver API and compares the result with the case's native C
 * reference: evidence that ptxi-bench's references are what hardware computes. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cuda_job.h"

#define BENCH_ENTRY_(n) &bench_case_##n,
static const bench_case *const cases[] = {BENCH_CASES(BENCH_ENTRY_)};
#undef BENCH_ENTRY_

static int check(const bench_case *c, const char *dir) {
    bench_run r;
    char path[4096], msg[400];
    float ms;
    snprintf(path, sizeof path, "%s/%s", dir, c->ptx);
    if (gpu_run_case(c, path, 1.0, &r, &ms)) return 1;
    int ok = bench_compare(&r, msg, sizeof msg);
    printf("%-13s %s  (GPU %.3f ms)%s%s\n", c->name, ok ? "GPU == native" : "MISMATCH", ms, ok ? "" : "  ",
           ok ? "" : msg);
    return !ok;
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "../../../bench/kernels";
    if (gpu_open()) return 1;
    int bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) bad += check(cases[i], dir);
    return bad ? 1 : 0;
}
