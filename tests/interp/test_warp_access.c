/* test_warp_access.c — whole-warp 4-byte loads and stores take shortcuts by
 * half-warp pattern (one address for 16 lanes, 16 consecutive words, anything
 * else): every pattern gives each lane its own word, and a bad lane inside a
 * pattern is still reported with its own thread. Expected values follow from
 * the kernel's definition. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ptxi.h"
#include "../run_kernel.h"

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"

static ptxi_status run_n(const char *src, unsigned threads, uint32_t *out, size_t n, char *rep, size_t cap) {
    return run_io(src, threads, NULL, 0, out, n, rep, cap);
}

static ptxi_status run(const char *src, uint32_t *out, size_t n, char *rep, size_t cap) {
    return run_n(src, 64, out, n, rep, cap);
}

/* Thread t stores 3t+1 to sh[t], then reads sh[t/16] (a splat per half),
 * sh[t^16] (consecutive halves, swapped), sh[7t mod 64] (a gather), sh[t]
 * through a register it overwrites, sh[1] (one address for all); out[k*64+t]
 * receives the k-th value, out[5*64+t] reads back out[t] and out[6*64+t] out[1]. */
static const char patterns_ptx[] = HDR
    ".visible .entry k(.param .u64 o)\n{\n.reg .b32 %r<20>;\n.reg .b64 %rd<6>;\n"
    ".shared .align 4 .b8 sh[256];\n"
    "ld.param.u64 %rd1, [o];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, sh;\nshl.b32 %r3, %r1, 2;\n"
    "add.s32 %r4, %r2, %r3;\nmad.lo.s32 %r5, %r1, 3, 1;\nst.shared.u32 [%r4], %r5;\nbar.sync 0;\n"
    "shr.u32 %r6, %r1, 4;\nshl.b32 %r6, %r6, 2;\nadd.s32 %r6, %r2, %r6;\nld.shared.u32 %r7, [%r6];\n"
    "xor.b32 %r8, %r1, 16;\nshl.b32 %r8, %r8, 2;\nadd.s32 %r8, %r8, %r2;\nld.shared.u32 %r9, [%r8];\n"
    "mul.lo.u32 %r10, %r1, 7;\nand.b32 %r10, %r10, 63;\nshl.b32 %r10, %r10, 2;\nadd.s32 %r10, %r10, %r2;\n"
    "ld.shared.u32 %r11, [%r10];\nmov.u32 %r12, %r4;\nld.shared.u32 %r12, [%r12];\nld.shared.u32 %r13, [%r2+4];\n"
    "mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r7;\n"
    "st.global.u32 [%rd3+256], %r9;\nst.global.u32 [%rd3+512], %r11;\nst.global.u32 [%rd3+768], %r12;\n"
    "st.global.u32 [%rd3+1024], %r13;\nbar.sync 0;\nld.global.u32 %r14, [%rd3];\nmov.u64 %rd4, %rd1;\n"
    "ld.global.u32 %r15, [%rd4+4];\nst.global.u32 [%rd3+1280], %r14;\nst.global.u32 [%rd3+1536], %r15;\n"
    "ret;\n}\n";

Test(warp_access, every_half_warp_pattern_gives_each_lane_its_word) {
    uint32_t out[7 * 64];
    char rep[1024];
    cr_assert_eq(run(patterns_ptx, out, sizeof out, rep, sizeof rep), PTXI_SUCCESS, "%s", rep);
    for (uint32_t t = 0; t < 64; t++) {
        cr_expect_eq(out[t], 3 * (t / 16) + 1, "splat, thread %u", t);
        cr_expect_eq(out[64 + t], 3 * (t ^ 16) + 1, "consecutive, thread %u", t);
        cr_expect_eq(out[128 + t], 3 * ((7 * t) & 63) + 1, "gather, thread %u", t);
        cr_expect_eq(out[192 + t], 3 * t + 1, "address register overwritten, thread %u", t);
        cr_expect_eq(out[256 + t], 4u, "one address, thread %u", t);
        cr_expect_eq(out[320 + t], 3 * (t / 16) + 1, "global consecutive, thread %u", t);
        cr_expect_eq(out[384 + t], 1u, "global one address, thread %u", t);
    }
}

