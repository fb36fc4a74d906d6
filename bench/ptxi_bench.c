/* ptxi_bench.c — the benchmark driver: runs every case of bench.h through the
 * public API (load, alloc, copy, launch, synchronize) on one host thread and on
 * all cores, times its native C reference in the same process, checks that the
 * two results are identical, and prints one table. Each (case, threads) pair
 * runs in a child process so peak memory is its own and a crash is contained. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "host_scaling.h"

#ifndef PTXI_BENCH_KERNELS
#define PTXI_BENCH_KERNELS "bench/kernels"
#endif

#define BENCH_ENTRY_(n) &bench_case_##n,
static const bench_case *const cases[] = {BENCH_CASES(BENCH_ENTRY_)};
#undef BENCH_ENTRY_
enum { NCASES = sizeof cases / sizeof cases[0] };

typedef struct options {
    int reps;            /* timed runs after one warm-up; the best counts */
    int rounds;          /* child processes per row; the best counts */
    double scale;        /* problem-size factor */
    unsigned threads[8]; /* host thread counts to run (0 = all cores) */
    int nthreads;
    unsigned timeout_s;
    int fork;
    const char *kernels; /* folder holding the .ptx files */
    const char *only;    /* comma-separated case names, or NULL */
    int ceiling;         /* measure the host's own scaling first */
    int copies;          /* rows of n threads: also n copies of ptxi on one thread each */
    double ceil_of[8];   /* per thread count: the host's 16-lane vector ceiling (0: not measured) */
    FILE *csv;
} options;

/* What one (case, threads) child reports back through a pipe. */
typedef struct result {
    int ran;   /* ptxi produced a result */
    int match; /* ... identical to the native one */
    uint64_t thread_insns, warp_insns, jit_warp_insns;
    double ptxi_s, native_s;
    double ptxi_cpu_s; /* process CPU time of that best run (all threads) */
    /* The least CPU time of any run: of ptxi (process, all threads) and of the
     * native reference (its thread). On a loaded machine these compare better
     * than wall times, which include waiting for a core. */
    double ptxi_cpu_min_s, native_cpu_s;
    long maxrss_kib;
    /* Rows of more than one thread: how much more throughput this host gives
     * the kernel's own native reference on that many threads, n copies at once
     * (n * time alone / time of the n together): the ceiling for that work. */
    double native_ceil;
    double nat_alone_s, nat_all_s; /* its two times: copy 0 alone, the n together */
    /* Rows of more than one thread: the least time of the kernel on one
     * thread, alternating with these runs in this process, and the host's
     * vector ceiling measured just before them (0: not measured). */
    double ptxi1_s, row_ceil;
    double ceil_one_s, ceil_all_s; /* the vector ceiling's two times: one thread, n threads */
    /* The best run's host threads (ptxi_launch_stats): the share of the run
     * they were busy, the last one's late start and the first one's early end. */
    double busy_share, late_s, tail_s;
    /* With --copies: n copies of the kernel on one thread each at once, as
     * native_ceil is for the native reference (0: not measured). */
    double copies, copies_alone_s, copies_all_s;
    char msg[400];
} result;

/* ---- running one case ---- */

static double clock_s(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void say(result *res, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->msg, sizeof res->msg, fmt, ap);
    va_end(ap);
}

/* One run of the native reference; rep 0 warms up. */
static void time_native(const bench_case *c, bench_run *r, int rep, result *res)
{
    bench_reset_refs(r);
    double c0 = clock_s(CLOCK_THREAD_CPUTIME_ID), t0 = host_now();
    c->native(r);
    double t = host_now() - t0, ct = clock_s(CLOCK_THREAD_CPUTIME_ID) - c0;
    if (rep > 0 && t < res->native_s) res->native_s = t;
    if (rep > 0 && ct < res->native_cpu_s) res->native_cpu_s = ct;
}

static unsigned cores(void);

/* n copies of one piece of work at once (copy k's state at items + k *
 * stride), copy 0 on this thread and each other on a thread of its own: n * (best time of copy 0 alone) / (best time
 * of the n together), alone and together alternating. Each copy is readied
 * (prep, untimed) before each of its runs; the n start together once all are
 * ready. A copy whose prep or run fails makes the result 0. */
