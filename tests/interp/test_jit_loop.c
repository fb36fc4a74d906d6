/* test_jit_loop.c — a loop whose compiled run ends with the backward branch
 * to its own start (jit.c loop_back goes round inside it): trip counts 0, 1,
 * a few and past a time slice, lanes leaving one by one, a fault in a late
 * round, an if-converted body inside (run by some lanes, by none), the
 * counts of executed instructions, and a loop that never ends
 * still stopped by the watchdog. The expected words and counts come from C
 * below and from the kernel's own text, not from ptxi. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../run_kernel.h"

#define NT 64      /* two warps, one CTA */
#define NDATA 1024 /* data words after the 16 header words */

/* in[0] = n, in[1] = the round whose load reads 1 MiB past the data, in[2] =
 * spread: thread t goes round n + (t & 3) * spread times. out[t] = the
 * accumulated value, out[64 + t] = the rounds. */
static const char *PRE = ".version 8.0\n.target sm_90\n.address_size 64\n"
                         ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                         ".reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n"
                         "ld.param.u64 %rd1, [out];\n"
                         "ld.param.u64 %rd2, [in];\n"
                         "mov.u32 %r1, %tid.x;\n"
                         "ld.global.u32 %r2, [%rd2];\n"
                         "ld.global.u32 %r3, [%rd2+4];\n"
                         "ld.global.u32 %r4, [%rd2+8];\n"
                         "and.b32 %r5, %r1, 3;\n"
                         "mad.lo.s32 %r6, %r5, %r4, %r2;\n"
                         "mov.u32 %r7, 0;\n"
                         "mov.u32 %r8, 0;\n"
                         "and.b32 %r9, %r1, 31;\n"
                         "setp.eq.u32 %p1, %r6, 0;\n"
                         "@%p1 bra DONE;\n";
static const char *BODY = "L:\n"
                          "shl.b32 %r10, %r8, 5;\n"
                          "add.s32 %r10, %r10, %r9;\n"
                          "and.b32 %r10, %r10, 1023;\n"
                          "setp.eq.u32 %p2, %r8, %r3;\n"
                          "selp.u32 %r11, 262144, 0, %p2;\n"
                          "add.s32 %r10, %r10, %r11;\n"
                          "mul.wide.u32 %rd3, %r10, 4;\n"
                          "add.s64 %rd4, %rd2, %rd3;\n"
                          "ld.global.u32 %r12, [%rd4+64];\n"
                          "and.b32 %r13, %r12, 1;\n"
                          "setp.eq.u32 %p2, %r13, 0;\n"
                          "@%p2 bra SKIP;\n"
                          "xor.b32 %r7, %r7, %r8;\n"
                          "add.s32 %r7, %r7, 7;\n"
                          "SKIP:\n"
                          "mul.lo.s32 %r7, %r7, 3;\n"
                          "add.s32 %r7, %r7, %r12;\n"
                          "add.s32 %r8, %r8, 1;\n"
                          "setp.lt.u32 %p3, %r8, %r6;\n"
                          "@%p3 bra L;\n";
static const char *POST = "DONE:\n"
                          "mul.wide.u32 %rd5, %r1, 4;\n"
                          "add.s64 %rd6, %rd1, %rd5;\n"
                          "st.global.u32 [%rd6], %r7;\n"
                          "st.global.u32 [%rd6+256], %r8;\n"
                          "ret;\n}\n";

/* Instructions in a piece of the kernel: its lines ending in ';' but the
 * declarations and the header. */
static uint64_t insns(const char *s) {
    uint64_t n = 0;
    for (const char *l = s; *l;) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) : strlen(l);
        if (len && l[len - 1] == ';' && l[0] != '.') n++;
        l += len + (e != NULL);
    }
    return n;
}

static char *kernel(void) {
    static char src[4096];
    snprintf(src, sizeof src, "%s%s%s", PRE, BODY, POST);
    return src;
}

static uint32_t trips(uint32_t n, uint32_t spread, uint32_t t) { return n + (t & 3) * spread; }

static uint32_t datum(const uint32_t *in, uint32_t i, uint32_t t) { return in[16 + ((i * 32 + (t & 31)) & 1023)]; }
enum { SKIPPED = 2 }; /* the xor and add that an even datum jumps over */

static void expected(const uint32_t *in, uint32_t want[2 * NT]) {
    for (uint32_t t = 0; t < NT; t++) {
        uint32_t acc = 0, r = trips(in[0], in[2], t);
        for (uint32_t i = 0; i < r; i++) {
            uint32_t d = datum(in, i, t);
            if (d & 1) acc = (acc ^ i) + 7u;
            acc = acc * 3u + d;
        }
        want[t] = acc, want[NT + t] = r;
    }
}

