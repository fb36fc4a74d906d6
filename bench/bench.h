/* bench.h — how a benchmark case describes itself to the driver (ptxi_bench.c):
 * its buffers, kernel arguments and launch geometry, and the native C
 * reference the driver times and compares against, one file per case in native/. */
#ifndef PTXI_BENCH_H
#define PTXI_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ptxi.h"

enum { BB_IN = 1, BB_OUT = 2, BB_INOUT = BB_IN | BB_OUT };
enum { BENCH_MAX_BUFS = 4, BENCH_MAX_ARGS = 24 };

typedef struct bench_buf {
    size_t bytes;
    int dir;    /* BB_IN / BB_OUT / BB_INOUT; outputs start zeroed */
    void *init; /* initial contents (inputs); NULL means zeros */
    void *ref;  /* the native reference works here */
    void *got;  /* what ptxi produced, copied back */
} bench_buf;

typedef struct bench_arg {
    int buf;       /* >= 0: pass that buffer's device address; -1: a scalar */
    uint64_t bits; /* the scalar, little-endian, as wide as the PTX parameter */
} bench_arg;

typedef struct bench_run {
    bench_buf buf[BENCH_MAX_BUFS];
    int nbuf;
    bench_arg arg[BENCH_MAX_ARGS];
    int narg;
    ptxi_dim3 grid, block;
    size_t dyn_shared; /* bytes of dynamic shared memory per CTA */
    int64_t p[4];      /* sizes the native reference needs (element counts, ...) */
    float fp[4];
    /* tol > 0: the outputs are floats that need only lie within
     * tol * (|ref| + tol_floor) of the reference (kernels with approximate
     * instructions); 0: word for word. */
    double tol, tol_floor;
    /* Nonzero: bench_digest_of() of the outputs as a GPU computed them at this
     * size, which they must equal word for word as well. */
    uint64_t gpu_digest;
} bench_run;

/* A recorded digest and the scale it was recorded at ({0, 0} ends a table). */
typedef struct bench_digest {
    double scale;
    uint64_t digest;
} bench_digest;

typedef struct bench_case {
    const char *name;
    const char *ptx; /* file under the kernels folder */
    const char *entry;
    const char *about;
    /* Fills `r` (allocating buffer contents with bench_alloc) at size factor `scale`. */
    void (*setup)(bench_run *r, double scale);
    /* Computes into the buffers' `ref` copies, which hold the initial contents. */
    void (*native)(bench_run *r);
} bench_case;

/* Helpers shared by the cases and the drivers (bench_util.c). */
void *bench_alloc(size_t bytes);                        /* zeroed; aborts when out of memory */
int bench_add_buf(bench_run *r, size_t bytes, int dir); /* returns the index; init zeroed */
void bench_arg_buf(bench_run *r, int buf);
void bench_arg_u32(bench_run *r, uint32_t v);
void bench_arg_f32(bench_run *r, float v);
void bench_arg_u64(bench_run *r, uint64_t v);
uint64_t bench_rand(uint64_t *state); /* splitmix64 */
void bench_fill_u32(uint32_t *p, size_t n, uint64_t seed);
/* Uniform in [lo, hi), with 24 random mantissa bits. */
void bench_fill_f32(float *p, size_t n, uint64_t seed, float lo, float hi);
int64_t bench_scaled(int64_t base, double scale, int64_t multiple);
/* Points each buffer's `ref` at its initial contents (a copy for outputs). */
void bench_reset_refs(bench_run *r);
/* 1 when every output buffer's `got` equals its `ref`; else 0 and a message. */
int bench_compare(const bench_run *r, char *msg, size_t len);
/* FNV-1a (64-bit) over the words of every output buffer's `got`, in order. */
uint64_t bench_digest_of(const bench_run *r);
/* The digest of `table` recorded at `scale`, or 0. */
uint64_t bench_gpu_digest(const bench_digest *table, double scale);

static inline ptxi_dim3 bench_dim(uint32_t x, uint32_t y, uint32_t z)
{
    ptxi_dim3 d = {x, y, z};
    return d;
}

#define BENCH_CASES(X)                                                                                                 \
    X(vecadd)                                                                                                          \
    X(saxpy)                                                                                                           \
    X(hashfma)                                                                                                         \
    X(matmul) X(mandelbrot) X(reduce) X(histogram) X(triton_fused) X(triton_gen) X(triton_rowsum) X(warpsum) X(gather) \
        X(stencil) X(numba_axpy) X(triton_softmax) X(triton_layernorm)

#define BENCH_DECLARE_(n) extern const bench_case bench_case_##n;
BENCH_CASES(BENCH_DECLARE_)
#undef BENCH_DECLARE_

#endif
