/* test_mbarrier.c — mbarrier state transitions (phase, pending count,
 * expected count, transaction count, tokens and parity), cp.async zero-fill
 * and bulk copies, and every misuse error, through small hand-written PTX
 * kernels run by the public API. Expected values follow the PTX ISA's
 * definition of each operation. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ptxi.h"

#define NOUT 32

/* Runs `body` as kernel k(.param .u64 out) in one block of `threads`
 * threads, with two 8-byte barriers `bar`, `bar2` and a 256-byte buffer `buf`
 * in shared memory and a 256-byte global array `src` holding 0, 1, 2, ... .
 * Fills out[] (NOUT u64, zeroed first) and *detail; returns the launch status. */
static ptxi_status run(const char *body, unsigned threads, uint64_t *out, char *detail, size_t dlen) {
    static char ptx[16384];
    snprintf(ptx, sizeof ptx,
             ".version 8.0\n.target sm_90\n.address_size 64\n"
             ".shared .align 8 .b64 bar;\n.shared .align 8 .b64 bar2;\n.shared .align 16 .b8 buf[256];\n"
             ".global .align 16 .b8 src[256];\n"
             ".visible .entry k(.param .u64 out)\n{\n"
             ".reg .b64 %%rd<40>;\n.reg .b32 %%r<40>;\n.reg .b16 %%rs<8>;\n.reg .pred %%p<16>;\n"
             "ld.param.u64 %%rd0, [out];\n"
             "mov.u32 %%r0, %%tid.x;\n"
             "mov.u32 %%r1, bar;\nmov.u32 %%r2, bar2;\nmov.u32 %%r3, buf;\n"
             "%s\nret;\n}\n",
             body);
    ptxi_ctx_options opt = {.threads = 1, .timeout_s = 20};
    ptxi_ctx *ctx;
    ptxi_module *mod;
    ptxi_kernel *k;
    cr_assert_eq(ptxi_ctx_create(&ctx, &opt), PTXI_SUCCESS);
    ptxi_status st = ptxi_module_load_data(ctx, ptx, strlen(ptx), "mbarrier.ptx", &mod);
    cr_assert_eq(st, PTXI_SUCCESS, "load: %s", ptxi_ctx_error_detail(ctx));
    cr_assert_eq(ptxi_module_get_kernel(mod, "k", &k), PTXI_SUCCESS);
    uint8_t init[256];
    for (int i = 0; i < 256; i++) init[i] = (uint8_t)i;
    cr_assert_eq(ptxi_memcpy_to_symbol(mod, "src", 0, init, sizeof init), PTXI_SUCCESS);
    ptxi_dptr d;
    cr_assert_eq(ptxi_mem_alloc(ctx, NOUT * 8, &d), PTXI_SUCCESS);
    cr_assert_eq(ptxi_memset_d8(ctx, d, 0, NOUT * 8), PTXI_SUCCESS);
    void *args[] = {&d};
    st = ptxi_launch(k, (ptxi_dim3){1, 1, 1}, (ptxi_dim3){threads, 1, 1}, 0, NULL, args);
    if (st == PTXI_SUCCESS) st = ptxi_ctx_synchronize(ctx);
    if (detail) snprintf(detail, dlen, "%s", ptxi_ctx_error_detail(ctx));
    if (st == PTXI_SUCCESS) cr_assert_eq(ptxi_memcpy_dtoh(ctx, out, d, NOUT * 8), PTXI_SUCCESS);
    ptxi_ctx_destroy(ctx);
    return st;
}

/* Stores predicate P as 0/1 into out[N]. */
#define PUT(P, N) "selp.u64 %rd30, 1, 0, " P ";\nst.global.u64 [%rd0+" #N "*8], %rd30;\n"
/* Stores the 32-bit register R into out[N]. */
#define PUT32(R, N) "cvt.u64.u32 %rd30, " R ";\nst.global.u64 [%rd0+" #N "*8], %rd30;\n"

static void expect_ok(const char *body, unsigned threads, uint64_t *out) {
    char detail[2048];
    ptxi_status st = run(body, threads, out, detail, sizeof detail);
    cr_assert_eq(st, PTXI_SUCCESS, "%s: %s", ptxi_error_name(st), detail);
}

