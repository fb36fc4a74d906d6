/* alu_mufu.h — the f32 .approx instructions of the multi-function unit (rcp,
 * rsqrt, sqrt, ex2, lg2, sin, cos, tanh) bit for bit as an H100/H200 computes
 * them: measured result tables plus the unit's exponent, sign and special-value
 * handling (ALU.md, "Approximate instructions"). */
#ifndef PTXI_ALU_MUFU_H
#define PTXI_ALU_MUFU_H

#include <stdbool.h>
#include <stdint.h>

enum { ALU_MU_RCP, ALU_MU_RSQRT, ALU_MU_SQRT, ALU_MU_EX2, ALU_MU_LG2, ALU_MU_SIN, ALU_MU_COS, ALU_MU_TANH };

/* The result bits of `<fn>.approx[.ftz].f32` for the operand bits x (tanh has
 * no .ftz form and ignores ftz). Thread-safe; the first call for a function
 * unpacks its table (a few MB, kept for the life of the process). */
uint32_t alu_mufu_f32(int fn, uint32_t x, bool ftz);
/* d[l] := <fn>.approx[.ftz].f32 of x[l] for each lane l of m (x and d may
 * be the same array), as alu_mufu_f32 lane by lane, the lanes' table reads
 * a warp at a time (AVX-512 builds). */
void alu_mufu_warp(int fn, const uint32_t *x, uint32_t *d, uint32_t m, bool ftz);

/* The unit's f64 forms (MUFU.RCP64H/RSQ64H, fn ALU_MU_RCP or ALU_MU_RSQRT): the
 * high word of the result from the high word of the operand; the low word
 * (of both) is zero. Subnormal operands count as zero. */
uint32_t alu_mufu_hi64(int fn, uint32_t hi);

/* div.approx/div.full[.ftz].f32 a / b as the GPU computes it: *a times the
 * returned reciprocal of b, both operands first scaled so that the reciprocal
 * stays normal (by 2^24 when |b| < 2^-126 without .ftz and, for div.full, by
 * 1/4 when |b| > 2^126); *a is scaled in place. Contraction (contract.c) fuses
 * that last multiply as ptxas does. */
uint32_t alu_div_rcp_f32(uint32_t *a, uint32_t b, bool full, bool ftz);

#endif
