/* test_ifconv.c — forward branches that split a warp, run inside compiled
 * code for the lanes that stay (interp/jit.c, ifconv): stores to global and
 * shared memory in the bodies, a nested body, a body every lane of a warp
 * skips, a body no lane skips; the results, the instruction counts and a
 * fault inside a nested body are the same with the JIT on and off. The
 * expected words come from C below, not from ptxi. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../run_kernel.h"

#define NT 64 /* two warps, one CTA */

static const char *SRC =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    ".shared .align 4 .b32 sh[64];\n.reg .pred %p<8>;\n.reg .b32 %r<24>;\n.reg .b64 %rd<12>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"
    "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.u32 %r2, [%rd4];\n"
    "add.s64 %rd5, %rd1, %rd3;\nmov.u32 %r3, 7;\nmov.b64 %rd6, 5;\n"
    "and.b32 %r4, %r2, 3;\nsetp.ne.u32 %p1, %r4, 0;\n"
    "setp.gt.u32 %p3, %r1, 1000;\n@%p1 bra L1;\n"              /* lanes with in & 3 jump */
    "mul.lo.s32 %r3, %r2, 3;\nadd.s32 %r3, %r3, %r1;\n" /* the body: the rest */
    "cvt.u64.u32 %rd6, %r3;\nand.b32 %r5, %r2, 12;\nsetp.eq.u32 %p2, %r5, 0;\n"
    "@%p2 bra L2;\n" /* nested: lanes with in & 12 == 0 jump */
    "xor.b32 %r3, %r3, 0x5555;\nst.global.u32 [%rd5+256], %r3;\nshl.b64 %rd6, %rd6, 3;\n"
    "L2:\n"
    "add.s32 %r3, %r3, 1;\nshl.b32 %r6, %r1, 2;\nmov.u32 %r7, sh;\nadd.s32 %r8, %r7, %r6;\n"
    "st.shared.u32 [%r8], %r3;\nsetp.gt.u32 %p3, %r3, 1000;\n"
    "L1:\n"
    /* a body that warp 1 skips whole and warp 0 runs whole */
    "setp.ge.u32 %p4, %r1, 32;\n@%p4 bra L3;\nadd.s32 %r3, %r3, 100;\nadd.s64 %rd6, %rd6, 9;\nL3:\n"
    /* a guarded record in a body: %p3 was set only by the lanes of the first body */
    "setp.lt.u32 %p5, %r1, 40;\n@%p5 bra L4;\n@%p3 add.s32 %r3, %r3, 2;\nL4:\n"
    "st.global.u32 [%rd5], %r3;\ncvt.u32.u64 %r9, %rd6;\nst.global.u32 [%rd5+768], %r9;\n"
    "bar.sync 0;\nadd.s32 %r10, %r1, 1;\nand.b32 %r11, %r10, 63;\nshl.b32 %r12, %r11, 2;\n"
    "mov.u32 %r13, sh;\nadd.s32 %r14, %r13, %r12;\nld.shared.u32 %r15, [%r14];\n"
    "st.global.u32 [%rd5+512], %r15;\nret;\n}\n";

static void inputs(uint32_t in[NT]) {
    uint32_t s = 2024;
    for (int t = 0; t < NT; t++) {
        s = s * 1664525u + 1013904223u;
        in[t] = s >> 7;
    }
    /* in each warp: lanes that run both bodies, only the outer one, neither */
    in[0] = 0x40, in[1] = 0x41, in[2] = 0x80, in[3] = 0x10, in[33] = 0x44, in[34] = 0x300;
}

/* out: [0,64) the final %r3, [64,128) the nested body's store (0 elsewhere),
 * [128,192) the shared word of the next thread after the barrier, [192,256) %rd6's low word */
static void expected(const uint32_t in[NT], uint32_t want[4 * NT]) {
    uint32_t sh[NT] = {0}, p3[NT] = {0};
    memset(want, 0, 4 * NT * 4);
    for (uint32_t t = 0; t < NT; t++) {
        uint32_t r3 = 7;
        uint64_t rd6 = 5;
        if ((in[t] & 3) == 0) {
            r3 = in[t] * 3 + t;
            rd6 = r3;
            if ((in[t] & 12) != 0) {
                r3 ^= 0x5555;
                want[NT + t] = r3;
                rd6 <<= 3;
            }
            r3 += 1;
            sh[t] = r3;
            p3[t] = r3 > 1000;
        }
        if (t < 32) r3 += 100, rd6 += 9;
        if (t >= 40 && p3[t]) r3 += 2;
        want[t] = r3;
        want[3 * NT + t] = (uint32_t)rd6;
    }
    for (uint32_t t = 0; t < NT; t++) want[2 * NT + t] = sh[(t + 1) % NT];
}

