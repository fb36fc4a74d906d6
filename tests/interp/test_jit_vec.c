/* test_jit_vec.c — ld/st.global.v2/.v4 of 32-bit elements (Triton's masked
 * vector accesses), which compiled runs take inline when the whole warp's
 * lanes are one aligned run (interp/jit_vec.h), with the JIT on and off:
 * unguarded and guarded (every lane, some lanes), .b32 and .f32, lanes
 * apart or out of order (the call's path), values used again in the same
 * run; a run that leaves the allocation faults at its first bad lane and the
 * load's or store's line. The expected words come from C below. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../run_kernel.h"

#define NT 64    /* two warps, one CTA */
#define NIN 1024 /* input words */
/* output regions (words): A v4, B guarded v4, C v2, D permuted v4, E strided v2, F f32 v4, G sums */
enum { OA = 0, OB = 256, OC = 512, OD = 640, OE = 896, OF = 1152, OG = 1408, NOUT = 1664 };
#define SKIP_T 45 /* the thread whose guard is false: lane 13 of warp 1 */

static const char *SRC =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    ".reg .pred %p<4>;\n.reg .b32 %r<40>;\n.reg .f32 %f<8>;\n.reg .b64 %rd<24>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"
    "setp.ne.u32 %p1, %r1, 45;\n"
    "mul.wide.u32 %rd3, %r1, 16;\nadd.s64 %rd4, %rd2, %rd3;\n"
    "mul.wide.u32 %rd5, %r1, 8;\nadd.s64 %rd6, %rd2, %rd5;\n"
    "xor.b32 %r14, %r1, 1;\nmul.wide.u32 %rd7, %r14, 16;\nadd.s64 %rd8, %rd2, %rd7;\n"
    "mov.u32 %r2, 0x0;\nmov.u32 %r3, 0x0;\nmov.u32 %r4, 0x0;\nmov.u32 %r5, 0x0;\n"
    "ld.global.v4.b32 { %r2, %r3, %r4, %r5 }, [ %rd4 + 0 ];\n"
    "mov.u32 %r6, 0x0;\nmov.u32 %r7, 0x0;\nmov.u32 %r8, 0x0;\nmov.u32 %r9, 0x0;\n"
    "@%p1 ld.global.v4.b32 { %r6, %r7, %r8, %r9 }, [ %rd4 + 1024 ];\n"
    "ld.global.v2.b32 { %r10, %r11 }, [ %rd6 + 2048 ];\n"
    "ld.global.v2.b32 { %r12, %r13 }, [ %rd4 + 8 ];\n"
    "ld.global.v4.b32 { %r15, %r16, %r17, %r18 }, [ %rd8 + 0 ];\n"
    "ld.global.v4.f32 { %f1, %f2, %f3, %f4 }, [ %rd4 + 3072 ];\n"
    "add.s32 %r19, %r2, %r6;\nadd.s32 %r20, %r3, %r10;\nadd.s32 %r21, %r5, %r11;\nadd.s32 %r22, %r4, %r18;\n"
    "mul.wide.u32 %rd9, %r1, 16;\nadd.s64 %rd10, %rd1, %rd9;\n"
    "mul.wide.u32 %rd11, %r1, 8;\nadd.s64 %rd12, %rd1, %rd11;\n"
    "st.global.v4.b32 [ %rd10 + 0 ], { %r2, %r3, %r4, %r5 };\n"
    "@%p1 st.global.v4.b32 [ %rd10 + 1024 ], { %r6, %r7, %r8, %r9 };\n"
    "st.global.v2.b32 [ %rd12 + 2048 ], { %r10, %r11 };\n"
    "st.global.v4.b32 [ %rd10 + 2560 ], { %r15, %r16, %r17, %r18 };\n"
    "st.global.v2.b32 [ %rd10 + 3584 ], { %r12, %r13 };\n"
    "st.global.v4.f32 [ %rd10 + 4608 ], { %f1, %f2, %f3, %f4 };\n"
    "st.global.v2.b32 [ %rd12 + 5632 ], { %r19, %r20 };\n"
    "st.global.v2.b32 [ %rd12 + 6144 ], { %r21, %r22 };\n"
    "ret;\n}\n";

