/* fuse.c — superinstructions: after a function is lowered, runs of records
 * that one handler can execute together get that handler on their head. */
#include <stdlib.h>

#include "lower_impl.h"
#include "vm_ops.h"

#ifndef PTXI_SWITCH_DISPATCH
/* Superinstructions (vm_ops.h): sequences of unguarded records whose head
 * gets one handler that runs them all. Not in debugged code, where every
 * record must reach the debugger's trampoline and every register must hold
 * its value when the debugger looks (also after a fault). */
static const struct {
    uint16_t ops[4];
    uint8_t n;
    uint16_t handler;
} fusions[] = {
    {{VM_LDS4, VM_LDS4, VM_FMAF32}, 3, VM_LDS4_LDS4_FMAF32},
};

static void count_regs(const ir_operand *o, uint32_t *cnt) {
    if (o->kind == IR_OPND_REG) cnt[o->reg]++;
    if (o->kind == IR_OPND_ADDR || o->kind == IR_OPND_VEC || o->kind == IR_OPND_LIST || o->kind == IR_OPND_PAIR)
        for (uint32_t k = 0; k < o->nsub; k++) count_regs(&o->sub[k], cnt);
}

/* Is the register that record `def` writes at frame offset `off` (its
 * instruction's operand 0) read only at record `use`, a later record
 * reachable from def only straight through (no label in (def, use])? Then
 * nothing reads the value after `use`, and the superinstruction may keep it
 * in a host register instead. (Registers may share a slot, regshare.c: the
 * register is named by the instruction, not by the offset.) */
static bool dies_at(const lctx *lc, const uint32_t *cnt, const uint8_t *target, uint32_t off, uint32_t def,
                    uint32_t use) {
    const ir_insn *d = lc->ins[def], *u = lc->ins[use];
    if (!d || !u || d == u || !d->nopnds || d->opnds[0].kind != IR_OPND_REG) return false;
    uint32_t r = d->opnds[0].reg, in_u = 0;
    if (lc->vf->reg_off[r] != off || cnt[r] != 2) return false;
    for (uint32_t k = 0; k < u->nopnds; k++) in_u += vm_lmentions(&u->opnds[k], r);
    if (in_u != 1 || u->guard == (int32_t)r) return false;
    for (uint32_t k = def + 1; k <= use; k++)
        if (target[k]) return false;
    return true;
}

/* The ld/ld/fma superinstruction's record-local facts, in the head's x
 * (unused by LDS4): which of the three results die inside the chain. */
static void mark_dot_deaths(lctx *lc, const uint32_t *cnt, const uint8_t *target, uint32_t k, const void *head) {
    vm_insn *c = lc->code;
    uint16_t x = 0;
    for (int s = 0; s < 2; s++)
        if ((c[k + 2].a == c[k + s].d || c[k + 2].b == c[k + s].d) &&
            dies_at(lc, cnt, target, c[k + s].d, k + s, k + 2))
            x |= (uint16_t)(VM_DOT_DEAD0 << s);
    if (k + 5 < lc->n && c[k + 3].h == head && c[k + 5].c == c[k + 2].d &&
        dies_at(lc, cnt, target, c[k + 2].d, k + 2, k + 5))
        x |= VM_DOT_DEADACC;
    c[k].x = x;
}

/* The chain of triples headed at k as one vm_dotplan (vm_ops.h), or NULL
 * when it is not that shape: every triple loads through the same two address
 * registers, feeds both loads (only) to its fma, chains the accumulator, and
 * (but for the last) leaves nothing a later record reads. Only the last
 * triple may write an address register's slot (one that dies there: the
 * plan reads both addresses before it writes anything). */
