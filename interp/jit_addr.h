/* jit_addr.h — the lane test of compiled whole-warp ld/st.global.b32, and
 * what one such test tells later accesses through the same register or one
 * whose lanes differ from its lanes by one amount;
 * included by jit.c only, before mem4.
 *
 * mem4's inline path needs the 32 lanes' addresses to be one run (lane l's
 * = lane 0's + 4 l): for a 64-bit register four compares of eight lanes
 * (run_test). stencil reads in[i + 1], in[i - 1] and in[i] through one
 * register ([%rd4 + 4], [%rd4 + -4], [%rd4]), so it tested the same lanes
 * three times. Now the first such access (A) leaves its answer in a flag of
 * the call's context (vm_jit_ctx.run4[s]: 1 on its inline path, 0 on the
 * path that calls), and a later one (B) through the same register tests
 * that flag instead of the lanes, when every path to B passes A with the
 * register as it is at B:
 *  - A and B are emitted in one straight stretch of the run (record after
 *    record: no body, stub or other run in between, run4_step);
 *  - no record of (A, B] is a branch target (of any record) or the entry
 *    after the prologue, and none of (A, B) branches, calls or ends the
 *    thread: each is a record whose writes rec_sets knows, and none of
 *    [A, B) writes the register (run4_window).
 * A's flag then says whether the register's lanes are one run at B. The
 * same holds for B's own register when its lanes differ from A's by one
 * amount in every lane (jit_affine.h: stencil's six accesses, vecadd's
 * three, reduce's four loads of a round take one test). Each of A and B
 * still tests its own alignment and its own span of the arena.
 * Accesses guarded by a predicate outside bodies (Triton's `@%p
 * ld.global.b32`: 24 a warp in a layer norm) take part too. Such an A sets
 * the flag from a test of all 32 lanes, whose addresses are whole there;
 * when that fails it tests its executing lanes as before. Such a B whose flag
 * is 0 also tests its own executing lanes rather than take the call, so that
 * a guard that leaves out lanes off the run still stays inline. Triton's
 * .v4 loads and stores (jit_vec.h) share flags of their own the same way:
 * runs of 16 bytes a lane (8 for .v2). */

enum { RUN4_FLAGS = 8, RUN4_WINDOW = 64 };
_Static_assert(sizeof(((vm_jit_ctx *)0)->run4) == 2 * RUN4_FLAGS, "lane flags, then span flags");

/* Every lane's address (a's parts, 64-bit or 32-bit lanes) is ZQ + the
 * lane's offset in the table at rcx (64 bytes a part), only the lanes in
 * km[p] counted when km is given: else a jump to the call (collected in
 * slow). One test of k2 (the lanes off the run); k7 scratch. */
static void run_test(jc *j, const centry *a, int parts, bool d32, const int *km, size_t *slow, int *ns) {
    cbuf *b = j->b;
    for (int p = 0; p < parts; p++) {
        z(b, d32 ? ADDD : ADDQ, ZX, ZQ, M(RCX, 64 * p), 0);
        zi(b, d32 ? CMPD : CMPQ, p ? 7 : 2, ZX, R(a->z[p]), km ? km[p] : 0, 4); /* k2 / k7 := lanes off the run */
        if (p) klog(b, KORW, 2, 2, 7);
    }
    kortest2(b, false);
    slow[(*ns)++] = jcc(b, 0x85);
}

/* Called for every record emitted: a record other than the one after the
 * last breaks the stretch, and its flags are forgotten. */
static void run4_step(jc *j, const vm_insn *i) {
    uint32_t k = (uint32_t)(i - j->f->code);
    if (k != j->r4_next) memset(j->r4_rec, 0, sizeof j->r4_rec), memset(j->sp_rec, 0, sizeof j->sp_rec);
    j->r4_next = k + 1;
}

/* The bytes a lane takes in a run of record i's kind: a global b32 access
 * of the kind mem4 takes, guarded or not, 4; a global .v2 / .v4 of 32-bit
 * elements (jit_vec.h), 8 / 16; 0 for any other record. A flag is shared
 * by accesses of one kind only. */
static uint32_t run_stride(const vm_insn *i) {
    if (i->imm != (int32_t)i->imm) return 0;
    if (i->op == VM_LDG4 || i->op == VM_STG4) return 4;
    if ((i->op != VM_LDV && i->op != VM_STV) || i->sp != VM_SP_GLOBAL || i->sz != 4) return 0;
    const vm_vec *v = i->p;
    return v->n == 2 || v->n == 4 ? 4 * v->n : 0;
}

/* An unguarded global b32 access of the kind mem4 takes: the whole warp accesses. */
static bool whole_access(const vm_func *f, const vm_insn *i) {
    return run_stride(i) == 4 && i->g == f->true_slot && i->gx == 0;
}

