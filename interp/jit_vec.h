/* jit_vec.h — compiled ld/st.global.v2/.v4 of 32-bit elements (Triton's
 * `@%p ld.global.v4.b32 { %r2, %r3, %r4, %r5 }, [ %rd1 + 0 ]`), included by
 * jit.c only, after its encoder and register cache.
 *
 * When every lane executes and lane l's address is lane 0's + l * the
 * vector's size (n elements of 4 bytes), the warp's accesses are one run of
 * 32 * 4n bytes: one alignment test, one range test of the run against the
 * arena (vec_run's vm_arena_ok, the granules of its span), then 2n 64-byte
 * copies, the elements moved between the memory's lane-major order and the
 * frame's element-major registers with vpermi2d and vshufi32x4. Anything
 * else (a partial guard, other addresses, a bad granule) calls run_mem,
 * whose vm_ldv / vm_stv take the same run or go lane by lane and report the
 * first bad lane. Also ld.shared.b32 of a fixed address (lds_fixed). */

/* vpermi2d indices over two 16-word tables, element-major <-> lane-major.
 * Loads: v2 e0/e1 of 16 lanes from lanes 0-7 | 8-15 ({e0, e1} each); v4 the
 * first step, {e0 of lanes 0-7, e1 of lanes 0-7} / {e2, e3} from lanes 0-3 |
 * 4-7 ({e0..e3} each). Stores: the inverses. */
static _Alignas(64) const uint32_t vec_idx[8][16] = {
    {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30},    /* v2 load e0 */
    {1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31},    /* v2 load e1 */
    {0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29},     /* v4 load e0|e1 */
    {2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19, 23, 27, 31},   /* v4 load e2|e3 */
    {0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23},       /* v2 store lanes 0-7 */
    {8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31}, /* v2 store lanes 8-15 */
    {0, 8, 16, 24, 1, 9, 17, 25, 2, 10, 18, 26, 3, 11, 19, 27},     /* v4 store lanes 0-3 */
    {4, 12, 20, 28, 5, 13, 21, 29, 6, 14, 22, 30, 7, 15, 23, 31},   /* v4 store lanes 4-7 */
};
/* Lane offsets of a run with 8 and 16 bytes per lane (64-bit lanes). */
static _Alignas(64) const uint64_t vec_iota[2][VM_LANES] = {
    {0,   8,   16,  24,  32,  40,  48,  56,  64,  72,  80,  88,  96,  104, 112, 120,
     128, 136, 144, 152, 160, 168, 176, 184, 192, 200, 208, 216, 224, 232, 240, 248},
    {0,   16,  32,  48,  64,  80,  96,  112, 128, 144, 160, 176, 192, 208, 224, 240,
     256, 272, 288, 304, 320, 336, 352, 368, 384, 400, 416, 432, 448, 464, 480, 496},
};

static const zop SHUFI32X4 = {M0F3A, P66, 0, 0x43};

/* A guarded record goes inline only when every lane executes: else a jump
 * to the call (collected in slow). */
static void every_lane(jc *j, const vm_insn *i, size_t *slow, int *ns) {
    if (!guarded(j, i)) return;
    exec_edx(j, i);
    uint8_t c[3] = {0x83, 0xfa, 0xff}; /* cmp edx, -1 */
    put(j->b, c, 3);
    slow[(*ns)++] = jcc(j->b, 0x85);
}

/* Whether record i (LDV / STV) is of the kind vec_mem compiles. */
static bool vec_ok(const jc *j, const vm_insn *i) {
    const vm_vec *v = i->p;
    if (i->sp != VM_SP_GLOBAL || i->sz != 4 || (v->n != 2 && v->n != 4) || i->imm != (int32_t)i->imm ||
        (i->flags & (VM_F_BASE_REG64 | VM_F_FRAME_SYM | VM_F_PARAM_SYM | VM_F_STRONG)) != VM_F_BASE_REG64 ||
        !j->f->prog->rt || !j->f->prog->rt->arena)
        return false;
    /* the registers apart from the address and from each other (a store may name one twice) */
    for (uint32_t k = 0; k < v->n; k++) {
        uint32_t o = v->e[k].off;
        if (v->e[k].kind != VM_K_R32 || (o + 128 > i->a && i->a + 256 > o)) return false;
        for (uint32_t q = 0; q < k; q++)
            if (o + 128 > v->e[q].off && v->e[q].off + 128 > o && (i->op == VM_LDV || o != v->e[q].off)) return false;
    }
    return true;
}

