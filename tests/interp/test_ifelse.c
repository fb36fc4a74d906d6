/* test_ifelse.c — forward regions in compiled code (interp/jit.c, region_*):
 * if/else diamonds (`@p bra ELSE; ...; bra.uni JOIN`), the shape nvcc gives
 * a border test (`@p bra A; bra.uni B; A: ...; bra.uni J; B: ...`), nested
 * ones, each with warps that split, warps that all go one way and the
 * other, a partial warp (the masked runs), loads and stores in the arms;
 * the results, the instruction counts and a fault inside an arm are the
 * same with the JIT on and off. The expected words come from C below, not
 * from ptxi. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../run_kernel.h"

#define NT 128 /* four warps, one CTA */

/* out: [0,NT) the final %r3, [NT,2NT) the nested then-store, [2NT,3NT) the
 * else arm's inner store */
static const char *DIAMOND =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    ".reg .pred %p<8>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<12>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"
    "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.u32 %r2, [%rd4];\n"
    "add.s64 %rd5, %rd1, %rd3;\nmov.u32 %r3, 7;\n"
    "and.b32 %r4, %r2, 1;\nsetp.ne.u32 %p1, %r4, 0;\n"
    "@%p1 bra ELSE;\n"
    "mul.lo.s32 %r3, %r2, 3;\nand.b32 %r5, %r2, 6;\nsetp.eq.u32 %p2, %r5, 0;\n"
    "@%p2 bra T2;\n"
    "add.s32 %r3, %r3, 11;\nst.global.u32 [%rd5+512], %r3;\n"
    "T2:\n"
    "ld.global.u32 %r6, [%rd4+4];\nadd.s32 %r3, %r3, %r6;\n"
    "bra.uni JOIN;\n"
    "ELSE:\n"
    "shr.u32 %r3, %r2, 1;\nand.b32 %r5, %r2, 2;\nsetp.ne.u32 %p3, %r5, 0;\n"
    "@%p3 bra E2;\n"
    "xor.b32 %r3, %r3, 0x1234;\nbra.uni E3;\n"
    "E2:\n"
    "sub.s32 %r3, %r3, %r1;\nst.global.u32 [%rd5+1024], %r3;\n"
    "E3:\n"
    "add.s32 %r3, %r3, 5;\n"
    "JOIN:\n"
    "st.global.u32 [%rd5], %r3;\nret;\n}\n";

/* warp 0 mixed, warp 1 all even (the then arm), warp 2 mixed in its first
 * half and odd after, warp 3 all odd (the else arm); one word past the end
 * for the then arm's neighbour load */
static void inputs(uint32_t in[NT + 1]) {
    uint32_t s = 77;
    for (int t = 0; t <= NT; t++) {
        s = s * 1664525u + 1013904223u;
        in[t] = s >> 9;
        if (t >= 32 && t < 64) in[t] &= ~1u;
        if (t >= 80 && t < NT) in[t] |= 1;
    }
    /* each path at least once in warps 0 and 2 */
    in[0] = 0x10, in[1] = 0x12, in[2] = 0x21, in[3] = 0x23, in[64] = 0x30, in[65] = 0x34, in[66] = 0x41, in[67] = 0x43;
}

static void expected(const uint32_t in[NT + 1], unsigned threads, uint32_t want[3 * NT]) {
    memset(want, 0, 3 * NT * 4);
    for (uint32_t t = 0; t < threads; t++) {
        uint32_t x = in[t], r3;
        if (!(x & 1)) {
            r3 = x * 3;
            if (x & 6) r3 += 11, want[NT + t] = r3;
            r3 += in[t + 1];
        } else {
            r3 = x >> 1;
            if (!(x & 2)) r3 ^= 0x1234;
            else r3 -= t, want[2 * NT + t] = r3;
            r3 += 5;
        }
        want[t] = r3;
    }
}

/* The shape nvcc gives `if (border) {copy} else {stencil}`, the border
 * lanes (in & 3 == 0) copying their word, the others summing it with their
 * neighbours', up to the join J (BORDER_ARMS); BORDER returns there.
 * out: [0,NT) */
