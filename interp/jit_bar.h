/* jit_bar.h — bar.sync of the whole warp in compiled code; included by
 * jit.c only, after jit_next.h.
 *
 * A run used to stop at every bar.sync: the warp went back to exec.c, whose
 * handler made its arrival and, when it had to wait, ran on to the CTA's
 * next warp, which entered compiled code again. A reduction does that once
 * per warp, a tiled matmul twice per tile. Now the record is the last of
 * its run (the record after a barrier starts a run, where the released
 * warps resume) and its code calls run_bar, which does what the handler
 * does (vm_bar_sync_whole) and then:
 *  - the last warp to arrive goes on in the code, into the next run;
 *  - a warp that waits is counted as the handler counts it, and hands over
 *    to the CTA's next warp as exec.c's `waits:` would, when that warp can
 *    enter compiled code at once (as in hand_over); else it goes back to
 *    exec.c with VM_JIT_WAITS, which goes on at `waits:`;
 *  - anything vm_bar_sync_whole does not take (a counted barrier, a warp
 *    whose lanes are not all there, sanitize mode), or a run with a fault,
 *    split or waiting lanes pending, leaves the record to its handler, as
 *    before.
 * The barrier record itself is counted as the handler's, not compiled code's
 * (jit_warp_insns), so the JIT share reads as before. A masked version's
 * code leaves every barrier to the handler. */

enum { BAR_ON, BAR_LEAVE, BAR_WAITS, BAR_NEXT };

/* The CTA's next warp, when it could enter compiled code now, as exec.c's
 * run-on would enter it: ready, awake, every lane with none waiting, in the
 * kernel's frame, at a compiled run's first record (its handler the JIT's,
 * as that of c->head, the run exec.c entered); that run's code. The same
 * test as hand_over's machine code (jit_next.h), which a call would make 4%
 * slower on stencil. */
static const void *next_body(const vm_jit_ctx *c, const vm_warp *nw) {
    if (!nw) return NULL;
    const vm_insn *pc = nw->pc;
    if (nw->state != VM_W_READY || nw->sleep_until || nw->mask != VM_FULL ||
        nw->lpc_stop != (const vm_insn *)UINTPTR_MAX || nw->depth != 1 || pc->h != c->head->h)
        return NULL;
    return ((const vm_jit_region *)(const void *)pc->target)->body;
}

/* The warp's count over n records from c->seg, `jit` of them compiled,
 * less what wadj, tadj take off (as exec.c counts a run that stops). */
static void count_warp(vm_jit_ctx *c, uint64_t n, uint64_t jit) {
    uint64_t wa = (uint64_t)c->wadj, ta = (uint64_t)c->tadj;
    c->cta->warp_insns += n - wa;
    c->cta->thread_insns += n * VM_LANES - ta;
    c->w->clock += n - wa;
    c->cta->jit_warp_insns += jit - wa;
}

/* The context goes on with warp nw in its run's code `body` (BAR_NEXT). */
static int run_on(vm_jit_ctx *c, vm_warp *nw, const void *body) {
    c->cta->ran = nw;
    c->cta->ran_exited = nw->exited;
    c->w = nw, c->fr = &nw->frames[0];
    c->seg = c->head = nw->pc;
    c->wadj = c->tadj = 0;
    c->fault &= VM_JIT_ROUND; /* the rounds so far still come off the slice (exec.c) */
    c->go = body;
    return BAR_NEXT;
}

static int run_bar(vm_jit_ctx *c, const vm_insn *i) {
    vm_warp *w = c->w;
    vm_cta *cta = c->cta;
    if (c->fault & VM_JIT_HELD) return BAR_LEAVE;
    w->pc = i, w->mask = VM_FULL;
    int r = vm_bar_sync_whole(w, i, VM_FULL);
    if (r < 0) return BAR_LEAVE;
    if (r > 0) { /* on after the barrier; its record is the handler's */
        cta->jit_warp_insns--;
        return BAR_ON;
    }
    /* the warp waits: counted through the barrier, as exec.c counts a run
     * that stops at it and then the handler */
    count_warp(c, (uint64_t)(i + 1 - c->seg), (uint64_t)(i - c->head));
    const void *body = NULL;
    if (!atomic_load_explicit(&cta->grid->stop, memory_order_relaxed) && w->exited == cta->ran_exited)
        body = next_body(c, w->id + 1 < cta->nwarps ? w + 1 : NULL);
    if (!body) {
        c->fault |= VM_JIT_WAITS;
        return BAR_WAITS;
    }
    return run_on(c, w + 1, body);
}

/* A warp whose code after bar.sync only computes registers and then
 * leaves the kernel need not wait there: leaving before its arrival is
 * leaving after it, for no other thread can see the difference (exited
 * threads are not waited for). A block reduction's warps but the first do
 * that (`if (warp == 0) ...` after __syncthreads()). Its code runs those
 * records at the barrier, and when the whole warp takes the way out,
 * run_bar_exit ends it there: counted through the ret as hand_over counts
 * it, its lanes exited, the open barriers waiting for 32 fewer threads
 * (one of which may release now), then on to the CTA's next warp as run_bar
 * goes on (BAR_NEXT), or back to exec.c (VM_JIT_DONE: at `left:`). Else the
 * warp arrives as before, from an empty cache: the records run again after
 * the barrier from the same sources and give the same values. */
