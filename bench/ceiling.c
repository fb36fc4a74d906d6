/* ceiling.c — ptxi-ceiling: how far this machine itself scales from 1 to N
 * host threads, without ptxi, so that ptxi-bench's speed-ups can be read
 * against it. Every thread does the same fixed work, alone and then all at
 * once; the speed-up ceiling is N × (time alone) / (time together). Three
 * kinds of work: a latency-bound chain (one dependent integer hash: leaves
 * most of a core idle, so SMT siblings hide each other), a throughput-bound
 * mix (eight independent chains of integer and float work: a core's ports
 * busy, as in an interpreter), the same mix on 16-lane vectors (what ptxi's
 * lane loops compile to: with AVX-512 many cores clock lower when all of
 * them run wide vector code), and a memory stream (c = a + b over 96 MB per
 * thread). A throughput ceiling well below N means the "cores" share
 * execution units (SMT) or clocks drop with load.
 * Usage: ptxi-ceiling [N] (default: one thread per core). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

enum { STREAM_N = 1 << 23 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static volatile uint64_t sink;

static void latency(long id) {
    uint32_t h = (uint32_t)id;
    for (long i = 0; i < 300000000L; i++) h = (h ^ (h >> 15)) * 0x2c1b3c6dU;
    sink += h;
}

static void throughput(long id) {
    uint32_t h[8];
    float f[8];
    for (int k = 0; k < 8; k++) h[k] = (uint32_t)(id * 8 + k), f[k] = (float)k;
    for (long i = 0; i < 200000000L; i++)
        for (int k = 0; k < 8; k++) {
            h[k] = (h[k] ^ (h[k] >> 13)) * 0x5bd1e995U + (uint32_t)i;
            f[k] = f[k] * 0.999f + (float)(h[k] & 255);
        }
    for (int k = 0; k < 8; k++) sink += h[k] + (uint64_t)f[k];
}

typedef uint32_t u16v __attribute__((vector_size(64)));
typedef float f16v __attribute__((vector_size(64)));

static void vector_mix(long id) {
    u16v h[4];
    f16v f[4];
    for (int k = 0; k < 4; k++)
        for (int l = 0; l < 16; l++) h[k][l] = (uint32_t)(id * 64 + k * 16 + l), f[k][l] = (float)l;
    for (long i = 0; i < 100000000L; i++)
        for (int k = 0; k < 4; k++) {
            h[k] = (h[k] ^ (h[k] >> 13)) * 0x5bd1e995U + (uint32_t)i;
            f[k] = f[k] * 0.999f + __builtin_convertvector(h[k] & 255, f16v);
        }
    for (int k = 0; k < 4; k++)
        for (int l = 0; l < 16; l++) sink += h[k][l] + (uint64_t)f[k][l];
}

static float *bufs[512][3];

static void stream(long id) {
    float *a = bufs[id][0], *b = bufs[id][1], *c = bufs[id][2];
    for (int r = 0; r < 16; r++)
        for (long i = 0; i < STREAM_N; i++) c[i] = a[i] + b[i] * (float)r;
}

typedef struct { void (*fn)(long); long id; } job;
static void *run(void *p) { job *j = p; j->fn(j->id); return NULL; }

static double together(void (*fn)(long), int n) {
    pthread_t th[512];
    job jobs[512];
    double t = now();
    for (int k = 0; k < n; k++) jobs[k] = (job){fn, k}, pthread_create(&th[k], NULL, run, &jobs[k]);
    for (int k = 0; k < n; k++) pthread_join(th[k], NULL);
    return now() - t;
}

int main(int argc, char **argv) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int n = argc > 1 ? atoi(argv[1]) : (int)cores;
    if (n < 1 || n > 512) return fprintf(stderr, "usage: ptxi-ceiling [threads 1..512]\n"), 2;
    for (int k = 0; k < n; k++)
        for (int j = 0; j < 3; j++) {
            if (!(bufs[k][j] = malloc(sizeof(float) * STREAM_N))) return fprintf(stderr, "out of memory\n"), 1;
            for (long i = 0; i < STREAM_N; i++) bufs[k][j][i] = (float)i;
        }
    static const struct { const char *name; void (*fn)(long); } kinds[] = {
        {"latency-bound chain", latency}, {"throughput-bound mix", throughput},
        {"16-lane vector mix", vector_mix}, {"memory stream", stream}};
    printf("ptxi-ceiling: %d threads on %ld CPUs (best of 3)\n\n%-22s %10s %10s %10s\n", n, cores, "work", "1 thread",
           "N threads", "ceiling");
    for (size_t w = 0; w < sizeof kinds / sizeof *kinds; w++) {
        double one = 1e30, all = 1e30;
        for (int r = 0; r < 3; r++) {
            double t1 = together(kinds[w].fn, 1), tn = together(kinds[w].fn, n);
            if (t1 < one) one = t1;
            if (tn < all) all = tn;
        }
        printf("%-22s %9.3fs %9.3fs %9.2fx\n", kinds[w].name, one, all, n * one / all);
    }
    return 0;
}
