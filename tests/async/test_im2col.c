/* test_im2col.c — the im2col forms of cp.async.bulk.tensor (3-D, 4-D and 5-D
 * loads with their offsets) against what an H100 produced for the same tensor
 * maps (gpu/jobs/async_im2col/recorded/, from im2col.cu there): the bounding
 * box and the walk of the pixels, offsets, element strides, channels past the
 * tensor, the NaN fill and the swizzles; cuTensorMapEncodeIm2col's argument
 * rules from the driver's documentation. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../interp/async_tensor.h"
#include "ptxi.h"

#define REC PTXI_SOURCE_DIR "/gpu/jobs/async_im2col/recorded/"

/* One thread: fill the 4096-byte shared buffer with 0xee, load an im2col
 * column of the map's rank with the offsets given, dump the buffer. */
static const char *kernel_ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".shared .align 1024 .b8 buf[4096];\n.shared .align 8 .b64 bar;\n"
    ".visible .entry im2col(.param .u64 map, .param .u32 rank, .param .u32 c0, .param .u32 c1, .param .u32 c2,"
    " .param .u32 c3, .param .u32 c4, .param .u16 o0, .param .u16 o1, .param .u16 o2, .param .u32 nbytes,"
    " .param .u64 dump)\n{\n"
    ".reg .b64 %rd<16>;\n.reg .b32 %r<32>;\n.reg .b16 %rs<4>;\n.reg .pred %p<8>;\n"
    "ld.param.u64 %rd1, [map];\nld.param.u32 %r2, [rank];\n"
    "ld.param.u32 %r3, [c0];\nld.param.u32 %r4, [c1];\nld.param.u32 %r5, [c2];\nld.param.u32 %r7, [c3];\n"
    "ld.param.u32 %r8, [c4];\nld.param.u16 %rs1, [o0];\nld.param.u16 %rs2, [o1];\nld.param.u16 %rs3, [o2];\n"
    "ld.param.u32 %r6, [nbytes];\nld.param.u64 %rd2, [dump];\n"
    "mov.u32 %r10, buf;\nmov.u32 %r11, bar;\nmov.u32 %r12, 0;\nmov.u32 %r13, 0xeeeeeeee;\n"
    "FILL:\nadd.u32 %r14, %r10, %r12;\nst.shared.u32 [%r14], %r13;\nadd.u32 %r12, %r12, 4;\n"
    "setp.lt.u32 %p2, %r12, 4096;\n@%p2 bra FILL;\n"
    "mbarrier.init.shared::cta.b64 [%r11], 1;\n"
    "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r11], %r6;\n"
    "setp.eq.u32 %p3, %r2, 3;\n@%p3 bra LOAD3;\n"
    "setp.eq.u32 %p3, %r2, 4;\n@%p3 bra LOAD4;\n"
    "cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
    " [%r10], [%rd1, {%r3, %r4, %r5, %r7, %r8}], [%r11], {%rs1, %rs2, %rs3};\n"
    "bra.uni WAIT;\n"
    "LOAD4:\n"
    "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
    " [%r10], [%rd1, {%r3, %r4, %r5, %r7}], [%r11], {%rs1, %rs2};\n"
    "bra.uni WAIT;\n"
    "LOAD3:\n"
    "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
    " [%r10], [%rd1, {%r3, %r4, %r5}], [%r11], {%rs1};\n"
    "WAIT:\nmbarrier.try_wait.parity.shared::cta.b64 %p4, [%r11], 0;\n@!%p4 bra WAIT;\n"
    "mov.u32 %r12, 0;\n"
    "DUMP:\nadd.u32 %r14, %r10, %r12;\nld.shared.u32 %r15, [%r14];\ncvt.u64.u32 %rd4, %r12;\n"
    "add.u64 %rd5, %rd2, %rd4;\nst.global.u32 [%rd5], %r15;\nadd.u32 %r12, %r12, 4;\n"
    "setp.lt.u32 %p5, %r12, 4096;\n@%p5 bra DUMP;\nret;\n}\n";

typedef struct icase {
    const char *name;
    unsigned rank, dtype;
    uint64_t dims[5];
    int lower[3], upper[3];
    uint32_t cpp, ppc, estr[5];
    unsigned swz, oob;
    int32_t c[5];
    int16_t off[3];
} icase;

