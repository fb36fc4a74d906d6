/* jit_affine.h — which address registers' lanes differ from each other's by
 * one amount in every lane, so that one lane test of mem4 answers for the
 * accesses through all of them (jit_addr.h); and the constant slots of an
 * entry function. Included by jit.c only, before jit_addr.h.
 *
 * stencil reads [%rd17], [%rd14], [%rd4+4], [%rd4+-4], [%rd4] and writes
 * [%rd5], with
 *     %rd17 = %rd1 + ((%rd3 + %rd2) << 2)    %rd14 = %rd1 + ((%rd3 - %rd2) << 2)
 *     %rd4  = %rd1 + (%rd3 << 2)             %rd5  = %rd11 + (%rd3 << 2)
 * where %rd1, %rd2 and %rd11 hold the same value in every lane. Each address
 * is then a lane-invariant amount plus %rd3 << 2: when one's 32 lanes are a
 * run of words, so are the others'.
 *
 * The flow graph here is the records' own, from the kernel's start, without
 * the edges from its exits to the next CTA's start (a CTA's path from the
 * prologue's end extends to one from the start). A register's slot read at
 * record u holds, in every lane, what record d last wrote to it (def_at):
 *  - d is the nearest strict dominator of u that writes the slot's lines,
 *    and it writes all of them, unguarded;
 *  - no other record writing one of the lines lies on a path from d to u
 *    that does not pass d again (regshare.c gives registers whose lives do
 *    not overlap one slot);
 *  - or d is in the launch-invariant prologue (hoist.c) and is the slot's
 *    only writer: its value stays from CTA to CTA.
 * Loops need nothing more: the record d_L whose value is a form's leaf
 * dominates the records built on it, so it cannot run again between their
 * last run and u without a path around d to u (d would not dominate u), and
 * two accesses that compare forms are one straight stretch apart, which no
 * path enters in the middle.
 * Every record's writes must be known to rec_sets (guarded writes counted).
 * Such a value has a form (lkey): uniform (the same in every lane), or
 * U + (leaf << shift), U uniform and leaf the value a record gave a slot:
 *  - a constant slot, a prologue record's value, %ntid, %nctaid, %ctaid, and
 *    what an integer record below computes from uniform sources: uniform;
 *  - add x, y (64-bit) with y uniform: x's form (x uniform: y's); sub x, y
 *    with y uniform: x's form; shl x, c by a constant c: x's form with c
 *    more shift; mov x: x's form;
 *  - anything else: itself as the leaf, shift 0.
 * Two addresses with one leaf and one shift differ by a uniform amount
 * (mod 2^64) in every lane. A uniform value is built from constants, the
 * prologue's values and CTA-wide special registers only, so it is the same
 * whenever it is computed. */

enum { AFF_DEPTH = 12, AFF_MAX_RECORDS = 1 << 16 };

/* The lines records [lo, hi) of f write, each taken unguarded (what it
 * writes at all), for the caller to free; NULL when some record's writes are
 * not known to rec_sets (or memory ran out). */
static uint64_t *writes_in(const vm_func *f, uint32_t lo, uint32_t hi) {
    uint32_t nw = ((f->frame_size + 63) / 64 + 63) / 64;
    uint64_t *use = calloc(nw, 8), *def = calloc(nw, 8);
    bool ok = use && def;
    for (uint32_t k = lo; ok && k < hi; k++) {
        vm_insn c = f->code[k];
        c.g = f->true_slot, c.gx = 0;
        ok = rec_sets(f, &c, use, def);
    }
    free(use);
    if (!ok) free(def), def = NULL;
    return def;
}


typedef struct lkey {
    bool uni;
    uint8_t shift;
    uint32_t leaf, leaf_off; /* the leaf: the record that gave it, its slot */
} lkey;

/* The function's flow graph and what is found once from it (affine_ready). */
typedef struct affine {
    uint32_t *at, *succ;  /* successors of record k: succ[at[k], at[k + 1]) */
    uint32_t *lat, *lrec; /* the records writing line l: lrec[lat[l], lat[l + 1]) */
    uint32_t *idom, *ord; /* immediate dominator, reverse-postorder number (UINT32_MAX: unreachable) */
    uint32_t n, *seen, stamp, *queue; /* the records; reach()'s */
    uint8_t *memo;        /* per access record: 0 not yet, 1 no form, 2 form in lk */
    lkey *lk;
} affine;

