/* test_simd_defs.c — SIMD video, half/bf16 and narrow-float conversion results
 * derived by hand from the PTX definitions (the CUDA guide's vabsdiff4 example,
 * exactly representable values, rounding ties, saturation bounds), including
 * the forms an sm_90 GPU cannot run (fp6, fp4, ue8m0). */
#include <criterion/criterion.h>

#include "alu.h"

/* Run one form on up to three sources; destination i in *d2 when asked. */
static uint64_t run(const char *mn, unsigned nopnds, uint64_t a, uint64_t b, uint64_t c, uint64_t *d2) {
    alu_op op;
    cr_assert(alu_lookup_simd(mn, nopnds, &op), "%s (%u operands) not known", mn, nopnds);
    uint64_t s[6] = {a, b, c}, d[2] = {0, 0};
    uint32_t cc = 0;
    op.fn(&op, d, s, &cc);
    if (d2) *d2 = d[1];
    return d[0];
}
#define R2(mn, a) run(mn, 2, a, 0, 0, NULL)
#define R3(mn, a, b) run(mn, 3, a, b, 0, NULL)
#define R4(mn, a, b, c) run(mn, 4, a, b, c, NULL)
#define EQ(x, y)                                                                                           \
    cr_expect_eq((uint64_t)(x), (uint64_t)(y), "%s: 0x%llx, expected 0x%llx", #x, (unsigned long long)(x), \
                 (unsigned long long)(y))

Test(video, cuda_guide_vabsdiff4_add) {
    /* |1-4| + |2-3| + |3-2| + |4-1| + 5 = 3 + 1 + 1 + 3 + 5 */
    EQ(R4("vabsdiff4.u32.u32.u32.add", 0x01020304, 0x04030201, 5), 13);
}

Test(video, simd_lanes_saturation_and_merge) {
    EQ(R4("vadd2.u32.u32.u32", 0x00010002, 0x00030004, 0), 0x00040006);
    EQ(R4("vadd4.u32.u32.u32.sat", 0xFF7F0102, 0x01010101, 0), 0xFF800203);
    EQ(R4("vadd4.s32.s32.s32.sat", 0x7F808000, 0x01FF0000, 0), 0x7F808000);
    EQ(R4("vsub2.s32.s32.s32.sat", 0x80000000, 0x00010000, 0), 0x80000000);
    EQ(R4("vavrg4.u32.u32.u32", 0x01020304, 0x02020202, 0), 0x02020303);
    EQ(R4("vmin4.s32.s32.s32", 0x80FF0102, 0x7F000201, 0), 0x80FF0101);
    EQ(R4("vmax2.u32.u32.u32", 0x80000001, 0x7FFF0002, 0), 0x80000002);
    EQ(R4("vset4.u32.u32.eq", 0x01020304, 0x01000300, 0), 0x01000100);
    EQ(R4("vset2.s32.s32.lt.add", 0xFFFF0001, 0x00000002, 10), 12);
    /* mask .h1: lane 0 comes from c */
    EQ(R4("vadd2.u32.u32.u32@d=h1", 0x00010002, 0x00030004, 0xAAAABBBB), 0x0004BBBB);
    /* a.h01 swaps a's halves (2, 1); b.h11 (digits index {b,a}) takes a's upper
     * half twice (1, 1): lanes 2+1, 1+1 */
    EQ(R4("vadd2.u32.u32.u32@a=h01@b=h11", 0x00010002, 0x00030004, 0), 0x00030002);
    /* vsads4 as the intrinsic writes it */
    EQ(R4("vabsdiff4.u32.u32.u32.add", 0x00FF00FF, 0xFF00FF00, 0), 4 * 255);
}