typedef struct copy_work {
    int (*prep)(void *arg);
    int (*run)(void *arg);
} copy_work;

typedef struct copy_thread {
    const copy_work *w;
    void *arg;
    pthread_barrier_t *go;
    int quit, failed;
} copy_thread;

static int copy_once(const copy_work *w, void *arg, pthread_barrier_t *go, double *t)
{
    int bad = w->prep(arg) != 0;
    if (go) pthread_barrier_wait(go); /* all ready */
    double t0 = host_now();
    bad |= w->run(arg) != 0;
    if (go) pthread_barrier_wait(go); /* all done */
    *t = host_now() - t0;
    return bad;
}

static void *copy_thread_main(void *p)
{
    copy_thread *x = p;
    for (double t;;) {
        pthread_barrier_wait(x->go); /* start (or, with quit, leave) */
        if (x->quit) return NULL;
        x->failed |= copy_once(x->w, x->arg, x->go, &t);
    }
}

static double copy_scaling(const copy_work *w, void *items, size_t stride, unsigned n, int reps, double *alone_s,
                           double *all_s)
{
    char *it = items;
    copy_thread *x = calloc(n, sizeof *x);
    pthread_t *th = calloc(n, sizeof *th);
    pthread_barrier_t go;
    double best = INFINITY, alone = INFINITY, t;
    int failed = 0;
    if (!x || !th || pthread_barrier_init(&go, NULL, n) != 0) goto out;
    unsigned started = 1;
    for (; started < n; started++) {
        x[started] = (copy_thread){w, it + started * stride, &go, 0, 0};
        if (pthread_create(&th[started], NULL, copy_thread_main, &x[started]) != 0) break;
    }
    for (int rep = 0; started == n && rep <= reps; rep++) {
        pthread_barrier_wait(&go);
        failed |= copy_once(w, it, &go, &t);
        if (rep > 0 && t < best) best = t;
        failed |= copy_once(w, it, NULL, &t);
        if (rep > 0 && t < alone) alone = t;
    }
    for (unsigned k = 1; k < started; k++) x[k].quit = 1;
    if (started == n) pthread_barrier_wait(&go);
    for (unsigned k = 1; k < started; k++) pthread_join(th[k], NULL), failed |= x[k].failed;
    pthread_barrier_destroy(&go);
out:
    free(x);
    free(th);
    bool ok = !failed && isfinite(best) && isfinite(alone) && best > 0;
    *alone_s = ok ? alone : 0, *all_s = ok ? best : 0;
    return ok ? (double)n * alone / best : 0.0;
}

/* n copies of the native reference, each on its own inputs (copy 0 is r). */
typedef struct native_copy {
    const bench_case *c;
    bench_run *r;
} native_copy;

static int native_prep(void *p)
{
    bench_reset_refs(((native_copy *)p)->r);
    return 0;
}

static int native_run(void *p)
{
    native_copy *x = p;
    x->c->native(x->r);
    return 0;
}

/* Inputs of their own for copies 1 to n-1 (runs[0] stays unused: copy 0
 * runs on the row's own); NULL when out of memory. */
static bench_run *copy_runs(const bench_case *c, const options *o, unsigned n)
{
    bench_run *runs = calloc(n, sizeof *runs);
    for (unsigned k = 1; runs && k < n; k++) c->setup(&runs[k], o->scale);
    return runs;
}

static void free_copy_runs(bench_run *runs, unsigned n)
{
    for (unsigned k = 1; runs && k < n; k++)
        for (int b = 0; b < runs[k].nbuf; b++) {
            if (runs[k].buf[b].ref != runs[k].buf[b].init) free(runs[k].buf[b].ref);
            free(runs[k].buf[b].init);
        }
    free(runs);
}

static double native_scaling(const bench_case *c, bench_run *r, const options *o, unsigned n, double *alone_s,
                             double *all_s)
{
    static const copy_work w = {native_prep, native_run};
    bench_run *runs = copy_runs(c, o, n);
    native_copy *x = calloc(n, sizeof *x);
    double s = 0;
    *alone_s = *all_s = 0;
    if (runs && x) {
        for (unsigned k = 0; k < n; k++) x[k] = (native_copy){c, k ? &runs[k] : r};
        s = copy_scaling(&w, x, sizeof *x, n, o->reps, alone_s, all_s);
    }
    free_copy_runs(runs, n);
    free(x);
    return s;
}