/* Whether every path to record b passes record a (a < b) in one straight
 * stretch: no record of (a, b] is a branch target or the entry after the
 * prologue, and none of [a, b) branches or ends the thread. */
static bool one_stretch(const vm_func *f, uint32_t a, uint32_t b) {
    if (b <= a || b - a > RUN4_WINDOW || (f->nhoist > a && f->nhoist <= b)) return false;
    const vm_insn *lo = &f->code[a], *hi = &f->code[b];
    for (uint32_t k = 0; k < f->ncode; k++) {
        const vm_insn *v = &f->code[k];
        if (v->target > lo && v->target <= hi) return false;
        if (v->op == VM_BRX)
            for (int64_t t = 0; t < v->imm; t++) {
                const vm_insn *x = ((const vm_insn *const *)v->p)[t];
                if (x > lo && x <= hi) return false;
            }
    }
    for (uint32_t k = a; k < b; k++) {
        unsigned op = f->code[k].op;
        if (op == VM_BRA || op == VM_BRX || op == VM_EXIT || op == VM_RET || op == VM_FALLOFF) return false;
    }
    return true;
}

/* one_stretch(a, b), and no record of [w, b) (w >= a) writes the 32-bit
 * (n = 2 lines) or 64-bit (4) register at off. */
static bool stretch_keeps(const vm_func *f, uint32_t a, uint32_t b, uint32_t w, uint32_t off, uint32_t n) {
    if (!one_stretch(f, a, b)) return false;
    uint64_t *def = writes_in(f, w, b);
    bool ok = def != NULL;
    for (uint32_t l = off / 64; ok && l < off / 64 + n; l++) ok = !(def[l / 64] >> (l % 64) & 1);
    free(def);
    return ok;
}

/* Whether every path to record b passes record a (a < b), in one straight
 * stretch, with b's lanes a run when a's were: a's address register
 * unchanged (from a itself: a load whose destination shares the slot), or
 * another whose lanes differ from its lanes by one amount (jit_affine.h). */
static bool run4_window(jc *j, uint32_t a, uint32_t b) {
    const vm_func *f = j->f;
    if (f->code[a].a == f->code[b].a && stretch_keeps(f, a, b, a, f->code[a].a, 4)) return true;
    return one_stretch(f, a, b) && same_lanes(j, a, b);
}

/* For access i (unguarded, mem4's global path): the flag that an earlier
 * access through its register set in this stretch, else -1. */
static int run4_use(jc *j, const vm_insn *i) {
    uint32_t k = (uint32_t)(i - j->f->code);
    for (int s = 0; s < RUN4_FLAGS; s++) {
        uint32_t a = j->r4_rec[s];
        if (a-- && run_stride(&j->f->code[a]) == run_stride(i) && run4_window(j, a, k)) return s;
    }
    return -1;
}

/* For access i that tests its lanes: a flag to leave the answer in when a
 * later access in reach reads through the same register, else -1. */
static int run4_set(jc *j, const vm_insn *i) {
    const vm_func *f = j->f;
    uint32_t k = (uint32_t)(i - f->code);
    for (uint32_t q = k + 1; q < f->ncode && q <= k + RUN4_WINDOW; q++)
        if (run_stride(&f->code[q]) == run_stride(i) && run4_window(j, k, q)) {
            int s = (int)(j->r4_n++ % RUN4_FLAGS);
            j->r4_rec[s] = k + 1;
            return s;
        }
    return -1;
}

/* mov byte [ctx + run4[s]], v */
static void run4_put(jc *j, int s, uint8_t v) {
    gop(j->b, false, 0xc6, 0, M(CTX, (int64_t)(offsetof(vm_jit_ctx, run4) + (size_t)s)));
    b1(j->b, v);
}

/* cmp byte [ctx + run4[s]], 0: ZF when flag s is 0 */
static void run4_test(jc *j, int s) {
    gop(j->b, false, 0x80, 7, M(CTX, (int64_t)(offsetof(vm_jit_ctx, run4) + (size_t)s)));
    b1(j->b, 0);
}

/* For access i, when it may take part (may): the flag an earlier access
 * set that answers for its lanes (returned), else -1 with *told the flag it
 * is to set itself (run4_set), or -1. */
static int run4_flags(jc *j, const vm_insn *i, bool may, int *told) {
    int known = may ? run4_use(j, i) : -1;
    *told = may && known < 0 ? run4_set(j, i) : -1;
    return known;
}

