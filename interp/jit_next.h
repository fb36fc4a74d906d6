/* jit_next.h — a warp that ends the kernel in compiled code hands over to
 * the CTA's next warp there; included by jit.c only, after chain().
 *
 * An elementwise kernel's warp runs one compiled run from the prologue's end
 * to its ret, and then went back to exec.c: the return, the RET handler,
 * its count, `left:` picking the CTA's next warp, the reload and the JIT
 * handler's set-up of the next call. That was a third of a small warp's
 * cost (stencil's 262144 warps at half scale: about 19 ns each of a warp
 * that computes nothing). A reduction's warps end the same way after their
 * barrier, most of them by a branch straight to the ret.
 *
 * Now the whole warp reaching an unguarded ret or exit of the kernel, at the
 * end of a run or by a forward branch every lane takes, does in compiled
 * code what exec.c would do, when exec.c would do exactly this:
 *  - no fault or split group is pending, and no lane waits anywhere
 *    (VM_JIT_NOCHAIN clear);
 *  - the CTA's next warp is ready, not asleep, with every lane and no
 *    waiting lane, in the kernel's frame, at the first record of a compiled
 *    run, and the grid was not stopped (`left:`'s conditions). When a
 *    barrier has arrivals, the finished warp's exit is taken off what it
 *    waits for (vm_bar_exits), as cta_round would (`left:` leaves that to
 *    it).
 * The finished warp is counted as exec.c counts it: the records from where
 * its count started (c->seg) through the last one it ran here and the ret,
 * less the skipped ones in wadj, tadj; the compiled share from the run it
 * entered (c->head). It is marked done, and the next warp becomes the
 * context's (cta->ran, w, fr, rbx, seg and head at its record; wadj, tadj
 * and fault cleared as the JIT handler leaves them, but VM_JIT_ROUND: the
 * loops' rounds come off the time slice, which the warps share as they do
 * in exec.c, from c->loops when exec.c gets back), then its run's code is
 * entered after its prologue (vm_jit_region.body). exec.c takes the warp it
 * gets back from the context. */

/* In hand_over, after the finished warp (rsi) is marked done: when the next
 * warp (rdx, its record in r10) has not run since its CTA started, it takes
 * the finished warp's entry frame (rbx) and gives it its own, and its new
 * frame's reset lines are copied from frame_init, as sched.c's
 * vm_pass_frame does (whose comment says why). Lines 63 and up (bit 63)
 * are left to it. Uses rax, rcx, r8 and zmm28. */
static void pass_frame(jc *j) {
    const vm_func *f = j->f;
    enum { R8 = 8, R10 = 10 };
    cbuf *b = j->b;
    if (f->reset_lines >> 63 & 1) return;
    mov_imm64(b, RAX, (uint64_t)(uintptr_t)&f->code[f->nhoist]);
    gop(b, true, 0x39, RAX, R(R10)); /* cmp r10, rax: at the prologue's end */
    size_t no = jcc(b, 0x85);
    gop(b, true, 0x81, 7, M(RDX, (int64_t)offsetof(vm_warp, clock))); /* cmp qword [clock], the prologue's count: nothing run */
    b32(b, vm_prologue_count(f));
    size_t ran = jcc(b, 0x85);
    gop(b, true, 0x8b, RCX, M(RDX, (int64_t)offsetof(vm_warp, frames)));
    gop(b, true, 0x8b, RAX, M(RCX, (int64_t)offsetof(vm_frame, fb)));
    gop(b, true, 0x89, FB, M(RCX, (int64_t)offsetof(vm_frame, fb)));
    gop(b, true, 0x8b, R8, M(CTX, (int64_t)offsetof(vm_jit_ctx, fr)));
    gop(b, true, 0x89, RAX, M(R8, (int64_t)offsetof(vm_frame, fb)));
    for (uint64_t r = f->reset_lines; r; r &= r - 1) {
        uint32_t off = (uint32_t)__builtin_ctzll(r) * 64;
        mov_imm64(b, RAX, (uint64_t)(uintptr_t)(f->frame_init + off));
        z(b, LD64, 28, 0, M(RAX, 0), 0);
        z(b, ST64, 28, 0, F(off), 0);
    }
    if (f->reset_cc) { /* the carry flag's lanes cleared */
        z(b, XORD, 28, 28, R(28), 0);
        z(b, ST64, 28, 0, F(f->frame_size - 4 * VM_LANES), 0);
        z(b, ST64, 28, 0, F(f->frame_size - 2 * VM_LANES), 0);
    }
    land(b, no);
    land(b, ran);
}