#define TRY(call)                                                                                    \
    do {                                                                                             \
        ptxi_status st_ = (call);                                                                    \
        if (st_ != PTXI_SUCCESS) {                                                                   \
            const char *d_ = ctx ? ptxi_ctx_error_detail(ctx) : NULL;                                \
            say(res, "%s: %s%s%s", #call, ptxi_error_name(st_), d_ &&*d_ ? ": " : "", d_ ? d_ : ""); \
            goto out;                                                                                \
        }                                                                                            \
    } while (0)

/* One context running the case: its kernel, buffers and arguments. */
typedef struct session {
    ptxi_ctx *ctx;
    ptxi_kernel *k;
    ptxi_dptr dev[BENCH_MAX_BUFS];
    void *argv[BENCH_MAX_ARGS];
} session;

static int open_session(const bench_case *c, const bench_run *r, const options *o, unsigned threads, session *x,
                        result *res)
{
    ptxi_ctx *ctx = NULL;
    ptxi_module *m = NULL;
    ptxi_ctx_options co = {0};
    char path[4096];

    memset(x, 0, sizeof *x);
    co.threads = threads;
    snprintf(path, sizeof path, "%s/%s", o->kernels, c->ptx);
    TRY(ptxi_ctx_create(&ctx, &co));
    x->ctx = ctx;
    TRY(ptxi_module_load_file(ctx, path, &m));
    TRY(ptxi_module_get_kernel(m, c->entry, &x->k));
    for (int i = 0; i < r->nbuf; i++) TRY(ptxi_mem_alloc(ctx, r->buf[i].bytes, &x->dev[i]));
    for (int i = 0; i < r->narg; i++)
        x->argv[i] = r->arg[i].buf >= 0 ? (void *)&x->dev[r->arg[i].buf] : (void *)&r->arg[i].bits;
    return 0;
out:
    return -1;
}

/* Fresh inputs for the next launch. */
static int prep_session(const bench_run *r, session *x, result *res)
{
    ptxi_ctx *ctx = x->ctx;
    for (int i = 0; i < r->nbuf; i++) {
        const bench_buf *b = &r->buf[i];
        if (b->dir & BB_IN) TRY(ptxi_memcpy_htod(ctx, x->dev[i], b->init, b->bytes));
        else TRY(ptxi_memset_d8(ctx, x->dev[i], 0, b->bytes));
    }
    TRY(ptxi_ctx_synchronize(ctx));
    return 0;
out:
    return -1;
}

static int launch_session(const bench_run *r, session *x, result *res)
{
    ptxi_ctx *ctx = x->ctx;
    TRY(ptxi_launch(x->k, r->grid, r->block, r->dyn_shared, NULL, x->argv));
    TRY(ptxi_ctx_synchronize(ctx));
    return 0;
out:
    return -1;
}

/* One launch on fresh inputs: its wall and process CPU seconds. */
static int run_session(const bench_run *r, session *x, double *t, double *ct, result *res)
{
    if (prep_session(r, x, res) < 0) return -1;
    double c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID), t0 = host_now();
    if (launch_session(r, x, res) < 0) return -1;
    *t = host_now() - t0, *ct = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    return 0;
}

/* With --copies, rows of n threads also run n copies of the kernel at once,
 * each in a context of one thread on inputs of its own: how far the host
 * scales ptxi's own work when nothing is shared, to hold the launch's
 * speed-up against. */
typedef struct ptxi_copy {
    const bench_run *r;
    session s;
    result res; /* this copy's error message */
} ptxi_copy;

static int ptxi_prep(void *p)
{
    ptxi_copy *x = p;
    return prep_session(x->r, &x->s, &x->res);
}

static int ptxi_run(void *p)
{
    ptxi_copy *x = p;
    return launch_session(x->r, &x->s, &x->res);
}

