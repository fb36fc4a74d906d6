/* test_hoist.c — the launch-invariant prologue of a kernel (interp/hoist.c):
 * run once per warp frame, then skipped by the launch's later CTAs, whose
 * warps reuse the frame. The kernel mixes hoistable instructions (ld.param,
 * cvta, %ntid, %nctaid, arithmetic on them) with a register written twice,
 * read between the writes, and per-thread values; many CTAs of a partial
 * last warp run on one and on two host threads, in two launches with
 * different arguments. Expected values and instruction counts follow from
 * the kernel's text. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "ptxi.h"

/* out[gid] = ((a * b + ntid * nctaid) ^ gid) + (10 + tid) + 20, with %r6
 * first 10 (read by the add of %r8), then 20. Straight line: every thread
 * runs all NINSN instructions. */
static const char ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry k(.param .u64 o, .param .u32 a, .param .u32 b)\n{\n"
                          ".reg .b32 %r<20>;\n.reg .b64 %rd<8>;\n"
                          "ld.param.u64 %rd1, [o];\n"
                          "ld.param.u32 %r1, [a];\n"
                          "ld.param.u32 %r2, [b];\n"
                          "cvta.to.global.u64 %rd2, %rd1;\n"
                          "mov.u32 %r3, %ntid.x;\n"
                          "mov.u32 %r4, %nctaid.x;\n"
                          "mul.lo.s32 %r5, %r3, %r4;\n"
                          "mov.u32 %r6, 10;\n"
                          "mov.u32 %r7, %tid.x;\n"
                          "add.s32 %r8, %r6, %r7;\n"
                          "mov.u32 %r6, 20;\n"
                          "mov.u32 %r9, %ctaid.x;\n"
                          "mad.lo.s32 %r10, %r9, %r3, %r7;\n"
                          "mul.lo.s32 %r11, %r1, %r2;\n"
                          "add.s32 %r12, %r11, %r5;\n"
                          "xor.b32 %r13, %r12, %r10;\n"
                          "add.s32 %r14, %r13, %r8;\n"
                          "add.s32 %r15, %r14, %r6;\n"
                          "mul.wide.u32 %rd3, %r10, 4;\n"
                          "add.s64 %rd4, %rd2, %rd3;\n"
                          "st.global.u32 [%rd4], %r15;\n"
                          "ret;\n}\n";
enum { NINSN = 22, BLOCK = 80, GRID = 50, WARPS = (BLOCK + 31) / 32, N = BLOCK * GRID };

/* A context with `threads` host threads, src loaded, an N-word buffer. */
typedef struct setup {
    ptxi_ctx *ctx;
    ptxi_module *m;
    ptxi_dptr d;
} setup;

static setup set_up(const char *src, unsigned threads) {
    setup s;
    cr_assert_eq(ptxi_ctx_create(&s.ctx, &(ptxi_ctx_options){.threads = threads}), PTXI_SUCCESS);
    cr_assert_eq(ptxi_module_load_data(s.ctx, src, strlen(src), "hoist.ptx", &s.m), PTXI_SUCCESS, "%s",
                 ptxi_ctx_error_detail(s.ctx));
    cr_assert_eq(ptxi_mem_alloc(s.ctx, N * 4, &s.d), PTXI_SUCCESS);
    ptxi_memset_d8(s.ctx, s.d, 0, N * 4);
    return s;
}

/* One GRID x BLOCK launch; the buffer to out, the launch's counters to *st. */
static void launch(setup *s, void **params, uint32_t *out, ptxi_launch_stats *st) {
    cr_assert_eq(
        ptxi_launch(ptxi_module_kernel_at(s->m, 0), (ptxi_dim3){GRID, 1, 1}, (ptxi_dim3){BLOCK, 1, 1}, 0, NULL, params),
        PTXI_SUCCESS);
    cr_assert_eq(ptxi_ctx_synchronize(s->ctx), PTXI_SUCCESS, "%s", ptxi_ctx_error_detail(s->ctx));
    cr_assert_eq(ptxi_memcpy_dtoh(s->ctx, out, s->d, N * 4), PTXI_SUCCESS);
    cr_assert_eq(ptxi_ctx_last_launch_stats(s->ctx, st), PTXI_SUCCESS);
}

static void run(unsigned threads) {
    setup s = set_up(ptx, threads);
    static uint32_t out[N];
    const uint32_t args[2][2] = {{3, 7}, {1000, 77}};
    for (int run = 0; run < 2; run++) {
        uint32_t a = args[run][0], b = args[run][1];
        void *params[] = {&s.d, &a, &b};
        ptxi_launch_stats st;
        launch(&s, params, out, &st);
        for (uint32_t g = 0; g < N; g++) {
            uint32_t want = ((a * b + (uint32_t)N) ^ g) + 10 + g % BLOCK + 20;
            cr_expect_eq(out[g], want, "launch %d, thread %u: %u, want %u", run, g, out[g], want);
        }
        cr_expect_eq(st.thread_insns, (uint64_t)NINSN * N, "thread_insns %llu", (unsigned long long)st.thread_insns);
        cr_expect_eq(st.warp_insns, (uint64_t)NINSN * WARPS * GRID, "warp_insns %llu",
                     (unsigned long long)st.warp_insns);
    }
    ptxi_ctx_destroy(s.ctx);
}

/* A label no branch names ($L__tmp0, as DWARF line tables have) does not
 * end the first block; the loop's label does: its body's constant move is
 * computed in the prologue but counted where it stands, t % 3 + 1 times in
 * thread t. out[t] = 7 (t % 3 + 1) + ntid (in every CTA, the same words);
 * thread t runs 10 + 5 (t % 3 + 1) instructions. */
static const char loop_ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                               ".visible .entry k(.param .u64 o)\n{\n"
                               ".reg .pred %p<2>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<5>;\n"
                               "ld.param.u64 %rd1, [o];\n"
                               "$L__tmp0:\n"
                               "mov.u32 %r1, %ntid.x;\n"
                               "mov.u32 %r2, %tid.x;\n"
                               "rem.u32 %r3, %r2, 3;\n"
                               "mov.u32 %r4, 0;\n"
                               "LOOP:\n"
                               "mov.u32 %r5, 7;\n"
                               "add.s32 %r4, %r4, %r5;\n"
                               "sub.s32 %r3, %r3, 1;\n"
                               "setp.ge.s32 %p1, %r3, 0;\n"
                               "@%p1 bra LOOP;\n"
                               "add.s32 %r6, %r4, %r1;\n"
                               "mul.wide.u32 %rd2, %r2, 4;\n"
                               "add.s64 %rd3, %rd1, %rd2;\n"
                               "st.global.u32 [%rd3], %r6;\n"
                               "ret;\n}\n";

Test(hoist, a_branch_target_ends_the_first_block_and_a_debug_label_does_not) {
    setup s = set_up(loop_ptx, 1);
    void *params[] = {&s.d};
    static uint32_t out[N];
    ptxi_launch_stats st;
    launch(&s, params, out, &st);
    uint64_t insns = 0;
    for (uint32_t g = 0; g < N; g++) {
        uint32_t t = g % BLOCK, want = g < BLOCK ? 7 * (t % 3 + 1) + BLOCK : 0; /* every CTA writes out[t] */
        cr_expect_eq(out[g], want, "word %u: %u, want %u", g, out[g], want);
        insns += 10 + 5 * (t % 3 + 1);
    }
    cr_expect_eq(st.thread_insns, insns, "thread_insns %llu, want %llu", (unsigned long long)st.thread_insns,
                 (unsigned long long)insns);
    ptxi_ctx_destroy(s.ctx);
}

Test(hoist, the_prologue_runs_once_per_frame_on_one_host_thread) { run(1); }
Test(hoist, the_prologue_runs_once_per_frame_on_two_host_threads) { run(2); }

/* Past the first block (hoist.c VM_HOIST_LATER): %r3 = n - 1 and the cvta
 * behind the bounds test run in the prologue, but only threads 0-39 of each
 * CTA reach them and count them (14 instructions; the others 6). Many CTAs
 * on one and two host threads, so that later CTAs reuse the frames, with the
 * JIT and without. out[gid] = n - 1 + gid for tid < 40, else untouched. */
static const char later_ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                                ".visible .entry k(.param .u64 o, .param .u32 n)\n{\n"
                                ".reg .pred %p<2>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<5>;\n"
                                "ld.param.u64 %rd1, [o];\n"
                                "ld.param.u32 %r1, [n];\n"
                                "mov.u32 %r2, %tid.x;\n"
                                "setp.ge.u32 %p1, %r2, 40;\n"
                                "@%p1 bra DONE;\n"
                                "add.s32 %r3, %r1, -1;\n"
                                "cvta.to.global.u64 %rd2, %rd1;\n"
                                "mov.u32 %r4, %ctaid.x;\n"
                                "mad.lo.s32 %r5, %r4, 80, %r2;\n"
                                "add.s32 %r6, %r3, %r5;\n"
                                "mul.wide.u32 %rd3, %r5, 4;\n"
                                "add.s64 %rd4, %rd2, %rd3;\n"
                                "st.global.u32 [%rd4], %r6;\n"
                                "DONE:\n"
                                "ret;\n}\n";

static void later_case(unsigned threads, const char *jit) {
    setenv("PTXI_JIT", jit, 1); /* read when the module is loaded */
    setup s = set_up(later_ptx, threads);
    unsetenv("PTXI_JIT");
    static uint32_t out[N];
    for (uint32_t n = 5; n <= 500; n *= 100) { /* two launches: the prologue's values change with n */
        void *params[] = {&s.d, &n};
        ptxi_launch_stats st;
        launch(&s, params, out, &st);
        for (uint32_t g = 0; g < N; g++) {
            uint32_t want = g % BLOCK < 40 ? n - 1 + g : 0;
            cr_expect_eq(out[g], want, "PTXI_JIT=%s, n %u, thread %u: %u, want %u", jit, n, g, out[g], want);
        }
        cr_expect_eq(st.thread_insns, (uint64_t)GRID * (40 * 14 + (BLOCK - 40) * 6), "PTXI_JIT=%s: thread_insns %llu",
                     jit, (unsigned long long)st.thread_insns);
        /* warp 0 and warp 1's lanes below 40 run 14, warp 2 runs 6 */
        cr_expect_eq(st.warp_insns, (uint64_t)GRID * (14 + 14 + 6), "PTXI_JIT=%s: warp_insns %llu", jit,
                     (unsigned long long)st.warp_insns);
    }
    ptxi_ctx_destroy(s.ctx);
}

Test(hoist, an_invariant_past_the_first_block_counts_where_it_stands) {
    for (unsigned threads = 1; threads <= 2; threads++) {
        later_case(threads, "1");
        later_case(threads, "0");
    }
}
