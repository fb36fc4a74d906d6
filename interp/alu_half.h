/* alu_half.h — bit-exact conversions between double and the narrow float formats
 * PTX uses (f16, bf16, tf32, fp8 e4m3/e5m2, fp6 e2m3/e3m2, fp4 e2m1, ue8m0), with
 * every rounding mode and the .satfinite/.relu/.sat/.ftz variants, as static
 * inline helpers so fast paths can share them with the generic ALU. */
#ifndef PTXI_ALU_HALF_H
#define PTXI_ALU_HALF_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* How a format spends its top exponent: IEEE (inf and NaN), FN (e4m3: no inf,
 * only S.1111.111 is NaN), FINITE (fp6/fp4: every code is a number), UE (ue8m0:
 * unsigned powers of two, 0xFF is NaN, no zero). */
enum { ALU_FP_IEEE, ALU_FP_FN, ALU_FP_FINITE, ALU_FP_UE };

/* X(name, exponent bits, mantissa bits, kind, canonical NaN as the hardware writes it) */
#define ALU_FP_FORMATS(X)                   \
    X(F16, 5, 10, ALU_FP_IEEE, 0x7FFFu)     \
    X(BF16, 8, 7, ALU_FP_IEEE, 0x7FFFu)     \
    X(TF32, 8, 10, ALU_FP_IEEE, 0x3FFFFu)   \
    X(F32, 8, 23, ALU_FP_IEEE, 0x7FFFFFFFu) \
    X(E4M3, 4, 3, ALU_FP_FN, 0x7Fu)         \
    X(E5M2, 5, 2, ALU_FP_IEEE, 0x7Fu)       \
    X(E2M3, 2, 3, ALU_FP_FINITE, 0u)        \
    X(E3M2, 3, 2, ALU_FP_FINITE, 0u)        \
    X(E2M1, 2, 1, ALU_FP_FINITE, 0u)        \
    X(UE8M0, 8, 0, ALU_FP_UE, 0xFFu)

enum {
#define X(n, e, m, k, nan) ALU_FMT_##n,
    ALU_FP_FORMATS(X)
#undef X
        ALU_FMT_COUNT
};

typedef struct {
    uint8_t ebits, mbits, kind;
    uint32_t nan;
} alu_fpfmt;

static const alu_fpfmt alu_fpfmts[ALU_FMT_COUNT] = {
#define X(n, e, m, k, nan) {e, m, k, nan},
    ALU_FP_FORMATS(X)
#undef X
};

/* Rounding modes (PTX .rn .rz .rm .rp .rna) and result modifiers. */
enum { ALU_RN, ALU_RZ, ALU_RM, ALU_RP, ALU_RNA };
enum {
    ALU_FP_SATFINITE = 1, /* overflow and infinity give the largest finite value */
    ALU_FP_RELU = 2,      /* negative results become +0, NaN stays NaN */
    ALU_FP_SAT01 = 4,     /* .sat: clamp to [0, 1], NaN gives +0 */
    ALU_FP_FTZ = 8,       /* results below the smallest normal (before rounding) become signed zero */
};

static inline unsigned alu_fp_width(int f) {
    const alu_fpfmt *F = &alu_fpfmts[f];
    return 1u + F->ebits + F->mbits - (F->kind == ALU_FP_UE);
}
static inline int alu_fp_emin(const alu_fpfmt *F) { return 2 - (1 << (F->ebits - 1)); }
/* Largest finite magnitude code. */
static inline uint32_t alu_fp_maxcode(const alu_fpfmt *F) {
    uint32_t all = (1u << (F->ebits + F->mbits)) - 1;
    switch (F->kind) {
    case ALU_FP_IEEE: return all - (1u << F->mbits);
    case ALU_FP_FN: return all - 1;
    case ALU_FP_UE: return 0xFE;
    default: return all;
    }
}

static inline bool alu_fp_isnan(int f, uint64_t bits) {
    const alu_fpfmt *F = &alu_fpfmts[f];
    uint32_t mag = (uint32_t)bits & ((1u << (F->ebits + F->mbits)) - 1);
    switch (F->kind) {
    case ALU_FP_IEEE: return mag > alu_fp_maxcode(F) + 1;
    case ALU_FP_FN: return mag == alu_fp_maxcode(F) + 1;
    case ALU_FP_UE: return (bits & 0xFF) == 0xFF;
    default: return false;
    }
}

static inline bool alu_fp_issub(int f, uint64_t bits) {
    const alu_fpfmt *F = &alu_fpfmts[f];
    uint32_t mag = (uint32_t)bits & ((1u << (F->ebits + F->mbits)) - 1);
    return F->kind != ALU_FP_UE && mag != 0 && mag < (1u << F->mbits);
}

