/* test_jit.c — compiled runs (interp/jit.c) compute what the definitions say,
 * with the JIT on and off: every operation it has a template for, guarded and
 * not, NaNs, shift counts past the width, a divergent stretch; and a fault
 * inside a compiled run is reported at its own line and thread. The expected
 * words come from C below, not from ptxi. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../run_kernel.h"

#define NT 64 /* two warps, one CTA */
#define NW 50 /* result words per thread */

static const char *SRC =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    ".shared .align 4 .b32 sh[64];\n.reg .pred %p<10>;\n.reg .b32 %r<48>;\n.reg .f32 %f<12>;\n.reg .b64 %rd<24>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
    "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ntid.x;\nmov.u32 %r3, %ctaid.x;\n"
    "mad.lo.s32 %r4, %r3, %r2, %r1;\n"
    "mul.wide.u32 %rd3, %r4, 4;\nadd.s64 %rd4, %rd2, %rd3;\n"
    "ld.global.u32 %r5, [%rd4];\nld.global.u32 %r6, [%rd4+256];\n"
    "ld.global.f32 %f1, [%rd4+512];\nld.global.f32 %f2, [%rd4+768];\n"
    "mul.wide.u32 %rd5, %r4, 200;\nadd.s64 %rd6, %rd1, %rd5;\n"
    "add.s32 %r7, %r5, %r6;\nsub.s32 %r8, %r5, %r6;\nmul.lo.s32 %r9, %r5, %r6;\n"
    "mad.lo.s32 %r10, %r5, %r6, %r7;\nand.b32 %r11, %r5, %r6;\nor.b32 %r12, %r5, %r6;\n"
    "xor.b32 %r13, %r5, %r6;\nand.b32 %r14, %r6, 63;\nshl.b32 %r15, %r5, %r14;\n"
    "shr.u32 %r16, %r5, %r14;\nshr.s32 %r17, %r5, %r14;\nmin.s32 %r18, %r5, %r6;\n"
    "max.u32 %r19, %r5, %r6;\nnot.b32 %r20, %r5;\n"
    "cvt.u64.u32 %rd7, %r5;\ncvt.s64.s32 %rd8, %r6;\nmul.wide.s32 %rd9, %r5, %r6;\n"
    "mad.wide.u32 %rd10, %r5, %r6, %rd8;\nadd.s64 %rd11, %rd9, %rd10;\nsub.s64 %rd12, %rd7, %rd8;\n"
    "mul.lo.s64 %rd13, %rd9, %rd8;\nshl.b64 %rd14, %rd8, %r14;\nshr.s64 %rd15, %rd8, %r14;\n"
    "shr.u64 %rd16, %rd8, %r14;\nxor.b64 %rd17, %rd11, %rd13;\ncvt.u32.u64 %r21, %rd17;\n"
    "setp.lt.s32 %p1, %r5, %r6;\nsetp.gt.u32 %p2, %r5, %r6;\nsetp.ne.s64 %p3, %rd9, %rd10;\n"
    "setp.lt.f32 %p4, %f1, %f2;\nselp.b32 %r22, %r5, %r6, %p1;\nselp.b64 %rd18, %rd9, %rd10, %p2;\n"
    "and.pred %p5, %p1, %p4;\nor.pred %p6, %p2, %p3;\nxor.pred %p7, %p5, %p6;\n"
    "add.rn.f32 %f3, %f1, %f2;\nsub.rn.f32 %f4, %f1, %f2;\nmul.rn.f32 %f5, %f1, %f2;\n"
    "fma.rn.f32 %f6, %f1, %f2, %f3;\nmax.f32 %f7, %f1, %f2;\nmin.f32 %f8, %f1, %f2;\n"
    "shfl.sync.bfly.b32 %r27, %r5, 1, 31, -1;\n"
    "shfl.sync.down.b32 %r37|%p9, %r5, 3, 31, -1;\nshfl.sync.up.b32 %r38, %r5, 5, 0, -1;\nselp.u32 %r39, 1, 0, %p9;\n"
    "mov.u32 %r31, sh;\nshl.b32 %r32, %r1, 2;\nadd.s32 %r33, %r31, %r32;\nst.shared.u32 [%r33], %r5;\n"
    "ld.shared.u32 %r34, [%r33];\nxor.b32 %r35, %r33, 4;\nld.shared.u32 %r36, [%r35];\n"
    "and.b32 %r28, %r6, 0xfff0ffff;\ndiv.u32 %r29, %r5, %r28;\nrem.u32 %r30, %r5, %r28;\n"
    "@%p1 add.s32 %r7, %r7, 1000;\n@!%p2 add.s64 %rd11, %rd11, 77;\n@%p4 mul.rn.f32 %f3, %f3, %f2;\n"
    "@%p6 setp.eq.s32 %p7, %r5, %r6;\nselp.u32 %r23, 1, 0, %p7;\n"
    "selp.u32 %r24, 1, 0, %p5;\nselp.u32 %r25, 1, 0, %p6;\n"
    /* a divergent stretch: lanes 0-9 of each warp skip it */
    "and.b32 %r26, %r1, 31;\nsetp.lt.u32 %p8, %r26, 10;\n@%p8 bra SKIP;\n"
    "add.s32 %r8, %r8, %r26;\nshl.b64 %rd12, %rd12, 1;\n"
    "SKIP:\n"
    "st.global.u32 [%rd6], %r7;\nst.global.u32 [%rd6+4], %r8;\nst.global.u32 [%rd6+8], %r9;\n"
    "st.global.u32 [%rd6+12], %r10;\nst.global.u32 [%rd6+16], %r11;\nst.global.u32 [%rd6+20], %r12;\n"
    "st.global.u32 [%rd6+24], %r13;\nst.global.u32 [%rd6+28], %r15;\nst.global.u32 [%rd6+32], %r16;\n"
    "st.global.u32 [%rd6+36], %r17;\nst.global.u32 [%rd6+40], %r18;\nst.global.u32 [%rd6+44], %r19;\n"
    "st.global.u32 [%rd6+48], %r20;\nst.global.u32 [%rd6+52], %r21;\nst.global.u32 [%rd6+56], %r22;\n"
    "st.global.u32 [%rd6+60], %r23;\nst.global.u64 [%rd6+64], %rd11;\nst.global.u64 [%rd6+72], %rd12;\n"
    "st.global.u64 [%rd6+80], %rd13;\nst.global.u64 [%rd6+88], %rd14;\nst.global.u64 [%rd6+96], %rd15;\n"
    "st.global.u64 [%rd6+104], %rd16;\nst.global.u64 [%rd6+112], %rd18;\nst.global.f32 [%rd6+120], %f3;\n"
    "st.global.f32 [%rd6+124], %f4;\nst.global.f32 [%rd6+128], %f5;\nst.global.f32 [%rd6+132], %f6;\n"
    "st.global.u32 [%rd6+136], %r24;\nst.global.u32 [%rd6+140], %r25;\n"
    "@%p1 st.global.u32 [%rd6+144], %r5;\nst.global.f32 [%rd6+148], %f7;\nst.global.f32 [%rd6+152], %f8;\n"
    "st.global.u32 [%rd6+156], %r27;\nst.global.u32 [%rd6+160], %r29;\nst.global.u32 [%rd6+164], %r30;\n"
    "st.global.u32 [%rd6+168], %r34;\nst.global.u32 [%rd6+172], %r36;\n"
    "st.global.u32 [%rd6+176], %r37;\nst.global.u32 [%rd6+180], %r38;\nst.global.u32 [%rd6+184], %r39;\n"
    "cvt.rn.f32.s32 %f9, %r5;\ncvt.rn.f32.u32 %f10, %r6;\nst.global.f32 [%rd6+188], %f9;\nst.global.f32 [%rd6+192], %f10;\n"
    "ret;\n}\n";

typedef union {
    float f;
    uint32_t u;
} fu;
#define fbits(x) ((fu){.f = (x)}.u)
#define bitsf(x) ((fu){.u = (x)}.f)
/* fp results as the GPU gives them: NaN is 0x7fffffff */
static uint32_t canon(float f) { return f != f ? 0x7fffffffu : fbits(f); }

static void inputs(uint32_t in[4 * NT]) {
    uint32_t s = 12345;
    for (int t = 0; t < NT; t++) {
        s = s * 1664525u + 1013904223u;
        in[t] = t % 9 == 0 ? 0x80000000u + (uint32_t)t : s;
        s = s * 1664525u + 1013904223u;
        in[NT + t] = t % 11 == 0 ? in[t] : t % 17 == 5 ? 0x000f0000u : t % 6 == 2 ? s >> (t % 29) : s ^ (uint32_t)t;
        in[2 * NT + t] = t % 7 == 0 ? 0x7fc00001u : fbits((float)t * 0.37f - 3.0f);
        in[3 * NT + t] = t % 5 == 0 ? 0x7f800000u : t % 10 == 1 ? 0xffc00002u : fbits(1.5f - (float)t * 0.11f);
        if (t % 13 == 3) in[2 * NT + t] = 0x80000000u, in[3 * NT + t] = 0; /* -0, +0 */
        if (t % 13 == 4) in[2 * NT + t] = 0, in[3 * NT + t] = 0x80000000u;
    }
}

/* min/max.f32: a NaN loses (two give the canonical NaN), -0 is below +0 */
static uint32_t fminmax(uint32_t a, uint32_t b, bool max) {
    float x = bitsf(a), y = bitsf(b);
    if (x != x && y != y) return 0x7fffffffu;
    if (x != x) return b;
    if (y != y) return a;
    if (x == y && x == 0) return (max ? (a >> 31) & (b >> 31) : (a >> 31) | (b >> 31)) ? 0x80000000u : 0;
    return (max ? x > y : x < y) ? a : b;
}

static void put64(uint32_t *o, uint64_t v) { o[0] = (uint32_t)v, o[1] = (uint32_t)(v >> 32); }

