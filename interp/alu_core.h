/* alu_core.h — per-lane semantics shared by the generic ALU functions (alu_core*.c)
 * and by the interpreter's specialised handlers: everything here is static inline
 * and branch-light so it can sit inside a vectorizable 32-lane loop. */
#ifndef PTXI_ALU_CORE_H
#define PTXI_ALU_CORE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Rounding modes of float results (.rn .rz .rm .rp, and .rna of tf32). */
enum { ALU_RN, ALU_RZ, ALU_RM, ALU_RP, ALU_RNA };

/* NaN that f32 arithmetic produces on sm_90 whatever the inputs were. */
#define ALU_NAN32 0x7fffffffu
#define ALU_NAN64 0x7fffffffffffffffull
#define ALU_NAN16 0x7fffu
#define ALU_QUIET64 0x0008000000000000ull

static inline float alu_f32(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint32_t alu_u32(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline double alu_f64(uint64_t u) {
    double f;
    memcpy(&f, &u, 8);
    return f;
}
static inline uint64_t alu_u64(double f) {
    uint64_t u;
    memcpy(&u, &f, 8);
    return u;
}

static inline bool alu_isnan32(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }
static inline bool alu_isnan64(uint64_t u) { return (u & ~(1ull << 63)) > 0x7ff0000000000000ull; }

/* .ftz: a subnormal f32 becomes a zero of the same sign. */
static inline uint32_t alu_ftz32(uint32_t u) { return (u & 0x7f800000u) ? u : (u & 0x80000000u); }
static inline uint64_t alu_ftz64(uint64_t u) { return (u & 0x7ff0000000000000ull) ? u : (u & (1ull << 63)); }

/* .sat on f32: clamp to [0, 1]; NaN gives +0. */
static inline uint32_t alu_sat32(uint32_t u) {
    if (alu_isnan32(u) || (u >> 31)) return 0;
    return u > 0x3f800000u ? 0x3f800000u : u;
}
static inline uint64_t alu_sat64(uint64_t u) {
    if (alu_isnan64(u) || (u >> 63)) return 0;
    return u > 0x3ff0000000000000ull ? 0x3ff0000000000000ull : u;
}

/* A binary float format: exponent bits and stored fraction bits. */
typedef struct {
    uint8_t ebits, mbits;
} alu_fmt;
#define ALU_F16 ((alu_fmt){5, 10})
#define ALU_BF16 ((alu_fmt){8, 7})
#define ALU_TF32 ((alu_fmt){8, 10})
#define ALU_F32 ((alu_fmt){8, 23})
#define ALU_F64 ((alu_fmt){11, 52})

/* Round sign * (mant * 2^exp  +  a sticky fraction below mant's last bit) to
 * format f with mode rm, returning the encoding (sign in bit ebits+mbits).
 * mant != 0 or the result is a signed zero. Exact, with subnormals and overflow. */
static inline uint64_t alu_round_pack(alu_fmt f, unsigned sign, uint64_t mant, int exp, bool sticky, int rm) {
    const int emax = (1 << (f.ebits - 1)) - 1, emin = 1 - emax;
    const uint64_t sbit = (uint64_t)sign << (f.ebits + f.mbits);
    const uint64_t inf = ((1ull << f.ebits) - 1) << f.mbits;
    if (!mant) {
        bool up = sticky && ((rm == ALU_RP && !sign) || (rm == ALU_RM && sign));
        return sbit | (up ? 1 : 0);
    }
    int msb = 63 - __builtin_clzll(mant);
    int e = msb + exp;                       /* unbiased exponent of the leading bit */
    int q = (e < emin ? emin : e) - f.mbits; /* exponent of the result's last bit */
    int sh = q - exp;
    uint64_t r;
    bool half = false, rest = sticky;
    if (sh <= 0) {
        r = mant << -sh; /* fits: at most mbits+1 bits */
    } else if (sh > 64) {
        r = 0;
        rest = true;
    } else {
        r = sh == 64 ? 0 : mant >> sh;
        uint64_t lost = sh == 64 ? mant : mant & ((1ull << sh) - 1);
        uint64_t h = 1ull << (sh - 1);
        half = lost & h;
        rest = rest || (lost & (h - 1));
    }
    bool inexact = half || rest, up;
    switch (rm) {
    case ALU_RN: up = half && (rest || (r & 1)); break;
    case ALU_RNA: up = half; break;
    case ALU_RZ: up = false; break;
    case ALU_RM: up = inexact && sign; break;
    default: up = inexact && !sign; break;
    }
    r += up;
    if (r >> (f.mbits + 1)) {
        r >>= 1;
        q++;
    }
    if (!(r >> f.mbits)) /* subnormal (or zero) */
        return sbit | r;
    int be = q + f.mbits + emax;
    if (be >= (1 << f.ebits) - 1) { /* overflow */
        bool toinf = rm == ALU_RN || rm == ALU_RNA || (rm == ALU_RP && !sign) || (rm == ALU_RM && sign);
        return sbit | (toinf ? inf : inf - 1);
    }
    return sbit | ((uint64_t)be << f.mbits) | (r & ((1ull << f.mbits) - 1));
}

/* Round a finite, non-NaN double to format f (NaN and inf are the caller's). */
static inline uint64_t alu_round_f64(alu_fmt f, double x, int rm) {
    uint64_t u = alu_u64(x);
    unsigned sign = u >> 63;
    int be = (u >> 52) & 0x7ff;
    uint64_t m = u & ((1ull << 52) - 1);
    if (be) m |= 1ull << 52;
    else be = 1;
    return alu_round_pack(f, sign, m, be - 1075, false, rm);
}

/* Decode a narrow float (f16, bf16, tf32 in f32 layout...) to double, exactly. */
static inline double alu_widen(alu_fmt f, uint64_t v) {
    const int emax = (1 << (f.ebits - 1)) - 1;
    unsigned sign = (v >> (f.ebits + f.mbits)) & 1;
    int be = (v >> f.mbits) & ((1 << f.ebits) - 1);
    uint64_t m = v & ((1ull << f.mbits) - 1);
    double r;
    if (be == (1 << f.ebits) - 1) {
        r = m ? alu_f64(0x7ff8000000000000ull | (m << (52 - f.mbits))) : __builtin_inf();
    } else if (be == 0) {
        r = __builtin_ldexp((double)m, 1 - emax - f.mbits);
    } else {
        r = __builtin_ldexp((double)(m | (1ull << f.mbits)), be - emax - f.mbits);
    }
    return sign ? -r : r;
}

/* ---- hot float forms, round to nearest, as sm_90 computes them ---- */

/* An f32 result: any NaN becomes the canonical one, then .ftz. */
static inline uint32_t alu_f32_res(float r, bool ftz) {
    uint32_t u = alu_u32(r);
    if (alu_isnan32(u)) u = ALU_NAN32;
    return ftz ? alu_ftz32(u) : u;
}
/* add/sub.rn[.ftz].f32. A sum that is tiny is exact (no rounding), so flushing
 * the rounded result is the same as flushing before rounding. */
static inline uint32_t alu_add_f32(uint32_t a, uint32_t b, bool ftz) {
    if (ftz) {
        a = alu_ftz32(a);
        b = alu_ftz32(b);
    }
    return alu_f32_res(alu_f32(a) + alu_f32(b), ftz);
}
static inline uint32_t alu_sub_f32(uint32_t a, uint32_t b, bool ftz) {
    if (ftz) {
        a = alu_ftz32(a);
        b = alu_ftz32(b);
    }
    return alu_f32_res(alu_f32(a) - alu_f32(b), ftz);
}
/* mul.rn[.ftz].f32: the product is exact in double, so .ftz can test tininess
 * before rounding, as the hardware does, and one rounding to float follows. */
static inline uint32_t alu_mul_f32(uint32_t a, uint32_t b, bool ftz) {
    if (ftz) {
        a = alu_ftz32(a);
        b = alu_ftz32(b);
    }
    double p = (double)alu_f32(a) * alu_f32(b);
    if (ftz && __builtin_fabs(p) < 0x1p-126) p = __builtin_copysign(0.0, p);
    return alu_f32_res((float)p, ftz);
}
/* fma.rn[.ftz].f32. Under .ftz a result that rounded up to the smallest normal
 * is flushed when the exact value was below it: a*b is exact in double and
 * TwoSum gives the error of adding c, so the test is exact. */
static inline uint32_t alu_fma_f32(uint32_t a, uint32_t b, uint32_t c, bool ftz) {
    if (ftz) {
        a = alu_ftz32(a);
        b = alu_ftz32(b);
        c = alu_ftz32(c);
    }
    float fa = alu_f32(a), fb = alu_f32(b), fc = alu_f32(c);
    float r = __builtin_fmaf(fa, fb, fc);
    if (ftz && (alu_u32(r) & 0x7fffffffu) == 0x00800000u) {
        double p = (double)fa * fb, sum = p + fc, bb = sum - p, err = (p - (sum - bb)) + (fc - bb);
        double m = __builtin_fabs(sum);
        if (m < 0x1p-126 || (m == 0x1p-126 && err != 0 && (err < 0) != (sum < 0))) r = __builtin_copysignf(0.0f, r);
    }
    return alu_f32_res(r, ftz);
}

/* f64 NaNs: an operand NaN comes out quieted, chosen in the order the hardware
 * uses (indices into s, n of them); otherwise an invalid operation gives the
 * default NaN 0xfff8000000000000 whatever the host's is. */
static inline bool alu_nan_in64(const uint64_t *s, const uint8_t *order, int n, uint64_t *d) {
    for (int i = 0; i < n; i++)
        if (alu_isnan64(s[order[i]])) {
            *d = s[order[i]] | ALU_QUIET64;
            return true;
        }
    return false;
}
static inline uint64_t alu_f64_res(double r) {
    uint64_t u = alu_u64(r);
    return alu_isnan64(u) ? 0xfff8000000000000ull : u;
}
static inline uint64_t alu_add_f64(uint64_t a, uint64_t b) {
    uint64_t s[2] = {a, b}, d;
    if (alu_nan_in64(s, (const uint8_t[]){1, 0}, 2, &d)) return d;
    return alu_f64_res(alu_f64(a) + alu_f64(b));
}
static inline uint64_t alu_mul_f64(uint64_t a, uint64_t b) {
    uint64_t s[2] = {a, b}, d;
    if (alu_nan_in64(s, (const uint8_t[]){1, 0}, 2, &d)) return d;
    return alu_f64_res(alu_f64(a) * alu_f64(b));
}
static inline uint64_t alu_fma_f64(uint64_t a, uint64_t b, uint64_t c) {
    uint64_t s[3] = {a, b, c}, d;
    if (alu_nan_in64(s, (const uint8_t[]){1, 2, 0}, 3, &d)) return d;
    return alu_f64_res(__builtin_fma(alu_f64(a), alu_f64(b), alu_f64(c)));
}

/* min/max.f32 (no .NaN): a lone NaN operand is ignored, two give the canonical
 * NaN, -0 is below +0. */
static inline uint32_t alu_minmax_f32(uint32_t a, uint32_t b, bool max, bool nan_wins) {
    bool na = alu_isnan32(a), nb = alu_isnan32(b);
    if (na || nb) return nan_wins || (na && nb) ? ALU_NAN32 : na ? b : a;
    float x = alu_f32(a), y = alu_f32(b);
    bool pick_a = x == y ? (max ? !(a >> 31) : (a >> 31)) : (max ? x > y : x < y);
    return pick_a ? a : b;
}

/* cvt.rzi/rni/rmi/rpi.s32.f32: rounded, saturated, NaN gives 0 (measured). */
static inline uint32_t alu_f32_to_s32(uint32_t u, int rm, bool ftz) {
    if (ftz) u = alu_ftz32(u);
    float f = alu_f32(u);
    if (f != f) return 0;
    f = rm == ALU_RZ   ? __builtin_truncf(f)
        : rm == ALU_RM ? __builtin_floorf(f)
        : rm == ALU_RP ? __builtin_ceilf(f)
                       : __builtin_rintf(f);
    if (f >= 0x1p31f) return 0x7fffffffu;
    if (f < -0x1p31f) return 0x80000000u;
    return (uint32_t)(int32_t)f;
}

/* ---- integer helpers ---- */

static inline uint64_t alu_mask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }
static inline int64_t alu_sext(uint64_t v, unsigned bits) {
    return bits >= 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
}

/* prmt: bytes {b,a} selected by c; mode 0 is the general nibble form, 1..6 are
 * f4e b4e rc8 ecl ecr rc16. */
static inline uint32_t alu_prmt(uint32_t a, uint32_t b, uint32_t c, unsigned mode) {
    static const uint16_t tab[6][4] = {/* selectors d.b3..d.b0 as nibbles */
                                       {0x3210, 0x4321, 0x5432, 0x6543}, {0x5670, 0x6701, 0x7012, 0x0123},
                                       {0x0000, 0x1111, 0x2222, 0x3333}, {0x3210, 0x3211, 0x3222, 0x3333},
                                       {0x0000, 0x1110, 0x2210, 0x3210}, {0x1010, 0x3232, 0x1010, 0x3232}};
    uint64_t x = ((uint64_t)b << 32) | a;
    uint32_t sel = mode ? tab[mode - 1][c & 3] : (c & 0xffff), d = 0;
    for (int i = 0; i < 4; i++) {
        unsigned s = (sel >> (4 * i)) & 0xf;
        uint32_t byte = (x >> (8 * (s & 7))) & 0xff;
        if (!mode && (s & 8)) byte = (byte & 0x80) ? 0xff : 0;
        d |= byte << (8 * i);
    }
    return d;
}

/* bfe: len bits of a from pos, sign-filled for signed types. The 32-bit forms
 * take pos and len mod 256; the 64-bit forms use them whole (measured). */
static inline uint64_t alu_bfe(uint64_t a, uint32_t b, uint32_t c, unsigned w, bool sgn) {
    uint32_t pos = w == 64 ? b : b & 0xff, len = w == 64 ? c : c & 0xff, msb = w - 1;
    unsigned sbit = 0;
    if (sgn && len) sbit = (a >> ((uint64_t)pos + len - 1 > msb ? msb : pos + len - 1)) & 1;
    uint64_t field = pos > msb ? 0 : a >> pos;
    uint32_t avail = pos > msb ? 0 : w - pos; /* bits of a above pos */
    uint32_t n = len < avail ? len : avail;
    uint64_t d = field & alu_mask(n);
    if (sbit) d |= ~alu_mask(n);
    return d & alu_mask(w);
}

/* bfi: insert the low len bits of a into b at pos, clipped at the width; pos and
 * len as for bfe. */
static inline uint64_t alu_bfi(uint64_t a, uint64_t b, uint32_t c, uint32_t d, unsigned w) {
    uint32_t pos = w == 64 ? c : c & 0xff, len = w == 64 ? d : d & 0xff;
    if (pos >= w || !len) return b;
    uint32_t n = len < w - pos ? len : w - pos;
    uint64_t m = alu_mask(n) << pos;
    return (b & ~m) | ((a << pos) & m);
}

/* shf: funnel shift of the 64-bit {b,a} by c (wrap: c mod 32; clamp: min(c, 32)). */
static inline uint32_t alu_shf(uint32_t a, uint32_t b, uint32_t c, bool left, bool wrap) {
    unsigned n = wrap ? (c & 31) : (c > 32 ? 32 : c);
    uint64_t x = ((uint64_t)b << 32) | a;
    return left ? (uint32_t)((x << n) >> 32) : (uint32_t)(x >> n);
}

/* lop3: each result bit is lut[(a<<2)|(b<<1)|c]. */
static inline uint32_t alu_lop3(uint32_t a, uint32_t b, uint32_t c, unsigned lut) {
    uint32_t d = 0;
    for (int i = 0; i < 8; i++)
        if (lut >> i & 1) d |= (i & 4 ? a : ~a) & (i & 2 ? b : ~b) & (i & 1 ? c : ~c);
    return d;
}

#endif
