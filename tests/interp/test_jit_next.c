/* test_jit_next.c — a warp that ends the kernel in compiled code hands over
 * to the CTA's next warp there (interp/jit_next.h). That happens from the
 * ninth CTA a host thread runs on (the first eight slots start with fresh
 * frames, at the prologue), so each launch here has 40 CTAs: results from C,
 * instruction counts equal with the JIT on and off, and a fault in a later
 * warp of a CTA reported as without the JIT. After a barrier, warps 1-7
 * hand over by a branch to the ret, warp 0 after a loop; warps that wait at
 * a barrier hand over too (jit_bar.h), but not to a partial warp. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../run_kernel.h"

#define NCTA 40
/* Every kernel here takes (out, in, n). */
#define ENTRY(NAME)                                                                                                    \
    ".version 8.0\n.target sm_90\n.address_size 64\n"                                                                  \
    ".visible .entry " NAME "(.param .u64 out, .param .u64 in, .param .u32 n)\n{\n"
#define BLOCK 256

/* out[g] = in[g] * 3 + (lane 5 ? 0 : tid) for g < n: lane 5 skips a body
 * (the run's skipped-record count); past n a warp leaves at once. */
static const char *SRC = ENTRY("k")
                         ".reg .pred %p<3>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n"
                         "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nld.param.u32 %r1, [n];\n"
                         "mov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\nmov.u32 %r4, %tid.x;\n"
                         "mad.lo.s32 %r5, %r2, %r3, %r4;\nsetp.ge.u32 %p1, %r5, %r1;\n@%p1 bra $DONE;\n"
                         "mul.wide.u32 %rd3, %r5, 4;\nadd.s64 %rd4, %rd2, %rd3;\nadd.s64 %rd5, %rd1, %rd3;\n"
                         "ld.global.u32 %r6, [%rd4];\n"
                         "and.b32 %r7, %r4, 31;\nsetp.eq.u32 %p2, %r7, 5;\nmul.lo.u32 %r8, %r6, 3;\n"
                         "@%p2 bra $SKIP;\nadd.s32 %r8, %r8, %r4;\n$SKIP:\n"
                         "st.global.u32 [%rd5], %r8;\n$DONE:\nret;\n}\n";

/* One launch of src's kernel (NCTA x block threads: out, in, n); in holds
 * nin words. */
static ptxi_status launch(const char *src, const char *jit, unsigned block, uint32_t n, const uint32_t *in, size_t nin,
                          uint32_t *out, char *rep, size_t cap, ptxi_launch_stats *st) {
    ptxi_ctx *ctx;
    FILE *quiet;
    ptxi_module *m = load_quiet(src, jit, &ctx, &quiet);
    ptxi_dptr dout, din;
    size_t nout = (size_t)NCTA * block * 4;
    cr_assert_eq(ptxi_mem_alloc(ctx, nout, &dout), PTXI_SUCCESS);
    cr_assert_eq(ptxi_mem_alloc(ctx, nin * 4, &din), PTXI_SUCCESS);
    ptxi_memset_d8(ctx, dout, 0, nout);
    ptxi_memcpy_htod(ctx, din, in, nin * 4);
    void *args[] = {&dout, &din, &n};
    ptxi_status s = ptxi_launch(ptxi_module_kernel_at(m, 0), (ptxi_dim3){NCTA, 1, 1}, (ptxi_dim3){block, 1, 1}, 0, NULL,
                                args);
    if (s == PTXI_SUCCESS) s = ptxi_ctx_synchronize(ctx);
    snprintf(rep, cap, "%s", ptxi_ctx_error_detail(ctx));
    if (s == PTXI_SUCCESS) ptxi_memcpy_dtoh(ctx, out, dout, nout);
    if (st) cr_assert_eq(ptxi_ctx_last_launch_stats(ctx, st), PTXI_SUCCESS);
    ptxi_ctx_destroy(ctx);
    fclose(quiet);
    return s;
}