static void expect_fault(const char *body, unsigned threads, ptxi_status want, const char *words) {
    char detail[2048];
    uint64_t out[NOUT];
    ptxi_status st = run(body, threads, out, detail, sizeof detail);
    cr_expect_eq(st, want, "got %s: %s", ptxi_error_name(st), detail);
    cr_expect(strstr(detail, words) != NULL, "'%s' not in: %s", words, detail);
}

/* ---- state transitions ---- */

Test(mbarrier, arrivals_count_down_to_phase_completion) {
    uint64_t out[NOUT];
    expect_ok(
        "mbarrier.init.shared.b64 [%r1], 2;\n"
        "mbarrier.arrive.shared.b64 %rd1, [%r1];\n"
        "mbarrier.test_wait.shared.b64 %p1, [%r1], %rd1;\n" PUT(
            "%p1",
            0) "mbarrier.arrive.shared.b64 %rd2, [%r1];\n"
               "mbarrier.test_wait.shared.b64 %p2, [%r1], %rd1;\n" PUT(
                   "%p2",
                   1) "mbarrier.test_wait.shared.b64 %p3, [%r1], %rd2;\n" PUT("%p3",
                                                                              2) "mbarrier.pending_count.b64 %r10, "
                                                                                 "%rd1;\n" PUT32("%r10",
                                                                                                 3) "mbarrier.pending_"
                                                                                                    "count.b64 %r11, "
                                                                                                    "%rd2;\n" PUT32("%r"
                                                                                                                    "1"
                                                                                                                    "1",
                                                                                                                    4)
        /* the next phase expects 2 again */
        "mbarrier.arrive.shared.b64 %rd3, [%r1];\n"
        "mbarrier.test_wait.shared.b64 %p4, [%r1], %rd3;\n" PUT("%p4", 5),
        1, out);
    cr_expect_eq(out[0], 0, "1 of 2 arrivals: the phase is not complete");
    cr_expect_eq(out[1], 1, "2 of 2 arrivals complete the phase");
    cr_expect_eq(out[2], 1);
    cr_expect_eq(out[3], 2, "the state before the first arrival had 2 pending");
    cr_expect_eq(out[4], 1);
    cr_expect_eq(out[5], 0, "the next phase starts with the expected count");
}

Test(mbarrier, arrive_with_a_count) {
    uint64_t out[NOUT];
    expect_ok("mov.u32 %r5, 3;\n"
              "mbarrier.init.shared::cta.b64 [%r1], 5;\n"
              "mbarrier.arrive.release.cta.shared::cta.b64 %rd1, [%r1], %r5;\n"
              "mbarrier.test_wait.shared::cta.b64 %p1, [%r1], %rd1;\n" PUT(
                  "%p1", 0) "mbarrier.arrive.shared::cta.b64 %rd2, [%r1], 2;\n"
                            "mbarrier.test_wait.acquire.cta.shared::cta.b64 %p2, [%r1], %rd1;\n" PUT(
                                "%p2", 1) "mbarrier.pending_count.b64 %r10, %rd2;\n" PUT32("%r10", 2),
              1, out);
    cr_expect_eq(out[0], 0);
    cr_expect_eq(out[1], 1);
    cr_expect_eq(out[2], 2);
}

Test(mbarrier, phase_parity) {
    uint64_t out[NOUT];
    expect_ok(
        "mbarrier.init.shared.b64 [%r1], 1;\n"
        "mbarrier.test_wait.parity.shared.b64 %p1, [%r1], 0;\n" PUT(
            "%p1",
            0) "mbarrier.arrive.shared.b64 %rd1, [%r1];\n" /* phase 0 completes */
               "mbarrier.test_wait.parity.shared.b64 %p2, [%r1], 0;\n" PUT(
                   "%p2",
                   1) "mbarrier.try_wait.parity.shared.b64 %p3, [%r1], 1;\n" PUT("%p3",
                                                                                 2) "mbarrier.arrive.shared.b64 %rd2, "
                                                                                    "[%r1];\n" /* phase 1 completes */
                                                                                    "mov.u32 %r6, 1;\n"
                                                                                    "mbarrier.try_wait.parity.acquire."
                                                                                    "cta.shared::cta.b64 %p4, [%r1], "
                                                                                    "%r6, 1000;\n" PUT(
                                                                                        "%p4",
                                                                                        3) "mbarrier.test_wait.parity."
                                                                                           "shared.b64 %p5, [%r1], "
                                                                                           "0;\n" PUT("%p5", 4),
        1, out);
    cr_expect_eq(out[0], 0, "phase 0 (parity 0) not complete yet");
    cr_expect_eq(out[1], 1, "phase 0 complete");
    cr_expect_eq(out[2], 0, "phase 1 (parity 1) is current");
    cr_expect_eq(out[3], 1, "phase 1 complete");
    cr_expect_eq(out[4], 0, "parity 0 now names the current phase 2");
}

