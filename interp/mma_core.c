/* mma_core.c — D = A B + C as the tensor cores compute it, for every element
 * type of mma.sync, mma.sp and wmma (mma_core.h). Floating-point products are
 * exact; how they are summed with the accumulator follows what an H100/H200
 * was measured to do (vm_mma_sum); integer sums are exact, wrapping to 32 bits
 * or saturating with .satfinite; .b1 products are bit operations counted by popc. */
#include <math.h>
#include <string.h>

#include "ir.h"
#include "alu_half.h"
#include "mma_core.h"

int vm_mt_bits(int t) {
    static const uint8_t bits[MT_COUNT] = {
        [MT_F16] = 16, [MT_BF16] = 16, [MT_TF32] = 32, [MT_F32] = 32, [MT_F64] = 64, [MT_S8] = 8, [MT_U8] = 8,
        [MT_S4] = 4, [MT_U4] = 4, [MT_B1] = 1, [MT_S32] = 32, [MT_E4M3] = 8, [MT_E5M2] = 8,
    };
    return bits[t];
}

int vm_mt_of_ir(uint8_t t) {
    switch (t) {
    case IR_T_F16: case IR_T_F16X2: return MT_F16;
    case IR_T_BF16: case IR_T_BF16X2: return MT_BF16;
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
    case MT_F64: { double d; memcpy(&d, &b, 8); return d; }
    case MT_S8: return (int8_t)b;
    case MT_U8: return (uint8_t)b;
    case MT_S4: return (double)((int)(b & 15) - (int)((b & 8) << 1));
    case MT_U4: return (double)(b & 15);
    case MT_B1: return (double)(b & 1);
    default: return (int32_t)b;
    }
}

/* ---- floating-point sums ---- */

/* f32 nearest to s * 2^e toward zero. */
static float f32_rz(int64_t s, int e) {
    if (!s) return 0.0f;
    uint64_t m = (uint64_t)(s < 0 ? -s : s);
    int lead = 63 - __builtin_clzll(m);
    if (lead > 23) m >>= lead - 23, e += lead - 23;
    float f = ldexpf((float)m, e);
    return s < 0 ? -f : f;
}

/* The sum of n exact products a_k b_k and the accumulator c as the tensor
 * cores form it (measured on an H200, tests/cudart/programs/mma.cu): with the
 * nominal exponent of a term floor(log2|a|) + floor(log2|b|) for a product
 * and floor(log2|c|) for c, every term is truncated toward zero to a multiple
 * of 2^(largest nominal exponent - MMA_BITS), the truncated terms are added
 * exactly, and the sum is rounded to f32 toward zero. */
#define MMA_BITS 25
float vm_mma_sum(const double *a, const double *b, int n, float c) {
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
        double s = c;
        for (int k = 0; k < n; k++) s += p[k];
        if (!isnan(s)) return (float)s;
        uint32_t nan = 0x7FFFFFFFu;   /* the canonical NaN */
        float f;
        memcpy(&f, &nan, 4);
        return f;
    }
    if (c != 0) {
        int ec;
        frexp(c, &ec);
        if (ec - 1 > emax) emax = ec - 1;
    }
    if (emax == INT32_MIN) return c;   /* all zero: keeps the accumulator's sign */
    int q = emax - MMA_BITS;
    int64_t s = 0;
    for (int k = 0; k <= n; k++) {
        double t = ldexp(k < n ? p[k] : (double)c, -q);
        s += (int64_t)(t < 0 ? -floor(-t) : floor(t));
    }
    return f32_rz(s, q);
}

/* ---- the tile ---- */

static uint64_t f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

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
                double s;   /* one fused step per k, in order */
                memcpy(&s, &c, 8);
                for (int k = 0; k < K; k++) s = fma(value(MT_F64, A[y * K + k]), value(MT_F64, B[k * N + x]), s);
                memcpy(d, &s, 8);
            } else {
                double a[128], b[128];
                for (int k = 0; k < K; k++) a[k] = value(op->ta, A[y * K + k]), b[k] = value(op->tb, B[k * N + x]);
                float f = (float)value(op->tc, c);
                int step = op->kstep ? op->kstep : K;
                for (int k0 = 0; k0 < K; k0 += step) f = vm_mma_sum(a + k0, b + k0, step, f);
                *d = op->td == MT_F16 ? alu_fp_convert(ALU_FMT_F16, ALU_FMT_F32, f32_bits(f), ALU_RN, 0) : f32_bits(f);
            }
        }
}
