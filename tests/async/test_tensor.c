/* test_tensor.c — the tensor forms of the bulk asynchronous copies: loads of
 * 2-D and 3-D boxes with out-of-bounds fill and the 32/64/128-byte swizzles,
 * and a tensor store, against what an H200 produced for the same tensor maps
 * (gpu/jobs/async_tensor/recorded/, from tma.cu there); reductions and the
 * encoder's argument rules from their definitions. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../interp/async_tensor.h"
#include "ptxi.h"

#define REC PTXI_SOURCE_DIR "/gpu/jobs/async_tensor/recorded/"

/* One thread. mode 0: fill the 4096-byte shared buffer with 0xee, load the box
 * (2-D or 3-D) and dump the buffer to `dump`; mode 1/2: copy `fill` into the
 * buffer and store / reduce-add it into the tensor. */
static const char *kernel_ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".shared .align 1024 .b8 buf[4096];\n.shared .align 8 .b64 bar;\n"
    ".visible .entry tma(.param .u64 map, .param .u32 mode, .param .u32 rank, .param .u32 c0, .param .u32 c1,"
    " .param .u32 c2, .param .u32 nbytes, .param .u64 dump, .param .u64 fill)\n{\n"
    ".reg .b64 %rd<16>;\n.reg .b32 %r<32>;\n.reg .pred %p<8>;\n"
    "ld.param.u64 %rd1, [map];\nld.param.u32 %r1, [mode];\nld.param.u32 %r2, [rank];\n"
    "ld.param.u32 %r3, [c0];\nld.param.u32 %r4, [c1];\nld.param.u32 %r5, [c2];\nld.param.u32 %r6, [nbytes];\n"
    "ld.param.u64 %rd2, [dump];\nld.param.u64 %rd3, [fill];\n"
    "mov.u32 %r10, buf;\nmov.u32 %r11, bar;\nmov.u32 %r12, 0;\n"
    "setp.ne.u32 %p1, %r1, 0;\n@%p1 bra STORE;\n"
    "mov.u32 %r13, 0xeeeeeeee;\n"
    "FILL:\nadd.u32 %r14, %r10, %r12;\nst.shared.u32 [%r14], %r13;\nadd.u32 %r12, %r12, 4;\n"
    "setp.lt.u32 %p2, %r12, 4096;\n@%p2 bra FILL;\n"
    "mbarrier.init.shared::cta.b64 [%r11], 1;\n"
    "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r11], %r6;\n"
    "setp.eq.u32 %p3, %r2, 3;\n@%p3 bra LOAD3;\n"
    "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r10], [%rd1, {%r3, %r4}], "
    "[%r11];\n"
    "bra.uni WAIT;\n"
    "LOAD3:\n"
    "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r10], [%rd1, {%r3, %r4, %r5}], "
    "[%r11];\n"
    "WAIT:\nmbarrier.try_wait.parity.shared::cta.b64 %p4, [%r11], 0;\n@!%p4 bra WAIT;\n"
    "mov.u32 %r12, 0;\n"
    "DUMP:\nadd.u32 %r14, %r10, %r12;\nld.shared.u32 %r15, [%r14];\ncvt.u64.u32 %rd4, %r12;\n"
    "add.u64 %rd5, %rd2, %rd4;\nst.global.u32 [%rd5], %r15;\nadd.u32 %r12, %r12, 4;\n"
    "setp.lt.u32 %p5, %r12, 4096;\n@%p5 bra DUMP;\nret;\n"
    "STORE:\n"
    "COPY:\nadd.u32 %r14, %r10, %r12;\ncvt.u64.u32 %rd4, %r12;\nadd.u64 %rd5, %rd3, %rd4;\n"
    "ld.global.u32 %r15, [%rd5];\nst.shared.u32 [%r14], %r15;\nadd.u32 %r12, %r12, 4;\n"
    "setp.lt.u32 %p6, %r12, %r6;\n@%p6 bra COPY;\n"
    "fence.proxy.async.shared::cta;\n"
    "setp.eq.u32 %p7, %r1, 2;\n@%p7 bra REDUCE;\n"
    "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd1, {%r3, %r4}], [%r10];\n"
    "bra.uni DONE;\n"
    "REDUCE:\n"
    "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%rd1, {%r3, %r4}], [%r10];\n"
    "DONE:\ncp.async.bulk.commit_group;\ncp.async.bulk.wait_group 0;\nret;\n}\n";

