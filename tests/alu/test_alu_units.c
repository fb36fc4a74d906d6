/* test_alu_units.c — ALU semantics at points whose answers follow from the
 * definitions (worked out by hand in the comments) or were measured on sm_90 and
 * are marked so: carry chains, prmt, bit fields, funnel shifts, lop3, saturation,
 * directed rounding on exactly known cases, .ftz, NaN handling, comparisons. */
#include <criterion/criterion.h>

#include "alu.h"

/* Evaluates `mn` (nopnds operands) on sources s; returns destination i. */
static uint64_t ev_cc(const char *mn, unsigned nopnds, const uint64_t *s, int i, uint32_t *cc) {
    alu_op op;
    cr_assert(alu_lookup(mn, nopnds, &op), "unknown form %s/%u", mn, nopnds);
    uint64_t d[2] = {0, 0};
    op.fn(&op, d, s, cc);
    return d[i];
}
#define EV(mn, nop, ...) ev_cc(mn, nop, (const uint64_t[]){__VA_ARGS__}, 0, &(uint32_t){0})
#define EQ(got, want)                                                                                            \
    cr_expect_eq((uint64_t)(got), (uint64_t)(want), "%s: got %#llx want %#llx", #got, (unsigned long long)(got), \
                 (unsigned long long)(want))

Test(alu_units, carry_chain_128bit_add_and_sub) {
    uint32_t cc = 0;
    /* (2^64 - 1) + 1 limb by limb: 0xffffffff + 1 = 0 carry 1, then 0xffffffff + 0 + 1 = 0 carry 1 */
    EQ(ev_cc("add.cc.u32", 3, (uint64_t[]){0xffffffff, 1}, 0, &cc), 0);
    EQ(cc, 1);
    EQ(ev_cc("addc.cc.u32", 3, (uint64_t[]){0xffffffff, 0}, 0, &cc), 0);
    EQ(cc, 1);
    EQ(ev_cc("addc.u32", 3, (uint64_t[]){7, 8}, 0, &cc), 16);
    /* 0x5_00000000 - 1: low 0 - 1 = 0xffffffff with a borrow (flag 0 = borrow, measured),
     * high 5 - 0 - borrow = 4, no borrow (flag 1). */
    EQ(ev_cc("sub.cc.u32", 3, (uint64_t[]){0, 1}, 0, &cc), 0xffffffff);
    EQ(cc, 0);
    EQ(ev_cc("subc.cc.u32", 3, (uint64_t[]){5, 0}, 0, &cc), 4);
    EQ(cc, 1);
    /* 64-bit carry: 2^64-1 + 2^64-1 = 2^65 - 2 */
    EQ(ev_cc("add.cc.u64", 3, (uint64_t[]){~0ull, ~0ull}, 0, &cc), ~1ull);
    EQ(cc, 1);
}

Test(alu_units, mad_carry_builds_a_wide_product) {
    /* 0xffffffff^2 = 0xfffffffe_00000001; adding 0xffffffff to the low word carries */
    uint32_t cc = 0;
    EQ(ev_cc("mad.lo.cc.u32", 4, (uint64_t[]){0xffffffff, 0xffffffff, 0xffffffff}, 0, &cc), 0);
    EQ(cc, 1);
    EQ(ev_cc("madc.hi.u32", 4, (uint64_t[]){0xffffffff, 0xffffffff, 0}, 0, &cc), 0xffffffff);
}

Test(alu_units, multiply_variants) {
    EQ(EV("mul.wide.s32", 3, 0xffffffff, 0xffffffff), 1); /* -1 * -1 */
    EQ(EV("mul.wide.u32", 3, 0xffffffff, 0xffffffff), 0xfffffffe00000001ull);
    EQ(EV("mul.hi.u32", 3, 0xffffffff, 0xffffffff), 0xfffffffe);
    EQ(EV("mul.hi.s64", 3, 1ull << 63, 2), ~0ull);             /* -2^63 * 2 = -2^64 */
    EQ(EV("mul24.hi.u32", 3, 0xffffff, 0xffffff), 0xfffffe00); /* bits 47..16 of 0xfffffe000001 */
    EQ(EV("mul24.lo.s32", 3, 0x00ffffff, 2), 0xfffffffe);      /* 24-bit -1 times 2 */
    EQ(EV("mad.hi.sat.s32", 4, 0x7fffffff, 0x7fffffff, 0x7fffffff), 0x7fffffff);
    EQ(EV("sad.u32", 4, 3, 5, 10), 12);
    EQ(EV("sad.s32", 4, 0xfffffffd, 5, 0), 8); /* |-3 - 5| */
}