/* zmm d := vec_idx[t] (rcx: vec_idx). */
static void vec_ldidx(cbuf *b, int d, int t) { z(b, LD32, d, 0, M(RCX, 64 * t), 0); }

static bool vec_mem(jc *j, const vm_insn *i) {
    if (!vec_ok(j, i)) return false;
    cbuf *b = j->b;
    const vm_vec *v = i->p;
    bool st = i->op == VM_STV, v4 = v->n == 4;
    uint32_t stride = 4 * v->n;
    drop_dead(j);
    centry *a = src(j, i->a, true), *e[4];
    /* the registers, in the cache on both paths: a store's values; a load's
     * destinations (not loaded: the fast path writes them whole, the call's
     * path loads them back after it) */
    for (uint32_t k = 0; k < v->n; k++) {
        if (st) {
            e[k] = src(j, v->e[k].off, false);
            continue;
        }
        unalias(j, v->e[k].off, false, false);
        e[k] = find(j, v->e[k].off, false);
        if (!e[k]) e[k] = alloc(j, v->e[k].off, false);
        e[k]->used = j->now + 1;
    }
    size_t slow[24];
    int ns = 0;
    every_lane(j, i, slow, &ns);
    /* every lane's address is lane 0's + stride * lane: tested here, or
     * known from an earlier access of the kind through the register (jit_addr.h) */
    int told, known = run4_flags(j, i, !j->depth, &told);
    if (known >= 0) {
        run4_test(j, known);
        slow[ns++] = jcc(b, 0x84);
    } else {
        z(b, BCQ_X, ZQ, 0, R(a->z[0]), 0);
        mov_imm64(b, RCX, (uint64_t)(uintptr_t)vec_iota[v4]);
        run_test(j, a, 4, false, NULL, slow, &ns);
    }
    /* rax := lane 0's address + imm, aligned to the vector */
    evexl(b, 0, M0F, P66, 1, 0x7e, a->z[0], 0, R(RAX), 0); /* vmovq rax, xmm */
    uint8_t addi[2] = {0x48, 0x05};                        /* add rax, imm32 */
    put(b, addi, 2);
    b32(b, (uint32_t)(int32_t)i->imm);
    uint8_t tst[2] = {0xa8, (uint8_t)(stride - 1)}; /* test al, stride - 1 */
    put(b, tst, 2);
    slow[ns++] = jcc(b, 0x85);
    arena_span(j, VM_LANES * stride, st, slow, &ns);
    if (told >= 0) run4_put(j, told, 1);
    mov_imm64(b, RCX, (uint64_t)(uintptr_t)vec_idx);
    /* half h (lanes 16h..16h+15) is the 64 * n bytes at rax + 64 * n * h */
    for (int h = 0; h < 2; h++) {
        int32_t at = (int32_t)(64 * v->n * h);
        if (!st && !v4) {
            z(b, LD32, ZQ, 0, M(RAX, at), 0);
            for (int k = 0; k < 2; k++) {
                vec_ldidx(b, e[k]->z[h], k);
                z(b, PERMI2D, e[k]->z[h], ZQ, M(RAX, at + 64), 0);
            }
        } else if (!st) {
            for (int q = 0; q < 2; q++) { /* ZT+q: {e0|e1} and ZT+2+q: {e2|e3} of lanes 8q..8q+7 */
                z(b, LD32, ZQ, 0, M(RAX, at + 128 * q), 0);
                for (int t = 0; t < 2; t++) {
                    vec_ldidx(b, ZT + 2 * t + q, 2 + t);
                    z(b, PERMI2D, ZT + 2 * t + q, ZQ, M(RAX, at + 128 * q + 64), 0);
                }
            }
            for (int k = 0; k < 4; k++) /* e_k: the low or high halves of both */
                zi(b, SHUFI32X4, e[k]->z[h], ZT + (k >> 1 << 1), R(ZT + (k >> 1 << 1) + 1), 0, k & 1 ? 0xee : 0x44);
        } else if (!v4) {
            for (int q = 0; q < 2; q++) {
                vec_ldidx(b, ZT + q, 4 + q);
                z(b, PERMI2D, ZT + q, e[0]->z[h], R(e[1]->z[h]), 0);
                z(b, ST32, ZT + q, 0, M(RAX, at + 64 * q), 0);
            }
        } else {
            for (int t = 0; t < 2; t++) /* ZT+2q+t: {e2t of lanes 8q..8q+7 | e2t+1 of the same} */
                for (int q = 0; q < 2; q++)
                    zi(b, SHUFI32X4, ZT + 2 * q + t, e[2 * t]->z[h], R(e[2 * t + 1]->z[h]), 0, q ? 0xee : 0x44);
            for (int q = 0; q < 4; q++) { /* lanes 4q..4q+3 */
                vec_ldidx(b, ZQ, 6 + (q & 1));
                z(b, PERMI2D, ZQ, ZT + (q >> 1 << 1), R(ZT + (q >> 1 << 1) + 1), 0);
                z(b, ST32, ZQ, 0, M(RAX, at + 64 * q), 0);
            }
        }
    }
    size_t done = jmp32(b);
    for (int k = 0; k < ns; k++) land(b, slow[k]);
    if (told >= 0) run4_put(j, told, 0);
    slow_call(j, i);
    land(b, done);
    j->nan_ok = false;
    if (!st)
        for (uint32_t k = 0; k < v->n; k++) e[k]->dirty = 1, e[k]->used = j->now + 1;
    return true;
}

