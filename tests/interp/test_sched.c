/* test_sched.c — scheduling guarantees: lanes of one warp spinning on a lock
 * another lane holds make progress, CTAs that spin on each other's flags make
 * progress even on one host thread, and results do not depend on the number
 * of host threads. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ptxi.h"

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"

/* The watchdog against a hang. Under ThreadSanitizer an atomic costs about a
 * hundred times more, and the lock test's lanes take the lock a time slice
 * apart: 64 of them need a minute there. AddressSanitizer's unoptimized build
 * (the variant_asan test) on a loaded machine gets the same margin. */
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define WATCHDOG_S 300
#else
#define WATCHDOG_S 20
#endif

static void run(const char *src, unsigned threads, unsigned grid, unsigned block, void *out, size_t n) {
    ptxi_ctx *ctx;
    cr_assert_eq(ptxi_ctx_create(&ctx, &(ptxi_ctx_options){.threads = threads, .timeout_s = WATCHDOG_S}), PTXI_SUCCESS);
    ptxi_module *m;
    cr_assert_eq(ptxi_module_load_data(ctx, src, strlen(src), "s.ptx", &m), PTXI_SUCCESS, "%s",
                 ptxi_ctx_error_detail(ctx));
    ptxi_dptr d;
    cr_assert_eq(ptxi_mem_alloc(ctx, n, &d), PTXI_SUCCESS);
    ptxi_memset_d8(ctx, d, 0, n);
    void *args[] = {&d};
    ptxi_status s = ptxi_launch(ptxi_module_kernel_at(m, 0), (ptxi_dim3){grid, 1, 1}, (ptxi_dim3){block, 1, 1}, 0, NULL,
                                args);
    cr_assert_eq(s, PTXI_SUCCESS, "%s: %s", ptxi_error_name(s), ptxi_ctx_error_detail(ctx));
    ptxi_memcpy_dtoh(ctx, out, d, n);
    ptxi_ctx_destroy(ctx);
}

/* Block b waits until block b+1 has set its flag; the last block starts the
 * chain. On one host thread this needs several CTAs resident at once. */
static const char chain_ptx[] = HDR
    ".visible .entry chain(.param .u64 f)\n{\n.reg .pred %p<3>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<6>;\n"
    "ld.param.u64 %rd1, [f];\nmov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %nctaid.x;\nmov.u32 %r3, %tid.x;\n"
    "setp.ne.s32 %p1, %r3, 0;\n@%p1 bra DONE;\nadd.s32 %r4, %r1, 1;\nsetp.ge.u32 %p2, %r4, %r2;\n"
    "mov.u32 %r6, 0;\n@%p2 bra SET;\nmul.wide.u32 %rd2, %r4, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "SPIN:\nld.volatile.global.u32 %r5, [%rd3];\nsetp.eq.s32 %p2, %r5, 0;\n@%p2 bra SPIN;\nmov.u32 %r6, %r5;\n"
    "SET:\nadd.s32 %r7, %r6, 1;\nmul.wide.u32 %rd4, %r1, 4;\nadd.s64 %rd5, %rd1, %rd4;\n"
    "st.volatile.global.u32 [%rd5], %r7;\nDONE:\nret;\n}\n";

Test(sched, ctas_spinning_on_each_other_progress_on_one_thread) {
    uint32_t f[6];
    run(chain_ptx, 1, 6, 32, f, sizeof f);
    for (int b = 0; b < 6; b++) cr_assert_eq(f[b], (uint32_t)(6 - b), "flag[%d] = %u", b, f[b]);
}

/* Every lane of a warp takes a spin lock held by one lane at a time
 * (atom.cas / atom.exch) and increments a counter inside it. */
static const char lock_ptx[] = HDR
    ".visible .entry lock(.param .u64 f)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<6>;\n.reg .b64 %rd<3>;\n"
    "ld.param.u64 %rd1, [f];\nadd.s64 %rd2, %rd1, 4;\n"
    "TRY:\natom.global.cas.b32 %r1, [%rd1], 0, 1;\nsetp.ne.s32 %p1, %r1, 0;\n@%p1 bra TRY;\n"
    "ld.volatile.global.u32 %r2, [%rd2];\nadd.s32 %r3, %r2, 1;\nst.volatile.global.u32 [%rd2], %r3;\n"
    "membar.gl;\natom.global.exch.b32 %r4, [%rd1], 0;\nret;\n}\n";

