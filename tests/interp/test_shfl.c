/* test_shfl.c — shfl.sync of a converged warp with the full member mask (the
 * fast path of collectives.c) against the PTX ISA's definition: every mode,
 * every lane delta, clamps 0 and 31, with the predicate output; and with the
 * lane operand, clamp and member mask known when compiling (constants, or
 * registers a mov set earlier in the same straight code), every mode with
 * several lanes, clamps and segment masks, the JIT on and off. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../run_kernel.h"
#include "ptxi.h"

/* out[(mode*32 + delta)*32 + lane] = value | pred << 31, value = source lane + 100 */
static const char *SRC =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<12>;\n.reg .b64 %rd<4>;\n.reg .pred %p<2>;\n"
    "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nadd.u32 %r2, %r1, 100;\nmov.u32 %r3, 0;\n"
    "LOOP:\n"
    "shfl.sync.up.b32 %r4|%p1, %r2, %r3, 0, -1;\nselp.u32 %r5, 0x80000000, 0, %p1;\nor.b32 %r4, %r4, %r5;\n"
    "mad.lo.u32 %r6, %r3, 32, %r1;\nmul.wide.u32 %rd2, %r6, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r4;\n"
    "shfl.sync.down.b32 %r4|%p1, %r2, %r3, 31, -1;\nselp.u32 %r5, 0x80000000, 0, %p1;\nor.b32 %r4, %r4, %r5;\n"
    "st.global.u32 [%rd3+4096], %r4;\n"
    "shfl.sync.bfly.b32 %r4|%p1, %r2, %r3, 31, -1;\nselp.u32 %r5, 0x80000000, 0, %p1;\nor.b32 %r4, %r4, %r5;\n"
    "st.global.u32 [%rd3+8192], %r4;\n"
    "shfl.sync.idx.b32 %r4|%p1, %r2, %r3, 31, -1;\nselp.u32 %r5, 0x80000000, 0, %p1;\nor.b32 %r4, %r4, %r5;\n"
    "st.global.u32 [%rd3+12288], %r4;\n"
    "add.u32 %r3, %r3, 1;\nsetp.lt.u32 %p0, %r3, 32;\n@%p0 bra LOOP;\nret;\n}\n";

/* Runs kernel 0 of src on one CTA of `threads` with an n-byte buffer filled
 * with `fill` as its parameter, and copies the buffer to out. */
static void run(const char *src, unsigned threads, void *out, size_t n, uint8_t fill) {
    ptxi_ctx *ctx;
    cr_assert_eq(ptxi_ctx_create(&ctx, NULL), PTXI_SUCCESS);
    ptxi_module *m;
    cr_assert_eq(ptxi_module_load_data(ctx, src, strlen(src), "shfl.ptx", &m), PTXI_SUCCESS, "%s",
                 ptxi_ctx_error_detail(ctx));
    ptxi_dptr d;
    cr_assert_eq(ptxi_mem_alloc(ctx, n, &d), PTXI_SUCCESS);
    cr_assert_eq(ptxi_memset_d8(ctx, d, fill, n), PTXI_SUCCESS);
    void *args[] = {&d};
    cr_assert_eq(
        ptxi_launch(ptxi_module_kernel_at(m, 0), (ptxi_dim3){1, 1, 1}, (ptxi_dim3){threads, 1, 1}, 0, NULL, args),
        PTXI_SUCCESS, "%s", ptxi_ctx_error_detail(ctx));
    ptxi_memcpy_dtoh(ctx, out, d, n);
    ptxi_ctx_destroy(ctx);
}

Test(shfl, full_warp_every_mode_and_delta) {
    static uint32_t got[4][32][32];
    run(SRC, 32, got, sizeof got, 0);
    for (int mode = 0; mode < 4; mode++)
        for (int b = 0; b < 32; b++)
            for (int l = 0; l < 32; l++) {
                int j;
                bool ok;
                /* the PTX ISA's pseudocode with c = 0 (up) or 31 (others), no segments */
                if (mode == 0) j = l - b, ok = j >= 0;
                else if (mode == 1) j = l + b, ok = j <= 31;
                else if (mode == 2) j = l ^ b, ok = j <= 31;
                else j = b, ok = j <= 31;
                uint32_t want = (uint32_t)((ok ? j : l) + 100) | (uint32_t)ok << 31;
                cr_assert_eq(got[mode][b][l], want, "mode %d delta %d lane %d: 0x%x, want 0x%x", mode, b, l,
                             got[mode][b][l], want);
            }
}

