/* lower_impl.h — the lowering context (lower.c) as the files that work on a
 * function's records after lowering (fuse.c) see it. */
#ifndef PTXI_LOWER_IMPL_H
#define PTXI_LOWER_IMPL_H

#include "lower_ext.h"
#include "vm.h"

typedef struct lctx {
    vm_program *prog;
    vm_func *vf;
    const ir_func *f;
    uint8_t *img; /* frame image being built */
    uint32_t size, cap;
    vm_insn *code;
    vm_src *src;
    const ir_insn **ins; /* per record: the instruction it was lowered from */
    uint32_t n, ncap;
    uint32_t *label_code; /* label id -> code index (UINT32_MAX until seen) */
    uint32_t *var_off;    /* per function-scope variable: frame region / local offset */
    uint8_t *shared_used; /* per module global: referenced by this function (.shared ones) */
    const ir_insn *cur;
    char *err;
    size_t errlen;
    int failed;
} lctx;

#ifndef PTXI_SWITCH_DISPATCH
/* Superinstructions over the lowered records of lc (fuse.c); tab: the handler table. */
void vm_fuse(lctx *lc, const void *const *tab);
#endif

#endif
