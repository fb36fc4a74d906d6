/* alu_core_cvt.c — cvt between every integer and float type (f16, bf16, tf32,
 * f32, f64), the packed f16x2/bf16x2 forms and cvt.pack. Every float result is
 * rounded once, in software (alu_round_pack), from the exact source value. */
#include "alu_core_impl.h"

#include <math.h>

enum { C_FTZ = 1, C_SAT = 2, C_RELU = 4, C_IRND = 8, C_SATFINITE = 16 };

/* p[0] destination type, p[1] source type, p[2] rounding (ALU_RN.. ; for .rni..
 * the same order), p[3] C_* flags. */

static alu_fmt fmt_of(int t) {
    switch (t) {
    case T_f16: return ALU_F16;
    case T_bf16: return ALU_BF16;
    case T_tf32: return ALU_TF32;
    case T_f32: return ALU_F32;
    default: return ALU_F64;
    }
}
/* The NaN a float-to-float conversion gives (measured on sm_90): from f64 the
 * sign and the top of the payload survive, quieted; to f64 likewise (through the
 * canonical f32 NaN under .ftz); bf16 to f32 is a plain shift; tf32 .rna keeps the
 * operand's bits; everything else gives the canonical NaN of its width. */
static uint64_t nan_conv(const alu_op *op, uint64_t v, int st, int dt) {
    alu_fmt sf = fmt_of(st), df = fmt_of(dt);
    if (op->p[3] & C_SAT) return 0;
    if (st == T_f32 && (op->p[3] & C_FTZ)) v = ALU_NAN32;
    if (st == T_bf16 && dt == T_f32) return v << 16;
    if (dt == T_tf32) { /* .satfinite lowers an all-ones exponent by one unit, NaN or not */
        if (op->p[2] != ALU_RNA) return 0x7fffe000u;
        return (v & ~0x1fffull) - (op->p[3] & C_SATFINITE ? 0x2000 : 0);
    }
    if (st == T_f64 || dt == T_f64) {
        uint64_t sign = v >> (sf.ebits + sf.mbits) & 1, pay = v & alu_mask(sf.mbits);
        pay = df.mbits > sf.mbits ? pay << (df.mbits - sf.mbits) : pay >> (sf.mbits - df.mbits);
        return sign << (df.ebits + df.mbits) | alu_mask(df.ebits) << df.mbits | 1ull << (df.mbits - 1) | pay;
    }
    return dt == T_f32 ? ALU_NAN32 : ALU_NAN16;
}
static uint64_t enc_bits(int t, uint64_t enc) { return t == T_tf32 ? enc << 13 : enc; }

/* The source as an exact double (float types) or integer; NaN reported apart. */
typedef struct {
    bool isint, nan;
    __int128 i;
    double f;
    uint64_t raw;
} val;

static val read_src(const alu_op *op, uint64_t v) {
    int t = op->p[1];
    val x = {.raw = v};
    char k = alu_tkind(t);
    unsigned w = alu_tbits(t);
    if (k != 'f') {
        x.isint = true;
        x.i = k == 's' ? (__int128)alu_sext(v, w) : (__int128)(v & alu_mask(w));
        return x;
    }
    if (t == T_f32) {
        uint32_t u = (uint32_t)v;
        if (op->p[3] & C_FTZ) u = alu_ftz32(u);
        x.nan = alu_isnan32(u);
        x.f = alu_f32(u);
    } else if (t == T_f64) {
        x.nan = alu_isnan64(v);
        x.f = alu_f64(v);
    } else {
        x.f = alu_widen(fmt_of(t), v & alu_mask(w));
        x.nan = isnan(x.f);
    }
    return x;
}

static double irnd(double f, int rm) {
    switch (rm) {
    case ALU_RN: return nearbyint(f);
    case ALU_RZ: return trunc(f);
    case ALU_RM: return floor(f);
    default: return ceil(f);
    }
}