static double ptxi_scaling(const bench_case *c, const bench_run *r, const options *o, unsigned n, double *alone_s,
                           double *all_s, result *res)
{
    static const copy_work w = {ptxi_prep, ptxi_run};
    bench_run *runs = copy_runs(c, o, n);
    ptxi_copy *x = calloc(n, sizeof *x);
    double s = 0;
    unsigned opened = 0;
    *alone_s = *all_s = 0;
    for (; runs && x && opened < n; opened++) {
        x[opened].r = opened ? &runs[opened] : r;
        if (open_session(c, x[opened].r, o, 1, &x[opened].s, &x[opened].res) < 0) {
            say(res, "copies: %.380s", x[opened].res.msg);
            break;
        }
    }
    if (opened == n) s = copy_scaling(&w, x, sizeof *x, n, o->reps, alone_s, all_s);
    for (unsigned k = 0; x && k < n; k++) /* the one that failed to open too */
        if (x[k].s.ctx) ptxi_ctx_destroy(x[k].s.ctx);
    free_copy_runs(runs, n);
    free(x);
    return s;
}

/* The lesser of two times, a time that is not positive counting as none. */
static double least(double a, double b) { return a > 0 && (a < b || !(b > 0)) ? a : b; }

/* Each rep runs the kernel and then the native reference once: on the
 * 16-CPU host a CPU's speed for load- and store-heavy work halves for
 * spells of 0.2-1 s (bench/README.md, round 20), so the two least times are
 * best taken from the same seconds. The rows of more than one thread also
 * time the kernel on one thread in
 * a second context of the same process and the host's vector ceiling on
 * one and on n threads, each rep all four in turn: a row's speed-up and the
 * ceiling it is held to then come from the same seconds of the same
 * process. On a shared host the speed from one child process to the next
 * varies by more than the scaling to be measured (bench/README.md, round
 * 13), and within one process the ceiling measured before the kernel's runs
 * read 9.3-14.3x on the 16-CPU host (round 19). A launch of n threads
 * after such a pause started its last thread up to 1.4 ms late there (the
 * host's CPUs sleep), so each rep's timed launch follows an untimed one. */
static void time_ptxi(const bench_case *c, bench_run *r, const options *o, unsigned threads, result *res)
{
    session x[2];
    ptxi_ctx *ctx = NULL;
    ptxi_launch_stats stats;
    unsigned n = threads ? threads : cores();
    bool paired = n > 1 && o->ceiling;

    /* as much vector work in all as the three reps measured before the runs did */
    long ceil_iters = 60000000L / (o->reps > 1 ? o->reps : 1);
    x[1].ctx = NULL;
    if (open_session(c, r, o, threads, &x[0], res) < 0 || (paired && open_session(c, r, o, 1, &x[1], res) < 0))
        goto out;
    ctx = x[0].ctx;
    res->ptxi_s = res->ptxi_cpu_min_s = res->ptxi1_s = res->ceil_one_s = res->ceil_all_s = INFINITY;
    res->native_s = res->native_cpu_s = INFINITY;
    for (int rep = 0; rep <= o->reps; rep++) {
        double t, ct;
        if (paired) {
            if (rep > 0) {
                double one, all;
                host_ceiling(host_vector_mix, ceil_iters < 4000000L ? 4000000L : ceil_iters, (int)n, 1, &one, &all);
                res->ceil_one_s = least(one, res->ceil_one_s), res->ceil_all_s = least(all, res->ceil_all_s);
            }
            if (run_session(r, &x[1], &t, &ct, res) < 0) goto out;
            if (rep > 0 && t < res->ptxi1_s) res->ptxi1_s = t;
            /* untimed: after the ceiling's quarter second the pool's threads
             * sleep; the timed launch finds them awake, as in a loop */
            if (run_session(r, &x[0], &t, &ct, res) < 0) goto out;
        }
        if (run_session(r, &x[0], &t, &ct, res) < 0) goto out;
        if (rep > 0 && t < res->ptxi_s) {
            res->ptxi_s = t;
            res->ptxi_cpu_s = ct;
            TRY(ptxi_ctx_last_launch_stats(ctx, &stats));
            if (stats.host_threads && stats.seconds > 0)
                res->busy_share = stats.busy_seconds / (stats.host_threads * stats.seconds);
            res->late_s = stats.late_start_seconds, res->tail_s = stats.tail_seconds;
        }
        if (rep > 0 && ct < res->ptxi_cpu_min_s) res->ptxi_cpu_min_s = ct;
        time_native(c, r, rep, res);
    }
    if (paired) res->row_ceil = n * res->ceil_one_s / res->ceil_all_s;
    else res->ptxi1_s = res->ceil_one_s = res->ceil_all_s = 0;
    TRY(ptxi_ctx_last_launch_stats(ctx, &stats));
    res->thread_insns = stats.thread_insns;
    res->warp_insns = stats.warp_insns;
    res->jit_warp_insns = stats.jit_warp_insns;
    for (int i = 0; i < r->nbuf; i++) {
        bench_buf *b = &r->buf[i];
        if (b->dir & BB_OUT) {
            b->got = bench_alloc(b->bytes);
            TRY(ptxi_memcpy_dtoh(ctx, b->got, x[0].dev[i], b->bytes));
        }
    }
    res->ran = 1;
out:
    for (int k = 0; k < 2; k++)
        if (x[k].ctx) ptxi_ctx_destroy(x[k].ctx);
}

