/* jit_half.h — compiled whole-warp ld/st.global.b32 whose halves are two
 * runs apart: lanes 0-15 16 consecutive words at one address, lanes 16-31
 * at another (a 16x16 tile's two rows of a row-major matrix, `A[row * n +
 * t + tx]` with a warp of a 16-wide block). Included by jit.c only, after
 * arena_span and jit_addr.h (run_test, run4_put); mem4 jumps here when lanes 0-15 are one run from lane 0's
 * address but lanes 16-31 are not its continuation.
 *
 * Each half is checked as exec.c's ldg4_half / vm_stg4_full check it: lanes
 * 16-31 one run from lane 16's address, that address aligned, and each
 * half's 64 bytes accepted by vm_arena_ok (arena_span: the reserve and the
 * shadow of both ends' granules, for a store none read-only). Anything else
 * (lanes scattered, a bad granule) calls run_mem, whose path reports the
 * first bad lane. A store writes lanes 0-15 first, so where the halves
 * overlap the higher lanes' words stay, as the call's path leaves them. */

/* Lanes 16-31 of a 64-bit register as the parts of a register of 16 lanes. */
static centry upper_lanes(const centry *a) {
    centry hi = *a;
    hi.z[0] = a->z[2], hi.z[1] = a->z[3];
    return hi;
}

/* mem4's lane test of an unguarded global access (ZQ: lane 0's address in
 * every lane, rcx: iota4): lanes 0-15 off the run from lane 0 jump to the
 * call (slow), lanes 16-31 off its continuation to half_runs (h). */
static void half_test(jc *j, const centry *a, size_t *slow, int *ns, size_t *h, int *nh) {
    centry hi = upper_lanes(a);
    run_test(j, a, 2, false, NULL, slow, ns);
    mov_imm64(j->b, RCX, (uint64_t)(uintptr_t)(iota4 + 16));
    run_test(j, &hi, 2, false, NULL, h, nh);
}

/* Lanes 16-31's run at r8 (their address + imm); on entry rax is lanes
 * 0-15's, aligned and their run tested. told: the flag of jit_addr.h that
 * this access sets (-1: none), 0 here (the lanes are not one run). Returns
 * the jump past the call; the tests' jumps to the call go to slow. */
static size_t half_runs(jc *j, const vm_insn *i, bool st, const centry *a, int told, size_t *slow, int *ns) {
    cbuf *b = j->b;
    enum { R8 = 8 };
    centry hi = upper_lanes(a);
    evexl(b, 0, M0F, P66, 1, 0x7e, a->z[2], 0, R(R8), 0); /* vmovq r8, xmm: lane 16's address */
    z(b, BCQ_X, ZQ, 0, R(a->z[2]), 0);
    mov_imm64(b, RCX, (uint64_t)(uintptr_t)iota4);
    run_test(j, &hi, 2, false, NULL, slow, ns);
    uint8_t addi[3] = {0x49, 0x81, 0xc0}; /* add r8, imm32 */
    put(b, addi, 3);
    b32(b, (uint32_t)(int32_t)i->imm);
    uint8_t tst[4] = {0x41, 0xf6, 0xc0, 0x03}; /* test r8b, 3 */
    put(b, tst, 4);
    slow[(*ns)++] = jcc(b, 0x85);
    arena_span(j, 64, st, slow, ns);
    uint8_t xchg[3] = {0x49, 0x87, 0xc0}; /* xchg r8, rax */
    put(b, xchg, 3);
    arena_span(j, 64, st, slow, ns);
    put(b, xchg, 3);
    if (told >= 0) run4_put(j, told, 0);
    for (int p = 0; p < 2; p++) {
        rm at = M(p ? R8 : RAX, 0);
        if (st) z(b, ST32, src(j, i->b, false)->z[p], 0, at, 0);
        else z(b, LD32, ZT + p, 0, at, 0);
    }
    return jmp32(b);
}