/* One launch of src on `threads` threads with the JIT on or off (read when
 * the module is loaded); its stats. */
static ptxi_status launch(const char *src, unsigned threads, const char *jit, const uint32_t *in, uint32_t *out,
                          size_t nout, ptxi_launch_stats *st, char *rep, size_t cap) {
    ptxi_status s = run_io_jit(jit, src, threads, in, NT * 4, out, nout, rep, cap, st);
    return s;
}

/* src on `threads` threads with the JIT on (st[0]) and off (st[1]): the
 * nwords output words are want's both times, and so are the counts. */
static void on_and_off(const char *src, unsigned threads, const uint32_t *in, const uint32_t *want, uint32_t *got,
                       size_t nwords, ptxi_launch_stats st[2]) {
    const char *modes[2] = {"1", "0"};
    for (int k = 0; k < 2; k++) {
        char rep[1024];
        ptxi_status s = launch(src, threads, modes[k], in, got, nwords * 4, &st[k], rep, sizeof rep);
        cr_assert_eq(s, PTXI_SUCCESS, "PTXI_JIT=%s: %s", modes[k], rep);
        for (size_t w = 0; w < nwords; w++)
            cr_assert_eq(got[w], want[w], "PTXI_JIT=%s: word %zu: 0x%08x, expected 0x%08x", modes[k], w, got[w], want[w]);
    }
    cr_assert_eq(st[0].warp_insns, st[1].warp_insns, "warp instructions: %llu with the JIT, %llu without",
                 (unsigned long long)st[0].warp_insns, (unsigned long long)st[1].warp_insns);
    cr_assert_eq(st[0].thread_insns, st[1].thread_insns, "thread instructions: %llu with the JIT, %llu without",
                 (unsigned long long)st[0].thread_insns, (unsigned long long)st[1].thread_insns);
    cr_assert_eq(st[1].jit_warp_insns, 0);
}

Test(ifconv, bodies_with_stores_nested_skipped_jit_on_and_off) {
    static uint32_t in[NT], want[4 * NT], got[4 * NT];
    inputs(in);
    expected(in, want);
    ptxi_launch_stats st[2];
    on_and_off(SRC, NT, in, want, got, 4 * NT, st);
    /* everything before the barrier but its first records, the bodies included, runs compiled
     * (where there is a JIT: not in the switch build, nor without AVX-512) */
    cr_assert(!st[0].jit_warp_insns || st[0].jit_warp_insns >= 2u * 40u, "compiled %llu of %llu warp instructions",
                  (unsigned long long)st[0].jit_warp_insns, (unsigned long long)st[0].warp_insns);
}

/* A load out of bounds in a nested body: the lanes of the outer body that
 * do not jump again are 4, 5, 7, 8, ...; the report names the load's line and
 * the first of them, with the JIT and without. */
static const char *FAULT =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    ".reg .pred %p<4>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "rem.u32 %r2, %r1, 3;\nsetp.eq.u32 %p1, %r2, 0;\nmov.u32 %r3, 1;\n"
    "@%p1 bra A;\n"
    "add.s32 %r3, %r3, %r1;\nsetp.lt.u32 %p2, %r1, 4;\n@%p2 bra B;\n"
    "add.s64 %rd4, %rd3, 1048576;\nld.global.u32 %r4, [%rd4];\n" /* line 21 */
    "add.s32 %r3, %r3, %r4;\nB:\nadd.s32 %r3, %r3, 3;\nA:\n"
    "st.global.u32 [%rd3], %r3;\nret;\n}\n";

Test(ifconv, fault_in_a_nested_body) {
    static uint32_t in[NT], out[NT];
    const char *modes[2] = {"1", "0"};
    for (int k = 0; k < 2; k++) {
        char rep[2048];
        ptxi_launch_stats st;
        ptxi_status s = launch(FAULT, NT, modes[k], in, out, sizeof out, &st, rep, sizeof rep);
        cr_assert_eq(s, PTXI_ILLEGAL_ADDRESS, "PTXI_JIT=%s: %s", modes[k], rep);
        cr_assert(strstr(rep, "out-of-bounds global read of 4 bytes"), "PTXI_JIT=%s: %s", modes[k], rep);
        cr_assert(strstr(rep, "at w.ptx:21:1 in k"), "PTXI_JIT=%s: the load's line: %s", modes[k], rep);
        cr_assert(strstr(rep, "block (0,0,0), thread (4,0,0)"), "PTXI_JIT=%s: %s", modes[k], rep);
    }
}