static void fill(uint32_t *in, uint32_t n, uint32_t bad, uint32_t spread) {
    in[0] = n, in[1] = bad, in[2] = spread;
    uint32_t x = 12345;
    for (int k = 0; k < NDATA; k++) in[16 + k] = (x = x * 1103515245u + 12345u) >> 8;
    for (int k = 32 * 3; k < 32 * 4; k++) in[16 + k] &= ~1u; /* round 3 of both warps: no lane runs the body */
}

static ptxi_status run(const char *jit, const uint32_t *in, uint32_t *out, char *rep, size_t cap,
                       ptxi_launch_stats *st) {
    ptxi_status s = run_io_jit(jit, kernel(), NT, in, (16 + NDATA) * 4, out, 2 * NT * 4, rep, cap, st);
    return s;
}

static void loop_case(uint32_t n, uint32_t spread) {
    static uint32_t in[16 + NDATA], want[2 * NT], got[2 * NT];
    fill(in, n, UINT32_MAX, spread);
    expected(in, want);
    uint64_t pre = insns(PRE), body = insns(BODY), post = insns(POST), threads = 0, warps = 0;
    for (uint32_t t = 0; t < NT; t++) {
        threads += pre + (uint64_t)trips(n, spread, t) * body + post;
        for (uint32_t i = 0; i < trips(n, spread, t); i++) threads -= datum(in, i, t) & 1 ? 0 : SKIPPED;
    }
    for (uint32_t w = 0; w < NT / 32; w++) { /* spread 0: uniform; a body no lane runs is not counted */
        warps += pre + (uint64_t)n * body + post;
        for (uint32_t i = 0; i < n; i++) {
            bool any = false;
            for (uint32_t l = 0; l < 32; l++) any |= datum(in, i, 32 * w + l) & 1;
            warps -= any ? 0 : SKIPPED;
        }
    }
    const char *modes[2] = {"1", "0"};
    for (int m = 0; m < 2; m++) {
        char rep[1024];
        ptxi_launch_stats st;
        memset(got, 0xa5, sizeof got);
        cr_assert_eq(run(modes[m], in, got, rep, sizeof rep, &st), PTXI_SUCCESS, "%s", rep);
        for (int k = 0; k < 2 * NT; k++)
            cr_assert_eq(got[k], want[k], "PTXI_JIT=%s n %u spread %u: word %d 0x%08x, expected 0x%08x", modes[m], n,
                         spread, k, got[k], want[k]);
        cr_assert_eq(st.thread_insns, threads, "PTXI_JIT=%s n %u spread %u: %llu thread instructions, expected %llu",
                     modes[m], n, spread, (unsigned long long)st.thread_insns, (unsigned long long)threads);
        if (!spread)
            cr_assert_eq(st.warp_insns, warps, "PTXI_JIT=%s n %u: %llu warp instructions, expected %llu", modes[m], n,
                         (unsigned long long)st.warp_insns, (unsigned long long)warps);
    }
}

Test(jit_loop, no_round) { loop_case(0, 0); }
Test(jit_loop, one_round) { loop_case(1, 0); }
Test(jit_loop, a_few_rounds) { loop_case(7, 0); }
/* past the 4096 backward branches of a time slice (sched.c), twice */
Test(jit_loop, rounds_past_a_time_slice) { loop_case(9000, 0); }
/* lanes leave after 5, 8, 11 and 14 rounds, or the first quarter at once */
Test(jit_loop, lanes_leave_one_by_one) { loop_case(5, 3); }
Test(jit_loop, lanes_leave_from_no_round) { loop_case(0, 2); }

/* Round 4500 of warp 0 (in the second time slice) loads 1 MiB past the
 * data: the report names the load's line and thread 0, as without the JIT. */
Test(jit_loop, fault_in_a_late_round) {
    static uint32_t in[16 + NDATA], out[2 * NT];
    fill(in, 6000, 4500, 0);
    char on[2048], off[2048];
    cr_assert_eq(run("1", in, out, on, sizeof on, NULL), PTXI_ILLEGAL_ADDRESS, "%s", on);
    cr_assert_eq(run("0", in, out, off, sizeof off, NULL), PTXI_ILLEGAL_ADDRESS, "%s", off);
    cr_assert(strstr(on, "out-of-bounds global read of 4 bytes"), "%s", on);
    const char *src = kernel(), *ld = strstr(src, "ld.global.u32 %r12");
    unsigned n = 1;
    for (const char *c = src; c < ld; c++) n += *c == '\n';
    char line[32];
    snprintf(line, sizeof line, "at w.ptx:%u:1 in k", n);
    cr_assert(strstr(on, line), "the load's line (%s): %s", line, on);
    cr_assert(strstr(on, "block (0,0,0), thread (0,0,0)"), "%s", on);
    cr_assert_str_eq(on, off, "with and without the JIT");
}

