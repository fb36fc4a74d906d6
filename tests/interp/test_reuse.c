/* test_reuse.c — a warp's entry frame is reused by every CTA a host thread
 * runs in a launch (interp/sched.c): what a CTA finds in it must be what a
 * fresh frame holds. Predicates start false and the carry flag clear, so a
 * predicate or carry that one CTA leaves set must not show in the next.
 *
 * The kernel reads, in each thread:
 *  - the carry flag before any instruction sets it (addc 0 + 0);
 *  - %p20, written (true) only by the lanes whose (tid + ctaid) % 4 == 1,
 *    under a guard: different lanes in consecutive CTAs;
 *  - %p36, written (true) only on a branch that warps whose (warp + ctaid)
 *    is odd take: the same warp slot writes it in every other CTA;
 *  - %p3, read by a loop's first round before the loop sets it (true):
 *    the loop adds 1 while %p3 holds, so a thread counts 1, not 2;
 *  - %p4, written before every read (setp on every path).
 * Each CTA then sets the carry (add.cc of all ones plus 1) and %p3, %p20,
 * %p36 true in every lane, so a frame that kept them would read them in its
 * next CTA. The three are on three different 64-byte lines of the frame
 * (4 bytes each after the all-ones slot), which are reset separately.
 * Expected values follow from these rules, in C. Many CTAs of a
 * partial last warp, one and two host threads, JIT on and off. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "ptxi.h"

/* The kernels' start: %rd2 the output, %r1 tid, %r2 ctaid, %r3 ntid, %r4 the
 * global thread number; %p<NPRED>. */
#define ENTRY(NPRED)                                                    \
    ".visible .entry k(.param .u64 o)\n{\n"                             \
    ".reg .pred %p<" NPRED ">;\n.reg .b32 %r<24>;\n.reg .b64 %rd<8>;\n" \
    "ld.param.u64 %rd1, [o];\n"                                         \
    "cvta.to.global.u64 %rd2, %rd1;\n"                                  \
    "mov.u32 %r1, %tid.x;\n"                                            \
    "mov.u32 %r2, %ctaid.x;\n"                                          \
    "mov.u32 %r3, %ntid.x;\n"                                           \
    "mad.lo.s32 %r4, %r2, %r3, %r1;\n"

static const char ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n" ENTRY(
    "40") "addc.u32 %r5, 0, 0;\n" /* the carry a fresh frame holds */
          "add.s32 %r6, %r1, %r2;\n"
          "and.b32 %r7, %r6, 3;\n"
          "setp.eq.u32 %p5, %r7, 1;\n"
          "@%p5 setp.ne.u32 %p20, %r3, 0;\n" /* true, in some lanes only */
          "shr.u32 %r8, %r1, 5;\n"
          "add.s32 %r9, %r8, %r2;\n"
          "and.b32 %r10, %r9, 1;\n"
          "setp.eq.u32 %p6, %r10, 0;\n"
          "@%p6 bra SKIP;\n"
          "setp.ne.u32 %p36, %r3, 0;\n" /* true, on the odd warps' path only */
          "SKIP:\n"
          "mov.u32 %r11, 0;\n"
          "mov.u32 %r12, 0;\n"
          "LOOP:\n"
          "@%p3 add.s32 %r11, %r11, 1;\n" /* round 0: %p3 never written yet */
          "setp.ne.u32 %p3, %r3, 0;\n"
          "add.s32 %r12, %r12, 1;\n"
          "setp.lt.u32 %p7, %r12, 2;\n"
          "@%p7 bra LOOP;\n"
          "setp.gt.u32 %p4, %r1, 40;\n"
          "selp.u32 %r13, 2, 0, %p20;\n"
          "selp.u32 %r14, 4, 0, %p36;\n"
          "selp.u32 %r15, 8, 0, %p4;\n"
          "shl.b32 %r16, %r11, 4;\n"
          "or.b32 %r17, %r5, %r13;\n"
          "or.b32 %r17, %r17, %r14;\n"
          "or.b32 %r17, %r17, %r15;\n"
          "or.b32 %r17, %r17, %r16;\n"
          /* leave the carry and %p20, %p36 set in every lane */
          "add.cc.u32 %r18, %r3, -1;\n"
          "setp.ne.u32 %p20, %r3, 0;\n"
          "setp.ne.u32 %p36, %r3, 0;\n"
          "mul.wide.u32 %rd3, %r4, 4;\n"
          "add.s64 %rd4, %rd2, %rd3;\n"
          "st.global.u32 [%rd4], %r17;\n"
          "ret;\n}\n";
