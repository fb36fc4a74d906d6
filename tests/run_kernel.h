/* run_kernel.h — shared by the tests: one launch of a PTX kernel through the
 * public API, with a zeroed output buffer and an optional input buffer. */
#ifndef PTXI_TEST_RUN_KERNEL_H
#define PTXI_TEST_RUN_KERNEL_H

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptxi.h"

/* A context of one host thread whose printf output goes to a temporary file
 * (*quiet, closed by the caller after ptxi_ctx_destroy), with src loaded
 * (as w.ptx) under PTXI_JIT=jit when jit is given. */
static inline ptxi_module *load_quiet(const char *src, const char *jit, ptxi_ctx **ctx, FILE **quiet) {
    if (jit) setenv("PTXI_JIT", jit, 1);
    cr_assert_eq(ptxi_ctx_create(ctx, &(ptxi_ctx_options){.threads = 1}), PTXI_SUCCESS);
    *quiet = tmpfile();
    ptxi_ctx_set_output(*ctx, NULL, *quiet);
    ptxi_module *m;
    cr_assert_eq(ptxi_module_load_data(*ctx, src, strlen(src), "w.ptx", &m), PTXI_SUCCESS, "%s",
                 ptxi_ctx_error_detail(*ctx));
    if (jit) unsetenv("PTXI_JIT");
    return m;
}

/* Runs kernel 0 of src on one CTA of `threads`: its first parameter is an
 * n-byte buffer (zeroed, copied to out afterwards), its second, when in is
 * given, nin bytes copied from in; the launch's stats to st when given. */
static inline ptxi_status run_io_stats(const char *src, unsigned threads, const void *in, size_t nin, uint32_t *out,
                                       size_t n, char *rep, size_t cap, ptxi_launch_stats *st) {
    ptxi_ctx *ctx;
    FILE *quiet;
    ptxi_module *m = load_quiet(src, NULL, &ctx, &quiet);
    ptxi_dptr d, di = 0;
    cr_assert_eq(ptxi_mem_alloc(ctx, n, &d), PTXI_SUCCESS);
    ptxi_memset_d8(ctx, d, 0, n);
    if (in) {
        cr_assert_eq(ptxi_mem_alloc(ctx, nin, &di), PTXI_SUCCESS);
        ptxi_memcpy_htod(ctx, di, in, nin);
    }
    void *args[] = {&d, &di};
    ptxi_status s = ptxi_launch(ptxi_module_kernel_at(m, 0), (ptxi_dim3){1, 1, 1}, (ptxi_dim3){threads, 1, 1}, 0, NULL,
                                args);
    if (s == PTXI_SUCCESS) s = ptxi_ctx_synchronize(ctx);
    snprintf(rep, cap, "%s", ptxi_ctx_error_detail(ctx));
    if (s == PTXI_SUCCESS) ptxi_memcpy_dtoh(ctx, out, d, n);
    if (st) cr_assert_eq(ptxi_ctx_last_launch_stats(ctx, st), PTXI_SUCCESS); /* also up to a fault */
    ptxi_ctx_destroy(ctx);
    fclose(quiet);
    return s;
}

static inline ptxi_status run_io(const char *src, unsigned threads, const void *in, size_t nin, uint32_t *out, size_t n,
                                 char *rep, size_t cap) {
    return run_io_stats(src, threads, in, nin, out, n, rep, cap, NULL);
}

/* run_io_stats with PTXI_JIT set to jit ("1" or "0") while the module
 * loads, which is when it is read. */
static inline ptxi_status run_io_jit(const char *jit, const char *src, unsigned threads, const void *in, size_t nin,
                                     uint32_t *out, size_t n, char *rep, size_t cap, ptxi_launch_stats *st) {
    setenv("PTXI_JIT", jit, 1);
    ptxi_status s = run_io_stats(src, threads, in, nin, out, n, rep, cap, st);
    unsetenv("PTXI_JIT");
    return s;
}

/* n words of a xorshift sequence from seed (nonzero): test inputs. */
static inline void xorshift_words(uint32_t *w, size_t n, uint32_t seed) {
    for (size_t k = 0; k < n; k++) seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5, w[k] = seed;
}

/* The words of a run with the JIT on (got[0]) and off (got[1]) against
 * want, and the instruction counts of the two alike (st). */
static inline void same_on_and_off(uint32_t *const got[2], const uint32_t *want, size_t n, const ptxi_launch_stats st[2],
                                   const char *what) {
    for (int m = 0; m < 2; m++)
        for (size_t k = 0; k < n; k++)
            cr_assert_eq(got[m][k], want[k], "%s, PTXI_JIT=%d: word %zu: 0x%08x, expected 0x%08x", what, !m, k,
                         got[m][k], want[k]);
    cr_assert_eq(st[0].warp_insns, st[1].warp_insns, "%s: the counts do not depend on the JIT", what);
    cr_assert_eq(st[0].thread_insns, st[1].thread_insns, "%s: the counts do not depend on the JIT", what);
}

/* Whether this build and host compile runs (interp/jit.c's host_ok): an
 * x86-64 build with computed-goto dispatch, on a host with AVX-512 F, DQ,
 * BW and VL. */
static inline bool jit_host(void) {
#if defined(__x86_64__) && !defined(PTXI_SWITCH_DISPATCH)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
#else
    return false;
#endif
}

#endif