static vm_dotplan *plan_dot(const lctx *lc, uint32_t k, const void *head) {
    const vm_insn *c = lc->code;
    uint32_t n = 0;
    while (k + 3 * n + 2 < lc->n && c[k + 3 * n].h == head && (n == 0 || c[k + 3 * n + 2].c == c[k + 3 * n - 1].d)) n++;
    if (n < 2) return NULL;
    vm_dotplan *p = calloc(1, sizeof *p + n * sizeof p->off[0]);
    if (!p) return NULL;
    p->n = n;
    p->ra[0] = c[k].a, p->ra[1] = c[k + 1].a;
    p->acc_in = c[k + 2].c;
    p->acc_out = c[k + 3 * n - 1].d;
    for (uint32_t t = 0; t < n; t++) {
        const vm_insn *l0 = &c[k + 3 * t], *l1 = l0 + 1, *f = l0 + 2;
        unsigned need = t + 1 < n ? VM_DOT_DEAD0 | VM_DOT_DEAD1 | VM_DOT_DEADACC : 0;
        bool ok = (l0->x & need) == need && l0->a == p->ra[0] && l1->a == p->ra[1] && l0->d != l1->d &&
                  ((f->a == l0->d && f->b == l1->d) || (f->a == l1->d && f->b == l0->d)) && f->c != l0->d &&
                  f->c != l1->d && l0->imm % 4 == 0 && l1->imm % 4 == 0 && l0->imm >= -(1 << 20) &&
                  l0->imm <= 1 << 20 && l1->imm >= -(1 << 20) && l1->imm <= 1 << 20;
        for (int s = 0; s < 2 && t + 1 < n; s++)
            for (int r = 0; r < 2; r++) ok = ok && c[k + 3 * t + (uint32_t)s].d != p->ra[r] && f->d != p->ra[r];
        if (!ok) {
            free(p);
            return NULL;
        }
        for (int s = 0; s < 2; s++) {
            int32_t o = (int32_t)l0[s].imm;
            p->off[t][s] = o;
            if (t == 0 || o < p->lo[s]) p->lo[s] = o;
            if (t == 0 || o > p->hi[s]) p->hi[s] = o;
            if (t + 1 == n) p->last_d[s] = l0->x & (VM_DOT_DEAD0 << s) ? UINT32_MAX : l0[s].d;
        }
    }
    return p;
}

void vm_fuse(lctx *lc, const void *const *tab) {
    for (uint32_t k = 0; k < lc->n; k++)
        for (size_t f = 0; f < sizeof fusions / sizeof *fusions; f++) {
            uint32_t j = 0;
            while (j < fusions[f].n && k + j < lc->n && lc->code[k + j].op == fusions[f].ops[j] &&
                   lc->code[k + j].g == lc->vf->true_slot && lc->code[k + j].gx == 0)
                j++;
            if (j == fusions[f].n) {
                lc->code[k].h = tab[fusions[f].handler];
                break;
            }
        }
    uint32_t *cnt = calloc(lc->f->nregs + 1, sizeof *cnt);
    uint8_t *target = calloc(lc->n + 1, 1);
    if (!cnt || !target) {
        free(cnt);
        free(target);
        return;
    } /* no facts: every write is kept */
    for (uint32_t b = 0; b < lc->f->nbody; b++) {
        const ir_stmt *st = &lc->f->body[b];
        if (st->kind != IR_ST_INSN) continue;
        for (uint32_t o = 0; o < st->u.insn.nopnds; o++) count_regs(&st->u.insn.opnds[o], cnt);
        if (st->u.insn.guard >= 0) cnt[st->u.insn.guard]++;
    }
    for (uint32_t l = 0; l < lc->f->nlabels; l++)
        if (lc->label_code[l] < lc->n) target[lc->label_code[l]] = 1;
    for (uint32_t k = 0; k < lc->n; k++) {
        const vm_insn *c = &lc->code[k];
        if (c->op == VM_BRX) /* every .branchtargets entry is a label already; table entries too */
            for (uint32_t t = 0; t < (uint32_t)c->imm; t++) target[((const vm_insn **)c->p)[t] - lc->code] = 1;
    }
    const void *head = tab[VM_LDS4_LDS4_FMAF32];
    for (uint32_t k = lc->n; k-- > 0;) /* backwards: a head's next triple is marked first */
        if (lc->code[k].h == head) mark_dot_deaths(lc, cnt, target, k, head);
    for (uint32_t k = 0; k < lc->n; k++)
        if (lc->code[k].h == head && (k < 3 || lc->code[k - 3].h != head)) lc->code[k].p = plan_dot(lc, k, head);
    free(cnt);
    free(target);
}
#endif