#define BORDER_ARMS                                                                                 \
    ".version 8.0\n.target sm_90\n.address_size 64\n"                                               \
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"                                       \
    ".reg .pred %p<8>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<12>;\n"                                     \
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"                  \
    "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.u32 %r2, [%rd4+4];\n"        \
    "add.s64 %rd5, %rd1, %rd3;\nand.b32 %r4, %r2, 3;\nsetp.eq.u32 %p1, %r4, 0;\n"                  \
    "@%p1 bra A;\n"                                                                                \
    "bra.uni B;\n"                                                                                 \
    "A:\n"                                                                                         \
    "ld.global.u32 %r5, [%rd4+4];\nst.global.u32 [%rd5], %r5;\nbra.uni J;\n"                       \
    "B:\n"                                                                                         \
    "ld.global.u32 %r6, [%rd4];\nld.global.u32 %r7, [%rd4+8];\nadd.s32 %r8, %r6, %r7;\n"           \
    "mul.lo.s32 %r9, %r2, 5;\nadd.s32 %r10, %r8, %r9;\nst.global.u32 [%rd5], %r10;\n"              \
    "J:\n"
static const char *BORDER = BORDER_ARMS "ret;\n}\n";

static void expected_border(const uint32_t in[NT + 2], unsigned threads, uint32_t want[3 * NT]) {
    memset(want, 0, 3 * NT * 4);
    for (uint32_t t = 0; t < threads; t++) {
        uint32_t x = in[t + 1];
        want[t] = (x & 3) == 0 ? x : in[t] + in[t + 2] + x * 5;
    }
}

/* One launch with the JIT on or off (read when the module is loaded). */
static ptxi_status launch(const char *src, unsigned threads, const char *jit, const uint32_t *in, uint32_t *out,
                          ptxi_launch_stats *st, char *rep, size_t cap) {
    ptxi_status s = run_io_jit(jit, src, threads, in, (NT + 2) * 4, out, 3 * NT * 4, rep, cap, st);
    return s;
}

/* The words are want's with the JIT on and off, and so are the counts;
 * with a JIT, more than `compiled` warp instructions ran compiled. */
static void on_and_off(const char *src, unsigned threads, const uint32_t *in, const uint32_t *want,
                       uint64_t compiled) {
    static uint32_t got[3 * NT];
    ptxi_launch_stats st[2];
    const char *modes[2] = {"1", "0"};
    for (int k = 0; k < 2; k++) {
        char rep[1024];
        ptxi_status s = launch(src, threads, modes[k], in, got, &st[k], rep, sizeof rep);
        cr_assert_eq(s, PTXI_SUCCESS, "PTXI_JIT=%s: %s", modes[k], rep);
        for (size_t w = 0; w < 3 * NT; w++)
            cr_assert_eq(got[w], want[w], "PTXI_JIT=%s, %u threads: word %zu: 0x%08x, expected 0x%08x", modes[k],
                         threads, w, got[w], want[w]);
    }
    cr_assert_eq(st[0].warp_insns, st[1].warp_insns, "%u threads: warp instructions: %llu with the JIT, %llu without",
                 threads, (unsigned long long)st[0].warp_insns, (unsigned long long)st[1].warp_insns);
    cr_assert_eq(st[0].thread_insns, st[1].thread_insns,
                 "%u threads: thread instructions: %llu with the JIT, %llu without", threads,
                 (unsigned long long)st[0].thread_insns, (unsigned long long)st[1].thread_insns);
    cr_assert_eq(st[1].jit_warp_insns, 0);
    /* where there is a JIT (not in the switch build, nor without AVX-512) */
    cr_assert(!st[0].jit_warp_insns || st[0].jit_warp_insns > compiled, "%u threads: compiled %llu of %llu", threads,
              (unsigned long long)st[0].jit_warp_insns, (unsigned long long)st[0].warp_insns);
}

Test(ifelse, diamond_nested_split_and_uniform_warps) {
    static uint32_t in[NT + 2], want[3 * NT];
    inputs(in);
    expected(in, NT, want);
    /* every warp runs at least the 14 records from the branch to the join compiled */
    on_and_off(DIAMOND, NT, in, want, 4 * 14);
}

Test(ifelse, diamond_in_a_partial_warp) {
    static uint32_t in[NT + 2], want[3 * NT];
    inputs(in);
    expected(in, 80, want);
    on_and_off(DIAMOND, 80, in, want, 3 * 14);
}

