/* test_jit_affine.c — whole-warp ld/st.global.b32 through registers whose
 * lanes differ from another access's by one amount in every lane, which
 * take that access's lane test instead of their own (interp/jit_affine.h),
 * and the registers that look alike but are not: one written again on
 * another path, one written by some lanes in between, one grown in a loop,
 * one a run of another shape. Each is run with the JIT on and off; the
 * expected words come from C below. Loads through one register a few bytes
 * apart take one arena check for their span (jit_addr.h span4_*): at the
 * input's end, and one past it, which faults at its own line and lane. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../run_kernel.h"

#define NT 64    /* two warps, one CTA */
#define NIN 1024 /* input words */
#define NOUT 512 /* eight regions of 64 words */

/* %rd4 = in + 4t; %rd20 = 12t. */
static const char *SRC =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    ".reg .pred %p<4>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<48>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"
    "cvt.u64.u32 %rd3, %r1;\nshr.u32 %r2, %r1, 5;\nand.b32 %r3, %r2, 1;\nsetp.ne.u32 %p1, %r3, 0;\n"
    "and.b32 %r4, %r1, 1;\nsetp.ne.u32 %p2, %r4, 0;\nmul.wide.u32 %rd20, %r1, 12;\n"
    "shl.b64 %rd10, %rd3, 2;\nadd.s64 %rd4, %rd2, %rd10;\n"
    "add.s64 %rd5, %rd4, 256;\n"           /* in + 4t + 256: A's answer */
    "add.s64 %rd6, %rd4, %rd20;\n"         /* in + 16t: its own */
    "mul.wide.u32 %rd21, %r1, 3;\nshl.b64 %rd22, %rd21, 2;\nadd.s64 %rd23, %rd2, %rd22;\n" /* in + 12t */
    "add.s64 %rd24, %rd23, 64;\n"          /* in + 12t + 64: %rd23's answer, no */
    "add.s64 %rd30, %rd1, %rd10;\n"        /* out + 4t */
    "mov.u64 %rd7, %rd4;\nmov.u64 %rd8, %rd4;\n"
    "@%p1 bra $L1;\n"
    "add.s64 %rd7, %rd2, %rd20;\n"         /* the even warp's %rd7: in + 12t */
    "$L1:\n"
    "ld.global.u32 %r10, [%rd4+512];\n"    /* A */
    "ld.global.u32 %r11, [%rd5];\n"
    "ld.global.u32 %r12, [%rd6];\n"
    "ld.global.u32 %r13, [%rd7];\n"
    "@%p2 add.s64 %rd8, %rd4, 64;\n"       /* the odd lanes' %rd8: in + 4t + 64 */
    "ld.global.u32 %r14, [%rd8];\n"
    "ld.global.u32 %r15, [%rd23];\n"
    "ld.global.u32 %r16, [%rd24];\n"
    "st.global.u32 [%rd30], %r10;\nst.global.u32 [%rd30+256], %r11;\nst.global.u32 [%rd30+512], %r12;\n"
    "st.global.u32 [%rd30+768], %r13;\nst.global.u32 [%rd30+1024], %r14;\nst.global.u32 [%rd30+1280], %r15;\n"
    "st.global.u32 [%rd30+1536], %r16;\n"
    "mov.u64 %rd40, %rd4;\nmov.u32 %r20, 0;\nmov.u32 %r21, 0;\n"
    "$L2:\n"                               /* three rounds; %rd40 grows by 12t each */
    "ld.global.u32 %r22, [%rd4+4];\n"
    "ld.global.u32 %r23, [%rd40];\n"
    "add.s32 %r21, %r21, %r23;\nadd.s32 %r21, %r21, %r22;\n"
    "add.s64 %rd40, %rd40, %rd20;\nadd.s32 %r20, %r20, 1;\nsetp.lt.u32 %p3, %r20, 3;\n@%p3 bra $L2;\n"
    "st.global.u32 [%rd30+1792], %r21;\n"
    "ret;\n}\n";

static void inputs(uint32_t in[NIN]) { xorshift_words(in, NIN, 2463534242u); }

/* src over the NIN input words with the JIT on (got[0]) and off (got[1]):
 * its n output words as want, and the counts alike. */
static void both_modes(const char *src, const uint32_t *in, uint32_t *const got[2], const uint32_t *want, size_t n,
                       const char *what) {
    ptxi_launch_stats st[2];
    for (int m = 0; m < 2; m++) {
        char rep[1024];
        ptxi_status s = run_io_jit(m ? "0" : "1", src, NT, in, NIN * 4, got[m], n * 4, rep, sizeof rep, &st[m]);
        cr_assert_eq(s, PTXI_SUCCESS, "%s, PTXI_JIT=%d: %s", what, !m, rep);
    }
    same_on_and_off(got, want, n, st, what);
}