/* Every lane of both warps accesses word t+OFF of a 64-word array: the first
 * lane past the end is thread 64-OFF. */
#define OOB(DECL, ADDR, OP)                                                               \
    HDR ".visible .entry k(.param .u64 o)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<6>;\n" DECL \
        "ld.param.u64 %rd1, [o];\nmov.u32 %r1, %tid.x;\n" ADDR OP "\nret;\n}\n"
#define SH_ADDR "mov.u32 %r2, sh;\nshl.b32 %r3, %r1, 2;\nadd.s32 %r4, %r2, %r3;\n"
#define GL_ADDR "mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
#define SH_DECL ".shared .align 4 .b8 sh[256];\n"

static void expect_fault(const char *src, ptxi_status want, const char *what, const char *thread) {
    uint32_t out[64];
    char rep[2048];
    ptxi_status s = run(src, out, sizeof out, rep, sizeof rep);
    cr_assert_eq(s, want, "status %s, report: %s", ptxi_error_name(s), rep);
    cr_assert(strstr(rep, what), "expected '%s' in: %s", what, rep);
    cr_assert(strstr(rep, thread), "expected '%s' in: %s", thread, rep);
}

Test(warp_access, shared_load_past_the_end_in_the_second_half) {
    expect_fault(OOB(SH_DECL, SH_ADDR, "ld.shared.u32 %r5, [%r4+192];"), PTXI_ILLEGAL_INSTRUCTION,
                 "out-of-bounds shared read of 4 bytes", "thread (16,0,0)");
}

Test(warp_access, shared_store_past_the_end_in_the_second_half) {
    expect_fault(OOB(SH_DECL, SH_ADDR, "st.shared.u32 [%r4+160], %r1;"), PTXI_ILLEGAL_INSTRUCTION,
                 "out-of-bounds shared write of 4 bytes", "thread (24,0,0)");
}

Test(warp_access, global_load_past_the_end_in_the_second_half) {
    expect_fault(OOB("", GL_ADDR, "ld.global.u32 %r5, [%rd3+32];"), PTXI_ILLEGAL_ADDRESS,
                 "out-of-bounds global read of 4 bytes", "thread (56,0,0)");
}

Test(warp_access, global_store_past_the_end_in_the_second_half) {
    expect_fault(OOB("", GL_ADDR, "st.global.u32 [%rd3+64], %r1;"), PTXI_ILLEGAL_ADDRESS,
                 "out-of-bounds global write of 4 bytes", "thread (48,0,0)");
}

Test(warp_access, misaligned_run_is_reported) {
    expect_fault(OOB("", GL_ADDR, "ld.global.u32 %r5, [%rd3+2];"), PTXI_MISALIGNED_ADDRESS,
                 "misaligned global read of 4 bytes", "thread (0,0,0)");
}

Test(warp_access, splat_past_the_end) {
    expect_fault(OOB(SH_DECL, "mov.u32 %r2, sh;\nshr.u32 %r3, %r1, 4;\nshl.b32 %r3, %r3, 8;\nadd.s32 %r4, %r2, %r3;\n",
                     "ld.shared.u32 %r5, [%r4];"),
                 PTXI_ILLEGAL_INSTRUCTION, "out-of-bounds shared read of 4 bytes", "thread (16,0,0)");
}

/* An unrolled dot product (ld.shared, ld.shared, fma.rn.f32 four times, as
 * nvcc emits a tiled matrix product) over sh[i] = i+1: thread t sums
 * (t+k+1)(t/16+k+1) for k = 0..3. The second x and the second partial sum
 * are read again afterwards, so they must be in their registers. OFF is the
 * offset of the second x load (PTX line 29). */
