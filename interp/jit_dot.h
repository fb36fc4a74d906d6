/* jit_dot.h — planned dot chains compiled inline: fuse.c's vm_dotplan, n
 * triples `ld.shared.f32 x, [ra0 + o0]; ld.shared.f32 y, [ra1 + o1];
 * fma.rn.f32 acc, x, y, acc` (a tiled matrix product's unrolled k loop),
 * in a whole-warp run, outside if-converted bodies. Included by jit.c only.
 *
 * The head's code does what exec.c's dot_plan_run does: each address
 * register is one word per half-warp or 16 consecutive words per half (both
 * halves alike here), each half's base aligned and every word the chain
 * reads inside the CTA's window; then the 2n loads and n fmas per half
 * (a one-word load as the fma's broadcast operand), the last sum's NaN made
 * canonical, the last triple's loads kept where later records read them.
 * The other records of the chain emit nothing. Any other address (a
 * gather, a half of each kind, a word outside the window) leaves the run at
 * the head with the cache stored, and the records' own handlers run the
 * chain and report a bad lane as without the JIT. */

static const zop FMA231PS = {M0F38, P66, 0, 0xb8}, MOVUPS = {M0F, PNONE, 0, 0x10}, BCSS = {M0F38, P66, 0, 0x18};

/* The plan of the chain that record k belongs to, *hd its head (k or
 * before), else NULL. */
static const vm_dotplan *dot_plan_at(const vm_func *f, uint32_t k, uint32_t *hd) {
    const void *fused = vm_handler_table()[VM_LDS4_LDS4_FMAF32];
    for (uint32_t t = k + 1; t-- > 0;) {
        const vm_insn *x = &f->code[t];
        if (x->h == fused && x->p) {
            const vm_dotplan *p = x->p;
            *hd = t;
            return k < t + 3 * p->n ? p : NULL;
        }
        if (x->op != VM_LDS4 && x->op != VM_FMAF32) return NULL;
    }
    return NULL;
}

/* Whether record k may stand in a run although a superinstruction heads it
 * or its triple: it is part of a planned chain, which the run compiles. */
static bool dot_in(const vm_func *f, uint32_t k) {
    uint32_t hd;
    return dot_plan_at(f, k, &hd) != NULL;
}

/* Register s's bases, each half's (r8 + 2s + h := the window + its lane 0's
 * address), for loads of w bytes at every offset of the plan: aligned and
 * inside the window (ecx its size, rsi its start), else a jump to the exit. */
static void dot_bases(jc *j, const vm_dotplan *p, const centry *e, int s, int w, size_t *x, int *nx) {
    cbuf *b = j->b;
    for (int h = 0; h < 2; h++) {
        evexl(b, 0, M0F, P66, 0, 0x7e, e->z[h], 0, R(RAX), 0); /* vmovd eax, xmm: the half's lane 0 */
        uint8_t tst[2] = {0xa8, 0x03};                         /* test al, 3 */
        put(b, tst, 2);
        x[(*nx)++] = jcc(b, 0x85);
        gop(b, true, 0x8d, RDX, M(RAX, p->lo[s])); /* lea rdx, [rax + lo] */
        uint8_t tq[3] = {0x48, 0x85, 0xd2};        /* test rdx, rdx */
        put(b, tq, 3);
        x[(*nx)++] = jcc(b, 0x88);                     /* js */
        gop(b, true, 0x8d, RDX, M(RAX, p->hi[s] + w)); /* lea rdx, [rax + hi + w] */
        gop(b, true, 0x3b, RDX, R(RCX));               /* cmp rdx, rcx */
        x[(*nx)++] = jcc(b, 0x87);                     /* ja */
        int r = 8 + 2 * s + h;
        uint8_t lea[4] = {0x4c, 0x8d, (uint8_t)(0x04 | (r & 7) << 3), 0x06}; /* lea r, [rsi + rax] */
        put(b, lea, 4);
    }
}

/* ZT + h := the value of register s's load at offset o in half h (16 words
 * or one word in every lane, pattern c). */
static void dot_load(cbuf *b, int zd, int s, int h, bool c, int32_t o) {
    z(b, c ? MOVUPS : BCSS, zd, 0, M(8 + 2 * s + h, o), 0);
}

/* The chain for patterns c0, c1 (register s consecutive words or one word
 * per half): the sums in ZT, ZT+1, the last triple's loads in ZT+2, ZT+3
 * (x) and ZX, ZD (y). */
