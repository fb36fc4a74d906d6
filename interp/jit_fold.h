/* jit_fold.h — a short chain of 64-bit address records computed as a cached
 * register plus one amount; included by jit.c only, after jit_addr.h.
 *
 * stencil's neighbour rows are
 *     %rd15 = %rd3 + %rd2;  %rd16 = %rd15 << 2;  %rd17 = %rd1 + %rd16
 * (and %rd14 the same with a sub), three records of four 512-bit operations
 * each, while %rd4 = %rd1 + (%rd3 << 2), computed before, is in the register
 * cache. jit_affine.h finds that %rd17 and %rd4 have one form (one leaf,
 * %rd3, and one shift): their lanes differ by one amount, the difference of
 * their uniform parts (%rd1 + (%rd2 << 2) and %rd1). So the chain's last
 * record computes %rd17 as %rd4 plus that amount, and the records before it
 * emit nothing. The amount comes from lane 0 of constants and of the
 * launch-invariant prologue's registers (hoist.c) only, walking each form's
 * records with the leaf taken as 0 (uni_part): the code that computes it
 * waits for nothing the warp computes. Taken from the registers' lane 0
 * instead, it waited for %rd3 and %rd4, and the first load after it, the
 * head of the warp's memory chain, waited for it: stencil ran no faster.
 * Editing stencil's PTX to this shape made it 7% faster (bench/README.md,
 * round 13).
 *
 * A chain is records [x, e] of the whole warp's own code (not a masked
 * version, a body or a region's masked code), in one straight stretch (no
 * branch among them, no branch target after x), each an unguarded add.s64,
 * sub.s64, shl.b64 by a constant or mov.b64; each after x reads the one
 * before's result as exactly one operand, and that result is dead after it
 * (liveness()). The amount reads only constants and prologue registers,
 * which no record of the chain writes (a prologue register's slot has one
 * writer, def_at); since all 32 lanes run the unmasked code, lane 0's values
 * are the registers' own, and the amount holds for every lane (mod 2^64).
 * Instruction counts are over spans of records, so they do not change. */

enum { FOLD_MAX = 8 };

/* Whether record c may be in a chain. */
static bool fold_op(jc *j, const vm_insn *c) {
    if (!(c->g == j->f->true_slot && c->gx == 0)) return false;
    switch (c->op) {
    case VM_ADD64:
    case VM_SUB64:
    case VM_MOV64: return true;
    case VM_SHL64: return konst_count(j, c->b) >= 0;
    default: return false;
    }
}

/* Whether 64-bit slot off is the result of a record of [x, e). */
static bool fold_writes(const jc *j, uint32_t x, uint32_t e, uint32_t off) {
    for (uint32_t r = x; r < e; r++)
        if (j->f->code[r].d == off) return true;
    return false;
}

/* reg := lane 0 of 64-bit register off. */
static void lane0(jc *j, uint32_t off, int reg) {
    centry *e = find(j, off, true);
    if (e) {
        evexl(j->b, 0, M0F, P66, 1, 0x7e, e->z[0], 0, R(reg), 0); /* vmovq reg, xmm */
        return;
    }
    unalias(j, off, true, false);
    gop(j->b, true, 0x8b, reg, F(off)); /* mov reg, [frame + off] */
}

/* Whether 64-bit register off, as read at record u, is a constant or the
 * value of a launch-invariant prologue record (whose slot nothing else
 * writes, so that it holds that value now); with `go`, reg := it. */
static bool fold_stable(jc *j, uint32_t off, uint32_t u, int reg, bool go) {
    uint64_t v;
    if (konst_slot(j, off, 8, &v)) {
        if (go) mov_imm64(j->b, reg, v);
        return true;
    }
    uint32_t d = def_at(j, off, 256, u);
    if (d == UINT32_MAX || d >= j->f->nhoist) return false;
    if (go) lane0(j, off, reg);
    return true;
}

/* The uniform part of 64-bit register off as read at record u, of form k:
 * its value with k's leaf taken as 0, from the records that built it on the
 * leaf (add or sub of stable values, shl by a constant, mov). Whether it can
 * be had so; with `go`, reg := it (rdx the scratch). It depends on constants
 * and the prologue's values only, so the code computing it waits for
 * nothing the warp computes. */
