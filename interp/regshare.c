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

/* Registers share a slot only with registers of their size class: 4 bytes
 * or less, 8, or 16 (.b128). */
static uint8_t size_class(uint8_t type) { return ir_type_bytes[type] == 16 ? 2 : ir_type_bytes[type] == 8; }

/* Opcodes whose operand 0, when it is a register, is read (or not only written). */
static bool reads_op0(unsigned op) {
    switch (op) {
    case IR_OP_BAR:
    case IR_OP_BARRIER:
    case IR_OP_BRX:
    case IR_OP_NANOSLEEP:
    case IR_OP_STACKRESTORE:
    case IR_OP_PMEVENT:
    case IR_OP_WGMMA:
    case IR_OP_TCGEN05:
    case IR_OP_MULTIMEM:
    case IR_OP_CALL: return true;
    default: return false;
    }
}

/* Per register: the first and last statement positions of its range
 * (lo == UINT32_MAX: never seen). */
typedef struct ranges {
    uint32_t *lo, *hi;
} ranges;

static void touch(ranges *s, uint32_t r, uint32_t pos) {
    if (pos < s->lo[r]) s->lo[r] = pos;
    if (pos > s->hi[r]) s->hi[r] = pos;
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

typedef struct {
    uint64_t *set;
} bits;
static void set_bit(void *ctx, uint32_t r) { ((bits *)ctx)->set[r >> 6] |= 1ull << (r & 63); }
typedef struct {
    ranges *s;
    uint32_t pos;
} at;
static void touch_at(void *ctx, uint32_t r) {
    at *a = ctx;
    touch(a->s, r, a->pos);
}

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

static int by_start(const void *x, const void *y) {
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* Beyond this many words of block sets a function keeps a slot per register
 * (the analysis would take more memory than it saves). */
#define MAX_SET_WORDS (1u << 22)

int vm_share_slots(const ir_func *f, uint32_t *slot, uint64_t *live_in) {
    uint32_t n = f->nbody, nr = f->nregs, W = (nr + 64) / 64, nb = 0;
    int rc = -1;
    ranges s = {malloc((nr + 1) * sizeof *s.lo), calloc(nr + 1, sizeof *s.hi)};
    uint32_t *start = calloc(n + 2, sizeof *start), *lab_blk = calloc(f->nlabels + 1, sizeof *lab_blk);
    const ir_insn **last = calloc(n + 1, sizeof *last); /* per block: its last instruction */
    uint64_t *sets = NULL, *key = NULL, *u = NULL, *d = NULL;
    uint32_t *free_end = NULL;
    uint8_t *wide = NULL;
    if (!s.lo || !s.hi || !start || !lab_blk || !last) goto out;
    for (uint32_t r = 0; r < nr; r++) s.lo[r] = UINT32_MAX;
    /* blocks: a label or the statement after a branch starts one */
    bool newb = true;
    for (uint32_t i = 0; i < n; i++) {
        const ir_stmt *st = &f->body[i];
        if (st->kind == IR_ST_LABEL) newb = true;
        if (newb) start[nb++] = i, newb = false;
        if (st->kind == IR_ST_LABEL) lab_blk[st->u.label] = nb - 1;
        if (st->kind == IR_ST_INSN) {
            last[nb - 1] = &st->u.insn;
            newb = ends_block(&st->u.insn);
        }
    }
    start[nb] = n;
    if ((size_t)nb * 4 * W > MAX_SET_WORDS) goto out;
    /* per block: use, def, in, out */
    sets = calloc((size_t)nb * 4 * W + 1, 8);
    u = calloc(W, 8), d = calloc(W, 8);
    if (!sets || !u || !d) goto out;
#define USE(b) (sets + ((size_t)(b)*4 + 0) * W)
#define DEF(b) (sets + ((size_t)(b)*4 + 1) * W)
#define IN(b) (sets + ((size_t)(b)*4 + 2) * W)
#define OUT(b) (sets + ((size_t)(b)*4 + 3) * W)
#define JOIN(dst, src) \
    for (uint32_t w_ = 0; w_ < W; w_++) (dst)[w_] |= (src)[w_]
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t i = start[b]; i < start[b + 1]; i++) { /* in order: use before def */
            if (f->body[i].kind != IR_ST_INSN) continue;
            memset(u, 0, W * 8), memset(d, 0, W * 8);
            uses_defs(&f->body[i].u.insn, u, d);
            for (uint32_t w = 0; w < W; w++) USE(b)[w] |= u[w] & ~DEF(b)[w], DEF(b)[w] |= d[w];
        }
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t b = nb; b-- > 0;) {
            const ir_insn *li = last[b];
            uint64_t *out = OUT(b);
            if ((!li || !ends_block(li) || li->guard >= 0) && b + 1 < nb) JOIN(out, IN(b + 1));
            if (li && li->op == IR_OP_BRA)
                for (uint32_t k = 0; k < li->nopnds; k++)
                    if (li->opnds[k].kind == IR_OPND_LABEL) JOIN(out, IN(lab_blk[li->opnds[k].label]));
            if (li && li->op == IR_OP_BRX) /* every .branchtargets list of the function: a superset */
                for (uint32_t i = 0; i < n; i++)
                    for (uint32_t t = 0; f->body[i].kind == IR_ST_BRANCHTARGETS && t < f->body[i].u.targets.n; t++)
                        JOIN(out, IN(lab_blk[f->body[i].u.targets.labels[t]]));
            for (uint32_t w = 0; w < W; w++) {
                uint64_t v = USE(b)[w] | (out[w] & ~DEF(b)[w]);
                if (v != IN(b)[w]) IN(b)[w] = v, changed = true;
            }
        }
    }
    if (live_in) memcpy(live_in, nb ? IN(0) : u, W * 8); /* u: all zero here when there is no block */
    /* ranges: live into or out of a block, and every appearance */
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t w = 0; w < W; w++) {
            for (uint64_t v = IN(b)[w]; v; v &= v - 1) touch(&s, w * 64 + (uint32_t)__builtin_ctzll(v), start[b]);
            for (uint64_t v = OUT(b)[w]; v; v &= v - 1)
                touch(&s, w * 64 + (uint32_t)__builtin_ctzll(v), start[b + 1] - 1);
        }
