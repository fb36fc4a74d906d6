/* test_bar_runon.c — bar.sync when the CTA's next warp runs on from a warp
 * that waits (interp/exec.c): values written to shared memory before a
 * barrier by warps that run later, read after it; threads that exit before
 * the barrier (whole warps, part of a warp, the last warp, a partial last
 * warp) no longer counted; barriers with a thread count and a register id;
 * the instruction counts, with the JIT on and off. Expected values are
 * computed here in C. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../run_kernel.h"

#define MAXT 1024
#define K 0x9E3779B1u

/* Thread t exits at once when in[t] != 0 (8 instructions), else stores
 * s1[t] = t K + 1, waits, reads x = s1[src], stores s2[t] = x ^ t, waits, and
 * writes out[t] = s2[src] + x (30 instructions); src = in[1024 + t]. */
static const char *EXCH = ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                          ".reg .pred %p<4>;\n.reg .b32 %r<24>;\n.reg .b64 %rd<12>;\n"
                          ".shared .align 4 .b32 s1[1024];\n.shared .align 4 .b32 s2[1024];\n"
                          "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"
                          "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.u32 %r2, [%rd4];\n"
                          "setp.ne.u32 %p1, %r2, 0;\n@%p1 ret;\n"
                          "ld.global.u32 %r3, [%rd4+4096];\nmul.lo.u32 %r4, %r1, 0x9E3779B1;\nadd.u32 %r4, %r4, 1;\n"
                          "shl.b32 %r5, %r1, 2;\nmov.u32 %r6, s1;\nadd.u32 %r7, %r6, %r5;\nst.shared.u32 [%r7], %r4;\n"
                          "bar.sync 0;\n"
                          "shl.b32 %r8, %r3, 2;\nadd.u32 %r9, %r6, %r8;\nld.shared.u32 %r10, [%r9];\n"
                          "xor.b32 %r11, %r10, %r1;\nmov.u32 %r12, s2;\nadd.u32 %r13, %r12, %r5;\n"
                          "st.shared.u32 [%r13], %r11;\n"
                          "bar.sync 0;\n"
                          "add.u32 %r14, %r12, %r8;\nld.shared.u32 %r15, [%r14];\nadd.u32 %r16, %r15, %r10;\n"
                          "add.s64 %rd5, %rd1, %rd3;\nst.global.u32 [%rd5], %r16;\nret;\n}\n";

enum { EXIT_INSNS = 8, LIVE_INSNS = 30 };

/* One launch of EXCH on nt threads, thread t exiting where gone(t, arg). */
static void exch(unsigned nt, bool (*gone)(unsigned t, unsigned arg), unsigned arg, const char *jit) {
    static uint32_t in[2 * MAXT], out[MAXT], x[MAXT];
    unsigned live[MAXT], nl = 0;
    memset(in, 0, sizeof in);
    for (unsigned t = 0; t < nt; t++) {
        in[t] = gone(t, arg);
        if (!in[t]) live[nl++] = t;
    }
    /* each live thread reads the live thread 97 places on (most often a
     * later warp's, which runs after it) */
    for (unsigned k = 0; k < nl; k++) in[MAXT + live[k]] = live[(k + 97) % nl];
    for (unsigned k = 0; k < nl; k++) x[live[k]] = in[MAXT + live[k]] * K + 1;
    char rep[1024];
    ptxi_launch_stats st;
    ptxi_status s = run_io_jit(jit, EXCH, nt, in, sizeof in, out, nt * 4, rep, sizeof rep, &st);
    cr_assert_eq(s, PTXI_SUCCESS, "PTXI_JIT=%s threads %u: %s", jit, nt, rep);
    uint64_t ti = 0, wi = 0;
    for (unsigned w = 0; w * 32 < nt; w++) {
        bool any = false;
        for (unsigned t = w * 32; t < nt && t < w * 32 + 32; t++) {
            ti += in[t] ? EXIT_INSNS : LIVE_INSNS;
            any |= !in[t];
        }
        wi += any ? LIVE_INSNS : EXIT_INSNS;
    }
    for (unsigned t = 0; t < nt; t++) {
        uint32_t src = in[MAXT + t], want = in[t] ? 0 : (x[src] ^ src) + x[t];
        cr_assert_eq(out[t], want, "PTXI_JIT=%s threads %u arg %u: out[%u] = %#x, expected %#x", jit, nt, arg, t,
                     out[t], want);
    }
    cr_assert_eq(st.thread_insns, ti, "PTXI_JIT=%s: thread instructions %llu, expected %llu", jit,
                 (unsigned long long)st.thread_insns, (unsigned long long)ti);
    cr_assert_eq(st.warp_insns, wi, "PTXI_JIT=%s: warp instructions %llu, expected %llu", jit,
                 (unsigned long long)st.warp_insns, (unsigned long long)wi);
}

