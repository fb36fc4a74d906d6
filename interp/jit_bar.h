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
static const void *next_body(const vm_jit_ctx *c) {
    const vm_warp *w = c->w;
    if (w->id + 1 >= c->cta->nwarps) return NULL;
    const vm_warp *nw = w + 1;
    const vm_insn *pc = nw->pc;
    if (nw->state != VM_W_READY || nw->sleep_until || nw->mask != VM_FULL ||
        nw->lpc_stop != (const vm_insn *)UINTPTR_MAX || nw->depth != 1 || pc->h != c->head->h)
        return NULL;
    return ((const vm_jit_region *)(const void *)pc->target)->body;
}

static int run_bar(vm_jit_ctx *c, const vm_insn *i) {
    vm_warp *w = c->w;
    vm_cta *cta = c->cta;
    if (c->fault & (VM_JIT_FAULT | VM_JIT_SPLIT | VM_JIT_NOCHAIN)) return BAR_LEAVE;
    w->pc = i, w->mask = VM_FULL;
    int r = vm_bar_sync_whole(w, i, VM_FULL);
    if (r < 0) return BAR_LEAVE;
    if (r > 0) { /* on after the barrier; its record is the handler's */
        cta->jit_warp_insns--;
        return BAR_ON;
    }
    /* the warp waits: counted through the barrier, as exec.c counts a run
     * that stops at it and then the handler */
    uint64_t n = (uint64_t)(i + 1 - c->seg), wa = (uint64_t)c->wadj, ta = (uint64_t)c->tadj;
    cta->warp_insns += n - wa;
    cta->thread_insns += n * VM_LANES - ta;
    w->clock += n - wa;
    cta->jit_warp_insns += (uint64_t)(i - c->head) - wa;
    const void *body = NULL;
    if (!atomic_load_explicit(&cta->grid->stop, memory_order_relaxed) && w->exited == cta->ran_exited)
        body = next_body(c);
    if (!body) {
        c->fault |= VM_JIT_WAITS;
        return BAR_WAITS;
    }
    vm_warp *nw = w + 1;
    cta->ran = nw;
    cta->ran_exited = nw->exited;
    c->w = nw, c->fr = &nw->frames[0];
    c->seg = c->head = nw->pc;
    c->wadj = c->tadj = 0;
    c->fault &= VM_JIT_ROUND; /* the rounds so far still come off the slice (exec.c) */
    c->go = body;
    return BAR_NEXT;
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
    gop(b, true, 0x89, CTX, R(RDI)); /* mov rdi, r12 */
    mov_imm64(b, RSI, (uint64_t)(uintptr_t)i);
    mov_imm64(b, RAX, (uint64_t)(uintptr_t)run_bar);
    uint8_t call[4] = {0xff, 0xd0, 0x85, 0xc0}; /* call rax; test eax, eax */
    put(b, call, 4);
    size_t on = jcc(b, 0x84);
    uint8_t c3[3] = {0x83, 0xf8, BAR_NEXT}; /* cmp eax, BAR_NEXT */
    put(b, c3, 3);
    size_t leave = jcc(b, 0x85);
    gop(b, true, 0x8b, FB, M(CTX, (int64_t)offsetof(vm_jit_ctx, fr))); /* rbx := the next warp's frame */
    gop(b, true, 0x8b, FB, M(FB, (int64_t)offsetof(vm_frame, fb)));
    gop(b, false, 0xff, 4, M(CTX, (int64_t)offsetof(vm_jit_ctx, go))); /* jmp [go] */
    land(b, leave);
    ret_with(b, (uint64_t)(uintptr_t)i);
    land(b, on);
    j->nan_ok = false;
    return true;
}