/* A group that is not the whole warp enters the compiled runs in their
 * masked version: 48 threads (the second warp has 16 lanes), lanes that skip
 * everything, and a loop each lane leaves after its own count, with a
 * divergent body inside it. */
#define NT2 48
static const char *LOOP =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    ".reg .pred %p<8>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"
    "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.u32 %r2, [%rd4];\n"
    "add.s64 %rd5, %rd1, %rd3;\nand.b32 %r8, %r2, 64;\nsetp.ne.u32 %p3, %r8, 0;\n@%p3 bra DONE;\n"
    "and.b32 %r3, %r2, 7;\nmov.u32 %r4, 0;\nmov.u32 %r5, %r1;\nmov.u32 %r7, 0;\n"
    "LOOP:\nmad.lo.s32 %r5, %r5, 3, %r1;\nand.b32 %r6, %r5, 1;\nsetp.eq.u32 %p1, %r6, 0;\n"
    "@%p1 bra SKIP;\nadd.s32 %r7, %r7, 1;\nst.global.u32 [%rd5+256], %r5;\nSKIP:\n"
    "add.s32 %r4, %r4, 1;\nsetp.le.u32 %p2, %r4, %r3;\n@%p2 bra LOOP;\n"
    "st.global.u32 [%rd5], %r5;\nst.global.u32 [%rd5+512], %r7;\n"
    "DONE:\nret;\n}\n";

Test(ifconv, partial_groups_enter_the_masked_runs) {
    static uint32_t in[NT], want[3 * 64], got[3 * 64];
    inputs(in);
    in[5] |= 64, in[40] |= 64, in[41] &= ~64u;
    memset(want, 0, sizeof want);
    for (uint32_t t = 0; t < NT2; t++) {
        if (in[t] & 64) continue;
        uint32_t x = t, odd = 0;
        for (uint32_t n = 0; n <= (in[t] & 7); n++) {
            x = x * 3 + t;
            if (x & 1) odd++, want[64 + t] = x;
        }
        want[t] = x, want[128 + t] = odd;
    }
    ptxi_launch_stats st[2];
    on_and_off(LOOP, NT2, in, want, got, 3 * 64, st);
    /* the loop runs compiled for the partial groups: most of the warp instructions */
    cr_assert(!st[0].jit_warp_insns || 2 * st[0].jit_warp_insns > st[0].warp_insns, "compiled %llu of %llu warp instructions",
                 (unsigned long long)st[0].jit_warp_insns, (unsigned long long)st[0].warp_insns);
}

/* Stores run by one lane (jit_lane.h): bodies and a guard that leave one lane
 * of each warp (not lane 0, and above 15 in the second warp) storing to an
 * 8-word shared array and to the output (the 128-byte runs from those lanes'
 * words leave the shared window), with every lane's address and value valid
 * and different, so that another lane's would show; and a body of two lanes
 * (the general path). The results and counts are the same with the JIT on
 * and off and are what C computes. */
static const char *ONE_LANE =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    ".shared .align 4 .b32 sh[8];\n.reg .pred %p<8>;\n.reg .b32 %r<24>;\n.reg .b64 %rd<12>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"
    "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.u32 %r4, [%rd4];\n"
    "add.s64 %rd5, %rd1, %rd3;\nst.global.u32 [%rd5], %r4;\n"
    "and.b32 %r2, %r1, 31;\nshr.u32 %r3, %r1, 5;\nmov.u32 %r6, sh;\n"
    /* every lane's shared address sh[4 + lane % 4], its global one out[192 + tid], its value */
    "and.b32 %r5, %r2, 3;\nshl.b32 %r5, %r5, 2;\nadd.s32 %r7, %r6, %r5;\n"
    "add.s64 %rd7, %rd5, 768;\nxor.b32 %r11, %r4, 0xabc;\n"
    /* lane 3 of warp 0, lane 17 of warp 1 */
    "mad.lo.u32 %r8, %r3, 14, 3;\nsetp.ne.u32 %p1, %r2, %r8;\n@%p1 bra A;\n"
    "st.shared.u32 [%r7+16], %r4;\nA:\n"
    /* lane 31 of warp 0, lane 0 of warp 1 */
    "mul.lo.u32 %r9, %r3, 31;\nsub.u32 %r9, 31, %r9;\nsetp.ne.u32 %p2, %r2, %r9;\n@%p2 bra B;\n"
    "st.global.u32 [%rd7], %r11;\nB:\n"
    /* lanes 1 and 2: sh[lane - 1 + 2 * warp] */
    "setp.lt.u32 %p3, %r2, 1;\nsetp.gt.u32 %p4, %r2, 2;\nor.pred %p3, %p3, %p4;\n@%p3 bra C;\n"
    "shl.b32 %r12, %r3, 3;\nshl.b32 %r13, %r2, 2;\nadd.s32 %r12, %r12, %r13;\nadd.s32 %r12, %r12, %r6;\n"
    "add.s32 %r14, %r4, 1;\nst.shared.u32 [%r12+-4], %r14;\nC:\n"
    /* a guard of lane 9 (lane 25 in warp 1): out[180 + warp] */
    "mad.lo.u32 %r15, %r3, 16, 9;\nsetp.eq.u32 %p5, %r2, %r15;\nmul.lo.u32 %r16, %r1, 7;\n"
    "add.s64 %rd8, %rd1, 720;\nmul.wide.u32 %rd9, %r3, 4;\nadd.s64 %rd8, %rd8, %rd9;\n"
    "@%p5 st.global.u32 [%rd8], %r16;\n"
    "bar.sync 0;\nsetp.ge.u32 %p6, %r2, 8;\n@%p6 bra D;\n"
    "shl.b32 %r17, %r2, 2;\nadd.s32 %r18, %r6, %r17;\nld.shared.u32 %r19, [%r18];\n"
    "shl.b32 %r20, %r3, 3;\nadd.s32 %r20, %r20, %r2;\nadd.s32 %r20, %r20, 128;\n"
    "mul.wide.u32 %rd10, %r20, 4;\nadd.s64 %rd11, %rd1, %rd10;\nst.global.u32 [%rd11], %r19;\nD:\nret;\n}\n";