/* ld.shared.b32 of a fixed address (`ld.shared.f32 %f32, [global_smem]`:
 * Triton's row total read back by every lane after the barrier), the whole
 * warp executing: one word inside the CTA's window (xlate's test), splat to
 * every lane. Anything else calls run_mem (vm_ld). */
static bool lds_fixed(jc *j, const vm_insn *i) {
    if (i->sp != VM_SP_SHARED || i->sz != 4 || i->imm < 0 || i->imm > INT32_MAX - 4 || i->imm & 3 ||
        i->flags & (VM_F_BASE_REG64 | VM_F_BASE_REG32 | VM_F_FRAME_SYM | VM_F_PARAM_SYM | VM_F_STRONG | VM_F_D64))
        return false;
    cbuf *b = j->b;
    drop_dead(j);
    size_t slow[2];
    int ns = 0;
    every_lane(j, i, slow, &ns);
    gop(b, true, 0x8b, RSI, M(CTX, (int64_t)offsetof(vm_jit_ctx, cta)));    /* rsi := the cta */
    gop(b, false, 0x8b, RCX, M(RSI, (int64_t)offsetof(vm_cta, smem_size))); /* ecx := smem_size */
    uint8_t cmp[3] = {0x48, 0x81, 0xf9};                                    /* cmp rcx, imm + 4 */
    put(b, cmp, 3);
    b32(b, (uint32_t)(i->imm + 4));
    slow[ns++] = jcc(b, 0x82);                                        /* jb */
    gop(b, true, 0x8b, RSI, M(RSI, (int64_t)offsetof(vm_cta, smem))); /* rsi := the window */
    z(b, BCD_X, ZT, 0, M(RSI, i->imm), 0);                            /* vpbroadcastd */
    z(b, MOVA64, ZT + 1, 0, R(ZT), 0);
    size_t done = jmp32(b);
    for (int k = 0; k < ns; k++) land(b, slow[k]);
    slow_call(j, i);
    for (int p = 0; p < 2; p++) z(b, LD32, ZT + p, 0, F(i->d + 64u * p), 0);
    land(b, done);
    j->nan_ok = false;
    vm_insn whole = *i; /* both paths leave d whole, as mem4's */
    whole.g = j->f->true_slot, whole.gx = 0;
    commit(j, &whole, false);
    return true;
}
