/* startup.c — ptxi-startup: what a small program pays before its first
 * result: context creation, module load, the first launch (and with it the
 * first use of each .approx table, unpacked on demand, interp/alu_mufu.c)
 * and, for comparison, the second launch. Each round runs in a fresh child
 * process, so every round sees a cold process; the least of the rounds is
 * printed, as wall and CPU milliseconds. usage: ptxi-startup [ROUNDS] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ptxi.h"

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"

/* out[t] = 3t + 1 */
static const char plain_ptx[] = HDR ".visible .entry k(.param .u64 o, .param .u64 x)\n{\n"
                                    ".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
                                    "ld.param.u64 %rd1, [o];\nmov.u32 %r1, %tid.x;\nmad.lo.s32 %r2, %r1, 3, 1;\n"
                                    "mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
                                    "st.global.u32 [%rd3], %r2;\nret;\n}\n";

/* out[8t + j] = the j-th approximation of x[t]: ex2, sin, cos, rcp, lg2, rsqrt, sqrt, tanh */
static const char approx_ptx[] = HDR
    ".visible .entry k(.param .u64 o, .param .u64 x)\n{\n"
    ".reg .b32 %r<2>;\n.reg .f32 %f<10>;\n.reg .b64 %rd<6>;\n"
    "ld.param.u64 %rd1, [o];\nld.param.u64 %rd4, [x];\nmov.u32 %r1, %tid.x;\n"
    "mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd5, %rd4, %rd2;\nld.global.f32 %f1, [%rd5];\n"
    "mul.wide.u32 %rd2, %r1, 32;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "ex2.approx.f32 %f2, %f1;\nst.global.f32 [%rd3], %f2;\n"
    "sin.approx.f32 %f3, %f1;\nst.global.f32 [%rd3+4], %f3;\n"
    "cos.approx.f32 %f4, %f1;\nst.global.f32 [%rd3+8], %f4;\n"
    "rcp.approx.f32 %f5, %f1;\nst.global.f32 [%rd3+12], %f5;\n"
    "lg2.approx.f32 %f6, %f1;\nst.global.f32 [%rd3+16], %f6;\n"
    "rsqrt.approx.f32 %f7, %f1;\nst.global.f32 [%rd3+20], %f7;\n"
    "sqrt.approx.f32 %f8, %f1;\nst.global.f32 [%rd3+24], %f8;\n"
    "tanh.approx.f32 %f9, %f1;\nst.global.f32 [%rd3+28], %f9;\n"
    "ret;\n}\n";

enum { THREADS = 32, PHASES = 4 };
static const char *const phase_name[PHASES] = {"context", "module load", "1st launch", "2nd launch"};

typedef struct times {
    double wall[PHASES], cpu[PHASES];
} times;

