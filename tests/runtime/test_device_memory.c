/* test_device_memory.c — device memory as the host sees it: resident memory
 * bounded by what is live under churn, lazily backed pages that go back when
 * freed, freed ranges that read as zero when reused, and the size of the
 * device (PTXI_DEVICE_MEMORY, or the host's limit) enforced as an error. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ptxi.h"

#define MiB ((size_t)1 << 20)
#define GiB ((size_t)1 << 30)

/* A size from /proc/self/status ("VmRSS", "VmSize"), in bytes. Read without
 * stdio, whose buffers would be host allocations of their own (held in
 * quarantine by a sanitized build). */
static size_t status_bytes(const char *field) {
    static char text[8192];
    char key[32];
    int fd = open("/proc/self/status", O_RDONLY);
    cr_assert(fd >= 0, "no /proc/self/status");
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    cr_assert(n > 0);
    text[n] = 0;
    snprintf(key, sizeof key, "\n%s:", field);
    const char *line = strstr(text, key);
    cr_assert(line, "no %s line", field);
    return (size_t)strtoull(line + strlen(key), NULL, 10) << 10;
}

static size_t rss(void) { return status_bytes("VmRSS"); }

/* ThreadSanitizer keeps shadow memory of its own, several bytes for each byte
 * touched, and does not give it back with the pages: resident memory then says
 * nothing about ptxi's. */
#if defined(__SANITIZE_THREAD__)
#define SKIP_UNDER_TSAN() cr_skip_test("skipped: resident memory under ThreadSanitizer is its own shadow's")
#else
#define SKIP_UNDER_TSAN() (void)0
#endif

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static ptxi_ctx *make(size_t reserve) {
    ptxi_ctx *ctx;
    cr_assert_eq(ptxi_ctx_create(&ctx, &(ptxi_ctx_options){.threads = 1, .global_reserve = reserve}), PTXI_SUCCESS);
    return ctx;
}

/* Each of `n` bytes at d reads as `v`. */
static bool reads_as(ptxi_ctx *ctx, ptxi_dptr d, size_t n, uint8_t v) {
    static uint8_t buf[1 << 16];
    for (size_t at = 0; at < n; at += sizeof buf) {
        size_t k = n - at < sizeof buf ? n - at : sizeof buf;
        cr_assert_eq(ptxi_memcpy_dtoh(ctx, buf, d + at, k), PTXI_SUCCESS);
        for (size_t i = 0; i < k; i++)
            if (buf[i] != v) return false;
    }
    return true;
}

/* One allocation live at a time, of a size that changes every cycle, filled
 * so that every page of it is touched: what stays resident after each free
 * must not grow with the number of cycles. */
Test(device_memory, churn_keeps_resident_memory_bounded_by_what_is_live, .timeout = 300) {
    SKIP_UNDER_TSAN();
    ptxi_ctx *ctx = make(0);
    size_t base = rss(), worst_freed = 0, worst_live = 0;
    uint32_t seed = 12345;
    for (int cycle = 0; cycle < 10000; cycle++) {
        seed = seed * 1103515245u + 12345u;
        /* mostly up to 1 MiB, every 1000th 64 MiB; odd sizes so ranges are not page-aligned */
        size_t size = cycle % 1000 == 999 ? 64 * MiB + 40 : 1 + (seed >> 8) % MiB;
        ptxi_dptr d;
        cr_assert_eq(ptxi_mem_alloc(ctx, size, &d), PTXI_SUCCESS, "cycle %d: %zu bytes", cycle, size);
        cr_assert_eq(ptxi_memset_d8(ctx, d, (uint8_t)cycle, size), PTXI_SUCCESS);
        size_t live = rss();
        cr_assert_eq(ptxi_mem_free(ctx, d), PTXI_SUCCESS);
        size_t freed = rss();
        if (live > base + size && live - base - size > worst_live) worst_live = live - base - size;
        if (freed > base && freed - base > worst_freed) worst_freed = freed - base;
    }
    fprintf(stderr,
            "churn: resident %zu KiB at start, at most %zu KiB more after a free, %zu KiB beyond the live "
            "allocation\n",
            base >> 10, worst_freed >> 10, worst_live >> 10);
    cr_expect_leq(worst_freed, 8 * MiB, "%zu KiB stay resident with nothing live", worst_freed >> 10);
    cr_expect_leq(worst_live, 8 * MiB, "%zu KiB resident beyond the live allocation", worst_live >> 10);
    ptxi_ctx_destroy(ctx);
}