static void dot_loop_code(jc *j, const vm_dotplan *p, const centry *acc, bool c0, bool c1) {
    cbuf *b = j->b;
    for (int h = 0; h < 2; h++) z(b, MOVA64, ZT + h, 0, R(acc->z[h]), 0);
    for (uint32_t k = 0; k < p->n; k++)
        for (int h = 0; h < 2; h++) {
            dot_load(b, ZQ, 0, h, c0, p->off[k][0]);
            size_t at = b->n;
            z(b, FMA231PS, ZT + h, ZQ, M(10 + h, p->off[k][1]), 0); /* ZT+h += x * y */
            if (!c1 && !b->oom) b->p[at + 3] |= 0x10;                /* EVEX.b: y is one float, {1to16} */
        }
    for (int s = 0; s < 2; s++)
        if (p->last_d[s] != UINT32_MAX)
            for (int h = 0; h < 2; h++) dot_load(b, s ? ZX + h : ZT + 2 + h, s, h, s ? c1 : c0, p->off[p->n - 1][s]);
}

static void dot_emit(jc *j, const vm_insn *i, const vm_dotplan *p) {
    cbuf *b = j->b;
    drop_dead(j);
    const centry *ra[2] = {src(j, p->ra[0], false), src(j, p->ra[1], false)}, *acc = src(j, p->acc_in, false);
    nan_const(j);
    size_t x[32], v[4];
    int nx = 0;
    gop(b, true, 0x8b, RSI, M(CTX, (int64_t)offsetof(vm_jit_ctx, cta)));     /* rsi := the cta */
    gop(b, false, 0x8b, RCX, M(RSI, (int64_t)offsetof(vm_cta, smem_size))); /* ecx := smem_size */
    gop(b, true, 0x8b, RSI, M(RSI, (int64_t)offsetof(vm_cta, smem)));       /* rsi := the window */
    uint8_t xe[2] = {0x31, 0xff};                                           /* xor edi, edi */
    put(b, xe, 2);
    for (int s = 0; s < 2; s++) { /* edi bit s: register s is consecutive words, else one word, per half */
        const centry *e = ra[s];
        for (int h = 0; h < 2; h++) {
            z(b, BCD_X, ZQ + 2 * h, 0, R(e->z[h]), 0);          /* ZQ, ZD := the half's lane 0 in every lane */
            zi(b, CMPD, 2 + h, ZQ + 2 * h, R(e->z[h]), 0, 0); /* k2, k3 := lanes at it */
        }
        klog(b, KANDW, 2, 2, 3);
        kortest2(b, false);        /* CF when every lane */
        size_t one = jcc(b, 0x82); /* jc */
        mov_imm64(b, RAX, (uint64_t)(uintptr_t)iota4d);
        for (int h = 0; h < 2; h++) {
            z(b, ADDD, ZX, ZQ + 2 * h, M(RAX, 0), 0);
            zi(b, CMPD, 2 + h, ZX, R(e->z[h]), 0, 0); /* k2, k3 := lanes at lane 0's + 4 * lane */
        }
        klog(b, KANDW, 2, 2, 3);
        kortest2(b, false);
        x[nx++] = jcc(b, 0x83); /* jnc */
        dot_bases(j, p, e, s, 64, x, &nx);
        uint8_t orb[3] = {0x83, 0xcf, (uint8_t)(1 << s)}; /* or edi, 1 << s */
        put(b, orb, 3);
        size_t joined = jmp32(b);
        land(b, one);
        dot_bases(j, p, e, s, 4, x, &nx);
        land(b, joined);
    }
    size_t to[4];
    for (int c = 1; c < 4; c++) {
        uint8_t cmp[3] = {0x83, 0xff, (uint8_t)c}; /* cmp edi, c */
        put(b, cmp, 3);
        to[c] = jcc(b, 0x84);
    }
    for (int c = 0; c < 4; c++) {
        if (c) land(b, to[c]);
        dot_loop_code(j, p, acc, c & 1, c >> 1);
        v[c] = jmp32(b);
    }
    for (int k = 0; k < nx; k++) land(b, x[k]);
    spill_copy(j, j->now); /* the head's handler runs the chain: what it reads stored */
    ret_with(b, (uint64_t)(uintptr_t)i);
    for (int c = 0; c < 4; c++) land(b, v[c]);
    for (int h = 0; h < 2; h++) canon32(j, ZT + h);
    commit_to(j, i, p->acc_out, false);
    for (int s = 0; s < 2; s++)
        if (p->last_d[s] != UINT32_MAX) {
            for (int h = 0; h < 2; h++) z(b, MOVA64, ZT + h, 0, R(s ? ZX + h : ZT + 2 + h), 0);
            commit_to(j, i, p->last_d[s], false);
        }
}

/* Records of a planned chain in a whole-warp run outside bodies: the head
 * emits the chain, the others nothing. false: not such a record. */
static bool dot_take(jc *j, const vm_insn *i) {
    uint32_t hd;
    const vm_dotplan *p = j->depth ? NULL : dot_plan_at(j->f, j->now, &hd);
    if (!p) return false;
    if (hd == j->now) dot_emit(j, i, p);
    return true;
}
