/* contract.c — the mul/add contraction ptxas applies (interp/ALU.md, "Contraction").
 * A floating product whose every use is an add/sub of the same basic block
 * becomes part of one fma per use; the PTX ISA allows it for mul/add/sub written
 * without a rounding modifier. A product is a mul, or an f32 div.approx/div.full,
 * whose last step (the dividend times the reciprocal) ptxas fuses the same way;
 * a neg of a product passes it on negated. Decided per statement while
 * lowering, from the IR alone. */
#include <stdlib.h>
#include <string.h>

#include "alu_core.h"
#include "alu_mufu.h"
#include "exec_mem.h"
#include "lower_impl.h"

enum { P_NONE = -1, P_MUL, P_DIV_FULL, P_DIV_APPROX };

static bool float_type(uint8_t t) {
    return t == IR_T_F32 || t == IR_T_F64 || t == IR_T_F16 || t == IR_T_F16X2 || t == IR_T_BF16 || t == IR_T_BF16X2;
}

/* one float type, register destination, no modifier but those in `allowed` (.rn written forbids contraction) */
static bool plain_with(const ir_insn *in, uint32_t nopnds, ir_mod a1, ir_mod a2) {
    if (in->ntypes != 1 || !float_type(in->types[0]) || in->nopnds != nopnds) return false;
    for (uint8_t k = 0; k < in->nmods; k++)
        if (in->mods[k] != a1 && in->mods[k] != a2 && in->mods[k] != IR_MOD_FTZ) return false;
    return in->opnds[0].kind == IR_OPND_REG;
}
static bool plain(const ir_insn *in) { return plain_with(in, 3, IR_MOD_SAT, IR_MOD_SAT); }

static bool ends_block(const ir_stmt *s) {
    if (s->kind == IR_ST_LABEL || s->kind == IR_ST_BRANCHTARGETS) return true;
    if (s->kind != IR_ST_INSN) return false;
    uint16_t op = s->u.insn.op;
    return op == IR_OP_BRA || op == IR_OP_BRX || op == IR_OP_RET || op == IR_OP_EXIT || op == IR_OP_CALL;
}

static const ir_insn *insn(const ir_func *f, uint32_t k) {
    return f->body[k].kind == IR_ST_INSN ? &f->body[k].u.insn : NULL;
}

static uint32_t count_in(const ir_insn *in, uint32_t r, uint32_t from) {
    uint32_t n = in->guard >= 0 && (uint32_t)in->guard == r;
    for (uint32_t k = from; k < in->nopnds; k++) n += vm_lmentions(&in->opnds[k], r);
    return n;
}

/* What kind of product statement m is (P_NONE: none that may be contracted). */
static int prod_kind(const ir_func *f, uint32_t m) {
    const ir_insn *in = insn(f, m);
    if (!in || in->guard >= 0) return P_NONE;
    if (in->op == IR_OP_MUL) return plain(in) && !ir_has_mod(in, IR_MOD_SAT) ? P_MUL : P_NONE;
    if (in->op != IR_OP_DIV || !plain_with(in, 3, IR_MOD_FULL, IR_MOD_APPROX) || in->types[0] != IR_T_F32)
        return P_NONE;
    return ir_has_mod(in, IR_MOD_FULL) ? P_DIV_FULL : ir_has_mod(in, IR_MOD_APPROX) ? P_DIV_APPROX : P_NONE;
}

/* Statement j negates register r of the product of m into another register. */
static bool neg_ok(const ir_func *f, uint32_t m, uint32_t j, uint32_t r) {
    const ir_insn *in = insn(f, j), *p = insn(f, m);
    return in && in->op == IR_OP_NEG && in->guard < 0 && plain_with(in, 2, IR_MOD_FTZ, IR_MOD_FTZ) &&
           in->types[0] == p->types[0] && ir_has_mod(in, IR_MOD_FTZ) == ir_has_mod(p, IR_MOD_FTZ) &&
           in->opnds[1].kind == IR_OPND_REG && in->opnds[1].reg == r && in->opnds[0].reg != r;
}

/* A fused add is emitted as its own record (run_fused) when it is f32 and
 * needs more than the fma can do: a quotient, or the product negated. */
static bool by_record(const ir_func *f, uint32_t m, bool neg) {
    return prod_kind(f, m) != P_MUL || (neg && insn(f, m)->types[0] == IR_T_F32);
}

/* Whether add/sub k can take the product of m, read through register r
 * (negated when `neg`): same type and .ftz, the value once, the product's
 * operands unchanged in between and, where the fma is written over the add's
 * destination after negating an operand there, no clobbered operand. */