/* In hand_over, after the finished warp is marked done: when barriers have
 * arrivals, vm_bar_exits(cta, 32) (which may release one), rsi, rdi, rdx,
 * r10 and r11 kept. The common case is done here: one open barrier whose
 * live count is known, which this exit does not release (a block
 * reduction's warps but the first, leaving at their __syncthreads): its
 * count loses 32, as vm_bar_exits would take them, without the call (about
 * 40 instructions of a warp that runs 865). Uses rax, rcx, r8 and r9. */
static void bar_exits(cbuf *b) {
    enum { R8 = 8, R9 = 9 };
    gop(b, false, 0x8b, RAX, M(RDI, (int64_t)offsetof(vm_cta, bars_open))); /* mov eax, [bars_open] */
    gop(b, false, 0x85, RAX, R(RAX));                                       /* test eax, eax */
    size_t none = jcc(b, 0x84);
    gop(b, false, 0x8d, RCX, M(RAX, -1)); /* lea ecx, [rax - 1] */
    gop(b, false, 0x85, RAX, R(RCX));     /* test ecx, eax: more than one open */
    size_t call1 = jcc(b, 0x85);
    _Static_assert(sizeof(vm_barrier) == 20, "bars[b] at b * 5 * 4");
    uint8_t at[12] = {0xf3, 0x0f, 0xbc, 0xc8,  /* tzcnt ecx, eax */
                      0x48, 0x8d, 0x0c, 0x89,  /* lea rcx, [rcx + rcx * 4] */
                      0x4c, 0x8d, 0x84, 0x8f}; /* lea r8, [rdi + rcx * 4 + bars] */
    put(b, at, 12);
    b32(b, (uint32_t)offsetof(vm_cta, bars));
    gop(b, false, 0x8b, R9, M(R8, (int64_t)offsetof(vm_barrier, live))); /* mov r9d, [live] */
    gop(b, false, 0x83, 7, R(R9));                                       /* cmp r9d, 32: unknown (0) or all */
    b1(b, VM_LANES);
    size_t call2 = jcc(b, 0x86);   /* jbe */
    gop(b, false, 0x83, 5, R(R9)); /* sub r9d, 32 */
    b1(b, VM_LANES);
    /* what it then waits for (bar_need): expected, else the live count */
    gop(b, false, 0x8b, RAX, M(R8, (int64_t)offsetof(vm_barrier, expected)));
    gop(b, false, 0x85, RAX, R(RAX));
    size_t have = jcc(b, 0x85);
    gop(b, false, 0x89, R9, R(RAX)); /* mov eax, r9d */
    land(b, have);
    gop(b, false, 0x8b, RCX, M(R8, (int64_t)offsetof(vm_barrier, arrived)));
    gop(b, false, 0x85, RCX, R(RCX));
    size_t keep = jcc(b, 0x84);       /* no arrivals: nothing to release */
    gop(b, false, 0x39, RAX, R(RCX)); /* cmp ecx, eax */
    size_t call3 = jcc(b, 0x83);      /* jae: released, the call's */
    land(b, keep);
    gop(b, false, 0x89, R9, M(R8, (int64_t)offsetof(vm_barrier, live)));
    size_t done = jmp32(b);
    land(b, call1);
    land(b, call2);
    land(b, call3);
    /* push rsi, rdi, rdx, r10, r11 and r11 again: rsp stays 16-aligned */
    uint8_t push[9] = {0x56, 0x57, 0x52, 0x41, 0x52, 0x41, 0x53, 0x41, 0x53};
    put(b, push, 9);
    uint8_t esi[5] = {0xbe, VM_LANES, 0, 0, 0}; /* mov esi, 32 */
    put(b, esi, 5);
    mov_imm64(b, RAX, (uint64_t)(uintptr_t)vm_bar_exits);
    uint8_t call[2] = {0xff, 0xd0};
    put(b, call, 2);
    uint8_t pop[9] = {0x41, 0x5b, 0x41, 0x5b, 0x41, 0x5a, 0x5a, 0x5f, 0x5e};
    put(b, pop, 9);
    land(b, none);
    land(b, done);
}