/* The cases of gpu/jobs/async_im2col/im2col.cu, with the driver's enum values. */
#define U32 VM_TM_U32
#define U16 VM_TM_U16
#define F32 VM_TM_F32
static const icase cases[] = {
    {"i2c_3d_basic", 3, U32, {8, 10, 3}, {0}, {0}, 8, 16, {1, 1, 1}, 0, 0, {0, 0, 0}, {0}},
    {"i2c_3d_pad", 3, U32, {8, 10, 3}, {-1}, {-2}, 4, 24, {1, 1, 1}, 0, 0, {4, -1, 0}, {2}},
    {"i2c_3d_mid", 3, U32, {8, 10, 3}, {-1}, {-2}, 4, 24, {1, 1, 1}, 0, 0, {0, 5, 1}, {1}},
    {"i2c_3d_chan", 3, U32, {8, 10, 3}, {-2}, {1}, 16, 8, {1, 1, 1}, 0, 0, {4, 6, 2}, {0}},
    {"i2c_3d_u16", 3, U16, {16, 6, 2}, {0}, {0}, 8, 16, {1, 1, 1}, 0, 0, {8, 2, 0}, {3}},
    {"i2c_3d_negoff", 3, U32, {4, 12, 2}, {2}, {-1}, 4, 20, {1, 1, 1}, 0, 0, {0, 2, 0}, {-3}},
    {"i2c_4d_basic", 4, U32, {4, 5, 4, 2}, {-1, -1}, {-1, -1}, 4, 32, {1, 1, 1, 1}, 0, 0, {0, -1, -1, 0}, {0, 0}},
    {"i2c_4d_off", 4, U32, {4, 5, 4, 2}, {-1, -1}, {-1, -1}, 4, 32, {1, 1, 1, 1}, 0, 0, {0, -1, -1, 0}, {2, 1}},
    {"i2c_4d_mid", 4, U32, {4, 5, 4, 2}, {-1, -2}, {0, -1}, 4, 48, {1, 1, 1, 1}, 0, 0, {0, 2, 1, 0}, {1, 2}},
    {"i2c_4d_estride", 4, U32, {4, 8, 6, 2}, {0, 0}, {0, 0}, 4, 32, {1, 2, 2, 1}, 0, 0, {0, 0, 0, 0}, {1, 0}},
    {"i2c_4d_estride2", 4, U32, {4, 8, 6, 2}, {-1, -1}, {-2, -1}, 4, 40, {1, 3, 2, 1}, 0, 0, {0, 1, -1, 1}, {0, 1}},
    {"i2c_4d_sw128", 4, U32, {32, 4, 3, 1}, {0, 0}, {0, 0}, 32, 16, {1, 1, 1, 1}, 3, 0, {0, 0, 0, 0}, {0, 0}},
    {"i2c_4d_sw64", 4, U32, {16, 4, 3, 1}, {-1, 0}, {0, 0}, 16, 16, {1, 1, 1, 1}, 2, 0, {0, -1, 0, 0}, {0, 1}},
    {"i2c_4d_nan", 4, F32, {4, 5, 4, 1}, {-2, -2}, {0, 0}, 4, 32, {1, 1, 1, 1}, 0, 1, {0, -2, -2, 0}, {1, 0}},
    {"i2c_4d_nbig", 4, U32, {4, 3, 3, 2}, {0, 0}, {0, 0}, 4, 24, {1, 1, 1, 1}, 0, 0, {0, 1, 2, 1}, {0, 0}},
    {"i2c_5d",
     5,
     U32,
     {4, 3, 3, 3, 2},
     {-1, -1, -1},
     {-1, -1, -1},
     4,
     64,
     {1, 1, 1, 1, 1},
     0,
     0,
     {0, -1, -1, -1, 0},
     {1, 1, 1}},
    {"i2c_5d_mid",
     5,
     U32,
     {8, 4, 3, 2, 2},
     {0, -1, 0},
     {-1, 0, 0},
     8,
     40,
     {1, 1, 1, 1, 1},
     0,
     0,
     {0, 1, 0, 1, 0},
     {0, 1, 0}},
};