/* Raw bits of format f to double (exact for every format here). */
static inline double alu_fp_decode(int f, uint64_t bits) {
    const alu_fpfmt *F = &alu_fpfmts[f];
    if (F->kind == ALU_FP_UE) return (bits & 0xFF) == 0xFF ? NAN : ldexp(1.0, (int)(bits & 0xFF) - 127);
    if (alu_fp_isnan(f, bits)) return NAN;
    unsigned w = F->ebits + F->mbits;
    uint32_t mag = (uint32_t)bits & ((1u << w) - 1);
    uint64_t r = ((bits >> w) & 1) << 63;
    if (F->kind == ALU_FP_IEEE && mag == alu_fp_maxcode(F) + 1) r |= 0x7FF0000000000000ull;
    else if (mag) {
        /* build the double's bits: exponent rebias, mantissa moved to the top */
        uint32_t e = mag >> F->mbits, m = mag & ((1u << F->mbits) - 1);
        int E = (int)e + alu_fp_emin(F) - 1;             /* unbiased, for normals */
        if (e == 0) {                                    /* subnormal: normalise */
            int lz = __builtin_clz(m) - (31 - F->mbits); /* shifts to put the leading one at bit mbits */
            m = (m << lz) & ((1u << F->mbits) - 1);
            E = alu_fp_emin(F) - lz;
        }
        r |= (uint64_t)(E + 1023) << 52 | (uint64_t)m << (52 - F->mbits);
    }
    double d;
    memcpy(&d, &r, sizeof d);
    return d;
}

/* Whether a count q of quanta with remainder rem (of 2^sh per quantum) rounds
 * up under mode rnd; sh >= 64 means the whole value is a nonzero remainder
 * below half a quantum. */
static inline bool alu_round_up(int rnd, bool neg, uint64_t q, uint64_t rem, unsigned sh) {
    if (sh >= 64) return rnd == ALU_RM ? neg : rnd == ALU_RP ? !neg : false;
    uint64_t half = 1ull << (sh - 1);
    switch (rnd) {
    case ALU_RZ: return false;
    case ALU_RM: return neg && rem;
    case ALU_RP: return !neg && rem;
    case ALU_RNA: return rem >= half;
    default: return rem > half || (rem == half && (q & 1));
    }
}

/* double to format f with rounding mode rnd and ALU_FP_* flags: one exact
 * rounding done on the double's bits. */
static inline uint64_t alu_fp_encode(int f, double x, int rnd, unsigned flags) {
    const alu_fpfmt *F = &alu_fpfmts[f];
    unsigned w = F->ebits + F->mbits;
    uint64_t sign = (uint64_t)(signbit(x) ? 1 : 0) << w;
    if (F->kind == ALU_FP_UE) sign = 0;
    if (isnan(x)) return flags & ALU_FP_SAT01 ? 0 : F->nan;
    if (flags & ALU_FP_SAT01) {
        if (x <= 0) return 0; /* -0 and negatives give +0 */
        if (x >= 1) return alu_fp_encode(f, 1.0, ALU_RN, 0);
    }
    if ((flags & ALU_FP_RELU) && signbit(x)) return 0;
    uint32_t maxc = alu_fp_maxcode(F);
    double a = fabs(x);
    uint64_t code;
    if (F->kind == ALU_FP_UE) {
        if (a == 0) code = 0; /* below the smallest power: saturates to 2^-127 */
        else if (isinf(a)) code = flags & ALU_FP_SATFINITE ? maxc : 0xFF;
        else {
            int e;
            double m = frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
            int E = e - 1;
            if (m != 0.5 && rnd == ALU_RP) E++;
            E += 127;
            code = E < 0 ? 0 : E > (int)maxc ? (flags & ALU_FP_SATFINITE ? maxc : 0xFF) : (uint64_t)E;
        }
        return code;
    }
    bool neg = sign != 0;
    if (isinf(a)) {
        if ((flags & ALU_FP_SATFINITE) || F->kind == ALU_FP_FINITE) return sign | maxc;
        return F->kind == ALU_FP_IEEE ? sign | (maxc + 1) : F->nan;
    }
    if (a == 0) return sign;
    int emin = alu_fp_emin(F);
    /* .ftz: tininess is judged before rounding, as the GPU does (a product that
     * would round up to the smallest normal still flushes) */
    if ((flags & ALU_FP_FTZ) && a < ldexp(1.0, emin)) return sign;
    uint64_t bits;
    memcpy(&bits, &a, sizeof bits);
    int e = (int)(bits >> 52) - 1023; /* a = m * 2^(e - 52) */
    uint64_t m = bits & ((1ull << 52) - 1);
    if (e == -1023) e = -1022;
    else m |= 1ull << 52;
    int E = e < emin ? emin : e;
    unsigned sh = (unsigned)(52 - F->mbits + (E - e));
    uint64_t q = sh >= 64 ? 0 : m >> sh, rem = sh >= 64 ? m : m & ((1ull << sh) - 1);
    q += alu_round_up(rnd, neg, q, rem, sh);
    /* a carry out of the mantissa moves into the exponent field by itself */
    code = ((uint64_t)(E - emin) << F->mbits) + q;
    if (code > maxc) {
        bool to_max = (flags & ALU_FP_SATFINITE) || F->kind == ALU_FP_FINITE || rnd == ALU_RZ ||
                      (rnd == ALU_RM && !neg) || (rnd == ALU_RP && neg);
        if (to_max) code = maxc;
        else return F->kind == ALU_FP_IEEE ? sign | (maxc + 1) : F->nan;
    }
    return sign | code;
}