Test(jit_affine, accesses_that_share_a_lane_test_and_those_that_do_not) {
    static uint32_t in[NIN], want[NOUT], got0[NOUT], got1[NOUT];
    uint32_t *got[2] = {got0, got1};
    inputs(in);
    for (uint32_t t = 0; t < NT; t++) { /* eight regions of 64 words */
        want[t] = in[t + 128];
        want[64 + t] = in[t + 64];
        want[128 + t] = in[4 * t];
        want[192 + t] = (t / 32) % 2 ? in[t] : in[3 * t];
        want[256 + t] = t % 2 ? in[t + 16] : in[t];
        want[320 + t] = in[3 * t];
        want[384 + t] = in[3 * t + 16];
        want[448 + t] = 3 * in[t + 1] + in[t] + in[4 * t] + in[7 * t];
    }
    both_modes(SRC, in, got, want, NOUT, "regions");
}

/* An access that takes another's lane test still checks its own span: the
 * second load's run ends OFF bytes further on, past the 4096-byte input
 * from thread FIRST on, and faults there, at its own line. */
static const char *FAULT = ".version 8.0\n.target sm_90\n.address_size 64\n"
                           ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                           ".reg .b32 %r<8>;\n.reg .b64 %rd<12>;\n"
                           "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"
                           "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\nadd.s64 %rd5, %rd4, 3968;\n"
                           "add.s64 %rd6, %rd1, %rd3;\n"
                           "ld.global.u32 %r2, [%rd4];\nld.global.u32 %r3, [%rd5];\n"
                           "add.s32 %r4, %r2, %r3;\nst.global.u32 [%rd6], %r4;\nret;\n}\n";

Test(jit_affine, a_shared_test_still_checks_each_access_span) {
    static uint32_t in[NIN], out[NOUT];
    char rep[2][2048];
    for (int m = 0; m < 2; m++) {
        ptxi_status s = run_io_jit(m ? "0" : "1", FAULT, NT, in, sizeof in, out, sizeof out, rep[m], sizeof rep[m], NULL);
        cr_assert_eq(s, PTXI_ILLEGAL_ADDRESS, "PTXI_JIT=%d: %s", !m, rep[m]);
    }
    cr_assert(strstr(rep[0], "at w.ptx:16:"), "the second load's line: %s", rep[0]);
    cr_assert(strstr(rep[0], "thread (32,0,0)"), "the first lane past the end (3968 + 4 * 32 = 4096): %s", rep[0]);
    cr_assert_str_eq(rep[0], rep[1], "with and without the JIT");
}

/* One warp loads [%rd4], [%rd4+4], [%rd4+-4] with %rd4 = in + BASE + 4t and
 * stores their sum at out + 4t (the input is 4096 bytes). */
static void span_src(char *buf, size_t cap, int base) {
    snprintf(buf, cap,
             ".version 8.0\n.target sm_90\n.address_size 64\n"
             ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
             ".reg .b32 %%r<8>;\n.reg .b64 %%rd<12>;\n"
             "ld.param.u64 %%rd1, [out];\nld.param.u64 %%rd2, [in];\nmov.u32 %%r1, %%tid.x;\n"
             "mul.wide.u32 %%rd3, %%r1, 4;\nadd.s64 %%rd5, %%rd2, %%rd3;\nadd.s64 %%rd4, %%rd5, %d;\n"
             "ld.global.u32 %%r2, [%%rd4];\nld.global.u32 %%r3, [%%rd4+4];\nld.global.u32 %%r4, [%%rd4+-4];\n"
             "add.s32 %%r5, %%r2, %%r3;\nadd.s32 %%r5, %%r5, %%r4;\n"
             "add.s64 %%rd6, %%rd1, %%rd3;\nst.global.u32 [%%rd6], %%r5;\nret;\n}\n",
             base);
}

Test(jit_affine, loads_a_few_bytes_apart_take_one_arena_check) {
    static uint32_t in[NIN], got[NOUT];
    inputs(in);
    char src[1024], rep[2][2048];
    span_src(src, sizeof src, 4096 - 132); /* the last lane's [%rd4+4] is the input's last word */
    for (int m = 0; m < 2; m++) {
        ptxi_status s = run_io_jit(m ? "0" : "1", src, 32, in, sizeof in, got, sizeof got, rep[m], sizeof rep[m], NULL);
        cr_assert_eq(s, PTXI_SUCCESS, "PTXI_JIT=%d: %s", !m, rep[m]);
        for (uint32_t t = 0; t < 32; t++) {
            uint32_t w = (4096 - 132) / 4 + t;
            cr_assert_eq(got[t], in[w] + in[w + 1] + in[w - 1], "PTXI_JIT=%d: thread %u", !m, t);
        }
    }
    span_src(src, sizeof src, 4096 - 128); /* the last lane's [%rd4+4] is past it */
    for (int m = 0; m < 2; m++) {
        ptxi_status s = run_io_jit(m ? "0" : "1", src, 32, in, sizeof in, got, sizeof got, rep[m], sizeof rep[m], NULL);
        cr_assert_eq(s, PTXI_ILLEGAL_ADDRESS, "PTXI_JIT=%d: %s", !m, rep[m]);
    }
    cr_assert(strstr(rep[0], "at w.ptx:15:"), "the second load's line: %s", rep[0]);
    cr_assert(strstr(rep[0], "thread (31,0,0)"), "the last lane: %s", rep[0]);
    cr_assert_str_eq(rep[0], rep[1], "with and without the JIT");
}