static void expected(const uint32_t in[4 * NT], uint32_t want[NT * NW]) {
    memset(want, 0, NT * NW * 4);
    for (int t = 0; t < NT; t++) {
        uint32_t x = in[t], y = in[NT + t], *o = want + t * NW, c = y & 63, lane = (uint32_t)t & 31;
        float f = bitsf(in[2 * NT + t]), g = bitsf(in[3 * NT + t]);
        uint64_t ux = x, sy = (uint64_t)(int64_t)(int32_t)y;
        uint64_t w9 = (uint64_t)((int64_t)(int32_t)x * (int64_t)(int32_t)y), w10 = ux * y + sy;
        uint64_t w11 = w9 + w10, w13 = w9 * sy;
        bool p1 = (int32_t)x < (int32_t)y, p2 = x > y, p3 = w9 != w10, p4 = f < g;
        bool p5 = p1 && p4, p6 = p2 || p3, p7 = p5 != p6;
        if (p6) p7 = x == y;
        uint32_t f3 = canon(f + g);
        if (p4) f3 = canon(bitsf(f3) * g);
        o[0] = x + y + (p1 ? 1000 : 0);
        o[1] = x - y + (lane >= 10 ? lane : 0);
        o[2] = x * y;
        o[3] = x * y + x + y;
        o[4] = x & y, o[5] = x | y, o[6] = x ^ y;
        o[7] = c > 31 ? 0 : x << c;
        o[8] = c > 31 ? 0 : x >> c;
        o[9] = (uint32_t)((int32_t)x >> (c > 31 ? 31 : c));
        o[10] = (int32_t)x < (int32_t)y ? x : y;
        o[11] = x > y ? x : y;
        o[12] = ~x;
        o[13] = (uint32_t)(w11 ^ w13);
        o[14] = p1 ? x : y;
        o[15] = p7;
        put64(o + 16, w11 + (p2 ? 0 : 77));
        put64(o + 18, (ux - sy) << (lane >= 10 ? 1 : 0));
        put64(o + 20, w13);
        put64(o + 22, sy << c);
        put64(o + 24, (uint64_t)((int64_t)sy >> c));
        put64(o + 26, sy >> c);
        put64(o + 28, p2 ? w9 : w10);
        o[30] = f3;
        o[31] = canon(f - g);
        o[32] = canon(f * g);
        o[33] = canon(fmaf(f, g, bitsf(canon(f + g))));
        o[34] = p5, o[35] = p6;
        o[36] = p1 ? x : 0;
        o[37] = fminmax(in[2 * NT + t], in[3 * NT + t], true);
        o[38] = fminmax(in[2 * NT + t], in[3 * NT + t], false);
        o[39] = in[t ^ 1];
        uint32_t dv = y & 0xfff0ffffu;
        o[40] = dv ? x / dv : 0xffffffffu; /* as measured on sm_90 (interp/ALU.md) */
        o[41] = dv ? x % dv : 0xffffffffu;
        o[42] = x, o[43] = in[t ^ 1]; /* through shared memory */
        o[47] = fbits((float)(int32_t)x), o[48] = fbits((float)y); /* round to nearest even */
        o[44] = lane + 3 <= 31 ? in[t + 3] : x, o[45] = lane >= 5 ? in[t - 5] : x, o[46] = lane + 3 <= 31;
    }
}

static void run_with_src(const char *src, const char *jit, const uint32_t *in, size_t nin, uint32_t *out, size_t n) {
    char rep[1024];
    ptxi_status s = run_io_jit(jit, src, NT, in, nin, out, n, rep, sizeof rep, NULL);
    cr_assert_eq(s, PTXI_SUCCESS, "%s", rep);
}
static void run_with(const char *jit, const uint32_t *in, uint32_t *out) {
    run_with_src(SRC, jit, in, 4 * NT * 4, out, NT * NW * 4);
}

static void check(const char *jit) {
    static uint32_t in[4 * NT], want[NT * NW], got[NT * NW];
    inputs(in);
    expected(in, want);
    run_with(jit, in, got);
    for (int k = 0; k < NT * NW; k++)
        cr_assert_eq(got[k], want[k], "PTXI_JIT=%s: thread %d word %d: 0x%08x, expected 0x%08x", jit, k / NW, k % NW,
                     got[k], want[k]);
}

Test(jit, templates_jit_on) { check("1"); }
Test(jit, templates_jit_off) { check("0"); }

/* Every lane reads out of bounds inside a long straight-line run: the report
 * names the load's line and the first lane, with or without the JIT. */
static const char *FAULT = ".version 8.0\n.target sm_90\n.address_size 64\n"
                           ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                           ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
                           "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n"
                           "mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
                           "add.s64 %rd4, %rd3, 1048576;\nadd.s32 %r2, %r1, 1;\n"
                           "ld.global.u32 %r3, [%rd4];\n"
                           "add.s32 %r4, %r3, %r2;\nst.global.u32 [%rd3], %r4;\nret;\n}\n";

/* The same with ld.shared whose lanes are not one run (the inline gather's
 * case): lane 5 of warp 1 (thread 37) reads past the window. */
static const char *SHFAULT = ".version 8.0\n.target sm_90\n.address_size 64\n"
                             ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                             ".shared .align 4 .b32 sh[64];\n.reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
                             "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n"
                             "mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
                             "and.b32 %r2, %r1, 3;\nshl.b32 %r3, %r2, 2;\nsetp.eq.u32 %p1, %r1, 37;\n"
                             "selp.u32 %r4, 4096, 0, %p1;\nadd.s32 %r5, %r3, %r4;\nmov.u32 %r6, sh;\n"
                             "add.s32 %r7, %r6, %r5;\nld.shared.u32 %r3, [%r7];\n"
                             "add.s32 %r4, %r3, %r2;\nst.global.u32 [%rd3], %r4;\nret;\n}\n";

static ptxi_status fault_src_with(const char *src, const char *jit, char *rep, size_t cap) {
    uint32_t out[NT];
    ptxi_status s = run_io_jit(jit, src, NT, NULL, 0, out, sizeof out, rep, cap, NULL);
    cr_assert_neq(s, PTXI_SUCCESS, "%s", rep);
    return s;
}
static void fault_with(const char *jit, char *rep, size_t cap) {
    cr_assert_eq(fault_src_with(FAULT, jit, rep, cap), PTXI_ILLEGAL_ADDRESS, "%s", rep);
}

Test(jit, shared_gather_fault_inside_a_run) {
    char on[2048], off[2048];
    cr_assert_eq(fault_src_with(SHFAULT, "1", on, sizeof on), fault_src_with(SHFAULT, "0", off, sizeof off));
    cr_assert(strstr(on, "out-of-bounds shared read of 4 bytes at address 0x1004"), "%s", on);
    cr_assert(strstr(on, "at w.ptx:21:1 in k"), "the load's line: %s", on);
    cr_assert(strstr(on, "thread (37,0,0)"), "the bad lane: %s", on);
    cr_assert_str_eq(on, off, "with and without the JIT");
}

/* ld.global whose lanes are not one run (the inline gather's case): thread
 * t reads in[(7 * t) % 64] and stores it plus t to out[t]; thread 37 reads
 * `bad` bytes further on (outside the allocation, misaligned, or far below
 * the arena). */
static void gather_src(char *src, size_t cap, const char *bad) {
    snprintf(src, cap,
             ".version 8.0\n.target sm_90\n.address_size 64\n"
             ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
             ".reg .pred %%p<2>;\n.reg .b32 %%r<8>;\n.reg .b64 %%rd<8>;\n"
             "ld.param.u64 %%rd1, [in];\nmov.u32 %%r1, %%tid.x;\n"
             "mul.lo.u32 %%r2, %%r1, 7;\nand.b32 %%r2, %%r2, 63;\nmul.wide.u32 %%rd2, %%r2, 4;\n"
             "setp.eq.u32 %%p1, %%r1, 37;\nselp.b64 %%rd5, %s, 0, %%p1;\nadd.s64 %%rd3, %%rd1, %%rd2;\n"
             "add.s64 %%rd4, %%rd3, %%rd5;\nld.global.u32 %%r3, [%%rd4];\n"
             "ld.param.u64 %%rd1, [out];\nmul.wide.u32 %%rd6, %%r1, 4;\nadd.s64 %%rd7, %%rd1, %%rd6;\n"
             "add.s32 %%r4, %%r3, %%r1;\nst.global.u32 [%%rd7], %%r4;\nret;\n}\n",
             bad);
}

Test(jit, global_gather_inside_a_run) {
    uint32_t in[NT], out[NT];
    char src[2048];
    for (uint32_t t = 0; t < NT; t++) in[t] = 0x9e3779b9u * (t + 1);
    gather_src(src, sizeof src, "0");
    for (int k = 0; k < 2; k++) {
        memset(out, 0, sizeof out);
        run_with_src(src, k ? "1" : "0", in, sizeof in, out, sizeof out);
        for (uint32_t t = 0; t < NT; t++)
            cr_assert_eq(out[t], in[(7 * t) % 64] + t, "PTXI_JIT=%d: thread %u: 0x%08x", k, t, out[t]);
    }
}

static ptxi_status gather_fault(const char *src, const char *jit, char *rep, size_t cap) {
    uint32_t in[NT] = {0}, out[NT];
    ptxi_status s = run_io_jit(jit, src, NT, in, sizeof in, out, sizeof out, rep, cap, NULL);
    cr_assert_neq(s, PTXI_SUCCESS, "%s", rep);
    return s;
}

Test(jit, global_gather_fault_inside_a_run) {
    static const char *const bad[] = {"1048576", "2", "-1099511627776"};
    static const char *const what[] = {"out-of-bounds global read of 4 bytes", "misaligned", "global read of 4 bytes"};
    for (int k = 0; k < 3; k++) {
        char src[2048], on[2048], off[2048];
        gather_src(src, sizeof src, bad[k]);
        cr_assert_eq(gather_fault(src, "1", on, sizeof on), gather_fault(src, "0", off, sizeof off));
        cr_assert(strstr(on, what[k]), "%s", on);
        cr_assert(strstr(on, "at w.ptx:18:1 in k"), "the load's line: %s", on);
        cr_assert(strstr(on, "thread (37,0,0)"), "the bad lane: %s", on);
        cr_assert_str_eq(on, off, "with and without the JIT");
    }
}

Test(jit, fault_inside_a_run) {
    char on[2048], off[2048];
    fault_with("1", on, sizeof on);
    fault_with("0", off, sizeof off);
    const char *rep[2] = {on, off};
    for (int k = 0; k < 2; k++) {
        cr_assert(strstr(rep[k], "out-of-bounds global read of 4 bytes"), "%s", rep[k]);
        cr_assert(strstr(rep[k], "at w.ptx:14:1 in k"), "the load's line: %s", rep[k]);
        cr_assert(strstr(rep[k], "block (0,0,0), thread (0,0,0)"), "%s", rep[k]);
    }
}

/* A guarded branch at a label, reached by part of the warp: the handler of
 * a record that begins a straight line (here a branch) must still find its
 * own target there. */
static const char *BRANCHES = ".version 8.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                              ".reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
                              "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, 0;\n"
                              "and.b32 %r3, %r1, 1;\nsetp.ne.u32 %p3, %r3, 0;\n"
                              "setp.lt.u32 %p1, %r1, 7;\n@%p1 bra A;\nbra.uni C;\n"
                              "A:\n@%p3 bra D;\nadd.s32 %r2, %r2, 1;\nadd.s32 %r2, %r2, 2;\n"
                              "D:\nadd.s32 %r2, %r2, 10;\n"
                              "C:\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
                              "st.global.u32 [%rd3], %r2;\nret;\n}\n";