#undef USE
#undef DEF
#undef IN
#undef OUT
#undef JOIN
    for (uint32_t i = 0; i < n; i++) {
        if (f->body[i].kind != IR_ST_INSN) continue;
        const ir_insn *in = &f->body[i].u.insn;
        at a = {&s, i};
        for (uint32_t k = 0; k < in->nopnds; k++) each_reg(&in->opnds[k], touch_at, &a);
        if (in->guard >= 0) touch(&s, (uint32_t)in->guard, i);
    }
    /* a product (mul, div) contracted into the add/sub that uses it, maybe
     * through negs (contract.c), has its operands read there: they live as
     * long as the product and the negs of it (later negs first, for chains) */
    for (uint32_t i = n; i-- > 0;) {
        const ir_insn *in = &f->body[i].u.insn;
        if (f->body[i].kind == IR_ST_INSN && in->op == IR_OP_NEG && in->nopnds == 2 &&
            in->opnds[0].kind == IR_OPND_REG && in->opnds[1].kind == IR_OPND_REG &&
            s.lo[in->opnds[0].reg] != UINT32_MAX)
            touch(&s, in->opnds[1].reg, s.hi[in->opnds[0].reg]);
    }
    for (uint32_t i = 0; i < n; i++) {
        const ir_insn *in = &f->body[i].u.insn;
        if (f->body[i].kind != IR_ST_INSN || (in->op != IR_OP_MUL && in->op != IR_OP_DIV) || in->nopnds != 3 ||
            in->opnds[0].kind != IR_OPND_REG)
            continue;
        for (uint32_t k = 1; k < 3; k++)
            if (in->opnds[k].kind == IR_OPND_REG) touch(&s, in->opnds[k].reg, s.hi[in->opnds[0].reg]);
    }
    /* linear scan over the ranges by start, first fit per slot size; a
     * register never seen takes the first slot of its size */
    key = malloc((nr + 1) * sizeof *key);
    free_end = malloc((nr + 1) * sizeof *free_end); /* per slot: the end of its current range */
    wide = malloc(nr + 1);
    if (!key || !free_end || !wide) goto out;
    uint32_t no = 0, nslots = 0, first[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
    for (uint32_t r = 0; r < nr; r++)
        if (f->regs[r].type != IR_T_PRED && s.lo[r] != UINT32_MAX) key[no++] = (uint64_t)s.lo[r] << 32 | r;
    qsort(key, no, sizeof *key, by_start);
    for (uint32_t a = 0; a < no; a++) {
        uint32_t r = (uint32_t)key[a], got = 0;
        uint8_t w8 = size_class(f->regs[r].type);
        while (got < nslots && !(wide[got] == w8 && free_end[got] < s.lo[r])) got++;
        if (got == nslots) nslots++, wide[got] = w8;
        free_end[got] = s.hi[r];
        slot[r] = got;
        if (first[w8] == UINT32_MAX) first[w8] = got;
    }
    for (uint32_t r = 0; r < nr; r++) {
        if (f->regs[r].type == IR_T_PRED || s.lo[r] != UINT32_MAX) continue;
        uint8_t w8 = size_class(f->regs[r].type);
        if (first[w8] == UINT32_MAX) first[w8] = nslots++;
        slot[r] = first[w8];
    }
    rc = (int)nslots;
out:
    free(s.lo);
    free(s.hi);
    free(start);
    free(lab_blk);
    free(last);
    free(sets);
    free(u);
    free(d);
    free(key);
    free(free_end);
    free(wide);
    return rc;
}
