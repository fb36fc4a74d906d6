/* jit_shfl.h — compiled shfl.sync; included by jit.c only, after jit_addr.h.
 *
 * Both forms below run for the whole warp only (a guarded record, or one in
 * a masked run or body, leaves unless every lane runs it) and not in a
 * forced collective (w->forced: the handler runs it with the lanes there);
 * the member mask must be all ones and the lane operand and clamp the same
 * in every lane. Anything else is left to exec.c's handler (run_shfl).
 *
 * shfl_konst: the member mask, lane operand and clamp are known here, as
 * reduce's trees write them (`mov.u32 %r53, 16` ... `shfl.sync.down.b32
 * %r55|%p6, %r100, %r53, %r52, %r54`): constant slots, or registers that an
 * unguarded mov of a constant slot wrote earlier in a stretch that every
 * path to the shuffle passes (konst_at). Each lane's source lane and the
 * predicate then follow from the handler's own formula (vm_shfl_src) for
 * any mode, lane, clamp and segment mask: the result is two vpermi2d by
 * indices kept in the code after the record's exit, the predicate the store
 * of an immediate; no run-time test of the operands.
 *
 * shfl: otherwise, shfl.sync.{down,up,bfly} as vm_shfl_full's permute: the
 * operands tested at run time (eight vector compares), clamp 31 (down,
 * bfly) or 0 (up) with no segment mask. */

/* Whether 32-bit slot s holds *v in every lane when record k begins: a
 * constant slot (konst32), or a register that an unguarded mov.b32 of one
 * wrote at a record q < k such that every path to k passes q and nothing
 * in (q, k) writes the register (stretch_keeps: no branch target in (q, k],
 * no branch, call or exit in between, every write known). */
static bool konst_at(jc *j, uint32_t k, uint32_t s, uint32_t *v) {
    if (konst32(j, s, v)) return true;
    const vm_func *f = j->f;
    if (s % 64 || s < f->regs_lo || s + 128 > f->regs_hi) return false;
    for (uint32_t q = k; q-- > 0 && k - q <= RUN4_WINDOW;) {
        const vm_insn *m = &f->code[q];
        if (m->op == VM_MOV32 && m->d == s)
            return m->g == f->true_slot && m->gx == 0 && konst32(j, m->a, v) && stretch_keeps(f, q, k, q + 1, s, 2);
    }
    return false;
}

/* mov.b32 from a constant slot (the shuffle trees' `mov.u32 %r57, 8`): the
 * value splat from an immediate instead of loaded from the frame, whose
 * lines the streamed input may have evicted; false: the general template. */
static bool mov_konst(jc *j, const vm_insn *i) {
    uint32_t v;
    if (find(j, i->a, false) || !konst32(j, i->a, &v)) return false;
    b1(j->b, 0xb8); /* mov eax, v; vpbroadcastd zmmT, eax */
    b32(j->b, v);
    z(j->b, BCD_R, ZT, 0, R(RAX), 0);
    z(j->b, MOVA64, ZT + 1, 0, R(ZT), 0);
    commit(j, i, false);
    return true;
}

/* The tests every compiled shfl.sync starts with: the whole warp runs it
 * and no collective is forced; their jumps to the exit collected in x. */
static void shfl_enter(jc *j, const vm_insn *i, size_t *x, int *nx) {
    cbuf *b = j->b;
    if (guarded(j, i)) {
        uint8_t c[3] = {0x83, 0xfa, 0xff}; /* cmp edx, -1 */
        put(b, c, 3);
        to_exit(b, 0x85, x, nx);
    }
    ctx_field(j, offsetof(vm_jit_ctx, w));
    uint8_t f[7] = {0x80, 0xb8, 0, 0, 0, 0, 0}; /* cmp byte [rax + forced], 0 */
    uint32_t fo = (uint32_t)offsetof(vm_warp, forced);
    memcpy(f + 2, &fo, 4);
    put(b, f, 7);
    to_exit(b, 0x85, x, nx);
}

/* The exit the jumps in x take (what is dirty stored, the record left to
 * its handler), jumped over; then n bytes of data (64-byte aligned in the
 * code, whose buffer is copied to a page as it is), also jumped over.
 * Returns the data's offset in the buffer. */
static size_t shfl_exit(jc *j, const vm_insn *i, const size_t *x, int nx, const void *data, size_t n) {
    cbuf *b = j->b;
    size_t fast = jmp32(b);
    for (int k = 0; k < nx; k++) land(b, x[k]);
    spill_copy(j, j->now);
    ret_with(b, (uint64_t)(uintptr_t)i);
    while (n && b->n % 64) b1(b, 0xcc); /* int3 */
    size_t at = b->n;
    if (n) put(b, data, n);
    land(b, fast);
    return at;
}

/* shfl.sync with a constant member mask (all ones), lane operand and clamp,
 * as the header says; false: not that case. */