Test(jit, branch_at_a_label_in_a_partial_group) {
    const char *modes[2] = {"1", "0"};
    for (int k = 0; k < 2; k++) {
        uint32_t out[32];
        char rep[1024];
        ptxi_status s = run_io_jit(modes[k], BRANCHES, 32, NULL, 0, out, sizeof out, rep, sizeof rep, NULL);
        cr_assert_eq(s, PTXI_SUCCESS, "PTXI_JIT=%s: %s", modes[k], rep);
        for (uint32_t l = 0; l < 32; l++)
            cr_assert_eq(out[l], l >= 7 ? 0u : l & 1 ? 10u : 13u, "PTXI_JIT=%s lane %u: %u", modes[k], l, out[l]);
    }
}

/* A kernel whose first block is a launch-invariant prologue (hoist.c): every
 * CTA after the first on a host thread starts after it, and must still enter
 * the compiled run there, not interpret the rest of the block. */
static const char *PROLOGUE = ".version 8.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry k(.param .u64 out, .param .u32 n)\n{\n"
                              ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
                              "ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [n];\ncvta.to.global.u64 %rd2, %rd1;\n"
                              "mov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\nmov.u32 %r4, %tid.x;\n"
                              "mad.lo.s32 %r5, %r2, %r3, %r4;\nsetp.ge.s32 %p1, %r5, %r1;\n@%p1 bra DONE;\n"
                              "mul.wide.s32 %rd3, %r5, 4;\nadd.s64 %rd4, %rd2, %rd3;\nmul.lo.s32 %r6, %r5, 3;\n"
                              "add.s32 %r7, %r6, 1;\nst.global.u32 [%rd4], %r7;\nDONE:\nret;\n}\n";

static uint64_t prologue_run(const char *jit, uint64_t *warp_insns) {
    enum { NB = 16, NTB = 64 };
    setenv("PTXI_JIT", jit, 1);
    ptxi_ctx *ctx;
    cr_assert_eq(ptxi_ctx_create(&ctx, &(ptxi_ctx_options){.threads = 1}), PTXI_SUCCESS);
    ptxi_module *m;
    cr_assert_eq(ptxi_module_load_data(ctx, PROLOGUE, strlen(PROLOGUE), "p.ptx", &m), PTXI_SUCCESS);
    unsetenv("PTXI_JIT");
    ptxi_dptr d;
    cr_assert_eq(ptxi_mem_alloc(ctx, NB * NTB * 4, &d), PTXI_SUCCESS);
    uint32_t n = NB * NTB;
    void *args[] = {&d, &n};
    cr_assert_eq(ptxi_launch(ptxi_module_kernel_at(m, 0), (ptxi_dim3){NB, 1, 1}, (ptxi_dim3){NTB, 1, 1}, 0, NULL, args),
                 PTXI_SUCCESS);
    cr_assert_eq(ptxi_ctx_synchronize(ctx), PTXI_SUCCESS);
    static uint32_t out[NB * NTB];
    ptxi_memcpy_dtoh(ctx, out, d, sizeof out);
    for (uint32_t t = 0; t < n; t++) cr_assert_eq(out[t], 3 * t + 1, "PTXI_JIT=%s thread %u: %u", jit, t, out[t]);
    ptxi_launch_stats st;
    cr_assert_eq(ptxi_ctx_last_launch_stats(ctx, &st), PTXI_SUCCESS);
    ptxi_ctx_destroy(ctx);
    *warp_insns = st.warp_insns;
    return st.jit_warp_insns;
}

Test(jit, every_cta_enters_the_compiled_run_after_the_prologue) {
    uint64_t on_total, off_total;
    uint64_t on = prologue_run("1", &on_total), off = prologue_run("0", &off_total);
    cr_assert_eq(on_total, off_total, "the counts do not depend on the JIT: %llu, %llu", (unsigned long long)on_total,
                 (unsigned long long)off_total);
    cr_assert_eq(off, 0);
    if (!jit_host()) {
        cr_assert_eq(on, 0);
        return;
    }
    /* 32 warps of 15 records: a prologue of at most 7, the rest but ret compiled in every warp */
    cr_assert_geq(on, 32u * 7u, "compiled %llu of %llu warp instructions", (unsigned long long)on,
                  (unsigned long long)on_total);
}

/* PTXI_JIT_PERFMAP=1: /tmp/jit-PID.dump is perf's jitdump format (a header,
 * then one code-load record per compiled record or masked run, whose bytes
 * are the code at its address), and every name in it is also in
 * /tmp/perf-PID.map at the same address and size. */
Test(jit, perf_dump_holds_each_records_code) {
    char dump[64], map[64];
    snprintf(dump, sizeof dump, "/tmp/jit-%ld.dump", (long)getpid());
    snprintf(map, sizeof map, "/tmp/perf-%ld.map", (long)getpid());
    remove(map);
    setenv("PTXI_JIT_PERFMAP", "1", 1);
    ptxi_ctx *ctx;
    cr_assert_eq(ptxi_ctx_create(&ctx, NULL), PTXI_SUCCESS);
    ptxi_module *m;
    cr_assert_eq(ptxi_module_load_data(ctx, SRC, strlen(SRC), "w.ptx", &m), PTXI_SUCCESS);
    unsetenv("PTXI_JIT_PERFMAP");
    FILE *d = fopen(dump, "rb"), *pm = fopen(map, "r");
    if (!jit_host()) {
        cr_assert_null(d, "no compiled code, no dump");
        ptxi_ctx_destroy(ctx);
        return;
    }
    cr_assert_not_null(d);
    cr_assert_not_null(pm);
    uint32_t h[6];
    uint64_t h2[2];
    cr_assert_eq(fread(h, 4, 6, d), 6);
    cr_assert_eq(fread(h2, 8, 2, d), 2);
    cr_assert_eq(h[0], 0x4A695444u, "magic %#x", h[0]);
    cr_assert_eq(h[1], 1u);
    cr_assert_eq(h[2], 40u, "header size");
    cr_assert_eq(h[3], 62u, "EM_X86_64");
    cr_assert_eq(h[5], (uint32_t)getpid());
    unsigned n = 0, masked = 0;
    uint64_t last_time = h2[0];
    for (;;) {
        uint32_t id, size;
        uint64_t t, pidtid, vma, addr, len, index;
        if (fread(&id, 4, 1, d) != 1) break;
        cr_assert_eq(id, 0u, "JIT_CODE_LOAD only");
        cr_assert_eq(fread(&size, 4, 1, d), 1);
        cr_assert(fread(&t, 8, 1, d) == 1 && fread(&pidtid, 8, 1, d) == 1 && fread(&vma, 8, 1, d) == 1 &&
                  fread(&addr, 8, 1, d) == 1 && fread(&len, 8, 1, d) == 1 && fread(&index, 8, 1, d) == 1);
        cr_assert_geq(t, last_time, "times never go back");
        last_time = t;
        cr_assert_eq((uint32_t)pidtid, (uint32_t)getpid());
        cr_assert_eq(vma, addr);
        cr_assert_eq(index, n, "code indexes count up");
        cr_assert(len > 0 && len < 65536);
        char name[300];
        size_t nl = 0;
        int ch;
        while ((ch = fgetc(d)) > 0 && nl + 1 < sizeof name) name[nl++] = (char)ch;
        name[nl] = 0;
        cr_assert_eq(ch, 0, "a terminated name");
        cr_assert_eq(size, 56u + nl + 1 + len, "record size of %s", name);
        cr_assert(!strncmp(name, "ptxi:k:", 7), "%s", name);
        masked += strstr(name, "):masked") != NULL;
        uint8_t *code = malloc(len);
        cr_assert_eq(fread(code, 1, len, d), len);
        cr_assert(!memcmp(code, (const void *)(uintptr_t)addr, len), "the bytes of %s are its code", name);
        free(code);
        char line[400], want[400];
        snprintf(want, sizeof want, "%llx %llx %s\n", (unsigned long long)addr, (unsigned long long)len, name);
        bool found = false;
        rewind(pm);
        while (!found && fgets(line, sizeof line, pm)) found = !strcmp(line, want);
        cr_assert(found, "%s in the perf map", want);
        n++;
    }
    cr_assert_geq(n, 40u, "one record per compiled record: %u", n);
    cr_assert_geq(masked, 1u, "the masked runs named too");
    fclose(d);
    fclose(pm);
    ptxi_ctx_destroy(ctx);
    remove(dump);
    remove(map);
}

/* ---- contract.c's fused records: a quotient or a negated product taken
 * into an add/sub, d := fma(±a, b, ±c) with b the divisor's reciprocal ----
 * The divisors are chosen so that the reciprocal is known without the GPU's
 * table: a power of two (8: 1/8; 2^127: div.full scales both operands by 1/4
 * first, the reciprocal of 2^125 is 2^-125), and the immediate 3, whose
 * reciprocal ptxas folds as 1/3 rounded to f32. x and y are per lane (NaN,
 * infinities, subnormals, zeros of both signs, normal values); num and den
 * the same in every lane, so the quotient num / den is the warp's one. Then
 * guarded loads and stores of whole warps, their guard true in every lane of
 * one warp and in a few of the other. */
