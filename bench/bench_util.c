/* bench_util.c — helpers the benchmark cases use to describe themselves
 * (buffers, arguments, deterministic input data); shared by ptxi-bench and the
 * GPU job that checks the native references against real hardware. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

void *bench_alloc(size_t bytes)
{
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "ptxi-bench: out of host memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

int bench_add_buf(bench_run *r, size_t bytes, int dir)
{
    bench_buf *b = &r->buf[r->nbuf];
    memset(b, 0, sizeof *b);
    b->bytes = bytes;
    b->dir = dir;
    b->init = bench_alloc(bytes);
    return r->nbuf++;
}

static bench_arg *next_arg(bench_run *r)
{
    if (r->narg == BENCH_MAX_ARGS) {
        fprintf(stderr, "ptxi-bench: more than %d kernel arguments\n", BENCH_MAX_ARGS);
        abort();
    }
    bench_arg *a = &r->arg[r->narg++];
    memset(a, 0, sizeof *a);
    return a;
}

void bench_arg_buf(bench_run *r, int buf) { next_arg(r)->buf = buf; }

void bench_arg_u64(bench_run *r, uint64_t v)
{
    bench_arg *a = next_arg(r);
    a->buf = -1;
    a->bits = v;
}

void bench_arg_u32(bench_run *r, uint32_t v) { bench_arg_u64(r, v); }

void bench_arg_f32(bench_run *r, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    bench_arg_u32(r, u);
}

uint64_t bench_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void bench_fill_u32(uint32_t *p, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i += 2) {
        uint64_t v = bench_rand(&seed);
        p[i] = (uint32_t)v;
        if (i + 1 < n) p[i + 1] = (uint32_t)(v >> 32);
    }
}

void bench_fill_f32(float *p, size_t n, uint64_t seed, float lo, float hi)
{
    for (size_t i = 0; i < n; i++) p[i] = lo + (hi - lo) * (float)(bench_rand(&seed) >> 40) * 0x1p-24f;
}

int64_t bench_scaled(int64_t base, double scale, int64_t multiple)
{
    int64_t v = (int64_t)llround((double)base * scale / (double)multiple) * multiple;
    return v < multiple ? multiple : v;
}

/* Inputs are never written by the reference, so `ref` shares `init` for them. */
void bench_reset_refs(bench_run *r)
{
    for (int i = 0; i < r->nbuf; i++) {
        bench_buf *b = &r->buf[i];
        if (b->dir == BB_IN) b->ref = b->init;
        else {
            if (!b->ref) b->ref = bench_alloc(b->bytes);
            memcpy(b->ref, b->init, b->bytes);
        }
    }
}

/* Outside tol * (|want| + floor), or NaN where the other is not. */
static int off_tol(const bench_run *r, uint32_t want, uint32_t got)
{
    float fw, fg;
    memcpy(&fw, &want, 4);
    memcpy(&fg, &got, 4);
    return !(fabs((double)fg - fw) <= r->tol * (fabs((double)fw) + r->tol_floor));
}

/* The first output word that differs (beyond the case's tolerance), and how
 * many do; then the GPU digest, if the case has one at this size. */
int bench_compare(const bench_run *r, char *msg, size_t len)
{
    for (int i = 0; i < r->nbuf; i++) {
        const bench_buf *b = &r->buf[i];
        if (!(b->dir & BB_OUT) || !memcmp(b->ref, b->got, b->bytes)) continue;
        const uint32_t *want = b->ref, *got = b->got;
        size_t n = b->bytes / 4, first = n, bad = 0;
        for (size_t j = 0; j < n; j++)
            if (r->tol > 0 ? off_tol(r, want[j], got[j]) : want[j] != got[j]) {
                first = first < n ? first : j;
                bad++;
            }
        if (!bad) continue;
        float fw, fg;
        memcpy(&fw, &want[first], 4);
        memcpy(&fg, &got[first], 4);
        snprintf(msg, len, "buffer %d word %zu: got 0x%08x (%g), native 0x%08x (%g); %zu of %zu words differ%s", i,
                 first, got[first], (double)fg, want[first], (double)fw, bad, n,
                 r->tol > 0 ? " beyond the tolerance" : "");
        return 0;
    }
    if (r->gpu_digest && bench_digest_of(r) != r->gpu_digest) {
        snprintf(msg, len, "output digest %016llx, the GPU's %016llx", (unsigned long long)bench_digest_of(r),
                 (unsigned long long)r->gpu_digest);
        return 0;
    }
    return 1;
}

uint64_t bench_digest_of(const bench_run *r)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < r->nbuf; i++) {
        const bench_buf *b = &r->buf[i];
        if (!(b->dir & BB_OUT)) continue;
        const uint32_t *w = b->got;
        for (size_t j = 0; j < b->bytes / 4; j++) h = (h ^ w[j]) * 0x100000001b3ull;
    }
    return h;
}

uint64_t bench_gpu_digest(const bench_digest *table, double scale)
{
    for (; table->scale > 0; table++)
        if (fabs(table->scale - scale) < 1e-9) return table->digest;
    return 0;
}
