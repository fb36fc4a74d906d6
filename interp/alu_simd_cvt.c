/* alu_simd_cvt.c — cvt forms that involve a narrow float type (f16, bf16 and
 * their x2 packs, tf32, e4m3x2/e5m2x2, e2m3x2/e3m2x2, e2m1x2, ue8m0x2) and the
 * integer cvt.pack.sat forms. Every value goes through double, exactly (integers
 * wider than 53 bits keep a sticky bit, see alu_u64_sticky). */
#include "alu_half.h"
#include "alu_simd_int.h"

/* Operand type codes: the float formats of alu_half.h, then F64 and integers. */
enum { T_F64 = ALU_FMT_COUNT, T_INT = 32 }; /* T_INT + u8 u16 u32 u64 s8 s16 s32 s64 */
static unsigned int_bits(int t) { return 8u << ((t - T_INT) & 3); }
static bool int_signed(int t) { return t - T_INT >= 4; }

/* Packed kinds: how many lanes, lane width in the destination/source. */
enum { K_SCALAR, K_PAIR, K_UNPACK, K_PACK_INT };
enum { C_FTZ = 16, C_SAT = 32, C_RELU = 64, C_SATFINITE = 128, C_INTEGRAL = 256 };

/* p[0]: kind; p[1]: destination type; p[2]: source type; p[3]: rounding | C_*. */

static double src_value(int t, uint64_t v, bool ftz) {
    if (t == T_F64) {
        double d;
        memcpy(&d, &v, sizeof d);
        return ftz && fpclassify(d) == FP_SUBNORMAL ? copysign(0.0, d) : d;
    }
    if (t >= T_INT) {
        unsigned b = int_bits(t);
        uint64_t m = b == 64 ? v : v & ((1ull << b) - 1);
        if (int_signed(t) && b < 64 && (m >> (b - 1) & 1)) m |= ~0ull << b;
        bool neg = int_signed(t) && (int64_t)m < 0;
        double a = alu_u64_sticky(neg ? 0 - m : m);
        return neg ? -a : a;
    }
    if (ftz && alu_fp_issub(t, v)) return signbit(alu_fp_decode(t, v)) ? -0.0 : 0.0;
    return alu_fp_decode(t, v);
}

static double round_integral(double x, int rnd) {
    switch (rnd) {
    case ALU_RZ: return trunc(x);
    case ALU_RM: return floor(x);
    case ALU_RP: return ceil(x);
    default: return nearbyint(x); /* the default FE_TONEAREST: ties to even */
    }
}

static uint64_t to_int(int t, double x, int rnd) {
    unsigned b = int_bits(t);
    if (isnan(x)) return 0;
    double r = round_integral(x, rnd);
    double lo = int_signed(t) ? -ldexp(1, (int)b - 1) : 0,
           hi = int_signed(t) ? ldexp(1, (int)b - 1) - 1 : ldexp(1, (int)b) - 1;
    uint64_t mask = b == 64 ? ~0ull : (1ull << b) - 1;
    if (r <= lo) return (uint64_t)(int64_t)lo & mask;
    if (r >= hi) return int_signed(t) ? (uint64_t)((1ull << (b - 1)) - 1) : mask;
    return (int_signed(t) ? (uint64_t)(int64_t)r : (uint64_t)r) & mask;
}

static unsigned fp_flags(unsigned c) {
    return (c & C_SAT ? ALU_FP_SAT01 : 0) | (c & C_RELU ? ALU_FP_RELU : 0) | (c & C_SATFINITE ? ALU_FP_SATFINITE : 0);
}

/* NaN results depend on the path through the hardware, as recorded: f64 to a
 * half type keeps only the sign (quiet NaN); f16/bf16 to f64 keeps sign and
 * payload (quieted); bf16 to f32 is a plain shift unless .ftz, which makes it
 * canonical; f16 to f32 and everything else gives the canonical NaN. */