#define DOT(OFF)                                                                                             \
    HDR ".visible .entry k(.param .u64 o)\n{\n.reg .b32 %r<12>;\n.reg .f32 %f<16>;\n.reg .b64 %rd<4>;\n"     \
        ".shared .align 4 .b8 sh[512];\nld.param.u64 %rd1, [o];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, sh;\n"   \
        "shl.b32 %r3, %r1, 2;\nadd.s32 %r4, %r2, %r3;\nadd.s32 %r5, %r1, 1;\ncvt.rn.f32.u32 %f1, %r5;\n"     \
        "st.shared.f32 [%r4], %f1;\nadd.s32 %r6, %r1, 65;\ncvt.rn.f32.u32 %f2, %r6;\n"                       \
        "st.shared.f32 [%r4+256], %f2;\nbar.sync 0;\nshr.u32 %r7, %r1, 4;\nshl.b32 %r7, %r7, 2;\n"           \
        "add.s32 %r8, %r2, %r7;\nmov.f32 %f3, 0f00000000;\n"                                                 \
        "ld.shared.f32 %f4, [%r4];\nld.shared.f32 %f5, [%r8];\nfma.rn.f32 %f6, %f4, %f5, %f3;\n"             \
        "ld.shared.f32 %f7, [%r4+" OFF "];\nld.shared.f32 %f8, [%r8+4];\nfma.rn.f32 %f9, %f8, %f7, %f6;\n"   \
        "ld.shared.f32 %f10, [%r4+8];\nld.shared.f32 %f11, [%r8+8];\nfma.rn.f32 %f12, %f10, %f11, %f9;\n"    \
        "ld.shared.f32 %f13, [%r4+12];\nld.shared.f32 %f14, [%r8+12];\nfma.rn.f32 %f15, %f13, %f14, %f12;\n" \
        "mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.f32 [%rd3], %f15;\n"               \
        "st.global.f32 [%rd3+256], %f7;\nst.global.f32 [%rd3+512], %f9;\nret;\n}\n"

static void check_dot(unsigned threads) {
    float out[3 * 64];
    char rep[1024];
    cr_assert_eq(run_n(DOT("4"), threads, (uint32_t *)out, sizeof out, rep, sizeof rep), PTXI_SUCCESS, "%s", rep);
    for (unsigned t = 0; t + 3 < threads; t++) { /* sh[t+3] was written */
        float want = 0, half = 0;
        for (unsigned k = 0; k < 4; k++) {
            want += (float)((t + k + 1) * (t / 16 + k + 1));
            if (k == 1) half = want;
        }
        cr_expect_eq(out[t], want, "sum, thread %u: %g", t, out[t]);
        cr_expect_eq(out[64 + t], (float)(t + 2), "second x, thread %u", t);
        cr_expect_eq(out[128 + t], half, "second partial sum, thread %u", t);
    }
}

Test(warp_access, unrolled_dot_product_of_whole_warps) { check_dot(64); }

Test(warp_access, unrolled_dot_product_of_a_partial_warp) { check_dot(48); }

Test(warp_access, bad_lane_inside_an_unrolled_dot_product) {
    uint32_t out[3 * 64];
    char rep[2048];
    ptxi_status s = run_n(DOT("448"), 32, out, sizeof out, rep, sizeof rep);
    cr_assert_eq(s, PTXI_ILLEGAL_INSTRUCTION, "status %s, report: %s", ptxi_error_name(s), rep);
    cr_assert(strstr(rep, "out-of-bounds shared read of 4 bytes"), "%s", rep);
    cr_assert(strstr(rep, "thread (16,0,0)"), "%s", rep);
    cr_assert(strstr(rep, "w.ptx:29:"), "the second x load's line: %s", rep);
}

/* A dot chain whose loaded values and partial sums nothing reads again runs
 * as one planned loop (vm_dotplan; compiled inline, jit_dot.h): acc =
 * in[128+t], then for k = 0..3 acc = fma(sh[x(t)+k], sh[y(t)+k], acc) with
 * sh[i] = in[i] for i < 2·threads. Each address is one of four shapes per
 * half-warp: t (16 consecutive words), t/16 (one word), 7t mod 64 (a gather)
 * or one word in lanes 0-15 and consecutive words in lanes 16-31 (mixed);
 * the plan takes the first two, the others run record by record. YOFF is
 * the third y load's offset (8 in range); LAST stores the last x and y too.
 * ZEROS makes every accumulator and sh[0..5] -0, sh[6] a signalling NaN and
 * the other words positive (the one-word loads: -0 must stay -0, so that a
 * sum of -0 products stays -0, and a NaN's bits must move unchanged).
 * The expected values are the same fmaf chain in C, with the GPU's one NaN
 * (0x7fffffff). */
