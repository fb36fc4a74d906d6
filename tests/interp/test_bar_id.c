/* test_bar_id.c — the barrier a converged bar.sync arrives at. An immediate
 * id is taken from the record (lower_bar, vm_bar_sync_whole), a register's
 * from the frame. Barriers with different ids never release each other
 * (PTX ISA, bar.sync): two warps of 64 threads at barriers 5 and 6 both
 * wait forever, and the deadlock report names the first warp's barrier with
 * 32 of 64 threads arrived; the same two warps at one id (given once as an
 * immediate and once through a register) pass it, and each thread then
 * reads the word the other warp stored before the barrier. JIT on and off. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "../run_kernel.h"

/* out[tid] = out[tid ^ 32] + 1 after a barrier whose id warp 0 gives as A
 * and warp 1 as B; each thread first stores tid * 3 + 1 to out[tid]. */
static void kernel(char *ptx, size_t cap, const char *a, const char *b) {
    snprintf(ptx, cap,
             ".version 8.0\n.target sm_90\n.address_size 64\n"
             ".visible .entry k(.param .u64 o)\n{\n"
             ".reg .pred %%p<2>;\n.reg .b32 %%r<12>;\n.reg .b64 %%rd<8>;\n"
             "ld.param.u64 %%rd1, [o];\n"
             "cvta.to.global.u64 %%rd2, %%rd1;\n"
             "mov.u32 %%r1, %%tid.x;\n"
             "mad.lo.s32 %%r2, %%r1, 3, 1;\n"
             "mul.wide.u32 %%rd3, %%r1, 4;\n"
             "add.s64 %%rd4, %%rd2, %%rd3;\n"
             "st.global.u32 [%%rd4], %%r2;\n"
             "mov.u32 %%r9, 6;\n"
             "mov.u32 %%r10, 5;\n"
             "setp.lt.u32 %%p1, %%r1, 32;\n"
             "@%%p1 bra W0;\n"
             "bar.sync %s;\n"
             "bra.uni AFTER;\n"
             "W0:\n"
             "bar.sync %s;\n"
             "AFTER:\n"
             "xor.b32 %%r3, %%r1, 32;\n"
             "mul.wide.u32 %%rd5, %%r3, 4;\n"
             "add.s64 %%rd6, %%rd2, %%rd5;\n"
             "ld.global.u32 %%r4, [%%rd6];\n"
             "bar.sync 0;\n"
             "add.s32 %%r5, %%r4, 1;\n"
             "st.global.u32 [%%rd4], %%r5;\n"
             "ret;\n}\n",
             b, a);
}

static void differ(const char *jit, const char *a, const char *b) {
    char ptx[2048], rep[512];
    uint32_t out[64];
    kernel(ptx, sizeof ptx, a, b);
    ptxi_status s = run_io_jit(jit, ptx, 64, NULL, 0, out, sizeof out, rep, sizeof rep, NULL);
    cr_assert_eq(s, PTXI_BARRIER_DEADLOCK, "ids %s and %s (JIT %s): status %d, %s", a, b, jit, s, rep);
    cr_assert(strstr(rep, "barrier 5 deadlock: 32 of 64 threads arrived"), "ids %s and %s (JIT %s): %s", a, b, jit,
              rep);
}

static void same(const char *jit, const char *a, const char *b) {
    char ptx[2048], rep[512];
    uint32_t out[64];
    kernel(ptx, sizeof ptx, a, b);
    cr_assert_eq(run_io_jit(jit, ptx, 64, NULL, 0, out, sizeof out, rep, sizeof rep, NULL), PTXI_SUCCESS,
                 "ids %s and %s (JIT %s): %s", a, b, jit, rep);
    for (uint32_t t = 0; t < 64; t++)
        cr_assert_eq(out[t], (t ^ 32) * 3 + 2, "thread %u: %u (ids %s and %s, JIT %s)", t, out[t], a, b, jit);
}

Test(bar_id, different_immediate_ids_never_release_each_other) {
    differ("1", "5", "6");
    differ("0", "5", "6");
}

Test(bar_id, an_immediate_and_a_register_id_that_differ) {
    differ("1", "5", "%r9");
    differ("1", "%r10", "6");
    differ("0", "%r10", "%r9");
}

Test(bar_id, the_same_id_as_an_immediate_and_as_a_register) {
    same("1", "5", "%r10");
    same("0", "%r10", "5");
    same("1", "6", "6");
}
