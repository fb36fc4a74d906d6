/* test_jit_div.c — div.u32 and rem.u32 by a divisor that is the same in
 * every lane (the compiled code's magic-number path, interp/jit.c
 * divu_uniform), with the JIT on and off, against C's / and %: quotients next
 * to integers, the largest operands, divisors of one, of 2^31 and above,
 * and zero (all ones, as exec.c gives it). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../run_kernel.h"

#define NT 64

static const char *SRC = ".version 8.0\n.target sm_90\n.address_size 64\n"
                         ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                         ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
                         "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"
                         "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.u32 %r2, [%rd4];\n"
                         "ld.global.u32 %r3, [%rd2+256];\n" /* the same word in every lane */
                         "div.u32 %r4, %r2, %r3;\nrem.u32 %r5, %r2, %r3;\n"
                         "add.s64 %rd5, %rd1, %rd3;\nst.global.u32 [%rd5], %r4;\nst.global.u32 [%rd5+256], %r5;\n"
                         "ret;\n}\n";

static void check(const char *jit) {
    static const uint32_t ds[] = {1,          2,          3,          7,          10,         641,
                                  65535,      65536,      12345678,   0x7fffffff, 0x80000000, 0x80000001,
                                  0xfffff000, 0xfffffffe, 0xffffffff, 0,
                                  /* a * (1 / d) in double falls below the next integer at a = d, 2 d */
                                  2948425723u, 3191790604u, 2103217662u, 1737120421u};
    uint32_t s = 99;
    for (size_t n = 0; n < sizeof ds / sizeof ds[0]; n++) {
        uint32_t d = ds[n], in[NT + 1], out[2 * NT];
        for (int t = 0; t < NT; t++) {
            s = s * 1664525u + 1013904223u;
            uint32_t k = s % 8, m = d ? 0xffffffffu / d : 0;
            /* multiples of d and their neighbours, the extremes, random words */
            in[t] = t < 8    ? (uint32_t)t
                    : t < 40 ? (uint32_t)((m ? s % ((uint64_t)m + 1) : 0) * d) + (k < 3 ? 0u : k < 6 ? (uint32_t)-1 : 1u)
                    : t < 44 ? 0xffffffffu - (uint32_t)(t - 40)
                             : s;
        }
        for (uint64_t k = 1; k <= 3; k++) /* small multiples */
            if (k * d <= 0xffffffffu) in[7 + k] = (uint32_t)(k * d);
        in[NT] = d;
        char rep[1024];
        ptxi_status st = run_io_jit(jit, SRC, NT, in, sizeof in, out, sizeof out, rep, sizeof rep, NULL);
        cr_assert_eq(st, PTXI_SUCCESS, "%s", rep);
        for (int t = 0; t < NT; t++) {
            uint32_t q = d ? in[t] / d : 0xffffffffu, r = d ? in[t] % d : 0xffffffffu;
            cr_assert_eq(out[t], q, "PTXI_JIT=%s: %u / %u: %u, expected %u", jit, in[t], d, out[t], q);
            cr_assert_eq(out[NT + t], r, "PTXI_JIT=%s: %u %% %u: %u, expected %u", jit, in[t], d, out[NT + t], r);
        }
    }
}

/* Divisors spread over every magnitude (a random word shifted right by 0..31)
 * against C's / and %: the magic-number path has no correction step, so it
 * must hold for every d, not only the listed ones. */
Test(jit_div, random_divisors) {
    uint32_t s = 12345;
    for (int n = 0; n < 256; n++) {
        s = s * 1664525u + 1013904223u;
        uint32_t d = (s >> (n % 32)) | 1u, in[NT + 1], out[2 * NT];
        for (int t = 0; t < NT; t++) {
            s = s * 1664525u + 1013904223u;
            uint32_t m = 0xffffffffu / d;
            in[t] = t % 2 ? s : (uint32_t)((s % ((uint64_t)m + 1)) * d) - (uint32_t)(t % 4 == 2);
        }
        in[NT] = d;
        char rep[1024];
        ptxi_status st = run_io(SRC, NT, in, sizeof in, out, sizeof out, rep, sizeof rep);
        cr_assert_eq(st, PTXI_SUCCESS, "%s", rep);
        for (int t = 0; t < NT; t++) {
            cr_assert_eq(out[t], in[t] / d, "%u / %u: %u, expected %u", in[t], d, out[t], in[t] / d);
            cr_assert_eq(out[NT + t], in[t] % d, "%u %% %u: %u, expected %u", in[t], d, out[NT + t], in[t] % d);
        }
    }
}