enum { DOT_CONSEC, DOT_BCAST, DOT_GATHER, DOT_MIXED, DOT_ODD };

static void dot_addr(char *buf, size_t cap, int shape, int reg) {
    static const char *const calc[5] = {
        "shl.b32 %%r10, %%r1, 2;\n",
        "shr.u32 %%r10, %%r1, 4;\nshl.b32 %%r10, %%r10, 2;\n",
        "mul.lo.u32 %%r10, %%r1, 7;\nand.b32 %%r10, %%r10, 63;\nshl.b32 %%r10, %%r10, 2;\n",
        "shr.u32 %%r10, %%r1, 4;\nand.b32 %%r10, %%r10, 1;\nmul.lo.u32 %%r10, %%r10, %%r1;\nshl.b32 %%r10, %%r10, 2;\n",
        "shl.b32 %%r10, %%r1, 2;\nadd.s32 %%r10, %%r10, 2;\n",
    };
    char fmt[256];
    snprintf(fmt, sizeof fmt, "%sadd.s32 %%%%r%%d, %%%%r2, %%%%r10;\n", calc[shape]);
    snprintf(buf, cap, fmt, reg);
}

static unsigned dot_index(int shape, unsigned t) {
    switch (shape) {
    case DOT_CONSEC: return t;
    case DOT_BCAST: return t / 16;
    case DOT_GATHER: return 7 * t % 64;
    default: return (t >> 4 & 1) * t;
    }
}

static void dot_src(char *buf, size_t cap, int xs, int ys, int yoff, bool last, unsigned *yline) {
    char head[2048], xa[256], ya[256];
    dot_addr(xa, sizeof xa, xs, 9);
    dot_addr(ya, sizeof ya, ys, 8);
    snprintf(head, sizeof head,
             HDR ".visible .entry k(.param .u64 o, .param .u64 in)\n{\n.reg .b32 %%r<12>;\n.reg .f32 %%f<20>;\n"
                 ".reg .b64 %%rd<8>;\n.shared .align 4 .b8 sh[512];\nld.param.u64 %%rd1, [o];\n"
                 "ld.param.u64 %%rd5, [in];\nmov.u32 %%r1, %%tid.x;\nmov.u32 %%r2, sh;\nmul.wide.u32 %%rd2, %%r1, 4;\n"
                 "add.s64 %%rd6, %%rd5, %%rd2;\nld.global.f32 %%f1, [%%rd6];\nld.global.f32 %%f2, [%%rd6+256];\n"
                 "shl.b32 %%r3, %%r1, 2;\nadd.s32 %%r4, %%r2, %%r3;\nst.shared.f32 [%%r4], %%f1;\n"
                 "st.shared.f32 [%%r4+256], %%f2;\nbar.sync 0;\n%s%s"
                 "ld.global.f32 %%f3, [%%rd6+512];\n"
                 "ld.shared.f32 %%f4, [%%r9];\nld.shared.f32 %%f5, [%%r8];\nfma.rn.f32 %%f6, %%f4, %%f5, %%f3;\n"
                 "ld.shared.f32 %%f7, [%%r9+4];\nld.shared.f32 %%f8, [%%r8+4];\nfma.rn.f32 %%f9, %%f8, %%f7, %%f6;\n"
                 "ld.shared.f32 %%f10, [%%r9+8];\n",
             xa, ya);
    *yline = 1;
    for (const char *c = head; *c; c++) *yline += *c == '\n';
    snprintf(
        buf, cap,
        "%sld.shared.f32 %%f11, [%%r8+%d];\nfma.rn.f32 %%f12, %%f10, %%f11, %%f9;\n"
        "ld.shared.f32 %%f13, [%%r9+12];\nld.shared.f32 %%f14, [%%r8+12];\nfma.rn.f32 %%f15, %%f13, %%f14, %%f12;\n"
        "add.s64 %%rd3, %%rd1, %%rd2;\nst.global.f32 [%%rd3], %%f15;\n%sret;\n}\n",
        head, yoff, last ? "st.global.f32 [%rd3+256], %f13;\nst.global.f32 [%rd3+512], %f14;\n" : "");
}