/* Float to integer: rounded and saturated to the type's range. NaN gives 0,
 * except from f64 or into 64 bits, where it gives the pattern 0x80...0 of the
 * destination width (measured). */
/* An integer result as register bits: 8- and 16-bit types written to a 32-bit
 * register come out sign-extended (s8, s16) or zero-extended to 32 bits
 * (measured); a 16-bit register keeps the low half. */
static uint64_t int_bits(uint64_t v, unsigned w, bool sg) {
    v = sg ? (uint64_t)alu_sext(v, w) : v & alu_mask(w);
    return v & alu_mask(w < 32 ? 32 : w);
}
static uint64_t to_int(const alu_op *op, val x, int t) {
    unsigned w = alu_tbits(t);
    bool sg = alu_tkind(t) == 's';
    __int128 lo = sg ? -((__int128)1 << (w - 1)) : 0, hi = sg ? ((__int128)1 << (w - 1)) - 1 : (__int128)alu_mask(w);
    __int128 v;
    if (x.isint) {
        v = x.i;
        if (!(op->p[3] & C_SAT)) return int_bits((uint64_t)v, w, sg);
    } else if (x.nan) {
        if (op->p[1] != T_f64 && w < 64) return 0;
        return int_bits(1ull << (w - 1), w, sg);
    } else {
        double r = irnd(x.f, op->p[2]);
        v = r <= -0x1p100 ? lo : r >= 0x1p100 ? hi : (__int128)r;
    }
    v = v < lo ? lo : v > hi ? hi : v;
    return int_bits((uint64_t)v, w, sg);
}

static uint64_t to_float(const alu_op *op, val x, int t) {
    alu_fmt f = fmt_of(t);
    unsigned sbit = f.ebits + f.mbits;
    uint64_t r;
    if (x.isint) {
        unsigned neg = x.i < 0;
        unsigned __int128 mag = neg ? -(unsigned __int128)x.i : (unsigned __int128)x.i;
        r = alu_round_pack(f, neg, (uint64_t)mag, 0, false, op->p[2]);
    } else if (x.nan) {
        return nan_conv(op, x.raw, op->p[1], t);
    } else if (isinf(x.f)) {
        r = (((1ull << f.ebits) - 1) << f.mbits) | ((uint64_t)(x.f < 0) << sbit);
    } else {
        double v = x.f;
        if (op->p[3] & C_IRND) v = irnd(v, op->p[2]);
        r = alu_round_f64(f, v, op->p[3] & C_IRND ? ALU_RN : (int)op->p[2]);
    }
    if ((op->p[3] & C_FTZ) && t == T_f32 && !(r & (((1ull << f.ebits) - 1) << f.mbits)))
        r &= 1ull << sbit; /* flush a subnormal result */
    if ((op->p[3] & C_RELU) && (r >> sbit)) r = 0;
    if (op->p[3] & C_SAT) {
        if (r >> sbit) r = 0;
        else if (r > (((1ull << (f.ebits - 1)) - 1) << f.mbits)) r = ((1ull << (f.ebits - 1)) - 1) << f.mbits;
    }
    if ((op->p[3] & C_SATFINITE) && (r & ~(1ull << sbit)) == ((1ull << f.ebits) - 1) << f.mbits) r -= 1;
    return enc_bits(t, r);
}

static uint64_t convert(const alu_op *op, uint64_t v, int dt) {
    val x = read_src(op, v);
    return alu_tkind(dt) == 'f' ? to_float(op, x, dt) : to_int(op, x, dt);
}

ALU_FN(f_cvt) { d[0] = convert(op, s[0], op->p[0]); }
/* A float cvt to its own type without modifiers is a move: NaNs keep their bits. */
ALU_FN(f_cvt_move) { d[0] = s[0] & alu_mask(alu_tbits(op->p[0])); }
/* f16x2/bf16x2: the first source goes to the upper half. */
ALU_FN(f_cvt_x2) {
    int t = op->p[0] == T_f16x2 ? T_f16 : T_bf16;
    d[0] = convert(op, s[0], t) << 16 | convert(op, s[1], t);
}
/* cvt.pack.sat: a and b saturated to the narrow type, a above b; the 8-bit forms
 * put the low half of c above them. */
