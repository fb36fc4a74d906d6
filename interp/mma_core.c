/* mma_core.c — D = A B + C as the tensor cores compute it, for every element
 * type of mma.sync, mma.sp and wmma (mma_core.h). Floating-point products are
 * exact; how they are summed with the accumulator follows what an H100/H200
 * was measured to do (vm_mma_sum; fp8_sum for e4m3/e5m2; interp/ALU.md);
 * integer sums are exact, wrapping to 32 bits or saturating with .satfinite;
 * .b1 products are bit operations counted by popc. */
#include <math.h>
#include <string.h>

#include "ir.h"
#include "alu_half.h"
#include "mma_core.h"

int vm_mt_bits(int t) {
    static const uint8_t bits[MT_COUNT] = {
        [MT_F16] = 16, [MT_BF16] = 16, [MT_TF32] = 32, [MT_F32] = 32, [MT_F64] = 64, [MT_S8] = 8,   [MT_U8] = 8,
        [MT_S4] = 4,   [MT_U4] = 4,    [MT_B1] = 1,    [MT_S32] = 32, [MT_E4M3] = 8, [MT_E5M2] = 8,
    };
    return bits[t];
}

int vm_mt_of_ir(uint8_t t) {
    switch (t) {
    case IR_T_F16:
    case IR_T_F16X2: return MT_F16;
    case IR_T_BF16:
    case IR_T_BF16X2: return MT_BF16;
    case IR_T_TF32: return MT_TF32;
    case IR_T_F32: return MT_F32;
    case IR_T_F64: return MT_F64;
    case IR_T_S8: return MT_S8;
    case IR_T_U8: return MT_U8;
    case IR_T_S4: return MT_S4;
    case IR_T_U4: return MT_U4;
    case IR_T_B1: return MT_B1;
    case IR_T_S32: return MT_S32;
    case IR_T_E4M3: return MT_E4M3;
    case IR_T_E5M2: return MT_E5M2;
    default: return -1;
    }
}

static bool is_int(int t) { return t == MT_S8 || t == MT_U8 || t == MT_S4 || t == MT_U4 || t == MT_B1 || t == MT_S32; }

/* An element's value. tf32 operands keep the 19 leading bits of their register. */
static double value(int t, uint64_t b) {
    switch (t) {
    case MT_F16: return alu_fp_decode(ALU_FMT_F16, b);
    case MT_BF16: return alu_fp_decode(ALU_FMT_BF16, b);
    case MT_TF32: return alu_fp_decode(ALU_FMT_F32, b & 0xFFFFE000u);
    case MT_F32: return alu_fp_decode(ALU_FMT_F32, b);
    case MT_E4M3: return alu_fp_decode(ALU_FMT_E4M3, b);
    case MT_E5M2: return alu_fp_decode(ALU_FMT_E5M2, b);
    case MT_F64: {
        double d;
        memcpy(&d, &b, 8);
        return d;
    }
    case MT_S8: return (int8_t)b;
    case MT_U8: return (uint8_t)b;
    case MT_S4: return (double)((int)(b & 15) - (int)((b & 8) << 1));
    case MT_U4: return (double)(b & 15);
    case MT_B1: return (double)(b & 1);
    default: return (int32_t)b;
    }
}

/* ---- floating-point sums ---- */

/* f32 nearest to s * 2^e toward zero with mb fraction bits. */
static float f32_rzb(int64_t s, int e, int mb) {
    if (!s) return 0.0f;
    uint64_t m = (uint64_t)(s < 0 ? -s : s);
    int lead = 63 - __builtin_clzll(m);
    if (lead > mb) m >>= lead - mb, e += lead - mb;
    float f = ldexpf((float)m, e);
    return s < 0 ? -f : f;
}

/* The sum of n exact products a_k b_k and the accumulator c as the tensor
 * cores form it (measured on an H200, tests/cudart/programs/mma.cu): with the
 * nominal exponent of a term floor(log2|a|) + floor(log2|b|) for a product
 * and floor(log2|c|) for c, every term is truncated toward zero to a multiple
 * of 2^(largest nominal exponent - bits) (MMA_BITS; WG_FP8_BITS for wgmma
 * e4m3/e5m2) and the truncated terms are added
 * exactly: the sum is *s x 2^*q. Returns false, with the result in *r, when
 * an operand is not finite or every term is zero. */
#define MMA_BITS 25
static bool sum_fixed(const double *a, const double *b, int n, double c, int64_t *s, int *q, double *r, int bits) {
    double p[128];
    int emax = INT32_MIN;
    bool special = !isfinite(c);
    for (int k = 0; k < n; k++) {
        p[k] = a[k] * b[k];
        special |= !isfinite(p[k]);
        if (a[k] != 0 && b[k] != 0) {
            int ea, eb;
            frexp(a[k], &ea), frexp(b[k], &eb);
            if (ea + eb - 2 > emax) emax = ea + eb - 2;
        }
    }
    if (special) {
        *r = c;
        for (int k = 0; k < n; k++) *r += p[k];
        return false;
    }
    if (c != 0) {
        int ec;
        frexp(c, &ec);
        if (ec - 1 > emax) emax = ec - 1;
    }
    if (emax == INT32_MIN) { /* all zero: keeps the accumulator's sign */
        *r = c;
        return false;
    }
    *q = emax - bits;
    *s = 0;
    for (int k = 0; k <= n; k++) {
        double t = ldexp(k < n ? p[k] : c, -*q);
        *s += (int64_t)(t < 0 ? -floor(-t) : floor(t));
    }
    return true;
}

/* The sum with `bits` below the largest term, rounded to f32 toward zero with
 * mb fraction bits; NaN is the canonical one. */