static bool shfl_konst(jc *j, const vm_insn *i) {
    uint32_t k = (uint32_t)(i - j->f->code), mv, bv, cv;
    if (!konst_at(j, k, (uint32_t)i->imm, &mv) || mv != VM_FULL || !konst_at(j, k, i->b, &bv) ||
        !konst_at(j, k, i->c, &cv))
        return false;
    _Alignas(64) uint32_t idx[VM_LANES];
    uint32_t pv = 0;
    for (int l = 0; l < VM_LANES; l++) {
        bool ok;
        idx[l] = (uint32_t)vm_shfl_src(i->x, l, bv & 31, cv & 31, cv >> 8 & 31, &ok);
        pv |= (uint32_t)ok << l;
    }
    const vm_alu *o = i->p;
    cbuf *b = j->b;
    size_t x[2];
    int nx = 0;
    centry *a = src(j, i->a, false);
    shfl_enter(j, i, x, &nx);
    size_t at = shfl_exit(j, i, x, nx, idx, sizeof idx);
    uint8_t lea[3] = {0x48, 0x8d, 0x0d}; /* lea rcx, [rip + at] */
    put(b, lea, 3);
    b32(b, (uint32_t)(at - (b->n + 4)));
    for (int h = 0; h < 2; h++) {
        z(b, LD32, ZT + h, 0, M(RCX, 64 * h), 0);
        z(b, PERMI2D, ZT + h, a->z[0], R(a->z[1]), 0); /* T := {a0, a1}[T] */
    }
    if (o && o->d[1].kind == VM_K_PRED) {
        gop(b, false, 0xc7, 0, F(o->d[1].off)); /* mov dword [pd], pv */
        b32(b, pv);
    }
    commit(j, i, false);
    return true;
}

/* Lane numbers 0..31, then 31 in every lane. */
static _Alignas(64) const uint32_t lane_k[48] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                                 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
                                                 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31};

/* shfl.sync, as the header says; false: the handler's out-of-line path. */
static bool shfl(jc *j, const vm_insn *i) {
    if (shfl_konst(j, i)) return true;
    if (i->x != VM_SHFL_DOWN && i->x != VM_SHFL_UP && i->x != VM_SHFL_BFLY) return false;
    const vm_alu *o = i->p;
    cbuf *b = j->b;
    size_t x[12];
    int nx = 0;
    centry *mm = src(j, (uint32_t)i->imm, false), *bb = src(j, i->b, false), *cc = src(j, i->c, false);
    src(j, i->a, false);
    shfl_enter(j, i, x, &nx);
    /* mm all ones, b and c uniform */
    zi(b, TERND, ZQ, ZQ, R(ZQ), 0, 0xff);
    for (int h = 0; h < 2; h++) {
        zi(b, CMPD, 2, mm->z[h], R(ZQ), 0, 4);
        kortest2(b, false);
        to_exit(b, 0x85, x, &nx);
    }
    unless_uniform(b, bb, x, &nx);
    unless_uniform(b, cc, x, &nx);
    evexl(b, 0, M0F, P66, 0, 0x7e, bb->z[0], 0, R(RAX), 0); /* eax := b */
    evexl(b, 0, M0F, P66, 0, 0x7e, cc->z[0], 0, R(RCX), 0); /* ecx := c */
    uint8_t an[6] = {0x83, 0xe0, 0x1f, 0x81, 0xe1, 0};      /* and eax, 31; and ecx, 0x1f1f */
    put(b, an, 5);
    b32(b, 0x1f1f);
    uint8_t ce[3] = {0x83, 0xf9, i->x == VM_SHFL_UP ? 0 : 0x1f}; /* cmp ecx, 31 / 0 */
    put(b, ce, 3);
    to_exit(b, 0x85, x, &nx);
    shfl_exit(j, i, x, nx, NULL, 0);
    /* source lanes: l ^ bv, l + bv (own lane past 31), l - bv (own lane below 0) */
    z(b, BCD_R, ZQ, 0, R(RAX), 0);
    mov_imm64(b, RCX, (uint64_t)(uintptr_t)lane_k);
    for (int h = 0; h < 2; h++) {
        zop op = i->x == VM_SHFL_BFLY ? XORD : i->x == VM_SHFL_DOWN ? ADDD : SUBD;
        z(b, LD32, ZX, 0, M(RCX, 64 * h), 0);
        z(b, op, ZT + h, ZX, R(ZQ), 0);
        if (i->x == VM_SHFL_DOWN) zi(b, CMPD, 3, ZT + h, M(RCX, 128), 0, 6); /* k3 := past 31 */
        if (i->x == VM_SHFL_UP) z(b, D2M, 3, 0, R(ZT + h), 0);               /* k3 := below 0 */
        if (i->x != VM_SHFL_BFLY) z(b, MOVA32, ZT + h, 0, R(ZX), 3);
        centry *a = src(j, i->a, false);
        z(b, PERMI2D, ZT + h, a->z[0], R(a->z[1]), 0); /* T := {a0, a1}[T] */
    }
    if (o && o->d[1].kind == VM_K_PRED) {
        /* the predicate: every lane (bfly), lanes below 32 - bv (down), from bv up (up) */
        uint8_t mv[5] = {0xba, 1, 0, 0, 0}; /* mov edx, 1 */
        put(b, mv, 5);
        if (i->x == VM_SHFL_BFLY) {
            uint8_t ones[5] = {0xba, 0xff, 0xff, 0xff, 0xff}; /* mov edx, -1 */
            put(b, ones, 5);
        } else if (i->x == VM_SHFL_DOWN) {
            /* rdx := (1 << (32 - bv)) - 1 */
            uint8_t q[13] = {0xb9, 32, 0, 0, 0, 0x29, 0xc1, 0x48, 0xd3, 0xe2, 0x48, 0xff, 0xca};
            put(b, q, 13); /* mov ecx, 32; sub ecx, eax; shl rdx, cl; dec rdx */
        } else {
            /* edx := ~((1 << bv) - 1) */
            uint8_t q[10] = {0x89, 0xc1, 0xd3, 0xe2, 0xff, 0xca, 0xf7, 0xd2, 0x90, 0x90};
            put(b, q, 8); /* mov ecx, eax; shl edx, cl; dec edx; not edx */
        }
        gop(b, false, 0x89, RDX, F(o->d[1].off)); /* mov [pd], edx */
        if (guarded(j, i)) exec_edx(j, i);         /* commit's lanes: all (checked above) */
    }
    commit(j, i, false);
    return true;
}