/* launch with the JIT on and off: the words (total = NCTA x block) as in
 * want, the counts alike. */
static void run_both(const char *src, unsigned block, uint32_t n, const uint32_t *in, size_t nin, uint32_t *const got[2],
                     const uint32_t *want, const char *what) {
    ptxi_launch_stats st[2];
    for (int m = 0; m < 2; m++) {
        char rep[1024];
        ptxi_status r = launch(src, m ? "0" : "1", block, n, in, nin, got[m], rep, sizeof rep, &st[m]);
        cr_assert_eq(r, PTXI_SUCCESS, "%s, PTXI_JIT=%d: %s", what, !m, rep);
    }
    same_on_and_off(got, want, (size_t)NCTA * block, st, what);
}

/* Whole CTAs, a last CTA whose last warps leave at once or split, and
 * 48-thread CTAs (a warp of 16 lanes: the masked version, no hand-over). */
Test(jit_next, warps_that_hand_over_count_and_compute_as_without_the_jit) {
    static const struct {
        unsigned block;
        uint32_t n;
    } cases[] = {{BLOCK, NCTA * BLOCK}, {BLOCK, NCTA * BLOCK - 77}, {48, NCTA * 48 - 5}};
    static uint32_t in[NCTA * BLOCK], want[NCTA * BLOCK], got0[NCTA * BLOCK], got1[NCTA * BLOCK];
    uint32_t *got[2] = {got0, got1};
    xorshift_words(in, NCTA * BLOCK, 88172645u);
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        unsigned block = cases[c].block;
        uint32_t n = cases[c].n, total = NCTA * block;
        memset(want, 0, sizeof want);
        for (uint32_t g = 0; g < n; g++) {
            uint32_t t = g % block;
            want[g] = in[g] * 3 + (t % 32 == 5 ? 0 : t);
        }
        char what[32];
        snprintf(what, sizeof what, "case %zu", c);
        run_both(SRC, block, n, in, total, got, want, what);
    }
}

/* The input ends at word FIRST (a whole number of the arena's 256-byte
 * granules), the start of warp 2 of CTA 30: a warp that a hand-over started
 * faults there, named as without the JIT. */
#define FIRST (30 * BLOCK + 64)

Test(jit_next, a_fault_in_a_warp_handed_over_to) {
    static uint32_t in[FIRST], out[NCTA * BLOCK];
    char rep[2][2048];
    for (int m = 0; m < 2; m++) {
        ptxi_status r = launch(SRC, m ? "0" : "1", BLOCK, NCTA * BLOCK, in, FIRST, out, rep[m], sizeof rep[m], NULL);
        cr_assert_eq(r, PTXI_ILLEGAL_ADDRESS, "PTXI_JIT=%d: %s", !m, rep[m]);
    }
    cr_assert(strstr(rep[0], "block (30,0,0)") && strstr(rep[0], "thread (64,0,0)"), "the first bad lane: %s", rep[0]);
    cr_assert_str_eq(rep[0], rep[1], "with and without the JIT");
}

/* Each CTA's 256 words go through shared memory; after the barrier warp 0
 * sums the eight warps' words lane by lane in a loop and stores the 32 sums
 * (out[cta * 256 + lane]); the other warps branch to the ret. */