Test(video, scalar_forms) {
    EQ(R3("vadd.u32.u32.u32", 5, 7), 12);
    EQ(R3("vadd.s32.s32.s32.sat", 0x7FFFFFFF, 1), 0x7FFFFFFF);
    EQ(R3("vsub.u32.u32.u32.sat", 1, 2), 0);
    EQ(R3("vabsdiff.s32.s32.s32", (uint32_t)-5, 3), 8);
    EQ(R3("vmin.s32.s32.s32@a=b1@b=h0", 0x0000FF00, 0x00000005), (uint32_t)-1);
    EQ(R4("vmax.u32.u32.u32@d=b2", 3, 9, 0x11223344), 0x11093344);
    EQ(R4("vadd.u32.u32.u32.add", 1, 2, 3), 6);
    EQ(R3("vshl.u32.u32.u32.wrap", 1, 33), 2);
    EQ(R3("vshl.u32.u32.u32.clamp", 1, 40), 0);
    EQ(R3("vshr.s32.s32.u32.clamp", 0x80000000, 40), 0xFFFFFFFF);
    EQ(R3("vset.u32.u32.ge", 4, 4), 1);
    /* the PTX example vmad.u32.u32.u32.shr15 r0, r1.h0, r2.h0, r3 */
    EQ(R4("vmad.u32.u32.u32.shr15@a=h0@b=h0", 0x00008000, 0x00000004, 0x8000), (0x20000 + 0x8000) >> 15);
    EQ(R4("vmad.s32.s32.s32@c=-", 3, 4, 5), 7);
    EQ(R4("vmad.s32.s32.s32.po", 3, 4, 5), 18);
}

Test(video, malformed_forms_are_refused) {
    alu_op op;
    cr_expect(!alu_lookup_simd("vadd2.u32.u32.u32.sat.add", 4, &op)); /* .sat with .add */
    cr_expect(!alu_lookup_simd("vadd2.u32.u32.u32@a=h04", 4, &op));   /* no half 4 */
    cr_expect(!alu_lookup_simd("vadd4.u32.u32.u32@d=b4", 4, &op));
    cr_expect(!alu_lookup_simd("vmad.s32.s32.s32@a=-@c=-", 4, &op)); /* negate a*b or c */
    cr_expect(!alu_lookup_simd("vadd.u32.u32.u32", 4, &op));         /* 4 operands need .op2 or a merge */
    cr_expect(!alu_lookup_simd("add.rz.f16", 3, &op));
    cr_expect(!alu_lookup_simd("cvt.rn.f32.f64", 2, &op));            /* the core ALU's */
    cr_expect(!alu_lookup_simd("cvt.rn.e4m3x2.f32", 3, &op));         /* .satfinite is required */
    cr_expect(!alu_lookup_simd("cvt.rn.satfinite.e4m3.f32", 2, &op)); /* fp8 only in pairs */
    cr_expect(!alu_lookup_simd("cvt.rna.relu.e3m2x2.bf16x2", 2, &op));
    cr_expect(!alu_lookup_simd("cvt.rn.f32.tf32", 2, &op)); /* tf32 only as a result */
    cr_expect(!alu_lookup_simd("cvt.rn.relu.f16.f64", 2, &op));
}