typedef struct tcase {
    int mode, rank;
    unsigned dtype;
    uint64_t dims[3];
    uint32_t box[3], estr[3];
    unsigned swz, oob;
    int c[3];
} tcase;

/* Runs a case; returns the 4096-byte dump (load) or the tensor (store), malloc'd. */
static uint8_t *run_case(const tcase *tc, size_t *len) {
    ptxi_ctx_options opt = {.threads = 1, .timeout_s = 20};
    ptxi_ctx *ctx;
    ptxi_module *mod;
    ptxi_kernel *k;
    cr_assert_eq(ptxi_ctx_create(&ctx, &opt), PTXI_SUCCESS);
    cr_assert_eq(ptxi_module_load_data(ctx, kernel_ptx, strlen(kernel_ptx), "tma.ptx", &mod), PTXI_SUCCESS, "%s",
                 ptxi_ctx_error_detail(ctx));
    cr_assert_eq(ptxi_module_get_kernel(mod, "tma", &k), PTXI_SUCCESS);
    size_t n = tc->dims[0] * tc->dims[1] * tc->dims[2];
    uint32_t *h = malloc(n * 4);
    for (size_t i = 0; i < n; i++) {
        float f = (float)i;
        if (tc->dtype == VM_TM_F32) memcpy(&h[i], &f, 4);
        else h[i] = (uint32_t)i;
    }
    ptxi_dptr g, dump, fill, map;
    cr_assert_eq(ptxi_mem_alloc(ctx, n * 4, &g), PTXI_SUCCESS);
    cr_assert_eq(ptxi_mem_alloc(ctx, 4096, &dump), PTXI_SUCCESS);
    cr_assert_eq(ptxi_mem_alloc(ctx, 4096, &fill), PTXI_SUCCESS);
    cr_assert_eq(ptxi_mem_alloc(ctx, 128, &map), PTXI_SUCCESS);
    cr_assert_eq(ptxi_memcpy_htod(ctx, g, h, n * 4), PTXI_SUCCESS);
    uint32_t f[1024];
    for (int i = 0; i < 1024; i++) f[i] = 0x10000u + (uint32_t)i;
    cr_assert_eq(ptxi_memcpy_htod(ctx, fill, f, sizeof f), PTXI_SUCCESS);
    uint64_t strides[2] = {tc->dims[0] * 4, tc->dims[0] * tc->dims[1] * 4};
    vm_tmap tm;
    cr_assert_eq(ptxi_tmap_encode_tiled(&tm, tc->dtype, (unsigned)tc->rank, g, tc->dims, strides, tc->box, tc->estr, 0,
                                        tc->swz, 0, tc->oob),
                 0);
    cr_assert_eq(ptxi_memcpy_htod(ctx, map, &tm, sizeof tm), PTXI_SUCCESS);
    uint32_t mode = (uint32_t)tc->mode, rank = (uint32_t)tc->rank, nbytes = 4;
    for (int d = 0; d < tc->rank; d++) nbytes *= (tc->box[d] + tc->estr[d] - 1) / tc->estr[d];
    int32_t c0 = tc->c[0], c1 = tc->c[1], c2 = tc->c[2];
    void *args[] = {&map, &mode, &rank, &c0, &c1, &c2, &nbytes, &dump, &fill};
    ptxi_status st = ptxi_launch(k, (ptxi_dim3){1, 1, 1}, (ptxi_dim3){1, 1, 1}, 0, NULL, args);
    if (st == PTXI_SUCCESS) st = ptxi_ctx_synchronize(ctx);
    cr_assert_eq(st, PTXI_SUCCESS, "%s", ptxi_ctx_error_detail(ctx));
    uint8_t *out;
    if (tc->mode == 0) {
        out = malloc(4096);
        *len = 4096;
        cr_assert_eq(ptxi_memcpy_dtoh(ctx, out, dump, 4096), PTXI_SUCCESS);
        free(h);
    } else {
        out = (uint8_t *)h;
        *len = n * 4;
        cr_assert_eq(ptxi_memcpy_dtoh(ctx, out, g, n * 4), PTXI_SUCCESS);
    }
    ptxi_ctx_destroy(ctx);
    return out;
}