enum { BLOCK = 80, GRID = 64, N = BLOCK * GRID };

static void run(unsigned threads, const char *jit) {
    setenv("PTXI_JIT", jit, 1);
    ptxi_ctx *ctx;
    cr_assert_eq(ptxi_ctx_create(&ctx, &(ptxi_ctx_options){.threads = threads}), PTXI_SUCCESS);
    ptxi_module *m;
    cr_assert_eq(ptxi_module_load_data(ctx, ptx, strlen(ptx), "reuse.ptx", &m), PTXI_SUCCESS, "%s",
                 ptxi_ctx_error_detail(ctx));
    unsetenv("PTXI_JIT");
    ptxi_dptr d;
    cr_assert_eq(ptxi_mem_alloc(ctx, N * 4, &d), PTXI_SUCCESS);
    static uint32_t out[N];
    for (int launch = 0; launch < 2; launch++) { /* the second launch's frames are new again */
        ptxi_memset_d8(ctx, d, 0xee, N * 4);
        void *params[] = {&d};
        cr_assert_eq(ptxi_launch(ptxi_module_kernel_at(m, 0), (ptxi_dim3){GRID, 1, 1}, (ptxi_dim3){BLOCK, 1, 1}, 0,
                                 NULL, params),
                     PTXI_SUCCESS);
        cr_assert_eq(ptxi_ctx_synchronize(ctx), PTXI_SUCCESS, "%s", ptxi_ctx_error_detail(ctx));
        cr_assert_eq(ptxi_memcpy_dtoh(ctx, out, d, N * 4), PTXI_SUCCESS);
        for (uint32_t c = 0; c < GRID; c++)
            for (uint32_t t = 0; t < BLOCK; t++) {
                uint32_t carry = 0, p1 = (t + c) % 4 == 1, p2 = (t / 32 + c) % 2 == 1, p4 = t > 40, count = 1;
                uint32_t want = carry | p1 << 1 | p2 << 2 | p4 << 3 | count << 4;
                cr_assert_eq(out[c * BLOCK + t], want, "CTA %u thread %u: 0x%x, want 0x%x (threads %u, JIT %s)", c, t,
                             out[c * BLOCK + t], want, threads, jit);
            }
    }
    ptxi_ctx_destroy(ctx);
}

/* A warp's first call moves its frames from the warp (frame0) to an array:
 * odd CTAs call f (two levels deep) for out[gid] = (tid + 7) * 2 + ctaid;
 * even ones compute it inline; the entry frame, moved mid-launch, keeps
 * its registers and parameters for the rest of that CTA and the next. */
static const char calls_ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                                ".func (.param .b32 gr) g(.param .b32 ga)\n{\n.reg .b32 %a<3>;\n"
                                "ld.param.b32 %a1, [ga];\nshl.b32 %a2, %a1, 1;\nst.param.b32 [gr], %a2;\nret;\n}\n"
                                ".func (.param .b32 fr) f(.param .b32 fa)\n{\n.reg .b32 %b<4>;\n"
                                "ld.param.b32 %b1, [fa];\nadd.s32 %b2, %b1, 7;\n"
                                "{\n.param .b32 p0;\nst.param.b32 [p0], %b2;\n.param .b32 rv;\n"
                                "call (rv), g, (p0);\nld.param.b32 %b3, [rv];\n}\n"
                                "st.param.b32 [fr], %b3;\nret;\n}\n" ENTRY(
                                    "2") "and.b32 %r5, %r2, 1;\n"
                                         "setp.eq.u32 %p1, %r5, 0;\n"
                                         "@%p1 bra EVEN;\n"
                                         "{\n.param .b32 q0;\nst.param.b32 [q0], %r1;\n.param .b32 rw;\n"
                                         "call (rw), f, (q0);\nld.param.b32 %r6, [rw];\n}\n"
                                         "bra.uni DONE;\n"
                                         "EVEN:\n"
                                         "add.s32 %r7, %r1, 7;\n"
                                         "shl.b32 %r6, %r7, 1;\n"
                                         "DONE:\n"
                                         "add.s32 %r8, %r6, %r2;\n"
                                         "mul.wide.u32 %rd3, %r4, 4;\n"
                                         "add.s64 %rd4, %rd2, %rd3;\n"
                                         "st.global.u32 [%rd4], %r8;\n"
                                         "ret;\n}\n";

