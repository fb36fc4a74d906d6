/* jit_lane.h — compiled st.global.b32 / st.shared.b32 run by one lane (the
 * `if (lane == 0) out[...] = s` of reductions: an if-converted body, or a
 * guard, that leaves one lane of the group), included by jit.c only, after
 * its encoder, register cache and mem4.
 *
 * mem4 tests the whole warp's 128-byte run against the window or the arena,
 * so one lane's word near the end of shared memory (warp_sum[warp] of the
 * last warps) or of an allocation calls run_mem, which stores the run's
 * cached registers and loads them back. Here the executing lane's address
 * and value are taken out of their zmm (vpermi2d/q by the lane number) and
 * that one word is checked as the handler checks it (vm_sh4_ok: aligned,
 * inside the window; vm_g4_ok: aligned, its granule accessible and not
 * read-only: arena_span of 4 bytes) and stored. Any other case (no lane or
 * several, a failed test) goes to mem4's code, which handles and reports
 * everything as before. */

static const zop PERMI2Q = {M0F38, P66, 1, 0x76};

/* dst := the 32-bit register e's value in lane ecx (0..31); clobbers ZX. */
static void lane_word(jc *j, const centry *e, int dst) {
    cbuf *b = j->b;
    z(b, BCD_R, ZX, 0, R(RCX), 0);
    z(b, PERMI2D, ZX, e->z[0], R(e->z[1]), 0);         /* ZX := {z0, z1}[lane] */
    evexl(b, 0, M0F, P66, 0, 0x7e, ZX, 0, R(dst), 0); /* vmovd dst, xmm */
}

/* A store (STS4 / STG4) with a guard or in a body: the one-lane path, then
 * mem4 for everything else. */
static void store_lanes(jc *j, const vm_insn *i, bool shared) {
    if (!guarded(j, i)) {
        mem4(j, i, true, shared);
        return;
    }
    enum { R8 = 8 };
    cbuf *b = j->b;
    /* what mem4 does first, so that both paths leave the cache alike */
    drop_dead(j);
    centry *a = src(j, i->a, !shared), *v = src(j, i->b, false);
    size_t x[16];
    int nx = 0;
    exec_edx(j, i);
    uint8_t one[7] = {0x85, 0xd2, 0x8d, 0x4a, 0xff, 0x85, 0xd1}; /* test edx, edx; lea ecx, [rdx-1]; test ecx, edx */
    put(b, one, 2);
    x[nx++] = jcc(b, 0x84); /* no lane */
    put(b, one + 2, 5);
    x[nx++] = jcc(b, 0x85); /* several */
    uint8_t tz[4] = {0xf3, 0x0f, 0xbc, 0xca}; /* tzcnt ecx, edx */
    put(b, tz, 4);
    lane_word(j, v, R8); /* r8d := the value */
    if (shared) {
        lane_word(j, a, RAX); /* eax := the address, + imm (32 bits, wrapping) */
        b1(b, 0x05);
        b32(b, (uint32_t)(int32_t)i->imm);
    } else {
        /* rax := lane ecx's 64-bit address: lanes 0-15 from {z0, z1}, 16-31 from {z2, z3} */
        z(b, BCQ_R, ZX, 0, R(RCX), 0);
        z(b, MOVA64, ZQ, 0, R(ZX), 0);
        z(b, PERMI2Q, ZX, a->z[0], R(a->z[1]), 0);
        z(b, PERMI2Q, ZQ, a->z[2], R(a->z[3]), 0);
        evexl(b, 0, M0F, P66, 1, 0x7e, ZX, 0, R(RAX), 0); /* vmovq rax, xmm */
        evexl(b, 0, M0F, P66, 1, 0x7e, ZQ, 0, R(RDX), 0); /* vmovq rdx, xmm */
        uint8_t sel[7] = {0x83, 0xf9, 16, 0x48, 0x0f, 0x43, 0xc2}; /* cmp ecx, 16; cmovae rax, rdx */
        put(b, sel, 7);
        uint8_t addi[2] = {0x48, 0x05}; /* add rax, imm32 */
        put(b, addi, 2);
        b32(b, (uint32_t)(int32_t)i->imm);
    }
    uint8_t tst[2] = {0xa8, 0x03}; /* test al, 3 */
    put(b, tst, 2);
    x[nx++] = jcc(b, 0x85);
    if (shared) {
        /* eax <= smem_size - 4 (vm_sh4_ok); rax += smem */
        gop(b, true, 0x8b, RSI, M(CTX, (int64_t)offsetof(vm_jit_ctx, cta)));
        gop(b, false, 0x8b, RCX, M(RSI, (int64_t)offsetof(vm_cta, smem_size)));
        uint8_t sub4[3] = {0x83, 0xe9, 4}; /* sub ecx, 4 */
        put(b, sub4, 3);
        x[nx++] = jcc(b, 0x82);               /* jb: no word fits */
        gop(b, false, 0x39, RCX, R(RAX));     /* cmp eax, ecx */
        x[nx++] = jcc(b, 0x87);               /* ja */
        gop(b, true, 0x03, RAX, M(RSI, (int64_t)offsetof(vm_cta, smem)));
    } else arena_span(j, 4, true, x, &nx);
    gop(b, false, 0x89, R8, M(RAX, 0)); /* mov [rax], r8d */
    size_t done = jmp32(b);
    for (int k = 0; k < nx; k++) land(b, x[k]);
    mem4(j, i, true, shared);
    land(b, done);
}