Test(jit_div, uniform_divisor_jit_on) { check("1"); }
Test(jit_div, uniform_divisor_jit_off) { check("0"); }

/* A warp of 16 lanes runs the masked version of the compiled code, whose
 * results are merged under the executing lanes (edx), which computing a
 * divisor's magic number must leave alone: (t + 32) % 240 and (t + 32) / 7
 * (immediate divisors, each computing its magic number since the slot keeps
 * one), in CTAs of 16 and of 240 threads (a last warp of 16 lanes). */
static const char *IMM = ".version 8.0\n.target sm_90\n.address_size 64\n"
                         ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                         ".reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n"
                         "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nadd.s32 %r2, %r1, 32;\n"
                         "rem.u32 %r3, %r2, 240;\ndiv.u32 %r4, %r2, 7;\n"
                         "mul.wide.u32 %rd3, %r1, 8;\nadd.s64 %rd5, %rd1, %rd3;\n"
                         "st.global.u32 [%rd5], %r3;\nst.global.u32 [%rd5+4], %r4;\nret;\n}\n";

Test(jit_div, uniform_divisor_in_a_partial_warp) {
    static const unsigned threads[] = {16, 240};
    for (int k = 0; k < 2; k++) {
        uint32_t out[2 * 240];
        char rep[1024];
        memset(out, 0xee, sizeof out);
        ptxi_status st = run_io_jit("1", IMM, threads[k], NULL, 0, out, 8 * threads[k], rep, sizeof rep, NULL);
        cr_assert_eq(st, PTXI_SUCCESS, "%s", rep);
        for (uint32_t t = 0; t < threads[k]; t++) {
            cr_assert_eq(out[2 * t], (t + 32) % 240, "%u threads: thread %u: %u", threads[k], t, out[2 * t]);
            cr_assert_eq(out[2 * t + 1], (t + 32) / 7, "%u threads: thread %u: %u", threads[k], t, out[2 * t + 1]);
        }
    }
}

/* The magic number kept by the CTA slot (jit.c recip_cached): eight warps
 * whose divisors go 7, 7, 1000003, 3, 7, 7, ... (a warp finds the last
 * warp's, of its own divisor or of another), each dividing twice (the
 * second finds its own). Quotients against C's. */
#define NT8 256
static const char *SRC8 = ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                          ".reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n"
                          "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"
                          "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.u32 %r2, [%rd4];\n"
                          "shr.u32 %r6, %r1, 5;\nand.b32 %r6, %r6, 3;\nmul.wide.u32 %rd6, %r6, 4;\n"
                          "add.s64 %rd6, %rd2, %rd6;\nld.global.u32 %r3, [%rd6+1024];\n"
                          "div.u32 %r4, %r2, %r3;\nxor.b32 %r7, %r2, 0x5555;\ndiv.u32 %r5, %r7, %r3;\n"
                          "add.s64 %rd5, %rd1, %rd3;\nst.global.u32 [%rd5], %r4;\nst.global.u32 [%rd5+1024], %r5;\n"
                          "ret;\n}\n";

Test(jit_div, divisors_change_between_warps) {
    static const uint32_t d[4] = {7, 7, 1000003, 3};
    static uint32_t in[NT8 + 4], out[2 * NT8];
    uint32_t s = 777;
    for (int t = 0; t < NT8; t++) {
        s = s * 1664525u + 1013904223u;
        in[t] = s;
    }
    memcpy(in + NT8, d, sizeof d);
    const char *modes[2] = {"1", "0"};
    for (int k = 0; k < 2; k++) {
        char rep[1024];
        ptxi_status st = run_io_jit(modes[k], SRC8, NT8, in, sizeof in, out, sizeof out, rep, sizeof rep, NULL);
        cr_assert_eq(st, PTXI_SUCCESS, "%s", rep);
        for (int t = 0; t < NT8; t++) {
            uint32_t dw = d[(t >> 5) & 3], x = in[t] ^ 0x5555;
            cr_assert_eq(out[t], in[t] / dw, "PTXI_JIT=%s: thread %d: %u / %u: %u", modes[k], t, in[t], dw, out[t]);
            cr_assert_eq(out[NT8 + t], x / dw, "PTXI_JIT=%s: thread %d: %u / %u: %u", modes[k], t, x, dw, out[NT8 + t]);
        }
    }
}