static const char *SUMS = ENTRY("r")
                          ".reg .pred %p<4>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<10>;\n"
                          ".shared .align 4 .b32 sh[256];\n"
                          "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
                          "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmad.lo.s32 %r3, %r2, 256, %r1;\n"
                          "mul.wide.u32 %rd3, %r3, 4;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.u32 %r4, [%rd4];\n"
                          "mov.u32 %r5, sh;\nshl.b32 %r6, %r1, 2;\nadd.s32 %r7, %r5, %r6;\nst.shared.u32 [%r7], %r4;\n"
                          "bar.sync 0;\n"
                          "shr.u32 %r8, %r1, 5;\nsetp.ne.u32 %p1, %r8, 0;\n@%p1 bra $DONE;\n"
                          "mov.u32 %r9, 0;\nmov.u32 %r10, 0;\nmov.u32 %r11, %r7;\n"
                          "$LOOP:\nld.shared.u32 %r12, [%r11];\nadd.s32 %r9, %r9, %r12;\nadd.s32 %r11, %r11, 128;\n"
                          "add.s32 %r10, %r10, 1;\nsetp.lt.u32 %p2, %r10, 8;\n@%p2 bra $LOOP;\n"
                          "mul.wide.u32 %rd5, %r3, 4;\nadd.s64 %rd6, %rd1, %rd5;\nst.global.u32 [%rd6], %r9;\n"
                          "$DONE:\nret;\n}\n";

Test(jit_next, warps_that_end_after_a_barrier_by_a_branch_to_the_ret) {
    static uint32_t in[NCTA * BLOCK], want[NCTA * BLOCK], got0[NCTA * BLOCK], got1[NCTA * BLOCK];
    uint32_t *got[2] = {got0, got1};
    xorshift_words(in, NCTA * BLOCK, 2654435769u);
    memset(want, 0, sizeof want);
    for (uint32_t c = 0; c < NCTA; c++)
        for (uint32_t l = 0; l < 32; l++)
            for (uint32_t w = 0; w < BLOCK / 32; w++) want[c * BLOCK + l] += in[c * BLOCK + w * 32 + l];
    run_both(SUMS, BLOCK, 0, in, NCTA * BLOCK, got, want, "sums");
}

/* Barriers in CTAs of 240 threads (a last warp of 16 lanes, which no warp
 * hands over to): each thread stores its word to shared memory, and after
 * the barrier reads the one 32 threads on (mod 240), then a second barrier
 * before its store: out[g] = in[cta * 240 + (tid + 32) % 240]. */
static const char *ROTATE = ENTRY("r")
                            ".reg .b32 %r<20>;\n.reg .b64 %rd<10>;\n"
                            ".shared .align 4 .b32 sh[240];\n"
                            "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
                            "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmad.lo.s32 %r3, %r2, 240, %r1;\n"
                            "mul.wide.u32 %rd3, %r3, 4;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.u32 %r4, [%rd4];\n"
                            "mov.u32 %r5, sh;\nshl.b32 %r6, %r1, 2;\nadd.s32 %r7, %r5, %r6;\nst.shared.u32 [%r7], %r4;\n"
                            "bar.sync 0;\n"
                            "add.s32 %r8, %r1, 32;\nrem.u32 %r9, %r8, 240;\nshl.b32 %r10, %r9, 2;\n"
                            "add.s32 %r11, %r5, %r10;\nld.shared.u32 %r12, [%r11];\n"
                            "bar.sync 0;\n"
                            "add.s64 %rd5, %rd1, %rd3;\nst.global.u32 [%rd5], %r12;\nret;\n}\n";

Test(jit_next, barriers_with_a_partial_last_warp) {
    enum { B = 240 };
    static uint32_t in[NCTA * B], want[NCTA * B], got0[NCTA * BLOCK], got1[NCTA * BLOCK];
    uint32_t *got[2] = {got0, got1};
    xorshift_words(in, NCTA * B, 362436069u);
    for (uint32_t c = 0; c < NCTA; c++)
        for (uint32_t t = 0; t < B; t++) want[c * B + t] = in[c * B + (t + 32) % B];
    run_both(ROTATE, B, 0, in, NCTA * B, got, want, "rotate");
}

/* Warps that go round a loop hand over too: each thread adds (i ^ g) * 3
 * for i < n (n = 700: the eight warps of a CTA together go round past the
 * 4096-branch time slice, so the warps share it as in exec.c and yield). */
