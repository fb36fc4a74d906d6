/* alu_core_impl.h — internal to alu_core*.c: the ALU type codes and the
 * per-family builders that turn an instruction's key into an alu_op. */
#ifndef PTXI_ALU_CORE_IMPL_H
#define PTXI_ALU_CORE_IMPL_H

#include "alu.h"
#include "alu_core.h"

/* The types these families take (X-macro: name, IR type, bits, kind); an
 * instruction of any other type is not theirs. Kind: 'b' bits, 'u' unsigned,
 * 's' signed, 'f' float, 'v' packed pair. */
#define ALU_TYPES(X)                                                                                             \
    X(b8, B8, 8, 'b')                                                                                            \
    X(b16, B16, 16, 'b')                                                                                         \
    X(b32, B32, 32, 'b')                                                                                         \
    X(b64, B64, 64, 'b') X(u8, U8, 8, 'u') X(u16, U16, 16, 'u') X(u32, U32, 32, 'u') X(u64, U64, 64, 'u')        \
        X(s8, S8, 8, 's') X(s16, S16, 16, 's') X(s32, S32, 32, 's') X(s64, S64, 64, 's') X(f16, F16, 16, 'f')    \
            X(bf16, BF16, 16, 'f') X(tf32, TF32, 32, 'f') X(f32, F32, 32, 'f') X(f64, F64, 64, 'f')              \
                X(pred, PRED, 1, 'p') X(s16x2, S16X2, 32, 'v') X(u16x2, U16X2, 32, 'v') X(f16x2, F16X2, 32, 'v') \
                    X(bf16x2, BF16X2, 32, 'v')

enum {
#define X(n, e, b, k) T_##n,
    ALU_TYPES(X)
#undef X
        T_COUNT
};

/* Every per-lane function has this signature; not all of them use op or cc. */
#define ALU_FN(name)                                                                           \
    static void name(const alu_op *op __attribute__((unused)), uint64_t *d, const uint64_t *s, \
                     uint32_t *cc __attribute__((unused)))

/* Source i, or 0 past the form's sources (callers may pass a shorter array). */
static inline uint64_t alu_src(const alu_op *op, const uint64_t *s, int i) { return i < op->ns ? s[i] : 0; }

/* Rounding modifier among rn rz rm rp (and rna): ALU_RN.. or -1 if none. */
int alu_take_rnd(alu_mn *m);

unsigned alu_tbits(int t);
char alu_tkind(int t);
/* Register bytes of a value of type t (1 for 8-bit, 0 for pred). */
uint8_t alu_tbytes(int t);

/* Sets op's operand shape: nd destinations of dt, ns sources of st each. */
void alu_shape(alu_op *op, int nd, int dt, int ns, int st);

/* Family builders (opc: the ir_opcode): return 1 and fill op when the form is known. */
int alu_build_int(int opc, alu_mn *m, alu_op *op);
int alu_build_fp(int opc, alu_mn *m, alu_op *op);
int alu_build_cvt(int opc, alu_mn *m, alu_op *op);
int alu_build_cmp(int opc, alu_mn *m, alu_op *op);

#endif