enum { BAR_DONE = BAR_NEXT + 1 };

static bool emit(jc *j, const vm_insn *i);

/* Whether op only computes a register from registers in compiled code. */
static bool reg_only(unsigned op) {
    switch (op) {
#define CMPS(T)     \
    case VM_EQ_##T: \
    case VM_NE_##T: \
    case VM_LT_##T: \
    case VM_LE_##T: \
    case VM_GT_##T: \
    case VM_GE_##T:
        CMPS(S32)
        CMPS(U32)
        CMPS(S64)
        CMPS(U64)
#undef CMPS
    case VM_MOV32:
    case VM_MOV64:
    case VM_ADD32:
    case VM_SUB32:
    case VM_AND32:
    case VM_OR32:
    case VM_XOR32:
    case VM_SHL32:
    case VM_SHRU32:
    case VM_SHRS32:
    case VM_NOT32:
    case VM_ADD64:
    case VM_SUB64:
    case VM_PAND:
    case VM_POR:
    case VM_PXOR:
    case VM_PNOT:
    case VM_MOVP: return true;
    default: return false;
    }
}

/* For bar.sync at record at: the record e that leaves the kernel after it
 * (an unguarded ret, or a bra to one), with only unguarded reg_only records
 * between, none writing what it or one before it reads (so that they may
 * run twice); 0 when there is none. */
static uint32_t exit_after_bar(const jc *j, uint32_t at) {
    const vm_func *f = j->f;
    const vm_insn *bi = &f->code[at];
    if (bi->imm < 1 || bi->imm > 16) return 0; /* the id a register's: its check is the handler's */
    for (uint32_t e = at + 1; e < f->ncode && e < at + 16; e++) {
        const vm_insn *x = &f->code[e];
        if (x->op == VM_BRA && x->target > x && ends_kernel(j, (uint32_t)(x->target - f->code))) return e;
        if (ends_kernel(j, e)) return e;
        if (!reg_only(x->op) || guarded(j, x)) return 0;
        for (const vm_insn *q = bi + 1; q <= x; q++)
            if (x->d == q->a || x->d == q->b || x->d == q->c) return 0;
    }
    return 0;
}

/* The warp leaves the kernel whole after record last (the ret counted too):
 * counted as hand_over counts it, its lanes exited, done. */
static void leave_warp(vm_jit_ctx *c, const vm_insn *last) {
    count_warp(c, (uint64_t)(last + 2 - c->seg), (uint64_t)(last + 1 - c->head));
    c->w->exited = VM_FULL;
    c->w->state = VM_W_DONE;
}

/* Then on with warp nw in its run's code `body` (BAR_NEXT), or, without one,
 * back to exec.c's `left:` (VM_JIT_DONE). */
static int on_or_done(vm_jit_ctx *c, vm_warp *nw, const void *body) {
    if (body) return run_on(c, nw, body);
    c->fault |= VM_JIT_DONE;
    return BAR_DONE;
}

static int run_bar_exit(vm_jit_ctx *c, const vm_insn *last) {
    vm_warp *w = c->w;
    vm_cta *cta = c->cta;
    const vm_frame *f = &w->frames[0];
    if (c->fault & VM_JIT_HELD || cta->san || w->blocked || w->depth != 1 ||
        (f->lanes & ~f->done & ~w->exited) != VM_FULL)
        return BAR_LEAVE;
    leave_warp(c, last);
    if (cta->bars_open) vm_bar_exits(cta, VM_LANES);
    /* the last warp hands over to the first, which its exit may have
     * released: the next round would begin with it (sched.c cta_round) */
    vm_warp *nw = w->id + 1 < cta->nwarps ? w + 1 : cta->warps;
    const void *body = NULL;
    if (!atomic_load_explicit(&cta->grid->stop, memory_order_relaxed)) body = next_body(c, nw);
    if (body) vm_pass_frame(w, nw);
    return on_or_done(c, nw, body);
}

/* After run_bar or run_bar_exit returned BAR_NEXT: rbx := the next warp's
 * frame, into its run's code. */
static void bar_go(cbuf *b) {
    gop(b, true, 0x8b, FB, M(CTX, (int64_t)offsetof(vm_jit_ctx, fr)));
    gop(b, true, 0x8b, FB, M(FB, (int64_t)offsetof(vm_frame, fb)));
    gop(b, false, 0xff, 4, M(CTX, (int64_t)offsetof(vm_jit_ctx, go))); /* jmp [go] */
}

/* Calls fn(c, arg) (run_bar_exit, run_next_cta): BAR_NEXT goes on in the
 * next warp's code (bar_go), BAR_DONE returns `done` to exec.c, anything
 * else goes on here with the registers a call keeps (rbx, r12, r13). */
