/* test_stress.c — many host threads using one context at once through the C
 * API: each has its own streams and, round after round, allocates, copies to
 * and from the device, launches (arithmetic, device malloc/free, printf),
 * sets and copies device memory, loads and unloads a module of its own, makes
 * launches that are refused, and frees. Every value is checked exactly against
 * what the PTX defines; .ci/tsan runs it under ThreadSanitizer. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptxi.h"

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"

/* affine: out[i] = in[i] * k + i for i < n.
 * heapy: each thread mallocs 16 bytes, stores seed + i there, reads it back,
 * frees it and writes what it read to out[i] (0xffffffff if malloc failed).
 * say: printf("T%u R%u\n", t, r). */
static const char stress_ptx[] = HDR
    ".global .align 1 .b8 fmt[9] = {84, 37, 117, 32, 82, 37, 117, 10, 0};\n"
    ".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n"
    ".extern .func (.param .b64 r) malloc(.param .b64 n);\n"
    ".extern .func free(.param .b64 p);\n"
    ".visible .entry affine(.param .u64 out, .param .u64 in, .param .u32 n, .param .u32 k)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
    "mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %ntid.x;\nmov.u32 %r3, %tid.x;\nmad.lo.s32 %r4, %r1, %r2, %r3;\n"
    "ld.param.u32 %r5, [n];\nsetp.ge.u32 %p1, %r4, %r5;\n@%p1 bra DONE;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nld.param.u32 %r6, [k];\n"
    "mul.wide.u32 %rd3, %r4, 4;\nadd.s64 %rd4, %rd2, %rd3;\nadd.s64 %rd5, %rd1, %rd3;\n"
    "ld.global.u32 %r7, [%rd4];\nmad.lo.s32 %r7, %r7, %r6, %r4;\nst.global.u32 [%rd5], %r7;\n"
    "DONE:\nret;\n}\n"
    ".visible .entry heapy(.param .u64 out, .param .u32 n, .param .u32 seed)\n{\n"
    ".reg .pred %p<3>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
    "mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %ntid.x;\nmov.u32 %r3, %tid.x;\nmad.lo.s32 %r4, %r1, %r2, %r3;\n"
    "ld.param.u32 %r5, [n];\nsetp.ge.u32 %p1, %r4, %r5;\n@%p1 bra DONE;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u32 %r6, [seed];\nmul.wide.u32 %rd3, %r4, 4;\n"
    "add.s64 %rd5, %rd1, %rd3;\nmov.u32 %r7, -1;\nmov.u64 %rd2, 16;\n"
    "{\n.param .b64 p0;\n.param .b64 rv;\nst.param.b64 [p0], %rd2;\ncall.uni (rv), malloc, (p0);\n"
    "ld.param.b64 %rd6, [rv];\n}\n"
    "setp.eq.u64 %p2, %rd6, 0;\n@%p2 bra STORE;\n"
    "add.s32 %r7, %r6, %r4;\nst.u32 [%rd6], %r7;\nld.u32 %r7, [%rd6];\n"
    "{\n.param .b64 p0;\nst.param.b64 [p0], %rd6;\ncall.uni free, (p0);\n}\n"
    "STORE:\nst.global.u32 [%rd5], %r7;\n"
    "DONE:\nret;\n}\n"
    ".visible .entry say(.param .u32 t, .param .u32 r)\n{\n"
    ".local .align 8 .b8 depot[8];\n.reg .b32 %r<4>;\n.reg .b64 %rd<5>;\n"
    "ld.param.u32 %r1, [t];\nld.param.u32 %r2, [r];\n"
    "mov.u64 %rd1, depot;\ncvta.local.u64 %rd2, %rd1;\nst.local.u32 [%rd1], %r1;\nst.local.u32 [%rd1+4], %r2;\n"
    "mov.u64 %rd3, fmt;\ncvta.global.u64 %rd4, %rd3;\n"
    "{\n.param .b64 p0;\n.param .b64 p1;\n.param .b32 rv;\nst.param.b64 [p0], %rd4;\nst.param.b64 [p1], %rd2;\n"
    "call.uni (rv), vprintf, (p0, p1);\nld.param.b32 %r3, [rv];\n}\nret;\n}\n";

/* A module each thread loads and unloads: table[] is initialised, and
 * bump(out) writes table[tid] + 1 to out[tid]. */
static const char own_ptx[] = HDR
    ".visible .global .align 4 .u32 table[4] = {11, 22, 33, 44};\n"
    ".visible .entry bump(.param .u64 out)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<6>;\n"
    "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\nmov.u64 %rd3, table;\n"
    "add.s64 %rd4, %rd3, %rd2;\nld.global.u32 %r2, [%rd4];\nadd.s32 %r3, %r2, 1;\nadd.s64 %rd5, %rd1, %rd2;\n"
    "st.global.u32 [%rd5], %r3;\nret;\n}\n";

enum { THREADS = 8, STREAMS = 3, ROUNDS = 64, MAXN = 3000 };

