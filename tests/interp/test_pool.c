/* test_pool.c — the host threads that run launches (pool.c): every job of
 * every run taken exactly once, job 0 by the caller, while heads-ups wake the
 * pool between runs, other host threads run jobs of their own at the same
 * time (they then get threads of their own) and spread copies take the pool
 * when it is free; a job no thread has taken when the caller's ends runs on
 * the caller; spread copies and fills byte for byte. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pool.h"

enum { MAXJOBS = 9, RUNS = 3000 };

typedef struct {
    atomic_uint ran;
    pthread_t by;
} job;

static void *count(void *arg) {
    job *j = arg;
    atomic_fetch_add(&j->ran, 1);
    j->by = pthread_self();
    return NULL;
}

typedef struct {
    unsigned seed;
    char failure[160];
} runner;

/* RUNS runs of 1 to MAXJOBS jobs each, every one checked. */
static void *runs(void *arg) {
    runner *r = arg;
    job jobs[MAXJOBS];
    for (unsigned k = 0; k < RUNS && !r->failure[0]; k++) {
        unsigned n = 1 + (unsigned)rand_r(&r->seed) % MAXJOBS;
        memset(jobs, 0, sizeof jobs);
        vm_pool_run(count, jobs, sizeof *jobs, n);
        for (unsigned i = 0; i < MAXJOBS; i++) {
            unsigned want = i < n;
            if (atomic_load(&jobs[i].ran) != want)
                snprintf(r->failure, sizeof r->failure, "run %u of %u jobs: job %u ran %u times", k, n, i,
                         atomic_load(&jobs[i].ran));
        }
        if (!pthread_equal(jobs[0].by, pthread_self()))
            snprintf(r->failure, sizeof r->failure, "run %u: job 0 ran on another thread", k);
    }
    return NULL;
}

static atomic_bool stop_heads_up;

static void *heads_up(void *arg) {
    (void)arg;
    while (!atomic_load(&stop_heads_up)) vm_pool_heads_up();
    return NULL;
}

/* Spread copies meanwhile, each checked (launches wait for them, not they for launches). */
static void *copies(void *arg) {
    char *failure = arg;
    size_t n = (9 << 20) + 5;
    unsigned char *a = malloc(n), *b = malloc(n);
    for (unsigned k = 0; a && b && !atomic_load(&stop_heads_up) && !failure[0]; k++) {
        memset(a, (int)(k & 0xff), n);
        vm_pool_copy(b, a, 0, n, 4);
        if (b[0] != (k & 0xff) || b[n / 2] != (k & 0xff) || b[n - 1] != (k & 0xff) || memcmp(a, b, n))
            snprintf(failure, 160, "copy %u differs", k);
    }
    free(a);
    free(b);
    return NULL;
}

Test(pool, every_job_runs_once_among_heads_ups_copies_and_other_launchers, .timeout = 300) {
    enum { LAUNCHERS = 3 };
    runner r[LAUNCHERS];
    pthread_t t[LAUNCHERS], h, c;
    static char copy_failure[160];
    atomic_store(&stop_heads_up, false);
    cr_assert_eq(pthread_create(&h, NULL, heads_up, NULL), 0);
    cr_assert_eq(pthread_create(&c, NULL, copies, copy_failure), 0);
    for (unsigned k = 0; k < LAUNCHERS; k++) {
        r[k] = (runner){k + 7, ""};
        cr_assert_eq(pthread_create(&t[k], NULL, runs, &r[k]), 0);
    }
    for (unsigned k = 0; k < LAUNCHERS; k++) {
        pthread_join(t[k], NULL);
        cr_expect_str_empty(r[k].failure, "launcher %u: %s", k, r[k].failure);
    }
    atomic_store(&stop_heads_up, true);
    pthread_join(h, NULL);
    pthread_join(c, NULL);
    cr_expect_str_empty(copy_failure);
}

