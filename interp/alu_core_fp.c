/* alu_core_fp.c — f32/f64 arithmetic: add sub mul fma mad div rcp sqrt with every
 * rounding mode, div.approx/div.full and the f64 .approx forms (on top of the
 * multi-function unit of alu_mufu.c, which also gives the f32 .approx forms),
 * min/max, abs/neg/copysign.
 * Directed rounding runs the host's IEEE operation under fesetround; the operands
 * and result pass through volatile objects so the operation can neither be folded
 * nor moved across the mode switches. */
#include "alu_core_impl.h"
#include "alu_mufu.h"

#include <fenv.h>
#include <math.h>
#ifdef __AVX512F__
#include <immintrin.h>
#endif

enum {
    K_ADD,
    K_SUB,
    K_MUL,
    K_FMA,
    K_DIV,
    K_RCP,
    K_SQRT, /* exact */
    K_RSQRT,
    K_SIN,
    K_COS,
    K_LG2,
    K_EX2,
    K_TANH,
    K_ARCP,
    K_ASQRT,
    K_ADIV,
    K_FDIV
};
enum { F_FTZ = 1, F_SAT = 2, F_NAN = 4, F_XORSIGN = 8 };

static const int host_mode[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

#define ARITH(T, SUF)                                     \
    static inline T apply_##SUF(int k, T a, T b, T c) {   \
        switch (k) {                                      \
        case K_ADD: return a + b;                         \
        case K_SUB: return a - b;                         \
        case K_MUL: return a * b;                         \
        case K_FMA: return fma##SUF(a, b, c);             \
        case K_DIV: return a / b;                         \
        case K_RCP: return (T)1 / a;                      \
        default: return sqrt##SUF(a);                     \
        }                                                 \
    }                                                     \
    static T round_##SUF(int k, int rm, T a, T b, T c) {  \
        if (rm == ALU_RN) return apply_##SUF(k, a, b, c); \
        int old = fegetround();                           \
        fesetround(host_mode[rm]);                        \
        volatile T va = a, vb = b, vc = c;                \
        volatile T r = apply_##SUF(k, va, vb, vc);        \
        fesetround(old);                                  \
        return r;                                         \
    }
ARITH(float, f)
ARITH(double, )

/* ---- f32 ---- */

static inline uint32_t in32(const alu_op *op, uint64_t v) {
    return op->p[2] & F_FTZ ? alu_ftz32((uint32_t)v) : (uint32_t)v;
}
static inline uint32_t out32(const alu_op *op, float r) {
    uint32_t u = alu_u32(r);
    if (alu_isnan32(u)) u = ALU_NAN32;
    if (op->p[2] & F_FTZ) u = alu_ftz32(u);
    if (op->p[2] & F_SAT) u = alu_sat32(u);
    return u;
}

/* p[0] = K_*, p[1] = rounding, p[2] = F_* flags. .ftz flushes results that are
 * tiny before rounding: one that rounds up to the smallest normal still becomes
 * zero (measured), which truncation tells apart. */
ALU_FN(f_arith32) {
    bool ftz = op->p[2] & F_FTZ;
    if (op->p[1] == ALU_RN && op->p[0] <= K_FMA) { /* the shared hot forms */
        uint32_t a = (uint32_t)s[0], b = (uint32_t)s[1];
        uint32_t r = op->p[0] == K_ADD   ? alu_add_f32(a, b, ftz)
                     : op->p[0] == K_SUB ? alu_sub_f32(a, b, ftz)
                     : op->p[0] == K_MUL ? alu_mul_f32(a, b, ftz)
                                         : alu_fma_f32(a, b, (uint32_t)alu_src(op, s, 2), ftz);
        d[0] = op->p[2] & F_SAT ? alu_sat32(r) : r;
        return;
    }
    float a = alu_f32(in32(op, s[0])), b = alu_f32(in32(op, alu_src(op, s, 1)));
    float c = alu_f32(in32(op, alu_src(op, s, 2)));
    float r = round_f(op->p[0], op->p[1], a, b, c);
    if ((op->p[2] & F_FTZ) && (alu_u32(r) & 0x7fffffffu) == 0x00800000u &&
        !(alu_u32(round_f(op->p[0], ALU_RZ, a, b, c)) & 0x7f800000u))
        r = alu_f32(alu_u32(r) & 0x80000000u);
    d[0] = out32(op, r);
}

/* The multi-function unit's forms, bit-exact (alu_mufu.c). */
static const uint8_t mufu_of[] = {
    [K_RSQRT] = ALU_MU_RSQRT, [K_SIN] = ALU_MU_SIN,   [K_COS] = ALU_MU_COS,  [K_LG2] = ALU_MU_LG2,
    [K_EX2] = ALU_MU_EX2,     [K_TANH] = ALU_MU_TANH, [K_ARCP] = ALU_MU_RCP, [K_ASQRT] = ALU_MU_SQRT,
};
ALU_FN(f_mufu32) { d[0] = alu_mufu_f32(mufu_of[op->p[0]], (uint32_t)s[0], op->p[2] & F_FTZ); }