Test(sched, intra_warp_lock_makes_progress) {
    uint32_t f[2];
    run(lock_ptx, 1, 2, 64, f, sizeof f);
    cr_assert_eq(f[0], 0, "lock released");
    cr_assert_eq(f[1], 128, "every thread incremented once (got %u)", f[1]);
}

/* atomics from many CTAs: the final values do not depend on the host threads */
static const char atom_ptx[] = HDR
    ".visible .entry at(.param .u64 f)\n{\n.reg .b32 %r<6>;\n.reg .b64 %rd<2>;\n.reg .f32 %f1;\n"
    "ld.param.u64 %rd1, [f];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmad.lo.s32 %r3, %r2, 256, %r1;\n"
    "atom.global.add.u32 %r4, [%rd1], %r3;\natom.global.max.s32 %r4, [%rd1+4], %r3;\n"
    "atom.global.inc.u32 %r4, [%rd1+8], 1000;\natom.global.xor.b32 %r4, [%rd1+12], %r3;\n"
    "cvt.rn.f32.u32 %f1, %r1;\natom.global.add.f32 %f1, [%rd1+16], %f1;\nret;\n}\n";

Test(sched, results_do_not_depend_on_host_threads) {
    uint32_t one[5], many[5];
    run(atom_ptx, 1, 16, 256, one, sizeof one);
    run(atom_ptx, 4, 16, 256, many, sizeof many);
    cr_assert_eq(memcmp(one, many, sizeof one), 0);
    cr_assert_eq(one[0], 4096u * 4095u / 2, "sum of 0..4095");
    cr_assert_eq(one[1], 4095);
    cr_assert_eq(one[2], 4096 % 1001, "inc wraps at 1000");
    cr_assert_eq(one[3], 0, "xor of 0..4095");
    float fsum;
    memcpy(&fsum, &one[4], 4);
    cr_assert_eq(fsum, 16.0f * 255.0f * 256.0f / 2.0f, "exact in f32");
}

/* Workers take shares of what is left of the grid, large ones first, and
 * clusters whole (sched.c take_cta): every CTA runs exactly once, whatever the
 * grid's size against the threads', with and without clusters of 2 and 8. */
static const char once_ptx[] = HDR
    ".visible .entry once(.param .u64 f)\n{\n.reg .pred %p;\n.reg .b32 %r<6>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [f];\nmov.u32 %r1, %tid.x;\nsetp.ne.u32 %p, %r1, 0;\n@%p ret;\n"
    "mov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ctaid.y;\nmov.u32 %r4, %nctaid.x;\nmad.lo.s32 %r5, %r3, %r4, %r2;\n"
    "mul.wide.u32 %rd2, %r5, 4;\nadd.s64 %rd3, %rd1, %rd2;\natom.global.add.u32 %r1, [%rd3], 1;\nret;\n}\n";

