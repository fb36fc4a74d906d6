/* test_b128.c — .b128 registers: mov between them and to/from pairs of 64-bit
 * registers, ld/st .b128 in global, shared, generic and local memory, and
 * atom.cas/.exch.b128 in global and shared memory, against the PTX ISA's
 * definitions (a 16-byte value, its low 64 bits first in memory). */
#include <stdint.h>

#include "../run_kernel.h"

static const char SRC[] =
    ".version 8.3\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    ".reg .b128 %q<8>;\n.reg .b64 %rd<24>;\n.reg .b32 %r<4>;\n.reg .pred %p<3>;\n"
    ".shared .align 16 .b8 sh[512];\n.shared .align 16 .b8 cells[512];\n.local .align 16 .b8 loc[16];\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
    "mov.u32 %r1, %tid.x;\ncvt.u64.u32 %rd3, %r1;\nshl.b64 %rd4, %rd3, 4;\n"
    "add.s64 %rd5, %rd2, %rd4;\nld.global.b128 %q1, [%rd5];\n" /* q1 = in[t] */
    "cvt.u32.u64 %r3, %rd4;\nmov.u32 %r2, sh;\nadd.u32 %r2, %r2, %r3;\nst.shared.b128 [%r2], %q1;\n"
    "bar.sync 0;\n"
    "xor.b32 %r3, %r3, 16;\nmov.u32 %r2, sh;\nadd.u32 %r2, %r2, %r3;\nld.shared.b128 %q2, [%r2];\n" /* q2 = in[t^1] */
    "mov.u64 %rd6, sh;\ncvta.shared.u64 %rd6, %rd6;\nadd.s64 %rd6, %rd6, %rd4;\nld.b128 %q3, [%rd6];\n" /* q3 = q1 */
    "st.local.b128 [loc], %q2;\nld.local.b128 %q4, [loc];\n"                                            /* q4 = q2 */
    "mov.b128 {%rd7, %rd8}, %q4;\nadd.s64 %rd7, %rd7, 1;\nmov.b128 %q5, {%rd8, %rd7};\nmov.b128 %q6, %q5;\n"
    "add.s64 %rd9, %rd1, %rd4;\nst.global.b128 [%rd9], %q6;\n" /* out[t] = {hi2, lo2 + 1} */
    "st.b128 [%rd9+1552], %q3;\n"                              /* generic store of q1 */
    /* every thread adds {1, t} to the cell at out+512 with a CAS loop */
    "mov.b64 %rd10, 0;\nmov.b64 %rd11, 0;\nadd.s64 %rd16, %rd1, 512;\n"
    "LOOP:\nmov.b128 %q0, {%rd10, %rd11};\nadd.s64 %rd12, %rd10, 1;\nadd.s64 %rd13, %rd11, %rd3;\n"
    "mov.b128 %q7, {%rd12, %rd13};\natom.global.cas.b128 %q7, [%rd16], %q0, %q7;\n"
    "mov.b128 {%rd14, %rd15}, %q7;\nsetp.ne.s64 %p1, %rd14, %rd10;\nsetp.ne.or.s64 %p1, %rd15, %rd11, %p1;\n"
    "mov.b64 %rd10, %rd14;\nmov.b64 %rd11, %rd15;\n@%p1 bra LOOP;\n"
    /* exchange q6 into a shared cell holding q1; keep the old value and the cell */
    "mov.u32 %r2, cells;\ncvt.u32.u64 %r3, %rd4;\nadd.u32 %r2, %r2, %r3;\nst.shared.b128 [%r2], %q1;\n"
    "atom.shared.exch.b128 %q7, [%r2], %q6;\nld.shared.b128 %q0, [%r2];\n"
    "shl.b64 %rd17, %rd3, 5;\nadd.s64 %rd17, %rd17, %rd1;\nst.global.b128 [%rd17+528], %q7;\n"
    "st.global.b128 [%rd17+544], %q0;\nret;\n}\n";

Test(b128, mov_ld_st_atom) {
    uint64_t in[32][2], out[2064 / 8];
    for (int t = 0; t < 32; t++) {
        in[t][0] = 0x0123456789abcdefull ^ (uint64_t)t * 0x1111111111111111ull;
        in[t][1] = ~in[t][0] * 3;
    }
    char rep[512];
    ptxi_status s = run_io(SRC, 32, in, sizeof in, (uint32_t *)out, sizeof out, rep, sizeof rep);
    cr_assert_eq(s, PTXI_SUCCESS, "%s", rep);
    for (int t = 0; t < 32; t++) {
        const uint64_t *n = in[t ^ 1], *q6 = (const uint64_t[]){n[1], n[0] + 1};
        cr_expect(out[2 * t] == q6[0] && out[2 * t + 1] == q6[1], "thread %d: ld/st/mov gave %llx %llx", t,
                  (unsigned long long)out[2 * t], (unsigned long long)out[2 * t + 1]);
        const uint64_t *g = out + (1552 + 16 * t) / 8;
        cr_expect(g[0] == in[t][0] && g[1] == in[t][1], "thread %d: generic ld/st", t);
        const uint64_t *x = out + (528 + 32 * t) / 8;
        cr_expect(x[0] == in[t][0] && x[1] == in[t][1], "thread %d: exch returned %llx %llx", t,
                  (unsigned long long)x[0], (unsigned long long)x[1]);
        cr_expect(x[2] == q6[0] && x[3] == q6[1], "thread %d: exch stored %llx %llx", t, (unsigned long long)x[2],
                  (unsigned long long)x[3]);
    }
    cr_expect(out[64] == 32 && out[65] == 31 * 32 / 2, "cas loop: %llu %llu", (unsigned long long)out[64],
              (unsigned long long)out[65]);
}

/* A 16-byte access needs 16-byte alignment in global memory. */
Test(b128, misaligned_global) {
    static const char bad[] = ".version 8.3\n.target sm_90\n.address_size 64\n"
                              ".visible .entry k(.param .u64 out)\n{\n.reg .b128 %q1;\n.reg .b64 %rd1;\n"
                              "ld.param.u64 %rd1, [out];\nld.global.b128 %q1, [%rd1+8];\nret;\n}\n";
    uint32_t out[8];
    char rep[512];
    cr_assert_eq(run_io(bad, 1, NULL, 0, out, sizeof out, rep, sizeof rep), PTXI_MISALIGNED_ADDRESS, "%s", rep);
}
