/* launch_loop.c — ptxi-launch-loop: what a small launch costs in a loop, as
 * a test suite or a Triton autotuning run makes them: each iteration copies
 * 4 KiB in and launches 64 CTAs of 256 threads that each compute their own
 * word of a 64 KiB buffer, on one host thread and on N, back to back and with a pause between
 * iterations (the host doing something else). Prints microseconds per
 * iteration and per launch call, the least of five rounds of 2000.
 * usage: ptxi-launch-loop [N (default: one per core)] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_scaling.h"
#include "ptxi.h"

/* out[i] = in[i] * 3 + 1, i the thread's index in the grid */
static const char triple[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry triple(.param .u64 in, .param .u64 out)\n{\n"
    ".reg .b32 %r<7>;\n.reg .b64 %rd<6>;\n"
    "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\nmov.u32 %r1, %tid.x;\n"
    "mov.u32 %r4, %ctaid.x;\nmov.u32 %r5, %ntid.x;\nmad.lo.s32 %r6, %r4, %r5, %r1;\n"
    "mul.wide.u32 %rd3, %r6, 4;\nadd.s64 %rd4, %rd1, %rd3;\nld.global.u32 %r2, [%rd4];\n"
    "mad.lo.s32 %r3, %r2, 3, 1;\nadd.s64 %rd5, %rd2, %rd3;\nst.global.u32 [%rd5], %r3;\nret;\n}\n";

static int loop(unsigned threads, unsigned pause_us) {
    ptxi_ctx *ctx;
    ptxi_module *m;
    ptxi_dptr in, out;
    if (ptxi_ctx_create(&ctx, &(ptxi_ctx_options){.threads = threads}) ||
        ptxi_module_load_data(ctx, triple, strlen(triple), "triple.ptx", &m) ||
        ptxi_mem_alloc(ctx, 64 * 256 * 4, &in) || ptxi_mem_alloc(ctx, 64 * 256 * 4, &out)) {
        fprintf(stderr, "ptxi-launch-loop: setting up failed\n");
        return -1;
    }
    static uint32_t host[1024];
    void *args[] = {&in, &out};
    double best = 1e9, best_call = 1e9;
    enum { ITERS = 2000 };
    for (int round = 0; round < 5; round++) {
        double t0 = host_now(), calls = 0;
        for (int i = 0; i < ITERS; i++) {
            if (ptxi_memcpy_htod(ctx, in, host, sizeof host)) return -1;
            double c0 = host_now();
            if (ptxi_launch(ptxi_module_kernel_at(m, 0), (ptxi_dim3){64, 1, 1}, (ptxi_dim3){256, 1, 1}, 0, NULL,
                            args))
                return -1;
            calls += host_now() - c0;
            for (double until = host_now() + pause_us * 1e-6; pause_us && host_now() < until;) {}
        }
        double it = (host_now() - t0) / ITERS - pause_us * 1e-6;
        if (it < best) best = it, best_call = calls / ITERS;
    }
    printf("%7u %9u %14.1f %12.1f\n", threads, pause_us, 1e6 * best, 1e6 * best_call);
    ptxi_ctx_destroy(ctx);
    return 0;
}

int main(int argc, char **argv) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : cores > 0 ? (unsigned)cores : 1;
    printf("ptxi-launch-loop: 4 KiB copy + launch of 64 x 256 threads, least of 5 rounds of 2000\n");
    printf("threads  pause us  us/iteration  us/launch\n");
    static const unsigned pauses[] = {0, 100, 1000};
    for (int p = 0; p < 3; p++)
        for (unsigned t = 1; t <= n; t = t == n ? n + 1 : n)
            if (loop(t, pauses[p]) < 0) return 1;
    return 0;
}