Test(sched, every_cta_runs_once_in_shares_of_the_grid) {
    static uint32_t got[8 * 1252];
    ptxi_ctx *ctx;
    ptxi_module *m;
    cr_assert_eq(ptxi_ctx_create(&ctx, &(ptxi_ctx_options){.threads = 16, .timeout_s = WATCHDOG_S}), PTXI_SUCCESS);
    cr_assert_eq(ptxi_module_load_data(ctx, once_ptx, strlen(once_ptx), "s.ptx", &m), PTXI_SUCCESS);
    ptxi_ctx *one;
    ptxi_module *m1;
    cr_assert_eq(ptxi_ctx_create(&one, &(ptxi_ctx_options){.threads = 3, .timeout_s = WATCHDOG_S}), PTXI_SUCCESS);
    cr_assert_eq(ptxi_module_load_data(one, once_ptx, strlen(once_ptx), "s.ptx", &m1), PTXI_SUCCESS);
    const unsigned xs[] = {1, 2, 15, 16, 17, 1000, 1252};
    const unsigned cl[][2] = {{1, 1}, {2, 1}, {2, 4}};
    for (int c = 0; c < 2; c++) {
        ptxi_ctx *x = c ? one : ctx;
        ptxi_kernel *k = ptxi_module_kernel_at(c ? m1 : m, 0);
        for (size_t i = 0; i < sizeof xs / sizeof *xs; i++)
            for (size_t j = 0; j < sizeof cl / sizeof *cl; j++) {
                unsigned gx = xs[i] * cl[j][0], gy = cl[j][1], n = gx * gy;
                ptxi_dptr d;
                cr_assert_eq(ptxi_mem_alloc(x, n * 4, &d), PTXI_SUCCESS);
                cr_assert_eq(ptxi_memset_d8(x, d, 0, n * 4), PTXI_SUCCESS);
                void *args[] = {&d};
                ptxi_status s = j ? ptxi_launch_cluster(k, (ptxi_dim3){gx, gy, 1}, (ptxi_dim3){32, 1, 1},
                                                        (ptxi_dim3){cl[j][0], cl[j][1], 1}, 0, NULL, args, 0)
                                  : ptxi_launch(k, (ptxi_dim3){gx, gy, 1}, (ptxi_dim3){32, 1, 1}, 0, NULL, args);
                cr_assert_eq(s, PTXI_SUCCESS, "%s", ptxi_ctx_error_detail(x));
                cr_assert_eq(ptxi_memcpy_dtoh(x, got, d, n * 4), PTXI_SUCCESS);
                for (unsigned t = 0; t < n; t++)
                    cr_assert_eq(got[t], 1, "CTA %u of %u x %u (clusters %u x %u) ran %u times", t, gx, gy, cl[j][0],
                                 cl[j][1], got[t]);
                ptxi_mem_free(x, d);
            }
    }
    ptxi_ctx_destroy(one);
    ptxi_ctx_destroy(ctx);
}

/* Launches share one pool of host threads (sched.c). Two host threads that
 * launch at once (the second finds the pool busy and starts threads of its
 * own), and a child forked after launches (it starts a pool of its own),
 * still get every CTA run. No assertions off the test's own thread: each
 * launch reports through its return value. */
static int atom_sum_ok(unsigned threads) {
    ptxi_ctx *ctx;
    if (ptxi_ctx_create(&ctx, &(ptxi_ctx_options){.threads = threads, .timeout_s = WATCHDOG_S}) != PTXI_SUCCESS)
        return 0;
    ptxi_module *m;
    ptxi_dptr d;
    uint32_t f[5] = {0};
    int ok = ptxi_module_load_data(ctx, atom_ptx, strlen(atom_ptx), "s.ptx", &m) == PTXI_SUCCESS &&
             ptxi_mem_alloc(ctx, sizeof f, &d) == PTXI_SUCCESS && ptxi_memset_d8(ctx, d, 0, sizeof f) == PTXI_SUCCESS;
    void *args[] = {&d};
    ok = ok && ptxi_launch(ptxi_module_kernel_at(m, 0), (ptxi_dim3){16, 1, 1}, (ptxi_dim3){256, 1, 1}, 0, NULL, args) ==
                   PTXI_SUCCESS;
    ok = ok && ptxi_memcpy_dtoh(ctx, f, d, sizeof f) == PTXI_SUCCESS && f[0] == 4096u * 4095u / 2 && f[1] == 4095;
    ptxi_ctx_destroy(ctx);
    return ok;
}

static void *launch_repeatedly(void *arg) {
    int *ok = arg;
    for (int k = 0; k < 20; k++) *ok &= atom_sum_ok(3);
    return NULL;
}

Test(sched, two_host_threads_launch_at_once) {
    pthread_t th[2];
    int ok[2] = {1, 1};
    for (int k = 0; k < 2; k++) pthread_create(&th[k], NULL, launch_repeatedly, &ok[k]);
    for (int k = 0; k < 2; k++) pthread_join(th[k], NULL);
    cr_assert(ok[0] && ok[1], "every launch gave the full sum");
}

