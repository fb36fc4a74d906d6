/* cuda_job.h — what the benchmark's GPU jobs (bench_check, bench_triton)
 * share: a CUDA driver call checked in a function that returns 1 on error
 * (naming the case `c`), and a whole file read into a string. */
#ifndef BENCH_CUDA_JOB_H
#define BENCH_CUDA_JOB_H

#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

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

#endif