/* A loop that never ends, all of it one compiled run: the watchdog still
 * ends the launch; also when a straight run before it chains into it (jit.c
 * chain: the rounds still bounded by the time slice). */
#define FOREVER(STRAIGHT)                                                                                              \
    ".version 8.0\n.target sm_90\n.address_size 64\n"                                                                  \
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"                                                          \
    ".reg .b32 %r<4>;\n"                                                                                              \
    "mov.u32 %r1, %tid.x;\nmov.u32 %r2, 0;\n" STRAIGHT "L:\nadd.s32 %r2, %r2, %r1;\nxor.b32 %r2, %r2, 5;\nbra.uni L;\n}\n"

Test(jit_loop, endless_loop_stops_at_the_watchdog) {
    const char *modes[2] = {"1", "0"};
    const char *srcs[2] = {FOREVER(""), FOREVER("mul.lo.s32 %r3, %r1, 3;\nadd.s32 %r2, %r3, 7;\nxor.b32 %r1, %r1, %r3;\n")};
    for (int m = 0; m < 4; m++) {
        const char *src = srcs[m / 2];
        setenv("PTXI_JIT", modes[m % 2], 1);
        ptxi_ctx *ctx;
        cr_assert_eq(ptxi_ctx_create(&ctx, &(ptxi_ctx_options){.threads = 1, .timeout_s = 0.2}), PTXI_SUCCESS);
        FILE *quiet = tmpfile();
        ptxi_ctx_set_output(ctx, NULL, quiet);
        ptxi_module *mod;
        cr_assert_eq(ptxi_module_load_data(ctx, src, strlen(src), "f.ptx", &mod), PTXI_SUCCESS);
        unsetenv("PTXI_JIT");
        ptxi_dptr d = 0;
        void *args[] = {&d, &d};
        ptxi_status s = ptxi_launch(ptxi_module_kernel_at(mod, 0), (ptxi_dim3){1, 1, 1}, (ptxi_dim3){NT, 1, 1}, 0,
                                    NULL, args);
        if (s == PTXI_SUCCESS) s = ptxi_ctx_synchronize(ctx);
        cr_assert_eq(s, PTXI_LAUNCH_TIMEOUT, "PTXI_JIT=%s, source %d: %s", modes[m % 2], m / 2, ptxi_ctx_error_detail(ctx));
        ptxi_ctx_destroy(ctx);
        fclose(quiet);
    }
}

/* Warp 0 goes round n times and then sets a flag; warp 1 spins on the flag.
 * Each yields after 4096 backward branches (sched.c's time slice), so warp
 * 1 spins 4096 rounds for each of warp 0's slices before its last, and one
 * more round once the flag is set: 2 * 4096 + 1 for n = 10000 (two full
 * slices and 1808 rounds). A compiled loop that took its rounds off the
 * slice wrongly (jit.c loop_back, exec.c's budget) would hand the other
 * warp the CTA earlier or later, and the spin count would differ. */
static const char *SPIN = ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                          ".reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<6>;\n"
                          "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
                          "mov.u32 %r1, %tid.x;\nld.global.u32 %r2, [%rd2];\nmov.u32 %r3, 0;\nmov.u32 %r4, 0;\n"
                          "shr.u32 %r5, %r1, 5;\nsetp.ne.u32 %p1, %r5, 0;\n@%p1 bra WAIT;\n"
                          "L:\nadd.s32 %r4, %r4, %r3;\nadd.s32 %r3, %r3, 1;\nsetp.lt.u32 %p2, %r3, %r2;\n@%p2 bra L;\n"
                          "st.volatile.global.u32 [%rd1], 1;\nbra.uni DONE;\n"
                          "WAIT:\nld.volatile.global.u32 %r6, [%rd1];\nadd.s32 %r3, %r3, 1;\n"
                          "setp.eq.u32 %p3, %r6, 0;\n@%p3 bra WAIT;\n"
                          "DONE:\nmul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd1, %rd3;\nst.global.u32 [%rd4+4], %r3;\nret;\n}\n";

Test(jit_loop, a_spinning_warp_gets_the_cta_at_the_same_rounds) {
    enum { N = 10000, SLICE = 4096 };
    uint32_t in[1] = {N};
    static uint32_t want[1 + NT], got[2][1 + NT];
    want[0] = 1;
    for (uint32_t t = 0; t < NT; t++) want[1 + t] = t < 32 ? N : (N / SLICE) * SLICE + 1;
    ptxi_launch_stats st[2];
    for (int m = 0; m < 2; m++) {
        char rep[1024];
        cr_assert_eq(run_io_jit(m ? "0" : "1", SPIN, NT, in, sizeof in, got[m], sizeof got[m], rep, sizeof rep, &st[m]),
                     PTXI_SUCCESS, "%s", rep);
    }
    uint32_t *g[2] = {got[0], got[1]};
    same_on_and_off(g, want, 1 + NT, st, "spin");
}