ALU_FN(f_cvt_pack) {
    int t = op->p[0];
    unsigned w = alu_tbits(t);
    uint64_t r = (convert(op, s[0], t) & alu_mask(w)) << w | (convert(op, s[1], t) & alu_mask(w));
    if (w == 8) r |= (s[2] & 0xffff) << 16;
    d[0] = r;
}

int alu_build_cvt(int opc, alu_mn *m, alu_op *op) {
    if (opc != IR_OP_CVT) return 0;
    static const uint16_t irn[] = {IR_MOD_RNI, IR_MOD_RZI, IR_MOD_RMI, IR_MOD_RPI, 0};
    uint32_t fl = 0;
    if (alu_take(m, IR_MOD_FTZ)) fl |= C_FTZ;
    if (alu_take(m, IR_MOD_SAT)) fl |= C_SAT;
    if (alu_take(m, IR_MOD_RELU)) fl |= C_RELU;
    if (alu_take(m, IR_MOD_SATFINITE)) fl |= C_SATFINITE;
    bool pack = alu_take(m, IR_MOD_PACK);
    int rm = alu_take_rnd(m), ir = alu_take_any(m, irn);
    if (m->nty < 2 || (rm >= 0 && ir >= 0)) return 0;
    int dt = m->ty[0], st = m->ty[1];
    if (pack) {
        if (!(fl & C_SAT) || rm >= 0 || ir >= 0 || (st != T_s32 && st != T_u32)) return 0;
        unsigned w = alu_tbits(dt);
        if (alu_tkind(dt) == 'f' || alu_tkind(dt) == 'b' || (w != 8 && w != 16)) return 0;
        if (w == 8 ? m->nty != 3 || m->ty[2] != T_b32 : m->nty != 2) return 0;
        op->fn = f_cvt_pack;
        op->p[0] = dt;
        op->p[1] = st;
        op->p[3] = C_SAT;
        alu_shape(op, 1, T_b32, w == 8 ? 3 : 2, T_b32);
        return 1;
    }
    if (m->nty != 2) return 0;
    char dk = alu_tkind(dt), sk = alu_tkind(st);
    if (dk == 'p' || sk == 'p' || sk == 'v' || st == T_tf32) return 0;
    bool x2 = dt == T_f16x2 || dt == T_bf16x2;
    if (dk == 'v' && !x2) return 0;
    if (x2 && st != T_f32) return 0;
    bool dfl = dk == 'f' || x2, sfl = sk == 'f';
    if (ir >= 0) { /* integer rounding: from a float */
        if (!sfl) return 0;
        if (dfl) fl |= C_IRND;
        rm = ir;
    } else if (dfl &&
               (!sfl || alu_tbits(dt) < alu_tbits(st) || (alu_tbits(dt) == alu_tbits(st) && dt != st && !x2) || x2)) {
        if (rm < 0 && !(dt == T_bf16 && st == T_f16)) return 0; /* inexact: rounding required */
    } else if (!dfl && sfl) {
        return 0;
    }
    if (rm == ALU_RNA && dt != T_tf32) return 0;
    if ((fl & C_FTZ) && st != T_f32 && dt != T_f32) return 0;
    op->fn = x2 ? f_cvt_x2 : dt == st && dfl && !fl && rm < 0 ? f_cvt_move : f_cvt;
    op->p[0] = dt;
    op->p[1] = st;
    op->p[2] = rm < 0 ? ALU_RN : rm;
    op->p[3] = fl;
    alu_shape(op, 1, dt, x2 ? 2 : 1, st);
    return 1;
}