static float sum_f32(const double *a, const double *b, int n, double c, int bits, int mb) {
    int64_t s;
    int q;
    double r;
    if (sum_fixed(a, b, n, c, &s, &q, &r, bits)) return f32_rzb(s, q, mb);
    if (!isnan(r)) return (float)r;
    uint32_t nan = 0x7FFFFFFFu;
    float f;
    memcpy(&f, &nan, 4);
    return f;
}

float vm_mma_sum(const double *a, const double *b, int n, float c) { return sum_f32(a, b, n, c, MMA_BITS, 23); }

/* The sum rounded to f16 to nearest (f16 accumulators: from the exact sum,
 * not from its f32 value, as measured), NaN the canonical 0x7FFF. */
static uint64_t sum_f16(const double *a, const double *b, int n, double c, int bits) {
    int64_t s;
    int q;
    double r;
    if (sum_fixed(a, b, n, c, &s, &q, &r, bits)) r = ldexp((double)s, q); /* s has under 53 bits */
    return isnan(r) ? 0x7FFF : alu_fp_encode(ALU_FMT_F16, r, ALU_RN, 0);
}

static uint64_t mma_sum_f16(const double *a, const double *b, int n, double c) { return sum_f16(a, b, n, c, MMA_BITS); }

static uint64_t f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* e4m3/e5m2 products (measured on an H100, ptx-samples/mma_subbyte and
 * mma_sparse): two steps over half of K each, chained from zero in the output
 * precision (each step a sum as above), the first over the elements that are
 * bytes 0 and 1 of A's registers, the second over bytes 2 and 3; the
 * accumulator is added last, with one rounding to nearest. */
/* e4m3/e5m2 products of wgmma (measured on an H100, ptx-samples/wgmma): one
 * sum over all of K and the accumulator as above, but with terms truncated to
 * WG_FP8_BITS below the largest nominal exponent, and an f32 result truncated
 * to as many fraction bits (the low 10 of every result are zero); an f16
 * result is that sum rounded to nearest. */
#define WG_FP8_BITS 13
static uint64_t fp8_sum_wide(const vm_mma_op *op, const double *a, const double *b, double c) {
    if (op->td == MT_F16) return sum_f16(a, b, op->k, c, WG_FP8_BITS);
    return f32_bits(sum_f32(a, b, op->k, c, WG_FP8_BITS, WG_FP8_BITS));
}

static uint64_t fp8_sum(const vm_mma_op *op, const double *a, const double *b, double c) {
    if (op->fp8_wide) return fp8_sum_wide(op, a, b, c);
    double ah[2][64], bh[2][64];
    int n[2] = {0, 0};
    for (int k = 0; k < op->k; k++) {
        /* dense: byte k%4 of a register; sparse: k/4 is the index pair of
         * compressed elements 2(k/4) and 2(k/4)+1 */
        int h = op->sparse ? (k >> 2) & 1 : (k & 3) >> 1;
        ah[h][n[h]] = a[k], bh[h][n[h]++] = b[k];
    }
    if (op->td == MT_F16) {
        double x = alu_fp_decode(ALU_FMT_F16, mma_sum_f16(ah[0], bh[0], n[0], 0.0));
        x = alu_fp_decode(ALU_FMT_F16, mma_sum_f16(ah[1], bh[1], n[1], x));
        return alu_fp_encode(ALU_FMT_F16, x + c, ALU_RN, 0);
    }
    float x = vm_mma_sum(ah[0], bh[0], n[0], 0.0f);
    x = vm_mma_sum(ah[1], bh[1], n[1], x);
    return f32_bits(x + (float)c);
}

/* ---- the tile ---- */

void vm_mma_tile(const vm_mma_op *op, const uint64_t *A, const uint64_t *B, const uint64_t *C, uint64_t *D) {
    int M = op->m, N = op->n, K = op->k;
    for (int y = 0; y < M; y++)
        for (int x = 0; x < N; x++) {
            uint64_t c = C[y * N + x], *d = &D[y * N + x];
            if (op->ta == MT_B1) {
                int64_t s = (int32_t)c;
                for (int k = 0; k < K; k++) {
                    uint64_t a = A[y * K + k] & 1, b = B[k * N + x] & 1;
                    s += op->bop == VM_BOP_AND ? (a & b) : (a ^ b);
                }
                *d = (uint32_t)s;
            } else if (is_int(op->ta)) {
                int64_t s = (int32_t)c;
                for (int k = 0; k < K; k++)
                    s += (int64_t)value(op->ta, A[y * K + k]) * (int64_t)value(op->tb, B[k * N + x]);
                if (op->satfinite) s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                *d = (uint32_t)s;
            } else if (op->ta == MT_F64) {
                double s; /* one fused step per k, in order */
                memcpy(&s, &c, 8);
                for (int k = 0; k < K; k++) s = fma(value(MT_F64, A[y * K + k]), value(MT_F64, B[k * N + x]), s);
                memcpy(d, &s, 8);
            } else {
                double a[128], b[128];
                for (int k = 0; k < K; k++) a[k] = value(op->ta, A[y * K + k]), b[k] = value(op->tb, B[k * N + x]);
                if (op->ta == MT_E4M3 || op->ta == MT_E5M2) {
                    *d = fp8_sum(op, a, b, value(op->tc, c));
                    continue;
                }
                if (op->td == MT_F16) {
                    *d = mma_sum_f16(a, b, K, value(op->tc, c));
                    continue;
                }
                float f = (float)value(op->tc, c);
                int step = op->kstep ? op->kstep : K;
                for (int k0 = 0; k0 < K; k0 += step) f = vm_mma_sum(a + k0, b + k0, step, f);
                *d = f32_bits(f);
            }
        }
}
