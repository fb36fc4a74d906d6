/* test_int_div.c — div and rem .u32/.s32 for whole warps (the handlers divide
 * in double precision, which vectorizes) equal C's integer division on 16,384
 * operand pairs: random, small and near-multiple quotients, negative values,
 * INT_MIN; division by zero gives all ones and INT_MIN / -1 gives INT_MIN
 * with remainder 0, as measured on sm_90 (tests/alu/alu_table.txt). */
#include <criterion/criterion.h>
#include <stdint.h>

#include "../run_kernel.h"

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"
#define PAIRS 16384

/* thread t, pass k: pair p = 1024k + t from in[2p], in[2p+1]; out[4p..4p+3]
 * = div.u32, rem.u32, div.s32, rem.s32 */
static const char div_ptx[] = HDR
    ".visible .entry k(.param .u64 o, .param .u64 in)\n{\n.reg .pred %p1;\n.reg .b32 %r<12>;\n.reg .b64 %rd<10>;\n"
    "ld.param.u64 %rd1, [o];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, 0;\nLOOP:\n"
    "shl.b32 %r3, %r2, 10;\nadd.s32 %r3, %r3, %r1;\nmul.wide.u32 %rd3, %r3, 8;\nadd.s64 %rd4, %rd2, %rd3;\n"
    "ld.global.u32 %r4, [%rd4];\nld.global.u32 %r5, [%rd4+4];\ndiv.u32 %r6, %r4, %r5;\nrem.u32 %r7, %r4, %r5;\n"
    "div.s32 %r8, %r4, %r5;\nrem.s32 %r9, %r4, %r5;\nmul.wide.u32 %rd5, %r3, 16;\nadd.s64 %rd6, %rd1, %rd5;\n"
    "st.global.v4.u32 [%rd6], {%r6, %r7, %r8, %r9};\nadd.s32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, 16;\n"
    "@%p1 bra LOOP;\nret;\n}\n";

static uint64_t state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return (uint32_t)state;
}

static void check(const uint32_t *in, uint32_t *out) {
    char rep[1024];
    cr_assert_eq(run_io(div_ptx, 1024, in, 8 * PAIRS, out, 16 * PAIRS, rep, sizeof rep), PTXI_SUCCESS, "%s", rep);
    for (int p = 0; p < PAIRS; p++) {
        uint32_t a = in[2 * p], b = in[2 * p + 1], want[4];
        int32_t sa = (int32_t)a, sb = (int32_t)b;
        if (!b) want[0] = want[1] = want[2] = want[3] = 0xffffffffu;
        else {
            want[0] = a / b, want[1] = a % b;
            want[2] = sb == -1 ? 0u - a : (uint32_t)(sa / sb);
            want[3] = sb == -1 ? 0u : (uint32_t)(sa % sb);
        }
        for (int j = 0; j < 4; j++)
            cr_expect_eq(out[4 * p + j], want[j], "%s of %#x, %#x: %#x, want %#x",
                         (const char *[]){"div.u32", "rem.u32", "div.s32", "rem.s32"}[j], a, b, out[4 * p + j],
                         want[j]);
    }
}

/* The same with one divisor per warp and pass (a grid stride, a row length):
 * dividends random, at a multiple, one either side of one, 0, the largest. */
Test(int_div, division_by_a_warp_uniform_divisor_equals_integer_division) {
    static uint32_t in[2 * PAIRS], out[4 * PAIRS];
    static const uint32_t edge_b[] = {0, 1, 2, 3, 7, 0xffffffffu, 0xfffffffeu, 0x80000000u, 0x80000001u, 641, 65537};
    for (int g = 0; g < PAIRS / 32; g++) {
        uint32_t b = rnd() >> (rnd() % 32);
        if (g < (int)(sizeof edge_b / sizeof *edge_b)) b = edge_b[g];
        for (int l = 0; l < 32; l++) {
            int p = 32 * g + l;
            uint32_t a = rnd();
            if (l % 4 && b) a = (a / b) * b + (uint32_t)(l % 4) - 2; /* at a multiple, or next to one */
            if (l == 31) a = 0xffffffffu;
            if (l == 30) a = 0;
            in[2 * p] = a, in[2 * p + 1] = b;
        }
    }
    check(in, out);
}

Test(int_div, whole_warp_division_equals_integer_division) {
    static uint32_t in[2 * PAIRS], out[4 * PAIRS];
    static const uint32_t edge[][2] = {{7, 0},
                                       {0, 0},
                                       {0x80000000u, 0xffffffffu},
                                       {0x80000000u, 1},
                                       {0xffffffffu, 0xffffffffu},
                                       {0xffffffffu, 1},
                                       {0xfffffff9u, 2},
                                       {7, 0xfffffffeu},
                                       {0xffffffffu, 0xfffffffeu},
                                       {0x7fffffffu, 0x80000000u}};
    for (int p = 0; p < PAIRS; p++) {
        uint32_t a = rnd(), b = rnd() >> (rnd() % 32);
        if (p % 4 == 1 && b) a = (a / b) * b + (uint32_t)(p % 3) - 1; /* next to a multiple */
        if (p % 8 == 3) b = (uint32_t) - (int32_t)(b % 1000 + 1);     /* a small negative divisor */
        if (p < (int)(sizeof edge / sizeof *edge)) a = edge[p][0], b = edge[p][1];
        in[2 * p] = a, in[2 * p + 1] = b;
    }
    check(in, out);
}