static void inputs(uint32_t in[NIN]) {
    uint32_t s = 2463534242u;
    for (int k = 0; k < NIN; k++) {
        s ^= s << 13, s ^= s >> 17, s ^= s << 5;
        in[k] = k % 37 == 5 ? 0x7fc00001u + (uint32_t)k : s; /* NaN payloads among them: moved, not computed */
    }
}

static void expected(const uint32_t in[NIN], uint32_t want[NOUT]) {
    memset(want, 0, NOUT * 4);
    for (int t = 0; t < NT; t++) {
        const uint32_t *a = in + 4 * t, *b = in + 256 + 4 * t, *c = in + 512 + 2 * t, *d = in + 4 * (t ^ 1);
        for (int k = 0; k < 4; k++) {
            want[OA + 4 * t + k] = a[k];
            want[OB + 4 * t + k] = t == SKIP_T ? 0 : b[k];
            want[OD + 4 * t + k] = d[k];
            want[OF + 4 * t + k] = in[768 + 4 * t + k];
        }
        want[OC + 2 * t] = c[0], want[OC + 2 * t + 1] = c[1];
        want[OE + 4 * t] = a[2], want[OE + 4 * t + 1] = a[3];
        want[OG + 2 * t] = a[0] + (t == SKIP_T ? 0 : b[0]);
        want[OG + 2 * t + 1] = a[1] + c[0];
        want[OG + 128 + 2 * t] = a[3] + c[1];
        want[OG + 128 + 2 * t + 1] = a[2] + d[3];
    }
}

static void run_mode(const char *jit, uint32_t *got, ptxi_launch_stats *st) {
    static uint32_t in[NIN];
    inputs(in);
    char rep[1024];
    ptxi_status s = run_io_jit(jit, SRC, NT, in, sizeof in, got, NOUT * 4, rep, sizeof rep, st);
    cr_assert_eq(s, PTXI_SUCCESS, "PTXI_JIT=%s: %s", jit, rep);
    static uint32_t want[NOUT];
    expected(in, want);
    for (int k = 0; k < NOUT; k++)
        cr_assert_eq(got[k], want[k], "PTXI_JIT=%s: word %d: 0x%08x, expected 0x%08x", jit, k, got[k], want[k]);
}

Test(jit_vec, vector_loads_and_stores) {
    static uint32_t on[NOUT], off[NOUT];
    ptxi_launch_stats son, soff;
    run_mode("1", on, &son);
    run_mode("0", off, &soff);
    cr_assert_eq(son.warp_insns, soff.warp_insns, "the counts do not depend on the JIT");
    cr_assert_eq(son.thread_insns, soff.thread_insns, "the counts do not depend on the JIT");
    cr_assert_eq(soff.jit_warp_insns, 0);
    if (jit_host()) /* every record but ret, in both warps */
        cr_assert_geq(son.jit_warp_insns + 2, son.warp_insns, "compiled %llu of %llu",
                      (unsigned long long)son.jit_warp_insns, (unsigned long long)son.warp_insns);
}

/* A whole-warp run that leaves the allocation: threads 48-63 (lanes 16-31 of
 * warp 1) read or write the unused granule after it. */
static const char *LDFAULT = ".version 8.0\n.target sm_90\n.address_size 64\n"
                             ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                             ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
                             "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"
                             "mul.wide.u32 %rd3, %r1, 16;\nadd.s64 %rd4, %rd2, %rd3;\n"
                             "ld.global.v4.b32 { %r2, %r3, %r4, %r5 }, [ %rd4 + 3328 ];\n"
                             "add.s32 %r6, %r2, %r5;\nmul.wide.u32 %rd5, %r1, 4;\nadd.s64 %rd6, %rd1, %rd5;\n"
                             "st.global.u32 [%rd6], %r6;\nret;\n}\n";
static const char *STFAULT = ".version 8.0\n.target sm_90\n.address_size 64\n"
                             ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                             ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
                             "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n"
                             "mul.wide.u32 %rd3, %r1, 8;\nadd.s64 %rd4, %rd1, %rd3;\nadd.s32 %r2, %r1, 7;\n"
                             "st.global.v2.b32 [ %rd4 + 5760 ], { %r1, %r2 };\n"
                             "ret;\n}\n";