static bool none(unsigned t, unsigned arg) { return (void)t, (void)arg, false; }
static bool warp(unsigned t, unsigned arg) { return t / 32 == arg; }
static bool warp3_half7(unsigned t, unsigned arg) { return (void)arg, t / 32 == 3 || (t / 32 == 7 && t % 32 >= 16); }
static bool odd_lanes(unsigned t, unsigned arg) { return (void)arg, t % 2; }
static bool every_kth_warp(unsigned t, unsigned arg) { return t / 32 % arg == 1; }

static void all_shapes(const char *jit) {
    exch(256, none, 0, jit);
    exch(1024, none, 0, jit);
    exch(240, none, 0, jit); /* a partial last warp */
    exch(256, warp, 0, jit);
    exch(256, warp, 7, jit); /* the last warp's exit releases the barrier */
    exch(256, warp3_half7, 0, jit);
    exch(256, odd_lanes, 0, jit);
    exch(1024, every_kth_warp, 3, jit);
    exch(240, warp, 7, jit);
}

Test(bar_runon, exchange_jit_on) { all_shapes("1"); }
Test(bar_runon, exchange_jit_off) { all_shapes("0"); }

/* Warps 0-3 wait at barrier 1 and warps 4-7 at barrier 2, 128 threads each
 * (the id in a register), then all at barrier 0: out[t] = 3 s1[t ^ 96] +
 * s1[t ^ 128], s1[u] = u K + 1 (25 instructions a thread). */
static const char *COUNTED = ".version 8.0\n.target sm_90\n.address_size 64\n"
                             ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                             ".reg .b32 %r<24>;\n.reg .b64 %rd<12>;\n.shared .align 4 .b32 s1[256];\n"
                             "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmul.lo.u32 %r4, %r1, 0x9E3779B1;\n"
                             "add.u32 %r4, %r4, 1;\nshl.b32 %r5, %r1, 2;\nmov.u32 %r6, s1;\nadd.u32 %r7, %r6, %r5;\n"
                             "st.shared.u32 [%r7], %r4;\nshr.u32 %r2, %r1, 7;\nadd.u32 %r3, %r2, 1;\n"
                             "bar.sync %r3, 128;\n"
                             "xor.b32 %r8, %r1, 96;\nshl.b32 %r9, %r8, 2;\nadd.u32 %r10, %r6, %r9;\n"
                             "ld.shared.u32 %r11, [%r10];\n"
                             "bar.sync 0;\n"
                             "xor.b32 %r12, %r1, 128;\nshl.b32 %r13, %r12, 2;\nadd.u32 %r14, %r6, %r13;\n"
                             "ld.shared.u32 %r15, [%r14];\nmad.lo.u32 %r16, %r11, 3, %r15;\n"
                             "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd5, %rd1, %rd3;\nst.global.u32 [%rd5], %r16;\n"
                             "ret;\n}\n";

static void counted(const char *jit) {
    uint32_t out[256];
    char rep[1024];
    ptxi_launch_stats st;
    ptxi_status s = run_io_jit(jit, COUNTED, 256, NULL, 0, out, sizeof out, rep, sizeof rep, &st);
    cr_assert_eq(s, PTXI_SUCCESS, "PTXI_JIT=%s: %s", jit, rep);
    for (uint32_t t = 0; t < 256; t++) {
        uint32_t want = 3 * ((t ^ 96) * K + 1) + (t ^ 128) * K + 1;
        cr_assert_eq(out[t], want, "PTXI_JIT=%s: out[%u] = %#x, expected %#x", jit, t, out[t], want);
    }
    cr_assert_eq(st.thread_insns, 25 * 256);
    cr_assert_eq(st.warp_insns, 25 * 8);
}

Test(bar_runon, counted_jit_on) { counted("1"); }
Test(bar_runon, counted_jit_off) { counted("0"); }

/* Warps that leave the kernel right after a barrier (jit_bar.h
 * run_bar_exit): thread t stores s1[t] = t K + 1, waits, and then leaves
 * when bit 0 of in[t] is set, else writes out[t] = s1[(t + 37) & 127] + t + 5.
 * The records between the barrier and the way out (AFTER) only compute
 * registers. LEAVE: the test after the barrier (17 records through the
 * branch). FLIP: the test before it, negated after it by `not.pred %p2,
 * %p2`, which may not run twice (18 records). */