Test(ifelse, border_shape_split_and_uniform_warps) {
    static uint32_t in[NT + 2], want[3 * NT];
    inputs(in);
    in[NT + 1] = 5;
    for (int t = 32; t < 64; t++) in[t + 1] &= ~3u; /* warp 1: every lane a border lane */
    for (int t = 64; t < 96; t++) in[t + 1] |= 1;   /* warp 2: none */
    expected_border(in, NT, want);
    on_and_off(BORDER, NT, in, want, 4 * 8);
    expected_border(in, 70, want);
    on_and_off(BORDER, 70, in, want, 2 * 8);
}

/* BORDER with what the arms share used after the join, in a loop (a run of
 * its own): %r2 and %rd5, computed before the branch, stay in registers
 * where whole warps jump over the border's block, and must reach J and the
 * frame as every other path leaves them. out: [0,NT) as BORDER's,
 * [NT,2NT) three times the word. */
static const char *BORDER_LIVE =
    BORDER_ARMS "mov.u32 %r11, 0;\nmov.u32 %r12, 3;\n"
    "LOOP:\n"
    "add.s32 %r11, %r11, %r2;\nsub.s32 %r12, %r12, 1;\nsetp.ne.u32 %p2, %r12, 0;\n@%p2 bra LOOP;\n"
    "st.global.u32 [%rd5+512], %r11;\n"
    "ret;\n}\n";

Test(ifelse, border_shape_values_live_after_the_join) {
    static uint32_t in[NT + 2], want[3 * NT];
    inputs(in);
    for (int t = 32; t < 64; t++) in[t + 1] &= ~3u; /* warp 1: every lane a border lane */
    for (int t = 64; t < 96; t++) in[t + 1] |= 1;   /* warp 2: none */
    _Static_assert(NT * 4 == 512, "the second row's offset in BORDER_LIVE");
    for (unsigned threads = NT; threads >= 70; threads -= NT - 70) {
        expected_border(in, threads, want);
        for (uint32_t t = 0; t < threads; t++) want[NT + t] = 3 * in[t + 1];
        on_and_off(BORDER_LIVE, threads, in, want, 2 * 8);
    }
}

/* A load out of bounds in the else arm of a split warp, after the then
 * arm's lanes (0-4) have run theirs: the report names the load's line and
 * lane 9, the first lane of the arm that faults, and the counts up to it
 * are the same, with the JIT and without. */
static const char *FAULT =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    ".reg .pred %p<4>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "setp.lt.u32 %p1, %r1, 5;\n"
    "@%p1 bra A;\n"
    "bra.uni B;\n"
    "A:\nadd.s32 %r3, %r1, 1;\nst.global.u32 [%rd3], %r3;\nbra.uni J;\n"
    "B:\nsetp.gt.u32 %p2, %r1, 8;\nselp.b32 %r5, 1048576, 0, %p2;\ncvt.u64.u32 %rd4, %r5;\n"
    "add.s64 %rd5, %rd3, %rd4;\nld.global.u32 %r4, [%rd5];\n" /* line 25 */
    "add.s32 %r3, %r1, %r4;\nst.global.u32 [%rd3], %r3;\n"
    "J:\nret;\n}\n";

Test(ifelse, fault_in_an_arm_of_a_split_warp) {
    static uint32_t in[NT + 2], out[3 * NT];
    const char *modes[2] = {"1", "0"};
    ptxi_launch_stats st[2];
    for (int k = 0; k < 2; k++) {
        char rep[2048];
        ptxi_status s = launch(FAULT, 64, modes[k], in, out, &st[k], rep, sizeof rep);
        cr_assert_eq(s, PTXI_ILLEGAL_ADDRESS, "PTXI_JIT=%s: %s", modes[k], rep);
        cr_assert(strstr(rep, "out-of-bounds global read of 4 bytes"), "PTXI_JIT=%s: %s", modes[k], rep);
        cr_assert(strstr(rep, "at w.ptx:25:1 in k"), "PTXI_JIT=%s: the load's line: %s", modes[k], rep);
        cr_assert(strstr(rep, "block (0,0,0), thread (9,0,0)"), "PTXI_JIT=%s: %s", modes[k], rep);
    }
    /* the records before the load, each counted for the lanes that ran it */
    cr_assert_eq(st[0].warp_insns, st[1].warp_insns, "warp instructions: %llu with the JIT, %llu without",
                 (unsigned long long)st[0].warp_insns, (unsigned long long)st[1].warp_insns);
    cr_assert_eq(st[0].thread_insns, st[1].thread_insns, "thread instructions: %llu with the JIT, %llu without",
                 (unsigned long long)st[0].thread_insns, (unsigned long long)st[1].thread_insns);
}