/* One warp's run of 512 bytes over the output's last granule, the unused
 * one after it and the one after that (the input's first, or unused): lanes
 * 8-23 fall in the middle one. */
static const char *MIDFAULT = ".version 8.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                              ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
                              "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n"
                              "mul.wide.u32 %rd3, %r1, 16;\nadd.s64 %rd4, %rd1, %rd3;\nadd.s32 %r6, %r1, 1;\n"
                              "ld.global.v4.b32 { %r2, %r3, %r4, %r5 }, [ %rd4 + 6016 ];\n"
                              "add.s32 %r6, %r2, %r5;\nmul.wide.u32 %rd5, %r1, 4;\nadd.s64 %rd6, %rd1, %rd5;\n"
                              "st.global.u32 [%rd6], %r6;\nret;\n}\n";

static void fault_case(const char *src, unsigned nt, const char *jit, char *rep, size_t cap) {
    static uint32_t in[NIN], out[NOUT];
    ptxi_status s = run_io_jit(jit, src, nt, in, sizeof in, out, 6144, rep, cap, NULL);
    cr_assert_eq(s, PTXI_ILLEGAL_ADDRESS, "PTXI_JIT=%s: %s", jit, rep);
}

Test(jit_vec, a_run_past_the_allocation_faults_at_its_first_bad_lane) {
    const char *srcs[3] = {LDFAULT, STFAULT, MIDFAULT},
               *what[3] = {"global read of 16 bytes", "global write of 8 bytes", "global read of 16 bytes"},
               *thread[3] = {"thread (48,0,0)", "thread (48,0,0)", "thread (8,0,0)"};
    for (int k = 0; k < 3; k++) {
        char on[2048], off[2048];
        fault_case(srcs[k], k == 2 ? 32 : NT, "1", on, sizeof on);
        fault_case(srcs[k], k == 2 ? 32 : NT, "0", off, sizeof off);
        cr_assert(strstr(on, what[k]), "%s", on);
        cr_assert(strstr(on, "at w.ptx:13:1 in k"), "the access's line: %s", on);
        cr_assert(strstr(on, thread[k]), "the first bad lane: %s", on);
        cr_assert_str_eq(on, off, "with and without the JIT");
    }
}

/* ld.shared of a fixed address after a barrier (Triton's row total, read by
 * every lane): unguarded, guarded in every lane, guarded in all but thread
 * 40 (the call's path), and one past the window, which faults at lane 0. */
static const char *FIXED = ".version 8.0\n.target sm_90\n.address_size 64\n"
                           ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                           ".shared .align 4 .b32 sh[8];\n.reg .pred %p<4>;\n.reg .b32 %r<12>;\n.reg .f32 %f<2>;\n"
                           ".reg .b64 %rd<8>;\n"
                           "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"
                           "setp.lt.u32 %p1, %r1, 8;\nmul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\n"
                           "mov.u32 %r2, sh;\nshl.b32 %r3, %r1, 2;\nadd.s32 %r3, %r2, %r3;\n"
                           "@%p1 ld.global.u32 %r4, [%rd4];\n@%p1 st.shared.u32 [%r3], %r4;\nbar.sync 0;\n"
                           "setp.ne.u32 %p2, %r1, 40;\nsetp.lt.u32 %p3, %r1, 64;\nmov.u32 %r6, 7;\n"
                           "ld.shared.u32 %r5, [sh+12];\n@%p2 ld.shared.u32 %r6, [sh+20];\n"
                           "@%p3 ld.shared.f32 %f1, [sh+28];\nmov.b32 %r7, %f1;\nadd.s32 %r8, %r5, %r1;\n"
                           "mul.wide.u32 %rd5, %r1, 16;\nadd.s64 %rd6, %rd1, %rd5;\n"
                           "st.global.v4.b32 [%rd6], { %r5, %r6, %r7, %r8 };\n"
                           "ret;\n}\n";