Test(alu_units, division_edges) {
    EQ(EV("div.s32", 3, 0x80000000, 0xffffffff), 0x80000000); /* INT_MIN / -1 wraps */
    EQ(EV("rem.s32", 3, 0x80000000, 0xffffffff), 0);
    EQ(EV("div.s32", 3, 0xfffffff9, 2), 0xfffffffd); /* -7 / 2 = -3 (truncating) */
    EQ(EV("rem.s32", 3, 0xfffffff9, 2), 0xffffffff); /* -7 % 2 = -1 */
    /* measured on sm_90: any division by zero gives all ones */
    EQ(EV("div.u32", 3, 7, 0), 0xffffffff);
    EQ(EV("rem.u64", 3, 7, 0), ~0ull);
    EQ(EV("div.s16", 3, 0x8000, 0), 0xffff);
}

Test(alu_units, prmt_modes) {
    const uint64_t a = 0x33221100, b = 0x77665544;
    EQ(EV("prmt.b32", 4, a, b, 0x3210), a);
    EQ(EV("prmt.b32", 4, a, b, 0x7654), b);
    EQ(EV("prmt.b32", 4, a, b, 0x1111), 0x11111111);
    EQ(EV("prmt.b32", 4, 0x000080ff, 0, 0x8989), 0xffffffff); /* sign of bytes 1 and 0 */
    EQ(EV("prmt.b32", 4, 0x00008001, 0, 0x0098), 0x0101ff00); /* sign of byte 0, of byte 1, byte 0 twice */
    EQ(EV("prmt.b32.f4e", 4, a, b, 1), 0x44332211);
    EQ(EV("prmt.b32.b4e", 4, a, b, 1), 0x66770011);
    EQ(EV("prmt.b32.rc8", 4, a, b, 2), 0x22222222);
    EQ(EV("prmt.b32.ecl", 4, a, b, 1), 0x33221111);
    EQ(EV("prmt.b32.ecr", 4, a, b, 2), 0x22221100);
    EQ(EV("prmt.b32.rc16", 4, a, b, 1), 0x33223322);
}

Test(alu_units, bit_fields) {
    EQ(EV("bfe.u32", 4, 0x12345678, 4, 8), 0x67);
    EQ(EV("bfe.s32", 4, 0xf0, 4, 4), 0xffffffff);        /* field 0xf, its top bit set */
    EQ(EV("bfe.s32", 4, 0x80000000, 40, 4), 0xffffffff); /* start past msb: sign of a */
    EQ(EV("bfe.u32", 4, 0xffffffff, 4, 0), 0);           /* empty field */
    EQ(EV("bfe.u32", 4, 0xffffffff, 28, 8), 0xf);        /* clipped at bit 31 */
    EQ(EV("bfi.b32", 5, 0xff, 0x12345678, 8, 4), 0x12345f78);
    EQ(EV("bfi.b32", 5, 0xff, 0x12345678, 30, 8), 0xd2345678); /* only bits 30, 31 */
    EQ(EV("bfind.u32", 2, 0x00010000), 16);
    EQ(EV("bfind.shiftamt.u32", 2, 0x00010000), 15);
    EQ(EV("bfind.s32", 2, 0xffffffff), 0xffffffff); /* no non-sign bit */
    EQ(EV("bfind.s32", 2, 0x80000000), 30);         /* ~a = 0x7fffffff */
    EQ(EV("fns.b32", 4, 0x16, 0, 2), 2);            /* set bits 1 2 4: second is 2 */
    EQ(EV("fns.b32", 4, 0x16, 4, 0xffffffff), 4);   /* offset -1 from 4 */
    EQ(EV("fns.b32", 4, 0x16, 3, 0), 0xffffffff);   /* bit 3 clear */
    EQ(EV("szext.clamp.s32", 3, 0xf, 4), 0xffffffff);
    EQ(EV("szext.wrap.u32", 3, 0xff, 36), 0xf); /* 36 mod 32 = 4 bits */
    EQ(EV("bmsk.clamp.b32", 3, 4, 8), 0xff0);
    EQ(EV("bmsk.wrap.b32", 3, 0, 32), 0);
    EQ(EV("popc.b64", 2, ~0ull), 64);
    EQ(EV("clz.b32", 2, 0), 32);
    EQ(EV("brev.b32", 2, 1), 0x80000000);
    EQ(EV("dp4a.s32.s32", 4, 0xff01ff01, 0x02020202, 10), 10); /* 10 + 2 - 2 + 2 - 2 */
    EQ(EV("dp2a.hi.u32.u32", 4, 0x00030002, 0x05040000, 1), 1 + 2 * 4 + 3 * 5);
}