static bool nan_path(int d, int s, uint64_t v, unsigned c, uint64_t *r) {
    if (s == T_F64) {
        if (!isnan(src_value(s, v, false)) || d >= T_F64) return false;
        const alu_fpfmt *F = &alu_fpfmts[d];
        *r = (v >> 63) << (F->ebits + F->mbits) | (((1ull << (F->ebits + 1)) - 1) << (F->mbits - 1));
        return d == ALU_FMT_F16 || d == ALU_FMT_BF16;
    }
    if (s >= T_F64) return false;
    if (d == ALU_FMT_F32 && s == ALU_FMT_BF16 && !(c & C_FTZ)) {
        *r = v << 16;
        return true;
    }
    if (!alu_fp_isnan(s, v)) return false;
    const alu_fpfmt *S = &alu_fpfmts[s];
    if (d == T_F64 && (s == ALU_FMT_F16 || s == ALU_FMT_BF16)) {
        *r = (v >> (S->ebits + S->mbits) & 1) << 63 | 0x7FF8000000000000ull |
             (v & ((1ull << S->mbits) - 1)) << (52 - S->mbits);
        return true;
    }
    return false;
}

/* cvt.rna.tf32.f32 works on the bit pattern: a NaN is truncated (it may become
 * an infinity), anything else rounds half away by adding half an ulp; with
 * .satfinite a result with an all-ones exponent steps down one ulp. */
static uint64_t tf32_rna(uint64_t v, bool satfinite) {
    uint32_t x = (uint32_t)v;
    bool nan = (x & 0x7FFFFFFF) > 0x7F800000;
    uint32_t r = (nan ? x : x + 0x1000) & ~0x1FFFu;
    if (satfinite && (r & 0x7F800000) == 0x7F800000) r -= 0x2000;
    return r;
}

/* One value of source type s to destination type d. */
static uint64_t conv(int d, int s, uint64_t v, unsigned c) {
    int rnd = (int)(c & 15);
    uint64_t nr;
    if (nan_path(d, s, v, c, &nr)) return nr;
    if (d == ALU_FMT_TF32 && rnd == ALU_RNA) return tf32_rna(v, c & C_SATFINITE);
    /* .ftz only flushes bf16 sources (f32 destination); f16 and f32 sources keep
     * their subnormals */
    double x = src_value(s, v, (c & C_FTZ) && s == ALU_FMT_BF16);
    if (d >= T_INT) {
        if (isnan(x) && int_bits(d) == 64) return 0x8000000000000000ull;
        return to_int(d, x, rnd);
    }
    if (d == T_F64) {
        if (c & C_SAT) x = isnan(x) ? 0 : x < 0 ? 0 : x > 1 ? 1 : x;
        uint64_t r;
        memcpy(&r, &x, sizeof r);
        return r;
    }
    if (c & C_INTEGRAL) x = isnan(x) ? x : round_integral(x, rnd), rnd = ALU_RN;
    if (d == ALU_FMT_TF32) return alu_fp_encode(d, x, rnd, fp_flags(c)) << 13;
    return alu_fp_encode(d, x, rnd, fp_flags(c));
}

