/* regshare.c — frame slots shared by registers whose live ranges never meet.
 *
 * nvcc names a fresh virtual register for nearly every value (a tiled matrix
 * product declares 57 .f32 registers, of which 3 are live at once), and each
 * register of a warp is 128 or 256 bytes of frame. Giving registers whose
 * live ranges do not overlap the same slot shrinks the frames a warp touches
 * to a few KiB, which keeps a CTA's warps in the host's L1 cache.
 *
 * Liveness is the textbook backward dataflow over basic blocks (labels and
 * the instruction after a branch start blocks; bra, brx, ret and exit end
 * them). Each register's range is then the span [first, last] of statement
 * positions where it is defined, used, live into a block or live out of
 * one: a superset of where it is live, holes included, so ranges that do
 * not overlap can share. A statement's sources and destinations both cover
 * its own position, so an instruction never has a destination in the slot
 * of one of its sources (a handler may write lanes of d before it has read
 * every lane of a). Ranges are packed by a linear scan per slot size.
 *
 * What an operand is: operand 0 of an instruction is its destination (a
 * register, a vector of them, or a p|q pair), except for the opcodes listed
 * in reads_op0 and for call, whose destinations are its return list when it
 * has one. A destination under a guard predicate, or with a byte/half
 * selector (video instructions), keeps the old value in some lanes or
 * bytes: it is a use as well. Everything else is a use. A destination taken
 * for a use only makes a range longer, never wrong. Predicates keep slots
 * of their own (4 bytes each). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "regshare.h"

/* Opcodes whose operand 0, when it is a register, is read (or not only written). */
static bool reads_op0(unsigned op) {
    switch (op) {
    case IR_OP_BAR: case IR_OP_BARRIER: case IR_OP_BRX: case IR_OP_NANOSLEEP: case IR_OP_STACKRESTORE:
    case IR_OP_PMEVENT: case IR_OP_WGMMA: case IR_OP_TCGEN05: case IR_OP_MULTIMEM: case IR_OP_CALL:
        return true;
    default:
        return false;
    }
}

typedef struct rs {
    const ir_func *f;
    uint32_t words;            /* 64-bit words per register set */
    uint32_t *lo, *hi;         /* per register: range of positions (lo > hi: never seen) */
} rs;

static void touch(rs *s, uint32_t r, uint32_t pos) {
    if (s->lo[r] == UINT32_MAX || pos < s->lo[r]) s->lo[r] = pos;
    if (s->hi[r] == UINT32_MAX || pos > s->hi[r]) s->hi[r] = pos;
}

/* Calls fn(s, reg, ...) for every register in o (recursively). */
static void each_reg(const ir_operand *o, void (*fn)(void *, uint32_t), void *ctx) {
    if (o->kind == IR_OPND_REG) fn(ctx, o->reg);
    else if (o->kind == IR_OPND_ADDR || o->kind == IR_OPND_VEC || o->kind == IR_OPND_LIST || o->kind == IR_OPND_PAIR)
        for (uint32_t k = 0; k < o->nsub; k++) each_reg(&o->sub[k], fn, ctx);
}

static bool has_sel(const ir_operand *o) {
    if (o->kind == IR_OPND_REG) return o->sel != 0;
    for (uint32_t k = 0; (o->kind == IR_OPND_VEC || o->kind == IR_OPND_PAIR) && k < o->nsub; k++)
        if (has_sel(&o->sub[k])) return true;
    return false;
}

/* Is operand k of in a destination that replaces the register's value in
 * every executing lane? (*partial: a destination that also keeps some.) */
static bool is_def(const ir_insn *in, uint32_t k, bool *partial) {
    *partial = false;
    const ir_operand *o = &in->opnds[k];
    if (k != 0) return false;
    if (in->op == IR_OP_CALL) {
        if (o->kind != IR_OPND_LIST) return false;
    } else if (reads_op0(in->op) || (o->kind != IR_OPND_REG && o->kind != IR_OPND_VEC && o->kind != IR_OPND_PAIR))
        return false;
    *partial = in->guard >= 0 || has_sel(o);
    return true;
}