static void affine_free(affine *a) {
    if (!a) return;
    free(a->at), free(a->succ), free(a->lat), free(a->lrec), free(a->idom), free(a->ord);
    free(a->seen), free(a->queue), free(a->memo), free(a->lk);
    free(a);
}

/* What the analyses of this file and jit_addr.h kept for the function. */
static void jc_free(jc *j) {
    free(j->kw);
    free(j->pk);
    affine_free(j->af);
}

/* Immediate dominators and reverse-postorder numbers of the records, from
 * record 0 (Cooper, Harvey and Kennedy's iteration); the stack and the
 * predecessor lists are scratch. */
static bool dominators(const vm_func *f, affine *af) {
    uint32_t n = f->ncode, *at = af->at, *succ = af->succ, *idom = af->idom, *ord = af->ord;
    uint32_t *pat = calloc(n + 1, sizeof *pat), *post = malloc(n * sizeof *post), *stk = malloc(2 * n * sizeof *stk);
    uint32_t *pred = malloc((at[n] + 1) * sizeof *pred);
    bool ok = pat && post && stk && pred;
    if (ok) { /* predecessor lists: pred[pat[k], pat[k + 1]) */
        for (uint32_t e = 0; e < at[n]; e++) pat[succ[e] + 1]++;
        for (uint32_t k = 0; k < n; k++) pat[k + 1] += pat[k];
        for (uint32_t k = 0; k < n; k++)
            for (uint32_t e = at[k]; e < at[k + 1]; e++) pred[pat[succ[e]]++] = k;
        for (uint32_t k = n; k > 0; k--) pat[k] = pat[k - 1];
        pat[0] = 0;
        uint32_t np = 0, sp = 0;
        memset(ord, 0xff, n * sizeof *ord);
        ord[0] = 0; /* visited */
        stk[sp++] = 0, stk[sp++] = 0;
        while (sp) { /* iterative depth-first search: (record, next successor) */
            uint32_t k = stk[sp - 2], e = stk[sp - 1];
            if (at[k] + e < at[k + 1]) {
                stk[sp - 1]++;
                uint32_t t = succ[at[k] + e];
                if (ord[t] == UINT32_MAX) ord[t] = 0, stk[sp++] = t, stk[sp++] = 0;
            } else post[np++] = k, sp -= 2;
        }
        for (uint32_t x = 0; x < np; x++) ord[post[x]] = np - 1 - x;
        memset(idom, 0xff, n * sizeof *idom);
        idom[0] = 0;
        for (bool more = true; more;) {
            more = false;
            for (uint32_t x = np - 1; x-- > 0;) { /* reverse postorder, after the start */
                uint32_t k = post[x], nd = UINT32_MAX;
                for (uint32_t e = pat[k]; e < pat[k + 1]; e++) {
                    uint32_t a = pred[e], b = nd;
                    if (idom[a] == UINT32_MAX) continue;
                    if (b != UINT32_MAX)
                        while (a != b) {
                            while (ord[a] > ord[b]) a = idom[a];
                            while (ord[b] > ord[a]) b = idom[b];
                        }
                    nd = a;
                }
                if (nd != idom[k]) idom[k] = nd, more = true;
            }
        }
    }
    free(pat), free(post), free(stk), free(pred);
    return ok;
}