Test(mbarrier, transaction_count) {
    uint64_t out[NOUT];
    expect_ok("mbarrier.init.shared.b64 [%r1], 1;\n"
              "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r1], 64;\n"
              "mbarrier.arrive.shared.b64 %rd1, [%r1];\n"
              "mbarrier.test_wait.shared.b64 %p1, [%r1], %rd1;\n" PUT(
                  "%p1", 0) "mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r1], 32;\n"
                            "mbarrier.test_wait.shared.b64 %p2, [%r1], %rd1;\n" PUT(
                                "%p2", 1) "mbarrier.complete_tx.shared::cta.b64 [%r1], 32;\n"
                                          "mbarrier.test_wait.shared.b64 %p3, [%r1], %rd1;\n" PUT("%p3", 2)
              /* arrive.expect_tx: the transactions are expected before the arrival counts */
              "mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [%r1], 16;\n"
              "mbarrier.test_wait.shared.b64 %p4, [%r1], %rd2;\n" PUT(
                  "%p4", 3) "mbarrier.complete_tx.shared::cta.b64 [%r1], 16;\n"
                            "mbarrier.test_wait.shared.b64 %p5, [%r1], %rd2;\n" PUT("%p5", 4)
              /* complete_tx may come first: the count goes negative, then back to zero */
              "mbarrier.complete_tx.shared::cta.b64 [%r1], 48;\n"
              "mbarrier.arrive.expect_tx.shared::cta.b64 %rd3, [%r1], 48;\n"
              "mbarrier.test_wait.shared.b64 %p6, [%r1], %rd3;\n" PUT("%p6", 5),
              1, out);
    cr_expect_eq(out[0], 0, "arrivals done, 64 bytes outstanding");
    cr_expect_eq(out[1], 0, "32 bytes outstanding");
    cr_expect_eq(out[2], 1, "all transactions done");
    cr_expect_eq(out[3], 0);
    cr_expect_eq(out[4], 1);
    cr_expect_eq(out[5], 1, "-48 + 48 = 0 with the arrival: complete");
}

Test(mbarrier, arrive_drop_lowers_the_expected_count) {
    uint64_t out[NOUT];
    expect_ok(
        "mbarrier.init.shared.b64 [%r1], 3;\n"
        "mbarrier.arrive_drop.shared.b64 %rd1, [%r1];\n"
        "mbarrier.arrive.shared.b64 %rd2, [%r1];\n"
        "mbarrier.test_wait.shared.b64 %p1, [%r1], %rd2;\n" PUT(
            "%p1",
            0) "mbarrier.arrive.shared.b64 %rd3, [%r1];\n" /* 3 arrivals: phase 0 done */
               "mbarrier.test_wait.shared.b64 %p2, [%r1], %rd3;\n" PUT(
                   "%p2",
                   1) "mbarrier.arrive.shared.b64 %rd4, [%r1];\n" /* phase 1 expects 2 */
                      "mbarrier.test_wait.shared.b64 %p3, [%r1], %rd4;\n" PUT(
                          "%p3",
                          2) "mbarrier.pending_count.b64 %r10, %rd4;\n" PUT32("%r10",
                                                                              3) "mbarrier.arrive_drop.shared.b64 "
                                                                                 "%rd5, [%r1];\n" /* completes phase 1 */
                                                                                 "mbarrier.test_wait.shared.b64 %p4, "
                                                                                 "[%r1], %rd4;\n" PUT(
                                                                                     "%p4",
                                                                                     4) "mbarrier.arrive.shared.b64 "
                                                                                        "%rd6, [%r1];\n" /* phase 2 expects 1 */
                                                                                        "mbarrier.pending_count.b64 "
                                                                                        "%r11, %rd6;\n" PUT32(
                                                                                            "%r11",
                                                                                            5) "mbarrier.test_wait."
                                                                                               "shared.b64 %p5, [%r1], "
                                                                                               "%rd6;\n" PUT("%p5", 6),
        1, out);
    cr_expect_eq(out[0], 0);
    cr_expect_eq(out[1], 1, "the dropped thread's arrival counted in its phase");
    cr_expect_eq(out[2], 0);
    cr_expect_eq(out[3], 2, "phase 1 started with 3 - 1 = 2 pending");
    cr_expect_eq(out[4], 1);
    cr_expect_eq(out[5], 1, "phase 2 started with 2 - 1 = 1 pending");
    cr_expect_eq(out[6], 1);
}