static bool use_ok(const ir_func *f, uint32_t m, uint32_t k, uint32_t r, bool neg) {
    const ir_insn *mul = insn(f, m), *u = insn(f, k);
    if ((u->op != IR_OP_ADD && u->op != IR_OP_SUB) || !plain(u) || u->types[0] != mul->types[0] ||
        ir_has_mod(u, IR_MOD_FTZ) != ir_has_mod(mul, IR_MOD_FTZ))
        return false;
    if (count_in(u, r, 1) != 1) return false;
    const ir_operand *a = &mul->opnds[1], *b = &mul->opnds[2];
    for (uint32_t j = m + 1; j < k; j++) {
        const ir_insn *in = insn(f, j);
        if (!in || in->nopnds == 0) continue;
        if ((a->kind == IR_OPND_REG && vm_lmentions(&in->opnds[0], a->reg)) ||
            (b->kind == IR_OPND_REG && vm_lmentions(&in->opnds[0], b->reg)))
            return false;
    }
    if (by_record(f, m, neg)) return true; /* reads every operand before writing */
    uint32_t d = u->opnds[0].reg;
    bool first = u->opnds[1].kind == IR_OPND_REG && u->opnds[1].reg == r;
    const ir_operand *c = &u->opnds[first ? 2 : 1];
    bool sub = u->op == IR_OP_SUB, neg_a = neg != (sub && !first), neg_c = sub && first;
    if (neg_a && neg_c) return false; /* two negations: not done for these types */
    /* a negated register operand is formed in the destination first */
    if (neg_c) return c->kind != IR_OPND_REG || !(vm_lmentions(a, d) || vm_lmentions(b, d));
    if (neg_a && a->kind == IR_OPND_REG) return !(vm_lmentions(b, d) || vm_lmentions(c, d));
    return true;
}

/* Every mention of register r (defined by statement def, a negated value of
 * m's product when `neg`) is in m's block after def, in an add/sub that can
 * take it or in a neg whose value passes the same test. */
static bool uses_ok(const ir_func *f, uint32_t m, uint32_t def, uint32_t r, bool neg, int depth) {
    uint32_t found = 0;
    bool open = true;
    if (depth > 4 || count_in(insn(f, def), r, 1)) return false;
    for (uint32_t k = 0; k < f->nbody; k++) {
        const ir_stmt *s = &f->body[k];
        if (k > m && ends_block(s)) open = false;
        if (s->kind != IR_ST_INSN || k == def) continue;
        uint32_t n = count_in(&s->u.insn, r, 0);
        if (!n) continue;
        if (!open || k < def) return false;
        if (neg_ok(f, m, k, r)) {
            if (!uses_ok(f, m, k, s->u.insn.opnds[0].reg, !neg, depth + 1)) return false;
        } else if (!use_ok(f, m, k, r, neg)) {
            return false;
        }
        found += n;
    }
    return found > 0;
}

/* statement m is a product all of whose uses can take it */
static bool candidate(const ir_func *f, uint32_t m) {
    return prod_kind(f, m) != P_NONE && uses_ok(f, m, m, insn(f, m)->opnds[0].reg, false, 0);
}

/* The statement defining register r last before statement k in k's block, or UINT32_MAX. */
static uint32_t def_before(const ir_func *f, uint32_t k, uint32_t r) {
    for (uint32_t j = k; j-- > 0 && !ends_block(&f->body[j]);) {
        const ir_insn *in = insn(f, j);
        if (in && in->nopnds && vm_lmentions(&in->opnds[0], r)) return j;
    }
    return UINT32_MAX;
}

/* The product statement whose value register r holds before statement k
 * (through negs: *neg tells the parity), when it is a candidate; else UINT32_MAX. */
static uint32_t product_of(const ir_func *f, uint32_t k, uint32_t r, bool *neg) {
    *neg = false;
    for (int depth = 0; depth <= 5; depth++) {
        uint32_t j = def_before(f, k, r);
        if (j == UINT32_MAX) return j;
        const ir_insn *in = insn(f, j);
        if (in->op != IR_OP_NEG || in->nopnds != 2 || in->opnds[1].kind != IR_OPND_REG)
            return candidate(f, j) ? j : UINT32_MAX;
        *neg = !*neg;
        k = j, r = in->opnds[1].reg;
    }
    return UINT32_MAX;
}

/* The product add/sub stmt k takes, or UINT32_MAX: the first operand's when
 * that is a candidate, else the second's; *side: which operand, *neg: negated. */
static uint32_t taken(const ir_func *f, uint32_t k, int *side, bool *neg) {
    const ir_insn *u = insn(f, k);
    if (!u || (u->op != IR_OP_ADD && u->op != IR_OP_SUB) || !plain(u)) return UINT32_MAX;
    for (*side = 1; *side <= 2; ++*side) {
        const ir_operand *o = &u->opnds[*side];
        if (o->kind != IR_OPND_REG) continue;
        uint32_t m = product_of(f, k, o->reg, neg);
        if (m != UINT32_MAX) return m;
    }
    return UINT32_MAX;
}