Test(sched, a_forked_child_launches_on_threads_of_its_own) {
    cr_assert(atom_sum_ok(4), "the parent's launch");
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        alarm(60); /* waiting for the parent's threads would hang */
        _exit(atom_sum_ok(4) ? 0 : 1);
    }
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child's launch (status %d)", st);
    cr_assert(atom_sum_ok(4), "the parent's next launch");
}

/* %clock64 advances with the instructions a warp executes, %globaltimer is
 * monotonic nanoseconds, and pmevent counts once per warp that executes it,
 * per launch, readable through ptxi_ctx_last_launch_stats. Each thread
 * stores clock64 and globaltimer before and after a 100-iteration loop, and
 * triggers event 3 twice and event 7 once. */
static const char timers_ptx[] = HDR
    ".visible .entry tm(.param .u64 f)\n{\n.reg .pred %p1;\n.reg .b32 %r<4>;\n.reg .b64 %rd<12>;\n"
    "ld.param.u64 %rd1, [f];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmad.lo.s32 %r1, %r2, 64, %r1;\n"
    "mul.wide.u32 %rd2, %r1, 32;\nadd.s64 %rd3, %rd1, %rd2;\nmov.u64 %rd4, %clock64;\n"
    "mov.u64 %rd5, %globaltimer;\npmevent 3;\nmov.u32 %r3, 0;\nLOOP:\nadd.u32 %r3, %r3, 1;\n"
    "setp.lt.u32 %p1, %r3, 100;\n@%p1 bra LOOP;\npmevent 3;\npmevent 7;\nmov.u64 %rd6, %clock64;\n"
    "mov.u64 %rd7, %globaltimer;\nst.global.u64 [%rd3], %rd4;\nst.global.u64 [%rd3+8], %rd6;\n"
    "st.global.u64 [%rd3+16], %rd5;\nst.global.u64 [%rd3+24], %rd7;\nret;\n}\n";

Test(sched, clocks_timer_and_pmevent_counters) {
    ptxi_ctx *ctx;
    cr_assert_eq(ptxi_ctx_create(&ctx, &(ptxi_ctx_options){.threads = 2}), PTXI_SUCCESS);
    ptxi_module *m;
    cr_assert_eq(ptxi_module_load_data(ctx, timers_ptx, strlen(timers_ptx), "t.ptx", &m), PTXI_SUCCESS, "%s",
                 ptxi_ctx_error_detail(ctx));
    uint64_t v[128 * 4];
    ptxi_dptr d;
    cr_assert_eq(ptxi_mem_alloc(ctx, sizeof v, &d), PTXI_SUCCESS);
    void *args[] = {&d};
    for (int launch = 0; launch < 2; launch++) { /* counters are per launch */
        cr_assert_eq(
            ptxi_launch(ptxi_module_kernel_at(m, 0), (ptxi_dim3){2, 1, 1}, (ptxi_dim3){64, 1, 1}, 0, NULL, args),
            PTXI_SUCCESS, "%s", ptxi_ctx_error_detail(ctx));
        ptxi_launch_stats st;
        cr_assert_eq(ptxi_ctx_last_launch_stats(ctx, &st), PTXI_SUCCESS);
        cr_expect_eq(st.pmevents[3], 8u, "event 3: 4 warps, twice each (got %llu)", (unsigned long long)st.pmevents[3]);
        cr_expect_eq(st.pmevents[7], 4u, "event 7: once per warp (got %llu)", (unsigned long long)st.pmevents[7]);
        cr_expect_eq(st.pmevents[0], 0u);
    }
    ptxi_memcpy_dtoh(ctx, v, d, sizeof v);
    for (int t = 0; t < 128; t++) {
        const uint64_t *x = &v[4 * t];
        cr_expect_geq(x[1] - x[0], 300u, "thread %d: clock64 advanced by %llu over 300 instructions", t,
                      (unsigned long long)(x[1] - x[0]));
        cr_expect_geq(x[3], x[2], "thread %d: globaltimer went back", t);
        cr_expect_lt(x[3] - x[2], 10000000000ull, "thread %d: globaltimer ran %llu ns", t,
                     (unsigned long long)(x[3] - x[2]));
    }
    ptxi_ctx_destroy(ctx);
}