static void against_gpu(const char *name, const tcase *tc) {
    char path[512];
    snprintf(path, sizeof path, REC "%s.bin", name);
    FILE *fp = fopen(path, "rb");
    cr_assert_not_null(fp, "no recording %s", path);
    static uint8_t want[8192];
    size_t wn = fread(want, 1, sizeof want, fp);
    fclose(fp);
    size_t n;
    uint8_t *got = run_case(tc, &n);
    cr_assert_eq(n, wn, "%s: %zu bytes, the GPU's %zu", name, n, wn);
    for (size_t i = 0; i < n; i += 4)
        if (memcmp(got + i, want + i, 4)) {
            uint32_t a, b;
            memcpy(&a, got + i, 4);
            memcpy(&b, want + i, 4);
            cr_assert_fail("%s: first difference at byte %zu: ptxi 0x%08x, GPU 0x%08x", name, i, a, b);
        }
    free(got);
}

#define U32 VM_TM_U32
Test(tensor, load_2d_out_of_bounds_zero_fill) {
    tcase c = {0, 2, U32, {40, 24, 1}, {16, 8, 1}, {1, 1, 1}, 0, 0, {-4, 20, 0}};
    against_gpu("load_2d_oob", &c);
}

Test(tensor, load_2d_swizzle_128b) {
    tcase c = {0, 2, U32, {40, 24, 1}, {32, 8, 1}, {1, 1, 1}, 3, 0, {8, 3, 0}};
    against_gpu("load_2d_sw128", &c);
}

Test(tensor, load_2d_swizzle_64b) {
    tcase c = {0, 2, U32, {40, 24, 1}, {16, 8, 1}, {1, 1, 1}, 2, 0, {4, 1, 0}};
    against_gpu("load_2d_sw64", &c);
}

Test(tensor, load_2d_swizzle_32b) {
    tcase c = {0, 2, U32, {40, 24, 1}, {8, 8, 1}, {1, 1, 1}, 1, 0, {0, 0, 0}};
    against_gpu("load_2d_sw32", &c);
}

Test(tensor, load_3d) {
    tcase c = {0, 3, U32, {12, 6, 4}, {8, 4, 2}, {1, 1, 1}, 0, 0, {0, 0, 0}};
    against_gpu("load_3d_plain", &c);
}

Test(tensor, store_2d) {
    tcase c = {1, 2, U32, {40, 24, 1}, {16, 8, 1}, {1, 1, 1}, 0, 0, {8, 4, 0}};
    against_gpu("store_2d_in", &c);
}

/* From the definitions: a reduction adds the box element-wise into the
 * tensor; element strides load every estride-th element. The NaN that fills
 * out-of-bounds f32 elements is the H200's (recorded in replace_fill_1.bin). */
Test(tensor, reduce_add_2d) {
    tcase c = {2, 2, U32, {40, 24, 1}, {16, 8, 1}, {1, 1, 1}, 0, 0, {8, 4, 0}};
    size_t n;
    uint32_t *t = (uint32_t *)run_case(&c, &n);
    for (uint32_t y = 0; y < 24; y++)
        for (uint32_t x = 0; x < 40; x++) {
            uint32_t v = y * 40 + x, want = v;
            if (x >= 8 && x < 24 && y >= 4 && y < 12) want += 0x10000u + (y - 4) * 16 + (x - 8);
            cr_assert_eq(t[v], want, "(%u,%u)", x, y);
        }
    free(t);
}