/* 4 GiB: no page is touched by the allocation itself; what a fill touched
 * goes back to the host when it is freed. */
Test(device_memory, four_gib_is_backed_lazily_and_given_back, .timeout = 120) {
    SKIP_UNDER_TSAN();
    ptxi_ctx *ctx = make(0);
    size_t free_b, total;
    cr_assert_eq(ptxi_mem_get_info(ctx, &free_b, &total), PTXI_SUCCESS);
    if (free_b < 5 * GiB) cr_skip_test("skipped: the device has %zu MiB free, less than 5 GiB", free_b / MiB);
    size_t base = rss();
    double t0 = now();
    ptxi_dptr d;
    cr_assert_eq(ptxi_mem_alloc(ctx, 4 * GiB, &d), PTXI_SUCCESS);
    double took = now() - t0;
    size_t after_alloc = rss();
    /* three 64 MiB stretches: the start, the middle and the end */
    size_t at[] = {0, 2 * GiB - 12345, 4 * GiB - 64 * MiB};
    for (int k = 0; k < 3; k++) cr_assert_eq(ptxi_memset_d8(ctx, d + at[k], 0x5a, 64 * MiB), PTXI_SUCCESS);
    size_t filled = rss();
    cr_assert(reads_as(ctx, d + 1 * GiB, 1 * MiB, 0), "untouched memory reads as zero");
    cr_assert_eq(ptxi_mem_free(ctx, d), PTXI_SUCCESS);
    size_t freed = rss();
    fprintf(stderr,
            "4 GiB: allocated in %.3f s; resident %zu MiB at start, %zu after the allocation, %zu after "
            "filling 192 MiB, %zu after the free\n",
            took, base / MiB, after_alloc / MiB, filled / MiB, freed / MiB);
    cr_expect_lt(took, 0.5, "allocating 4 GiB took %.3f s", took);
    /* only the shadow map, a byte per 256, is written */
    cr_expect_leq(after_alloc, base + 4 * GiB / 256 + 8 * MiB, "the allocation made %zu MiB resident",
                  (after_alloc - base) / MiB);
    cr_expect_geq(filled, base + 192 * MiB, "the fill is resident (%zu MiB)", filled / MiB);
    cr_expect_leq(freed, base + 8 * MiB, "%zu MiB stay resident after the free", (freed - base) / MiB);
    ptxi_ctx_destroy(ctx);
}

/* A 16 MiB reserve gone round many times, one allocation live at a time: the
 * range just freed is never the next one handed out, reused ranges read as
 * zero, and freed neighbours merge into room for one large allocation. */
Test(device_memory, freed_ranges_wait_merge_and_read_as_zero, .timeout = 120) {
    ptxi_ctx *ctx = make(16 * MiB);
    ptxi_dptr prev = 0, high = 0;
    size_t prev_size = 0;
    int reused = 0;
    uint32_t seed = 7;
    for (int cycle = 0; cycle < 300; cycle++) {
        seed = seed * 1103515245u + 12345u;
        size_t size = 1 + (seed >> 8) % MiB;
        ptxi_dptr d;
        cr_assert_eq(ptxi_mem_alloc(ctx, size, &d), PTXI_SUCCESS, "cycle %d: %zu bytes", cycle, size);
        cr_assert(!prev || d >= prev + prev_size || d + size <= prev, "cycle %d: the range just freed is reused",
                  cycle);
        if (d < high) reused++;
        if (d + size > high) high = d + size;
        cr_assert(reads_as(ctx, d, size, 0), "cycle %d: %zu bytes at 0x%llx do not read as zero", cycle, size,
                  (unsigned long long)d);
        cr_assert_eq(ptxi_memset_d8(ctx, d, 0xab, size), PTXI_SUCCESS);
        cr_assert_eq(ptxi_mem_free(ctx, d), PTXI_SUCCESS);
        prev = d;
        prev_size = size;
    }
    cr_expect_gt(reused, 10, "the reserve was gone round only %d times", reused);
    /* 60 pieces freed in an order that leaves holes until the last */
    ptxi_dptr piece[60];
    for (int k = 0; k < 60; k++) cr_assert_eq(ptxi_mem_alloc(ctx, 200000 + k, &piece[k]), PTXI_SUCCESS);
    for (int k = 0; k < 60; k++) cr_assert_eq(ptxi_mem_free(ctx, piece[(k * 7) % 60]), PTXI_SUCCESS);
    ptxi_dptr big;
    cr_assert_eq(ptxi_mem_alloc(ctx, 15 * MiB, &big), PTXI_SUCCESS, "the freed ranges did not merge");
    cr_assert(reads_as(ctx, big, 15 * MiB, 0));
    ptxi_ctx_destroy(ctx);
}