static void run_case(const bench_case *c, const options *o, unsigned threads, result *res)
{
    bench_run r;
    struct rusage ru;

    memset(&r, 0, sizeof r);
    memset(res, 0, sizeof *res);
    c->setup(&r, o->scale);
    unsigned n = threads ? threads : cores();
    if (n > 1 && o->ceiling) res->native_ceil = native_scaling(c, &r, o, n, &res->nat_alone_s, &res->nat_all_s);
    time_ptxi(c, &r, o, threads, res);
    if (n > 1 && o->copies && res->ran) {
        res->copies = ptxi_scaling(c, &r, o, n, &res->copies_alone_s, &res->copies_all_s, res);
        if (!(res->copies > 0)) { /* a failed copy fails the row */
            if (!res->msg[0]) say(res, "copies: no result");
            res->ran = 0;
        } else if (res->ptxi1_s > 0 && res->ptxi1_s < res->copies_alone_s) {
            /* copy 0 alone is the kernel on one thread, as the row's paired
             * runs are: the least of all of them, so that one alone time in a
             * slow spell of the host's CPU (bench/README.md, round 20) does
             * not stand for the work alone */
            res->copies_alone_s = res->ptxi1_s;
            res->copies = n * res->copies_alone_s / res->copies_all_s;
        }
    }
    if (res->ran) res->match = bench_compare(&r, res->msg, sizeof res->msg);
    getrusage(RUSAGE_SELF, &ru);
    res->maxrss_kib = ru.ru_maxrss;
}

/* Runs one case in a child process (unless --no-fork); a crash, a hang past
 * the timeout or an exit without a report becomes the row's message. */
static void run_isolated(const bench_case *c, const options *o, unsigned threads, result *res)
{
    int fd[2];
    if (!o->fork || pipe(fd) != 0) {
        run_case(c, o, threads, res);
        return;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        alarm(o->timeout_s);
        run_case(c, o, threads, res);
        ssize_t w = write(fd[1], res, sizeof *res);
        _exit(w == (ssize_t)sizeof *res ? 0 : 3);
    }
    close(fd[1]);
    memset(res, 0, sizeof *res);
    ssize_t got = pid > 0 ? read(fd[0], res, sizeof *res) : -1;
    close(fd[0]);
    int status = 0;
    if (pid > 0)
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (got == (ssize_t)sizeof *res) return;
    memset(res, 0, sizeof *res);
    if (pid < 0) say(res, "fork failed: %s", strerror(errno));
    else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) say(res, "timed out after %u s", o->timeout_s);
    else if (WIFSIGNALED(status)) say(res, "crashed: %s", strsignal(WTERMSIG(status)));
    else say(res, "exited with status %d and no result", WEXITSTATUS(status));
}

/* ---- the table ---- */