/* The scale alu_div_rcp_f32 applies to both operands first (0: none). */
static inline uint32_t div_scale(uint32_t b, bool full, bool ftz) {
    uint32_t mb = b & 0x7fffffffu;
    return full && mb > 0x7e800000u && mb <= 0x7f800000u ? 0x3e800000u : !ftz && mb < 0x00800000u ? 0x4b800000u : 0;
}

uint32_t alu_div_rcp_f32(uint32_t *a, uint32_t b, bool full, bool ftz) {
    uint32_t scale = div_scale(b, full, ftz);
    if (scale) {
        *a = alu_mul_f32(*a, scale, ftz);
        b = alu_mul_f32(b, scale, ftz);
    }
    return alu_mufu_f32(ALU_MU_RCP, b, true);
}

/* div.approx and div.full (p[0] = K_ADIV, K_FDIV): alu_div_rcp_f32. */
ALU_FN(f_div32) {
    bool ftz = op->p[2] & F_FTZ;
    uint32_t a = (uint32_t)s[0], r = alu_div_rcp_f32(&a, (uint32_t)s[1], op->p[0] == K_FDIV, ftz);
    d[0] = alu_mul_f32(a, r, ftz);
}

/* d[l] := alu_mul_f32(a[l], r[l], ftz) for the lanes l of m (d may be a or
 * r): sixteen lanes to a vmulps where the build has AVX-512 (the host's
 * rounding, as the double product rounded once; NaN made canonical). Under
 * .ftz, lanes with a subnormal a or a result at or below the smallest normal
 * (which .ftz flushes when the exact product lies below it) go lane by lane. */
static void mul_lanes(uint32_t *d, const uint32_t *a, const uint32_t *r, uint32_t m, bool ftz) {
#ifdef __AVX512F__
    uint32_t rest = 0;
    for (int h = 0; h < 2; h++) {
        __mmask16 mh = (__mmask16)(m >> 16 * h);
        __m512i va = _mm512_loadu_si512(a + 16 * h);
        __m512 p = _mm512_mul_ps(_mm512_castsi512_ps(va), _mm512_castsi512_ps(_mm512_loadu_si512(r + 16 * h)));
        __m512i pb = _mm512_mask_mov_epi32(_mm512_castps_si512(p), _mm512_cmp_ps_mask(p, p, _CMP_UNORD_Q),
                                           _mm512_set1_epi32((int)ALU_NAN32));
        __mmask16 slow = 0;
        if (ftz) {
            __m512i mag = _mm512_and_si512(pb, _mm512_set1_epi32(0x7fffffff));
            slow = _mm512_cmple_epu32_mask(mag, _mm512_set1_epi32(0x00800000)) |
                   (_mm512_testn_epi32_mask(va, _mm512_set1_epi32(0x7f800000)) &
                    _mm512_test_epi32_mask(va, _mm512_set1_epi32(0x007fffff)));
        }
        _mm512_mask_storeu_epi32(d + 16 * h, mh & ~slow, pb);
        rest |= (uint32_t)(mh & slow) << 16 * h;
    }
    m = rest;
#endif
    for (; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        d[l] = alu_mul_f32(a[l], r[l], ftz);
    }
}

bool alu_warp32(const alu_op *op, uint32_t *d, const uint32_t *a, const uint32_t *b, uint32_t m) {
    bool ftz = op->p[2] & F_FTZ;
    if (op->fn == f_mufu32) {
        alu_mufu_warp(mufu_of[op->p[0]], a, d, m, ftz);
        return true;
    }
    if (op->fn != f_div32 || !m) return false;
    /* a divisor the same in every lane that needs no scaling: one reciprocal */
    bool full = op->p[0] == K_FDIV;
    uint32_t bv = b[__builtin_ctz(m)], same = 1;
    for (uint32_t k = m; k; k &= k - 1) same &= b[__builtin_ctz(k)] == bv;
    uint32_t r[32];
    if (same && !div_scale(bv, full, ftz)) {
        uint32_t rv = alu_mufu_f32(ALU_MU_RCP, bv, true);
        for (int l = 0; l < 32; l++) r[l] = rv;
        mul_lanes(d, a, r, m, ftz);
        return true;
    }
    /* a divisor per lane (Triton's x / y): the lanes' reciprocals a warp at a
     * time; a lane whose divisor needs scaling as f_div32 takes it */
    uint32_t plain = 0;
    for (uint32_t k = m; k; k &= k - 1)
        plain |= (uint32_t)!div_scale(b[__builtin_ctz(k)], full, ftz) << __builtin_ctz(k);
    alu_mufu_warp(ALU_MU_RCP, b, r, plain, true);
    for (uint32_t k = m & ~plain; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        uint32_t al = a[l], rl = alu_div_rcp_f32(&al, b[l], full, ftz); /* al scaled */
        d[l] = alu_mul_f32(al, rl, ftz);
    }
    mul_lanes(d, a, r, m & plain, ftz);
    return true;
}