typedef union {
    float f;
    uint32_t u;
} fbits; /* (fbits){.u = x}.f: the float of bits x */

/* Returns the launch's counts. */
static ptxi_launch_stats check_planned_dot(int xs, int ys, bool last, bool zeros, unsigned threads) {
    float in[192];
    for (int i = 0; i < 192; i++) in[i] = (float)((i * 37) % 23 - 11) * 0.375f + (float)i / 64.0f;
    in[5] = INFINITY, in[1] = 0.0f;       /* thread 4: inf * 0 */
    in[40] = (fbits){.u = 0x7fa00001u}.f; /* a NaN with a payload */
    in[50] = (fbits){.u = 0xffc00000u}.f, in[60] = -INFINITY;
    in[30] = 3e38f, in[31] = 3e38f, in[20] = 1e-40f; /* overflow, a subnormal */
    in[128 + 7] = (fbits){.u = 0x7f800001u}.f;       /* a signalling NaN accumulator */
    in[128 + 9] = -0.0f;
    if (zeros) {
        for (int i = 7; i < 128; i++) in[i] = fabsf(in[i]); /* products with -0 are -0 */
        for (int i = 0; i < 6; i++) in[i] = -0.0f;
        in[6] = (fbits){.u = 0x7fa00001u}.f;
        for (int t = 0; t < 64; t++) in[128 + t] = -0.0f;
    }
    float sh[128] = {0};
    for (unsigned t = 0; t < threads; t++) sh[t] = in[t], sh[t + 64] = in[t + 64];
    char src[4096];
    unsigned yline;
    dot_src(src, sizeof src, xs, ys, 8, last, &yline);
    uint32_t out[3 * 64];
    char rep[1024];
    ptxi_launch_stats st;
    cr_assert_eq(run_io_stats(src, threads, in, sizeof in, out, sizeof out, rep, sizeof rep, &st), PTXI_SUCCESS, "%s",
                 rep);
    for (unsigned t = 0; t < threads; t++) {
        unsigned x = dot_index(xs, t), y = dot_index(ys, t);
        float acc = in[128 + t];
        for (unsigned k = 0; k < 4; k++) acc = fmaf(sh[x + k], sh[y + k], acc);
        uint32_t want = isnan(acc) ? 0x7fffffffu : (fbits){.f = acc}.u;
        cr_expect_eq(out[t], want, "shapes %d, %d: thread %u: %08x, want %08x", xs, ys, t, out[t], want);
        if (last) {
            cr_expect_eq(out[64 + t], (fbits){.f = sh[x + 3]}.u, "shapes %d, %d: last x, thread %u", xs, ys, t);
            cr_expect_eq(out[128 + t], (fbits){.f = sh[y + 3]}.u, "shapes %d, %d: last y, thread %u", xs, ys, t);
        }
    }
    return st;
}

Test(warp_access, planned_dot_product) { check_planned_dot(DOT_CONSEC, DOT_BCAST, false, false, 64); }

Test(warp_access, planned_dot_product_keeps_the_last_loads) {
    check_planned_dot(DOT_CONSEC, DOT_BCAST, true, false, 64);
}

Test(warp_access, gathered_dot_product_runs_record_by_record) {
    check_planned_dot(DOT_GATHER, DOT_BCAST, true, false, 64);
}

Test(warp_access, planned_dot_product_of_a_partial_warp) {
    check_planned_dot(DOT_CONSEC, DOT_BCAST, false, false, 48);
}

/* Every pair of shapes, with and without the JIT (the same counts), and
 * signed zeros and a signalling NaN in the one-word loads. */