/* ---- one arena check for loads through one register a few bytes apart ----
 * stencil reads [%rd4+4], [%rd4+-4] and [%rd4]: three runs of 128 bytes
 * within 136. The first of such loads (the leader) checks the arena for
 * the span of all of them and leaves the answer in a span flag
 * (vm_jit_ctx.run4[8 + s]: 1 on its inline path, 0 on every other); the
 * others (members: later loads through the same register, unchanged since,
 * in one straight stretch, stretch_keeps, their offsets within SPAN4 of the
 * leader's) test the flag instead of the arena, and leave the next warp's
 * lines to the leader's prefetch (the same lines but for a few bytes). Each
 * still tests its own alignment and lanes. A span that fails sends the
 * leader and the members to their calls, which check each alone. */
enum { SPAN4 = 64 };

/* Whether load q is a member of leader a's span. */
static bool span4_member(const vm_func *f, uint32_t a, uint32_t q) {
    const vm_insn *x = &f->code[a], *y = &f->code[q];
    return x->op == VM_LDG4 && y->op == VM_LDG4 && whole_access(f, x) && whole_access(f, y) && y->a == x->a &&
           y->imm - x->imm <= SPAN4 && x->imm - y->imm <= SPAN4 && stretch_keeps(f, a, q, a, x->a, 4);
}

/* For load i: the span flag of the leader whose span holds it, else -1. */
static int span4_use(jc *j, const vm_insn *i) {
    uint32_t k = (uint32_t)(i - j->f->code);
    for (int s = 0; s < RUN4_FLAGS; s++) {
        uint32_t a = j->sp_rec[s];
        if (a-- && span4_member(j->f, a, k)) return s;
    }
    return -1;
}

/* For load i that no span holds: a span flag when later loads are its
 * members, with the span's least and greatest offsets (*lo, *hi); else -1. */
static int span4_set(jc *j, const vm_insn *i, int64_t *lo, int64_t *hi) {
    const vm_func *f = j->f;
    uint32_t k = (uint32_t)(i - f->code);
    bool any = false;
    *lo = *hi = i->imm;
    for (uint32_t q = k + 1; q < f->ncode && q <= k + RUN4_WINDOW; q++)
        if (span4_member(f, k, q)) {
            any = true;
            if (f->code[q].imm < *lo) *lo = f->code[q].imm;
            if (f->code[q].imm > *hi) *hi = f->code[q].imm;
        }
    if (!any) return -1;
    int s = (int)(j->sp_n++ % RUN4_FLAGS);
    j->sp_rec[s] = k + 1;
    return s;
}

/* ---- 64-bit shifts by a constant (`shl.b64 %rd10, %rd3, 2`) ----
 * The count is a 32-bit operand: as a register it is widened lane by lane
 * (vextracti32x8, vpmovzxdq) before vpsllvq. When it is one of the entry
 * function's constant slots it is known here: vpsllq by an immediate. A
 * slot is constant when it lies outside the registers, no record writes it
 * (every record's writes known to rec_sets; an entry function's frame is
 * written by its records only) and its 32 lanes in frame_init are equal. */

/* shl.b64 by a constant count; false: the general template. */
static bool shl64_konst(jc *j, const vm_insn *i) {
    int c = konst_count(j, i->b);
    if (c < 0) return false;
    for (int p = 0; p < 4; p++) zi(j->b, SHQI, 6, ZT + p, S(j, i->a, true, p), 0, (uint8_t)c);
    commit(j, i, true);
    return true;
}

/* mul.wide / mad.wide.{s,u}32 by a constant b (`mul.wide.s32 %rd5, %r1, 4`:
 * an index scaled to bytes): a's quarters widened, then shifted by the
 * immediate when b is a power of two (below 2^31 when signed: b's sign
 * extension is then b itself), else multiplied by b splat once, instead of
 * widening b's 32 lanes as well. false: the general template. */
static bool mulw_konst(jc *j, const vm_insn *i, bool sgn, bool add) {
    uint32_t c;
    if (!konst32(j, i->b, &c)) return false;
    bool pow2 = c && !(c & (c - 1)) && (!sgn || c < 0x80000000u);
    if (!pow2) {
        b1(j->b, 0xb8); /* mov eax, c; vpbroadcastd zmmQ, eax (vpmul{u,}dq reads each lane's low word) */
        b32(j->b, c);
        z(j->b, BCD_R, ZQ, 0, R(RAX), 0);
    }
    for (int p = 0; p < 4; p++) {
        z(j->b, sgn ? SXDQ : ZXDQ, ZT + p, 0, srcq(j, i->a, p), 0);
        if (pow2) zi(j->b, SHQI, 6, ZT + p, R(ZT + p), 0, (uint8_t)__builtin_ctz(c));
        else z(j->b, sgn ? MULDQ : MULUDQ, ZT + p, ZT + p, R(ZQ), 0);
        if (add) z(j->b, ADDQ, ZT + p, ZT + p, S(j, i->c, true, p), 0);
    }
    commit(j, i, true);
    return true;
}