/* Runs a case; returns the 4096-byte dump, malloc'd. */
static uint8_t *run_case(const icase *tc) {
    ptxi_ctx_options opt = {.threads = 1, .timeout_s = 20};
    ptxi_ctx *ctx;
    ptxi_module *mod;
    ptxi_kernel *k;
    cr_assert_eq(ptxi_ctx_create(&ctx, &opt), PTXI_SUCCESS);
    cr_assert_eq(ptxi_module_load_data(ctx, kernel_ptx, strlen(kernel_ptx), "im2col.ptx", &mod), PTXI_SUCCESS, "%s",
                 ptxi_ctx_error_detail(ctx));
    cr_assert_eq(ptxi_module_get_kernel(mod, "im2col", &k), PTXI_SUCCESS);
    size_t esz = tc->dtype == U16 ? 2 : 4, n = 1;
    for (unsigned d = 0; d < tc->rank; d++) n *= tc->dims[d];
    uint8_t *h = malloc(n * esz);
    for (size_t i = 0; i < n; i++) {
        if (tc->dtype == F32) {
            float f = (float)i;
            memcpy(h + 4 * i, &f, 4);
        } else if (esz == 4) {
            uint32_t v = (uint32_t)i;
            memcpy(h + 4 * i, &v, 4);
        } else {
            uint16_t v = (uint16_t)i;
            memcpy(h + 2 * i, &v, 2);
        }
    }
    ptxi_dptr g, dump, map;
    cr_assert_eq(ptxi_mem_alloc(ctx, n * esz, &g), PTXI_SUCCESS);
    cr_assert_eq(ptxi_mem_alloc(ctx, 4096, &dump), PTXI_SUCCESS);
    cr_assert_eq(ptxi_mem_alloc(ctx, 128, &map), PTXI_SUCCESS);
    cr_assert_eq(ptxi_memcpy_htod(ctx, g, h, n * esz), PTXI_SUCCESS);
    uint64_t strides[4];
    strides[0] = tc->dims[0] * esz;
    for (unsigned d = 1; d + 1 < tc->rank; d++) strides[d] = strides[d - 1] * tc->dims[d];
    vm_tmap tm;
    cr_assert_eq(ptxi_tmap_encode_im2col(&tm, tc->dtype, tc->rank, g, tc->dims, strides, tc->lower, tc->upper, tc->cpp,
                                         tc->ppc, tc->estr, 0, tc->swz, 0, tc->oob),
                 0, "%s: encode", tc->name);
    cr_assert_eq(ptxi_memcpy_htod(ctx, map, &tm, sizeof tm), PTXI_SUCCESS);
    uint32_t rank = tc->rank, nbytes = (uint32_t)(tc->cpp * tc->ppc * esz);
    int32_t c[5] = {tc->c[0], tc->c[1], tc->c[2], tc->c[3], tc->c[4]};
    uint16_t o[3] = {(uint16_t)tc->off[0], (uint16_t)tc->off[1], (uint16_t)tc->off[2]};
    void *args[] = {&map, &rank, &c[0], &c[1], &c[2], &c[3], &c[4], &o[0], &o[1], &o[2], &nbytes, &dump};
    ptxi_status st = ptxi_launch(k, (ptxi_dim3){1, 1, 1}, (ptxi_dim3){1, 1, 1}, 0, NULL, args);
    if (st == PTXI_SUCCESS) st = ptxi_ctx_synchronize(ctx);
    cr_assert_eq(st, PTXI_SUCCESS, "%s: %s", tc->name, ptxi_ctx_error_detail(ctx));
    uint8_t *out = malloc(4096);
    cr_assert_eq(ptxi_memcpy_dtoh(ctx, out, dump, 4096), PTXI_SUCCESS);
    free(h);
    ptxi_ctx_destroy(ctx);
    return out;
}

/* An im2col copy with a map made by the tiled encoder faults (illegal
 * instruction) instead of reading the map's box as channels and pixels. */
Test(im2col, tile_map_refused) {
    ptxi_ctx_options opt = {.threads = 1, .timeout_s = 20};
    ptxi_ctx *ctx;
    ptxi_module *mod;
    ptxi_kernel *k;
    cr_assert_eq(ptxi_ctx_create(&ctx, &opt), PTXI_SUCCESS);
    cr_assert_eq(ptxi_module_load_data(ctx, kernel_ptx, strlen(kernel_ptx), "im2col.ptx", &mod), PTXI_SUCCESS);
    cr_assert_eq(ptxi_module_get_kernel(mod, "im2col", &k), PTXI_SUCCESS);
    ptxi_dptr g, dump, map;
    cr_assert_eq(ptxi_mem_alloc(ctx, 4096, &g), PTXI_SUCCESS);
    cr_assert_eq(ptxi_mem_alloc(ctx, 4096, &dump), PTXI_SUCCESS);
    cr_assert_eq(ptxi_mem_alloc(ctx, 128, &map), PTXI_SUCCESS);
    uint64_t dims[3] = {4, 8, 4}, strides[2] = {16, 128};
    uint32_t box[3] = {4, 8, 2}, es[3] = {1, 1, 1};
    vm_tmap tm;
    cr_assert_eq(ptxi_tmap_encode_tiled(&tm, U32, 3, g, dims, strides, box, es, 0, 0, 0, 0), 0);
    cr_assert_eq(ptxi_memcpy_htod(ctx, map, &tm, sizeof tm), PTXI_SUCCESS);
    uint32_t rank = 3, nbytes = 256;
    int32_t c = 0;
    uint16_t o = 0;
    void *args[] = {&map, &rank, &c, &c, &c, &c, &c, &o, &o, &o, &nbytes, &dump};
    ptxi_status st = ptxi_launch(k, (ptxi_dim3){1, 1, 1}, (ptxi_dim3){1, 1, 1}, 0, NULL, args);
    if (st == PTXI_SUCCESS) st = ptxi_ctx_synchronize(ctx);
    cr_expect_eq(st, PTXI_ILLEGAL_INSTRUCTION, "%s", ptxi_ctx_error_detail(ctx));
    cr_expect(strstr(ptxi_ctx_error_detail(ctx), "im2col"), "%s", ptxi_ctx_error_detail(ctx));
    ptxi_ctx_destroy(ctx);
}

