/* alu_core_impl.h — internal to alu_core*.c: the parsed form of a dotted mnemonic
 * and the per-family builders that turn it into an alu_op. */
#ifndef PTXI_ALU_CORE_IMPL_H
#define PTXI_ALU_CORE_IMPL_H

#include "alu.h"
#include "alu_core.h"

/* Value types that may appear in a mnemonic (X-macro: name, bits, kind). Kind:
 * 'b' bits, 'u' unsigned, 's' signed, 'f' float, 'v' packed pair. */
#define ALU_TYPES(X) \
    X(b8, 8, 'b') X(b16, 16, 'b') X(b32, 32, 'b') X(b64, 64, 'b') \
    X(u8, 8, 'u') X(u16, 16, 'u') X(u32, 32, 'u') X(u64, 64, 'u') \
    X(s8, 8, 's') X(s16, 16, 's') X(s32, 32, 's') X(s64, 64, 's') \
    X(f16, 16, 'f') X(bf16, 16, 'f') X(tf32, 32, 'f') X(f32, 32, 'f') X(f64, 64, 'f') \
    X(pred, 1, 'p') X(s16x2, 32, 'v') X(u16x2, 32, 'v') X(f16x2, 32, 'v') X(bf16x2, 32, 'v')

enum {
#define X(n, b, k) T_##n,
    ALU_TYPES(X)
#undef X
    T_COUNT
};

typedef struct {
    const char *tok[16];      /* modifiers (not types), in order */
    uint8_t toklen[16];
    uint16_t used;            /* modifiers consumed by the builder */
    uint8_t ntok;
    uint8_t ty[4], nty;       /* types, in order */
    unsigned nopnds;
} alu_mn;

/* Every per-lane function has this signature; not all of them use op or cc. */
#define ALU_FN(name) static void name(const alu_op *op __attribute__((unused)), uint64_t *d, \
                                      const uint64_t *s, uint32_t *cc __attribute__((unused)))

/* Source i, or 0 past the form's sources (callers may pass a shorter array). */
static inline uint64_t alu_src(const alu_op *op, const uint64_t *s, int i) { return i < op->ns ? s[i] : 0; }

/* Consume modifier `w` if present. */
bool alu_take(alu_mn *m, const char *w);
/* Consume the first modifier found in the NULL-terminated list; index or -1. */
int alu_take_any(alu_mn *m, const char *const *list);
/* Rounding modifier among rn rz rm rp (and rna): ALU_RN.. or -1 if none. */
int alu_take_rnd(alu_mn *m);

unsigned alu_tbits(int t);
char alu_tkind(int t);
/* Register bytes of a value of type t (1 for 8-bit, 0 for pred). */
uint8_t alu_tbytes(int t);

/* Sets op's operand shape: nd destinations of dt, ns sources of st each. */
void alu_shape(alu_op *op, int nd, int dt, int ns, int st);

/* Family builders: return 1 and fill op when the form is known. */
int alu_build_int(const char *opc, alu_mn *m, alu_op *op);
int alu_build_fp(const char *opc, alu_mn *m, alu_op *op);
int alu_build_cvt(const char *opc, alu_mn *m, alu_op *op);
int alu_build_cmp(const char *opc, alu_mn *m, alu_op *op);

#endif
