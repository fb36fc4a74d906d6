/* check.c — every lowered record against its handler's operand contract
 * (vm_ops.h): register operands inside the frame, of the kind the handler
 * reads them as, aligned to their width. Debug builds run it on each
 * function lowering makes (lower.c); a failure is a lowering bug. */
#include <stdio.h>

#include "vm.h"

enum { K_N, K_R32, K_R64, K_PR, K_RX, K_AX, K_AB, K_ANY };

static const uint8_t contract[VM_OP__COUNT][4] = {
#define X(n, d, a, b, c) [VM_##n] = {K_##d, K_##a, K_##b, K_##c},
    VM_OP_LIST(X)
#undef X
};

/* Bytes a kind occupies for record r (0: nothing to check). */
static uint32_t bytes_of(int k, const vm_insn *r) {
    switch (k) {
    case K_R32: return 4 * VM_LANES;
    case K_R64: return 8 * VM_LANES;
    case K_PR: return 4;
    case K_RX: return r->flags & VM_F_D64 ? 8 * VM_LANES : 4 * VM_LANES;
    case K_AX: return r->flags & VM_F_BASE_REG64 ? 8 * VM_LANES : 4 * VM_LANES;
    case K_AB: return r->flags & VM_F_BASE_REG64 ? 8 * VM_LANES : r->flags & VM_F_BASE_REG32 ? 4 * VM_LANES : 0;
    default: return 0;
    }
}

int vm_check_records(const vm_func *f, char *err, size_t errlen) {
    for (uint32_t k = 0; k < f->ncode; k++) {
        const vm_insn *r = &f->code[k];
        if (r->op >= VM_OP__COUNT) {
            snprintf(err, errlen, "record %u: op %u is not a handler", k, r->op);
            return -1;
        }
        const uint32_t off[4] = {r->d, r->a, r->b, r->c};
        for (int o = 0; o < 4; o++) {
            uint32_t n = bytes_of(contract[r->op][o], r);
            if (!n) continue;
            uint32_t align = n == 8 * VM_LANES ? 8 : 4;
            if ((uint64_t)off[o] + n > f->frame_size || off[o] % align) {
                snprintf(err, errlen,
                         "record %u (%s): operand %c at frame offset %u (%u bytes) breaks its contract "
                         "(frame of %u bytes)",
                         k, vm_op_name[r->op], "dabc"[o], off[o], n, f -> frame_size);
                return -1;
            }
        }
    }
    return 0;
}
