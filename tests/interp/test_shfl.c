/* test_shfl.c — shfl.sync of a converged warp with the full member mask (the
 * fast path of collectives.c) against the PTX ISA's definition: every mode,
 * every lane delta, clamps 0 and 31, with the predicate output. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "ptxi.h"

/* out[(mode*32 + delta)*32 + lane] = value | pred << 31, value = source lane + 100 */
static const char *SRC =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<12>;\n.reg .b64 %rd<4>;\n.reg .pred %p<2>;\n"
    "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nadd.u32 %r2, %r1, 100;\nmov.u32 %r3, 0;\n"
    "LOOP:\n"
    "shfl.sync.up.b32 %r4|%p1, %r2, %r3, 0, -1;\nselp.u32 %r5, 0x80000000, 0, %p1;\nor.b32 %r4, %r4, %r5;\n"
    "mad.lo.u32 %r6, %r3, 32, %r1;\nmul.wide.u32 %rd2, %r6, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r4;\n"
    "shfl.sync.down.b32 %r4|%p1, %r2, %r3, 31, -1;\nselp.u32 %r5, 0x80000000, 0, %p1;\nor.b32 %r4, %r4, %r5;\n"
    "st.global.u32 [%rd3+4096], %r4;\n"
    "shfl.sync.bfly.b32 %r4|%p1, %r2, %r3, 31, -1;\nselp.u32 %r5, 0x80000000, 0, %p1;\nor.b32 %r4, %r4, %r5;\n"
    "st.global.u32 [%rd3+8192], %r4;\n"
    "shfl.sync.idx.b32 %r4|%p1, %r2, %r3, 31, -1;\nselp.u32 %r5, 0x80000000, 0, %p1;\nor.b32 %r4, %r4, %r5;\n"
    "st.global.u32 [%rd3+12288], %r4;\n"
    "add.u32 %r3, %r3, 1;\nsetp.lt.u32 %p0, %r3, 32;\n@%p0 bra LOOP;\nret;\n}\n";

/* Runs kernel 0 of src on one CTA of `threads` with an n-byte buffer filled
 * with `fill` as its parameter, and copies the buffer to out. */
static void run(const char *src, unsigned threads, void *out, size_t n, uint8_t fill) {
    ptxi_ctx *ctx;
    cr_assert_eq(ptxi_ctx_create(&ctx, NULL), PTXI_SUCCESS);
    ptxi_module *m;
    cr_assert_eq(ptxi_module_load_data(ctx, src, strlen(src), "shfl.ptx", &m), PTXI_SUCCESS, "%s",
                 ptxi_ctx_error_detail(ctx));
    ptxi_dptr d;
    cr_assert_eq(ptxi_mem_alloc(ctx, n, &d), PTXI_SUCCESS);
    cr_assert_eq(ptxi_memset_d8(ctx, d, fill, n), PTXI_SUCCESS);
    void *args[] = {&d};
    cr_assert_eq(
        ptxi_launch(ptxi_module_kernel_at(m, 0), (ptxi_dim3){1, 1, 1}, (ptxi_dim3){threads, 1, 1}, 0, NULL, args),
        PTXI_SUCCESS, "%s", ptxi_ctx_error_detail(ctx));
    ptxi_memcpy_dtoh(ctx, out, d, n);
    ptxi_ctx_destroy(ctx);
}

Test(shfl, full_warp_every_mode_and_delta) {
    static uint32_t got[4][32][32];
    run(SRC, 32, got, sizeof got, 0);
    for (int mode = 0; mode < 4; mode++)
        for (int b = 0; b < 32; b++)
            for (int l = 0; l < 32; l++) {
                int j;
                bool ok;
                /* the PTX ISA's pseudocode with c = 0 (up) or 31 (others), no segments */
                if (mode == 0) j = l - b, ok = j >= 0;
                else if (mode == 1) j = l + b, ok = j <= 31;
                else if (mode == 2) j = l ^ b, ok = j <= 31;
                else j = b, ok = j <= 31;
                uint32_t want = (uint32_t)((ok ? j : l) + 100) | (uint32_t)ok << 31;
                cr_assert_eq(got[mode][b][l], want, "mode %d delta %d lane %d: 0x%x, want 0x%x", mode, b, l,
                             got[mode][b][l], want);
            }
}

/* Blocks of 56 threads: warp 1 has 24 lanes, and its lanes 16-23 exit before
 * the collectives. Lanes that do not exist or have exited count as exited: the
 * full-mask shfl and ballot run without them, and a shfl that reads one of them
 * gets 0 (measured on an H100: gpu/jobs/fidelity/recorded/warp_probe.*). */
static const char *GONE =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.reg .pred %p<2>;\n"
    "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nadd.u32 %r2, %r1, 100;\n"
    "setp.ge.u32 %p0, %r1, 48;\n@%p0 exit;\n"
    "shfl.sync.down.b32 %r3, %r2, 4, 31, -1;\nand.b32 %r4, %r1, 1;\nsetp.ne.u32 %p1, %r4, 0;\n"
    "vote.sync.ballot.b32 %r5, %p1, -1;\n"
    "mul.wide.u32 %rd2, %r1, 8;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.v2.u32 [%rd3], {%r3, %r5};\nret;\n}\n";

Test(shfl, exited_and_missing_lanes_read_zero) {
    uint32_t got[56][2];
    run(GONE, 56, got, sizeof got, 0xee);
    for (int t = 0; t < 56; t++) {
        int l = t % 32, src = l + 4, warp_lanes = t < 32 ? 32 : 16; /* lanes alive in the warp */
        uint32_t want = src > 31 ? (uint32_t)t + 100 : src < warp_lanes ? (uint32_t)(t + 4) + 100 : 0;
        uint32_t ballot = warp_lanes == 32 ? 0xaaaaaaaau : 0x0000aaaau;
        if (t >= 48) want = ballot = 0xeeeeeeeeu; /* exited before storing */
        cr_assert_eq(got[t][0], want, "thread %d: shfl read 0x%x, want 0x%x", t, got[t][0], want);
        cr_assert_eq(got[t][1], ballot, "thread %d: ballot 0x%x, want 0x%x", t, got[t][1], ballot);
    }
}