static const char *FUSED_SRC =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry f(.param .u64 out, .param .u64 in)\n{\n"
    ".reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .f32 %f<32>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"
    "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\n"
    "ld.global.f32 %f1, [%rd4];\nld.global.f32 %f2, [%rd4+256];\n"
    "ld.global.f32 %f3, [%rd2+512];\nld.global.f32 %f4, [%rd2+516];\n"
    "mul.wide.u32 %rd5, %r1, 24;\nadd.s64 %rd6, %rd1, %rd5;\n"
    "setp.lt.f32 %p1, %f1, %f2;\nmov.f32 %f20, 0f00000000;\n"
    /* guarded whole-warp accesses (Triton's masks, in its brace form): the
     * guard holds in every lane of warp 0 and in 8 lanes of warp 1 */
    "setp.lt.u32 %p2, %r1, 40;\nmov.f32 %f21, 0f3F800000;\n@%p2 ld.global.b32 { %f21 }, [%rd4];\n"
    "add.s64 %rd7, %rd1, %rd3;\n@%p2 st.global.b32 [%rd7+1536], { %f21 };\nst.global.f32 [%rd7+1792], %f21;\n"
    "div.full.f32 %f5, %f3, %f4;\nsub.f32 %f6, %f1, %f5;\n"
    "div.full.f32 %f7, %f3, %f4;\nsub.f32 %f8, %f7, %f1;\n"
    "div.full.f32 %f11, %f2, 0f40400000;\nsub.f32 %f12, %f1, %f11;\n"
    "mul.f32 %f13, %f2, %f1;\nneg.f32 %f14, %f13;\nadd.f32 %f15, %f14, %f3;\n"
    "div.full.f32 %f16, %f2, 0f40400000;\n@%p1 sub.f32 %f20, %f1, %f16;\n"
    /* last: a quotient that differs between lanes leaves the run */
    "div.full.f32 %f9, %f2, %f4;\nadd.f32 %f10, %f9, %f1;\n"
    "st.global.f32 [%rd6], %f6;\nst.global.f32 [%rd6+4], %f8;\nst.global.f32 [%rd6+8], %f10;\n"
    "st.global.f32 [%rd6+12], %f12;\nst.global.f32 [%rd6+16], %f15;\nst.global.f32 [%rd6+20], %f20;\n"
    "ret;\n}\n";

static void fused_case(const char *jit, uint32_t den) {
    static const uint32_t special[] = {0x7fc00000u, 0x7f800000u, 0xff800000u, 0x00000001u, 0x807fffffu,
                                       0x00400000u, 0x80000000u, 0x00000000u, 0x7f7fffffu, 0xff000001u};
    uint32_t in[2 * NT + 2], got[NT * 8], s = 99;
    for (int t = 0; t < 2 * NT; t++) {
        s = s * 1664525u + 1013904223u;
        in[t] = t % 3 == 0 ? special[(t / 3) % 10] : fbits((float)(int32_t)(s >> 8) * 0x1p-20f);
    }
    in[2 * NT] = fbits(3.0f), in[2 * NT + 1] = den;
    run_with_src(FUSED_SRC, jit, in, sizeof in, got, sizeof got);
    float num = 3.0f, sa = den == fbits(8.0f) ? 1.0f : 0.25f, rb = den == fbits(8.0f) ? 0.125f : 0x1p-125f;
    float k3 = (float)(1.0 / 3.0);
    for (int t = 0; t < NT; t++) {
        float x = bitsf(in[t]), y = bitsf(in[NT + t]);
        uint32_t want[6] = {canon(fmaf(-(num * sa), rb, x)), canon(fmaf(num * sa, rb, -x)),
                            canon(fmaf((float)((double)y * sa), rb, x)), canon(fmaf(-y, k3, x)),
                            canon(fmaf(-y, x, num)), x < y ? canon(fmaf(-y, k3, x)) : 0};
        for (int k = 0; k < 6; k++)
            cr_assert_eq(got[t * 6 + k], want[k], "PTXI_JIT=%s den %#x: thread %d word %d (x %#x y %#x): %#x, expected %#x",
                         jit, den, t, k, in[t], in[NT + t], got[t * 6 + k], want[k]);
        cr_assert_eq(got[6 * NT + t], t < 40 ? in[t] : 0, "PTXI_JIT=%s: guarded store, thread %d", jit, t);
        cr_assert_eq(got[7 * NT + t], t < 40 ? in[t] : fbits(1.0f), "PTXI_JIT=%s: guarded load, thread %d", jit, t);
    }
}

Test(jit, fused_quotient_and_product_jit_on) {
    fused_case("1", fbits(8.0f));
    fused_case("1", 0x7f000000u); /* 2^127 */
}
Test(jit, fused_quotient_and_product_jit_off) {
    fused_case("0", fbits(8.0f));
    fused_case("0", 0x7f000000u);
}

/* atom.shared.add.u32 inside a compiled run (jit.c atom_shared): two warps,
 * each on its own 32 bins, so only the lane order inside a warp decides the
 * old values. Lanes collide on 8 bins; a guarded atom whose idle lanes hold
 * addresses far outside the window; an immediate value with a dead
 * destination; a destination that is also the value; red (the sink). */
static const char *ATOMS =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    ".shared .align 4 .b32 bins[64];\n.reg .pred %p<4>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"
    "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\n"
    "ld.global.u32 %r2, [%rd4];\nld.global.u32 %r3, [%rd4+256];\n"
    "mov.u32 %r4, bins;\nshl.b32 %r5, %r1, 2;\nadd.s32 %r6, %r4, %r5;\nmov.u32 %r7, 0;\nst.shared.u32 [%r6], %r7;\n"
    "bar.sync 0;\n"
    "and.b32 %r8, %r1, 32;\nshl.b32 %r9, %r8, 2;\nadd.s32 %r10, %r4, %r9;\n"
    "and.b32 %r11, %r2, 7;\nshl.b32 %r12, %r11, 2;\nadd.s32 %r13, %r10, %r12;\n"
    "atom.shared.add.u32 %r14, [%r13], %r3;\n"
    "and.b32 %r15, %r2, 0x1f0;\nshr.u32 %r16, %r15, 2;\nadd.s32 %r17, %r10, %r16;\n"
    "and.b32 %r18, %r2, 0x200;\nsetp.ne.u32 %p1, %r18, 0;\nselp.u32 %r19, %r17, 0x7fff0, %p1;\n"
    "mov.u32 %r20, 0xdead;\n"
    "@%p1 atom.shared.add.u32 %r20, [%r19], %r3;\n"
    "atom.shared.add.u32 %r21, [%r13+4], 1;\n"
    "mov.u32 %r22, %r1;\natom.shared.add.u32 %r22, [%r13+8], %r22;\n"
    "red.shared.add.u32 [%r17], %r1;\n"
    "bar.sync 0;\n"
    "ld.shared.u32 %r23, [%r6];\n"
    "mul.wide.u32 %rd5, %r1, 16;\nadd.s64 %rd6, %rd1, %rd5;\n"
    "st.global.u32 [%rd6], %r14;\nst.global.u32 [%rd6+4], %r20;\nst.global.u32 [%rd6+8], %r22;\n"
    "st.global.u32 [%rd6+12], %r23;\nret;\n}\n";

static void atoms_expected(const uint32_t in[2 * NT], uint32_t want[4 * NT]) {
    uint32_t bins[NT] = {0};
    for (int w = 0; w < NT / 32; w++) {
        uint32_t *b = bins + 32 * w;
        for (int l = 0; l < 32; l++) { /* each record in lane order */
            int t = 32 * w + l;
            want[4 * t] = b[in[t] & 7];
            b[in[t] & 7] += in[NT + t];
        }
        for (int l = 0; l < 32; l++) {
            int t = 32 * w + l;
            want[4 * t + 1] = 0xdead;
            if (in[t] & 0x200) want[4 * t + 1] = b[(in[t] >> 4) & 31], b[(in[t] >> 4) & 31] += in[NT + t];
        }
        for (int l = 0; l < 32; l++) b[(in[32 * w + l] & 7) + 1] += 1;
        for (int l = 0; l < 32; l++) {
            int t = 32 * w + l;
            want[4 * t + 2] = b[(in[t] & 7) + 2];
            b[(in[t] & 7) + 2] += (uint32_t)t;
        }
        for (int l = 0; l < 32; l++) b[(in[32 * w + l] >> 4) & 31] += (uint32_t)(32 * w + l);
    }
    for (int t = 0; t < NT; t++) want[4 * t + 3] = bins[t];
}

Test(jit, atom_shared_add_in_lane_order) {
    static uint32_t in[2 * NT], want[4 * NT], got[4 * NT];
    uint32_t s = 777;
    for (int t = 0; t < NT; t++) {
        s = s * 1664525u + 1013904223u;
        in[t] = s >> 7, in[NT + t] = s * 2654435761u;
    }
    atoms_expected(in, want);
    const char *modes[2] = {"1", "0"};
    for (int k = 0; k < 2; k++) {
        char rep[1024];
        ptxi_status st = run_io_jit(modes[k], ATOMS, NT, in, sizeof in, got, sizeof got, rep, sizeof rep, NULL);
        cr_assert_eq(st, PTXI_SUCCESS, "PTXI_JIT=%s: %s", modes[k], rep);
        for (int x = 0; x < 4 * NT; x++)
            cr_assert_eq(got[x], want[x], "PTXI_JIT=%s: thread %d word %d: 0x%08x, expected 0x%08x", modes[k], x / 4,
                         x % 4, got[x], want[x]);
    }
}

/* One lane's atom.shared.add off the window (or misaligned) inside a run:
 * reported at the atom's line and that lane's thread, JIT on and off. */
static const char *ATOM_FAULT = ".version 8.0\n.target sm_90\n.address_size 64\n"
                                ".visible .entry k(.param .u64 out, .param .u32 bad)\n{\n"
                                ".shared .align 4 .b32 bins[64];\n.reg .pred %p<4>;\n.reg .b32 %r<16>;\n"
                                "ld.param.u32 %r9, [bad];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, bins;\n"
                                "shl.b32 %r3, %r1, 2;\nadd.s32 %r4, %r2, %r3;\nsetp.eq.u32 %p1, %r1, 37;\n"
                                "selp.u32 %r5, %r9, %r4, %p1;\nadd.s32 %r6, %r1, 1;\n"
                                "atom.shared.add.u32 %r7, [%r5], %r6;\n"
                                "add.s32 %r8, %r7, %r6;\nret;\n}\n";

static void atom_fault_with(const char *jit, uint32_t bad, ptxi_status want, char *rep, size_t cap) {
    setenv("PTXI_JIT", jit, 1);
    ptxi_ctx *ctx;
    cr_assert_eq(ptxi_ctx_create(&ctx, &(ptxi_ctx_options){.threads = 1}), PTXI_SUCCESS);
    FILE *quiet = tmpfile();
    ptxi_ctx_set_output(ctx, NULL, quiet);
    ptxi_module *m;
    cr_assert_eq(ptxi_module_load_data(ctx, ATOM_FAULT, strlen(ATOM_FAULT), "w.ptx", &m), PTXI_SUCCESS);
    unsetenv("PTXI_JIT");
    ptxi_dptr d;
    cr_assert_eq(ptxi_mem_alloc(ctx, 256, &d), PTXI_SUCCESS);
    void *args[] = {&d, &bad};
    ptxi_status s = ptxi_launch(ptxi_module_kernel_at(m, 0), (ptxi_dim3){1, 1, 1}, (ptxi_dim3){NT, 1, 1}, 0, NULL, args);
    if (s == PTXI_SUCCESS) s = ptxi_ctx_synchronize(ctx);
    snprintf(rep, cap, "%s", ptxi_ctx_error_detail(ctx));
    ptxi_ctx_destroy(ctx);
    fclose(quiet);
    cr_assert_eq(s, want, "PTXI_JIT=%s: %s", jit, rep);
}

Test(jit, atom_shared_fault_at_its_line_and_lane) {
    struct {
        uint32_t bad;
        ptxi_status st;
        const char *what;
    } cases[2] = {{0x10000, PTXI_ILLEGAL_INSTRUCTION, "out-of-bounds shared write of 4 bytes at address 0x10000"},
                  {6, PTXI_MISALIGNED_ADDRESS, "misaligned shared write of 4 bytes at address 0x6"}};
    const char *modes[2] = {"1", "0"};
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < 2; k++) {
            char rep[2048];
            atom_fault_with(modes[k], cases[c].bad, cases[c].st, rep, sizeof rep);
            cr_assert(strstr(rep, cases[c].what), "PTXI_JIT=%s: %s", modes[k], rep);
            cr_assert(strstr(rep, "at w.ptx:17:1 in k"), "PTXI_JIT=%s: the atom's line: %s", modes[k], rep);
            cr_assert(strstr(rep, "block (0,0,0), thread (37,0,0)"), "PTXI_JIT=%s: %s", modes[k], rep);
        }
}

