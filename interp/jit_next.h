/* jit_next.h — a warp that ends the kernel in compiled code hands over to
 * the CTA's next warp there; included by jit.c only, after chain().
 *
 * An elementwise kernel's warp runs one compiled run from the prologue's end
 * to its ret, and then went back to exec.c: the return, the RET handler,
 * its count, `left:` picking the CTA's next warp, the reload and the JIT
 * handler's set-up of the next call. That was a third of a small warp's
 * cost (stencil's 262144 warps at half scale: about 19 ns each of a warp
 * that computes nothing). A run that ends at an unguarded ret or exit of the
 * kernel now does in its own code what those would do, when they would do
 * exactly this:
 *  - the warp entered its first run at the prologue's end (run R0, the one
 *    that starts there, not a loop's) and its count starts there (exec.c
 *    passes c->seg only then), no fault, split group or loop round is
 *    pending, and no lane waits anywhere (VM_JIT_NOCHAIN clear);
 *  - the CTA's next warp is ready, not asleep, at R0 with every lane and no
 *    waiting lane, in the kernel's frame; no barrier has arrivals and the
 *    grid was not stopped (`left:`'s conditions).
 * The finished warp is counted as exec.c counts it (the run's records and
 * the ret, less the skipped ones in wadj, tadj), marked done, and the next
 * warp becomes the context's: cta->ran, w, fr, rbx, with wadj, tadj and
 * fault cleared as the JIT handler leaves them; then it jumps to R0's code
 * after its prologue, as a chained run does. exec.c takes the warp it gets
 * back from c->w. */