/* Every mention of register r after statement def in m's block is consumed by
 * the contraction of m: an add/sub that takes m, or a neg whose value is. */
static bool absorbed(const ir_func *f, uint32_t m, uint32_t def, uint32_t r) {
    for (uint32_t j = def + 1; j < f->nbody && !ends_block(&f->body[j]); j++) {
        const ir_insn *in = insn(f, j);
        if (!in || !count_in(in, r, 0)) continue;
        int side;
        bool neg;
        if (neg_ok(f, m, j, r) ? !absorbed(f, m, j, in->opnds[0].reg) : taken(f, j, &side, &neg) != m) return false;
    }
    return true;
}

/* ---- fused records: f32 forms the fma record cannot express ---- */

typedef struct fused_rec {
    vm_ext_fn run;
    int8_t kind; /* P_MUL, P_DIV_FULL, P_DIV_APPROX */
    bool neg_p, neg_c, ftz, sat, kconst;
    uint32_t k; /* kconst: b's reciprocal, folded (a division by an immediate) */
    vm_opnd d, a, b, c;
} fused_rec;

static int run_fused(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const fused_rec *r = i->p;
    (void)w;
    /* the quotient's operands are often the same in every lane (x - sum / n):
     * the reciprocal of the previous lane's is reused then */
    uint32_t pa = 0, pb = 0, qa = 0, qb = 0;
    bool have = false;
    for (int l = 0; l < VM_LANES; l++) {
        if (!(m >> l & 1)) continue;
        uint32_t a = (uint32_t)get_reg(fb, r->a.off, VM_K_R32, l), b = (uint32_t)get_reg(fb, r->b.off, VM_K_R32, l);
        uint32_t c = (uint32_t)get_reg(fb, r->c.off, VM_K_R32, l);
        if (r->kind != P_MUL && r->kconst) b = r->k;
        else if (r->kind != P_MUL) {
            if (!have || a != pa || b != pb) {
                pa = a, pb = b, have = true;
                qb = alu_div_rcp_f32(&a, b, r->kind == P_DIV_FULL, r->ftz);
                qa = a;
            }
            a = qa, b = qb;
        }
        if (r->neg_p) a ^= 0x80000000u;
        if (r->neg_c) c ^= 0x80000000u;
        uint32_t v = alu_fma_f32(a, b, c, r->ftz);
        put_reg(fb, r->d.off, VM_K_R32, l, r->sat ? alu_sat32(v) : v);
    }
    return VM_EXT_NEXT;
}

bool vm_fused_of(const vm_insn *i, vm_fused_form *f) {
    if (i->op != VM_EXT || *(const vm_ext_fn *)i->p != run_fused) return false;
    const fused_rec *r = i->p;
    if (r->a.kind != VM_K_R32 || r->b.kind != VM_K_R32 || r->c.kind != VM_K_R32 || r->d.kind != VM_K_R32) return false;
    *f = (vm_fused_form){.quot = r->kind != P_MUL && !r->kconst,
                         .full = r->kind == P_DIV_FULL,
                         .neg_p = r->neg_p,
                         .neg_c = r->neg_c,
                         .ftz = r->ftz,
                         .sat = r->sat,
                         .kconst = r->kconst,
                         .k = r->k,
                         .d = r->d.off,
                         .a = r->a.off,
                         .b = r->b.off,
                         .c = r->c.off};
    return true;
}

uint64_t vm_fused_quot(const vm_insn *i, uint32_t a, uint32_t b) {
    const fused_rec *r = i->p;
    uint32_t qb = alu_div_rcp_f32(&a, b, r->kind == P_DIV_FULL, r->ftz);
    return (uint64_t)a << 32 | qb;
}

/* div.full by an immediate: ptxas multiplies by 1/b rounded to f32 (for a
 * normal b with a normal reciprocal, where no scaling applies). */