Test(tensor, element_strides_and_nan_fill) {
    tcase c = {0, 3, VM_TM_F32, {12, 6, 4}, {8, 4, 2}, {2, 1, 1}, 0, 1, {6, -1, 3}};
    size_t n;
    uint32_t *d = (uint32_t *)run_case(&c, &n);
    /* 4 x 4 x 2 elements: x = 6, 8, 10, 12; y = -1..2; z = 3, 4 */
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 4; x++) {
                int gx = 6 + 2 * x, gy = y - 1, gz = 3 + z;
                uint32_t want = 0x7ff77ff7u;
                if (gx < 12 && gy >= 0 && gz < 4) {
                    float f = (float)(gz * 72 + gy * 12 + gx);
                    memcpy(&want, &f, 4);
                }
                cr_assert_eq(d[(z * 4 + y) * 4 + x], want, "(%d,%d,%d)", x, y, z);
            }
    cr_expect_eq(d[32], 0xeeeeeeeeu, "nothing past the 128-byte box");
    free(d);
}

Test(tensor, encoder_rules) {
    vm_tmap m;
    uint64_t dims[2] = {40, 24}, strides[1] = {160}, bad_stride[1] = {168};
    uint32_t box[2] = {16, 8}, estr[2] = {1, 1}, big_box[2] = {512, 8}, odd_box[2] = {3, 8}, zero_e[2] = {0, 1};
    cr_expect_eq(ptxi_tmap_encode_tiled(&m, VM_TM_U32, 2, 0x10000, dims, strides, box, estr, 0, 0, 0, 0), 0);
    cr_expect_eq(m.magic, VM_TMAP_MAGIC);
    cr_expect_eq(ptxi_tmap_encode_tiled(&m, VM_TM_U32, 2, 0x10008, dims, strides, box, estr, 0, 0, 0, 0), 1,
                 "address not 16-byte aligned");
    cr_expect_eq(ptxi_tmap_encode_tiled(&m, VM_TM_U32, 2, 0x10000, dims, bad_stride, box, estr, 0, 0, 0, 0), 1,
                 "stride not a multiple of 16");
    cr_expect_eq(ptxi_tmap_encode_tiled(&m, VM_TM_U32, 2, 0x10000, dims, strides, big_box, estr, 0, 0, 0, 0), 1,
                 "box over 256");
    cr_expect_eq(ptxi_tmap_encode_tiled(&m, VM_TM_U32, 2, 0x10000, dims, strides, odd_box, estr, 0, 0, 0, 0), 1,
                 "inner box extent of 12 bytes");
    cr_expect_eq(ptxi_tmap_encode_tiled(&m, VM_TM_U32, 2, 0x10000, dims, strides, box, zero_e, 0, 0, 0, 0), 1,
                 "element stride 0");
    cr_expect_eq(ptxi_tmap_encode_tiled(&m, VM_TM_U32, 2, 0x10000, dims, strides, box, estr, 0, 1, 0, 0), 1,
                 "64-byte inner box with a 32-byte swizzle");
    cr_expect_eq(ptxi_tmap_encode_tiled(&m, VM_TM_U32, 2, 0x10000, dims, strides, box, estr, 0, 0, 0, 1), 1,
                 "NaN fill of an integer type");
    cr_expect_eq(ptxi_tmap_encode_tiled(&m, VM_TM_U32, 6, 0x10000, dims, strides, box, estr, 0, 0, 0, 0), 1, "rank 6");
}

/* tensormap.replace on a map in global memory, then a load with it: the
 * same cases as gpu/jobs/async_tensor/replace.cu. `insn` is the replace
 * instruction (map in %rd1, new value in %rd2 / %r2). */
