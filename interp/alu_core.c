/* alu_core.c — turns an instruction's key (opcode, modifiers, types: alu.h)
 * into an alu_op for the integer, f32/f64, conversion and comparison
 * instructions: hands it to the family builders. */
#include "alu_core_impl.h"

#include <string.h>

static const struct {
    uint8_t bits;
    char kind;
} types[T_COUNT] = {
#define X(n, e, b, k) {b, k},
    ALU_TYPES(X)
#undef X
};
/* IR type -> ALU type code + 1 (0: not a type of these families) */
static const uint8_t from_ir[IR_T__COUNT] = {
#define X(n, e, b, k) [IR_T_##e] = T_##n + 1,
    ALU_TYPES(X)
#undef X
};

unsigned alu_tbits(int t) { return types[t].bits; }
char alu_tkind(int t) { return types[t].kind; }
uint8_t alu_tbytes(int t) { return types[t].bits == 1 ? 0 : types[t].bits / 8; }

void alu_shape(alu_op *op, int nd, int dt, int ns, int st) {
    op->nd = nd;
    op->ns = ns;
    for (int i = 0; i < nd; i++) op->dbytes[i] = alu_tbytes(dt);
    for (int i = 0; i < ns; i++) op->sbytes[i] = alu_tbytes(st);
}

int alu_take_rnd(alu_mn *m) {
    static const uint16_t r[] = {IR_MOD_RN, IR_MOD_RZ, IR_MOD_RM, IR_MOD_RP, IR_MOD_RNA, 0};
    return alu_take_any(m, r);
}

int alu_lookup_key_core(const alu_key *k, unsigned nopnds, alu_op *op) {
    if (k->neg || k->sel[0] || k->sel[1] || k->sel[2] || k->sel[3]) return 0;
    alu_mn m = {.k = k, .nopnds = nopnds};
    for (int i = 0; i < k->ntypes; i++) {
        if (!from_ir[k->types[i]]) return 0;
        m.ty[m.nty++] = (uint8_t)(from_ir[k->types[i]] - 1);
    }

    static int (*const build[])(int, alu_mn *, alu_op *) = {alu_build_int, alu_build_fp, alu_build_cvt, alu_build_cmp};
    for (unsigned i = 0; i < sizeof build / sizeof build[0]; i++) {
        alu_op o;
        memset(&o, 0, sizeof o);
        m.used = 0;
        if (!build[i](k->op, &m, &o)) continue;
        if (m.used != (1u << k->nmods) - 1 || (unsigned)o.nd + o.ns != nopnds) return 0;
        *op = o;
        return 1;
    }
    return 0;
}