/* min/max: p[0] = 1 for max; .NaN makes any NaN operand win. */
static inline uint32_t minmax32(const alu_op *op, uint32_t a, uint32_t b) {
    return alu_minmax_f32(a, b, op->p[0], op->p[2] & F_NAN);
}
ALU_FN(f_minmax32) {
    uint32_t a = in32(op, s[0]), b = in32(op, s[1]);
    if (op->p[2] & F_XORSIGN) {
        uint32_t sign = (a ^ b) & 0x80000000u;
        uint32_t r = minmax32(op, a & 0x7fffffffu, b & 0x7fffffffu);
        d[0] = alu_isnan32(r) ? r : r | sign;
        return;
    }
    d[0] = minmax32(op, a, b);
}

/* ---- f64 ---- */

/* f64 NaNs (measured): an operand NaN comes out quieted; when there are several,
 * add/sub/mul take b's, fma b's then c's, div a's. An invalid operation gives
 * 0xfff8000000000000, as the host's does. */
static inline uint64_t out64(const alu_op *op, double r) {
    uint64_t u = alu_f64_res(r);
    if (op->p[2] & F_FTZ) u = alu_ftz64(u);
    return u;
}
ALU_FN(f_arith64) {
    static const uint8_t order[][3] = {{1, 0, 0}, {1, 2, 0}, {0, 1, 0}};
    if (alu_nan_in64(s, order[op->p[0] == K_FMA ? 1 : op->p[0] == K_DIV || op->ns == 1 ? 2 : 0], op->ns, d)) return;
    d[0] = out64(op, round_(op->p[0], op->p[1], alu_f64(s[0]), alu_f64(alu_src(op, s, 1)), alu_f64(alu_src(op, s, 2))));
}
/* rcp/rsqrt.approx.ftz.f64 are the unit's f64 forms: upper 32 bits in, upper
 * 32 bits out (alu_mufu_hi64). rsqrt.approx.f64 refines that estimate y as the
 * GPU's code for it does: e = 1 - x*y*y, y + (3/8 e + 1/2) * (y*e) in fmas; a
 * subnormal x is scaled by 2^54 first and the result by 2^27. */
static double rsqrt_f64(double x) {
    double y = alu_f64((uint64_t)alu_mufu_hi64(ALU_MU_RSQRT, (uint32_t)(alu_u64(x) >> 32)) << 32);
    double e = fma(x, -(y * y), 1);
    return fma(fma(e, 0.375, 0.5), y * e, y);
}
ALU_FN(f_approx64) {
    uint64_t x = s[0];
    uint32_t hi = (uint32_t)(x >> 32);
    if (op->p[2] & F_FTZ) {
        d[0] = (uint64_t)alu_mufu_hi64(op->p[0] == K_RSQRT ? ALU_MU_RSQRT : ALU_MU_RCP, hi) << 32;
        return;
    }
    double v = alu_f64(x);
    if (hi - 0x00100000u < 0x7fe00000u) d[0] = alu_u64(rsqrt_f64(v)); /* positive normal */
    else if (v == 0) d[0] = (x & 0x8000000000000000ull) | 0x7ff0000000000000ull;
    else if (isnan(v)) d[0] = x | ALU_QUIET64;
    else if (x >> 63) d[0] = 0xfff8000000000000ull;
    else if (isinf(v)) d[0] = 0;
    else d[0] = alu_u64(rsqrt_f64(v * 0x1p54) * 0x1p27);
}
ALU_FN(f_minmax64) {
    uint64_t a = s[0], b = s[1];
    bool na = alu_isnan64(a), nb = alu_isnan64(b);
    if (na || nb) {
        d[0] = na && nb ? b | ALU_QUIET64 : na ? b : a; /* both NaN: b, quieted */
        return;
    }
    double x = alu_f64(a), y = alu_f64(b);
    bool pick_a = x == y ? (op->p[0] ? !(a >> 63) : (a >> 63)) : (op->p[0] ? x > y : x < y);
    d[0] = pick_a ? a : b;
}

/* ---- sign operations (bitwise; .ftz flushes first). p[0] = bits. A NaN is not
 * touched bitwise: f32 gives the canonical NaN, f64 the operand quieted. ---- */