static const char *ROUNDS = ENTRY("r")
                            ".reg .pred %p<3>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<10>;\n"
                            "ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [n];\n"
                            "mov.u32 %r2, %tid.x;\nmov.u32 %r3, %ctaid.x;\nmov.u32 %r4, %ntid.x;\n"
                            "mad.lo.s32 %r5, %r3, %r4, %r2;\nmov.u32 %r6, 0;\nmov.u32 %r7, 0;\n"
                            "$LOOP:\nxor.b32 %r8, %r7, %r5;\nmad.lo.s32 %r6, %r8, 3, %r6;\nadd.s32 %r7, %r7, 1;\n"
                            "setp.lt.u32 %p1, %r7, %r1;\n@%p1 bra $LOOP;\n"
                            "mul.wide.u32 %rd2, %r5, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r6;\nret;\n}\n";

Test(jit_next, warps_that_went_round_a_loop_hand_over_and_share_the_slice) {
    enum { ROUNDS_N = 700 };
    static uint32_t in[1], want[NCTA * BLOCK], got0[NCTA * BLOCK], got1[NCTA * BLOCK];
    uint32_t *got[2] = {got0, got1};
    for (uint32_t g = 0; g < NCTA * BLOCK; g++) {
        uint32_t acc = 0;
        for (uint32_t i = 0; i < ROUNDS_N; i++) acc += (i ^ g) * 3;
        want[g] = acc;
    }
    run_both(ROUNDS, BLOCK, ROUNDS_N, in, 1, got, want, "rounds");
}

/* A warp that finishes hands its frame to the next warp only when that one
 * has not run yet (sched.c vm_pass_frame, jit_next.h pass_frame). Here the
 * loop starts right after the launch-invariant prologue, so a warp that
 * used up its time slice waits at the very record a fresh warp starts at:
 * only its count tells the two apart. Each thread goes round n = 5000 times
 * (past the 4096-branch slice, so warp 1 has run and waits there when warp 0
 * finishes), keeping the count in memory and the sum of its global index,
 * n * g, in a register from round to round. */
static const char *YIELDS = ENTRY("y")
                            ".reg .pred %p<3>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<6>;\n"
                            "ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [n];\n"
                            "$LOOP:\nmov.u32 %r2, %tid.x;\nmov.u32 %r3, %ctaid.x;\nmov.u32 %r4, %ntid.x;\n"
                            "mad.lo.s32 %r5, %r3, %r4, %r2;\nmul.wide.u32 %rd2, %r5, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
                            "ld.global.u32 %r6, [%rd3];\nsetp.eq.u32 %p2, %r6, 0;\nselp.b32 %r9, 0, %r9, %p2;\n"
                            "add.s32 %r9, %r9, %r5;\nadd.s32 %r6, %r6, 1;\nst.global.u32 [%rd3], %r6;\n"
                            "setp.lt.u32 %p1, %r6, %r1;\n@%p1 bra $LOOP;\nxor.b32 %r10, %r9, 0;\nst.global.u32 [%rd3], %r10;\nret;\n}\n";

Test(jit_next, a_warp_waiting_where_a_fresh_one_starts_keeps_its_frame) {
    enum { B = 64, N_ROUNDS = 5000 };
    static uint32_t in[1], want[NCTA * B], got0[NCTA * B], got1[NCTA * B];
    uint32_t *got[2] = {got0, got1};
    for (uint32_t g = 0; g < NCTA * B; g++) want[g] = N_ROUNDS * g;
    run_both(YIELDS, B, N_ROUNDS, in, 1, got, want, "yields");
}

/* A CTA whose last warp leaves after all the others is followed, in its
 * slot, by its host thread's next CTA, into whose first warp that warp's
 * code goes on (sched.c vm_next_cta; compiled: jit_bar.h run_next_cta, when
 * the first warp is whole). Each thread stores its CTA's coordinates and
 * its tid; every thread runs the same 16 instructions, the ret included, so
 * the counts are 16 per thread and 16 per warp (a partial warp counts as
 * one). Whole and partial warps, a 2-D grid, one and three host threads. */
