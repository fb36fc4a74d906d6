/* contract.c — the mul/add contraction ptxas applies (interp/ALU.md, "Contraction").
 * A floating mul whose every use is an add/sub of the same basic block becomes
 * part of one fma per use; the PTX ISA allows it for mul/add/sub written without
 * a rounding modifier. Decided per statement while lowering, from the IR alone. */
#include <string.h>

#include "lower_ext.h"
#include "vm.h"

static bool float_type(uint8_t t) {
    return t == IR_T_F32 || t == IR_T_F64 || t == IR_T_F16 || t == IR_T_F16X2 || t == IR_T_BF16 || t == IR_T_BF16X2;
}

/* mul/add/sub of a float type with no rounding modifier (.rn written forbids contraction) */
static bool plain(const ir_insn *in) {
    if (in->ntypes != 1 || !float_type(in->types[0]) || in->nopnds != 3) return false;
    for (uint8_t k = 0; k < in->nmods; k++)
        if (in->mods[k] != IR_MOD_FTZ && in->mods[k] != IR_MOD_SAT) return false;
    return in->opnds[0].kind == IR_OPND_REG;
}

static bool ends_block(const ir_stmt *s) {
    if (s->kind == IR_ST_LABEL || s->kind == IR_ST_BRANCHTARGETS) return true;
    if (s->kind != IR_ST_INSN) return false;
    uint16_t op = s->u.insn.op;
    return op == IR_OP_BRA || op == IR_OP_BRX || op == IR_OP_RET || op == IR_OP_EXIT || op == IR_OP_CALL;
}

static uint32_t count_in(const ir_insn *in, uint32_t r, uint32_t from) {
    uint32_t n = in->guard >= 0 && (uint32_t)in->guard == r;
    for (uint32_t k = from; k < in->nopnds; k++) n += vm_lmentions(&in->opnds[k], r);
    return n;
}

/* stmt m is a mul that may be contracted into its uses */
static bool mul_form(const ir_func *f, uint32_t m) {
    const ir_insn *in = &f->body[m].u.insn;
    return f->body[m].kind == IR_ST_INSN && in->op == IR_OP_MUL && in->guard < 0 && plain(in) &&
           !ir_has_mod(in, IR_MOD_SAT);
}

/* Whether add/sub `u` (stmt k) can take the product of mul stmt m: same type and
 * .ftz, the product once, the mul's operands unchanged in between, and an fma
 * written over the add's destination that does not clobber what it reads. */
static bool use_ok(const ir_func *f, uint32_t m, uint32_t k) {
    const ir_insn *mul = &f->body[m].u.insn, *u = &f->body[k].u.insn;
    if ((u->op != IR_OP_ADD && u->op != IR_OP_SUB) || !plain(u) || u->types[0] != mul->types[0] ||
        ir_has_mod(u, IR_MOD_FTZ) != ir_has_mod(mul, IR_MOD_FTZ))
        return false;
    uint32_t p = mul->opnds[0].reg, d = u->opnds[0].reg;
    if (count_in(u, p, 1) != 1) return false;
    const ir_operand *a = &mul->opnds[1], *b = &mul->opnds[2];
    for (uint32_t j = m + 1; j < k; j++) {
        const ir_insn *in = &f->body[j].u.insn;
        if (f->body[j].kind != IR_ST_INSN || in->nopnds == 0) continue;
        if ((a->kind == IR_OPND_REG && vm_lmentions(&in->opnds[0], a->reg)) ||
            (b->kind == IR_OPND_REG && vm_lmentions(&in->opnds[0], b->reg)))
            return false;
    }
    /* a negated operand is formed in the destination first */
    bool first = u->opnds[1].kind == IR_OPND_REG && u->opnds[1].reg == p;
    const ir_operand *c = &u->opnds[first ? 2 : 1];
    if (u->op == IR_OP_SUB && first) return !(vm_lmentions(a, d) || vm_lmentions(b, d)) || c->kind != IR_OPND_REG;
    if (u->op == IR_OP_SUB) return !(vm_lmentions(b, d) || vm_lmentions(c, d));
    return true;
}

/* stmt m is a mul all of whose uses are add/sub statements of its block that can take it */
static bool candidate(const ir_func *f, uint32_t m) {
    if (!mul_form(f, m)) return false;
    uint32_t p = f->body[m].u.insn.opnds[0].reg, seen = count_in(&f->body[m].u.insn, p, 1), found = 0;
    if (seen) return false;
    bool open = true;
    for (uint32_t k = 0; k < f->nbody; k++) {
        const ir_stmt *s = &f->body[k];
        if (k > m && ends_block(s)) open = false;
        if (s->kind != IR_ST_INSN || k == m) continue;
        uint32_t n = count_in(&s->u.insn, p, 0);
        if (!n) continue;
        if (!open || k < m || !use_ok(f, m, k)) return false;
        found += n;
    }
    return found > 0;
}