Test(jit_vec, shared_load_of_a_fixed_address) {
    static uint32_t in[NIN], want[4 * NT];
    inputs(in);
    for (uint32_t t = 0; t < NT; t++) {
        want[4 * t] = in[3], want[4 * t + 1] = t == 40 ? 7 : in[5], want[4 * t + 2] = in[7];
        want[4 * t + 3] = in[3] + t;
    }
    const char *modes[2] = {"1", "0"};
    ptxi_launch_stats st[2];
    for (int m = 0; m < 2; m++) {
        static uint32_t got[4 * NT];
        char rep[1024];
        ptxi_status s = run_io_jit(modes[m], FIXED, NT, in, sizeof in, got, sizeof got, rep, sizeof rep, &st[m]);
        cr_assert_eq(s, PTXI_SUCCESS, "PTXI_JIT=%s: %s", modes[m], rep);
        for (int k = 0; k < 4 * NT; k++)
            cr_assert_eq(got[k], want[k], "PTXI_JIT=%s: word %d: 0x%08x, expected 0x%08x", modes[m], k, got[k],
                         want[k]);
    }
    cr_assert_eq(st[0].warp_insns, st[1].warp_insns, "the counts do not depend on the JIT");
    char on[2048], off[2048];
    const char *bad = ".version 8.0\n.target sm_90\n.address_size 64\n"
                      ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                      ".shared .align 4 .b32 sh[8];\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
                      "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\n"
                      "add.s64 %rd3, %rd1, %rd2;\nld.shared.u32 %r2, [sh+4096];\nadd.s32 %r3, %r2, %r1;\n"
                      "st.global.u32 [%rd3], %r3;\nret;\n}\n";
    for (int m = 0; m < 2; m++) {
        char *rep = m ? off : on;
        static uint32_t sink[NT];
        ptxi_status s = run_io_jit(modes[m], bad, NT, in, sizeof in, sink, sizeof sink, rep, sizeof on, NULL);
        cr_assert_eq(s, PTXI_ILLEGAL_INSTRUCTION, "PTXI_JIT=%s: %s", modes[m], rep);
    }
    cr_assert(strstr(on, "out-of-bounds shared read of 4 bytes at address 0x1000"), "%s", on);
    cr_assert(strstr(on, "thread (0,0,0)"), "%s", on);
    cr_assert_str_eq(on, off, "with and without the JIT");
}

/* A short forward branch around vector accesses (if-converted: the body runs
 * in the run for the lanes that stay): threads 0-4 skip it, so warp 0 runs
 * it split (the call's path), warp 1 whole (inline). */
static const char *BODY = ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                          ".reg .pred %p<4>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n"
                          "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"
                          "mul.wide.u32 %rd3, %r1, 16;\nadd.s64 %rd4, %rd2, %rd3;\nadd.s64 %rd5, %rd1, %rd3;\n"
                          "mov.u32 %r2, 1;\nmov.u32 %r3, 2;\nmov.u32 %r4, 3;\nmov.u32 %r5, 4;\n"
                          "setp.lt.u32 %p1, %r1, 5;\n@%p1 bra SKIP;\n"
                          "ld.global.v4.b32 { %r2, %r3, %r4, %r5 }, [ %rd4 + 0 ];\n"
                          "add.s32 %r2, %r2, %r1;\n"
                          "st.global.v2.b32 [ %rd5 + 1024 ], { %r2, %r3 };\n"
                          "SKIP:\n"
                          "st.global.v4.b32 [ %rd5 + 0 ], { %r2, %r3, %r4, %r5 };\n"
                          "ret;\n}\n";

