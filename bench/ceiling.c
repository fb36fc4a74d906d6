/* ceiling.c — ptxi-ceiling: how far this machine itself scales from 1 to N
 * host threads, without ptxi, so that ptxi-bench's speed-ups can be read
 * against it. Every thread does the same fixed work, alone and then all at
 * once; the speed-up ceiling is N × (time alone) / (time together). Four
 * kinds of work: a latency-bound chain (one dependent integer hash: leaves
 * most of a core idle, so SMT siblings hide each other), a throughput-bound
 * mix (eight independent chains of integer and float work: a core's ports
 * busy, as in an interpreter), the same mix on 16-lane vectors (what ptxi's
 * lane loops compile to; ptxi-bench measures this one too), float
 * multiply-add alone on 16-lane vectors (eight independent chains: what a
 * tiled matmul's inner loop is; many CPUs clock lowest for it), and a memory
 * stream (c = a + b over 96 MB per thread). A throughput ceiling well below N
 * means the "cores" share execution units (SMT) or clocks drop with load.
 * Usage: ptxi-ceiling [N] (default: one thread per core). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "host_scaling.h"

enum { STREAM_N = 1 << 23 };

static void latency(long id, long iters)
{
    uint32_t h = (uint32_t)id;
    for (long i = 0; i < iters; i++) h = (h ^ (h >> 15)) * 0x2c1b3c6dU;
    host_keep(h);
}

static void throughput(long id, long iters)
{
    uint32_t h[8];
    float f[8];
    for (int k = 0; k < 8; k++) h[k] = (uint32_t)(id * 8 + k), f[k] = (float)k;
    for (long i = 0; i < iters; i++)
        for (int k = 0; k < 8; k++) {
            h[k] = (h[k] ^ (h[k] >> 13)) * 0x5bd1e995U + (uint32_t)i;
            f[k] = f[k] * 0.999f + (float)(h[k] & 255);
        }
    uint64_t s = 0;
    for (int k = 0; k < 8; k++) s += h[k] + (uint64_t)f[k];
    host_keep(s);
}

typedef float f16v __attribute__((vector_size(64)));

static void vector_fma(long id, long iters)
{
    f16v a[8], m;
    for (int l = 0; l < 16; l++) m[l] = 0.9999f;
    for (int k = 0; k < 8; k++)
        for (int l = 0; l < 16; l++) a[k][l] = (float)(id + k + l);
    for (long i = 0; i < iters; i++)
#pragma GCC unroll 8
        for (int k = 0; k < 8; k++) a[k] = a[k] * m + m;
    float s = 0;
    for (int k = 0; k < 8; k++)
        for (int l = 0; l < 16; l++) s += a[k][l];
    host_keep((uint64_t)s);
}

static float *bufs[512][3];

static void stream(long id, long iters)
{
    float *a = bufs[id][0], *b = bufs[id][1], *c = bufs[id][2];
    for (long r = 0; r < iters; r++)
        for (long i = 0; i < STREAM_N; i++) c[i] = a[i] + b[i] * (float)r;
}

int main(int argc, char **argv)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int n = argc > 1 ? atoi(argv[1]) : (int)cores;
    if (n < 1 || n > 512) return fprintf(stderr, "usage: ptxi-ceiling [threads 1..512]\n"), 2;
    for (int k = 0; k < n; k++)
        for (int j = 0; j < 3; j++) {
            if (!(bufs[k][j] = malloc(sizeof(float) * STREAM_N))) return fprintf(stderr, "out of memory\n"), 1;
            for (long i = 0; i < STREAM_N; i++) bufs[k][j][i] = (float)i;
        }
    static const struct {
        const char *name;
        host_work fn;
        long iters;
    } kinds[] = {
        {"latency-bound chain", latency, 300000000L},
        {"throughput-bound mix", throughput, 200000000L},
        {"16-lane vector mix", host_vector_mix, 100000000L},
        {"16-lane fma only", vector_fma, 400000000L},
        {"memory stream", stream, 16},
    };
    printf("ptxi-ceiling: %d threads on %ld CPUs (best of 3)\n\n%-22s %10s %10s %10s\n", n, cores, "work", "1 thread",
           "N threads", "ceiling");
    for (size_t w = 0; w < sizeof kinds / sizeof *kinds; w++) {
        double one, all, c = host_ceiling(kinds[w].fn, kinds[w].iters, n, 3, &one, &all);
        printf("%-22s %9.3fs %9.3fs %9.2fx\n", kinds[w].name, one, all, c);
    }
    return 0;
}