Test(half, exact_conversions) {
    EQ(R2("cvt.f32.f16", 0x3C00), 0x3F800000);
    EQ(R2("cvt.f32.f16", 0x7BFF), 0x477FE000); /* 65504 */
    EQ(R2("cvt.f32.f16", 0x0001), 0x33800000); /* 2^-24 */
    EQ(R2("cvt.f32.f16", 0xFC00), 0xFF800000);
    EQ(R2("cvt.f64.f16", 0xC000), 0xC000000000000000ull);
    EQ(R2("cvt.f32.bf16", 0x3F80), 0x3F800000);
    EQ(R2("cvt.rn.f16.f32", 0x3F800000), 0x3C00);
    EQ(R2("cvt.rn.f16.f32", 0x477FEFFF), 0x7BFF); /* just below 65520 */
    EQ(R2("cvt.rn.f16.f32", 0x477FF000), 0x7C00); /* 65520 ties to even: overflow */
    EQ(R2("cvt.rz.f16.f32", 0x477FF000), 0x7BFF);
    EQ(R2("cvt.rn.f16.f32", 0x3F801000), 0x3C00); /* 1 + 2^-11: tie, even */
    EQ(R2("cvt.rn.f16.f32", 0x3F803000), 0x3C02); /* 1 + 3*2^-11: tie, even */
    EQ(R2("cvt.rp.f16.f32", 0x3F800001), 0x3C01);
    EQ(R2("cvt.rm.f16.f32", 0xBF800001), 0xBC01);
    EQ(R2("cvt.rn.f16.f32", 0x33000000), 0x0000); /* 2^-25: tie to even zero */
    EQ(R2("cvt.rn.f16.f32", 0x33000001), 0x0001);
    EQ(R2("cvt.rn.sat.f16.f32", 0x40000000), 0x3C00);
    EQ(R2("cvt.rn.relu.f16.f32", 0xC0000000), 0x0000);
    EQ(R2("cvt.rn.bf16.f32", 0x3F808000), 0x3F80); /* tie, even */
    EQ(R2("cvt.rn.bf16.f32", 0x3F818000), 0x3F82);
    EQ(R2("cvt.rz.bf16.f32", 0x3F81FFFF), 0x3F81);
    EQ(R3("cvt.rn.f16x2.f32", 0x3F800000, 0xC0000000), 0x3C00C000); /* a high, b low */
    EQ(R3("cvt.rn.bf16x2.f32", 0x40400000, 0x3F800000), 0x40403F80);
    EQ(R2("cvt.rna.tf32.f32", 0x3F801000), 0x3F802000); /* half away */
    EQ(R2("cvt.rn.f16.s32", 2049), 0x6800);             /* 2049 ties to 2048 */
    EQ(R2("cvt.rn.f16.u64", 0xFFFFFFFFFFFFFFFFull), 0x7C00);
    EQ(R2("cvt.rzi.s32.f16", 0xC100), (uint32_t)-2); /* -2.5 */
    EQ(R2("cvt.rni.s32.f16", 0x4100), 2);            /* 2.5 to even */
    EQ(R2("cvt.rni.u8.f16", 0x5BFF), 0xFF);          /* 255.875 saturates */
}

Test(half, arithmetic) {
    EQ(R3("add.f16", 0x3C00, 0x4000), 0x4200); /* 1 + 2 = 3 */
    EQ(R3("sub.rn.bf16", 0x3F80, 0x3F80), 0x0000);
    EQ(R3("mul.f16x2", 0x40004200, 0x3C00BC00), 0x4000C200);
    /* (1+3u)^2 - 1 = 6u + 9u^2 (u = 2^-10): one rounding keeps 2 ulps of the 9u^2
     * that rounding the product first would lose */
    EQ(R4("fma.rn.f16", 0x3C03, 0x3C03, 0xBC00), 0x1E02);
    EQ(R4("fma.rn.relu.bf16", 0xBF80, 0x3F80, 0x0000), 0x0000);
    EQ(R3("add.sat.f16", 0x3C00, 0x3C00), 0x3C00);
    EQ(R3("add.ftz.f16", 0x0001, 0x0001), 0x0000);
    EQ(R3("add.f16", 0x0001, 0x0001), 0x0002);
    /* 0.99951 * -2^-14 rounds to -2^-14, but .ftz judges tininess before rounding
     * (recorded on an H100) */
    EQ(R3("mul.ftz.f16", 0x3BFF, 0x8400), 0x8000);
    EQ(R3("mul.f16", 0x3BFF, 0x8400), 0x8400);
    EQ(R2("neg.bf16x2", 0x3F80BF80), 0xBF803F80);
    EQ(R2("abs.f16", 0xC000), 0x4000);
    EQ(R3("min.f16", 0x7E00, 0x3C00), 0x3C00);     /* NaN ignored */
    EQ(R3("min.NaN.f16", 0x7E00, 0x3C00), 0x7FFF); /* canonical NaN */
    EQ(R3("max.f16", 0x8000, 0x0000), 0x0000);
    EQ(R3("min.xorsign.abs.f16", 0xC000, 0x4200), 0xC000); /* |-2| vs |3|, sign - */
    EQ(R3("max.xorsign.abs.bf16", 0xC000, 0xC040), 0x4040);
    EQ(R2("ex2.approx.f16", 0x3C00), 0x4000); /* 2^1 */
    EQ(R2("ex2.approx.ftz.bf16", 0x0000), 0x3F80);
    EQ(R2("tanh.approx.f16", 0x0000), 0x0000);
}

