/* host_scaling.c — the machine's own scaling (host_scaling.h). */
#include "host_scaling.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

double host_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static _Atomic uint64_t sink;

void host_keep(uint64_t v) { atomic_fetch_add_explicit(&sink, v, memory_order_relaxed); }

typedef uint32_t u16v __attribute__((vector_size(64)));
typedef float f16v __attribute__((vector_size(64)));

void host_vector_mix(long id, long iters)
{
    u16v h[4];
    f16v f[4];
    for (int k = 0; k < 4; k++)
        for (int l = 0; l < 16; l++) h[k][l] = (uint32_t)(id * 64 + k * 16 + l), f[k][l] = (float)l;
    for (long i = 0; i < iters; i++)
        for (int k = 0; k < 4; k++) {
            h[k] = (h[k] ^ (h[k] >> 13)) * 0x5bd1e995U + (uint32_t)i;
            f[k] = f[k] * 0.999f + __builtin_convertvector(h[k] & 255, f16v);
        }
    uint64_t s = 0;
    for (int k = 0; k < 4; k++)
        for (int l = 0; l < 16; l++) s += h[k][l] + (uint64_t)f[k][l];
    host_keep(s);
}

typedef struct {
    host_work fn;
    long id, iters;
} job;
static void *run(void *p)
{
    job *j = p;
    j->fn(j->id, j->iters);
    return NULL;
}

static double together(host_work fn, long iters, int n)
{
    pthread_t th[512];
    job jobs[512];
    bool made[512];
    double t = host_now();
    for (int k = 0; k < n && k < 512; k++) {
        jobs[k] = (job){fn, k, iters};
        made[k] = pthread_create(&th[k], NULL, run, &jobs[k]) == 0;
        if (!made[k]) run(&jobs[k]);
    }
    for (int k = 0; k < n && k < 512; k++)
        if (made[k]) pthread_join(th[k], NULL);
    return host_now() - t;
}

double host_ceiling(host_work work, long iters, int n, int reps, double *one, double *all)
{
    double t1 = 1e30, tn = 1e30;
    for (int r = 0; r < reps; r++) {
        double a = together(work, iters, 1), b = together(work, iters, n);
        if (a < t1) t1 = a;
        if (b < tn) tn = b;
    }
    if (one) *one = t1;
    if (all) *all = tn;
    return n * t1 / tn;
}
