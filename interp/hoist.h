/* hoist.h — the launch-invariant instructions of a kernel (hoist.c). */
#ifndef PTXI_HOIST_H
#define PTXI_HOIST_H

#include <stdint.h>

#include "ir.h"

/* stmt[k] of vm_hoist_find: in the first basic block, or after it (counted
 * in place). */
enum { VM_HOIST_FIRST = 1, VM_HOIST_LATER = 2 };

/* For an entry function f: sets stmt[k] for every statement of f->body
 * that lowering may run once per warp frame as the kernel's prologue, and
 * reg[r] for the register it writes (both arrays zeroed by the caller,
 * f->nbody and f->nregs long). Returns how many statements; 0 for a .func. */
uint32_t vm_hoist_find(const ir_func *f, uint8_t *stmt, uint8_t *reg);

#endif