/* One launch of src's kernel (GRID x BLOCK threads; its output, filled with
 * 0xee first) on `threads` host threads; the N output words to out. */
static void run_grid(const char *src, unsigned threads, uint32_t *out) {
    ptxi_ctx *ctx;
    cr_assert_eq(ptxi_ctx_create(&ctx, &(ptxi_ctx_options){.threads = threads}), PTXI_SUCCESS);
    ptxi_module *m;
    cr_assert_eq(ptxi_module_load_data(ctx, src, strlen(src), "g.ptx", &m), PTXI_SUCCESS, "%s",
                 ptxi_ctx_error_detail(ctx));
    ptxi_dptr d;
    cr_assert_eq(ptxi_mem_alloc(ctx, N * 4, &d), PTXI_SUCCESS);
    ptxi_memset_d8(ctx, d, 0xee, N * 4);
    void *params[] = {&d};
    cr_assert_eq(
        ptxi_launch(ptxi_module_kernel_at(m, 0), (ptxi_dim3){GRID, 1, 1}, (ptxi_dim3){BLOCK, 1, 1}, 0, NULL, params),
        PTXI_SUCCESS);
    cr_assert_eq(ptxi_ctx_synchronize(ctx), PTXI_SUCCESS, "%s", ptxi_ctx_error_detail(ctx));
    cr_assert_eq(ptxi_memcpy_dtoh(ctx, out, d, N * 4), PTXI_SUCCESS);
    ptxi_ctx_destroy(ctx);
}

static void run_calls(unsigned threads) {
    static uint32_t out[N];
    run_grid(calls_ptx, threads, out);
    for (uint32_t c = 0; c < GRID; c++)
        for (uint32_t t = 0; t < BLOCK; t++)
            cr_assert_eq(out[c * BLOCK + t], (t + 7) * 2 + c, "CTA %u thread %u: %u (threads %u)", c, t,
                         out[c * BLOCK + t], threads);
}

Test(reuse, a_first_call_moves_the_frames_out_of_the_warp) {
    run_calls(1);
    run_calls(2);
}

Test(reuse, a_frame_reused_by_the_next_cta_reads_as_fresh) { run(1, "1"); }
Test(reuse, a_frame_reused_by_the_next_cta_reads_as_fresh_without_the_jit) { run(1, "0"); }
Test(reuse, a_frame_reused_by_the_next_cta_reads_as_fresh_on_two_host_threads) { run(2, "1"); }

/* A reused frame's lanes start with the stack pointer a fresh one has: each
 * thread of every CTA allocas 600 bytes of its 1024-byte stack, stores
 * ctaid + tid there and reads it back. Were the pointer left where the
 * previous CTA's alloca put it, the slot's next CTA would overflow. */
static const char alloca_ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n" ENTRY(
    "2") "mov.u64 %rd5, 600;\n"
         "alloca.u64 %rd6, %rd5, 16;\n"
         "add.s32 %r5, %r2, %r1;\n"
         "st.local.u32 [%rd6+596], %r5;\n"
         "ld.local.u32 %r6, [%rd6+596];\n"
         "mul.wide.u32 %rd3, %r4, 4;\n"
         "add.s64 %rd4, %rd2, %rd3;\n"
         "st.global.u32 [%rd4], %r6;\n"
         "ret;\n}\n";

Test(reuse, a_reused_frame_starts_with_an_empty_stack) {
    static uint32_t out[N];
    run_grid(alloca_ptx, 1, out);
    for (uint32_t c = 0; c < GRID; c++)
        for (uint32_t t = 0; t < BLOCK; t++)
            cr_assert_eq(out[c * BLOCK + t], c + t, "CTA %u thread %u: %u", c, t, out[c * BLOCK + t]);
}
