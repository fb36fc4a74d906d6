/* test_wgmma.c — what surrounds wgmma.mma_async (its products are checked
 * against the GPU by ptx-samples/wgmma and the Triton matmul): an accumulator
 * used before wgmma.wait_group is reported naming the register, a descriptor
 * outside shared memory is a fault, elect.sync elects the lowest executing
 * lane of the mask (PTX ISA), setmaxnreg runs. */
#include <stdint.h>

#include "../run_kernel.h"

#define HEAD ".version 8.3\n.target sm_90a\n.address_size 64\n"

/* One m64n8k16 product from shared memory; `between` goes between the
 * instruction and its wait, `desc` is B's descriptor. */
#define WG(between, desc)                                                                                           \
    HEAD ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"                                                  \
         ".reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.reg .pred %p<2>;\n.shared .align 1024 .b8 sm[4096];\n"              \
         "mov.b32 %r0, 0;\nmov.b32 %r1, 0;\nmov.b32 %r2, 0;\nmov.b32 %r3, 0;\nsetp.eq.u32 %p1, %r0, 0;\n"           \
         "mov.u64 %rd1, sm;\nshr.u64 %rd1, %rd1, 4;\nor.b64 %rd1, %rd1, 0x0000001000080000;\n"                      \
         "mov.b64 %rd2, " desc ";\n"                                                                                \
         "wgmma.fence.sync.aligned;\n"                                                                              \
         "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%r0, %r1, %r2, %r3}, %rd1, %rd2, %p1, 1, 1, 0, 0;\n"   \
         "wgmma.commit_group.sync.aligned;\n" between "wgmma.wait_group.sync.aligned 0;\n"                          \
         "ld.param.u64 %rd3, [out];\nmov.u32 %r5, %tid.x;\nmul.wide.u32 %rd0, %r5, 4;\nadd.s64 %rd3, %rd3, %rd0;\n" \
         "add.f32 %r4, %r0, %r3;\nst.global.b32 [%rd3], %r4;\nret;\n}\n"

Test(wgmma, waits_then_reads) {
    uint32_t out[128];
    char rep[512];
    /* zero shared memory: every product and so every output is +0 */
    cr_assert_eq(run_io(WG("", "0x0000001000080000"), 128, NULL, 0, out, sizeof out, rep, sizeof rep), PTXI_SUCCESS,
                 "%s", rep);
    for (int t = 0; t < 128; t++) cr_expect_eq(out[t], 0u);
}

Test(wgmma, accumulator_read_before_wait) {
    uint32_t out[128];
    char rep[512];
    ptxi_status s = run_io(WG("mov.b32 %r6, %r2;\n", "0x0000001000080000"), 128, NULL, 0, out, sizeof out, rep,
                           sizeof rep);
    cr_assert_neq(s, PTXI_SUCCESS);
    cr_expect(strstr(rep, "accumulator %r2") && strstr(rep, "wait_group"), "%s", rep);
}

Test(wgmma, descriptor_outside_shared_memory) {
    uint32_t out[128];
    char rep[512];
    /* start address 0x3fff0 with 4 KiB of shared memory */
    ptxi_status s = run_io(WG("", "0x0000001000083fff"), 128, NULL, 0, out, sizeof out, rep, sizeof rep);
    cr_assert_neq(s, PTXI_SUCCESS);
    cr_expect(strstr(rep, "descriptor"), "%s", rep);
}

/* Lanes 5..31 execute elect.sync with the mask of the lanes executing: lane 5
 * is elected; every lane gets 5, only lane 5 the predicate. Then all 32 lanes
 * with mask 0xfffffffe: lane 1. Then setmaxnreg in the whole warp. */
Test(wgmma, elect_sync) {
    static const char src[] = HEAD
        ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
        ".reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.reg .pred %p<3>;\n"
        "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 8;\nadd.s64 %rd1, %rd1, %rd2;\n"
        "mov.b32 %r2, 99;\nmov.b32 %r3, 0;\nsetp.lt.u32 %p1, %r1, 5;\n@%p1 bra SKIP;\n"
        "activemask.b32 %r4;\nelect.sync %r2|%p2, %r4;\nselp.b32 %r3, 1, 0, %p2;\n"
        "SKIP:\n"
        "elect.sync %r5|%p2, 0xfffffffe;\nselp.b32 %r6, 2, 0, %p2;\nadd.u32 %r3, %r3, %r6;\nshl.b32 %r5, %r5, 8;\n"
        "add.u32 %r3, %r3, %r5;\nsetmaxnreg.inc.sync.aligned.u32 240;\n"
        "st.global.v2.b32 [%rd1], {%r2, %r3};\nret;\n}\n";
    uint32_t out[64];
    char rep[512];
    cr_assert_eq(run_io(src, 32, NULL, 0, out, sizeof out, rep, sizeof rep), PTXI_SUCCESS, "%s", rep);
    for (uint32_t t = 0; t < 32; t++) {
        cr_expect_eq(out[2 * t], t < 5 ? 99u : 5u, "lane %u", t);
        cr_expect_eq(out[2 * t + 1], (t == 5) + 2u * (t == 1) + (1u << 8), "lane %u", t);
    }
}