/* A job that no pool thread has taken when the caller's own job ends runs on
 * the caller: a pool thread asleep for 20 ms takes microseconds to wake,
 * and the caller, done with an empty job 0 at once, takes job 1 first in
 * (nearly) every try. Each try still runs each job once. */
Test(pool, the_caller_runs_jobs_no_thread_has_taken) {
    job jobs[2];
    unsigned mine = 0;
    vm_pool_run(count, jobs, sizeof *jobs, 2); /* the pool has its thread */
    for (int k = 0; k < 20; k++) {
        nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL); /* it sleeps (after 0.5 ms of spinning) */
        memset(jobs, 0, sizeof jobs);
        vm_pool_run(count, jobs, sizeof *jobs, 2);
        cr_assert(atomic_load(&jobs[0].ran) == 1 && atomic_load(&jobs[1].ran) == 1, "try %d", k);
        mine += pthread_equal(jobs[1].by, pthread_self()) != 0;
    }
    cr_expect_gt(mine, 0, "job 1 never ran on the caller in 20 tries");
}

Test(pool, spread_copies_and_fills_land_byte_for_byte) {
    static const size_t sizes[] = {0, 1, 4095, (4 << 20) + 1, (13 << 20) + 4097, 40 << 20};
    static const unsigned threads[] = {1, 2, 3, 16, 200};
    size_t most = 40 << 20;
    unsigned char *src = malloc(most), *dst = malloc(most + 2);
    cr_assert(src && dst);
    for (size_t i = 0; i < most; i++) src[i] = (unsigned char)(i * 131 + (i >> 13));
    for (unsigned s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (unsigned t = 0; t < sizeof threads / sizeof *threads; t++) {
            size_t n = sizes[s];
            memset(dst, 0x11, most + 2);
            vm_pool_copy(dst + 1, src, 0, n, threads[t]);
            cr_assert(dst[0] == 0x11 && dst[n + 1] == 0x11, "%zu bytes, %u threads: written outside", n, threads[t]);
            cr_assert(!memcmp(dst + 1, src, n), "%zu bytes, %u threads: the copy", n, threads[t]);
            vm_pool_copy(dst + 1, NULL, 0xee, n, threads[t]);
            cr_assert(dst[0] == 0x11 && dst[n + 1] == 0x11, "%zu bytes, %u threads: filled outside", n, threads[t]);
            for (size_t i = 0; i < n; i++)
                if (dst[1 + i] != 0xee) cr_assert_fail("%zu bytes, %u threads: byte %zu not filled", n, threads[t], i);
        }
    free(src);
    free(dst);
}

static void *keep_and_exit(void *arg) {
    (void)arg;
    for (int i = 0; i < 8; i++) vm_block_free(vm_block_alloc(4096u << (i % 3)), 4096u << (i % 3));
    return NULL; /* what it kept goes with the thread (LeakSanitizer, the asan variant) */
}

/* A host thread's kept blocks (vm_block_alloc, vm_block_free): a block freed
 * comes back for the next request of its size rounded to 64 bytes, aligned,
 * and only once; another size gets another block; a thread's blocks go when
 * it exits. */
Test(pool, freed_blocks_come_back_for_their_size) {
    char *p = vm_block_alloc(1000);
    cr_assert(p && (uintptr_t)p % 64 == 0);
    memset(p, 1, 1000);
    vm_block_free(p, 1000);
    char *q = vm_block_alloc(1024), *r = vm_block_alloc(1000), *s = vm_block_alloc(2048);
    cr_expect_eq(q, p, "the kept block for 1000 bytes serves 1024");
    cr_expect_neq(r, p, "and only once");
    cr_assert(r && s && (uintptr_t)r % 64 == 0 && (uintptr_t)s % 64 == 0);
    vm_block_free(q, 1024);
    vm_block_free(s, 2048);
    cr_expect_eq(vm_block_alloc(2048), s);
    vm_block_free(s, 2048);
    vm_block_free(r, 1000);
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, keep_and_exit, NULL), 0);
    pthread_join(t, NULL);
}