static bool folded_rcp(const ir_insn *div, uint32_t *k) {
    const ir_operand *b = &div->opnds[2];
    if (div->op != IR_OP_DIV || !ir_has_mod(div, IR_MOD_FULL) || div->ntypes != 1 || div->types[0] != IR_T_F32 ||
        div->nopnds != 3 || b->kind != IR_OPND_IMM_F32)
        return false;
    float r = (float)(1.0 / b->fval);
    uint32_t e = (uint32_t)b->fbits >> 23 & 0xff, er = alu_u32(r) >> 23 & 0xff;
    if (e == 0 || e >= 0xfd || er == 0 || er == 0xff) return false;
    *k = alu_u32(r);
    return true;
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

static void emit_fused(lctx *lc, const ir_insn *u, const ir_insn *p, int kind, bool neg_p, bool neg_c,
                       const ir_operand *c) {
    fused_rec *r = calloc(1, sizeof *r);
    if (!r) {
        vm_lfail(lc, "out of memory");
        return;
    }
    lc->cur = u;
    r->run = run_fused;
    r->kind = (int8_t)kind;
    r->neg_p = neg_p, r->neg_c = neg_c;
    r->ftz = ir_has_mod(u, IR_MOD_FTZ), r->sat = ir_has_mod(u, IR_MOD_SAT);
    r->kconst = kind == P_DIV_FULL && folded_rcp(p, &r->k);
    r->a = vm_lsrc(lc, &p->opnds[1], IR_T_F32);
    r->b = vm_lsrc(lc, &p->opnds[2], IR_T_F32);
    r->c = vm_lsrc(lc, c, IR_T_F32);
    r->d = vm_ldst(lc, &u->opnds[0]);
    vm_insn vi = vm_lbase(lc, VM_EXT);
    vi.p = r;
    vm_lemit(lc, vi);
}

static ir_operand negated(ir_operand x) {
    x.fval = -x.fval;
    x.fbits ^= x.kind == IR_OPND_IMM_F32 ? 0x80000000ull : 0x8000000000000000ull;
    return x;
}

bool vm_contract(lctx *lc, const ir_func *f, uint32_t k, bool on) {
    const ir_insn *in = insn(f, k);
    if (!on || !in) return false;
    if ((in->op == IR_OP_MUL || in->op == IR_OP_DIV || in->op == IR_OP_NEG) && in->ntypes == 1 &&
        float_type(in->types[0])) {
        /* a product (and the negs passing it on) is dropped when every use took it */
        bool neg;
        uint32_t m = in->op == IR_OP_NEG && in->nopnds == 2 && in->opnds[1].kind == IR_OPND_REG
                         ? product_of(f, k, in->opnds[1].reg, &neg)
                     : candidate(f, k) ? k
                                       : UINT32_MAX;
        if (m != UINT32_MAX && absorbed(f, m, m, insn(f, m)->opnds[0].reg)) return true;
        uint32_t kr;
        if (in->op != IR_OP_DIV || !folded_rcp(in, &kr)) return false;
        /* a division by an immediate that stays: a times the folded reciprocal */
        ir_operand o[3] = {in->opnds[0], in->opnds[1], in->opnds[2]};
        o[2].fbits = kr;
        o[2].fval = alu_f32(kr);
        ir_mod mods[2] = {IR_MOD_RN, IR_MOD_FTZ};
        emit_as(lc, in, IR_OP_MUL, IR_T_F32, mods, ir_has_mod(in, IR_MOD_FTZ) ? 2 : 1, o, 3);
        return true;
    }
    int side;
    bool neg;
    uint32_t m = taken(f, k, &side, &neg);
    if (m == UINT32_MAX) return false;
    const ir_insn *p = insn(f, m);
    uint8_t t = in->types[0];
    bool sub = in->op == IR_OP_SUB, first = side == 1;
    /* q + c = fma(±a, b, c); q - c = fma(±a, b, -c); c - q = fma(∓a, b, c) */
    bool neg_a = neg != (sub && !first), neg_c = sub && first;
    const ir_operand *c = &in->opnds[first ? 2 : 1];
    if (by_record(f, m, neg)) {
        emit_fused(lc, in, p, prod_kind(f, m), neg_a, neg_c, c);
        return true;
    }
    ir_operand o[4] = {in->opnds[0], p->opnds[1], p->opnds[2], *c};
    ir_operand d = in->opnds[0];
    ir_operand *x = neg_c ? &o[3] : neg_a ? &o[1] : NULL;
    if (x && (x->kind == IR_OPND_IMM_F32 || x->kind == IR_OPND_IMM_F64)) {
        *x = negated(*x);
    } else if (x) {
        /* -x is exact */
        ir_operand nx[2] = {d, *x};
        emit_as(lc, in, IR_OP_NEG, t, NULL, 0, nx, 2);
        *x = d;
    }
    ir_mod mods[3];
    unsigned nm = 0;
    mods[nm++] = IR_MOD_RN;
    if (ir_has_mod(in, IR_MOD_FTZ)) mods[nm++] = IR_MOD_FTZ;
    if (ir_has_mod(in, IR_MOD_SAT)) mods[nm++] = IR_MOD_SAT;
    emit_as(lc, in, IR_OP_FMA, t, mods, nm, o, 4);
    return true;
}