static const char store7[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                             ".visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd1;\n.reg .b32 %r1;\n"
                             "ld.param.u64 %rd1, [p];\nmov.u32 %r1, 7;\nst.global.u32 [%rd1], %r1;\nret;\n}\n";

/* PTXI_DEVICE_MEMORY=64M: a 64 MiB device. What does not fit is OUT_OF_MEMORY,
 * an error that is not sticky; free memory is the total less what is live;
 * a full device still launches kernels. */
Test(device_memory, size_from_the_environment_is_enforced) {
    setenv("PTXI_DEVICE_MEMORY", "64M", 1);
    ptxi_device_props p;
    cr_assert_eq(ptxi_device_get_props(&p), PTXI_SUCCESS);
    cr_assert_eq(p.total_global_mem, 64 * MiB);
    ptxi_ctx *ctx = make(0);
    size_t free_b, total;
    cr_assert_eq(ptxi_mem_get_info(ctx, &free_b, &total), PTXI_SUCCESS);
    cr_assert_eq(total, 64 * MiB);
    cr_assert_eq(free_b, 64 * MiB);
    ptxi_dptr a, b, c;
    cr_assert_eq(ptxi_mem_alloc(ctx, 48 * MiB, &a), PTXI_SUCCESS);
    ptxi_mem_get_info(ctx, &free_b, NULL);
    cr_assert_eq(free_b, 16 * MiB);
    cr_assert_eq(ptxi_mem_alloc(ctx, 16 * MiB + 1, &b), PTXI_OUT_OF_MEMORY);
    cr_assert_eq(ptxi_mem_alloc_managed(ctx, 16 * MiB + 1, &b), PTXI_OUT_OF_MEMORY);
    cr_assert_eq(ptxi_mem_alloc(ctx, 16 * MiB, &b), PTXI_SUCCESS, "out of memory is not sticky");
    ptxi_mem_get_info(ctx, &free_b, NULL);
    cr_assert_eq(free_b, 0);
    cr_assert_eq(ptxi_mem_alloc(ctx, 1, &c), PTXI_OUT_OF_MEMORY);
    ptxi_module *m;
    cr_assert_eq(ptxi_module_load_data(ctx, store7, strlen(store7), "store7.ptx", &m), PTXI_SUCCESS, "%s",
                 ptxi_ctx_error_detail(ctx));
    void *args[] = {&b};
    cr_assert_eq(ptxi_launch(ptxi_module_kernel_at(m, 0), (ptxi_dim3){1, 1, 1}, (ptxi_dim3){1, 1, 1}, 0, NULL, args),
                 PTXI_SUCCESS);
    uint32_t v = 0;
    cr_assert_eq(ptxi_memcpy_dtoh(ctx, &v, b, 4), PTXI_SUCCESS);
    cr_assert_eq(v, 7);
    cr_assert_eq(ptxi_mem_free(ctx, a), PTXI_SUCCESS);
    cr_assert_eq(ptxi_mem_free(ctx, b), PTXI_SUCCESS);
    ptxi_mem_get_info(ctx, &free_b, NULL);
    cr_assert_eq(free_b, 64 * MiB);
    ptxi_ctx_destroy(ctx);
}

static size_t device_total(void) {
    ptxi_device_props p;
    cr_assert_eq(ptxi_device_get_props(&p), PTXI_SUCCESS);
    return p.total_global_mem;
}

/* Only a plain byte count, with at most a K/M/G/T unit, is taken; anything
 * else leaves the host's own size. */
Test(device_memory, size_in_the_environment_is_parsed_strictly) {
    unsetenv("PTXI_DEVICE_MEMORY");
    size_t host = device_total();
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    cr_assert(host > 0 && host <= (size_t)pages * (size_t)page, "%zu bytes, more than the host's", host);
    static const struct {
        const char *text;
        size_t bytes;
    } good[] = {
        {"85017493504", 85017493504ull}, {"1K", 1024}, {"3G", 3 * GiB}, {"2T", (size_t)2 << 40}, {"4097", 4097},
    };
    for (size_t k = 0; k < sizeof good / sizeof *good; k++) {
        setenv("PTXI_DEVICE_MEMORY", good[k].text, 1);
        cr_expect_eq(device_total(), good[k].bytes, "%s", good[k].text);
    }
    static const char *const bad[] = {
        "", "12abc", "-5", "0", "8GB", " 8", "8 ", "0x100", "1.5G", "k", "99999999999999999999", "17179869184T"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        setenv("PTXI_DEVICE_MEMORY", bad[k], 1);
        cr_expect_eq(device_total(), host, "'%s' was taken", bad[k]);
    }
}

/* out[i] = in[i] + 1 for i < n, in a block of 1024 threads: the lanes past n are
 * inactive, but their addresses (past the end of the buffers, where other
 * threads allocate) are still looked up. */
static const char add1[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                           ".visible .entry k(.param .u64 in, .param .u64 out, .param .u32 n)\n{\n"
                           ".reg .pred %p1;\n.reg .b32 %r<5>;\n.reg .b64 %rd<6>;\n"
                           "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\nld.param.u32 %r1, [n];\n"
                           "mov.u32 %r2, %tid.x;\nsetp.ge.u32 %p1, %r2, %r1;\nmul.wide.u32 %rd3, %r2, 4;\n"
                           "add.s64 %rd4, %rd1, %rd3;\nadd.s64 %rd5, %rd2, %rd3;\n@!%p1 ld.global.u32 %r3, [%rd4];\n"
                           "add.u32 %r4, %r3, 1;\n@!%p1 st.global.u32 [%rd5], %r4;\nret;\n}\n";

/* A context of `threads` host threads with the module src loaded into *m. */
static ptxi_ctx *with_module(unsigned threads, const char *src, ptxi_module **m) {
    ptxi_ctx *ctx;
    cr_assert_eq(ptxi_ctx_create(&ctx, &(ptxi_ctx_options){.threads = threads}), PTXI_SUCCESS);
    cr_assert_eq(ptxi_module_load_data(ctx, src, strlen(src), "test.ptx", m), PTXI_SUCCESS, "%s",
                 ptxi_ctx_error_detail(ctx));
    return ctx;
}

typedef struct {
    ptxi_ctx *ctx;
    unsigned id;
    char failure[200];
} churner;

/* Allocations of changing sizes, each filled, looked up, read back and freed. */
static void *churn(void *arg) {
    churner *c = arg;
    unsigned seed = c->id;
    static uint8_t bufs[8][4096];
    uint8_t *buf = bufs[c->id % 8];
    for (unsigned i = 0; i < 1500 && !c->failure[0]; i++) {
        size_t size = 1 + (size_t)rand_r(&seed) % 65536;
        uint8_t v = (uint8_t)(c->id * 31 + i);
        ptxi_dptr d, base;
        size_t bytes, n = size < sizeof bufs[0] ? size : sizeof bufs[0];
        if (ptxi_mem_alloc(c->ctx, size, &d) || ptxi_memset_d8(c->ctx, d, v, size) ||
            ptxi_mem_get_range(c->ctx, d + size - 1, &base, &bytes) || base != d || bytes != size ||
            ptxi_memcpy_dtoh(c->ctx, buf, d + size - n, n) || ptxi_mem_get_info(c->ctx, &bytes, NULL)) {
            snprintf(c->failure, sizeof c->failure, "thread %u, cycle %u: a call failed", c->id, i);
            break;
        }
        for (size_t k = 0; k < n; k++)
            if (buf[k] != v) snprintf(c->failure, sizeof c->failure, "thread %u, cycle %u: byte %zu", c->id, i, k);
        if (ptxi_mem_free(c->ctx, d)) snprintf(c->failure, sizeof c->failure, "thread %u: free failed", c->id);
    }
    return NULL;
}

Test(device_memory, many_threads_allocate_and_free_while_a_kernel_runs, .timeout = 300) {
    ptxi_module *m;
    ptxi_ctx *ctx = with_module(2, add1, &m);
    enum { N = 100, THREADS = 6 };
    static uint32_t host[N];
    for (uint32_t i = 0; i < N; i++) host[i] = i * 3;
    ptxi_dptr in, out;
    cr_assert_eq(ptxi_mem_alloc(ctx, sizeof host, &in), PTXI_SUCCESS);
    cr_assert_eq(ptxi_mem_alloc(ctx, sizeof host, &out), PTXI_SUCCESS);
    cr_assert_eq(ptxi_memcpy_htod(ctx, in, host, sizeof host), PTXI_SUCCESS);
    size_t free_before;
    ptxi_mem_get_info(ctx, &free_before, NULL);
    churner c[THREADS];
    pthread_t t[THREADS];
    for (unsigned k = 0; k < THREADS; k++) {
        c[k] = (churner){ctx, k + 1, ""};
        cr_assert_eq(pthread_create(&t[k], NULL, churn, &c[k]), 0);
    }
    uint32_t n = N;
    void *args[] = {&in, &out, &n};
    for (int r = 0; r < 100; r++) {
        cr_assert_eq(ptxi_memset_d8(ctx, out, 0, sizeof host), PTXI_SUCCESS);
        cr_assert_eq(
            ptxi_launch(ptxi_module_kernel_at(m, 0), (ptxi_dim3){1, 1, 1}, (ptxi_dim3){1024, 1, 1}, 0, NULL, args),
            PTXI_SUCCESS, "%s", ptxi_ctx_error_detail(ctx));
        static uint32_t got[N];
        cr_assert_eq(ptxi_memcpy_dtoh(ctx, got, out, sizeof got), PTXI_SUCCESS);
        for (uint32_t i = 0; i < N; i++) cr_assert_eq(got[i], i * 3 + 1, "launch %d, element %u", r, i);
    }
    for (unsigned k = 0; k < THREADS; k++) {
        pthread_join(t[k], NULL);
        cr_expect_str_empty(c[k].failure);
    }
    size_t free_after;
    ptxi_mem_get_info(ctx, &free_after, NULL);
    cr_expect_eq(free_after, free_before, "every churned byte was given back");
    ptxi_ctx_destroy(ctx);
}

/* Under an address-space limit (ulimit -v) the arena shrinks to fit, and the
 * device with it: a context is still made, and what does not fit is an error. */
Test(device_memory, address_space_limit_shrinks_the_device) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    cr_skip_test("skipped: the sanitizer's own reservations need more address space");
#endif
    unsetenv("PTXI_DEVICE_MEMORY");
    /* 20 GiB more than now: the generic windows take 12, the rest cannot hold 64 GiB */
    rlim_t as = status_bytes("VmSize") + 20 * GiB;
    cr_assert_eq(setrlimit(RLIMIT_AS, &(struct rlimit){as, as}), 0);
    ptxi_ctx *ctx = make(0);
    size_t free_b, total;
    cr_assert_eq(ptxi_mem_get_info(ctx, &free_b, &total), PTXI_SUCCESS);
    cr_assert(total > 0 && total <= 4 * GiB, "a device of %zu MiB", total / MiB);
    ptxi_dptr d;
    cr_assert_eq(ptxi_mem_alloc(ctx, total + 1, &d), PTXI_OUT_OF_MEMORY);
    cr_assert_eq(ptxi_mem_alloc(ctx, total / 2, &d), PTXI_SUCCESS);
    cr_assert_eq(ptxi_memset_d8(ctx, d, 1, MiB), PTXI_SUCCESS);
    cr_assert_eq(ptxi_mem_free(ctx, d), PTXI_SUCCESS);
    ptxi_ctx_destroy(ctx);
}

/* A byte of the pattern the copy tests fill with: differs at every offset of a page. */
static uint8_t pattern(size_t i, unsigned salt) { return (uint8_t)((i * 2654435761u >> 7) ^ (i >> 12) ^ salt); }

typedef struct {
    ptxi_ctx *ctx;
    ptxi_module *m;
    ptxi_dptr in, out;
    int launches;
    char failure[200];
} launcher;

/* Launches add1 over and over on its own context (whose threads then hold the pool). */
static void *keep_launching(void *arg) {
    launcher *l = arg;
    uint32_t n = 1024;
    void *args[] = {&l->in, &l->out, &n};
    for (int r = 0; r < l->launches && !l->failure[0]; r++)
        if (ptxi_launch(ptxi_module_kernel_at(l->m, 0), (ptxi_dim3){64, 1, 1}, (ptxi_dim3){1024, 1, 1}, 0, NULL, args))
            snprintf(l->failure, sizeof l->failure, "launch %d: %s", r, ptxi_ctx_error_detail(l->ctx));
    return NULL;
}

/* Copies and fills of many MiB run spread over the context's host threads
 * (pool.c vm_pool_copy): every byte lands where one memcpy would put it, for
 * sizes that are not whole pages, a fill inside a buffer, device-to-device
 * copies apart and overlapping (memmove's answer), and while another
 * context's launches hold the pool. */
Test(device_memory, large_copies_spread_over_host_threads_are_exact, .timeout = 300) {
    enum { N = (37 << 20) + 123 };
    ptxi_ctx *ctx;
    cr_assert_eq(ptxi_ctx_create(&ctx, &(ptxi_ctx_options){.threads = 5}), PTXI_SUCCESS);
    uint8_t *host = malloc(N), *got = malloc(N), *want = malloc(N);
    cr_assert(host && got && want);
    launcher l = {NULL, NULL, 0, 0, 200, ""};
    ptxi_ctx *busy = l.ctx = with_module(3, add1, &l.m);
    cr_assert_eq(ptxi_mem_alloc(busy, 4096, &l.in), PTXI_SUCCESS);
    cr_assert_eq(ptxi_mem_alloc(busy, 4096, &l.out), PTXI_SUCCESS);
    for (int round = 0; round < 2; round++) {
        pthread_t t;
        if (round) cr_assert_eq(pthread_create(&t, NULL, keep_launching, &l), 0);
        for (size_t i = 0; i < N; i++) host[i] = pattern(i, round);
        ptxi_dptr a, b;
        cr_assert_eq(ptxi_mem_alloc(ctx, N, &a), PTXI_SUCCESS);
        cr_assert_eq(ptxi_mem_alloc(ctx, N, &b), PTXI_SUCCESS);
        cr_assert_eq(ptxi_memcpy_htod(ctx, a, host, N), PTXI_SUCCESS);
        memset(got, 0, N);
        cr_assert_eq(ptxi_memcpy_dtoh(ctx, got, a, N), PTXI_SUCCESS);
        cr_assert(!memcmp(got, host, N), "round %d: host to device and back", round);
        /* a fill from an odd offset over an odd length */
        size_t at = 4095, len = (21 << 20) + 77;
        cr_assert_eq(ptxi_memset_d8(ctx, a + at, 0xa5, len), PTXI_SUCCESS);
        memcpy(want, host, N);
        memset(want + at, 0xa5, len);
        cr_assert_eq(ptxi_memcpy_dtod(ctx, b, a, N), PTXI_SUCCESS);
        cr_assert_eq(ptxi_memcpy_dtoh(ctx, got, b, N), PTXI_SUCCESS);
        cr_assert(!memcmp(got, want, N), "round %d: fill, then device to device", round);
        /* overlapping, both ways */
        size_t shift = 1000, part = N - 2 * shift;
        cr_assert_eq(ptxi_memcpy_dtod(ctx, b + shift, b, part), PTXI_SUCCESS);
        memmove(want + shift, want, part);
        cr_assert_eq(ptxi_memcpy_dtod(ctx, b, b + 2 * shift, part), PTXI_SUCCESS);
        memmove(want, want + 2 * shift, part);
        cr_assert_eq(ptxi_memcpy_dtoh(ctx, got, b, N), PTXI_SUCCESS);
        cr_assert(!memcmp(got, want, N), "round %d: overlapping device-to-device copies", round);
        cr_assert_eq(ptxi_mem_free(ctx, a), PTXI_SUCCESS);
        cr_assert_eq(ptxi_mem_free(ctx, b), PTXI_SUCCESS);
        if (round) {
            pthread_join(t, NULL);
            cr_expect_str_empty(l.failure);
        }
    }
    free(host), free(got), free(want);
    ptxi_ctx_destroy(busy);
    ptxi_ctx_destroy(ctx);
}

/* ptxi_launch_stats tells how the launch filled its host threads: as many
 * as the context has (no more than the grid's CTAs), each started after the
 * launch began and busy no longer than it ran. */
Test(device_memory, launch_stats_say_how_the_host_threads_were_filled) {
    static const unsigned threads[] = {1, 3, 8}, grids[] = {64, 64, 2};
    for (int c = 0; c < 3; c++) {
        ptxi_module *m;
        ptxi_ctx *ctx = with_module(threads[c], add1, &m);
        ptxi_dptr in, out;
        uint32_t n = 1024;
        cr_assert_eq(ptxi_mem_alloc(ctx, 4096, &in), PTXI_SUCCESS);
        cr_assert_eq(ptxi_mem_alloc(ctx, 4096, &out), PTXI_SUCCESS);
        void *args[] = {&in, &out, &n};
        cr_assert_eq(ptxi_launch(ptxi_module_kernel_at(m, 0), (ptxi_dim3){grids[c], 1, 1}, (ptxi_dim3){1024, 1, 1}, 0,
                                 NULL, args),
                     PTXI_SUCCESS);
        ptxi_launch_stats st;
        cr_assert_eq(ptxi_ctx_last_launch_stats(ctx, &st), PTXI_SUCCESS);
        unsigned want = threads[c] < grids[c] ? threads[c] : grids[c];
        cr_expect_eq(st.host_threads, want, "%u threads, %u CTAs: %u host threads ran it", threads[c], grids[c],
                     st.host_threads);
        cr_expect(st.busy_seconds > 0 && st.busy_seconds <= st.host_threads * st.seconds, "busy %g s of %u x %g s",
                  st.busy_seconds, st.host_threads, st.seconds);
        cr_expect(st.late_start_seconds >= 0 && st.late_start_seconds < st.seconds, "late %g s of %g",
                  st.late_start_seconds, st.seconds);
        cr_expect(st.tail_seconds >= 0 && st.tail_seconds < st.seconds, "tail %g s of %g", st.tail_seconds, st.seconds);
        if (want == 1) cr_expect_eq(st.tail_seconds, 0.0);
        ptxi_ctx_destroy(ctx);
    }
}

static const char sums[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry one(.param .u64 out, .param .u32 a)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [a];\nst.global.u32 [%rd1], %r1;\nret;\n}\n"
    ".visible .entry two(.param .u64 out, .param .u32 a, .param .u32 b)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [a];\nld.param.u32 %r2, [b];\nmul.lo.u32 %r3, %r2, 1000;\n"
    "add.u32 %r3, %r3, %r1;\nst.global.u32 [%rd1], %r3;\nret;\n}\n"
    ".visible .entry none()\n{\nret;\n}\n";

/* Parameter buffers are kept from launch to launch (launch.c params_take):
 * kernels of three parameter sizes, one of them none, launched in turn on a
 * context of two host threads, see their own values every time, and the
 * kept buffers do not count as device memory in use. */
Test(device_memory, kept_parameter_buffers_hold_each_launch_s_own_values) {
    ptxi_module *m;
    ptxi_ctx *ctx = with_module(2, sums, &m);
    ptxi_kernel *one, *two, *none;
    cr_assert_eq(ptxi_module_get_kernel(m, "one", &one), PTXI_SUCCESS);
    cr_assert_eq(ptxi_module_get_kernel(m, "two", &two), PTXI_SUCCESS);
    cr_assert_eq(ptxi_module_get_kernel(m, "none", &none), PTXI_SUCCESS);
    ptxi_dptr out;
    cr_assert_eq(ptxi_mem_alloc(ctx, 4, &out), PTXI_SUCCESS);
    size_t free0;
    cr_assert_eq(ptxi_mem_get_info(ctx, &free0, NULL), PTXI_SUCCESS);
    for (uint32_t i = 0; i < 60; i++) {
        uint32_t a = i * 7 + 1, b = i % 5, got = 0, want = i % 3 == 1 ? a + 1000 * b : a;
        void *a1[] = {&out, &a}, *a2[] = {&out, &a, &b};
        ptxi_kernel *k = i % 3 == 1 ? two : one;
        cr_assert_eq(ptxi_launch(k, (ptxi_dim3){1, 1, 1}, (ptxi_dim3){1, 1, 1}, 0, NULL, i % 3 == 1 ? a2 : a1),
                     PTXI_SUCCESS);
        if (i % 3 == 2)
            cr_assert_eq(ptxi_launch(none, (ptxi_dim3){2, 1, 1}, (ptxi_dim3){32, 1, 1}, 0, NULL, NULL), PTXI_SUCCESS);
        cr_assert_eq(ptxi_memcpy_dtoh(ctx, &got, out, 4), PTXI_SUCCESS);
        cr_assert_eq(got, want, "launch %u: %u, not %u", i, got, want);
    }
    size_t free1;
    cr_assert_eq(ptxi_mem_get_info(ctx, &free1, NULL), PTXI_SUCCESS);
    cr_expect_eq(free1, free0, "kept parameter buffers are not device memory in use");
    ptxi_ctx_destroy(ctx);
}