Test(mbarrier, no_complete_arrival) {
    uint64_t out[NOUT];
    expect_ok("mbarrier.init.shared.b64 [%r1], 3;\n"
              "mbarrier.arrive.noComplete.shared.b64 %rd1, [%r1], 2;\n"
              "mbarrier.test_wait.shared.b64 %p1, [%r1], %rd1;\n" PUT(
                  "%p1", 0) "mbarrier.arrive.shared.b64 %rd2, [%r1];\n"
                            "mbarrier.test_wait.shared.b64 %p2, [%r1], %rd1;\n" PUT("%p2", 1),
              1, out);
    cr_expect_eq(out[0], 0);
    cr_expect_eq(out[1], 1);
}

Test(mbarrier, inval_and_init_again_generic_address) {
    uint64_t out[NOUT];
    expect_ok(
        "cvta.shared.u64 %rd5, bar2;\n"
        "mbarrier.init.b64 [%rd5], 1;\n"
        "mbarrier.arrive.b64 %rd1, [%rd5];\n"
        "mbarrier.test_wait.b64 %p1, [%rd5], %rd1;\n" PUT(
            "%p1", 0) "mbarrier.inval.b64 [%rd5];\n"
                      "mbarrier.init.shared.b64 [%r2], 2;\n"
                      "mbarrier.arrive.shared.b64 %rd2, [%r2];\n"
                      "mbarrier.try_wait.b64 %p2, [%rd5], %rd2;\n" PUT(
                          "%p2",
                          1) "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r2];\n"
                             "mbarrier.try_wait.acquire.cluster.shared::cta.b64 %p3, [%r2], %rd2, 100;\n" PUT("%p3", 2),
        1, out);
    cr_expect_eq(out[0], 1);
    cr_expect_eq(out[1], 0);
    cr_expect_eq(out[2], 1, "the shared::cluster arrival on the own block's barrier counts");
}

/* Two warps: warp 1 waits in a try_wait loop for warp 0, which first spends a
 * while in a loop of its own; the waiting warp must let warp 0 run. */
Test(mbarrier, waiting_warp_lets_others_run) {
    uint64_t out[NOUT];
    expect_ok("setp.ne.u32 %p1, %r0, 0;\n"
              "@%p1 bra SYNC;\n"
              "mbarrier.init.shared.b64 [%r1], 64;\n"
              "SYNC:\nbar.sync 0;\n"
              "setp.lt.u32 %p2, %r0, 32;\n"
              "@!%p2 bra WAIT;\n"
              "mov.u32 %r20, 0;\n"
              "SPIN:\nadd.u32 %r20, %r20, 1;\n"
              "setp.lt.u32 %p3, %r20, 20000;\n"
              "@%p3 bra SPIN;\n"
              "st.shared.u32 [%r3], %r20;\n"
              "WAIT:\n"
              "mbarrier.arrive.shared.b64 %rd1, [%r1];\n"
              "LOOP:\n"
              "mbarrier.try_wait.shared.b64 %p4, [%r1], %rd1;\n"
              "@!%p4 bra LOOP;\n"
              "ld.shared.u32 %r21, [%r3];\n"
              "setp.eq.u32 %p5, %r0, 63;\n"
              "@!%p5 bra END;\n" PUT32("%r21", 0) "END:\n",
              64, out);
    cr_expect_eq(out[0], 20000, "warp 1 saw warp 0's store made before its arrival");
}

/* One warp: lanes 1-31 wait for lane 0, whose arrival comes later in the
 * code, so the waiting lane group must let the other group of its own warp run
 * (independent thread scheduling, as on sm_70 and later). Needs the EXT
 * handler's VM_EXT_YIELD to step aside with vm_yield_group() as nanosleep does;
 * until then the waiting group spins and the wait is reported as a deadlock. */