Test(jit_vec, vector_accesses_in_a_branch_body) {
    static uint32_t in[NIN], want[512];
    inputs(in);
    memset(want, 0, sizeof want);
    for (uint32_t t = 0; t < NT; t++) {
        const uint32_t *a = in + 4 * t;
        uint32_t *o = want + 4 * t;
        if (t < 5) {
            o[0] = 1, o[1] = 2, o[2] = 3, o[3] = 4;
            continue;
        }
        o[0] = a[0] + t, o[1] = a[1], o[2] = a[2], o[3] = a[3];
        want[256 + 4 * t] = a[0] + t, want[256 + 4 * t + 1] = a[1];
    }
    const char *modes[2] = {"1", "0"};
    ptxi_launch_stats st[2];
    for (int m = 0; m < 2; m++) {
        static uint32_t got[512];
        char rep[1024];
        ptxi_status s = run_io_jit(modes[m], BODY, NT, in, sizeof in, got, sizeof got, rep, sizeof rep, &st[m]);
        cr_assert_eq(s, PTXI_SUCCESS, "PTXI_JIT=%s: %s", modes[m], rep);
        for (int k = 0; k < 512; k++)
            cr_assert_eq(got[k], want[k], "PTXI_JIT=%s: word %d: 0x%08x, expected 0x%08x", modes[m], k, got[k],
                         want[k]);
    }
    cr_assert_eq(st[0].warp_insns, st[1].warp_insns, "the counts do not depend on the JIT");
    cr_assert_eq(st[0].thread_insns, st[1].thread_insns, "the counts do not depend on the JIT");
}

/* ld/st.global.b32 of a whole warp whose halves are two runs apart, as a
 * 16-wide block's warp reads two rows of a tile (jit_half.h): thread t, row
 * (t / 16) ^ FLIP, column c = t % 16, loads the words at in + row * LRB +
 * c * (4 + row * LXS) + LOFF and 4 bytes after it (through the same
 * register: the second load reads what the first one's lane test found,
 * jit_addr.h) and stores their sum plus t at out + row * SRB + c * (4 + row
 * * SXS) + SOFF. XS = 0: each half one run; else the second half is not one
 * (the call's path). The expected words come from the same loop in C,
 * thread by thread: where two halves' stores overlap, the higher lane's
 * word stays, as the records' own path leaves it. */
typedef struct {
    int lrb, lxs, loff, srb, sxs, soff, flip;
} half_shape;

static void half_src(char *buf, size_t cap, half_shape h) {
    snprintf(buf, cap,
             ".version 8.0\n.target sm_90\n.address_size 64\n"
             ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
             ".reg .b32 %%r<16>;\n.reg .b64 %%rd<8>;\n"
             "ld.param.u64 %%rd1, [out];\nld.param.u64 %%rd2, [in];\nmov.u32 %%r1, %%tid.x;\n"
             "shr.u32 %%r2, %%r1, 4;\nxor.b32 %%r2, %%r2, %d;\nand.b32 %%r3, %%r1, 15;\n"
             "mad.lo.u32 %%r4, %%r2, %d, 4;\nmul.lo.u32 %%r4, %%r4, %%r3;\nmad.lo.u32 %%r4, %%r2, %d, %%r4;\n"
             "cvt.u64.u32 %%rd3, %%r4;\nadd.s64 %%rd4, %%rd2, %%rd3;\n"
             "ld.global.u32 %%r5, [%%rd4+%d];\nld.global.u32 %%r8, [%%rd4+%d];\nadd.s32 %%r6, %%r5, %%r1;\n"
             "add.s32 %%r6, %%r6, %%r8;\n"
             "mad.lo.u32 %%r7, %%r2, %d, 4;\nmul.lo.u32 %%r7, %%r7, %%r3;\nmad.lo.u32 %%r7, %%r2, %d, %%r7;\n"
             "cvt.u64.u32 %%rd5, %%r7;\nadd.s64 %%rd6, %%rd1, %%rd5;\n"
             "st.global.u32 [%%rd6+%d], %%r6;\nret;\n}\n",
             h.flip, h.lxs, h.lrb, h.loff, h.loff + 4, h.sxs, h.srb, h.soff);
}