static unsigned cores(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return (unsigned)CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

static void print_header(options *o)
{
    printf("ptxi-bench: best of %d runs after one warm-up, in the best of %d processes; scale %g; %u cores\n", o->reps,
           o->rounds, o->scale, cores());
    double load;
    if (getloadavg(&load, 1) == 1 && load > 0.5 * cores())
        printf("warning: load average %.1f on %u cores: other work is running, timings are unreliable\n", load,
               cores());
    /* The speed-up a machine gives wide vector code is its own: many CPUs
     * clock lower when every core runs it (host_scaling.h). */
    for (int j = 0; o->ceiling && j < o->nthreads; j++) {
        unsigned n = o->threads[j] ? o->threads[j] : cores();
        if (n == 1) continue;
        double one, all;
        o->ceil_of[j] = host_ceiling(host_vector_mix, 20000000L, (int)n, 3, &one, &all);
        printf("host ceiling: 16-lane vector work (integer hash + float multiply-add, no ptxi) runs %.2fx "
               "faster on %u threads than on 1 (%.3f s, %.3f s)\n",
               o->ceil_of[j], n, one, all);
    }
    printf("\n");
    printf("%-16s %4s %12s %6s %5s %10s %9s %9s %9s %10s %8s %8s %7s  %s\n", "kernel", "thr", "thread-insns", "lanes", "jit%",
           "insn/s", "ptxi s", "peak MiB", "native s", "ptxi/nat", "speed-up", "nat-ceil", "of-ceil", "check");
    if (o->csv)
        fprintf(o->csv,
                "kernel,threads,thread_insns,warp_insns,insn_per_s,ptxi_s,ptxi_cpu_s,peak_mib,"
                "native_s,ratio,speedup,check,host_ceiling,ptxi_cpu_min_s,native_cpu_s,jit_share,native_ceiling,"
                "ceiling,one_thread_s,busy_share,late_start_s,tail_s,ptxi_copies\n");
}

static void print_row(const options *o, const bench_case *c, unsigned threads, double ceil, const result *res,
                      double t1)
{
    if (res->ptxi1_s > 0) t1 = res->ptxi1_s; /* paired in the row's own process (time_ptxi) */
    if (res->row_ceil > 0) ceil = res->row_ceil;
    double lanes = res->warp_insns ? (double)res->thread_insns / (double)res->warp_insns : 0.0;
    double jit = res->warp_insns ? 100.0 * (double)res->jit_warp_insns / (double)res->warp_insns : 0.0;
    double rate = res->ran ? (double)res->thread_insns / res->ptxi_s : 0.0;
    double ratio = res->ran ? res->ptxi_s / res->native_s : 0.0;
    double speedup = threads != 1 && t1 > 0 && res->ran ? t1 / res->ptxi_s : 0.0;
    const char *check = !res->ran ? "FAIL" : res->match ? "ok" : "MISMATCH";
    char sp[16] = "-";
    if (speedup > 0) snprintf(sp, sizeof sp, "%.2fx", speedup);
    /* The most this host can give ptxi here: the vector ceiling, or what its
     * memory gives, when that is lower: n copies of the native reference run
     * native_ceil times faster than one, and ptxi, slower than native by
     * t1 / native_s on one thread, asks that much less of the memory (when
     * ptxi is the faster, the native figure itself). */
    double bound = ceil, slower = t1 > res->native_s && res->native_s > 0 ? t1 / res->native_s : 1.0;
    if (bound > 0 && res->native_ceil > 0 && res->native_ceil * slower < bound) bound = res->native_ceil * slower;
    char nc[16] = "-", sh[16] = "-";
    if (res->native_ceil > 0) snprintf(nc, sizeof nc, "%.2fx", res->native_ceil);
    if (speedup > 0 && bound > 0) snprintf(sh, sizeof sh, "%.2f", speedup / bound);
    unsigned shown = threads ? threads : cores();
    if (res->ran)
        printf("%-16s %4u %12.4g %6.2f %5.1f %10.3g %9.4f %9.1f %9.4f %9.2fx %8s %8s %7s  %s\n", c->name, shown,
               (double)res->thread_insns, lanes, jit, rate, res->ptxi_s, res->maxrss_kib / 1024.0, res->native_s, ratio, sp,
               nc, sh, check);
    else
        printf("%-16s %4u %12s %6s %5s %10s %9s %9.1f %9.4f %10s %8s %8s %7s  %s\n", c->name, shown, "-", "-", "-", "-",
               "-", res->maxrss_kib / 1024.0, res->native_s, "-", "-", "-", "-", check);
    if (res->msg[0]) printf("    %s\n", res->msg);
    if (res->ran && shown > 1)
        printf("    %u host threads busy %.0f%% of the best run; the last started %.0f us late, the first ended %.0f "
               "us early\n",
               shown, 100 * res->busy_share, 1e6 * res->late_s, 1e6 * res->tail_s);
    if (res->copies > 0)
        printf("    %u copies of the kernel on one thread each: %.2fx (%.3f ms alone, %.3f ms together); the launch "
               "gets %.2f of that\n",
               shown, res->copies, 1e3 * res->copies_alone_s, 1e3 * res->copies_all_s, speedup / res->copies);
    fflush(stdout);
    if (o->csv)
        fprintf(o->csv,
                "%s,%u,%llu,%llu,%.6g,%.6g,%.6g,%.1f,%.6g,%.6g,%.6g,%s,"
                "%.4g,%.6g,%.6g,%.4f,%.4g,%.4g,%.6g,%.4f,%.6g,%.6g,%.4g\n",
                c->name, shown, (unsigned long long)res->thread_insns, (unsigned long long)res->warp_insns, rate,
                res->ptxi_s, res->ptxi_cpu_s, res->maxrss_kib / 1024.0, res->native_s, ratio, speedup, check, ceil,
                res->ptxi_cpu_min_s, res->native_cpu_s, jit / 100.0, res->native_ceil, bound, t1, res->busy_share,
                res->late_s, res->tail_s, res->copies);
}

/* With --rounds, a row's figures are each one's least over its processes:
 * the kernel's (and its launch figures with it), native C's, the one-thread
 * time it is paired with, and each ceiling's two times, from which the
 * ceiling is taken again. On the 16-CPU host, a process's one thread ran
 * ptxi's code 1.7-1.9x slower in about two processes of three, and the
 * speed-up of a row of one process moved with it (bench/README.md, round
 * 15); the least times are all the fast processes' figures. */

static void keep_least(result *res, const result *again, unsigned n)
{
    result r = again->ptxi_s < res->ptxi_s ? *again : *res;
    r.native_s = least(res->native_s, again->native_s);
    r.ptxi_cpu_min_s = least(res->ptxi_cpu_min_s, again->ptxi_cpu_min_s);
    r.native_cpu_s = least(res->native_cpu_s, again->native_cpu_s);
    r.ptxi1_s = least(res->ptxi1_s, again->ptxi1_s);
    r.ceil_one_s = least(res->ceil_one_s, again->ceil_one_s);
    r.ceil_all_s = least(res->ceil_all_s, again->ceil_all_s);
    if (r.ceil_one_s > 0 && r.ceil_all_s > 0) r.row_ceil = n * r.ceil_one_s / r.ceil_all_s;
    r.nat_alone_s = least(res->nat_alone_s, again->nat_alone_s);
    r.nat_all_s = least(res->nat_all_s, again->nat_all_s);
    if (r.nat_alone_s > 0 && r.nat_all_s > 0) r.native_ceil = n * r.nat_alone_s / r.nat_all_s;
    r.copies_alone_s = least(res->copies_alone_s, again->copies_alone_s);
    r.copies_all_s = least(res->copies_all_s, again->copies_all_s);
    if (r.copies_alone_s > 0 && r.copies_all_s > 0) r.copies = n * r.copies_alone_s / r.copies_all_s;
    r.maxrss_kib = res->maxrss_kib > again->maxrss_kib ? res->maxrss_kib : again->maxrss_kib;
    *res = r;
}

static int selected(const options *o, const char *name)
{
    if (!o->only) return 1;
    size_t len = strlen(name);
    for (const char *p = o->only; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && !strncmp(p, name, n)) return 1;
        p += n + (end != NULL);
    }
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ptxi-bench [options]\n"
            "  -k, --only NAME[,NAME...]  run only these kernels (see --list)\n"
            "  -n, --reps N               timed runs after the warm-up, best counts (default 3)\n"
            "  -r, --rounds N             child processes per row, each time the least of them (default 1)\n"
            "  -s, --scale F              multiply problem sizes by F (default 1)\n"
            "  -t, --threads LIST         host thread counts, 0 = all cores (default 1,0)\n"
            "      --timeout S            give up on one kernel after S seconds (default 300)\n"
            "      --kernels DIR          folder of the .ptx files (default %s)\n"
            "      --csv FILE             also write the table as CSV\n"
            "      --no-fork              run everything in this process (for debuggers)\n"
            "      --no-ceiling           skip measuring the host's own scaling first\n"
            "      --copies               rows of n threads: also time n copies of the kernel on one thread each\n"
            "  -l, --list                 list the kernels and exit\n",
            PTXI_BENCH_KERNELS);
}