/* A u64/s64 magnitude as a double that rounds to any format of at most 51
 * significant bits exactly as the integer would: bits below the 53rd are
 * folded into a sticky bit. */
static inline double alu_u64_sticky(uint64_t m) {
    if (m >> 53 == 0) return (double)m;
    int s = 64 - 53 - __builtin_clzll(m);
    uint64_t top = (m >> s) | ((m & ((1ull << s) - 1)) != 0);
    return ldexp((double)top, s);
}

/* Bits of one format to bits of another; a NaN becomes the target's canonical NaN
 * (0x7FFF for f16, 0x7FFFFFFF for f32), as the hardware writes it. */
static inline uint64_t alu_fp_convert(int to, int from, uint64_t bits, int rnd, unsigned flags) {
    return alu_fp_encode(to, alu_fp_decode(from, bits), rnd, flags);
}
/* Bit-twiddling forms of the common conversions for the interpreter's hot paths;
 * they agree with alu_fp_convert (test_half_fast.c checks it). */
static inline uint32_t alu_f16_to_f32(uint16_t h) {
    uint32_t s = (uint32_t)(h & 0x8000) << 16, e = h >> 10 & 0x1F, m = h & 0x3FF;
    if (e == 0x1F) return m ? 0x7FFFFFFFu : s | 0x7F800000u;
    if (e) return s | (e + 112) << 23 | m << 13;
    if (!m) return s;
    int sh = __builtin_clz(m) - 21; /* bring the leading one to bit 10 */
    return s | (uint32_t)(113 - sh) << 23 | (m << sh & 0x3FF) << 13;
}
static inline uint32_t alu_bf16_to_f32(uint16_t h) { return (uint32_t)h << 16; } /* NaNs kept as they are */
static inline uint16_t alu_f32_to_f16_rn(uint32_t x) {
    uint32_t sign = x >> 16 & 0x8000, a = x & 0x7FFFFFFF;
    if (a > 0x7F800000) return 0x7FFF;
    if (a >= 0x477FF000) return (uint16_t)(sign | 0x7C00); /* 65520 and up round to inf */
    if (a >= 0x38800000) {                                 /* normal: rebias, round to even */
        uint32_t r = a - 0x38000000;
        return (uint16_t)(sign | (r + 0x0FFF + (r >> 13 & 1)) >> 13);
    }
    if (a <= 0x33000000) return (uint16_t)sign; /* up to 2^-25 (a tie) rounds to 0 */
    uint32_t e = a >> 23, m = (a & 0x7FFFFF) | 0x800000, sh = 126 - e;
    uint32_t q = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
    q += rem > half || (rem == half && (q & 1));
    return (uint16_t)(sign | q);
}
static inline uint16_t alu_f32_to_bf16_rn(uint32_t x) {
    if ((x & 0x7FFFFFFF) > 0x7F800000) return 0x7FFF;
    return (uint16_t)((x + 0x7FFF + (x >> 16 & 1)) >> 16);
}

/* The approximate half functions (ex2.approx.f16, ex2.approx.ftz.bf16,
 * tanh.approx.f16/.bf16) as a definition the hardware mostly follows: ex2.f16
 * truncates 2^x (overflowing to infinity), the others round to nearest; bf16 ex2
 * flushes subnormal inputs and results. alu_half_approx.h lists the inputs where
 * the GPU differs from this. */
static inline uint32_t alu_half_approx_ref(bool ex2, int f, uint32_t x) {
    bool ftz = ex2 && f == ALU_FMT_BF16;
    if (ftz && alu_fp_issub(f, x)) x &= 0x8000;
    double v = alu_fp_decode(f, x), r = ex2 ? exp2(v) : tanh(v);
    if (ex2 && f == ALU_FMT_F16) return r >= 65536.0 ? 0x7C00 : (uint32_t)alu_fp_encode(f, r, ALU_RZ, 0);
    return (uint32_t)alu_fp_encode(f, r, ALU_RN, ftz ? ALU_FP_FTZ : 0);
}

#endif