static void against_gpu(const icase *tc) {
    char path[512];
    snprintf(path, sizeof path, REC "%s.bin", tc->name);
    FILE *fp = fopen(path, "rb");
    cr_assert_not_null(fp, "no recording %s", path);
    uint8_t want[4096];
    size_t wn = fread(want, 1, sizeof want, fp);
    fclose(fp);
    cr_assert_eq(wn, 4096, "%s: recording of %zu bytes", tc->name, wn);
    uint8_t *got = run_case(tc);
    for (size_t i = 0; i < 4096; i += 4)
        if (memcmp(got + i, want + i, 4)) {
            uint32_t a, b;
            memcpy(&a, got + i, 4);
            memcpy(&b, want + i, 4);
            free(got);
            cr_assert_fail("%s: first difference at byte %zu: ptxi 0x%08x, GPU 0x%08x", tc->name, i, a, b);
        }
    free(got);
}

static void gpu_case(const char *name) {
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!strcmp(cases[i].name, name)) {
            against_gpu(&cases[i]);
            return;
        }
    cr_assert_fail("no case %s", name);
}

Test(im2col, load_3d_basic) { gpu_case("i2c_3d_basic"); }
Test(im2col, load_3d_pad) { gpu_case("i2c_3d_pad"); }
Test(im2col, load_3d_mid) { gpu_case("i2c_3d_mid"); }
Test(im2col, load_3d_chan) { gpu_case("i2c_3d_chan"); }
Test(im2col, load_3d_u16) { gpu_case("i2c_3d_u16"); }
Test(im2col, load_3d_negoff) { gpu_case("i2c_3d_negoff"); }
Test(im2col, load_4d_basic) { gpu_case("i2c_4d_basic"); }
Test(im2col, load_4d_off) { gpu_case("i2c_4d_off"); }
Test(im2col, load_4d_mid) { gpu_case("i2c_4d_mid"); }
Test(im2col, load_4d_estride) { gpu_case("i2c_4d_estride"); }
Test(im2col, load_4d_estride2) { gpu_case("i2c_4d_estride2"); }
Test(im2col, load_4d_sw128) { gpu_case("i2c_4d_sw128"); }
Test(im2col, load_4d_sw64) { gpu_case("i2c_4d_sw64"); }
Test(im2col, load_4d_nan) { gpu_case("i2c_4d_nan"); }
Test(im2col, load_4d_nbig) { gpu_case("i2c_4d_nbig"); }
Test(im2col, load_5d) { gpu_case("i2c_5d"); }
Test(im2col, load_5d_mid) { gpu_case("i2c_5d_mid"); }

/* cuTensorMapEncodeIm2col's rules (the driver API reference), each broken
 * once from a valid 4-D map (channels 16, 8 x 8 pixels, 2 images, u32). */
typedef struct erule {
    unsigned rank, dtype;
    int lower0, upper0;
    uint32_t cpp, ppc, estr1;
    unsigned swz;
    uint64_t dim1, addr_off;
    int ok;
} erule;

static int encode_rule(const erule *e) {
    uint64_t dims[5] = {16, e->dim1, 8, 8, 2}, strides[4];
    strides[0] = 64;
    for (int d = 1; d < 4; d++) strides[d] = strides[d - 1] * dims[d];
    int lower[3] = {e->lower0, -1, -1}, upper[3] = {e->upper0, -1, -1};
    uint32_t es[5] = {1, e->estr1, 1, 1, 1};
    vm_tmap tm;
    return ptxi_tmap_encode_im2col(&tm, e->dtype, e->rank, 0x10000 + e->addr_off, dims, strides, lower, upper, e->cpp,
                                   e->ppc, es, 0, e->swz, 0, 0);
}