Test(alu_units, shifts_and_logic) {
    EQ(EV("shf.l.wrap.b32", 4, 0x80000000, 1, 33), 3);           /* 33 mod 32 = 1 */
    EQ(EV("shf.l.clamp.b32", 4, 0x80000000, 1, 33), 0x80000000); /* clamp 32: a */
    EQ(EV("shf.r.clamp.b32", 4, 0, 0x80000000, 40), 0x80000000);
    EQ(EV("shf.r.wrap.b32", 4, 0x00000002, 0x00000001, 1), 0x80000001);
    EQ(EV("shl.b32", 3, 1, 32), 0);
    EQ(EV("shr.s32", 3, 0x80000000, 100), 0xffffffff);
    EQ(EV("shr.u16", 3, 0x8000, 15), 1);
    EQ(EV("lop3.b32", 5, 0xf0f0f0f0, 0xcccccccc, 0xaaaaaaaa, 0xf0), 0xf0f0f0f0);
    EQ(EV("lop3.b32", 5, 0x12345678, 0x9abcdef0, 0x0fedcba9, 0x96), 0x12345678 ^ 0x9abcdef0 ^ 0x0fedcba9);
    EQ(EV("lop3.b32", 5, 0xff00ff00, 0xf0f0f0f0, 0xcccccccc, 0xe8), 0xfcc0fcc0); /* majority */
    EQ(EV("cnot.b32", 2, 0), 1);
    EQ(EV("cnot.b32", 2, 5), 0);
    EQ(EV("not.pred", 2, 1), 0);
}

Test(alu_units, integer_saturation_and_conversion) {
    EQ(EV("add.sat.s32", 3, 0x7fffffff, 1), 0x7fffffff);
    EQ(EV("sub.sat.s32", 3, 0x80000000, 1), 0x80000000);
    EQ(EV("min.relu.s32", 3, 0xfffffffb, 3), 0);
    EQ(EV("max.s16x2", 3, 0x8000ffff, 0x00010002), 0x00010002);
    EQ(EV("add.u16x2", 3, 0xffff0001, 0x00020003), 0x00010004);
    EQ(EV("cvt.sat.u8.s32", 2, 0xfffffffb), 0);
    EQ(EV("cvt.sat.u8.s32", 2, 300), 255);
    EQ(EV("cvt.s8.s32", 2, 0x1ff), 0xffffffff); /* wraps; s8 sign-extended in 32 bits */
    EQ(EV("cvt.u8.s32", 2, 0x1ff), 0xff);
    EQ(EV("cvt.s16.s32", 2, 0x18000), 0xffff8000); /* measured in a 32-bit register */
    EQ(EV("cvt.u16.s32", 2, 0xffffffff), 0xffff);
    EQ(EV("cvt.sat.s16.s32", 2, 0xfffe7960), 0xffff8000); /* -100000 saturates, measured */
    EQ(EV("cvt.s32.s8", 2, 0x80), 0xffffff80);
    EQ(EV("cvt.u64.s32", 2, 0xffffffff), ~0ull);
    EQ(EV("cvt.pack.sat.u8.s32.b32", 4, 300, 0xffffffff, 0x1234), 0x1234ff00);
}

Test(alu_units, float_to_int) {
    EQ(EV("cvt.rzi.s32.f32", 2, 0x4f32d05e), 0x7fffffff); /* 3e9 saturates */
    EQ(EV("cvt.rzi.s32.f32", 2, 0xcf32d05e), 0x80000000);
    EQ(EV("cvt.rzi.u32.f32", 2, 0xbf800000), 0);          /* -1 */
    EQ(EV("cvt.rni.s32.f32", 2, 0x40200000), 2);          /* 2.5 to even */
    EQ(EV("cvt.rni.s32.f32", 2, 0x40600000), 4);          /* 3.5 */
    EQ(EV("cvt.rmi.s32.f32", 2, 0xbf000000), 0xffffffff); /* floor(-0.5) */
    EQ(EV("cvt.rpi.s32.f32", 2, 0x3e4ccccd), 1);          /* ceil(0.2) */
    EQ(EV("cvt.rzi.s32.f32", 2, 0x7fc00000), 0);          /* NaN (measured) */
    EQ(EV("cvt.rzi.s64.f32", 2, 0x7fc00000), 1ull << 63); /* NaN into 64 bits (measured) */
    EQ(EV("cvt.rmi.ftz.s32.f32", 2, 0x80000001), 0);      /* -tiny flushed to -0 */
    EQ(EV("cvt.rmi.s32.f32", 2, 0x80000001), 0xffffffff);
}