static int parse_threads(options *o, const char *s)
{
    o->nthreads = 0;
    for (char *end; *s && o->nthreads < 8; s = end + (*end == ',')) {
        unsigned long v = strtoul(s, &end, 10);
        if (end == s || (*end && *end != ',')) return -1;
        o->threads[o->nthreads++] = (unsigned)v;
    }
    return o->nthreads ? 0 : -1;
}

int main(int argc, char **argv)
{
    options o = {.reps = 3,
                 .rounds = 1,
                 .scale = 1.0,
                 .threads = {1, 0},
                 .nthreads = 2,
                 .timeout_s = 300,
                 .fork = 1,
                 .kernels = PTXI_BENCH_KERNELS,
                 .ceiling = 1};
    /* clang-format off */
    static const struct option longopts[] = {
        {"only", required_argument, 0, 'k'},
        {"reps", required_argument, 0, 'n'},
        {"rounds", required_argument, 0, 'r'},
        {"scale", required_argument, 0, 's'},
        {"threads", required_argument, 0, 't'},
        {"timeout", required_argument, 0, 'T'},
        {"kernels", required_argument, 0, 'K'},
        {"csv", required_argument, 0, 'c'},
        {"no-fork", no_argument, 0, 'F'},
        {"list", no_argument, 0, 'l'},
        {"help", no_argument, 0, 'h'},
        {"no-ceiling", no_argument, 0, 'C'},
        {"copies", no_argument, 0, 'P'},
        {0, 0, 0, 0},
    };
    /* clang-format on */
    for (int ch; (ch = getopt_long(argc, argv, "k:n:r:s:t:lh", longopts, NULL)) != -1;) {
        switch (ch) {
        case 'k': o.only = optarg; break;
        case 'n': o.reps = atoi(optarg) > 0 ? atoi(optarg) : 1; break;
        case 'r': o.rounds = atoi(optarg) > 0 ? atoi(optarg) : 1; break;
        case 's': o.scale = atof(optarg) > 0 ? atof(optarg) : 1.0; break;
        case 't':
            if (parse_threads(&o, optarg)) {
                fprintf(stderr, "ptxi-bench: bad --threads list '%s'\n", optarg);
                return 2;
            }
            break;
        case 'T': o.timeout_s = (unsigned)strtoul(optarg, NULL, 10); break;
        case 'K': o.kernels = optarg; break;
        case 'c':
            if (!(o.csv = fopen(optarg, "w"))) {
                fprintf(stderr, "ptxi-bench: %s: %s\n", optarg, strerror(errno));
                return 2;
            }
            break;
        case 'F': o.fork = 0; break;
        case 'C': o.ceiling = 0; break;
        case 'P': o.copies = 1; break;
        case 'l':
            for (int i = 0; i < NCASES; i++) printf("%-16s %-18s %s\n", cases[i]->name, cases[i]->ptx, cases[i]->about);
            return 0;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind < argc) {
        usage(stderr);
        return 2;
    }

    int failures = 0, ran = 0;
    print_header(&o);
    for (int i = 0; i < NCASES; i++) {
        const bench_case *c = cases[i];
        if (!selected(&o, c->name)) continue;
        double t1 = 0;
        for (int j = 0; j < o.nthreads; j++) {
            /* On a shared host one process may land on a slower CPU than the
             * next: with --rounds each row keeps its best child. */
            result res;
            run_isolated(c, &o, o.threads[j], &res);
            for (int r = 1; r < o.rounds && res.ran && res.match; r++) {
                result again;
                run_isolated(c, &o, o.threads[j], &again);
                if (!(again.ran && again.match)) {
                    res = again;
                    break;
                }
                keep_least(&res, &again, o.threads[j] ? o.threads[j] : cores());
            }
            if (o.threads[j] == 1 && res.ran) t1 = res.ptxi_s;
            print_row(&o, c, o.threads[j], o.ceil_of[j], &res, t1);
            failures += !(res.ran && res.match);
        }
        ran++;
    }
    if (o.csv) fclose(o.csv);
    if (!ran) {
        fprintf(stderr, "ptxi-bench: no kernel matches '%s' (see --list)\n", o.only);
        return 2;
    }
    return failures ? 1 : 0;
}