Test(jit_vec, whole_warp_accesses_in_two_half_runs) {
    static const half_shape shapes[] = {
        {160, 0, 8, 96, 0, 0, 0},   /* both halves apart: the loads and the stores inline */
        {64, 0, 0, 32, 0, 4, 0},    /* the loads one run; the stores' halves overlap by 32 bytes */
        {4, 0, 0, 1024, 0, 64, 0},  /* the loads' halves overlap by 60 bytes */
        {160, 4, 0, 96, 8, 0, 0},   /* the second halves scattered: the call's path */
        {192, 0, 4, 256, 0, 0, 3}, /* the second half below the first */
    };
    static uint32_t in[NIN];
    inputs(in);
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        half_shape h = shapes[s];
        static uint32_t want[NIN], got[2][NIN];
        memset(want, 0, sizeof want);
        for (uint32_t t = 0; t < NT; t++) {
            uint32_t row = (t / 16) ^ (uint32_t)h.flip, c = t % 16;
            uint32_t la = row * (uint32_t)h.lrb + c * (4 + row * (uint32_t)h.lxs) + (uint32_t)h.loff;
            uint32_t sa = row * (uint32_t)h.srb + c * (4 + row * (uint32_t)h.sxs) + (uint32_t)h.soff;
            want[sa / 4] = in[la / 4] + in[la / 4 + 1] + t;
        }
        char src[2048];
        half_src(src, sizeof src, h);
        ptxi_launch_stats st[2];
        for (int m = 0; m < 2; m++) {
            char rep[1024];
            ptxi_status r = run_io_jit(m ? "0" : "1", src, NT, in, sizeof in, got[m], sizeof got[m], rep, sizeof rep,
                                       &st[m]);
            cr_assert_eq(r, PTXI_SUCCESS, "shape %zu, PTXI_JIT=%d: %s", s, !m, rep);
            for (int k = 0; k < NIN; k++)
                cr_assert_eq(got[m][k], want[k], "shape %zu, PTXI_JIT=%d: word %d: 0x%08x, expected 0x%08x", s, !m, k,
                             got[m][k], want[k]);
        }
        cr_assert_eq(st[0].warp_insns, st[1].warp_insns, "the counts do not depend on the JIT");
        cr_assert_eq(st[0].thread_insns, st[1].thread_insns, "the counts do not depend on the JIT");
    }
}

/* A half that leaves the allocation (its first bad lane: the thread whose
 * word starts at byte 4096; in the last case the first half, row 3, is the
 * bad one) or is misaligned (the second half's start, 2 bytes past a word):
 * the same report, at the access's line, with and
 * without the JIT. */
Test(jit_vec, a_half_run_faults_at_its_first_bad_lane) {
    static const struct {
        half_shape h;
        ptxi_status want;
        const char *what, *thread;
        int line;
    } cases[] = {
        {{1280, 0, 224, 0, 0, 0, 0}, PTXI_ILLEGAL_ADDRESS, "out-of-bounds global read of 4 bytes", "thread (56,0,0)", 19},
        {{162, 0, 0, 0, 0, 0, 0}, PTXI_MISALIGNED_ADDRESS, "misaligned global read of 4 bytes", "thread (16,0,0)", 19},
        {{0, 0, 0, 1280, 0, 224, 0}, PTXI_ILLEGAL_ADDRESS, "out-of-bounds global write of 4 bytes", "thread (56,0,0)", 28},
        {{0, 0, 0, 98, 0, 0, 0}, PTXI_MISALIGNED_ADDRESS, "misaligned global write of 4 bytes", "thread (16,0,0)", 28},
        {{1280, 0, 224, 0, 0, 0, 3}, PTXI_ILLEGAL_ADDRESS, "out-of-bounds global read of 4 bytes", "thread (8,0,0)", 19},
    };
    static uint32_t in[NIN], out[NIN];
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char src[2048], rep[2][2048], line[32];
        half_src(src, sizeof src, cases[k].h);
        for (int m = 0; m < 2; m++) {
            ptxi_status s = run_io_jit(m ? "0" : "1", src, NT, in, sizeof in, out, sizeof out, rep[m], sizeof rep[m],
                                       NULL);
            cr_assert_eq(s, cases[k].want, "case %zu, PTXI_JIT=%d: %s", k, !m, rep[m]);
        }
        snprintf(line, sizeof line, "at w.ptx:%d:1 in k", cases[k].line);
        cr_assert(strstr(rep[0], cases[k].what), "case %zu: %s", k, rep[0]);
        cr_assert(strstr(rep[0], cases[k].thread), "case %zu, the first bad lane: %s", k, rep[0]);
        cr_assert(strstr(rep[0], line), "case %zu, the access's line: %s", k, rep[0]);
        cr_assert_str_eq(rep[0], rep[1], "case %zu, with and without the JIT", k);
    }
}