Test(alu_units, directed_rounding_exact_cases) {
    /* 1 + 0.75 ulp(1) */
    EQ(EV("add.rn.f32", 3, 0x3f800000, 0x33c00000), 0x3f800001);
    EQ(EV("add.rz.f32", 3, 0x3f800000, 0x33c00000), 0x3f800000);
    EQ(EV("add.rm.f32", 3, 0x3f800000, 0x33c00000), 0x3f800000);
    EQ(EV("add.rp.f32", 3, 0x3f800000, 0x33c00000), 0x3f800001);
    EQ(EV("add.rm.f32", 3, 0xbf800000, 0xb3c00000), 0xbf800001);
    EQ(EV("add.rn.f64", 3, 0x3ff0000000000000, 0x3ca8000000000000), 0x3ff0000000000001);
    EQ(EV("add.rz.f64", 3, 0x3ff0000000000000, 0x3ca8000000000000), 0x3ff0000000000000);
    /* 3 * 0x3eaaaaab = 1 + 2^-25, a quarter ulp above 1 */
    EQ(EV("mul.rn.f32", 3, 0x40400000, 0x3eaaaaab), 0x3f800000);
    EQ(EV("mul.rp.f32", 3, 0x40400000, 0x3eaaaaab), 0x3f800001);
    /* 1/3 = 0x3eaaaaaa.aaa.. */
    EQ(EV("div.rn.f32", 3, 0x3f800000, 0x40400000), 0x3eaaaaab);
    EQ(EV("div.rz.f32", 3, 0x3f800000, 0x40400000), 0x3eaaaaaa);
    EQ(EV("div.rp.f32", 3, 0x3f800000, 0x40400000), 0x3eaaaaab);
    EQ(EV("rcp.rm.f32", 2, 0x40400000), 0x3eaaaaaa);
    /* sqrt(2) = 1.41421356.. lies between 0x3fb504f3 and 0x3fb504f4, nearer the first */
    EQ(EV("sqrt.rn.f32", 2, 0x40000000), 0x3fb504f3);
    EQ(EV("sqrt.rp.f32", 2, 0x40000000), 0x3fb504f4);
    /* fma is one rounding: (1+2^-12)^2 - (1+2^-11) = 2^-24 exactly */
    EQ(EV("fma.rn.f32", 4, 0x3f800800, 0x3f800800, 0xbf801000), 0x33800000);
    /* overflow: rz stays at the largest finite value, rn goes to inf */
    EQ(EV("mul.rz.f32", 3, 0x7f7fffff, 0x40000000), 0x7f7fffff);
    EQ(EV("mul.rn.f32", 3, 0x7f7fffff, 0x40000000), 0x7f800000);
}

Test(alu_units, ftz_sat_and_nan) {
    EQ(EV("mul.f32", 3, 0x00400000, 0x40000000), 0x00800000); /* subnormal * 2 */
    EQ(EV("mul.ftz.f32", 3, 0x00400000, 0x40000000), 0);
    EQ(EV("add.ftz.f32", 3, 0x80000001, 0x80000001), 0x80000000); /* sign kept */
    EQ(EV("add.sat.f32", 3, 0x3f800000, 0x3f800000), 0x3f800000);
    EQ(EV("add.sat.f32", 3, 0xbf800000, 0x00000000), 0);
    EQ(EV("add.f32", 3, 0x7f800000, 0xff800000), 0x7fffffff); /* canonical NaN */
    EQ(EV("add.f32", 3, 0x7fc12345, 0x3f800000), 0x7fffffff);
    EQ(EV("min.f32", 3, 0x80000000, 0x00000000), 0x80000000);
    EQ(EV("max.f32", 3, 0x80000000, 0x00000000), 0x00000000);
    EQ(EV("min.f32", 3, 0x7fc00000, 0x3f800000), 0x3f800000);
    EQ(EV("min.NaN.f32", 3, 0x7fc00000, 0x3f800000), 0x7fffffff);
    EQ(EV("min.xorsign.abs.f32", 3, 0xc0000000, 0x40400000), 0xc0000000); /* -|min(2,3)| */
    EQ(EV("testp.subnormal.f32", 2, 1), 1);
    EQ(EV("testp.notanumber.f64", 2, 0x7ff0000000000001), 1);
    EQ(EV("copysign.f32", 3, 0x80000000, 0x3f800000), 0xbf800000);
}