/* Chains of 64-bit address records computed as a cached register plus one
 * amount (interp/jit_fold.h): a sub, shl, add chain (stencil's row above), an
 * add, mov, shl, add chain whose last add takes the chain as its first
 * operand, one that writes one register throughout, and one whose uniform
 * part comes from %ctaid (not a prologue value: computed record by record),
 * a second sub chain, and one whose first result is read again later (the
 * chain starts after it). Loads go through each result; three results less
 * `in` and that first result are stored too, so every lane's value is
 * checked, with the JIT on and off. */
static const char *CHAINS =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    ".reg .b32 %r<40>;\n.reg .b64 %rd<48>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u64 %rd9, 16;\nmov.u32 %r1, %tid.x;\n"
    "mov.u32 %r2, %ctaid.x;\ncvt.u64.u32 %rd40, %r2;\n"
    "cvt.u64.u32 %rd5, %r1;\nmul.lo.s64 %rd3, %rd5, 3;\nadd.s64 %rd3, %rd3, 24;\n" /* i = 3t + 24 */
    "shl.b64 %rd10, %rd3, 2;\nadd.s64 %rd4, %rd2, %rd10;\n"                        /* in + 4i */
    "ld.global.u32 %r10, [%rd4];\n"
    "sub.s64 %rd12, %rd3, %rd9;\nshl.b64 %rd13, %rd12, 2;\nadd.s64 %rd14, %rd2, %rd13;\n"
    "add.s64 %rd15, %rd3, %rd9;\nmov.u64 %rd16, %rd15;\nshl.b64 %rd17, %rd16, 2;\nadd.s64 %rd18, %rd17, %rd2;\n"
    "add.s64 %rd19, %rd3, 5;\nshl.b64 %rd19, %rd19, 2;\nadd.s64 %rd19, %rd2, %rd19;\n"
    "add.s64 %rd41, %rd3, %rd40;\nshl.b64 %rd42, %rd41, 2;\nadd.s64 %rd43, %rd2, %rd42;\n"
    "sub.s64 %rd24, %rd3, 7;\nshl.b64 %rd25, %rd24, 2;\nadd.s64 %rd26, %rd2, %rd25;\n"
    "add.s64 %rd27, %rd3, 9;\nshl.b64 %rd28, %rd27, 2;\nadd.s64 %rd29, %rd2, %rd28;\n"
    "ld.global.u32 %r11, [%rd14];\nld.global.u32 %r12, [%rd18];\nld.global.u32 %r13, [%rd19];\n"
    "ld.global.u32 %r14, [%rd43];\nld.global.u32 %r15, [%rd26];\nld.global.u32 %r16, [%rd29];\n"
    "cvt.u32.u64 %r24, %rd27;\n"
    "sub.s64 %rd20, %rd14, %rd2;\ncvt.u32.u64 %r20, %rd20;\nsub.s64 %rd21, %rd18, %rd2;\ncvt.u32.u64 %r21, %rd21;\n"
    "sub.s64 %rd22, %rd19, %rd2;\ncvt.u32.u64 %r22, %rd22;\nsub.s64 %rd23, %rd43, %rd2;\ncvt.u32.u64 %r23, %rd23;\n"
    "mul.wide.u32 %rd30, %r1, 4;\nadd.s64 %rd31, %rd1, %rd30;\n"
    "st.global.u32 [%rd31], %r10;\nst.global.u32 [%rd31+256], %r11;\nst.global.u32 [%rd31+512], %r12;\n"
    "st.global.u32 [%rd31+768], %r13;\nst.global.u32 [%rd31+1024], %r14;\nst.global.u32 [%rd31+1280], %r20;\n"
    "st.global.u32 [%rd31+1536], %r21;\nst.global.u32 [%rd31+1792], %r22;\nst.global.u32 [%rd31+2048], %r15;\n"
    "st.global.u32 [%rd31+2304], %r16;\nst.global.u32 [%rd31+2560], %r24;\n"
    "ret;\n}\n";

Test(jit_affine, address_chains_folded_onto_a_cached_register) {
    enum { N = 11 * 64 };
    static uint32_t in[NIN], want[N], got0[N], got1[N];
    uint32_t *got[2] = {got0, got1};
    inputs(in);
    for (uint32_t t = 0; t < NT; t++) {
        uint32_t i = 3 * t + 24;
        want[t] = in[i], want[64 + t] = in[i - 16], want[128 + t] = in[i + 16], want[192 + t] = in[i + 5];
        want[256 + t] = in[i]; /* CTA 0: %ctaid.x is 0 */
        want[320 + t] = 4 * (i - 16), want[384 + t] = 4 * (i + 16), want[448 + t] = 4 * (i + 5);
        want[512 + t] = in[i - 7], want[576 + t] = in[i + 9], want[640 + t] = i + 9;
    }
    both_modes(CHAINS, in, got, want, N, "chains");
}