Test(im2col, encode_rules) {
    static const erule rules[] = {
        {4, U32, -1, -1, 16, 32, 1, 0, 8, 0, 1},
        {2, U32, -1, -1, 16, 32, 1, 0, 8, 0, 0}, /* rank 3..5 */
        {6, U32, -1, -1, 16, 32, 1, 0, 8, 0, 0},
        {3, U32, -1, -1, 16, 32, 1, 0, 8, 0, 1},
        {5, U32, -1, -1, 16, 32, 1, 0, 8, 0, 1},
        {4, U32, -1, -1, 0, 32, 1, 0, 8, 0, 0}, /* channelsPerPixel 1..256 */
        {4, U32, -1, -1, 256, 32, 1, 0, 8, 0, 1},
        {4, VM_TM_U8, -1, -1, 272, 32, 1, 0, 8, 0, 0},
        {4, U32, -1, -1, 3, 32, 1, 0, 8, 0, 0}, /* ... and a multiple of 16 bytes */
        {4, U32, -1, -1, 16, 0, 1, 0, 8, 0, 0}, /* pixelsPerColumn 1..1024 */
        {4, U32, -1, -1, 16, 1024, 1, 0, 8, 0, 1},
        {4, U32, -1, -1, 16, 1025, 1, 0, 8, 0, 0},
        {4, U32, -128, -1, 16, 32, 1, 0, 8, 0, 1}, /* rank 4 corners: [-128, 127] */
        {4, U32, -129, -1, 16, 32, 1, 0, 8, 0, 0},
        {4, U32, -1, 127, 16, 32, 1, 0, 8, 0, 1},
        {4, U32, -1, 128, 16, 32, 1, 0, 8, 0, 0},
        {3, U32, -32768, 32767, 16, 32, 1, 0, 8, 0, 1}, /* rank 3: [-32768, 32767] */
        {3, U32, -32769, -1, 16, 32, 1, 0, 8, 0, 0},
        {3, U32, -1, 32768, 16, 32, 1, 0, 8, 0, 0},
        {5, U32, -16, 15, 16, 32, 1, 0, 8, 0, 1}, /* rank 5: [-16, 15] */
        {5, U32, -17, -1, 16, 32, 1, 0, 8, 0, 0},
        {5, U32, -1, 16, 16, 32, 1, 0, 8, 0, 0},
        {4, U32, 0, -8, 16, 32, 1, 0, 8, 0, 0}, /* an empty bounding box */
        {4, U32, 0, -7, 16, 32, 1, 0, 8, 0, 1},
        {4, U32, -1, -1, 16, 32, 0, 0, 8, 0, 0}, /* element strides 1..8 */
        {4, U32, -1, -1, 16, 32, 8, 0, 8, 0, 1},
        {4, U32, -1, -1, 16, 32, 9, 0, 8, 0, 0},
        {4, U32, -1, -1, 32, 32, 1, 3, 8, 0, 1}, /* the channels' bytes within the swizzle span */
        {4, U32, -1, -1, 64, 32, 1, 3, 8, 0, 0},
        {4, U32, -1, -1, 16, 32, 1, 1, 8, 0, 0},
        {4, U32, -1, -1, 16, 32, 1, 0, 8, 8, 0}, /* a 16-byte aligned address */
        {4, U32, -1, -1, 16, 32, 1, 0, 0, 0, 0}, /* dimensions of at least 1 */
    };
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        cr_expect_eq(encode_rule(&rules[i]) == 0, rules[i].ok, "rule %zu", i);
    vm_tmap tm;
    uint64_t dims[4] = {16, 8, 8, 2}, strides[3] = {64, 512, 4096};
    int lo[2] = {-1, -1};
    uint32_t es[4] = {1, 1, 1, 1};
    cr_expect_neq(ptxi_tmap_encode_im2col(&tm, U32, 4, 0x10000, dims, strides, lo, NULL, 16, 32, es, 0, 0, 0, 0), 0);
    cr_expect_neq(ptxi_tmap_encode_im2col(NULL, U32, 4, 0x10000, dims, strides, lo, lo, 16, 32, es, 0, 0, 0, 0), 0);
    cr_expect_neq(ptxi_tmap_encode_im2col(&tm, U32, 4, 0x10000, dims, strides, lo, lo, 16, 32, NULL, 0, 0, 0, 0), 0);
}