static double clock_of(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One cold run: the phases' times, or -1 on an API error. */
static int measure(const char *src, int spread, times *t)
{
    double w0 = clock_of(CLOCK_MONOTONIC), c0 = clock_of(CLOCK_PROCESS_CPUTIME_ID);
    int ph = 0;
#define LAP()                                                                         \
    do {                                                                              \
        double w = clock_of(CLOCK_MONOTONIC), c = clock_of(CLOCK_PROCESS_CPUTIME_ID); \
        t->wall[ph] = w - w0, t->cpu[ph] = c - c0, ph++;                              \
        w0 = w, c0 = c;                                                               \
    } while (0)
    ptxi_ctx *ctx;
    if (ptxi_ctx_create(&ctx, &(ptxi_ctx_options){.threads = 1}) != PTXI_SUCCESS) return -1;
    LAP();
    ptxi_module *m;
    if (ptxi_module_load_data(ctx, src, strlen(src), "startup.ptx", &m) != PTXI_SUCCESS) return -1;
    LAP();
    /* inputs: positive floats close together (a kernel's usual first call) or
     * spread over the whole range of exponents (every lane a different slice) */
    float x[THREADS];
    for (int l = 0; l < THREADS; l++) x[l] = spread ? (float)ldexp(1.0 + l / 37.0, l * 7 % 60 - 30) : 0.5f + l * 0.01f;
    ptxi_dptr o, xi;
    if (ptxi_mem_alloc(ctx, THREADS * 32, &o) != PTXI_SUCCESS || ptxi_mem_alloc(ctx, sizeof x, &xi) != PTXI_SUCCESS ||
        ptxi_memcpy_htod(ctx, xi, x, sizeof x) != PTXI_SUCCESS)
        return -1;
    void *args[] = {&o, &xi};
    double w1 = clock_of(CLOCK_MONOTONIC), c1 = clock_of(CLOCK_PROCESS_CPUTIME_ID);
    for (int k = 0; k < 2; k++) {
        w0 = w1, c0 = c1; /* the copies above are not start-up */
        if (ptxi_launch(ptxi_module_kernel_at(m, 0), (ptxi_dim3){1, 1, 1}, (ptxi_dim3){THREADS, 1, 1}, 0, NULL, args) !=
                PTXI_SUCCESS ||
            ptxi_ctx_synchronize(ctx) != PTXI_SUCCESS)
            return -1;
        LAP();
        w1 = w0, c1 = c0;
    }
#undef LAP
    ptxi_ctx_destroy(ctx);
    return 0;
}

/* The least of `rounds` cold runs, each in a child process. */
static int best_of(const char *src, int spread, int rounds, times *best)
{
    for (int p = 0; p < PHASES; p++) best->wall[p] = best->cpu[p] = 1e9;
    for (int r = 0; r < rounds; r++) {
        fflush(stdout);
        int fd[2];
        if (pipe(fd) < 0) return -1;
        pid_t pid = fork();
        if (pid < 0) return -1;
        if (pid == 0) {
            close(fd[0]);
            times t;
            int rc = measure(src, spread, &t);
            if (rc == 0 && write(fd[1], &t, sizeof t) != (ssize_t)sizeof t) rc = -1;
            _exit(rc ? 1 : 0);
        }
        close(fd[1]);
        times t;
        ssize_t got = read(fd[0], &t, sizeof t);
        close(fd[0]);
        int st;
        waitpid(pid, &st, 0);
        if (got != (ssize_t)sizeof t || !WIFEXITED(st) || WEXITSTATUS(st)) return -1;
        for (int p = 0; p < PHASES; p++) {
            if (t.wall[p] < best->wall[p]) best->wall[p] = t.wall[p];
            if (t.cpu[p] < best->cpu[p]) best->cpu[p] = t.cpu[p];
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    if (rounds < 1) {
        fprintf(stderr, "usage: ptxi-startup [ROUNDS]\n");
        return 2;
    }
    static const struct {
        const char *name, *src;
        int spread;
    } cases[] = {
        {"plain", plain_ptx, 0},
        {"approx x8, close inputs", approx_ptx, 0},
        {"approx x8, spread inputs", approx_ptx, 1},
    };
    printf("ptxi-startup: one 32-thread CTA, least of %d cold processes; ms wall (CPU)\n\n", rounds);
    printf("%-26s", "kernel");
    for (int p = 0; p < PHASES; p++) printf(" %18s", phase_name[p]);
    printf(" %18s\n", "load + 1st launch");
    int rc = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        times b;
        printf("%-26s", cases[c].name);
        if (best_of(cases[c].src, cases[c].spread, rounds, &b) < 0) {
            printf(" FAIL\n");
            rc = 1;
            continue;
        }
        for (int p = 0; p < PHASES; p++) printf(" %9.2f (%6.2f)", b.wall[p] * 1e3, b.cpu[p] * 1e3);
        printf(" %9.2f (%6.2f)\n", (b.wall[1] + b.wall[2]) * 1e3, (b.cpu[1] + b.cpu[2]) * 1e3);
    }
    return rc;
}