/* Accesses through one address register (jit_addr.h): the first tests
 * whether the lanes are one run and leaves the answer for the later ones.
 * Warp 0's lanes are one run; warp 1 swaps neighbouring lanes (not one run,
 * so its later accesses must take the call's path although warp 0 left the
 * answer yes); then the register changes and the next load must test again;
 * the stores do the same through a register of their own. The offsets are
 * 64-bit shifts by a constant (an immediate shift in compiled code), and
 * one by a register. */
static const char *RUNS = ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                          ".reg .b32 %r<16>;\n.reg .b64 %rd<10>;\n"
                          "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"
                          "shr.u32 %r2, %r1, 5;\nand.b32 %r3, %r1, 31;\nxor.b32 %r4, %r3, %r2;\n"
                          "shl.b32 %r5, %r2, 5;\nadd.s32 %r6, %r5, %r4;\n"
                          "cvt.u64.u32 %rd3, %r6;\nshl.b64 %rd3, %rd3, 2;\nadd.s64 %rd4, %rd2, %rd3;\n"
                          "ld.global.u32 %r7, [%rd4];\nld.global.u32 %r8, [%rd4+4];\n"
                          "add.s32 %r12, %r7, %r8;\nld.global.u32 %r9, [%rd4+512];\n"
                          "and.b32 %r10, %r1, 1;\nmul.wide.u32 %rd5, %r10, 1024;\nadd.s64 %rd4, %rd4, %rd5;\n"
                          "ld.global.u32 %r11, [%rd4];\n"
                          "add.s64 %rd6, %rd1, %rd3;\nst.global.u32 [%rd6], %r7;\nst.global.u32 [%rd6+256], %r12;\n"
                          "st.global.u32 [%rd6+512], %r9;\nst.global.u32 [%rd6+768], %r11;\n"
                          "shl.b64 %rd7, %rd3, 59;\nadd.s64 %rd5, %rd6, %rd3;\nst.global.u64 [%rd5+1024], %rd7;\n"
                          "shl.b64 %rd8, %rd3, %r2;\nst.global.u64 [%rd5+1536], %rd8;\nret;\n}\n";

/* The same register, but a warp-uniform branch skips the first access: warp
 * 1 jumps to the second with lanes not one run, after warp 0 went through
 * both with lanes that are (a label between them ends what the first tells). */
static const char *RUNJUMP = ".version 8.0\n.target sm_90\n.address_size 64\n"
                             ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                             ".reg .pred %p<2>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
                             "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"
                             "shr.u32 %r2, %r1, 5;\nand.b32 %r3, %r1, 31;\nxor.b32 %r4, %r3, %r2;\n"
                             "shl.b32 %r5, %r2, 5;\nadd.s32 %r6, %r5, %r4;\n"
                             "mul.wide.u32 %rd3, %r6, 4;\nadd.s64 %rd4, %rd2, %rd3;\nmov.u32 %r7, 0;\n"
                             "setp.ne.u32 %p1, %r2, 0;\n@%p1 bra L;\nld.global.u32 %r7, [%rd4];\n"
                             "L:\nld.global.u32 %r8, [%rd4+4];\nadd.s32 %r9, %r7, %r8;\n"
                             "add.s64 %rd6, %rd1, %rd3;\nst.global.u32 [%rd6], %r9;\nret;\n}\n";

/* Guarded accesses through one register (jit_addr.h): warp 0's 32 lanes
 * are one run; warp 1's lanes 0-15 are, but 16-31 swap in pairs. The first
 * load's guard takes lanes 0-15, a run in both warps, and the two after it
 * leave out lane 3 only: in warp 1 they must test their own lanes, whatever
 * the first one's did. Each thread stores at its own index, so that a load
 * in the wrong lane order shows. */
static const char *GUARDED = ".version 8.0\n.target sm_90\n.address_size 64\n"
                             ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                             ".reg .pred %p<3>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
                             "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"
                             "shr.u32 %r2, %r1, 5;\nand.b32 %r3, %r1, 31;\nshr.u32 %r4, %r3, 4;\n"
                             "and.b32 %r4, %r4, %r2;\nxor.b32 %r5, %r3, %r4;\nshl.b32 %r6, %r2, 5;\n"
                             "add.s32 %r6, %r6, %r5;\nmul.wide.u32 %rd3, %r6, 4;\nadd.s64 %rd4, %rd2, %rd3;\n"
                             "add.s64 %rd5, %rd4, 1024;\nsetp.lt.u32 %p1, %r3, 16;\nsetp.ne.u32 %p2, %r3, 3;\n"
                             "mov.u32 %r7, 0;\n@%p1 ld.global.b32 %r7, [%rd4];\n"
                             "mov.u32 %r8, 0;\n@%p2 ld.global.b32 %r8, [%rd4+512];\n"
                             "mov.u32 %r9, 0;\n@%p2 ld.global.b32 %r9, [%rd5];\n"
                             "mul.wide.u32 %rd7, %r1, 4;\nadd.s64 %rd6, %rd1, %rd7;\nst.global.u32 [%rd6], %r7;\n"
                             "st.global.u32 [%rd6+256], %r8;\nst.global.u32 [%rd6+512], %r9;\nret;\n}\n";

/* .v4 loads through one register and one a constant apart (jit_vec.h):
 * the lanes as GUARDED's, warp 1's 16-31 swapped in pairs. Each thread
 * stores its four words at its own index. */
static const char *VEC4 = ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                          ".reg .b32 %r<24>;\n.reg .b64 %rd<8>;\n"
                          "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"
                          "shr.u32 %r2, %r1, 5;\nand.b32 %r3, %r1, 31;\nshr.u32 %r4, %r3, 4;\n"
                          "and.b32 %r4, %r4, %r2;\nxor.b32 %r5, %r3, %r4;\nshl.b32 %r6, %r2, 5;\n"
                          "add.s32 %r6, %r6, %r5;\nmul.wide.u32 %rd3, %r6, 16;\nadd.s64 %rd4, %rd2, %rd3;\n"
                          "add.s64 %rd5, %rd4, 2048;\n"
                          "ld.global.v4.b32 {%r7, %r8, %r9, %r10}, [%rd4];\n"
                          "ld.global.v4.b32 {%r11, %r12, %r13, %r14}, [%rd4+1024];\n"
                          "ld.global.v4.b32 {%r15, %r16, %r17, %r18}, [%rd5];\n"
                          "mul.wide.u32 %rd7, %r1, 16;\nadd.s64 %rd6, %rd1, %rd7;\n"
                          "st.global.v4.b32 [%rd6], {%r7, %r8, %r9, %r10};\n"
                          "st.global.v4.b32 [%rd6+1024], {%r11, %r12, %r13, %r14};\n"
                          "st.global.v4.b32 [%rd6+2048], {%r15, %r16, %r17, %r18};\nret;\n}\n";

/* src over 64 threads, with the JIT on and off: the words want, the same counts. */
static void runs_check(const char *src, const uint32_t *in, size_t nin, const uint32_t *want, int nout) {
    const char *modes[2] = {"1", "0"};
    ptxi_launch_stats st[2];
    for (int k = 0; k < 2; k++) {
        static uint32_t got[1024];
        char rep[1024];
        cr_assert_leq(nout, 1024);
        ptxi_status r = run_io_jit(modes[k], src, NT, in, nin * 4, got, (size_t)nout * 4, rep, sizeof rep, &st[k]);
        cr_assert_eq(r, PTXI_SUCCESS, "PTXI_JIT=%s: %s", modes[k], rep);
        for (int w = 0; w < nout; w++)
            cr_assert_eq(got[w], want[w], "PTXI_JIT=%s: word %d: 0x%08x, expected 0x%08x", modes[k], w, got[w], want[w]);
    }
    cr_assert_eq(st[0].thread_insns, st[1].thread_insns, "the counts do not depend on the JIT");
    cr_assert_eq(st[0].warp_insns, st[1].warp_insns);
}

Test(jit, accesses_through_one_register) {
    enum { NIN = 320, NOUT = 512 };
    static uint32_t in[NIN], want[NOUT], jwant[64];
    uint32_t s = 88172645u;
    for (int k = 0; k < NIN; k++) s ^= s << 13, s ^= s >> 17, s ^= s << 5, in[k] = s;
    for (uint32_t t = 0; t < NT; t++) {
        uint32_t x = 32 * (t >> 5) + ((t & 31) ^ (t >> 5)); /* the thread's word */
        want[x] = in[x], want[64 + x] = in[x] + in[x + 1], want[128 + x] = in[x + 128];
        want[192 + x] = in[x + 256 * (t & 1)];
        uint64_t sh = (uint64_t)(4 * x) << 59; /* at word 256 + 2 x, little-endian */
        want[256 + 2 * x] = (uint32_t)sh, want[256 + 2 * x + 1] = (uint32_t)(sh >> 32);
        want[384 + 2 * x] = 4 * x << (t >> 5); /* by a register: the warp's number */
        jwant[x] = (t < 32 ? in[x] : 0) + in[x + 1];
    }
    runs_check(RUNS, in, NIN, want, NOUT);
    runs_check(RUNJUMP, in, NIN, jwant, 64);
}

Test(jit, guarded_accesses_through_one_register) {
    enum { NIN = 320 };
    static uint32_t in[NIN], want[192];
    uint32_t s = 2463534242u;
    for (int k = 0; k < NIN; k++) s ^= s << 13, s ^= s >> 17, s ^= s << 5, in[k] = s;
    for (uint32_t t = 0; t < NT; t++) {
        uint32_t l = t & 31, x = 32 * (t >> 5) + (l ^ ((l >> 4) & (t >> 5))); /* the thread's word */
        want[t] = l < 16 ? in[x] : 0;
        want[64 + t] = l != 3 ? in[x + 128] : 0;
        want[128 + t] = l != 3 ? in[x + 256] : 0;
    }
    runs_check(GUARDED, in, NIN, want, 192);
}