/* The mul whose product add/sub stmt k takes, or UINT32_MAX: the first operand's
 * product when that is a candidate, else the second's. */
static uint32_t taken(const ir_func *f, uint32_t k) {
    const ir_insn *u = &f->body[k].u.insn;
    if (f->body[k].kind != IR_ST_INSN || (u->op != IR_OP_ADD && u->op != IR_OP_SUB) || !plain(u)) return UINT32_MAX;
    for (int side = 1; side <= 2; side++) {
        const ir_operand *o = &u->opnds[side];
        if (o->kind != IR_OPND_REG) continue;
        for (uint32_t j = k; j-- > 0 && !ends_block(&f->body[j]);) {
            const ir_stmt *s = &f->body[j];
            if (s->kind != IR_ST_INSN || s->u.insn.nopnds == 0 || !vm_lmentions(&s->u.insn.opnds[0], o->reg)) continue;
            if (candidate(f, j)) return j;
            break;
        }
    }
    return UINT32_MAX;
}

/* Lowers a synthetic one-type instruction with the add's location. */
static void emit_as(lctx *lc, const ir_insn *orig, uint16_t op, uint8_t type, const ir_mod *mods, unsigned nmods,
                    ir_operand *opnds, uint32_t nopnds) {
    ir_insn in;
    memset(&in, 0, sizeof in);
    in.op = op;
    in.ntypes = 1;
    in.types[0] = type;
    in.typemask = 1u << nmods;
    in.guard = orig->guard;
    in.guard_neg = orig->guard_neg;
    in.loc = orig->loc;
    in.dbg = orig->dbg;
    for (unsigned k = 0; k < nmods; k++) {
        in.mods[in.nmods++] = (uint16_t)mods[k];
        in.modset[mods[k] >> 6] |= 1ull << (mods[k] & 63);
    }
    in.opnds = opnds;
    in.nopnds = nopnds;
    vm_linsn_as(lc, &in, orig);
}

bool vm_contract(lctx *lc, const ir_func *f, uint32_t k, bool on) {
    const ir_stmt *s = &f->body[k];
    if (!on || s->kind != IR_ST_INSN) return false;
    const ir_insn *in = &s->u.insn;
    if (in->op == IR_OP_MUL) {
        /* dropped when every use took this product */
        if (!candidate(f, k)) return false;
        for (uint32_t j = k + 1; j < f->nbody && !ends_block(&f->body[j]); j++)
            if (f->body[j].kind == IR_ST_INSN && count_in(&f->body[j].u.insn, in->opnds[0].reg, 0) &&
                taken(f, j) != k)
                return false;
        return true;
    }
    uint32_t m = taken(f, k);
    if (m == UINT32_MAX) return false;
    const ir_insn *mul = &f->body[m].u.insn;
    bool first = in->opnds[1].kind == IR_OPND_REG && in->opnds[1].reg == mul->opnds[0].reg;
    uint8_t t = in->types[0];
    ir_operand o[4] = {in->opnds[0], mul->opnds[1], mul->opnds[2], in->opnds[first ? 2 : 1]};
    ir_operand d = in->opnds[0];
    if (in->op == IR_OP_SUB) {
        /* p - c = fma(a, b, -c); c - p = fma(-a, b, c); -x is exact */
        ir_operand *x = &o[first ? 3 : 1];
        if (x->kind == IR_OPND_IMM_F32 || x->kind == IR_OPND_IMM_F64) {
            x->fval = -x->fval;
            x->fbits ^= x->kind == IR_OPND_IMM_F32 ? 0x80000000ull : 0x8000000000000000ull;
        } else {
            ir_operand nx[2] = {d, *x};
            emit_as(lc, in, IR_OP_NEG, t, NULL, 0, nx, 2);
            *x = d;
        }
    }
    ir_mod mods[3];
    unsigned nm = 0;
    mods[nm++] = IR_MOD_RN;
    if (ir_has_mod(in, IR_MOD_FTZ)) mods[nm++] = IR_MOD_FTZ;
    if (ir_has_mod(in, IR_MOD_SAT)) mods[nm++] = IR_MOD_SAT;
    emit_as(lc, in, IR_OP_FMA, t, mods, nm, o, 4);
    return true;
}