static void next_cta(jc *j, uint32_t last);

static void hand_over(jc *j, uint32_t last) {
    const vm_func *f = j->f;
    _Static_assert(sizeof(vm_insn) == 64, "records counted by pointer difference");
    enum { R8 = 8, R9 = 9, R10 = 10, R11 = 11 };
    cbuf *b = j->b;
    size_t out[16];
    int no = 0;
#define CMPI(w64, op8, mem, imm)  \
    do {                          \
        gop(b, w64, op8, 7, mem); \
        b1(b, (uint8_t)(imm));    \
        out[no++] = jcc(b, 0x85); \
    } while (0)
    gop(b, false, 0xf6, 0, M(CTX, (int64_t)offsetof(vm_jit_ctx, fault))); /* test byte [fault], ... */
    b1(b, VM_JIT_HELD);
    out[no++] = jcc(b, 0x85);
    gop(b, true, 0x8b, RSI, M(CTX, (int64_t)offsetof(vm_jit_ctx, w)));   /* rsi := the warp */
    gop(b, true, 0x8b, RDI, M(CTX, (int64_t)offsetof(vm_jit_ctx, cta))); /* rdi := the cta */
    gop(b, false, 0x8b, RCX, M(RSI, (int64_t)offsetof(vm_warp, id)));
    gop(b, false, 0x8d, RCX, M(RCX, 1));                                 /* lea ecx, [rcx+1] */
    gop(b, false, 0x3b, RCX, M(RDI, (int64_t)offsetof(vm_cta, nwarps))); /* cmp ecx, [nwarps] */
    size_t lastw = jcc(b, 0x83);                                         /* jae: the last warp */
    gop(b, true, 0x8d, RDX, M(RSI, (int64_t)sizeof(vm_warp)));           /* rdx := the next warp */
    CMPI(false, 0x80, M(RDX, (int64_t)offsetof(vm_warp, state)), VM_W_READY);
    CMPI(true, 0x83, M(RDX, (int64_t)offsetof(vm_warp, sleep_until)), 0);
    gop(b, true, 0x8b, RCX, M(RDI, (int64_t)offsetof(vm_cta, grid)));
    CMPI(false, 0x83, M(RCX, (int64_t)offsetof(vm_grid, stop)), 0);
    CMPI(false, 0x83, M(RDX, (int64_t)offsetof(vm_warp, mask)), 0xff); /* -1 */
    CMPI(true, 0x83, M(RDX, (int64_t)offsetof(vm_warp, lpc_stop)), 0xff);
    CMPI(false, 0x83, M(RDX, (int64_t)offsetof(vm_warp, depth)), 1);
#undef CMPI
    /* r10 := the next warp's record, a run's first (its handler the JIT's); r11 := that run's code */
    gop(b, true, 0x8b, R10, M(RDX, (int64_t)offsetof(vm_warp, pc)));
    mov_imm64(b, RAX, (uint64_t)(uintptr_t)vm_handler_table()[VM_JIT]);
    gop(b, true, 0x39, RAX, M(R10, (int64_t)offsetof(vm_insn, h))); /* cmp [h], rax */
    out[no++] = jcc(b, 0x85);
    gop(b, true, 0x8b, R11, M(R10, (int64_t)offsetof(vm_insn, target)));
    gop(b, true, 0x8b, R11, M(R11, (int64_t)offsetof(vm_jit_region, body)));
    gop(b, true, 0x85, R11, R(R11)); /* test r11, r11 */
    out[no++] = jcc(b, 0x84);
    /* the finished warp's count: a = last + 1 - seg records (the ret makes one
     * more) less wadj, 32 a lane each less tadj; the compiled share last + 1 - head */
    mov_imm64(b, RAX, (uint64_t)(uintptr_t)&f->code[last + 1]);
    gop(b, true, 0x89, RAX, R(RCX));                                       /* mov rcx, rax */
    gop(b, true, 0x2b, RAX, M(CTX, (int64_t)offsetof(vm_jit_ctx, seg)));  /* sub rax, [seg] */
    gop(b, true, 0x2b, RCX, M(CTX, (int64_t)offsetof(vm_jit_ctx, head))); /* sub rcx, [head] */
    uint8_t sh[8] = {0x48, 0xc1, 0xe8, 6, 0x48, 0xc1, 0xe9, 6};             /* shr rax, 6; shr rcx, 6 */
    put(b, sh, 8);
    gop(b, true, 0x8b, R8, M(CTX, (int64_t)offsetof(vm_jit_ctx, wadj)));
    gop(b, true, 0x8b, R9, M(CTX, (int64_t)offsetof(vm_jit_ctx, tadj)));
    gop(b, true, 0x29, R8, R(RCX)); /* sub rcx, r8 */
    gop(b, true, 0x01, RCX, M(RDI, (int64_t)offsetof(vm_cta, jit_warp_insns)));
    gop(b, true, 0x8d, RCX, M(RAX, 1)); /* lea rcx, [rax+1] */
    gop(b, true, 0x29, R8, R(RCX));
    gop(b, true, 0x01, RCX, M(RDI, (int64_t)offsetof(vm_cta, warp_insns)));
    gop(b, true, 0x01, RCX, M(RSI, (int64_t)offsetof(vm_warp, clock)));
    gop(b, true, 0x8d, RCX, M(RAX, 1));
    uint8_t sh5[4] = {0x48, 0xc1, 0xe1, 5}; /* shl rcx, 5 */
    put(b, sh5, 4);
    gop(b, true, 0x29, R9, R(RCX));
    gop(b, true, 0x01, RCX, M(RDI, (int64_t)offsetof(vm_cta, thread_insns)));
    /* done: every lane exited (the whole warp ran the ret) */
    gop(b, false, 0xc7, 0, M(RSI, (int64_t)offsetof(vm_warp, exited)));
    b32(b, VM_FULL);
    gop(b, false, 0xc6, 0, M(RSI, (int64_t)offsetof(vm_warp, state)));
    b1(b, VM_W_DONE);
    bar_exits(b);
    pass_frame(j);
    /* the next warp runs: cta->ran, the context's warp, frame, count starts, rbx */
    gop(b, true, 0x89, RDX, M(RDI, (int64_t)offsetof(vm_cta, ran)));
    gop(b, false, 0x8b, RCX, M(RDX, (int64_t)offsetof(vm_warp, exited)));
    gop(b, false, 0x89, RCX, M(RDI, (int64_t)offsetof(vm_cta, ran_exited)));
    gop(b, true, 0x89, RDX, M(CTX, (int64_t)offsetof(vm_jit_ctx, w)));
    gop(b, true, 0x8b, RCX, M(RDX, (int64_t)offsetof(vm_warp, frames)));
    gop(b, true, 0x89, RCX, M(CTX, (int64_t)offsetof(vm_jit_ctx, fr)));
    gop(b, true, 0x8b, FB, M(RCX, (int64_t)offsetof(vm_frame, fb)));
    gop(b, true, 0x89, R10, M(CTX, (int64_t)offsetof(vm_jit_ctx, seg)));
    gop(b, true, 0x89, R10, M(CTX, (int64_t)offsetof(vm_jit_ctx, head)));
    uint8_t z[2] = {0x31, 0xc0}; /* xor eax, eax */
    put(b, z, 2);
    gop(b, true, 0x89, RAX, M(CTX, (int64_t)offsetof(vm_jit_ctx, wadj)));
    gop(b, true, 0x89, RAX, M(CTX, (int64_t)offsetof(vm_jit_ctx, tadj)));
    gop(b, false, 0x83, 4, M(CTX, (int64_t)offsetof(vm_jit_ctx, fault))); /* and dword [fault], ROUND */
    b1(b, VM_JIT_ROUND);
    gop(b, false, 0xff, 4, R(R11)); /* jmp r11 */
    land(b, lastw);
    next_cta(j, last);
    for (int k = 0; k < no; k++) land(b, out[k]);
}

/* Whether record t is an unguarded ret or exit of a kernel, reached here by
 * the whole warp in its own code (not a masked version, a body or a dry
 * run). */
static bool ends_kernel(const jc *j, uint32_t t) {
    const vm_func *f = j->f;
    const vm_insn *x = &f->code[t];
    return j->chain_to && !j->base && !j->depth && !j->rmask && f->ir->is_entry && t < f->ncode &&
           (x->op == VM_RET || x->op == VM_EXIT) && x->g == f->true_slot && x->gx == 0;
}
