/* alu_simd_int.h — shared by the alu_simd*.c files: the per-family lookup
 * entry points (modifiers and types are taken one by one from the key, alu.h,
 * and a form is accepted only when every one was understood). */
#ifndef PTXI_ALU_SIMD_INT_H
#define PTXI_ALU_SIMD_INT_H

#include "alu.h"
#include <stdbool.h>
#include <string.h>

int alu_lookup_half(alu_mn *m, unsigned nopnds, alu_op *op);
int alu_lookup_hcvt(alu_mn *m, unsigned nopnds, alu_op *op);

/* Fill the shape of an op: nd destinations of the given byte sizes, then sources. */
static inline void alu_shape_bytes(alu_op *op, alu_fn fn, const char *dbytes, const char *sbytes) {
    memset(op, 0, sizeof *op);
    op->fn = fn;
    for (; dbytes[op->nd]; op->nd++) op->dbytes[op->nd] = (uint8_t)(dbytes[op->nd] - '0');
    for (; sbytes[op->ns]; op->ns++) op->sbytes[op->ns] = (uint8_t)(sbytes[op->ns] - '0');
}

#endif