static uint64_t mask_of(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

static unsigned type_bits(int t) { return t >= T_INT ? int_bits(t) : t == T_F64 ? 64 : alu_fp_width(t); }

/* Destination lane width for packed fp6 is 8 (two zero pad bits). */
static unsigned lane_bits(int t) { return t == ALU_FMT_E2M3 || t == ALU_FMT_E3M2 ? 8 : type_bits(t); }

static void cvt_fn(const alu_op *op, uint64_t *d, const uint64_t *s, uint32_t *cc) {
    (void)cc;
    int dt = (int)op->p[1], st = (int)op->p[2];
    unsigned c = op->p[3];
    switch (op->p[0]) {
    case K_SCALAR:
        d[0] = conv(dt, st, s[0], c);
        /* an s8/s16 result fills its whole register, a .b16 or a .b32 one alike,
         * so it is returned sign-extended to 32 bits */
        if (dt >= T_INT && int_signed(dt) && int_bits(dt) < 32 && (d[0] >> (int_bits(dt) - 1) & 1))
            d[0] |= 0xFFFFFFFFull << int_bits(dt) & 0xFFFFFFFFull;
        break;
    case K_PAIR: { /* a to the upper lane, b to the lower */
        unsigned w = lane_bits(dt);
        d[0] = conv(dt, st, s[0], c) << w | conv(dt, st, s[1], c);
        break;
    }
    case K_UNPACK: { /* one source register holding two lanes of type st */
        unsigned sw = lane_bits(st), dw = lane_bits(dt);
        uint64_t lo = conv(dt, st, s[0] & mask_of(type_bits(st)), c);
        uint64_t hi = conv(dt, st, s[0] >> sw & mask_of(type_bits(st)), c);
        d[0] = hi << dw | lo;
        break;
    }
    default: { /* cvt.pack.sat: a, b saturated to the narrow type; c's low bits shifted up */
        unsigned w = int_bits(dt) == 8 && op->p[3] ? op->p[3] : int_bits(dt);
        bool sg = int_signed(dt);
        int64_t lo = sg ? -(1ll << (w - 1)) : 0, hi = sg ? (1ll << (w - 1)) - 1 : (1ll << w) - 1;
        int64_t a = (int32_t)s[0], b = (int32_t)s[1];
        a = a < lo ? lo : a > hi ? hi : a;
        b = b < lo ? lo : b > hi ? hi : b;
        uint64_t r = ((uint64_t)a & mask_of(w)) << w | ((uint64_t)b & mask_of(w));
        if (op->ns == 3) r |= s[2] << 2 * w;
        d[0] = r & 0xFFFFFFFFu;
    }
    }
}

/* An IR type to a code + 1 (0: none of these); X2 marks the packed pairs. */
enum { X2 = 0x80 };
static const uint8_t TYPE_CODE[IR_T__COUNT] = {
    [IR_T_F16] = ALU_FMT_F16 + 1,
    [IR_T_BF16] = ALU_FMT_BF16 + 1,
    [IR_T_TF32] = ALU_FMT_TF32 + 1,
    [IR_T_F32] = ALU_FMT_F32 + 1,
    [IR_T_E4M3] = ALU_FMT_E4M3 + 1,
    [IR_T_E5M2] = ALU_FMT_E5M2 + 1,
    [IR_T_E2M3] = ALU_FMT_E2M3 + 1,
    [IR_T_E3M2] = ALU_FMT_E3M2 + 1,
    [IR_T_E2M1] = ALU_FMT_E2M1 + 1,
    [IR_T_UE8M0] = ALU_FMT_UE8M0 + 1,
    [IR_T_F64] = T_F64 + 1,
    [IR_T_F16X2] = (ALU_FMT_F16 + 1) | X2,
    [IR_T_BF16X2] = (ALU_FMT_BF16 + 1) | X2,
    [IR_T_E4M3X2] = (ALU_FMT_E4M3 + 1) | X2,
    [IR_T_E5M2X2] = (ALU_FMT_E5M2 + 1) | X2,
    [IR_T_E2M3X2] = (ALU_FMT_E2M3 + 1) | X2,
    [IR_T_E3M2X2] = (ALU_FMT_E3M2 + 1) | X2,
    [IR_T_E2M1X2] = (ALU_FMT_E2M1 + 1) | X2,
    [IR_T_UE8M0X2] = (ALU_FMT_UE8M0 + 1) | X2,
    [IR_T_U8] = T_INT + 1,
    [IR_T_U16] = T_INT + 2,
    [IR_T_U32] = T_INT + 3,
    [IR_T_U64] = T_INT + 4,
    [IR_T_S8] = T_INT + 5,
    [IR_T_S16] = T_INT + 6,
    [IR_T_S32] = T_INT + 7,
    [IR_T_S64] = T_INT + 8,
};

/* A type to a code, -1 when none; *x2 set for the packed "...x2" types. */
static int type_code(uint8_t t, bool *x2) {
    *x2 = TYPE_CODE[t] & X2;
    return (TYPE_CODE[t] & ~X2) - 1;
}

/* Which combinations PTX defines (r: rounding index into RND, -1 none; c: C_*).
 * Narrow formats below f16 exist only packed in pairs; tf32 only as a result. */
static bool cvt_defined(int dt, bool dx2, int st, bool sx2, int r, unsigned c) {
    bool mini_d = dt >= ALU_FMT_E4M3 && dt <= ALU_FMT_UE8M0, mini_s = st >= ALU_FMT_E4M3 && st <= ALU_FMT_UE8M0;
    bool f8d = dt == ALU_FMT_E4M3 || dt == ALU_FMT_E5M2, relu = c & C_RELU, sf = c & C_SATFINITE;
    bool half_d = dt == ALU_FMT_F16 || dt == ALU_FMT_BF16;
    if (c & (C_SAT | C_FTZ) && (dx2 || sx2 || mini_d || mini_s)) return false;
    if (st == ALU_FMT_TF32 || (r == 4 && dt != ALU_FMT_TF32)) return false;
    if (dx2 && !sx2) { /* two f32 sources into a pair */
        if (st != ALU_FMT_F32) return false;
        if (half_d) return r == 0 || r == 1;
        if (dt == ALU_FMT_UE8M0) return (r == 1 || r == 3) && !relu;
        return mini_d && r == 0 && sf;
    }
    if (dx2 && sx2) { /* one packed register into another */
        if (f8d && st == ALU_FMT_F16) return r == 0 && sf;
        if (dt == ALU_FMT_F16 && mini_s && st != ALU_FMT_UE8M0) return r == 0 && !sf;
        if (dt == ALU_FMT_UE8M0 && st == ALU_FMT_BF16) return (r == 1 || r == 3) && !relu;
        return dt == ALU_FMT_BF16 && st == ALU_FMT_UE8M0 && r == 0 && !relu && !sf;
    }
    if (sx2 || mini_d || mini_s) return false;
    if (dt == ALU_FMT_TF32) return st == ALU_FMT_F32 && (r == 4 ? !relu : r == 0 || r == 1);
    return !(relu || sf) || (half_d && st == ALU_FMT_F32 && (r == 0 || r == 1));
}

static int lookup_pack(alu_mn *m, unsigned nopnds, alu_op *op) {
    static const uint8_t CT[] = {IR_T_U16, IR_T_S16, IR_T_U8, IR_T_S8, IR_T_U4, IR_T_S4, IR_T_U2, IR_T_S2, 0};
    if (!alu_take(m, IR_MOD_SAT)) return 0;
    bool three = alu_take_type(m, (const uint8_t[]){IR_T_B32, 0}) == 0;
    if (alu_take_type(m, (const uint8_t[]){IR_T_S32, 0}) != 0) return 0;
    int ct = alu_take_type(m, CT);
    if (ct < 0 || !alu_done(m) || three != (ct >= 2) || nopnds != (three ? 4u : 3u)) return 0;
    alu_shape_bytes(op, cvt_fn, "4", three ? "444" : "44");
    op->p[0] = K_PACK_INT;
    op->p[1] = (unsigned)T_INT + (ct & 1 ? 4u : 0u) + (ct < 2 ? 1u : 0u);
    op->p[3] = ct < 2 ? 0 : ct < 4 ? 8 : ct < 6 ? 4 : 2;
    return 1;
}

int alu_lookup_hcvt(alu_mn *m, unsigned nopnds, alu_op *op) {
    if (alu_take(m, IR_MOD_PACK)) return lookup_pack(m, nopnds, op);
    /* the last two suffixes: the destination and source types */
    const alu_key *k = m->k;
    unsigned last = (unsigned)k->ntypes + k->nmods - 1;
    if (k->ntypes < 2 || (k->typemask >> (last - 1) & 3) != 3) return 0;
    bool dx2, sx2;
    int st = type_code(k->types[k->ntypes - 1], &sx2), dt = type_code(k->types[k->ntypes - 2], &dx2);
    if (st < 0 || dt < 0) return 0;
    m->used_ty |= (uint8_t)(3u << (k->ntypes - 2));
    bool narrow = (dt < ALU_FMT_COUNT && dt != ALU_FMT_F32) || (st < ALU_FMT_COUNT && st != ALU_FMT_F32);
    if (!narrow) return 0; /* f32/f64/integer conversions belong to the core ALU */
    static const uint16_t RND[] = {IR_MOD_RN,  IR_MOD_RZ,  IR_MOD_RM,  IR_MOD_RP,  IR_MOD_RNA,
                                   IR_MOD_RNI, IR_MOD_RZI, IR_MOD_RMI, IR_MOD_RPI, 0};
    int r = alu_take_any(m, RND);
    unsigned c = 0;
    if (alu_take(m, IR_MOD_FTZ)) c |= C_FTZ;
    if (alu_take(m, IR_MOD_SAT)) c |= C_SAT;
    if (alu_take(m, IR_MOD_RELU)) c |= C_RELU;
    if (alu_take(m, IR_MOD_SATFINITE)) c |= C_SATFINITE;
    if (!alu_done(m) || !cvt_defined(dt, dx2, st, sx2, r, c)) return 0;
    bool dfloat = dt < T_INT, sfloat = st < T_INT;
    if (r >= 5) { /* integer rounding: to an integer type, or integral in place */
        if (!sfloat) return 0;
        c |= (unsigned)(r - 5);
        if (dfloat) {
            if (dt != st) return 0;
            c |= C_INTEGRAL;
        }
    } else if (r >= 0) {
        if (!dfloat) return 0;
        c |= r == 4 ? ALU_RNA : (unsigned)r;
    } else {
        /* no rounding: only exact widenings and float to int (which then rounds to zero) */
        bool widen = dfloat && sfloat && (dt == ALU_FMT_F32 || dt == T_F64) && !dx2 && !sx2;
        if (!widen && !(sfloat && !dfloat)) return 0;
        if (!widen) c |= ALU_RZ;
    }
    int ds = dx2 ? 0 : (int)(type_bits(dt) + 7) / 8;
    char dbytes[2] = {0, 0}, sbytes[3] = {0, 0, 0};
    unsigned kind;
    if (dx2 && !sx2 && st < T_INT) { /* cvt.*.f16x2.f32 d, a, b */
        kind = K_PAIR;
        unsigned w = lane_bits(dt) * 2;
        dbytes[0] = (char)('0' + (w <= 8 ? 1 : w <= 16 ? 2 : 4));
        sbytes[0] = sbytes[1] = (char)('0' + (int)type_bits(st) / 8);
        if (nopnds != 3) return 0;
    } else if (dx2 && sx2) { /* unpack one register into another pack */
        kind = K_UNPACK;
        unsigned w = lane_bits(dt) * 2, sw = lane_bits(st) * 2;
        dbytes[0] = (char)('0' + (w <= 8 ? 1 : w <= 16 ? 2 : 4));
        sbytes[0] = (char)('0' + (sw <= 8 ? 1 : sw <= 16 ? 2 : 4));
        if (nopnds != 2) return 0;
    } else if (!dx2 && !sx2) {
        kind = K_SCALAR;
        dbytes[0] = (char)('0' + (ds < 2 ? 2 : ds)); /* 8-bit values live in 16-bit registers */
        if (dt == ALU_FMT_TF32) dbytes[0] = '4';
        int ss = (int)(type_bits(st) + 7) / 8;
        sbytes[0] = (char)('0' + (ss < 2 ? 2 : ss));
        if (nopnds != 2) return 0;
    } else return 0;
    alu_shape_bytes(op, cvt_fn, dbytes, sbytes);
    op->p[0] = kind, op->p[1] = (unsigned)dt, op->p[2] = (unsigned)st, op->p[3] = c;
    return 1;
}
