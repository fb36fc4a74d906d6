/* alu_simd_int.h — shared by the alu_simd*.c files: a dotted-mnemonic splitter
 * (modifiers are taken one by one, and a form is accepted only when every
 * modifier was understood) and the per-family lookup entry points. */
#ifndef PTXI_ALU_SIMD_INT_H
#define PTXI_ALU_SIMD_INT_H

#include "alu.h"
#include <stdbool.h>
#include <string.h>

#define ALU_MN_MAX 16

typedef struct {
    char buf[160];
    const char *op;                 /* opcode: "vadd2", "cvt", ... */
    const char *mod[ALU_MN_MAX];    /* dot components after the opcode, in order */
    int nmod;
    unsigned used;                  /* bit i: mod[i] was understood */
    const char *sel[4];             /* "@d=", "@a=", "@b=", "@c=" values, or NULL */
} alu_mn;

/* Split `mnemonic`; 0 when it is malformed or too long. */
int alu_mn_split(alu_mn *m, const char *mnemonic);
/* Take modifier `s` (without its dot) if present and not yet taken. */
bool alu_mn_take(alu_mn *m, const char *s);
/* Take the first present modifier of a NULL-terminated list; its index or -1. */
int alu_mn_take_any(alu_mn *m, const char *const *list);
/* Take the last still untaken modifier that is one of `list`; its index in the
 * list or -1. Types sit at the end of a mnemonic, after .sat/.add and the like. */
int alu_mn_take_type(alu_mn *m, const char *const *list);
/* Every modifier was understood. */
static inline bool alu_mn_done(const alu_mn *m) { return m->used == (1u << m->nmod) - 1; }

int alu_lookup_half(alu_mn *m, unsigned nopnds, alu_op *op);
int alu_lookup_hcvt(alu_mn *m, unsigned nopnds, alu_op *op);

/* Fill the shape of an op: nd destinations of the given byte sizes, then sources. */
static inline void alu_shape(alu_op *op, alu_fn fn, const char *dbytes, const char *sbytes) {
    memset(op, 0, sizeof *op);
    op->fn = fn;
    for (; dbytes[op->nd]; op->nd++) op->dbytes[op->nd] = (uint8_t)(dbytes[op->nd] - '0');
    for (; sbytes[op->ns]; op->ns++) op->sbytes[op->ns] = (uint8_t)(sbytes[op->ns] - '0');
}

#endif