static const char *replace_ptx =
    ".version 8.3\n.target sm_90a\n.address_size 64\n"
    ".shared .align 1024 .b8 buf[4096];\n.shared .align 8 .b64 bar;\n"
    ".visible .entry probe(.param .u64 map, .param .u64 value, .param .u32 c0, .param .u32 c1,"
    " .param .u32 nbytes, .param .u64 dump)\n{\n"
    ".reg .b64 %%rd<16>;\n.reg .b32 %%r<32>;\n.reg .pred %%p<8>;\n"
    "ld.param.u64 %%rd1, [map];\nld.param.u64 %%rd2, [value];\ncvt.u32.u64 %%r2, %%rd2;\n"
    "ld.param.u32 %%r3, [c0];\nld.param.u32 %%r4, [c1];\nld.param.u32 %%r6, [nbytes];\nld.param.u64 %%rd3, [dump];\n"
    "%s\n"
    "fence.proxy.tensormap::generic.release.gpu;\nfence.proxy.tensormap::generic.acquire.gpu [%%rd1], 128;\n"
    "mov.u32 %%r10, buf;\nmov.u32 %%r11, bar;\nmov.u32 %%r12, 0;\nmov.u32 %%r13, 0xeeeeeeee;\n"
    "FILL:\nadd.u32 %%r14, %%r10, %%r12;\nst.shared.u32 [%%r14], %%r13;\nadd.u32 %%r12, %%r12, 4;\n"
    "setp.lt.u32 %%p2, %%r12, 4096;\n@%%p2 bra FILL;\n"
    "mbarrier.init.shared::cta.b64 [%%r11], 1;\n"
    "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%%r11], %%r6;\n"
    "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%%r10], [%%rd1, {%%r3, %%r4}], "
    "[%%r11];\n"
    "mbarrier.try_wait.parity.shared::cta.b64 %%p4, [%%r11], 0;\n"
    "selp.u32 %%r20, 1, 0, %%p4;\nst.global.u32 [%%rd3], %%r20;\n"
    "mov.u32 %%r12, 0;\n"
    "DUMP:\nadd.u32 %%r14, %%r10, %%r12;\nld.shared.u32 %%r15, [%%r14];\ncvt.u64.u32 %%rd4, %%r12;\n"
    "add.u64 %%rd5, %%rd3, %%rd4;\nst.global.u32 [%%rd5+4], %%r15;\nadd.u32 %%r12, %%r12, 4;\n"
    "setp.lt.u32 %%p5, %%r12, 4096;\n@%%p5 bra DUMP;\nret;\n}\n";

static void replace_case(const char *name, const char *insn, uint64_t value, bool value_is_offset, int c0, int c1,
                         uint32_t nbytes, uint32_t box0, unsigned dtype) {
    char ptx[8192];
    snprintf(ptx, sizeof ptx, replace_ptx, insn);
    ptxi_ctx_options opt = {.threads = 1, .timeout_s = 20};
    ptxi_ctx *ctx;
    ptxi_module *mod;
    ptxi_kernel *k;
    cr_assert_eq(ptxi_ctx_create(&ctx, &opt), PTXI_SUCCESS);
    cr_assert_eq(ptxi_module_load_data(ctx, ptx, strlen(ptx), "replace.ptx", &mod), PTXI_SUCCESS, "%s",
                 ptxi_ctx_error_detail(ctx));
    cr_assert_eq(ptxi_module_get_kernel(mod, "probe", &k), PTXI_SUCCESS);
    uint32_t h[960];
    for (int i = 0; i < 960; i++) {
        float f = (float)i;
        if (dtype == VM_TM_F32) memcpy(&h[i], &f, 4);
        else h[i] = (uint32_t)i;
    }
    ptxi_dptr g, dump, map;
    cr_assert_eq(ptxi_mem_alloc(ctx, sizeof h, &g), PTXI_SUCCESS);
    cr_assert_eq(ptxi_mem_alloc(ctx, 4100, &dump), PTXI_SUCCESS);
    cr_assert_eq(ptxi_mem_alloc(ctx, 128, &map), PTXI_SUCCESS);
    cr_assert_eq(ptxi_memcpy_htod(ctx, g, h, sizeof h), PTXI_SUCCESS);
    uint64_t dims[2] = {40, 24}, strides[1] = {160};
    uint32_t box[2] = {box0, 8}, estr[2] = {1, 1};
    vm_tmap tm;
    cr_assert_eq(ptxi_tmap_encode_tiled(&tm, dtype, 2, g, dims, strides, box, estr, 0, 0, 0, 0), 0);
    cr_assert_eq(ptxi_memcpy_htod(ctx, map, &tm, sizeof tm), PTXI_SUCCESS);
    if (value_is_offset) value += g;
    void *args[] = {&map, &value, &c0, &c1, &nbytes, &dump};
    ptxi_status st = ptxi_launch(k, (ptxi_dim3){1, 1, 1}, (ptxi_dim3){1, 1, 1}, 0, NULL, args);
    if (st == PTXI_SUCCESS) st = ptxi_ctx_synchronize(ctx);
    cr_assert_eq(st, PTXI_SUCCESS, "%s", ptxi_ctx_error_detail(ctx));
    static uint32_t got[1025], want[1025];
    cr_assert_eq(ptxi_memcpy_dtoh(ctx, got, dump, sizeof got), PTXI_SUCCESS);
    ptxi_ctx_destroy(ctx);
    char path[512];
    snprintf(path, sizeof path, REC "%s.bin", name);
    FILE *fp = fopen(path, "rb");
    cr_assert_not_null(fp, "no recording %s", path);
    cr_assert_eq(fread(want, 4, 1025, fp), 1025);
    fclose(fp);
    cr_expect_eq(got[0], want[0], "%s: phase completed %u, on the GPU %u", name, got[0], want[0]);
    for (int i = 1; i < 1025; i++)
        if (got[i] != want[i])
            cr_assert_fail("%s: word %d of the box: ptxi 0x%08x, GPU 0x%08x", name, i - 1, got[i], want[i]);
}