Test(half, compare) {
    uint64_t q = 0;
    EQ(R3("setp.lt.f16", 0x3C00, 0x4000), 1);
    EQ(R3("setp.lt.f16", 0x7E00, 0x4000), 0);
    EQ(R3("setp.ltu.f16", 0x7E00, 0x4000), 1);
    EQ(run("setp.eq.f16x2", 4, 0x3C004000, 0x3C003C00, 0, &q), 0); /* p: low halves */
    EQ(q, 1);                                                      /* q: high halves */
    EQ(run("setp.gt.and.bf16", 4, 0x4000, 0x3F80, 0, NULL), 0);
    EQ(R3("set.eq.f16.f16", 0x3C00, 0x3C00), 0x3C00);
    EQ(R3("set.gt.u32.f16x2", 0x40003C00, 0x3C004000), 0xFFFF0000);
    EQ(R3("set.ne.f32.f16", 0x3C00, 0x4000), 0x3F800000);
}

Test(fp8, conversions) {
    EQ(R3("cvt.rn.satfinite.e4m3x2.f32", 0x43E00000, 0x3F800000), 0x7E38); /* 448, 1 */
    EQ(R3("cvt.rn.satfinite.e4m3x2.f32", 0x43F00000, 0x7FC00000), 0x7E7F); /* 480 saturates; NaN */
    EQ(R3("cvt.rn.satfinite.e5m2x2.f32", 0x47600000, 0x7F800000), 0x7B7B); /* 57344; inf saturates */
    EQ(R3("cvt.rn.satfinite.relu.e4m3x2.f32", 0xBF800000, 0x3F800000), 0x0038);
    EQ(R2("cvt.rn.satfinite.e4m3x2.f16x2", 0x3C00BC00), 0x38B8);
    EQ(R2("cvt.rn.f16x2.e4m3x2", 0x387E), 0x3C005F00); /* 1, 448 */
    EQ(R2("cvt.rn.f16x2.e5m2x2", 0x3C7C), 0x3C007C00); /* 1, inf */
}

/* The sm_100 formats, from their definitions: e2m1 {0,.5,1,1.5,2,3,4,6},
 * e2m3 max 7.5, e3m2 max 28, ue8m0 = 2^(e-127). */
Test(fp8, fp6_fp4_ue8m0_from_definition) {
    EQ(R3("cvt.rn.satfinite.e2m1x2.f32", 0x40C00000, 0xBF000000), 0x79); /* 6, -0.5 */
    EQ(R3("cvt.rn.satfinite.e2m1x2.f32", 0x40A00000, 0x41000000), 0x67); /* 5 ties to 4; 8 saturates to 6 */
    EQ(R2("cvt.rn.f16x2.e2m1x2", 0x79), 0x4600B800);
    EQ(R3("cvt.rn.satfinite.e3m2x2.f32", 0x41E00000, 0x3F800000), 0x1F0C); /* 28, 1 */
    EQ(R3("cvt.rn.satfinite.e2m3x2.f32", 0x41000000, 0x3F800000), 0x1F08); /* 8 saturates to 7.5; 1 */
    EQ(R2("cvt.rn.f16x2.e3m2x2", 0x1F0C), 0x4F003C00);
    EQ(R2("cvt.rn.f16x2.e2m3x2", 0x1F08), 0x47803C00);
    EQ(R3("cvt.rz.satfinite.ue8m0x2.f32", 0x3F800000, 0x40400000), 0x7F80); /* 1; 3 -> 2 */
    EQ(R3("cvt.rp.satfinite.ue8m0x2.f32", 0x3F800000, 0x40400000), 0x7F81); /* 3 -> 4 */
    EQ(R2("cvt.rn.bf16x2.ue8m0x2", 0x7F80), 0x3F804000);
    EQ(R2("cvt.rz.ue8m0x2.bf16x2", 0x3F804040), 0x7F80);
}

Test(pack, integer_packs) {
    EQ(R3("cvt.pack.sat.s16.s32", 70000, (uint32_t)-70000), 0x7FFF8000);
    EQ(R3("cvt.pack.sat.u16.s32", (uint32_t)-1, 65536), 0x0000FFFF);
    EQ(R4("cvt.pack.sat.u8.s32.b32", 300, (uint32_t)-5, 0x1234), 0x1234FF00);
    EQ(R4("cvt.pack.sat.s4.s32.b32", 9, (uint32_t)-9, 0x1), 0x178);
}
