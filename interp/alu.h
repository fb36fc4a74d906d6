/* alu.h — per-lane semantics of the ALU instructions (integer, float, conversion,
 * comparison, SIMD video, half/bf16/fp8), chosen once per instruction at lowering
 * time from its mnemonic. The interpreter's generic ALU handler gathers each
 * active lane's operands, calls op->fn, and scatters the results. Hot forms may
 * also get specialised handlers; those must agree bit for bit with these. */
#ifndef PTXI_ALU_H
#define PTXI_ALU_H

#include <stdbool.h>
#include <stdint.h>

typedef struct alu_op alu_op;

/* d: destination values (raw bits, zero-extended); s: source values (raw bits,
 * zero-extended to 64; predicates 0/1 with any `!` already applied);
 * cc: the lane's carry flag (0/1) for .cc/addc-style instructions. */
typedef void (*alu_fn)(const alu_op *op, uint64_t *d, const uint64_t *s, uint32_t *cc);

struct alu_op {
    alu_fn fn;
    uint8_t nd, ns;              /* destination / source operand counts */
    uint8_t dbytes[2];           /* bytes of each destination (0 = predicate) */
    uint8_t sbytes[6];           /* bytes of each source (0 = predicate) */
    bool cc_in, cc_out;          /* reads / writes the carry flag */
    bool approx;                 /* not necessarily bit-exact (documented in README) */
    uint32_t p[4];               /* decoded modifiers, private to fn */
};

/* `mnemonic` is opcode, modifiers and types in source order ("cvt.rzi.s32.f32");
 * `nopnds` counts operands with a `%p|%q` destination pair counted as two.
 * Operands are destinations first, then sources, in PTX order.
 * Operand selectors (video: %r1.h10, -%r2.b1) are appended as "@d=h10@a=-b1" (alu_simd.c).
 * Return 1 and fill *op when the form is known, 0 otherwise. */
int alu_lookup_core(const char *mnemonic, unsigned nopnds, alu_op *op);  /* integer, f32/f64, cvt, setp... */
int alu_lookup_simd(const char *mnemonic, unsigned nopnds, alu_op *op);  /* video, f16/bf16, fp8, packed */
/* Before op runs lane by lane on the 32-bit first sources x[l] of lanes m:
 * starts fetching the tables it will read (the .approx forms), if any. */
void alu_prefetch32(const alu_op *op, const uint32_t *x, uint32_t m);

static inline int alu_lookup(const char *mnemonic, unsigned nopnds, alu_op *op) {
    /* The SIMD/half tables first: for the f16/bf16/tf32 forms both know, theirs
     * match the GPU recordings (tests/simd). */
    return alu_lookup_simd(mnemonic, nopnds, op) || alu_lookup_core(mnemonic, nopnds, op);
}

#endif