Test(warp_access, dot_product_of_every_shape) {
    static ptxi_launch_stats st[2][4][4][2];
    for (int jit = 0; jit < 2; jit++) {
        setenv("PTXI_JIT", jit ? "1" : "0", 1); /* read when the module is loaded */
        for (int xs = 0; xs < 4; xs++)
            for (int ys = 0; ys < 4; ys++)
                for (int z = 0; z < 2; z++) st[jit][xs][ys][z] = check_planned_dot(xs, ys, true, z, 64);
        unsetenv("PTXI_JIT");
    }
    for (int xs = 0; xs < 4; xs++)
        for (int ys = 0; ys < 4; ys++) {
            cr_expect_eq(st[0][xs][ys][0].warp_insns, st[1][xs][ys][0].warp_insns, "shapes %d, %d", xs, ys);
            cr_expect_eq(st[0][xs][ys][0].thread_insns, st[1][xs][ys][0].thread_insns, "shapes %d, %d", xs, ys);
        }
}

/* A planned chain with a bad lane runs record by record and reports the
 * record and lane the records' handlers find, the same with and without the
 * JIT: a word past the window (the third y load, t/16 = 3: 12 + 500 = 512),
 * one below it (the third y load 8 bytes before the start, t/16 = 0) or a
 * misaligned x address (2 bytes past a word: the first x load, first
 * run by warp 1, which the barrier released last). */
Test(warp_access, bad_lane_inside_a_planned_dot_product) {
    static const struct {
        int xs, yoff;
        ptxi_status want;
        const char *what, *thread;
        int line; /* 0: the third y load's, else relative to it */
    } cases[] = {
        {DOT_CONSEC, 500, PTXI_ILLEGAL_INSTRUCTION, "out-of-bounds shared read of 4 bytes", "thread (48,0,0)", 0},
        {DOT_CONSEC, -8, PTXI_ILLEGAL_INSTRUCTION, "out-of-bounds shared read of 4 bytes", "thread (0,0,0)", 0},
        {DOT_ODD, 8, PTXI_MISALIGNED_ADDRESS, "misaligned shared read of 4 bytes", "thread (32,0,0)", -7},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char src[4096], rep[2][2048], want[32];
        unsigned yline;
        dot_src(src, sizeof src, cases[k].xs, DOT_BCAST, cases[k].yoff, false, &yline);
        float in[192] = {0};
        uint32_t out[64];
        for (int jit = 0; jit < 2; jit++) {
            ptxi_status s = run_io_jit(jit ? "1" : "0", src, 64, in, sizeof in, out, sizeof out, rep[jit],
                                       sizeof rep[jit], NULL);
            cr_assert_eq(s, cases[k].want, "case %zu, PTXI_JIT=%d: status %s, report: %s", k, jit,
                         ptxi_error_name(s), rep[jit]);
        }
        cr_assert(strstr(rep[1], cases[k].what), "%s", rep[1]);
        cr_assert(strstr(rep[1], cases[k].thread), "%s", rep[1]);
        snprintf(want, sizeof want, "w.ptx:%d:", (int)yline + cases[k].line);
        cr_assert(strstr(rep[1], want), "the load's line %s: %s", want, rep[1]);
        cr_assert_str_eq(rep[0], rep[1], "case %zu: with and without the JIT", k);
    }
}

/* atom.shared.add.u32 (a plain read-modify-write: only the CTA's own host
 * thread touches its shared memory): thread t adds t + 1 to bin t % 4 and 1
 * to bin 4 (every lane of both warps on one word); out[t] = the old value
 * of bin 4, out[64 + k] = bin k. The old values of bin 4 are 0..63, each
 * once; OFF moves the bin base (a bad lane is reported, not skipped). */
#define ATOMS(OFF)                                                                                        \
    HDR ".visible .entry k(.param .u64 o)\n{\n.reg .pred %p1;\n.reg .b32 %r<12>;\n.reg .b64 %rd<4>;\n"    \
        ".shared .align 4 .b8 sh[32];\nld.param.u64 %rd1, [o];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, sh;\n" \
        "and.b32 %r3, %r1, 3;\nshl.b32 %r3, %r3, 2;\nadd.s32 %r4, %r2, %r3;\nadd.u32 %r5, %r1, 1;\n"      \
        "atom.shared.add.u32 %r6, [%r4], %r5;\nadd.s32 %r7, %r2, " OFF ";\n"                              \
        "atom.shared.add.u32 %r8, [%r7], 1;\nbar.sync 0;\nmul.wide.u32 %rd2, %r1, 4;\n"                   \
        "add.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r8;\nsetp.lt.u32 %p1, %r1, 8;\n"               \
        "@%p1 ld.shared.u32 %r9, [%r2+0];\nshl.b32 %r10, %r1, 2;\nadd.s32 %r10, %r2, %r10;\n"             \
        "@%p1 ld.shared.u32 %r9, [%r10];\n@%p1 st.global.u32 [%rd3+256], %r9;\nret;\n}\n"