Test(jit, vector_accesses_through_one_register) {
    enum { NIN = 768 };
    static uint32_t in[NIN], want[NIN];
    uint32_t s = 1597334677u;
    for (int k = 0; k < NIN; k++) s ^= s << 13, s ^= s >> 17, s ^= s << 5, in[k] = s;
    for (uint32_t t = 0; t < NT; t++) {
        uint32_t l = t & 31, x = 32 * (t >> 5) + (l ^ ((l >> 4) & (t >> 5))); /* the thread's vector */
        for (uint32_t e = 0; e < 4; e++)
            for (uint32_t r = 0; r < 3; r++) want[256 * r + 4 * t + e] = in[256 * r + 4 * x + e];
    }
    runs_check(VEC4, in, NIN, want, NIN);
}

/* mul.wide / mad.wide by constants (jit_addr.h's mulw_konst): powers of two
 * as shifts (signed and unsigned, 2^30 the largest signed one), others as
 * one splat multiplier (-3, -2^31, 0x80000001), over words whose sign bit is
 * set in about half the lanes. */
static const char *WIDE = ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                          ".reg .b32 %r<4>;\n.reg .b64 %rd<12>;\n"
                          "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmul.lo.u32 %r2, %r1, -1640531527;\n"
                          "mul.wide.s32 %rd2, %r2, 8;\nmul.wide.u32 %rd3, %r2, 8;\nmul.wide.s32 %rd4, %r2, -3;\n"
                          "mul.wide.u32 %rd5, %r2, -2147483647;\nmad.wide.s32 %rd6, %r2, 16, %rd2;\n"
                          "mul.wide.s32 %rd7, %r2, 1073741824;\nmul.wide.s32 %rd8, %r2, -2147483648;\n"
                          "mul.wide.u32 %rd9, %r1, 8;\nadd.s64 %rd10, %rd1, %rd9;\n"
                          "st.global.u64 [%rd10], %rd2;\nst.global.u64 [%rd10+512], %rd3;\n"
                          "st.global.u64 [%rd10+1024], %rd4;\nst.global.u64 [%rd10+1536], %rd5;\n"
                          "st.global.u64 [%rd10+2048], %rd6;\nst.global.u64 [%rd10+2560], %rd7;\n"
                          "st.global.u64 [%rd10+3072], %rd8;\nret;\n}\n";

Test(jit, wide_products_by_constants) {
    enum { NQ = 7 };
    static uint32_t want[NQ * 128];
    for (uint32_t t = 0; t < NT; t++) {
        uint32_t r = t * 2654435769u;
        int64_t sr = (int32_t)r;
        uint64_t q[NQ] = {(uint64_t)(sr * 8),
                          (uint64_t)r * 8,
                          (uint64_t)(sr * -3),
                          (uint64_t)r * 0x80000001u,
                          (uint64_t)(sr * 16 + sr * 8),
                          (uint64_t)(sr * 1073741824),
                          (uint64_t)(sr * -2147483648LL)};
        for (int k = 0; k < NQ; k++)
            want[128 * k + 2 * t] = (uint32_t)q[k], want[128 * k + 2 * t + 1] = (uint32_t)(q[k] >> 32);
    }
    runs_check(WIDE, NULL, 0, want, NQ * 128);
}

/* mul.lo / mad.lo whose two factors are the same in every lane (jit.c
 * mul_uniform: one vpmuludq and a vpshufd), with products past 2^32: a
 * constant times %ntid (launch-invariant, computed before the run), then
 * in the run a CTA-uniform value times the constant, the same product plus
 * %tid (mad), %ctaid * %ntid + %tid, and a lane's value times the constant
 * (the general template). */
static const char *UNIPROD = ".version 8.0\n.target sm_90\n.address_size 64\n"
                             ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                             ".reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
                             "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, %ntid.x;\n"
                             "mov.u32 %r3, -1640531527;\nmul.lo.u32 %r4, %r3, %r2;\nmov.u32 %r6, %ctaid.x;\n"
                             "add.u32 %r10, %r6, 123456789;\nmul.lo.u32 %r11, %r10, %r3;\n"
                             "mad.lo.s32 %r5, %r11, %r4, %r1;\nmad.lo.s32 %r7, %r6, %r2, %r1;\n"
                             "mul.lo.u32 %r8, %r5, %r3;\n"
                             "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd1, %rd3;\n"
                             "st.global.u32 [%rd4], %r11;\nst.global.u32 [%rd4+256], %r5;\n"
                             "st.global.u32 [%rd4+512], %r7;\nst.global.u32 [%rd4+768], %r8;\nret;\n}\n";

Test(jit, products_of_uniform_factors) {
    static uint32_t want[4 * 64];
    uint32_t c = 2654435769u, r4 = c * NT, r11 = 123456789u * c;
    for (uint32_t t = 0; t < NT; t++) {
        uint32_t r5 = r11 * r4 + t;
        want[t] = r11, want[64 + t] = r5, want[128 + t] = t, want[192 + t] = r5 * c;
    }
    runs_check(UNIPROD, NULL, 0, want, 4 * 64);
}

/* Operands the same in every lane, each read once, taken from the frame as
 * a broadcast (jit.c UB): constants and %ntid as the second operand of
 * setp, sub and add.f32; a constant and the parameter `out` as the first
 * operand of min and add.s64, which trade places; fma's factor as its first
 * or second operand, and its addend (mul and add.f32 may become one fma);
 * and values the same in every lane but computed in the run (%ctaid + 1000,
 * that less 968, %ctaid + 77), whose frame slots are stale while they are
 * cached, as second operands of add and setp: read from their registers. */
static const char *BCAST = ".version 8.0\n.target sm_90\n.address_size 64\n"
                           ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                           ".reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .f32 %f<12>;\n.reg .b64 %rd<8>;\n"
                           "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, %ntid.x;\n"
                           "mov.u32 %r6, %ctaid.x;\nadd.u32 %r10, %r6, 1000;\nsub.u32 %r11, %r10, 968;\n"
                           "setp.lt.u32 %p1, %r1, 40;\nselp.u32 %r3, 7, 9, %p1;\nadd.s32 %r4, %r1, %r10;\n"
                           "sub.s32 %r5, %r1, %r2;\nmin.s32 %r7, 20, %r1;\nsetp.gt.u32 %p2, %r1, %r11;\n"
                           "selp.u32 %r8, 1, 0, %p2;\nmov.f32 %f1, 0f3FC00000;\nmov.f32 %f7, 0f3F400000;\n"
                           "mov.f32 %f8, 0f3F000000;\nmov.f32 %f9, 0f40000000;\nmov.f32 %f10, 0f40800000;\n"
                           "cvt.rn.f32.s32 %f2, %r1;\nmul.rn.f32 %f3, %f1, %f2;\nadd.rn.f32 %f4, %f3, %f7;\n"
                           "mov.b32 %r9, %f4;\nfma.rn.f32 %f5, %f2, %f8, %f2;\nmov.b32 %r12, %f5;\n"
                           "fma.rn.f32 %f6, %f9, %f2, %f10;\nmov.b32 %r13, %f6;\n"
                           "add.u32 %r14, %r6, 77;\nadd.s32 %r15, %r1, %r14;\n"
                           "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd1, %rd3;\n"
                           "st.global.u32 [%rd4], %r3;\nst.global.u32 [%rd4+256], %r4;\n"
                           "st.global.u32 [%rd4+512], %r5;\nst.global.u32 [%rd4+768], %r7;\n"
                           "st.global.u32 [%rd4+1024], %r8;\nst.global.u32 [%rd4+1280], %r9;\n"
                           "st.global.u32 [%rd4+1536], %r12;\nst.global.u32 [%rd4+1792], %r13;\n"
                           "st.global.u32 [%rd4+2048], %r15;\nret;\n}\n";

Test(jit, operands_the_same_in_every_lane) {
    static uint32_t want[9 * 64];
    for (uint32_t t = 0; t < NT; t++) {
        float f[3] = {1.5f * (float)t + 0.75f, 1.5f * (float)t, 2.0f * (float)t + 4.0f}; /* exact */
        want[t] = t < 40 ? 7 : 9, want[64 + t] = 1000 + t, want[128 + t] = t - NT;
        want[192 + t] = t < 20 ? t : 20, want[256 + t] = t > NT / 2;
        for (int k = 0; k < 3; k++) memcpy(&want[320 + 64 * k + t], &f[k], 4);
        want[512 + t] = 77 + t;
    }
    runs_check(BCAST, NULL, 0, want, 9 * 64);
}

/* The same in a group that is not the whole warp: the even lanes leave, and
 * the odd ones compute %ctaid + 5 and %ctaid + 9, in their lanes only (the
 * even lanes' slots keep what they held). Their product (jit.c
 * mul_uniform: here in the if-converted body of the branch), and after
 * bar.sync both values (it ends the run: the next one's masked version
 * reads them from the frame, UB), must be the odd lanes' own, not lane 0's:
 * compiled code takes them as one value in every lane only when the whole
 * warp runs it. UNIGROUP(x) puts x between the product and the rest. */
#define UNIGROUP(x)                                                                                \
    ".version 8.0\n.target sm_90\n.address_size 64\n"                                              \
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"                                      \
    ".reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"                                    \
    "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd3, %r1, 4;\n"                \
    "add.s64 %rd4, %rd1, %rd3;\nand.b32 %r2, %r1, 1;\nsetp.eq.u32 %p1, %r2, 0;\n"                  \
    "@%p1 bra DONE;\nmov.u32 %r6, %ctaid.x;\nadd.u32 %r8, %r6, 5;\nadd.u32 %r9, %r6, 9;\n"         \
    "mul.lo.u32 %r7, %r8, %r8;\n" x "add.s32 %r10, %r1, %r8;\nsetp.lt.u32 %p2, %r1, %r9;\n"        \
    "selp.u32 %r11, 100, 200, %p2;\nst.global.u32 [%rd4], %r7;\nst.global.u32 [%rd4+256], %r10;\n" \
    "st.global.u32 [%rd4+512], %r11;\nDONE:\nret;\n}\n"

Test(jit, operands_the_same_in_a_group_of_lanes) {
    static uint32_t want[3 * 64];
    for (uint32_t t = 1; t < NT; t += 2) want[t] = 25, want[64 + t] = t + 5, want[128 + t] = t < 9 ? 100 : 200;
    runs_check(UNIGROUP(""), NULL, 0, want, 3 * 64);
    runs_check(UNIGROUP("bar.sync 0;\n"), NULL, 0, want, 3 * 64);
}