static void call_on(jc *j, int (*fn)(vm_jit_ctx *, const vm_insn *), const vm_insn *arg, const vm_insn *done) {
    cbuf *b = j->b;
    gop(b, true, 0x89, CTX, R(RDI)); /* mov rdi, r12 */
    mov_imm64(b, RSI, (uint64_t)(uintptr_t)arg);
    mov_imm64(b, RAX, (uint64_t)(uintptr_t)fn);
    uint8_t call[5] = {0xff, 0xd0, 0x83, 0xf8, BAR_NEXT}; /* call rax; cmp eax, BAR_NEXT */
    put(b, call, 5);
    size_t other = jcc(b, 0x85);
    bar_go(b);
    land(b, other);
    uint8_t c3[3] = {0x83, 0xf8, BAR_DONE}; /* cmp eax, BAR_DONE */
    put(b, c3, 3);
    size_t leave = jcc(b, 0x85);
    ret_with(b, (uint64_t)(uintptr_t)done);
    land(b, leave);
}

/* The CTA's last warp reaching the kernel's ret whole, in hand_over (last
 * its last record before the ret): when the worker would start the next CTA
 * in this slot and run it alone (sched.c vm_cta_follows), the warp is
 * counted and done as hand_over does it, the next CTA starts, and its first
 * warp goes on in compiled code (BAR_NEXT). That warp enters the run after
 * the prologue, where the first warp of every CTA of the slot but the first
 * starts (sched.c init_cta: a reused frame, whole warps); so when that
 * record is a compiled run's with a body, as c->head's, it can. No CTA left
 * (or out of memory): BAR_DONE, at exec.c's `left:`. */
static int run_next_cta(vm_jit_ctx *c, const vm_insn *last) {
    vm_warp *w = c->w;
    vm_cta *cta = c->cta;
    const vm_func *k = w->frames[0].fn;
    const vm_insn *pc = &k->code[k->nhoist];
    const vm_warp *w0 = cta->warps;
    if (c->fault & VM_JIT_HELD || w->depth != 1 || w0->present != VM_FULL || !w0->depth || w0->frames[0].fn != k ||
        pc->h != c->head->h || !((const vm_jit_region *)(const void *)pc->target)->body || !vm_cta_follows(cta, w))
        return BAR_LEAVE;
    leave_warp(c, last);
    vm_warp *nw = vm_next_cta(cta);
    return on_or_done(c, nw, nw ? next_body(c, nw) : NULL);
}

static void next_cta(jc *j, uint32_t last) {
    const vm_insn *x = &j->f->code[last];
    call_on(j, run_next_cta, x, x);
}

/* The way out after bar.sync at record at, when there is one (exit_after_bar). */
static void bar_exit(jc *j, uint32_t at) {
    uint32_t e = exit_after_bar(j, at);
    if (!e) return;
    cbuf *b = j->b;
    const vm_insn *x = &j->f->code[e];
    for (uint32_t r = at + 1; r < e; r++) {
        j->now = r;
        emit(j, &j->f->code[r]);
    }
    j->now = e;
    size_t stay = 0;
    if (guarded(j, x)) {
        exec_edx(j, x);
        all_lanes(j);
        stay = jcc(b, 0x85);
    }
    const vm_insn *last = x->op == VM_BRA ? x : x - 1;
    hand_over(j, (uint32_t)(last - j->f->code));
    call_on(j, run_bar_exit, last, x);
    if (stay) land(b, stay);
    j->now = at;
    cache_reset(j);
}

/* bar.sync (bar_sync's record): run_bar's outcomes as the header says;
 * false for a record it does not take, which ends the run. */
static bool bar_sync(jc *j, const vm_insn *i) {
    if (i->op != VM_BAR || i->x & (VM_BAR_COUNTED | VM_BAR_ARRIVE_ONLY) || !(i->g == j->f->true_slot && i->gx == 0) ||
        j->depth > j->base)
        return false;
    cbuf *b = j->b;
    flush(j, j->now, true);
    if (j->base) { /* a masked version: the handler's */
        ret_with(b, (uint64_t)(uintptr_t)i);
        return true;
    }
    bar_exit(j, j->now);
    gop(b, true, 0x89, CTX, R(RDI)); /* mov rdi, r12 */
    mov_imm64(b, RSI, (uint64_t)(uintptr_t)i);
    mov_imm64(b, RAX, (uint64_t)(uintptr_t)run_bar);
    uint8_t call[4] = {0xff, 0xd0, 0x85, 0xc0}; /* call rax; test eax, eax */
    put(b, call, 4);
    size_t on = jcc(b, 0x84);
    uint8_t c3[3] = {0x83, 0xf8, BAR_NEXT}; /* cmp eax, BAR_NEXT */
    put(b, c3, 3);
    size_t leave = jcc(b, 0x85);
    bar_go(b);
    land(b, leave);
    ret_with(b, (uint64_t)(uintptr_t)i);
    land(b, on);
    j->nan_ok = false;
    return true;
}