/* The records that write each line (any record's writes unknown: false). */
static bool line_writers(const vm_func *f, affine *af) {
    uint32_t nl = (f->frame_size + 63) / 64, nw = (nl + 63) / 64;
    uint64_t *use = calloc(nw, 8), *def = calloc((size_t)nw * f->ncode, 8);
    bool ok = use && def && (af->lat = calloc(nl + 2, sizeof *af->lat));
    for (uint32_t k = 0; ok && k < f->ncode; k++) {
        vm_insn c = f->code[k];
        c.g = f->true_slot, c.gx = 0;
        ok = rec_sets(f, &c, use, def + (size_t)k * nw);
    }
    for (int pass = 0; ok && pass < 2; pass++) {
        for (uint32_t k = 0; k < f->ncode; k++)
            for (uint32_t x = 0; x < nw; x++)
                for (uint64_t m = def[(size_t)k * nw + x]; m; m &= m - 1) {
                    uint32_t l = x * 64 + (uint32_t)__builtin_ctzll(m);
                    if (pass) af->lrec[af->lat[l]++] = k;
                    else af->lat[l + 1]++;
                }
        if (!pass) {
            for (uint32_t l = 0; l < nl; l++) af->lat[l + 1] += af->lat[l];
            ok = (af->lrec = malloc((af->lat[nl] + 1) * sizeof *af->lrec)) != NULL;
        } else {
            for (uint32_t l = nl; l > 0; l--) af->lat[l] = af->lat[l - 1];
            af->lat[0] = 0;
        }
    }
    free(use);
    free(def);
    return ok;
}

/* The analysis for j's function, once (j->af); false when it cannot be had. */
static bool affine_ready(jc *j) {
    const vm_func *f = j->f;
    if (j->af) return j->af->at != NULL;
    affine *af = j->af = calloc(1, sizeof *af);
    uint32_t n = f->ncode;
    if (!af || !f->ir->is_entry || !n || n > AFF_MAX_RECORDS) return false;
    af->n = n;
    af->idom = malloc(n * sizeof *af->idom), af->ord = malloc(n * sizeof *af->ord);
    af->seen = calloc(n, sizeof *af->seen), af->queue = malloc(n * sizeof *af->queue);
    af->memo = calloc(n, 1), af->lk = malloc(n * sizeof *af->lk);
    bool ok = af->idom && af->ord && af->seen && af->queue && af->memo && af->lk &&
              flow_graph(f, n, false, &af->at, &af->succ) && dominators(f, af) && line_writers(f, af);
    if (!ok) free(af->at), af->at = NULL;
    return ok;
}

/* Whether a path leads from record x (after it) to record y without passing
 * record z. */
static bool reach(affine *af, uint32_t x, uint32_t y, uint32_t z) {
    uint32_t st = ++af->stamp, nq = 0;
    if (!st) { /* the stamps wrapped */
        memset(af->seen, 0, af->n * sizeof *af->seen);
        st = af->stamp = 1;
    }
    af->queue[nq++] = x;
    for (uint32_t q = 0; q < nq; q++) {
        uint32_t k = af->queue[q];
        for (uint32_t e = af->at[k]; e < af->at[k + 1]; e++) {
            uint32_t t = af->succ[e];
            if (t == y) return true;
            if (t == z || af->seen[t] == st) continue;
            af->seen[t] = st;
            af->queue[nq++] = t;
        }
    }
    return false;
}

/* The record whose value the slot at off (sz bytes) holds at record u in
 * this CTA, as the header says; UINT32_MAX: none known. */
static uint32_t def_at(jc *j, uint32_t off, uint32_t sz, uint32_t u) {
    const vm_func *f = j->f;
    affine *af = j->af;
    if (off % 64 || (uint64_t)off + sz > f->frame_size) return UINT32_MAX;
    uint32_t l0 = off / 64, l1 = (off + sz) / 64, d = UINT32_MAX;
    for (uint32_t x = u; d == UINT32_MAX && x != 0 && af->ord[x] != UINT32_MAX;) { /* the nearest dominator writing a line */
        x = af->idom[x];
        for (uint32_t l = l0; l < l1 && d == UINT32_MAX; l++)
            for (uint32_t e = af->lat[l]; e < af->lat[l + 1]; e++)
                if (af->lrec[e] == x) d = x;
    }
    if (d == UINT32_MAX || !(f->code[d].g == f->true_slot && f->code[d].gx == 0)) return UINT32_MAX;
    for (uint32_t l = l0; l < l1; l++) {
        bool all = false;
        for (uint32_t e = af->lat[l]; e < af->lat[l + 1]; e++) {
            uint32_t y = af->lrec[e];
            if (y == d) {
                all = true;
                continue;
            }
            if (d < f->nhoist || (reach(af, d, y, d) && reach(af, y, u, d))) return UINT32_MAX;
        }
        if (!all) return UINT32_MAX;
    }
    return d;
}