Test(ifconv, stores_of_one_lane) {
    static uint32_t in[NT], want[4 * NT], got[4 * NT];
    inputs(in);
    memset(want, 0, sizeof want);
    uint32_t sh[8] = {0};
    for (uint32_t t = 0; t < NT; t++) {
        uint32_t lane = t & 31, warp = t >> 5;
        want[t] = in[t];
        if (lane == 3 + 14 * warp) sh[4 + lane % 4] = in[t];
        if (lane == 31 - 31 * warp) want[192 + t] = in[t] ^ 0xabc;
        if (lane == 1 || lane == 2) sh[lane - 1 + 2 * warp] = in[t] + 1;
        if (lane == 9 + 16 * warp) want[180 + warp] = t * 7;
    }
    for (uint32_t t = 0; t < NT; t++)
        if ((t & 31) < 8) want[128 + 8 * (t >> 5) + (t & 31)] = sh[t & 31];
    ptxi_launch_stats st[2];
    on_and_off(ONE_LANE, NT, in, want, got, 4 * NT, st);
}

/* One lane's store that fails its test (past the shared array's end,
 * misaligned, outside global memory) leaves it to the general path: the same
 * report with the JIT on and off. */
Test(ifconv, stores_of_one_lane_that_fault) {
    static const char *stores[] = {"st.shared.u32 [%r7+32], %r4", "st.shared.u32 [%r7+26], %r4",
                                   "st.global.u32 [%rd5+1048576], %r4"};
    static const char *what[] = {"shared write", "misaligned", "global write"};
    static uint32_t in[NT], out[NT];
    for (int c = 0; c < 3; c++) {
        char src[2048], rep[2][2048];
        snprintf(src, sizeof src,
                 ".version 8.0\n.target sm_90\n.address_size 64\n"
                 ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                 ".shared .align 4 .b32 sh[8];\n.reg .pred %%p<4>;\n.reg .b32 %%r<12>;\n.reg .b64 %%rd<8>;\n"
                 "ld.param.u64 %%rd1, [out];\nmov.u32 %%r1, %%tid.x;\nmul.wide.u32 %%rd3, %%r1, 4;\n"
                 "add.s64 %%rd5, %%rd1, %%rd3;\nmov.u32 %%r4, 5;\nand.b32 %%r2, %%r1, 31;\nmov.u32 %%r6, sh;\n"
                 "setp.ne.u32 %%p1, %%r2, 20;\n@%%p1 bra A;\nadd.s32 %%r7, %%r6, 0;\n%s;\nA:\nret;\n}\n",
                 stores[c]);
        ptxi_status s[2];
        for (int k = 0; k < 2; k++) {
            ptxi_launch_stats st;
            s[k] = launch(src, NT, k ? "0" : "1", in, out, sizeof out, &st, rep[k], sizeof rep[k]);
        }
        cr_assert_neq(s[0], PTXI_SUCCESS, "%s: %s", what[c], rep[0]);
        cr_assert_eq(s[0], s[1], "%s: %d with the JIT, %d without", what[c], s[0], s[1]);
        cr_assert_str_eq(rep[0], rep[1], "%s", what[c]);
        cr_assert(strstr(rep[0], "thread (20,0,0)"), "%s: %s", what[c], rep[0]);
    }
}