typedef struct { uint64_t *set; } bits;
static void set_bit(void *ctx, uint32_t r) { ((bits *)ctx)->set[r >> 6] |= 1ull << (r & 63); }
typedef struct { rs *s; uint32_t pos; } at;
static void touch_at(void *ctx, uint32_t r) { at *a = ctx; touch(a->s, r, a->pos); }

/* uses and defs of one statement into the sets (defs: full ones only). */
static void uses_defs(const ir_insn *in, uint64_t *use, uint64_t *def) {
    bits u = {use}, d = {def};
    for (uint32_t k = 0; k < in->nopnds; k++) {
        bool partial;
        bool dst = is_def(in, k, &partial);
        if (!dst || partial) each_reg(&in->opnds[k], set_bit, &u);
        if (dst && !partial) each_reg(&in->opnds[k], set_bit, &d);
    }
    if (in->guard >= 0) set_bit(&u, (uint32_t)in->guard);
}

static bool ends_block(const ir_insn *in) {
    return in->op == IR_OP_BRA || in->op == IR_OP_BRX || in->op == IR_OP_RET || in->op == IR_OP_EXIT;
}

int vm_share_slots(const ir_func *f, uint32_t *slot) {
    uint32_t n = f->nbody, nr = f->nregs, W = (nr + 64) / 64;
    rs s = {f, W, calloc(nr + 1, 4), calloc(nr + 1, 4)};
    uint32_t *start = calloc(n + 1, 4), *blk = calloc(n + 1, 4);   /* block id per statement */
    uint32_t nb = 0;
    int rc = -1;
    uint64_t *sets = NULL;
    uint32_t *lab_blk = calloc(f->nlabels + 1, 4), *order = calloc(nr + 1, 4), *free_end = NULL;
    if (!s.lo || !s.hi || !start || !blk || !lab_blk || !order) goto out;
    for (uint32_t r = 0; r < nr; r++) s.lo[r] = UINT32_MAX, s.hi[r] = UINT32_MAX;
    /* blocks */
    bool newb = true;
    for (uint32_t i = 0; i < n; i++) {
        const ir_stmt *st = &f->body[i];
        if (st->kind == IR_ST_LABEL) newb = true;
        if (newb) start[nb++] = i, newb = false;
        blk[i] = nb - 1;
        if (st->kind == IR_ST_LABEL) lab_blk[st->u.label] = nb - 1;
        if (st->kind == IR_ST_INSN && ends_block(&st->u.insn)) newb = true;
    }
    if (!nb) { rc = 0; goto out; }
    start[nb] = n;
    /* per block: use, def, in, out */
    sets = calloc((size_t)nb * 4 * W, 8);
    if (!sets) goto out;
#define USE(b) (sets + ((size_t)(b) * 4 + 0) * W)
#define DEF(b) (sets + ((size_t)(b) * 4 + 1) * W)
#define IN(b) (sets + ((size_t)(b) * 4 + 2) * W)
#define OUT(b) (sets + ((size_t)(b) * 4 + 3) * W)
    uint64_t *u = calloc(W, 8), *d = calloc(W, 8);
    if (!u || !d) { free(u); free(d); goto out; }
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t i = start[b]; i < start[b + 1]; i++) {   /* in order: use before def */
            if (f->body[i].kind != IR_ST_INSN) continue;
            memset(u, 0, W * 8), memset(d, 0, W * 8);
            uses_defs(&f->body[i].u.insn, u, d);
            for (uint32_t w = 0; w < W; w++) USE(b)[w] |= u[w] & ~DEF(b)[w], DEF(b)[w] |= d[w];
        }
    free(u);
    free(d);
    /* successors of a block's end */
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t b = nb; b-- > 0;) {
            uint64_t *out = OUT(b);
            const ir_stmt *last = NULL;
            for (uint32_t i = start[b + 1]; i-- > start[b];)
                if (f->body[i].kind == IR_ST_INSN) { last = &f->body[i]; break; }
            const ir_insn *li = last ? &last->u.insn : NULL;
            bool falls = !li || !ends_block(li) || li->guard >= 0;
            if (falls && b + 1 < nb)
                for (uint32_t w = 0; w < W; w++) out[w] |= IN(b + 1)[w];
            if (li && li->op == IR_OP_BRA)
                for (uint32_t k = 0; k < li->nopnds; k++)
                    if (li->opnds[k].kind == IR_OPND_LABEL)
                        for (uint32_t w = 0; w < W; w++) out[w] |= IN(lab_blk[li->opnds[k].label])[w];
            if (li && li->op == IR_OP_BRX)   /* every .branchtargets list of the function: a superset */
                for (uint32_t i = 0; i < n; i++)
                    if (f->body[i].kind == IR_ST_BRANCHTARGETS)
                        for (uint32_t t = 0; t < f->body[i].u.targets.n; t++)
                            for (uint32_t w = 0; w < W; w++) out[w] |= IN(lab_blk[f->body[i].u.targets.labels[t]])[w];
            for (uint32_t w = 0; w < W; w++) {
                uint64_t v = USE(b)[w] | (out[w] & ~DEF(b)[w]);
                if (v != IN(b)[w]) IN(b)[w] = v, changed = true;
            }
        }
    }
    /* ranges */
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t first = start[b], last = start[b + 1] - 1;
        for (uint32_t w = 0; w < W; w++)
            for (uint64_t v = IN(b)[w]; v; v &= v - 1) touch(&s, w * 64 + (uint32_t)__builtin_ctzll(v), first);
        for (uint32_t w = 0; w < W; w++)
            for (uint64_t v = OUT(b)[w]; v; v &= v - 1) touch(&s, w * 64 + (uint32_t)__builtin_ctzll(v), last);
    }
    for (uint32_t i = 0; i < n; i++) {
        if (f->body[i].kind != IR_ST_INSN) continue;
        const ir_insn *in = &f->body[i].u.insn;
        at a = {&s, i};
        for (uint32_t k = 0; k < in->nopnds; k++) each_reg(&in->opnds[k], touch_at, &a);
        if (in->guard >= 0) touch(&s, (uint32_t)in->guard, i);
    }
