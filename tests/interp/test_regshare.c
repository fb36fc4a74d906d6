/* test_regshare.c — registers whose live ranges never meet share frame
 * slots (interp/regshare.c); these kernels have registers that a careless
 * analysis would let share while both still hold values: one carried around
 * a loop's back edge past its last appearance in the text, one written under
 * a guard (the other lanes keep the old value), a shfl whose source dies at
 * it, and values live across a divergent if/else. Expected values follow
 * from the kernels' definitions. */
#include <criterion/criterion.h>

#include "../run_kernel.h"

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"

/* One CTA of 64 threads; out gets the output buffer. */
static void run64(const char *src, uint32_t *out, size_t n) {
    char rep[1024];
    cr_assert_eq(run_io(src, 64, NULL, 0, out, n, rep, sizeof rep), PTXI_SUCCESS, "%s", rep);
}

/* r5 = t; ten times r5 = (r5 + 3) * 5 and r10 = r5, while r7/r8 (defined
 * after r5's last appearance in the text; r5 is not used after the loop) add
 * 12i to r4. Even threads also set r3 = i + 7 under a guard at the top of
 * the loop, odd ones keep r3 = 100, and r9 sums r3 after the guard, before
 * r7/r8. out[t] = r10, out[64 + t] = r4, out[128 + t] = r9. */
static const char loop_ptx[] = HDR
    ".visible .entry k(.param .u64 o)\n{\n.reg .pred %p<3>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [o];\nmov.u32 %r1, %tid.x;\nmov.u32 %r5, %r1;\nmov.u32 %r2, 0;\nmov.u32 %r4, 0;\n"
    "mov.u32 %r3, 100;\nmov.u32 %r9, 0;\nand.b32 %r11, %r1, 1;\nsetp.eq.u32 %p2, %r11, 0;\n"
    "LOOP:\nadd.u32 %r6, %r2, 7;\n@%p2 mov.u32 %r3, %r6;\nadd.u32 %r9, %r9, %r3;\n"
    "add.u32 %r6, %r5, 3;\nmul.lo.u32 %r5, %r6, 5;\nmov.u32 %r10, %r5;\nmul.lo.u32 %r7, %r2, 11;\n"
    "add.u32 %r8, %r7, %r2;\nadd.u32 %r4, %r4, %r8;\nadd.u32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, 10;\n"
    "@%p1 bra LOOP;\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r10;\n"
    "st.global.u32 [%rd3+256], %r4;\nst.global.u32 [%rd3+512], %r9;\nret;\n}\n";

Test(regshare, a_value_carried_around_a_loop_keeps_its_slot) {
    uint32_t out[192];
    run64(loop_ptx, out, sizeof out);
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t v = t;
        for (int i = 0; i < 10; i++) v = (v + 3) * 5;
        cr_expect_eq(out[t], v, "thread %u: %u, want %u", t, out[t], v);
        cr_expect_eq(out[64 + t], 540u, "thread %u: sum %u", t, out[64 + t]);
        cr_expect_eq(out[128 + t], t % 2 ? 1000u : 115u, "thread %u: guarded sum %u", t, out[128 + t]);
    }
}

/* r3 = 100; r5 = t + 9 is stored; then even threads set r3 = t + 7 under a
 * guard: odd threads still hold 100. A shfl.bfly of r4 = 3t (r4 dies there)
 * gives 3(t ^ 1). out[t] = r3, out[64 + t] = r5, out[128 + t] = the shfl. */
static const char guard_ptx[] = HDR
    ".visible .entry k(.param .u64 o)\n{\n.reg .pred %p1;\n.reg .b32 %r<12>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [o];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "and.b32 %r2, %r1, 1;\nsetp.eq.u32 %p1, %r2, 0;\nmov.u32 %r3, 100;\nadd.u32 %r5, %r1, 9;\n"
    "st.global.u32 [%rd3+256], %r5;\nadd.u32 %r6, %r1, 7;\n@%p1 mov.u32 %r3, %r6;\n"
    "st.global.u32 [%rd3], %r3;\nmul.lo.u32 %r4, %r1, 3;\nshfl.sync.bfly.b32 %r7, %r4, 1, 31, -1;\n"
    "st.global.u32 [%rd3+512], %r7;\nret;\n}\n";

Test(regshare, a_guarded_write_keeps_the_other_lanes_value) {
    uint32_t out[192];
    run64(guard_ptx, out, sizeof out);
    for (uint32_t t = 0; t < 64; t++) {
        cr_expect_eq(out[t], t % 2 ? 100u : t + 7, "thread %u: %u", t, out[t]);
        cr_expect_eq(out[64 + t], t + 9, "thread %u", t);
        cr_expect_eq(out[128 + t], 3 * (t ^ 1), "thread %u: shfl %u", t, out[128 + t]);
    }
}

/* if (t & 2) { r3 = t * 5 } else { r4 = t + 1000; r3 = r4 * 2 }, with r9 =
 * t + 1 live across both branches; out[t] = r3 + r9. */
static const char branch_ptx[] = HDR
    ".visible .entry k(.param .u64 o)\n{\n.reg .pred %p1;\n.reg .b32 %r<12>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [o];\nmov.u32 %r1, %tid.x;\nadd.u32 %r9, %r1, 1;\nand.b32 %r2, %r1, 2;\n"
    "setp.ne.u32 %p1, %r2, 0;\n@%p1 bra THEN;\nadd.u32 %r4, %r1, 1000;\nshl.b32 %r3, %r4, 1;\nbra JOIN;\n"
    "THEN:\nmul.lo.u32 %r5, %r1, 5;\nmov.u32 %r3, %r5;\nJOIN:\nadd.u32 %r6, %r3, %r9;\n"
    "mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r6;\nret;\n}\n";

Test(regshare, values_live_across_a_divergent_branch) {
    uint32_t out[64];
    run64(branch_ptx, out, sizeof out);
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t want = (t & 2 ? t * 5 : (t + 1000) * 2) + t + 1;
        cr_expect_eq(out[t], want, "thread %u: %u, want %u", t, out[t], want);
    }
}