Test(mbarrier, waiting_lanes_let_their_own_warp_run) {
    uint64_t out[NOUT];
    expect_ok("setp.ne.u32 %p1, %r0, 0;\n"
              "@%p1 bra SYNC;\n"
              "mbarrier.init.shared.b64 [%r1], 1;\n"
              "SYNC:\nbar.sync 0;\n"
              "setp.eq.u32 %p2, %r0, 0;\n"
              "@%p2 bra PRODUCE;\n"
              "LOOP:\n"
              "mbarrier.try_wait.parity.shared.b64 %p4, [%r1], 0;\n"
              "@!%p4 bra LOOP;\n"
              "ld.shared.u32 %r21, [%r3];\n"
              "setp.eq.u32 %p5, %r0, 31;\n"
              "@!%p5 bra END;\n" PUT32("%r21", 0) "bra.uni END;\n"
                                                  "PRODUCE:\n"
                                                  "mov.u32 %r20, 77;\n"
                                                  "st.shared.u32 [%r3], %r20;\n"
                                                  "mbarrier.arrive.shared.b64 %rd1, [%r1];\n"
                                                  "END:\n",
              32, out);
    cr_expect_eq(out[0], 77);
}

/* ---- asynchronous copies ---- */

Test(cp_async, zero_fill_and_ignore_src) {
    uint64_t out[NOUT];
    expect_ok("mov.u64 %rd5, src;\n"
              "st.shared.v4.u32 [buf], {%r0, %r0, %r0, %r0};\n" /* zeros, to be overwritten */
              "mov.u32 %r4, 0xffffffff;\n"
              "st.shared.v2.u32 [buf+32], {%r4, %r4};\n"
              "cp.async.ca.shared.global [buf], [%rd5+16], 16, 5;\n"
              "cp.async.cg.shared.global.L2::128B [buf+16], [%rd5+32], 16;\n"
              "setp.eq.u32 %p1, %r0, 0;\n"
              "cp.async.ca.shared.global [buf+32], [%rd5], 8, %p1;\n"
              "cp.async.commit_group;\n"
              "cp.async.wait_group 0;\n"
              "ld.shared.u64 %rd10, [buf];\nst.global.u64 [%rd0], %rd10;\n"
              "ld.shared.u64 %rd11, [buf+8];\nst.global.u64 [%rd0+8], %rd11;\n"
              "ld.shared.u64 %rd12, [buf+16];\nst.global.u64 [%rd0+16], %rd12;\n"
              "ld.shared.u64 %rd13, [buf+32];\nst.global.u64 [%rd0+24], %rd13;\n",
              1, out);
    cr_expect_eq(out[0], 0x0000001413121110ull, "5 source bytes, then zeros");
    cr_expect_eq(out[1], 0);
    cr_expect_eq(out[2], 0x2726252423222120ull);
    cr_expect_eq(out[3], 0, "ignore-src writes zeros");
}

Test(cp_async, mbarrier_arrive_noinc_counts_as_an_arrival) {
    uint64_t out[NOUT];
    expect_ok("mov.u64 %rd5, src;\n"
              "mbarrier.init.shared.b64 [%r1], 2;\n"
              "cp.async.ca.shared.global [%r3], [%rd5], 4;\n"
              "cp.async.mbarrier.arrive.shared.b64 [%r1];\n" /* net zero */
              "mbarrier.arrive.shared.b64 %rd1, [%r1];\n"
              "mbarrier.test_wait.shared.b64 %p1, [%r1], %rd1;\n" PUT(
                  "%p1", 0) "cp.async.mbarrier.arrive.noinc.shared.b64 [%r1];\n" /* the second arrival */
                            "mbarrier.test_wait.shared.b64 %p2, [%r1], %rd1;\n" PUT(
                                "%p2", 1) "ld.shared.u32 %r10, [%r3];\n" PUT32("%r10", 2),
              1, out);
    cr_expect_eq(out[0], 0);
    cr_expect_eq(out[1], 1);
    cr_expect_eq(out[2], 0x03020100u);
}

