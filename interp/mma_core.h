/* mma_core.h — what a tensor-core multiply-accumulate computes, independent of
 * how the operands reach it (mma.sync and mma.sp fragments in mma.c, wmma
 * fragments in wmma.c): element types, their decoding, and D = A B + C on
 * whole matrices with the hardware's summation and rounding. */
#ifndef PTXI_MMA_CORE_H
#define PTXI_MMA_CORE_H

#include <stdbool.h>
#include <stdint.h>

/* Element types of matrix operands. */
enum {
    MT_F16,
    MT_BF16,
    MT_TF32,
    MT_F32,
    MT_F64,
    MT_S8,
    MT_U8,
    MT_S4,
    MT_U4,
    MT_B1,
    MT_S32,
    MT_E4M3,
    MT_E5M2,
    MT_COUNT
};

/* Bits one element occupies in a register or in memory. */
int vm_mt_bits(int t);
/* The IR type of an operand -> MT_*, or -1. */
int vm_mt_of_ir(uint8_t ir_type);

/* Largest operands: rows x K of A, K x columns of B, rows x columns of C and D. */
enum { VM_MMA_MAX_AB = 4096, VM_MMA_MAX_CD = 256 };
/* Bit operations of .b1 products. */
enum { VM_BOP_NONE, VM_BOP_XOR, VM_BOP_AND };

typedef struct vm_mma_op {
    uint16_t m, n, k;
    uint16_t kstep;         /* floating point: K summed per hardware step (0: all of K) */
    uint8_t ta, tb, tc, td; /* MT_* */
    uint8_t bop;            /* VM_BOP_* */
    bool satfinite;
    bool sparse;   /* A was decompressed from 2:4 sparse (mma.sp) */
    bool fp8_wide; /* e4m3/e5m2 summed as wgmma does: all of K at once, 13 bits */
} vm_mma_op;

/* D = A B + C. A is m x k, B is k x n, C and D m x n, all row-major, one
 * element's bits (as in a register, zero-extended) per entry. */
void vm_mma_tile(const vm_mma_op *op, const uint64_t *A, const uint64_t *B, const uint64_t *C, uint64_t *D);

/* c + sum of a[k] * b[k] (k < n <= 128) as the tensor cores round it. */
float vm_mma_sum(const double *a, const double *b, int n, float c);

/* Element e (of vm_mt_bits(t) bits each) of a register sequence: words of 32
 * bits, or of 64 for f64. */
static inline uint64_t vm_mt_get(int t, const uint64_t *regs, unsigned e) {
    if (t == MT_F64) return regs[e];
    unsigned b = (unsigned)vm_mt_bits(t), bit = e * b;
    return (regs[bit / 32] >> (bit % 32)) & ((1ull << b) - 1);
}
static inline void vm_mt_put(int t, uint64_t *regs, unsigned e, uint64_t v) {
    if (t == MT_F64) {
        regs[e] = v;
        return;
    }
    unsigned b = (unsigned)vm_mt_bits(t), bit = e * b;
    uint64_t mask = ((1ull << b) - 1) << (bit % 32);
    regs[bit / 32] = (regs[bit / 32] & ~mask) | ((v << (bit % 32)) & mask);
}

#endif