/* The second access through a register whose lanes the first found one run
 * leaves the arena: its report is the call's, at its own line and lane 0. */
static const char *RUNFAULT = ".version 8.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                              ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
                              "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n"
                              "mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
                              "ld.global.u32 %r2, [%rd3];\nadd.s32 %r3, %r2, 1;\n"
                              "ld.global.u32 %r4, [%rd3+1048576];\n"
                              "add.s32 %r5, %r4, %r3;\nst.global.u32 [%rd3], %r5;\nret;\n}\n";

Test(jit, fault_of_an_access_through_a_tested_register) {
    char on[2048], off[2048];
    cr_assert_eq(fault_src_with(RUNFAULT, "1", on, sizeof on), PTXI_ILLEGAL_ADDRESS, "%s", on);
    cr_assert_eq(fault_src_with(RUNFAULT, "0", off, sizeof off), PTXI_ILLEGAL_ADDRESS, "%s", off);
    cr_assert(strstr(on, "out-of-bounds global read of 4 bytes"), "%s", on);
    cr_assert(strstr(on, "at w.ptx:14:1 in k"), "the second load's line: %s", on);
    cr_assert(strstr(on, "block (0,0,0), thread (0,0,0)"), "%s", on);
    cr_assert_str_eq(on, off, "with and without the JIT");
}
/* ---- the next warp's lines fetched ahead (jit.c prefetch_warp) ----
 * 32 warps in one CTA, each loading one run of 32 words and storing one:
 * odd warps near the start of `in` and `out`, even ones 4 MiB (loads) and
 * 31 runs (stores) further on, so that each warp's guess of the next warp's
 * lines (as far on from its own as its own from the one before) falls
 * before the buffers, outside the arena, where a load or a store would
 * fault; in between, a random gather into the first words of `in`. The
 * expected words and counts come from C and the kernel's text. */
#define PF_NT 1024
#define PF_FAR (1u << 20) /* words */
#define PF_NTAB 4096u     /* the gather's table: the first words of in */
static const char *PF_HEAD = ".version 8.0\n.target sm_90\n.address_size 64\n"
                             ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                             ".reg .pred %p<2>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<12>;\n";
static const char *PF_BODY = "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
                             "mov.u32 %r1, %tid.x;\nshr.u32 %r2, %r1, 5;\nand.b32 %r3, %r1, 31;\n"
                             "and.b32 %r4, %r2, 1;\nshr.u32 %r5, %r2, 1;\nsetp.eq.u32 %p1, %r4, 0;\n"
                             "selp.u32 %r6, 1048576, 0, %p1;\nshl.b32 %r7, %r5, 5;\nadd.s32 %r7, %r7, %r6;\n"
                             "add.s32 %r7, %r7, %r3;\nmul.wide.u32 %rd3, %r7, 4;\nadd.s64 %rd4, %rd2, %rd3;\n"
                             "ld.global.u32 %r8, [%rd4];\n"
                             "and.b32 %r9, %r8, 4095;\nmul.wide.u32 %rd5, %r9, 4;\nadd.s64 %rd6, %rd2, %rd5;\n"
                             "ld.global.u32 %r10, [%rd6];\nmad.lo.s32 %r11, %r10, 3, %r8;\n"
                             "sub.s32 %r12, 31, %r5;\nselp.u32 %r13, %r12, %r5, %p1;\nshl.b32 %r13, %r13, 5;\n"
                             "add.s32 %r13, %r13, %r3;\nmul.wide.u32 %rd7, %r13, 4;\nadd.s64 %rd8, %rd1, %rd7;\n"
                             "st.global.u32 [%rd8], %r11;\nret;\n}\n";

/* One launch of src's kernel, (out, in) its parameters, in a context whose
 * arena holds 8 MiB: guesses a few MiB from the buffers fall outside it. */
static void small_arena_run(const char *jit, const char *src, unsigned threads, const void *in, size_t nin,
                            uint32_t *out, size_t nout, ptxi_launch_stats *st) {
    ptxi_ctx *ctx;
    cr_assert_eq(ptxi_ctx_create(&ctx, &(ptxi_ctx_options){.threads = 1, .global_reserve = 8u << 20}), PTXI_SUCCESS);
    setenv("PTXI_JIT", jit, 1); /* read when the module is loaded */
    ptxi_module *m;
    cr_assert_eq(ptxi_module_load_data(ctx, src, strlen(src), "pf.ptx", &m), PTXI_SUCCESS);
    unsetenv("PTXI_JIT");
    ptxi_dptr d, di;
    cr_assert_eq(ptxi_mem_alloc(ctx, nout, &d), PTXI_SUCCESS);
    cr_assert_eq(ptxi_mem_alloc(ctx, nin, &di), PTXI_SUCCESS);
    cr_assert_eq(ptxi_memcpy_htod(ctx, di, in, nin), PTXI_SUCCESS);
    void *args[] = {&d, &di};
    ptxi_status s = ptxi_launch(ptxi_module_kernel_at(m, 0), (ptxi_dim3){1, 1, 1}, (ptxi_dim3){threads, 1, 1}, 0, NULL,
                                args);
    if (s == PTXI_SUCCESS) s = ptxi_ctx_synchronize(ctx);
    cr_assert_eq(s, PTXI_SUCCESS, "PTXI_JIT=%s: %s", jit, ptxi_ctx_error_detail(ctx));
    ptxi_memcpy_dtoh(ctx, out, d, nout);
    cr_assert_eq(ptxi_ctx_last_launch_stats(ctx, st), PTXI_SUCCESS);
    ptxi_ctx_destroy(ctx);
}

static void prefetch_case(const char *jit) {
    static char src[4096];
    snprintf(src, sizeof src, "%s%s", PF_HEAD, PF_BODY);
    uint64_t n = 0;
    for (const char *c = PF_BODY; *c; c++) n += *c == ';';
    size_t nin = PF_FAR + PF_NT / 2;
    uint32_t *in = malloc(nin * 4), want[PF_NT], got[PF_NT];
    cr_assert(in);
    uint32_t x = 777;
    for (size_t k = 0; k < nin; k++) in[k] = (x = x * 1103515245u + 12345u) >> 7;
    for (uint32_t t = 0; t < PF_NT; t++) {
        uint32_t w = t / 32, lane = t % 32, odd = w & 1;
        uint32_t v = in[(odd ? 0 : PF_FAR) + 32 * (w >> 1) + lane];
        want[32 * (odd ? w >> 1 : 31 - (w >> 1)) + lane] = in[v & (PF_NTAB - 1)] * 3u + v;
    }
    /* an arena of 8 MiB: the guesses fall 4 MiB before it, past its shadow */
    ptxi_launch_stats st;
    small_arena_run(jit, src, PF_NT, in, nin * 4, got, sizeof got, &st);
    free(in);
    for (int k = 0; k < PF_NT; k++)
        cr_assert_eq(got[k], want[k], "PTXI_JIT=%s: word %d 0x%08x, expected 0x%08x", jit, k, got[k], want[k]);
    cr_assert_eq(st.thread_insns, n * PF_NT, "PTXI_JIT=%s: %llu thread instructions, expected %llu", jit,
                 (unsigned long long)st.thread_insns, (unsigned long long)(n * PF_NT));
    cr_assert_eq(st.warp_insns, n * PF_NT / 32, "PTXI_JIT=%s: %llu warp instructions", jit,
                 (unsigned long long)st.warp_insns);
}

Test(jit, next_warp_prefetch_outside_the_arena_jit_on) { prefetch_case("1"); }
Test(jit, next_warp_prefetch_outside_the_arena_jit_off) { prefetch_case("0"); }

/* A loop's loads guess where the next warp reads (jit.c loop_warp): from the
 * step between two warps' first rounds. Here the even warps read 6 MiB into
 * `in` and the odd ones at its start, in an arena of 8 MiB, so each guess
 * falls 6 MiB before the arena or 4 MiB past its end: a prefetch never
 * faults, and the sums are those without the JIT. */
enum { LW_NT = 256, LW_FAR = 3 << 19, LW_ROUNDS = 5 };
static const char *LOOP_WARPS =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"
    "shr.u32 %r2, %r1, 5;\nand.b32 %r3, %r1, 31;\nand.b32 %r4, %r2, 1;\nshr.u32 %r5, %r2, 1;\n"
    "setp.ne.u32 %p1, %r4, 0;\nselp.b32 %r6, 0, 1572864, %p1;\n"
    "mad.lo.s32 %r7, %r5, 32, %r3;\nadd.s32 %r7, %r7, %r6;\n"
    "mov.u32 %r8, 0;\nmov.u32 %r9, 0;\n"
    "LOOP:\n"
    "mul.wide.u32 %rd3, %r7, 4;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.u32 %r10, [%rd4];\n"
    "add.s32 %r8, %r8, %r10;\nadd.s32 %r7, %r7, 1024;\nadd.s32 %r9, %r9, 1;\n"
    "setp.lt.u32 %p0, %r9, 5;\n@%p0 bra LOOP;\n"
    "mul.wide.u32 %rd5, %r1, 4;\nadd.s64 %rd6, %rd1, %rd5;\nst.global.u32 [%rd6], %r8;\nret;\n}\n";

Test(jit, loop_prefetch_for_the_next_warp_outside_the_arena) {
    size_t nin = LW_FAR + 4 * 32 * 1024;
    uint32_t *in = malloc(nin * 4), want[LW_NT], got[2][LW_NT];
    cr_assert(in);
    xorshift_words(in, nin, 99);
    for (uint32_t t = 0; t < LW_NT; t++) {
        uint32_t w = t / 32, s = 0, i = (w & 1 ? 0 : LW_FAR) + 32 * (w >> 1) + t % 32;
        for (int r = 0; r < LW_ROUNDS; r++, i += 1024) s += in[i];
        want[t] = s;
    }
    ptxi_launch_stats st[2];
    const char *modes[2] = {"1", "0"};
    for (int k = 0; k < 2; k++) small_arena_run(modes[k], LOOP_WARPS, LW_NT, in, nin * 4, got[k], sizeof got[k], &st[k]);
    free(in);
    uint32_t *g[2] = {got[0], got[1]};
    same_on_and_off(g, want, LW_NT, st, "a loop's loads, warps 6 MiB apart");
    if (jit_host()) cr_assert_gt(st[0].jit_warp_insns, st[0].warp_insns / 2, "the loop ran compiled");
}

/* Runs chained (jit.c chain): warp 1 takes a warp-uniform forward branch
 * over a run of its own (a shfl: not if-converted) into the next run; warp 0 runs the skipped run and
 * falls from its end into the same one. The counts must be those without
 * the JIT (the records skipped taken off); with BAD, warp 1's load in the
 * chained run reads out of bounds and the report must name that load. */