static void next_warp(jc *j, uint32_t e) {
    const vm_func *f = j->f;
    const vm_insn *x = &f->code[e];
    uint32_t r0 = f->nhoist;
    if (!j->chain_to || j->base || j->depth || !f->ir->is_entry || e >= f->ncode || r0 >= e || !j->chain_to[r0] ||
        (x->op != VM_RET && x->op != VM_EXIT) || !(x->g == f->true_slot && x->gx == 0))
        return;
    _Static_assert(sizeof(vm_insn) == 64, "records counted by pointer difference");
    enum { R8 = 8, R9 = 9 };
    cbuf *b = j->b;
    size_t out[16];
    int no = 0;
#define CMPI(w64, op8, mem, imm)           \
    do {                                   \
        gop(b, w64, op8, 7, mem);          \
        b1(b, (uint8_t)(imm));             \
        out[no++] = jcc(b, 0x85);          \
    } while (0)
    mov_imm64(b, RAX, (uint64_t)(uintptr_t)&f->code[r0]);
    gop(b, true, 0x39, RAX, M(CTX, (int64_t)offsetof(vm_jit_ctx, seg))); /* cmp [seg], rax */
    out[no++] = jcc(b, 0x85);
    gop(b, false, 0xf6, 0, M(CTX, (int64_t)offsetof(vm_jit_ctx, fault))); /* test byte [fault], ... */
    b1(b, VM_JIT_FAULT | VM_JIT_SPLIT | VM_JIT_ROUND | VM_JIT_NOCHAIN);
    out[no++] = jcc(b, 0x85);
    gop(b, true, 0x8b, RSI, M(CTX, (int64_t)offsetof(vm_jit_ctx, w)));   /* rsi := the warp */
    gop(b, true, 0x8b, RDI, M(CTX, (int64_t)offsetof(vm_jit_ctx, cta))); /* rdi := the cta */
    gop(b, false, 0x8b, RCX, M(RSI, (int64_t)offsetof(vm_warp, id)));
    gop(b, false, 0x8d, RCX, M(RCX, 1));                                 /* lea ecx, [rcx+1] */
    gop(b, false, 0x3b, RCX, M(RDI, (int64_t)offsetof(vm_cta, nwarps))); /* cmp ecx, [nwarps] */
    out[no++] = jcc(b, 0x83);                                            /* jae: the last warp */
    gop(b, true, 0x8d, RDX, M(RSI, (int64_t)sizeof(vm_warp)));           /* rdx := the next warp */
    CMPI(false, 0x80, M(RDX, (int64_t)offsetof(vm_warp, state)), VM_W_READY);
    CMPI(true, 0x83, M(RDX, (int64_t)offsetof(vm_warp, sleep_until)), 0);
    CMPI(false, 0x83, M(RDI, (int64_t)offsetof(vm_cta, bars_open)), 0);
    gop(b, true, 0x8b, RCX, M(RDI, (int64_t)offsetof(vm_cta, grid)));
    CMPI(false, 0x83, M(RCX, (int64_t)offsetof(vm_grid, stop)), 0);
    gop(b, true, 0x39, RAX, M(RDX, (int64_t)offsetof(vm_warp, pc))); /* cmp [pc], rax */
    out[no++] = jcc(b, 0x85);
    CMPI(false, 0x83, M(RDX, (int64_t)offsetof(vm_warp, mask)), 0xff); /* -1 */
    CMPI(true, 0x83, M(RDX, (int64_t)offsetof(vm_warp, lpc_stop)), 0xff);
    CMPI(false, 0x83, M(RDX, (int64_t)offsetof(vm_warp, depth)), 1);
#undef CMPI
    /* the finished warp's count: n = e + 1 - r0 records less wadj, n * 32 less tadj */
    uint32_t n = e + 1 - r0;
    gop(b, true, 0x8b, R8, M(CTX, (int64_t)offsetof(vm_jit_ctx, wadj)));
    gop(b, true, 0x8b, R9, M(CTX, (int64_t)offsetof(vm_jit_ctx, tadj)));
    b1(b, 0xb8), b32(b, n);                                                  /* mov eax, n */
    gop(b, true, 0x29, R8, R(RAX));                                          /* sub rax, r8 */
    gop(b, true, 0x01, RAX, M(RDI, (int64_t)offsetof(vm_cta, warp_insns))); /* add [warp_insns], rax */
    gop(b, true, 0x01, RAX, M(RSI, (int64_t)offsetof(vm_warp, clock)));     /* add [clock], rax */
    gop(b, true, 0x8d, RAX, M(RAX, -1));                                     /* the run's, less the ret */
    gop(b, true, 0x01, RAX, M(RDI, (int64_t)offsetof(vm_cta, jit_warp_insns)));
    b1(b, 0xb8), b32(b, n * VM_LANES); /* mov eax, n * 32 */
    gop(b, true, 0x29, R9, R(RAX));
    gop(b, true, 0x01, RAX, M(RDI, (int64_t)offsetof(vm_cta, thread_insns)));
    /* done: every lane exited (the whole warp ran the ret) */
    gop(b, false, 0xc7, 0, M(RSI, (int64_t)offsetof(vm_warp, exited)));
    b32(b, VM_FULL);
    gop(b, false, 0xc6, 0, M(RSI, (int64_t)offsetof(vm_warp, state)));
    b1(b, VM_W_DONE);
    /* the next warp runs: cta->ran, the context's warp and frame, rbx */
    gop(b, true, 0x89, RDX, M(RDI, (int64_t)offsetof(vm_cta, ran)));
    gop(b, false, 0x8b, RCX, M(RDX, (int64_t)offsetof(vm_warp, exited)));
    gop(b, false, 0x89, RCX, M(RDI, (int64_t)offsetof(vm_cta, ran_exited)));
    gop(b, true, 0x89, RDX, M(CTX, (int64_t)offsetof(vm_jit_ctx, w)));
    gop(b, true, 0x8b, RCX, M(RDX, (int64_t)offsetof(vm_warp, frames)));
    gop(b, true, 0x89, RCX, M(CTX, (int64_t)offsetof(vm_jit_ctx, fr)));
    gop(b, true, 0x8b, FB, M(RCX, (int64_t)offsetof(vm_frame, fb)));
    uint8_t z[2] = {0x31, 0xc0}; /* xor eax, eax */
    put(b, z, 2);
    gop(b, true, 0x89, RAX, M(CTX, (int64_t)offsetof(vm_jit_ctx, wadj)));
    gop(b, true, 0x89, RAX, M(CTX, (int64_t)offsetof(vm_jit_ctx, tadj)));
    gop(b, false, 0x89, RAX, M(CTX, (int64_t)offsetof(vm_jit_ctx, fault)));
    j->chain_at[j->nchain] = jmp32(b);
    j->chain_run[j->nchain++] = j->chain_to[r0] - 1;
    for (int k = 0; k < no; k++) land(b, out[k]);
}
