/* alu.h — per-lane semantics of the ALU instructions (integer, float, conversion,
 * comparison, SIMD video, half/bf16/fp8), chosen once per instruction at lowering
 * time from its opcode, modifiers and types (alu_key). The interpreter's generic ALU handler gathers each
 * active lane's operands, calls op->fn, and scatters the results. Hot forms may
 * also get specialised handlers; those must agree bit for bit with these. */
#ifndef PTXI_ALU_H
#define PTXI_ALU_H

#include <stdbool.h>
#include <stdint.h>

#include "ir.h"

typedef struct alu_op alu_op;

/* d: destination values (raw bits, zero-extended); s: source values (raw bits,
 * zero-extended to 64; predicates 0/1 with any `!` already applied);
 * cc: the lane's carry flag (0/1) for .cc/addc-style instructions. */
typedef void (*alu_fn)(const alu_op *op, uint64_t *d, const uint64_t *s, uint32_t *cc);

struct alu_op {
    alu_fn fn;
    uint8_t nd, ns;     /* destination / source operand counts */
    uint8_t dbytes[2];  /* bytes of each destination (0 = predicate) */
    uint8_t sbytes[6];  /* bytes of each source (0 = predicate) */
    bool cc_in, cc_out; /* reads / writes the carry flag */
    bool approx;        /* not necessarily bit-exact (documented in README) */
    uint32_t p[4];      /* decoded modifiers, private to fn */
};

/* An instruction as the ALU sees it: the IR's opcode, modifiers and types
 * (ir.h, opcodes.def, modifiers.def), and for video instructions the operand
 * selectors (vadd2.u32.u32.u32 %r1.h10, %r2.h01, ...; vmad ... -%r1.b2). */
typedef struct alu_key {
    uint16_t op; /* ir_opcode */
    uint8_t ntypes, nmods;
    uint32_t typemask;           /* bit i: the i-th suffix in source order is a type */
    uint8_t types[IR_MAX_TYPES]; /* ir_type, in source order */
    uint16_t mods[IR_MAX_MODS];  /* ir_mod, in source order */
    uint16_t sel[4];             /* selectors of d, a, b, c (IR_SEL_*), 0 = the default */
    uint8_t neg;                 /* bit k: operand k of d, a, b, c is negated (-%r) */
} alu_key;

/* Runs op at once for the lanes l of m on 32-bit sources a[l] (b[l]) into
 * d[l], with the same results as op->fn lane by lane, where that is quicker:
 * ex2.approx (the lanes' table reads overlapped) and div.approx/full.f32 by a
 * divisor the same in every lane (one reciprocal). false: not such a form or
 * case, nothing done. */
bool alu_warp32(const alu_op *op, uint32_t *d, const uint32_t *a, const uint32_t *b, uint32_t m);

/* The key of an instruction (selectors only for the VIDEO family). */
void alu_key_of(const ir_insn *in, alu_key *k);
/* The key of a mnemonic written as text, "cvt.rzi.s32.f32", with selectors as
 * trailing "@d=SEL" "@a=SEL" "@b=SEL" "@c=SEL" (SEL without its dot, a leading
 * '-' for a negated operand): "vmad.s32.s32.s32@a=-b2@c=-". For tests and
 * tools; 0 when a word is not an opcode, modifier or type. */
int alu_key_parse(const char *mnemonic, alu_key *k);

/* `nopnds` counts operands with a `%p|%q` destination pair counted as two.
 * Operands are destinations first, then sources, in PTX order.
 * Return 1 and fill *op when the form is known, 0 otherwise. */
int alu_lookup_key_core(const alu_key *k, unsigned nopnds, alu_op *op); /* integer, f32/f64, cvt, setp... */
int alu_lookup_key_simd(const alu_key *k, unsigned nopnds, alu_op *op); /* video, f16/bf16, fp8, packed */

static inline int alu_lookup_key(const alu_key *k, unsigned nopnds, alu_op *op) {
    /* The SIMD/half tables first: for the f16/bf16/tf32 forms both know, theirs
     * match the GPU recordings (tests/simd). */
    return alu_lookup_key_simd(k, nopnds, op) || alu_lookup_key_core(k, nopnds, op);
}

/* The same from a mnemonic as text (alu_key_parse). */
static inline int alu_lookup_core(const char *mnemonic, unsigned nopnds, alu_op *op) {
    alu_key k;
    return alu_key_parse(mnemonic, &k) && alu_lookup_key_core(&k, nopnds, op);
}
static inline int alu_lookup_simd(const char *mnemonic, unsigned nopnds, alu_op *op) {
    alu_key k;
    return alu_key_parse(mnemonic, &k) && alu_lookup_key_simd(&k, nopnds, op);
}
static inline int alu_lookup(const char *mnemonic, unsigned nopnds, alu_op *op) {
    alu_key k;
    return alu_key_parse(mnemonic, &k) && alu_lookup_key(&k, nopnds, op);
}

/* add.rn.T, min.T or max.T (op: IR_OP_ADD, MIN or MAX) as a two-source ALU
 * form: what atomics and reductions on 16-bit floats compute with. */
int alu_lookup_binop(int op, uint8_t type, alu_op *out);

/* A family builder's view of a key: which modifiers and types it has taken.
 * A form is accepted only when every modifier (and, for the SIMD families,
 * every type) was understood. */
typedef struct alu_mn {
    const alu_key *k;
    uint16_t used;   /* bit i: mods[i] taken */
    uint8_t used_ty; /* bit i: types[i] taken */
    unsigned nopnds;
    uint8_t ty[IR_MAX_TYPES], nty; /* core families: the types as ALU type codes */
} alu_mn;

/* Take modifier `mod` if present and not yet taken. */
bool alu_take(alu_mn *m, uint16_t mod);
/* Take the first present modifier of a 0-terminated list; its index or -1. */
int alu_take_any(alu_mn *m, const uint16_t *list);
/* Take the last still untaken type that is one of the 0-terminated `list`; its
 * index in the list or -1. */
int alu_take_type(alu_mn *m, const uint8_t *list);
/* Every modifier and every type was taken. */
bool alu_done(const alu_mn *m);

#endif