/* Blocks of 56 threads: warp 1 has 24 lanes, and its lanes 16-23 exit before
 * the collectives. Lanes that do not exist or have exited count as exited: the
 * full-mask shfl and ballot run without them, and a shfl that reads one of them
 * gets 0 (measured on an H100: gpu/jobs/fidelity/recorded/warp_probe.*). */
static const char *GONE =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.reg .pred %p<2>;\n"
    "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nadd.u32 %r2, %r1, 100;\n"
    "setp.ge.u32 %p0, %r1, 48;\n@%p0 exit;\n"
    "shfl.sync.down.b32 %r3, %r2, 4, 31, -1;\nand.b32 %r4, %r1, 1;\nsetp.ne.u32 %p1, %r4, 0;\n"
    "vote.sync.ballot.b32 %r5, %p1, -1;\n"
    "mul.wide.u32 %rd2, %r1, 8;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.v2.u32 [%rd3], {%r3, %r5};\nret;\n}\n";

Test(shfl, exited_and_missing_lanes_read_zero) {
    uint32_t got[56][2];
    run(GONE, 56, got, sizeof got, 0xee);
    for (int t = 0; t < 56; t++) {
        int l = t % 32, src = l + 4, warp_lanes = t < 32 ? 32 : 16; /* lanes alive in the warp */
        uint32_t want = src > 31 ? (uint32_t)t + 100 : src < warp_lanes ? (uint32_t)(t + 4) + 100 : 0;
        uint32_t ballot = warp_lanes == 32 ? 0xaaaaaaaau : 0x0000aaaau;
        if (t >= 48) want = ballot = 0xeeeeeeeeu; /* exited before storing */
        cr_assert_eq(got[t][0], want, "thread %d: shfl read 0x%x, want 0x%x", t, got[t][0], want);
        cr_assert_eq(got[t][1], ballot, "thread %d: ballot 0x%x, want 0x%x", t, got[t][1], ballot);
    }
}

/* The PTX ISA's shfl.sync for one lane: d := v[j], *pval whether lane j was
 * in range (else j = lane). */
static uint32_t isa_shfl(int mode, int lane, uint32_t b, uint32_t c, const uint32_t *v, bool *pval) {
    int bval = (int)(b & 0x1f), cval = (int)(c & 0x1f), segmask = (int)(c >> 8 & 0x1f);
    int maxlane = (lane & segmask) | (cval & ~segmask), minlane = lane & segmask, j;
    switch (mode) {
    case 0: j = lane - bval, *pval = j >= maxlane; break; /* up */
    case 1: j = lane + bval, *pval = j <= maxlane; break; /* down */
    case 2: j = lane ^ bval, *pval = j <= maxlane; break; /* bfly */
    default: j = minlane | (bval & ~segmask), *pval = j <= maxlane; break;
    }
    return v[*pval ? j : lane];
}

/* One shuffle per case and form, in straight code; each stores its value
 * and predicate (as 0/1) at out[2 * (case * FORMS + form) (+1)][lane].
 * Forms: 0: b, c and the mask in registers set by mov just before (reduce's
 * trees), 1: immediates (no predicate output: the word keeps 7), 2: as 0
 * under a guard every lane passes, 3: as 0 with a branch over it that no
 * lane takes (each case a run of its own), 4: b and c made different in
 * each lane after their mov (b + lane, c ^ (lane & 1)): the handler's
 * general path, not the constants. */
enum { FORMS = 5, NB = 10, NC = 8, NCASE = 4 * NB * NC };
static const uint32_t KB[NB] = {0, 1, 2, 3, 7, 8, 16, 17, 31, 33};
static const char *const MODE[4] = {"up", "down", "bfly", "idx"};

static uint32_t kc(int mode, int k) {
    static const uint32_t odd[3] = {15, 0x0a13, 0x7fff003f}; /* a clamp, segments and clamp, bits above ignored */
    if (k < 5) return (uint32_t)(32 - (32 >> k)) << 8 | (mode ? 31u : 0u); /* widths 32, 16, 8, 4, 2 */
    return odd[k - 5];
}

static uint32_t value_of(int lane) { return (uint32_t)lane * 0x9e3779b1u ^ 0x5bd1e995u; }