/* The lines some record of f writes (j->kw, once per function; NULL when a
 * record's writes are not known). */
static const uint64_t *konst_writes(jc *j) {
    if (!j->kw_done) j->kw = writes_in(j->f, 0, j->f->ncode), j->kw_done = true;
    return j->kw;
}

/* Whether slot b (n bytes a lane: 4 or 8) is one of an entry function's
 * constants, the same in every lane (its lanes' value in *v): it lies
 * outside the registers, no record writes it (every record's writes known
 * to rec_sets; an entry function's frame is written by its records only)
 * and its lanes in frame_init are equal. */
static bool konst_slot(jc *j, uint32_t b, uint32_t n, uint64_t *v) {
    const vm_func *f = j->f;
    uint32_t sz = n * VM_LANES;
    if (!f->ir->is_entry || (b < f->regs_hi && b + sz > f->regs_lo) || b < f->regs_lo || b % 64 ||
        (uint64_t)b + sz > f->frame_size)
        return false;
    const uint64_t *w = konst_writes(j);
    if (!w) return false;
    for (uint32_t l = b / 64; l < (b + sz) / 64; l++)
        if (w[l / 64] >> (l % 64) & 1) return false;
    uint64_t x0 = 0, x = 0;
    memcpy(&x0, f->frame_init + b, n);
    for (int l = 1; l < VM_LANES; l++) {
        memcpy(&x, f->frame_init + b + (size_t)l * n, n);
        if (x != x0) return false;
    }
    *v = x0;
    return true;
}

/* The registers an unguarded mov.b32 of a constant in the launch-invariant
 * prologue writes, when no other record writes their lines (hoist.c moves
 * a reduction's `mov.u32 %r57, 8` there): after the prologue they hold that
 * constant in every lane, CTA after CTA (j->pk, once per function). */
static void prologue_konsts(jc *j) {
    const vm_func *f = j->f;
    j->pk_done = true;
    if (!f->nhoist || !(j->pk = malloc(f->nhoist * sizeof *j->pk))) return;
    for (uint32_t q = 0; q < f->nhoist; q++) {
        const vm_insn *m = &f->code[q];
        uint64_t x;
        if (m->op != VM_MOV32 || m->g != f->true_slot || m->gx || m->d % 64 || !konst_slot(j, m->a, 4, &x)) continue;
        /* the lines every other record writes: none of the register's two */
        uint64_t *before = writes_in(f, 0, q), *rest = writes_in(f, q + 1, f->ncode);
        bool alone = before && rest;
        for (uint32_t l = m->d / 64; alone && l < m->d / 64 + 2; l++)
            alone = !((before[l / 64] | rest[l / 64]) >> (l % 64) & 1);
        free(before), free(rest);
        if (alone) j->pk[j->npk][0] = m->d, j->pk[j->npk++][1] = (uint32_t)x;
    }
}

/* Whether 32-bit slot b is a constant (*v): one of the function's, or, in
 * the code after the prologue, one the prologue moved there. */
static bool konst32(jc *j, uint32_t b, uint32_t *v) {
    uint64_t x;
    if (konst_slot(j, b, 4, &x)) {
        *v = (uint32_t)x;
        return true;
    }
    if (j->now < j->f->nhoist || !j->f->ir->is_entry) return false;
    if (!j->pk_done) prologue_konsts(j);
    for (uint32_t k = 0; k < j->npk; k++)
        if (j->pk[k][0] == b) return *v = j->pk[k][1], true;
    return false;
}

/* The count in 32-bit slot b when it is a constant below 64, else -1. */
static int konst_count(jc *j, uint32_t b) {
    uint32_t v;
    return konst32(j, b, &v) && v < 64 ? (int)v : -1;
}

static bool lkey_at(jc *j, uint32_t off, bool q64, uint32_t u, int depth, lkey *k);

/* Whether the register at off (q64: 64-bit) is uniform at record u. */
static bool uni_at(jc *j, uint32_t off, bool q64, uint32_t u, int depth) {
    lkey k;
    return lkey_at(j, off, q64, u, depth, &k) && k.uni;
}