static inline uint64_t sign_bit(const alu_op *op) { return 1ull << (op->p[0] - 1); }
static inline bool sign_op(const alu_op *op, uint64_t *d, uint64_t v) {
    if (op->p[0] == 32) {
        if (alu_isnan32((uint32_t)v)) {
            *d = ALU_NAN32;
            return false;
        }
        *d = op->p[2] & F_FTZ ? alu_ftz32((uint32_t)v) : v;
    } else {
        if (alu_isnan64(v)) {
            *d = v | ALU_QUIET64;
            return false;
        }
        *d = v;
    }
    return true;
}
ALU_FN(f_abs) {
    if (sign_op(op, d, s[0])) d[0] &= ~sign_bit(op);
}
ALU_FN(f_neg) {
    if (sign_op(op, d, s[0])) d[0] ^= sign_bit(op);
}
ALU_FN(f_copysign) { d[0] = (s[1] & ~sign_bit(op)) | (s[0] & sign_bit(op)); }

/* ---- builder ---- */

static const struct {
    uint16_t op;
    int k;
    uint8_t ns;
} fops[] = {
    {IR_OP_ADD, K_ADD, 2},     {IR_OP_SUB, K_SUB, 2},   {IR_OP_MUL, K_MUL, 2},   {IR_OP_FMA, K_FMA, 3},
    {IR_OP_MAD, K_FMA, 3},     {IR_OP_DIV, K_DIV, 2},   {IR_OP_RCP, K_RCP, 1},   {IR_OP_SQRT, K_SQRT, 1},
    {IR_OP_RSQRT, K_RSQRT, 1}, {IR_OP_SIN, K_SIN, 1},   {IR_OP_COS, K_COS, 1},   {IR_OP_LG2, K_LG2, 1},
    {IR_OP_EX2, K_EX2, 1},     {IR_OP_TANH, K_TANH, 1}, {IR_OP_MIN, -1, 2},      {IR_OP_MAX, -2, 2},
    {IR_OP_ABS, -3, 1},        {IR_OP_NEG, -4, 1},      {IR_OP_COPYSIGN, -5, 2},
};

int alu_build_fp(int opc, alu_mn *m, alu_op *op) {
    int i = 0, n = sizeof fops / sizeof fops[0];
    while (i < n && fops[i].op != opc) i++;
    if (i == n || m->nty != 1 || (m->ty[0] != T_f32 && m->ty[0] != T_f64)) return 0;
    bool f64 = m->ty[0] == T_f64;
    int k = fops[i].k;
    alu_shape(op, 1, m->ty[0], fops[i].ns, m->ty[0]);
    uint32_t fl = 0;
    if (alu_take(m, IR_MOD_FTZ)) fl |= F_FTZ;
    if (k < 0) { /* min max abs neg copysign */
        if (k >= -2 && alu_take(m, IR_MOD_NAN_PROPAGATE)) fl |= F_NAN;
        if (k >= -2 && alu_take(m, IR_MOD_XORSIGN)) {
            if (!alu_take(m, IR_MOD_ABS) || f64) return 0;
            fl |= F_XORSIGN;
        }
        if ((fl & (F_FTZ | F_NAN)) && f64 && k >= -2) return 0;
        static const alu_fn sfn[] = {f_abs, f_neg, f_copysign};
        op->fn = k >= -2 ? (f64 ? f_minmax64 : f_minmax32) : sfn[-k - 3];
        op->p[0] = k >= -2 ? (uint32_t)(k == -2) : (f64 ? 64 : 32);
        op->p[2] = fl;
        return 1;
    }
    if (alu_take(m, IR_MOD_SAT)) fl |= F_SAT;
    int rm = alu_take_rnd(m);
    bool apx = alu_take(m, IR_MOD_APPROX), full = !apx && alu_take(m, IR_MOD_FULL);
    if (rm == ALU_RNA || (rm >= 0 && (apx || full))) return 0;
    if (f64 && (fl & F_SAT)) return 0;
    if (k >= K_RSQRT) { /* only approximate forms exist */
        if (!apx) return 0;
    } else if (k == K_DIV) {
        if (apx) k = K_ADIV;
        else if (full) k = K_FDIV;
        else if (rm < 0) return 0;
    } else if (k == K_RCP || k == K_SQRT) {
        if (apx) k = k == K_RCP ? K_ARCP : K_ASQRT;
        else if (rm < 0) return 0;
    } else if (apx || full) {
        return 0;
    } else if (k == K_FMA && rm < 0) {
        return 0;
    }
    if (f64 && (fl & F_FTZ) && k < K_RSQRT) return 0;
    op->p[0] = k;
    op->p[1] = rm < 0 ? ALU_RN : rm;
    op->p[2] = fl;
    op->approx = false;
    op->fn = f64                          ? (k >= K_RSQRT ? f_approx64 : f_arith64)
             : k == K_ADIV || k == K_FDIV ? f_div32
             : k >= K_RSQRT               ? f_mufu32
                                          : f_arith32;
    return 1;
}