Test(cp_async, bulk_copy_completes_transactions) {
    uint64_t out[NOUT];
    expect_ok("mov.u64 %rd5, src;\n"
              "mbarrier.init.shared::cta.b64 [%r1], 1;\n"
              "mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [%r1], 64;\n"
              "mbarrier.test_wait.shared.b64 %p1, [%r1], %rd1;\n" PUT(
                  "%p1",
                  0) "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd5+64], 64, [%r1];\n"
                     "mbarrier.try_wait.shared.b64 %p2, [%r1], %rd1;\n" PUT(
                         "%p2", 1) "ld.shared.u64 %rd10, [buf+56];\nst.global.u64 [%rd0+16], %rd10;\n"
                                   /* and back out to global memory, then reduce into it */
                                   "cp.async.bulk.global.shared::cta.bulk_group [%rd5+128], [%r3], 32;\n"
                                   "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd5+128], [%r3], 16;\n"
                                   "cp.async.bulk.commit_group;\ncp.async.bulk.wait_group.read 0;\n"
                                   "ld.global.u32 %r10, [%rd5+128];\n" PUT32(
                                       "%r10", 3) "ld.global.u32 %r11, [%rd5+144];\n" PUT32("%r11", 4),
              1, out);
    cr_expect_eq(out[0], 0);
    cr_expect_eq(out[1], 1, "64 bytes delivered complete the phase");
    cr_expect_eq(out[2], 0x7f7e7d7c7b7a7978ull);
    cr_expect_eq(out[3], 2u * 0x43424140u, "copied, then added to itself");
    cr_expect_eq(out[4], 0x53525150u, "outside the 16 reduced bytes");
}

Test(cp_async, bulk_multicast_and_half_precision_reduction) {
    uint64_t out[NOUT];
    expect_ok("mov.u64 %rd5, src;\n"
              "mbarrier.init.shared::cta.b64 [%r1], 1;\n"
              "mov.u16 %rs1, 1;\nmov.u16 %rs2, 2;\n"
              /* a cluster of one block: mask bit 0 is this block, bit 1 names no CTA */
              "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r3+64], [%rd5], "
              "16, [%r1], %rs2;\n"
              "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r3], [%rd5+16], "
              "16, [%r1], %rs1;\n"
              "mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [%r1], 16;\n"
              "mbarrier.test_wait.shared.b64 %p1, [%r1], %rd1;\n" PUT("%p1", 0) "ld.shared.u32 %r10, [%r3];\n" PUT32(
                  "%r10", 1) "ld.shared.u32 %r11, [%r3+64];\n" PUT32("%r11", 2)
              /* f16: 1.0 + 2.0 and 1.5 + (-0.25); bf16 max(1.0, 2.0) */
              "mov.u32 %r12, 0x3e003c00;\nmov.u32 %r13, 0x3f803f80;\nmov.u32 %r14, 0x00000000;\n"
              "st.shared.v4.u32 [%r3+128], {%r12, %r13, %r14, %r14};\n"
              "mov.u32 %r15, 0xb4004000;\nmov.u32 %r16, 0x40003f80;\n"
              "st.global.v4.u32 [%rd5+128], {%r15, %r16, %r14, %r14};\n"
              "fence.proxy.async.shared::cta;\n"
              "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [%rd5+128], [%r3+128], 16;\n"
              "cp.async.bulk.commit_group;\ncp.async.bulk.wait_group 0;\n"
              "ld.global.u32 %r17, [%rd5+128];\n" PUT32("%r17", 3),
              1, out);
    cr_expect_eq(out[0], 1, "only the copy that reaches this block completes its 16 bytes");
    cr_expect_eq(out[1], 0x13121110u);
    cr_expect_eq(out[2], 0, "ctaMask without bit 0 does not write this block");
    cr_expect_eq(out[3], 0x3d004200u, "f16 sums 3.0 (0x4200) and 1.25 (0x3d00)");
}

/* ---- misuse ---- */

Test(misuse, arrive_on_uninitialized_barrier) {
    expect_fault("mbarrier.arrive.shared.b64 %rd1, [%r1];\n", 1, PTXI_ILLEGAL_INSTRUCTION, "not initialized");
}

Test(misuse, arrive_after_inval) {
    expect_fault("mbarrier.init.shared.b64 [%r1], 4;\nmbarrier.inval.shared.b64 [%r1];\n"
                 "mbarrier.arrive.shared.b64 %rd1, [%r1];\n",
                 1, PTXI_ILLEGAL_INSTRUCTION, "not initialized");
}

Test(misuse, wait_on_uninitialized_barrier) {
    expect_fault("mbarrier.try_wait.parity.shared.b64 %p1, [%r1], 0;\n", 1, PTXI_ILLEGAL_INSTRUCTION,
                 "not initialized");
}

Test(misuse, pending_count_going_negative) {
    expect_fault("mbarrier.init.shared.b64 [%r1], 2;\nmbarrier.arrive.shared.b64 %rd1, [%r1], 3;\n", 1,
                 PTXI_ILLEGAL_INSTRUCTION, "negative");
}