#define CHAIN_SRC(BAD)                                                                                                 \
    ".version 8.0\n.target sm_90\n.address_size 64\n"                                                                  \
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"                                                          \
    ".reg .pred %p<2>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"                                                        \
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"                                     \
    "shr.u32 %r2, %r1, 5;\nmul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\nmul.lo.s32 %r3, %r2, " BAD ";\n"   \
    "mul.wide.u32 %rd5, %r3, 4;\nadd.s64 %rd4, %rd4, %rd5;\nmov.u32 %r4, 7;\n"                                        \
    "setp.ne.u32 %p1, %r2, 0;\n@%p1 bra L;\nadd.s32 %r4, %r4, %r1;\nmul.lo.s32 %r4, %r4, 3;\nxor.b32 %r4, %r4, 5;\n" \
    "shfl.sync.idx.b32 %r4, %r4, 0, 31, -1;\nL:\nld.global.u32 %r5, [%rd4];\nadd.s32 %r6, %r5, %r4;\nadd.s64 %rd6, %rd1, %rd3;\n"                             \
    "st.global.u32 [%rd6], %r6;\nret;\n}\n"

static void chain_case(const char *src, uint32_t *out, char *rep, size_t cap, ptxi_launch_stats *st, ptxi_status *s) {
    static uint32_t in[NT];
    for (uint32_t t = 0; t < NT; t++) in[t] = 1000u + 17u * t;
    const char *modes[2] = {"1", "0"};
    for (int k = 0; k < 2; k++)
        s[k] = run_io_jit(modes[k], src, NT, in, sizeof in, out + k * NT, NT * 4, rep + k * cap, cap, &st[k]);
    cr_assert_eq(st[0].thread_insns, st[1].thread_insns, "the counts do not depend on the JIT: %llu, %llu",
                 (unsigned long long)st[0].thread_insns, (unsigned long long)st[1].thread_insns);
    cr_assert_eq(st[0].warp_insns, st[1].warp_insns, "%llu, %llu", (unsigned long long)st[0].warp_insns,
                 (unsigned long long)st[1].warp_insns);
    cr_assert_eq(st[1].jit_warp_insns, 0);
    if (jit_host()) cr_assert_gt(st[0].jit_warp_insns, 0);
    else cr_assert_eq(st[0].jit_warp_insns, 0);
}

Test(jit, chained_runs_count_the_skipped_records) {
    static uint32_t out[2 * NT];
    char rep[2][1024];
    ptxi_launch_stats st[2];
    ptxi_status s[2];
    chain_case(CHAIN_SRC("0"), out, rep[0], sizeof rep[0], st, s);
    for (int k = 0; k < 2; k++) {
        cr_assert_eq(s[k], PTXI_SUCCESS, "%s", rep[k]);
        for (uint32_t t = 0; t < NT; t++) {
            uint32_t r4 = t < 32 ? (7u * 3u) ^ 5u : 7u; /* lane 0's, for warp 0 */
            cr_assert_eq(out[k * NT + t], 1000u + 17u * t + r4, "mode %d thread %u: %u", k, t, out[k * NT + t]);
        }
    }
}

/* src's load faults for warp 1 (chain_case): the report names that load and
 * warp 1's first lane, alike with and without the JIT. */
static void chain_fault(const char *src) {
    static uint32_t out[2 * NT];
    char rep[2][1024];
    ptxi_launch_stats st[2];
    ptxi_status s[2];
    chain_case(src, out, rep[0], sizeof rep[0], st, s);
    int line = 1; /* the load's line, counted in the source */
    for (const char *p = src; p < strstr(src, "ld.global"); p++) line += *p == '\n';
    char at[64];
    snprintf(at, sizeof at, "at w.ptx:%d:1 in k", line);
    for (int k = 0; k < 2; k++) {
        cr_assert_eq(s[k], PTXI_ILLEGAL_ADDRESS, "%s", rep[k]);
        cr_assert(strstr(rep[k], "out-of-bounds global read of 4 bytes"), "%s", rep[k]);
        cr_assert(strstr(rep[k], at), "the load's line (%s): %s", at, rep[k]);
        cr_assert(strstr(rep[k], "thread (32,0,0)"), "warp 1's first lane: %s", rep[k]);
    }
    cr_assert_str_eq(rep[0], rep[1], "with and without the JIT");
}

Test(jit, fault_inside_a_chained_run) { chain_fault(CHAIN_SRC("1048576")); }

/* A straight run chained into a loop's run (jit.c chain, loop_back): each
 * warp falls from the run before L into the loop, which goes round 10000 +
 * 37 * warp times, past a time slice's backward branches (sched.c SLICE),
 * reading in[(tid + i) & 63]. The counts must be those without the JIT;
 * with BAD, warp 1's load from round K on reads out of bounds (K below a
 * slice: in the loop chained into) and the report must name that load. */
#define LOOPCHAIN_SRC(BAD, K)                                                                                          \
    ".version 8.0\n.target sm_90\n.address_size 64\n"                                                                  \
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"                                                          \
    ".reg .pred %p<3>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"                                                        \
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"                                     \
    "shr.u32 %r2, %r1, 5;\nmul.lo.s32 %r3, %r2, 37;\nadd.s32 %r8, %r3, 10000;\nmul.lo.s32 %r12, %r2, " BAD ";\n"     \
    "mov.u32 %r6, 1;\nmov.u32 %r7, 0;\n"                                                                               \
    "L:\nadd.s32 %r9, %r1, %r7;\nand.b32 %r9, %r9, 63;\nsetp.ge.u32 %p2, %r7, " K ";\n"                              \
    "selp.b32 %r11, %r12, 0, %p2;\nadd.s32 %r9, %r9, %r11;\nmul.wide.u32 %rd3, %r9, 4;\nadd.s64 %rd4, %rd2, %rd3;\n" \
    "ld.global.u32 %r5, [%rd4];\nmad.lo.s32 %r6, %r6, 3, %r5;\nxor.b32 %r6, %r6, %r7;\nadd.s32 %r7, %r7, 1;\n"     \
    "setp.lt.u32 %p1, %r7, %r8;\n@%p1 bra L;\n"                                                                       \
    "mul.wide.u32 %rd5, %r1, 4;\nadd.s64 %rd6, %rd1, %rd5;\nst.global.u32 [%rd6], %r6;\nret;\n}\n"

Test(jit, chained_loop_counts_its_rounds) {
    static uint32_t out[2 * NT];
    char rep[2][1024];
    ptxi_launch_stats st[2];
    ptxi_status s[2];
    chain_case(LOOPCHAIN_SRC("0", "3000"), out, rep[0], sizeof rep[0], st, s);
    for (int k = 0; k < 2; k++) {
        cr_assert_eq(s[k], PTXI_SUCCESS, "%s", rep[k]);
        for (uint32_t t = 0; t < NT; t++) {
            uint32_t acc = 1, n = 10000u + 37u * (t / 32);
            for (uint32_t i = 0; i < n; i++) acc = (acc * 3u + 1000u + 17u * ((t + i) & 63u)) ^ i;
            cr_assert_eq(out[k * NT + t], acc, "mode %d thread %u: %u, expected %u", k, t, out[k * NT + t], acc);
        }
    }
    if (jit_host()) /* the loop ran compiled */
        cr_assert_gt(st[0].jit_warp_insns, st[0].warp_insns * 9 / 10, "%llu of %llu",
                     (unsigned long long)st[0].jit_warp_insns, (unsigned long long)st[0].warp_insns);
}

Test(jit, fault_inside_a_chained_loop) { chain_fault(LOOPCHAIN_SRC("1048576", "3000")); }

/* f32 results read only by the next add/sub/mul/fma that reads them, and
 * dead after it, are not made canonical where they are computed (jit.c
 * canon_later): that record's own NaN is. Operands are NaNs with payloads of
 * both signs, a signalling NaN, infinities whose sum is the host's default
 * NaN, and numbers. Every stored word must be as the GPU gives it (a NaN is
 * 0x7fffffff): the end of a chain, one through a load, an fma inside a chain,
 * a value moved to a b32 register (not canonical again), and one also
 * stored after its reader (still live). */
static const char *CHAIN =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    ".reg .b32 %r<12>;\n.reg .f32 %f<20>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"
    "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\n"
    "ld.global.f32 %f1, [%rd4];\nld.global.f32 %f2, [%rd4+256];\nld.global.f32 %f3, [%rd4+512];\n"
    "add.f32 %f4, %f1, %f2;\nmul.f32 %f5, %f4, %f3;\nld.global.f32 %f6, [%rd4+768];\n"
    "fma.rn.f32 %f7, %f5, %f6, %f1;\n"
    "sub.f32 %f8, %f1, %f2;\nmov.b32 %r9, %f8;\n"
    "add.f32 %f10, %f2, %f3;\nadd.f32 %f11, %f10, %f1;\n"
    "fma.rn.f32 %f12, %f1, %f3, %f2;\nadd.f32 %f13, %f12, %f3;\n"
    "mul.wide.u32 %rd5, %r1, 24;\nadd.s64 %rd6, %rd1, %rd5;\n"
    "st.global.f32 [%rd6], %f7;\nst.global.u32 [%rd6+4], %r9;\nst.global.f32 [%rd6+8], %f10;\n"
    "st.global.f32 [%rd6+12], %f11;\nst.global.f32 [%rd6+16], %f13;\n"
    "ret;\n}\n";

Test(jit, nan_payloads_through_a_chain) {
    static const uint32_t odd[] = {0x7fa00001u, 0xffc12345u, 0x7f800001u, 0x7f800000u, 0xff800000u, 0x80000000u};
    static uint32_t in[4 * NT], want[6 * NT];
    for (uint32_t t = 0; t < NT; t++)
        for (int k = 0; k < 4; k++)
            in[k * NT + t] = (t + 3 * k) % 4 == 0 ? odd[(t / 4 + k) % 6] : fbits((float)t * 0.25f - (float)k * 2.5f);
    for (uint32_t t = 0; t < NT; t++) {
        float a = bitsf(in[t]), b = bitsf(in[NT + t]), c = bitsf(in[2 * NT + t]), d = bitsf(in[3 * NT + t]);
        uint32_t f4 = canon(a + b), f5 = canon(bitsf(f4) * c), f10 = canon(b + c), f12 = canon(fmaf(a, c, b));
        uint32_t *o = &want[6 * t];
        o[0] = canon(fmaf(bitsf(f5), d, a));
        o[1] = canon(a - b);
        o[2] = f10;
        o[3] = canon(bitsf(f10) + a);
        o[4] = canon(bitsf(f12) + c);
        o[5] = 0; /* not stored */
    }
    runs_check(CHAIN, in, 4 * NT, want, 6 * NT);
}