static bool uni_part(jc *j, uint32_t off, uint32_t u, const lkey *k, int reg, bool go, int depth) {
    uint32_t d = depth > AFF_DEPTH ? UINT32_MAX : def_at(j, off, 256, u);
    if (d == UINT32_MAX) return false;
    cbuf *b = j->b;
    if (d == k->leaf && off == k->leaf_off) {
        if (go) gop(b, true, 0x31, reg, R(reg)); /* xor reg, reg */
        return true;
    }
    const vm_insn *i = &j->f->code[d];
    if (i->d != off || !(i->g == j->f->true_slot && i->gx == 0)) return false;
    switch (i->op) {
    case VM_ADD64:
    case VM_SUB64: {
        bool ub = fold_stable(j, i->b, d, RDX, false), ua = i->op == VM_ADD64 && fold_stable(j, i->a, d, RDX, false);
        if (ua == ub) return false; /* both: no leaf on either side */
        uint32_t var = ub ? i->a : i->b, uni = ub ? i->b : i->a;
        if (!uni_part(j, var, d, k, reg, go, depth + 1)) return false;
        if (go) {
            fold_stable(j, uni, d, RDX, true);
            gop(b, true, i->op == VM_ADD64 ? 0x01 : 0x29, RDX, R(reg)); /* add / sub reg, rdx */
        }
        return true;
    }
    case VM_SHL64: {
        int c = konst_count(j, i->b);
        if (c < 0 || !uni_part(j, i->a, d, k, reg, go, depth + 1)) return false;
        if (go) {
            uint8_t sh[4] = {(uint8_t)(0x48 | (reg >= 8)), 0xc1, (uint8_t)(0xe0 | (reg & 7)),
                             (uint8_t)c}; /* shl reg, c */
            put(b, sh, 4);
        }
        return true;
    }
    case VM_MOV64: return uni_part(j, i->a, d, k, reg, go, depth + 1);
    default: return false;
    }
}

/* The chain's last record e (the one being emitted): q plus the difference
 * of the two uniform parts, in every lane. */
static void fold_emit(jc *j, uint32_t x, uint32_t e, uint32_t q) {
    const vm_func *f = j->f;
    cbuf *b = j->b;
    lkey ke, kq;
    lkey_at(j, f->code[e].d, true, e + 1, 0, &ke);
    lkey_at(j, q, true, x, 0, &kq);
    uni_part(j, f->code[e].d, e + 1, &ke, RAX, true, 0);
    uni_part(j, q, x, &kq, RCX, true, 0);
    gop(b, true, 0x29, RCX, R(RAX)); /* sub rax, rcx: the amount */
    z(b, BCQ_R, ZQ, 0, R(RAX), 0);
    for (int p = 0; p < 4; p++) z(b, ADDQ, ZT + p, S(j, q, true, p).r, R(ZQ), 0);
    commit(j, &f->code[e], true);
}

/* The chain that starts at record x: its last record (0: none) and, in
 * *q, the cached register its result is computed from. */
static uint32_t fold_plan(jc *j, uint32_t x, uint32_t *q) {
    const vm_func *f = j->f;
    if (j->depth || j->base || j->rmask || !j->live || !fold_op(j, &f->code[x])) return 0;
    uint32_t e = x, prev = f->code[x].d;
    while (e + 1 < j->end && e + 1 < x + FOLD_MAX) {
        const vm_insn *c = &f->code[e + 1];
        bool ra = c->a == prev, rb = (c->op == VM_ADD64 || c->op == VM_SUB64) && c->b == prev;
        if (!fold_op(j, c) || ra == rb || (c->d != prev && live_at(j, e + 2, prev, 256))) break;
        e++;
        prev = c->d;
    }
    if (e == x || e + 1 >= f->ncode || !one_stretch(f, x, e)) return 0;
    lkey ke, kq;
    if (!lkey_at(j, f->code[e].d, true, e + 1, 0, &ke) || ke.uni ||
        !uni_part(j, f->code[e].d, e + 1, &ke, RAX, false, 0))
        return 0;
    for (int k = 0; k < NPOOL; k++) {
        const centry *c = &j->e[k];
        if (!c->valid || !c->q64 || fold_writes(j, x, e, c->off)) continue;
        if (lkey_at(j, c->off, true, x, 0, &kq) && !kq.uni && kq.leaf == ke.leaf && kq.leaf_off == ke.leaf_off &&
            kq.shift == ke.shift && uni_part(j, c->off, x, &kq, RCX, false, 0)) {
            *q = c->off;
            return e;
        }
    }
    return 0;
}

/* In emit, for record i (j->now): true when a chain takes it, the records
 * before its last emitting nothing. */
static bool fold_take(jc *j, const vm_insn *i) {
    uint32_t r = j->now;
    if (j->fold_e && r == j->fold_next && i == &j->f->code[r]) {
        j->fold_next++;
        if (r == j->fold_e) {
            fold_emit(j, j->fold_x, j->fold_e, j->fold_q);
            j->fold_e = 0;
        }
        return true;
    }
    j->fold_e = 0;
    uint32_t q = 0, e = i == &j->f->code[r] ? fold_plan(j, r, &q) : 0;
    if (!e) return false;
    j->fold_x = r, j->fold_e = e, j->fold_q = q, j->fold_next = r + 1;
    return true;
}