static const char *COORDS = ".version 8.0\n.target sm_90\n.address_size 64\n"
                            ".visible .entry c(.param .u64 out)\n{\n"
                            ".reg .b32 %r<12>;\n.reg .b64 %rd<4>;\n"
                            "ld.param.u64 %rd1, [out];\n"
                            "mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %ctaid.y;\nmov.u32 %r3, %tid.x;\n"
                            "mov.u32 %r4, %nctaid.x;\nmad.lo.s32 %r5, %r2, %r4, %r1;\n"
                            "mov.u32 %r6, %ntid.x;\nmad.lo.s32 %r7, %r5, %r6, %r3;\n"
                            "shl.b32 %r8, %r1, 16;\nshl.b32 %r9, %r2, 12;\nadd.s32 %r10, %r8, %r9;\n"
                            "add.s32 %r10, %r10, %r3;\n"
                            "mul.wide.u32 %rd2, %r7, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r10;\n"
                            "ret;\n}\n";

Test(jit_next, ctas_follow_one_another_in_their_slot) {
    static const struct {
        unsigned gx, gy, block, threads;
    } cases[] = {{13, 7, 256, 1}, {13, 7, 256, 3}, {50, 3, 48, 1}, {90, 2, 16, 1}, {90, 2, 16, 3}, {200, 1, 32, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        unsigned gx = cases[c].gx, gy = cases[c].gy, nb = cases[c].block;
        size_t n = (size_t)gx * gy * nb;
        uint32_t *got = malloc(n * 4);
        for (int m = 0; m < 2; m++) {
            setenv("PTXI_JIT", m ? "0" : "1", 1);
            ptxi_ctx *ctx;
            ptxi_module *mod;
            ptxi_dptr d;
            cr_assert_eq(ptxi_ctx_create(&ctx, &(ptxi_ctx_options){.threads = cases[c].threads}), PTXI_SUCCESS);
            cr_assert_eq(ptxi_module_load_data(ctx, COORDS, strlen(COORDS), "c.ptx", &mod), PTXI_SUCCESS);
            unsetenv("PTXI_JIT");
            cr_assert_eq(ptxi_mem_alloc(ctx, n * 4, &d), PTXI_SUCCESS);
            ptxi_memset_d8(ctx, d, 0, n * 4);
            void *args[] = {&d};
            cr_assert_eq(ptxi_launch(ptxi_module_kernel_at(mod, 0), (ptxi_dim3){gx, gy, 1}, (ptxi_dim3){nb, 1, 1}, 0,
                                     NULL, args),
                         PTXI_SUCCESS);
            cr_assert_eq(ptxi_ctx_synchronize(ctx), PTXI_SUCCESS, "%s", ptxi_ctx_error_detail(ctx));
            ptxi_memcpy_dtoh(ctx, got, d, n * 4);
            ptxi_launch_stats st;
            cr_assert_eq(ptxi_ctx_last_launch_stats(ctx, &st), PTXI_SUCCESS);
            ptxi_ctx_destroy(ctx);
            for (unsigned y = 0; y < gy; y++)
                for (unsigned x = 0; x < gx; x++)
                    for (unsigned t = 0; t < nb; t++) {
                        size_t k = ((size_t)y * gx + x) * nb + t;
                        cr_assert_eq(got[k], x << 16 | y << 12 | t,
                                     "case %zu, PTXI_JIT=%d: CTA (%u,%u) thread %u: 0x%x", c, m == 0, x, y, t, got[k]);
                    }
            uint64_t warps = (uint64_t)gx * gy * ((nb + 31) / 32);
            cr_assert_eq(st.thread_insns, 16 * (uint64_t)n, "case %zu, PTXI_JIT=%d", c, m == 0);
            cr_assert_eq(st.warp_insns, 16 * warps, "case %zu, PTXI_JIT=%d", c, m == 0);
        }
        free(got);
    }
}