Test(misuse, token_from_a_phase_too_old) {
    expect_fault("mbarrier.init.shared.b64 [%r1], 1;\n"
                 "mbarrier.arrive.shared.b64 %rd1, [%r1];\n"
                 "mbarrier.arrive.shared.b64 %rd2, [%r1];\n"
                 "mbarrier.test_wait.shared.b64 %p1, [%r1], %rd1;\n",
                 1, PTXI_ILLEGAL_INSTRUCTION, "2 phases ago");
}

Test(misuse, wait_with_something_not_a_token) {
    expect_fault("mbarrier.init.shared.b64 [%r1], 1;\nmov.u64 %rd1, 12345;\n"
                 "mbarrier.test_wait.shared.b64 %p1, [%r1], %rd1;\n",
                 1, PTXI_ILLEGAL_INSTRUCTION, "not a state");
}

Test(misuse, no_complete_that_completes) {
    expect_fault("mbarrier.init.shared.b64 [%r1], 2;\nmbarrier.arrive.noComplete.shared.b64 %rd1, [%r1], 2;\n", 1,
                 PTXI_ILLEGAL_INSTRUCTION, ".noComplete");
}

Test(misuse, init_count_out_of_range) {
    expect_fault("mbarrier.init.shared.b64 [%r1], 0;\n", 1, PTXI_ILLEGAL_INSTRUCTION, "[1, 2^20-1]");
    expect_fault("mov.u32 %r5, 0x100000;\nmbarrier.init.shared.b64 [%r1], %r5;\n", 1, PTXI_ILLEGAL_INSTRUCTION,
                 "[1, 2^20-1]");
}

Test(misuse, misaligned_barrier) {
    expect_fault("add.u32 %r5, %r3, 4;\nmbarrier.init.shared.b64 [%r5], 1;\n", 1, PTXI_MISALIGNED_ADDRESS,
                 "8-byte aligned");
}

Test(misuse, barrier_outside_shared_memory) {
    expect_fault("mov.u64 %rd5, src;\nmbarrier.init.b64 [%rd5], 1;\n", 1, PTXI_INVALID_ADDRESS_SPACE,
                 "not in shared memory");
}

Test(misuse, waiting_for_a_phase_nobody_completes) {
    expect_fault("mbarrier.init.shared.b64 [%r1], 2;\n"
                 "mbarrier.arrive.shared.b64 %rd1, [%r1];\n"
                 "LOOP:\nmbarrier.try_wait.shared.b64 %p1, [%r1], %rd1;\n@!%p1 bra LOOP;\n",
                 1, PTXI_BARRIER_DEADLOCK, "1 of 2 arrivals pending");
}

Test(misuse, cp_async_to_a_non_shared_destination) {
    expect_fault("mov.u64 %rd5, src;\ncp.async.ca.shared.global [%rd5], [%rd5], 4;\n", 1, PTXI_INVALID_ADDRESS_SPACE,
                 "not a shared-memory address");
    expect_fault("cvta.shared.u64 %rd6, buf;\nmov.u64 %rd5, src;\ncp.async.ca.shared.global [%rd6], [%rd5], 4;\n", 1,
                 PTXI_INVALID_ADDRESS_SPACE, "cvta.to.shared");
}

Test(misuse, cp_async_misaligned) {
    expect_fault("mov.u64 %rd5, src;\ncp.async.ca.shared.global [buf+4], [%rd5], 8;\n", 1, PTXI_MISALIGNED_ADDRESS,
                 "8-byte aligned");
    expect_fault("mov.u64 %rd5, src;\ncp.async.cg.shared.global [buf], [%rd5+8], 16;\n", 1, PTXI_MISALIGNED_ADDRESS,
                 "not 16-byte aligned");
}

Test(misuse, cp_async_src_size_larger_than_cp_size) {
    expect_fault("mov.u64 %rd5, src;\nmov.u32 %r5, 9;\ncp.async.ca.shared.global [buf], [%rd5], 8, %r5;\n", 1,
                 PTXI_ILLEGAL_INSTRUCTION, "src-size 9");
}

Test(misuse, bulk_copy_size_not_a_multiple_of_16) {
    expect_fault("mov.u64 %rd5, src;\nmbarrier.init.shared.b64 [%r1], 1;\n"
                 "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd5], 24, [%r1];\n",
                 1, PTXI_ILLEGAL_INSTRUCTION, "multiple of 16");
}