Test(tensormap, replace_box_dims) {
    replace_case("replace_box0_8", "tensormap.replace.tile.box_dim.global.b1024.b32 [%rd1], 0, %r2;", 8, false, 0, 0,
                 256, 16, VM_TM_U32);
    replace_case("replace_box1_4", "tensormap.replace.tile.box_dim.global.b1024.b32 [%rd1], 1, %r2;", 4, false, 0, 0,
                 256, 16, VM_TM_U32);
}

Test(tensormap, replace_global_dims_stride_address) {
    replace_case("replace_gdim0_20", "tensormap.replace.tile.global_dim.global.b1024.b32 [%rd1], 0, %r2;", 20, false,
                 12, 0, 512, 16, VM_TM_U32);
    replace_case("replace_gdim1_10", "tensormap.replace.tile.global_dim.global.b1024.b32 [%rd1], 1, %r2;", 10, false, 0,
                 6, 512, 16, VM_TM_U32);
    replace_case("replace_gstride0_320", "tensormap.replace.tile.global_stride.global.b1024.b64 [%rd1], 0, %rd2;", 320,
                 false, 0, 0, 512, 16, VM_TM_U32);
    replace_case("replace_addr_2rows", "tensormap.replace.tile.global_address.global.b1024.b64 [%rd1], %rd2;", 320,
                 true, 0, 0, 512, 16, VM_TM_U32);
}

Test(tensormap, replace_modes_type_rank) {
    replace_case("replace_swizzle_2", "tensormap.replace.tile.swizzle_mode.global.b1024.b32 [%rd1], 2;", 0, false, 4, 1,
                 512, 16, VM_TM_U32);
    replace_case("replace_swizzle_3", "tensormap.replace.tile.swizzle_mode.global.b1024.b32 [%rd1], 3;", 0, false, 8, 3,
                 1024, 32, VM_TM_U32);
    replace_case("replace_fill_1", "tensormap.replace.tile.fill_mode.global.b1024.b32 [%rd1], 1;", 0, false, -4, 20,
                 512, 16, VM_TM_F32);
    replace_case("replace_elemtype_7", "tensormap.replace.tile.elemtype.global.b1024.b32 [%rd1], 7;", 0, false, -4, 20,
                 512, 16, VM_TM_U32);
    replace_case("replace_rank_1", "tensormap.replace.tile.rank.global.b1024.b32 [%rd1], %r2;", 1, false, 0, 0, 512, 16,
                 VM_TM_U32);
}