Test(warp_access, shared_atomic_adds_of_two_warps) {
    uint32_t out[72];
    char rep[1024];
    cr_assert_eq(run_n(ATOMS("16"), 64, out, sizeof out, rep, sizeof rep), PTXI_SUCCESS, "%s", rep);
    uint64_t seen = 0;
    for (int t = 0; t < 64; t++) {
        cr_assert_lt(out[t], 64u, "thread %d: old value %u", t, out[t]);
        seen |= 1ull << out[t];
    }
    cr_expect_eq(seen, ~0ull, "every old value 0..63 once");
    for (uint32_t k = 0; k < 4; k++) {
        uint32_t want = 0;
        for (uint32_t t = k; t < 64; t += 4) want += t + 1;
        cr_expect_eq(out[64 + k], want, "bin %u: %u, want %u", k, out[64 + k], want);
    }
    cr_expect_eq(out[68], 64u, "bin 4");
}

Test(warp_access, shared_atomic_past_the_end) {
    uint32_t out[72];
    char rep[2048];
    ptxi_status s = run_n(ATOMS("30"), 64, out, sizeof out, rep, sizeof rep); /* misaligned */
    cr_assert_eq(s, PTXI_MISALIGNED_ADDRESS, "status %s, report: %s", ptxi_error_name(s), rep);
    cr_assert(strstr(rep, "thread (0,0,0)"), "%s", rep);
    s = run_n(ATOMS("32"), 64, out, sizeof out, rep, sizeof rep);
    cr_assert_eq(s, PTXI_ILLEGAL_INSTRUCTION, "status %s, report: %s", ptxi_error_name(s), rep);
    cr_assert(strstr(rep, "out-of-bounds shared"), "%s", rep);
    cr_assert(strstr(rep, "thread (0,0,0)"), "%s", rep);
}

/* ld/st.global.v4 and .v2 of a whole warp over one contiguous run (a strided
 * copy, exec_mem.h): thread t loads the vector at in + VB*t + OFF and stores
 * it reversed at out + VB*t. A run whose last lane leaves the allocation, or
 * that is not aligned to the vector's size, is reported for its own lane. */
static void vec_src(char *buf, size_t cap, int vn, int off) {
    const char *ld4 = "ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd5+%d];\n"
                      "st.global.v4.u32 [%rd4], {%r4, %r3, %r2, %r1};\n";
    const char *ld2 = "ld.global.v2.u32 {%r1, %r2}, [%rd5+%d];\nst.global.v2.u32 [%rd4], {%r2, %r1};\n";
    char body[256];
    snprintf(body, sizeof body, vn == 4 ? ld4 : ld2, off);
    snprintf(buf, cap,
             HDR
             ".visible .entry k(.param .u64 o, .param .u64 in)\n{\n.reg .b32 %%r<8>;\n.reg .b64 %%rd<8>;\n"
             "ld.param.u64 %%rd1, [o];\nld.param.u64 %%rd2, [in];\nmov.u32 %%r5, %%tid.x;\n"
             "mul.wide.u32 %%rd3, %%r5, %d;\nadd.s64 %%rd4, %%rd1, %%rd3;\nadd.s64 %%rd5, %%rd2, %%rd3;\n%sret;\n}\n",
             4 * vn, body);
}