Test(alu_units, float_conversions) {
    EQ(EV("cvt.rn.f16.f32", 2, 0x3f801000), 0x3c00); /* 1 + 2^-11: tie to even */
    EQ(EV("cvt.rn.f16.f32", 2, 0x3f803000), 0x3c02); /* 1 + 3*2^-11: tie to even */
    EQ(EV("cvt.rz.f16.f32", 2, 0x477ff000), 0x7bff); /* 65520 */
    EQ(EV("cvt.rn.f16.f32", 2, 0x477ff000), 0x7c00);
    EQ(EV("cvt.rn.f16.f32", 2, 0x33800000), 0x0001); /* 2^-24, smallest subnormal */
    EQ(EV("cvt.f32.f16", 2, 0x0001), 0x33800000);
    EQ(EV("cvt.rna.tf32.f32", 2, 0x3f801000), 0x3f802000); /* tie away from zero */
    EQ(EV("cvt.rn.tf32.f32", 2, 0x3f801000), 0x3f800000);  /* tie to even */
    EQ(EV("cvt.rn.f32.u64", 2, ~0ull), 0x5f800000);        /* 2^64 */
    EQ(EV("cvt.rz.f32.u64", 2, ~0ull), 0x5f7fffff);
    EQ(EV("cvt.rn.f32.s32", 2, 0x80000000), 0xcf000000);
    EQ(EV("cvt.rn.f32.f64", 2, 0x36a0000000000000), 0x00000001); /* 2^-149 */
    EQ(EV("cvt.rn.ftz.f32.f64", 2, 0x36a0000000000000), 0);
    EQ(EV("cvt.rni.f32.f32", 2, 0x40200000), 0x40000000);              /* 2.5 -> 2 */
    EQ(EV("cvt.rn.f16x2.f32", 3, 0x3f800000, 0x40000000), 0x3c004000); /* a goes high */
    EQ(EV("cvt.rn.relu.f16.f32", 2, 0xbf800000), 0);
}

Test(alu_units, comparisons) {
    alu_op op;
    uint64_t d[2];
    EQ(EV("setp.lt.f32", 3, 0x7fc00000, 0x3f800000), 0);
    EQ(EV("setp.ltu.f32", 3, 0x7fc00000, 0x3f800000), 1);
    EQ(EV("setp.ne.f32", 3, 0x7fc00000, 0x3f800000), 0);
    EQ(EV("setp.neu.f32", 3, 0x7fc00000, 0x3f800000), 1);
    EQ(EV("setp.eq.f32", 3, 0x80000000, 0x00000000), 1); /* -0 == +0 */
    EQ(EV("setp.eq.ftz.f32", 3, 0x00000001, 0x00000000), 1);
    EQ(EV("setp.eq.f32", 3, 0x00000001, 0x00000000), 0);
    EQ(EV("setp.lt.s32", 3, 0xffffffff, 0), 1);
    EQ(EV("setp.lo.u32", 3, 0xffffffff, 0), 0);
    /* p = (a < b) AND c, q = !(a < b) AND c */
    cr_assert(alu_lookup("setp.lt.and.s32", 5, &op));
    cr_assert_eq(op.nd, 2);
    op.fn(&op, d, (uint64_t[]){1, 2, 1}, NULL);
    EQ(d[0], 1);
    EQ(d[1], 0);
    op.fn(&op, d, (uint64_t[]){3, 2, 1}, NULL);
    EQ(d[0], 0);
    EQ(d[1], 1);
    EQ(EV("set.lt.f32.s32", 3, 1, 2), 0x3f800000);
    EQ(EV("set.lt.u32.s32", 3, 1, 2), 0xffffffff);
    EQ(EV("selp.b32", 4, 5, 6, 0), 6);
    EQ(EV("slct.b32.s32", 4, 5, 6, 0), 5);
    EQ(EV("slct.b32.f32", 4, 5, 6, 0x80000000), 5); /* -0 >= 0 */
}

Test(alu_units, lookup_rejects_malformed_forms) {
    alu_op op;
    cr_expect(!alu_lookup("add.bogus.s32", 3, &op));
    cr_expect(!alu_lookup("add.s32", 4, &op));
    cr_expect(!alu_lookup("mul.wide.s64", 3, &op));
    cr_expect(!alu_lookup("fma.f32", 4, &op));     /* rounding required */
    cr_expect(!alu_lookup("cvt.f32.s32", 2, &op)); /* rounding required */
    cr_expect(!alu_lookup("setp.lo.s32", 3, &op));
    cr_expect(!alu_lookup("sin.f32", 2, &op));
}