static char *konst_src(void) {
    size_t cap = 1u << 20, n = 0;
    char *s = malloc(cap);
    cr_assert_not_null(s);
    n += (size_t)snprintf(s + n, cap - n,
                          ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n.reg .b32 %%r<16>;\n"
                          ".reg .b64 %%rd<4>;\n.reg .pred %%p<4>;\nld.param.u64 %%rd1, [out];\nmov.u32 %%r1, %%tid.x;\n"
                          "mul.lo.u32 %%r2, %%r1, 0x9e3779b1;\nxor.b32 %%r2, %%r2, 0x5bd1e995;\n"
                          "mul.wide.u32 %%rd2, %%r1, 4;\nadd.s64 %%rd3, %%rd1, %%rd2;\nsetp.lt.u32 %%p2, %%r1, 32;\n"
                          "setp.ge.u32 %%p3, %%r1, 32;\n"
                          "and.b32 %%r9, %%r1, 1;\n");
    for (int form = 0; form < FORMS; form++) /* form 4 last: its first shuffle leaves the compiled code */
        for (int mode = 0; mode < 4; mode++)
            for (int bi = 0; bi < NB; bi++)
                for (int ci = 0; ci < NC; ci++) {
                    uint32_t b = KB[bi], c = kc(mode, ci), at = (uint32_t)((((mode * NB + bi) * NC + ci) * FORMS + form) * 256);
                    const char *m = MODE[mode];
                    if (form == 3) n += (size_t)snprintf(s + n, cap - n, "@%%p3 bra SKIP%u;\n", at);
                    if (form == 1)
                        n += (size_t)snprintf(s + n, cap - n, "mov.u32 %%r8, 7;\nshfl.sync.%s.b32 %%r4, %%r2, %u, %u, -1;\n",
                                              m, b, c);
                    else {
                        n += (size_t)snprintf(s + n, cap - n, "mov.u32 %%r5, %u;\nmov.u32 %%r6, %u;\nmov.u32 %%r7, -1;\n", b, c);
                        if (form == 4)
                            n += (size_t)snprintf(s + n, cap - n, "add.u32 %%r5, %%r5, %%r1;\nxor.b32 %%r6, %%r6, %%r9;\n");
                        n += (size_t)snprintf(s + n, cap - n, "%sshfl.sync.%s.b32 %%r4|%%p1, %%r2, %%r5, %%r6, %%r7;\n"
                                              "selp.u32 %%r8, 1, 0, %%p1;\n", form == 2 ? "@%p2 " : "", m);
                    }
                    n += (size_t)snprintf(s + n, cap - n, "st.global.u32 [%%rd3+%u], %%r4;\nst.global.u32 [%%rd3+%u], %%r8;\n",
                                          at, at + 128);
                    if (form == 3) n += (size_t)snprintf(s + n, cap - n, "SKIP%u:\n", at);
                    cr_assert_lt(n, cap - 512);
                }
    snprintf(s + n, cap - n, "ret;\n}\n");
    return s;
}

static void konst_check(const char *jit) {
    char *src = konst_src(), rep[1024];
    size_t n = (size_t)NCASE * FORMS * 2 * 32 * 4;
    uint32_t *got = malloc(n), v[32];
    cr_assert_not_null(got);
    for (int l = 0; l < 32; l++) v[l] = value_of(l);
    ptxi_launch_stats st;
    ptxi_status s = run_io_jit(jit, src, 32, NULL, 0, got, n, rep, sizeof rep, &st);
    cr_assert_eq(s, PTXI_SUCCESS, "PTXI_JIT=%s: %s", jit, rep);
    if (jit[0] == '1') /* the stretch ran compiled (where a JIT exists: not in the switch-dispatch build) */
        cr_assert(!st.jit_warp_insns || 2 * st.jit_warp_insns > st.warp_insns, "compiled %llu of %llu warp instructions",
                  (unsigned long long)st.jit_warp_insns, (unsigned long long)st.warp_insns);
    else
        cr_assert_eq(st.jit_warp_insns, 0);
    for (int mode = 0; mode < 4; mode++)
        for (int bi = 0; bi < NB; bi++)
            for (int ci = 0; ci < NC; ci++)
                for (int form = 0; form < FORMS; form++) {
                    const uint32_t *o = got + (((mode * NB + bi) * NC + ci) * FORMS + form) * 64;
                    for (int l = 0; l < 32; l++) {
                        bool pv;
                        uint32_t b = KB[bi] + (form == 4 ? (uint32_t)l : 0), c = kc(mode, ci) ^ (form == 4 ? (uint32_t)l & 1 : 0);
                        uint32_t want = isa_shfl(mode, l, b, c, v, &pv), wp = form == 1 ? 7 : pv;
                        cr_assert(o[l] == want && o[32 + l] == wp,
                                  "PTXI_JIT=%s: shfl.sync.%s b %u c 0x%x form %d lane %d: 0x%08x pred %u, want 0x%08x pred %u",
                                  jit, MODE[mode], b, c, form, l, o[l], o[32 + l], want, wp);
                    }
                }
    free(got);
    free(src);
}

Test(shfl, constant_operands_jit_on) { konst_check("1"); }
Test(shfl, constant_operands_jit_off) { konst_check("0"); }