static void check_vec(int vn) {
    uint32_t in[128], out[128];
    for (int k = 0; k < 128; k++) in[k] = 0x1000u * (uint32_t)k + 7;
    char src[1024], rep[1024];
    vec_src(src, sizeof src, vn, 0);
    cr_assert_eq(run_io(src, 128 / (unsigned)vn, in, sizeof in, out, sizeof out, rep, sizeof rep), PTXI_SUCCESS, "%s",
                 rep);
    for (int t = 0; t < 128 / vn; t++)
        for (int j = 0; j < vn; j++)
            cr_expect_eq(out[vn * t + j], in[vn * t + vn - 1 - j], "thread %d, element %d", t, j);
}

Test(warp_access, vector_loads_and_stores_of_whole_warps) {
    check_vec(4);
    check_vec(2);
}

Test(warp_access, vector_run_past_the_end_or_misaligned) {
    uint32_t in[64], out[128]; /* 256 bytes: lanes 16-31 of a .v4 warp read past them */
    char src[1024], rep[2048];
    memset(in, 0, sizeof in);
    vec_src(src, sizeof src, 4, 0);
    ptxi_status s = run_io(src, 32, in, sizeof in, out, sizeof out, rep, sizeof rep);
    cr_assert_eq(s, PTXI_ILLEGAL_ADDRESS, "status %s, report: %s", ptxi_error_name(s), rep);
    cr_assert(strstr(rep, "out-of-bounds global read of 16 bytes"), "%s", rep);
    cr_assert(strstr(rep, "thread (16,0,0)"), "%s", rep);
    vec_src(src, sizeof src, 4, 8);
    s = run_io(src, 8, in, sizeof in, out, sizeof out, rep, sizeof rep);
    cr_assert_eq(s, PTXI_MISALIGNED_ADDRESS, "status %s, report: %s", ptxi_error_name(s), rep);
    cr_assert(strstr(rep, "thread (0,0,0)"), "%s", rep);
}

/* Strong loads and stores (host atomics, exec_mem.h) of every size, signed
 * loads sign-extended: in = 80 ff 34 92 78 56 34 12 f0 de bc 9a ... */
static const char strong_ptx[] = HDR
    ".visible .entry k(.param .u64 o, .param .u64 in)\n{\n.reg .b16 %h1;\n.reg .b32 %r<8>;\n.reg .b64 %rd<6>;\n"
    "ld.param.u64 %rd1, [o];\nld.param.u64 %rd2, [in];\nld.volatile.global.s8 %r1, [%rd2];\n"
    "ld.volatile.global.u8 %r2, [%rd2+1];\nld.relaxed.gpu.global.s16 %r3, [%rd2+2];\n"
    "ld.acquire.gpu.global.u32 %r4, [%rd2+4];\nld.volatile.global.u64 %rd3, [%rd2+8];\n"
    "ld.volatile.global.u16 %h1, [%rd2+2];\nst.volatile.global.u32 [%rd1], %r1;\n"
    "st.relaxed.gpu.global.u32 [%rd1+4], %r2;\nst.release.gpu.global.u32 [%rd1+8], %r3;\n"
    "st.volatile.global.u32 [%rd1+12], %r4;\nst.volatile.global.u64 [%rd1+16], %rd3;\n"
    "st.volatile.global.u16 [%rd1+24], %h1;\nst.volatile.global.u8 [%rd1+26], %r2;\nret;\n}\n";

Test(warp_access, strong_loads_and_stores) {
    static const uint8_t in[16] = {0x80, 0xff, 0x34, 0x92, 0x78, 0x56, 0x34, 0x12,
                                   0xf0, 0xde, 0xbc, 0x9a, 0x78, 0x56, 0x34, 0x12};
    uint32_t out[8];
    char rep[1024];
    cr_assert_eq(run_io(strong_ptx, 1, in, sizeof in, out, sizeof out, rep, sizeof rep), PTXI_SUCCESS, "%s", rep);
    cr_expect_eq(out[0], 0xffffff80u, "s8");
    cr_expect_eq(out[1], 0xffu, "u8");
    cr_expect_eq(out[2], 0xffff9234u, "s16");
    cr_expect_eq(out[3], 0x12345678u, "u32");
    cr_expect_eq(out[4], 0x9abcdef0u, "u64 low");
    cr_expect_eq(out[5], 0x12345678u, "u64 high");
    cr_expect_eq(out[6], 0x00ff9234u, "u16 and u8 stores");
}