#define LEAVE_SRC(BEFORE, AFTER)                                                                                       \
    ".version 8.0\n.target sm_90\n.address_size 64\n"                                                                  \
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"                                                          \
    ".reg .pred %p<4>;\n.reg .b32 %r<24>;\n.reg .b64 %rd<12>;\n.shared .align 4 .b32 s1[1024];\n"                      \
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd3, %r1, 4;\n"          \
    "add.s64 %rd4, %rd2, %rd3;\nld.global.u32 %r2, [%rd4];\nmul.lo.u32 %r4, %r1, 0x9E3779B1;\nadd.u32 %r4, %r4, 1;\n"  \
    "shl.b32 %r5, %r1, 2;\nmov.u32 %r6, s1;\nadd.u32 %r7, %r6, %r5;\n" BEFORE "st.shared.u32 [%r7], %r4;\n"            \
    "bar.sync 0;\n"                                                                                                    \
    "add.u32 %r21, %r1, 5;\n" AFTER "@%p2 bra DONE;\n"                                                                 \
    "add.u32 %r8, %r1, 37;\nand.b32 %r8, %r8, 127;\nshl.b32 %r9, %r8, 2;\nadd.u32 %r10, %r6, %r9;\n"                   \
    "ld.shared.u32 %r11, [%r10];\nadd.u32 %r12, %r11, %r21;\nadd.s64 %rd5, %rd1, %rd3;\nst.global.u32 [%rd5], %r12;\n" \
    "DONE:\nret;\n}\n"
static const char *LEAVE = LEAVE_SRC("", "and.b32 %r22, %r2, 1;\nsetp.ne.u32 %p2, %r22, 0;\n");
static const char *FLIP = LEAVE_SRC("and.b32 %r22, %r2, 1;\nsetp.eq.u32 %p2, %r22, 0;\n", "not.pred %p2, %p2;\n");

/* src on nt threads, thread t leaving after the barrier where gone(t, arg). */
static void leave(const char *src, unsigned nt, bool (*gone)(unsigned t, unsigned arg), unsigned arg, const char *jit) {
    static uint32_t in[MAXT], out[MAXT];
    const unsigned TO_BRANCH = src == FLIP ? 18 : 17, STAY = 8; /* records through the branch; after it, to the ret */
    for (unsigned t = 0; t < nt; t++) in[t] = gone(t, arg) ? 3 : 2;
    char rep[1024];
    ptxi_launch_stats st;
    ptxi_status s = run_io_jit(jit, src, nt, in, nt * 4, out, nt * 4, rep, sizeof rep, &st);
    cr_assert_eq(s, PTXI_SUCCESS, "PTXI_JIT=%s threads %u: %s", jit, nt, rep);
    uint64_t ti = 0, wi = 0;
    for (unsigned w = 0; w * 32 < nt; w++) {
        bool stays = false;
        for (unsigned t = w * 32; t < nt && t < w * 32 + 32; t++) {
            ti += TO_BRANCH + 1 + (in[t] & 1 ? 0 : STAY);
            stays |= !(in[t] & 1);
        }
        wi += TO_BRANCH + 1 + (stays ? STAY : 0);
    }
    for (unsigned t = 0; t < nt; t++) {
        uint32_t want = in[t] & 1 ? 0 : ((t + 37) & 127) * K + 1 + t + 5;
        cr_assert_eq(out[t], want, "PTXI_JIT=%s threads %u arg %u: out[%u] = %#x, expected %#x", jit, nt, arg, t,
                     out[t], want);
    }
    cr_assert_eq(st.thread_insns, ti, "PTXI_JIT=%s threads %u arg %u: thread instructions %llu, expected %llu", jit, nt,
                 arg, (unsigned long long)st.thread_insns, (unsigned long long)ti);
    cr_assert_eq(st.warp_insns, wi, "PTXI_JIT=%s threads %u arg %u: warp instructions %llu, expected %llu", jit, nt,
                 arg, (unsigned long long)st.warp_insns, (unsigned long long)wi);
}

static bool all_but_warp(unsigned t, unsigned arg) { return t / 32 != arg; }
static bool all(unsigned t, unsigned arg) { return (void)t, (void)arg, true; }
static bool lanes_above(unsigned t, unsigned arg) { return t % 32 > arg; }

static void leave_shapes(const char *src, const char *jit) {
    leave(src, 256, all_but_warp, 0, jit); /* a block reduction's shape: warp 0 goes on */
    leave(src, 256, all_but_warp, 7, jit); /* the last warp goes on */
    leave(src, 256, all_but_warp, 3, jit);
    leave(src, 256, all, 0, jit);  /* no warp waits */
    leave(src, 256, none, 0, jit); /* every warp waits */
    leave(src, 256, warp, 5, jit);
    leave(src, 256, lanes_above, 9, jit); /* every warp splits at the branch: all wait */
    leave(src, 1024, every_kth_warp, 3, jit);
    leave(src, 240, all_but_warp, 0, jit); /* a partial last warp */
    leave(src, 240, all_but_warp, 7, jit);
}

Test(bar_runon, leave_after_the_barrier_jit_on) { leave_shapes(LEAVE, "1"); }
Test(bar_runon, leave_after_the_barrier_jit_off) { leave_shapes(LEAVE, "0"); }
Test(bar_runon, negated_test_after_the_barrier_jit_on) { leave_shapes(FLIP, "1"); }
Test(bar_runon, negated_test_after_the_barrier_jit_off) { leave_shapes(FLIP, "0"); }