/* The register at off (q64: 64-bit) as read at record u: its form (*k), as
 * the header says; false: none. */
static bool lkey_at(jc *j, uint32_t off, bool q64, uint32_t u, int depth, lkey *k) {
    const vm_func *f = j->f;
    uint64_t v;
    if (depth > AFF_DEPTH || !affine_ready(j)) return false;
    if (konst_slot(j, off, q64 ? 8 : 4, &v)) return *k = (lkey){.uni = true}, true;
    uint32_t d = def_at(j, off, q64 ? 256 : 128, u);
    if (d == UINT32_MAX) return false;
    const vm_insn *i = &f->code[d];
    *k = (lkey){.leaf = d, .leaf_off = off};
    if (d < f->nhoist) return k->uni = true;
    lkey x;
    switch (i->op) {
    case VM_ADD64:
        if (i->d != off || !q64) break;
        if (uni_at(j, i->b, true, d, depth + 1) && lkey_at(j, i->a, true, d, depth + 1, &x)) return *k = x, true;
        if (uni_at(j, i->a, true, d, depth + 1) && lkey_at(j, i->b, true, d, depth + 1, &x)) return *k = x, true;
        break;
    case VM_SUB64:
        if (i->d == off && q64 && uni_at(j, i->b, true, d, depth + 1) && lkey_at(j, i->a, true, d, depth + 1, &x))
            return *k = x, true;
        break;
    case VM_SHL64: {
        int c = konst_count(j, i->b);
        if (i->d != off || !q64 || c < 0 || !lkey_at(j, i->a, true, d, depth + 1, &x)) break;
        if (x.uni) return k->uni = true;
        if (x.shift + c < 64) return x.shift = (uint8_t)(x.shift + c), *k = x, true;
        break;
    }
    case VM_MOV64:
        if (i->d == off && q64 && lkey_at(j, i->a, true, d, depth + 1, &x)) return *k = x, true;
        break;
    case VM_MOV_SREG: /* the same in every lane of a CTA */
        if (i->x == IR_SREG_NTID || i->x == IR_SREG_NCTAID || i->x == IR_SREG_CTAID) return k->uni = true;
        break;
    case VM_ADD32: case VM_SUB32: case VM_MUL32: case VM_SHL32: case VM_MOV32: case VM_CVT_S64_S32: case VM_CVT_U64_U32:
    case VM_MULWS32: case VM_MULWU32: case VM_MAD32: { /* integer arithmetic of uniform sources */
        bool w = i->op == VM_CVT_S64_S32 || i->op == VM_CVT_U64_U32 || i->op == VM_MULWS32 || i->op == VM_MULWU32;
        bool two = i->op != VM_MOV32 && i->op != VM_CVT_S64_S32 && i->op != VM_CVT_U64_U32;
        if (i->d == off && q64 == w && uni_at(j, i->a, false, d, depth + 1) &&
            (!two || uni_at(j, i->b, false, d, depth + 1)) && (i->op != VM_MAD32 || uni_at(j, i->c, false, d, depth + 1)))
            return k->uni = true;
        break;
    }
    default: break;
    }
    return true; /* itself as the leaf */
}

/* The form of access record a's address (64-bit), once per record. */
static bool access_key(jc *j, uint32_t a, lkey *k) {
    if (!affine_ready(j)) return false;
    affine *af = j->af;
    if (!af->memo[a]) af->memo[a] = lkey_at(j, j->f->code[a].a, true, a, 0, &af->lk[a]) ? 2 : 1;
    *k = af->lk[a];
    return af->memo[a] == 2;
}

/* Whether the addresses of whole-warp accesses a and b (records) differ by
 * one amount in every lane: one leaf, one shift. */
static bool same_lanes(jc *j, uint32_t a, uint32_t b) {
    lkey ka, kb;
    return access_key(j, a, &ka) && access_key(j, b, &kb) && !ka.uni && !kb.uni && ka.leaf == kb.leaf &&
           ka.leaf_off == kb.leaf_off && ka.shift == kb.shift;
}