#undef USE
#undef DEF
#undef IN
#undef OUT
    /* linear scan, per slot size; registers never seen get the first slot of their size */
    uint32_t no = 0;
    for (uint32_t r = 0; r < nr; r++)
        if (f->regs[r].type != IR_T_PRED && s.lo[r] != UINT32_MAX) order[no++] = r;
    for (uint32_t a = 1; a < no; a++) {   /* insertion sort by start (stable) */
        uint32_t r = order[a], j = a;
        while (j > 0 && s.lo[order[j - 1]] > s.lo[r]) order[j] = order[j - 1], j--;
        order[j] = r;
    }
    free_end = malloc((size_t)(nr + 1) * 4);   /* per slot: the last position of its current range */
    if (!free_end) goto out;
    uint32_t nslots = 0, first8 = UINT32_MAX, first4 = UINT32_MAX;
    uint8_t *wide = calloc(nr + 1, 1);
    if (!wide) goto out;
    for (uint32_t a = 0; a < no; a++) {
        uint32_t r = order[a];
        bool w8 = ir_type_bytes[f->regs[r].type] == 8;
        uint32_t got = UINT32_MAX;
        for (uint32_t k = 0; k < nslots && got == UINT32_MAX; k++)
            if (wide[k] == w8 && free_end[k] < s.lo[r]) got = k;
        if (got == UINT32_MAX) got = nslots++, wide[got] = w8;
        free_end[got] = s.hi[r];
        slot[r] = got;
        if (w8 && first8 == UINT32_MAX) first8 = got;
        if (!w8 && first4 == UINT32_MAX) first4 = got;
    }
    for (uint32_t r = 0; r < nr; r++) {
        if (f->regs[r].type == IR_T_PRED || s.lo[r] != UINT32_MAX) continue;
        bool w8 = ir_type_bytes[f->regs[r].type] == 8;
        uint32_t *first = w8 ? &first8 : &first4;
        if (*first == UINT32_MAX) *first = nslots++;
        slot[r] = *first;
    }
    free(wide);
    rc = (int)nslots;
out:
    free(s.lo);
    free(s.hi);
    free(start);
    free(blk);
    free(sets);
    free(lab_blk);
    free(order);
    free(free_end);
    return rc;
}