typedef struct {
    ptxi_ctx *ctx;
    ptxi_kernel *affine, *heapy, *say;
    unsigned t, rounds;
    unsigned failures;
    char first[512]; /* the first failure, for the report */
} job;

static void failed(job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void failed(job *j, const char *fmt, ...) {
    if (!j->failures++) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(j->first, sizeof j->first, fmt, ap);
        va_end(ap);
    }
}

#define EXPECT_OK(j, call)                                                                              \
    do {                                                                                                \
        ptxi_status s_ = (call);                                                                        \
        if (s_ != PTXI_SUCCESS) failed(j, "thread %u: %s gave %s", (j)->t, #call, ptxi_error_name(s_)); \
    } while (0)

static uint32_t mix(uint32_t a, uint32_t b) {
    uint32_t x = a * 0x9e3779b1u ^ b * 0x85ebca77u;
    return x ^ x >> 15;
}

/* Loads its own module, reads the initialised table through a kernel and a
 * symbol copy, unloads it. */
static void own_module(job *j, ptxi_dptr out) {
    ptxi_module *m = NULL;
    EXPECT_OK(j, ptxi_module_load_data(j->ctx, own_ptx, strlen(own_ptx), "own.ptx", &m));
    if (!m) return;
    ptxi_kernel *k = NULL;
    EXPECT_OK(j, ptxi_module_get_kernel(m, "bump", &k));
    void *args[] = {&out};
    if (k) EXPECT_OK(j, ptxi_launch(k, (ptxi_dim3){1, 1, 1}, (ptxi_dim3){4, 1, 1}, 0, NULL, args));
    uint32_t got[4] = {0}, table[4] = {0};
    EXPECT_OK(j, ptxi_memcpy_dtoh(j->ctx, got, out, sizeof got));
    EXPECT_OK(j, ptxi_memcpy_from_symbol(m, "table", 0, table, sizeof table));
    for (unsigned i = 0; i < 4; i++) {
        if (got[i] != 11 * (i + 1) + 1) failed(j, "thread %u: bump[%u] = %u", j->t, i, got[i]);
        if (table[i] != 11 * (i + 1)) failed(j, "thread %u: table[%u] = %u", j->t, i, table[i]);
    }
    EXPECT_OK(j, ptxi_module_unload(m));
}

/* Copies n words back from the device and compares them with want[]. */
static void expect_words(job *j, unsigned r, const char *what, ptxi_dptr from, const uint32_t *want, uint32_t *back,
                         uint32_t n) {
    EXPECT_OK(j, ptxi_memcpy_dtoh(j->ctx, back, from, n * 4));
    for (uint32_t i = 0; i < n; i++)
        if (back[i] != want[i]) {
            failed(j, "thread %u round %u: %s[%u] = %u, want %u", j->t, r, what, i, back[i], want[i]);
            return;
        }
}

/* host, want and back hold MAXN words each. */
static void round_of(job *j, ptxi_stream *st, unsigned r, uint32_t *host, uint32_t *want, uint32_t *back) {
    ptxi_ctx *ctx = j->ctx;
    uint32_t n = 1 + mix(j->t, r) % MAXN, k = mix(r, j->t) | 1;
    ptxi_dptr in = 0, out = 0, copy = 0;
    EXPECT_OK(j, ptxi_mem_alloc(ctx, n * 4, &in));
    EXPECT_OK(j, ptxi_mem_alloc(ctx, n * 4, &out));
    EXPECT_OK(j, ptxi_mem_alloc(ctx, n * 4 + 16 + 4 * (r % 7), &copy)); /* own_module uses 16 bytes */
    if (!in || !out || !copy) return;
    for (uint32_t i = 0; i < n; i++) host[i] = mix(j->t * 7919 + r, i), want[i] = host[i] * k + i;
    EXPECT_OK(j, ptxi_memcpy_htod(ctx, in, host, n * 4));
    void *aargs[] = {&out, &in, &n, &k};
    ptxi_dim3 grid = {(n + 127) / 128, 1, 1}, block = {128, 1, 1};
    EXPECT_OK(j, ptxi_launch(j->affine, grid, block, 0, st, aargs));
    expect_words(j, r, "affine", out, want, back, n);
    /* device to device, then a 32-bit set over the source */
    EXPECT_OK(j, ptxi_memcpy_dtod(ctx, copy, out, n * 4));
    uint32_t fill = mix(j->t, ~r);
    EXPECT_OK(j, ptxi_memset_d32(ctx, out, fill, n));
    expect_words(j, r, "copy", copy, want, back, n);
    for (uint32_t i = 0; i < n; i++) want[i] = fill;
    expect_words(j, r, "set", out, want, back, n);
    /* device malloc and free in every thread of the grid */
    uint32_t seed = mix(~j->t, r);
    void *hargs[] = {&out, &n, &seed};
    EXPECT_OK(j, ptxi_launch(j->heapy, grid, block, 0, st, hargs));
    for (uint32_t i = 0; i < n; i++) want[i] = seed + i;
    expect_words(j, r, "heapy", out, want, back, n);
    /* one printf line per round */
    void *sargs[] = {&j->t, &r};
    EXPECT_OK(j, ptxi_launch(j->say, (ptxi_dim3){1, 1, 1}, (ptxi_dim3){1, 1, 1}, 0, st, sargs));
    /* a refused launch is an error of this call only */
    ptxi_status s = ptxi_launch(j->affine, grid, (ptxi_dim3){2048, 1, 1}, 0, st, aargs);
    if (s != PTXI_INVALID_VALUE) failed(j, "thread %u: a block of 2048 gave %s", j->t, ptxi_error_name(s));
    const char *detail = ptxi_ctx_error_detail(ctx);
    if (strncmp(detail, "launch rejected: ", 17))
        failed(j, "thread %u: the detail of a refused launch is '%s'", j->t, detail);
    ptxi_launch_stats stats;
    EXPECT_OK(j, ptxi_ctx_last_launch_stats(ctx, &stats));
    size_t stack;
    EXPECT_OK(j, ptxi_ctx_get_limit(ctx, PTXI_LIMIT_STACK_SIZE, &stack));
    if (r % 8 == j->t % 8) own_module(j, copy);
    EXPECT_OK(j, ptxi_stream_synchronize(st));
    EXPECT_OK(j, ptxi_mem_free(ctx, in));
    EXPECT_OK(j, ptxi_mem_free(ctx, out));
    EXPECT_OK(j, ptxi_mem_free(ctx, copy));
}

static void *run_job(void *arg) {
    job *j = arg;
    ptxi_stream *st[STREAMS] = {0};
    for (unsigned s = 0; s < STREAMS; s++) EXPECT_OK(j, ptxi_stream_create(j->ctx, &st[s]));
    uint32_t *host = malloc(MAXN * 4), *want = malloc(MAXN * 4), *back = malloc(MAXN * 4);
    for (unsigned r = 0; r < j->rounds && host && want && back; r++) round_of(j, st[r % STREAMS], r, host, want, back);
    free(host);
    free(want);
    free(back);
    for (unsigned s = 0; s < STREAMS; s++) EXPECT_OK(j, ptxi_stream_destroy(st[s]));
    return NULL;
}

static ptxi_kernel *kernel(ptxi_module *m, const char *name) {
    ptxi_kernel *k = NULL;
    cr_assert_eq(ptxi_module_get_kernel(m, name, &k), PTXI_SUCCESS);
    return k;
}

/* PTXI_STRESS_ROUNDS lengthens a run by hand. */
Test(stress, threads_streams_copies_launches, .timeout = 600) {
    ptxi_ctx *ctx;
    cr_assert_eq(ptxi_ctx_create(&ctx, &(ptxi_ctx_options){.threads = 2}), PTXI_SUCCESS);
    FILE *out = tmpfile();
    cr_assert(out);
    ptxi_ctx_set_output(ctx, out, NULL);
    ptxi_module *m = NULL;
    cr_assert_eq(ptxi_module_load_data(ctx, stress_ptx, strlen(stress_ptx), "stress.ptx", &m), PTXI_SUCCESS, "%s",
                 ptxi_ctx_error_detail(ctx));
    const char *env = getenv("PTXI_STRESS_ROUNDS");
    unsigned rounds = env && atoi(env) > 0 ? (unsigned)atoi(env) : ROUNDS;
    job jobs[THREADS];
    pthread_t th[THREADS];
    for (unsigned t = 0; t < THREADS; t++) {
        jobs[t] = (job){ctx, kernel(m, "affine"), kernel(m, "heapy"), kernel(m, "say"), t, rounds, 0, ""};
        cr_assert_eq(pthread_create(&th[t], NULL, run_job, &jobs[t]), 0);
    }
    for (unsigned t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
    for (unsigned t = 0; t < THREADS; t++)
        cr_expect_eq(jobs[t].failures, 0, "%u failures, the first: %s", jobs[t].failures, jobs[t].first);
    cr_assert_eq(ptxi_ctx_synchronize(ctx), PTXI_SUCCESS);
    /* every round's line, once */
    static unsigned char seen[THREADS][4096];
    cr_assert(rounds <= 4096);
    rewind(out);
    char line[64];
    unsigned lines = 0;
    while (fgets(line, sizeof line, out)) {
        unsigned t, r;
        char end;
        lines++;
        cr_assert(sscanf(line, "T%u R%u%c", &t, &r, &end) == 3 && end == '\n' && t < THREADS && r < rounds,
                  "printf line '%s'", line);
        cr_expect_eq(seen[t][r]++, 0, "line '%s' twice", line);
    }
    cr_expect_eq(lines, THREADS * rounds);
    fclose(out);
    cr_assert_eq(ptxi_ctx_destroy(ctx), PTXI_SUCCESS);
}
