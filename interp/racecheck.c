/* racecheck.c — `ptxi sanitize --tool racecheck`: shared-memory hazards between
 * threads of a CTA that no barrier orders, reported as compute-sanitizer's
 * racecheck reports them (its analysis mode, the default).
 *
 * Under racecheck every CTA's smem_size reads 0 (smem_full holds the size), so
 * every shared access misses the handlers' fast paths and reaches
 * vm_san_access, which hands it here. Each byte of shared memory remembers its
 * last write and its last read: who (thread), where (instruction) and when (the
 * CTA's barrier phase, and the warp's __syncwarp phase). An access conflicts
 * with a remembered one of another thread of the same phase when one of the
 * two writes: read after write, write after read, write after write. Each
 * conflicting access counts one hazard for its pair of instructions (earlier
 * access first); at the end of the launch every pair is one record with its
 * count, records with the same first access printed together as
 * compute-sanitizer prints them. Threads of different warps make an error;
 * threads of one warp a warning (lanes of a warp do not run in lockstep since
 * Volta, but code written for warps that did is common). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "racecheck.h"

/* One remembered access. */
typedef struct acc {
    const vm_insn *i;          /* NULL: none */
    uint32_t tid;              /* linear thread index in the CTA */
    uint32_t phase;            /* the CTA's barrier phase at the access */
    uint32_t wphase;           /* its warp's __syncwarp phase */
} acc;

typedef struct cell {
    acc w, r;                  /* last write, last read since that write */
} cell;

struct vm_race_cta {
    cell *sh;                  /* one per byte of shared memory */
    uint32_t size;
    uint32_t phase;            /* barriers completed */
    uint32_t nwarps;
    uint32_t *wphase;          /* per warp: __syncwarp()s completed */
};

enum { RD, WR };
enum { SEV_ERROR, SEV_WARNING };

typedef struct hazard {
    const vm_insn *first, *second;
    uint8_t fkind, skind, sev;
    uint64_t count;
    long long fo, so;          /* code order of first and second (the report's) */
} hazard;

struct vm_race_grid {
    pthread_mutex_t lock;
    hazard *h;
    size_t n, cap;
};

vm_race_grid *vm_race_grid_new(void) {
    vm_race_grid *g = calloc(1, sizeof *g);
    if (g) pthread_mutex_init(&g->lock, NULL);
    return g;
}

vm_race_cta *vm_race_cta_begin(vm_race_cta *r, vm_cta *cta) {
    if (!r || r->size != cta->smem_full || r->nwarps != cta->nwarps) {
        vm_race_cta_free(r);
        r = calloc(1, sizeof *r);
        if (!r) return NULL;
        r->size = cta->smem_full;
        r->nwarps = cta->nwarps;
        r->sh = calloc(r->size ? r->size : 1, sizeof *r->sh);
        r->wphase = calloc(r->nwarps ? r->nwarps : 1, sizeof *r->wphase);
        if (!r->sh || !r->wphase) {
            vm_race_cta_free(r);
            return NULL;
        }
    } else {
        memset(r->sh, 0, (size_t)r->size * sizeof *r->sh);
        memset(r->wphase, 0, r->nwarps * sizeof *r->wphase);
    }
    r->phase = 0;
    return r;
}

void vm_race_cta_free(vm_race_cta *r) {
    if (!r) return;
    free(r->sh);
    free(r->wphase);
    free(r);
}

void vm_race_barrier(vm_race_cta *r) {
    if (r) r->phase++;
}

void vm_race_warp_sync(vm_race_cta *r, uint32_t warp) {
    if (r && warp < r->nwarps) r->wphase[warp]++;
}

/* Counts one hazard of the pair (first, second). */
static void count(vm_race_grid *g, const acc *first, uint8_t fkind, const vm_insn *second, uint8_t skind,
                  uint8_t sev) {
    pthread_mutex_lock(&g->lock);
    size_t k = 0;
    while (k < g->n && !(g->h[k].first == first->i && g->h[k].second == second && g->h[k].fkind == fkind &&
                         g->h[k].skind == skind && g->h[k].sev == sev))
        k++;
    if (k == g->n) {
        if (g->n == g->cap) {
            size_t nc = g->cap ? g->cap * 2 : 16;
            hazard *nh = realloc(g->h, nc * sizeof *nh);
            if (!nh) { pthread_mutex_unlock(&g->lock); return; }
            g->h = nh;
            g->cap = nc;
        }
        g->h[g->n++] = (hazard){first->i, second, fkind, skind, sev, 0, 0, 0};
    }
    g->h[k].count++;
    pthread_mutex_unlock(&g->lock);
}

/* The earlier access a, of another thread, is not ordered before one of
 * thread tid now. */
static bool concurrent(const vm_race_cta *r, const acc *a, uint32_t tid, uint32_t phase, uint32_t wphase) {
    if (!a->i || a->tid == tid || a->phase != phase) return false;
    if (a->tid / VM_LANES != tid / VM_LANES) return true;
    (void)r;
    return a->wphase == wphase;
}

/* A conflict found for one access: the pair and its severity. */
typedef struct found {
    acc first;
    uint8_t fkind, sev;
} found;

static void note(found *f, int *nf, const acc *a, uint8_t kind, uint32_t tid) {
    uint8_t sev = a->tid / VM_LANES == tid / VM_LANES ? SEV_WARNING : SEV_ERROR;
    for (int k = 0; k < *nf; k++)
        if (f[k].first.i == a->i && f[k].fkind == kind && f[k].sev == sev) return;
    if (*nf < 8) f[(*nf)++] = (found){*a, kind, sev};
}

void vm_race_access(vm_race_grid *g, vm_race_cta *r, const vm_warp *w, const vm_insn *i, int lane, uint32_t a,
                    unsigned n, bool wr) {
    if (!r || !g || (uint64_t)a + n > r->size) return;
    uint32_t tid = w->id * VM_LANES + (uint32_t)lane, ph = r->phase, wph = r->wphase[w->id];
    found f[8];
    int nf = 0;
    acc now = {i, tid, ph, wph};
    for (unsigned b = 0; b < n; b++) {
        cell *c = &r->sh[a + b];
        if (concurrent(r, &c->w, tid, ph, wph)) note(f, &nf, &c->w, WR, tid);
        if (wr) {
            if (concurrent(r, &c->r, tid, ph, wph)) note(f, &nf, &c->r, RD, tid);
            c->w = now;
            c->r.i = NULL;
        } else
            c->r = now;
    }
    for (int k = 0; k < nf; k++) count(g, &f[k].first, f[k].fkind, i, wr ? WR : RD, f[k].sev);
}

/* ---- the report ---- */

static const vm_func *func_of(const vm_program *p, const vm_insn *i) {
    for (uint32_t k = 0; k < p->nfuncs; k++) {
        const vm_func *f = &p->funcs[k];
        if (f->code && i >= f->code && i <= f->code + f->ncode) return f;
    }
    return NULL;
}

/* Code order: by function, then instruction. */
static long long order(const vm_program *p, const vm_insn *i) {
    const vm_func *f = func_of(p, i);
    return f ? (long long)(f - p->funcs) << 32 | (long long)(i - f->code) : 0;
}

/* Errors first; then by the first access in code order, then the second. */
static int by_first(const void *x, const void *y) {
    const hazard *a = x, *b = y;
    if (a->sev != b->sev) return a->sev - b->sev;
    if (a->fo != b->fo) return a->fo < b->fo ? -1 : 1;
    if (a->fkind != b->fkind) return a->fkind - b->fkind;
    if (a->so != b->so) return a->so < b->so ? -1 : 1;
    return a->skind - b->skind;
}

static const char *const kind_name[] = {"Read", "Write"};

void vm_race_report(vm_race_grid *g, vm_san *s, const vm_program *p) {
    if (!g) return;
    for (size_t k = 0; k < g->n; k++) g->h[k].fo = order(p, g->h[k].first), g->h[k].so = order(p, g->h[k].second);
    qsort(g->h, g->n, sizeof *g->h, by_first);
    size_t cap = 4096;
    char *text = malloc(cap);
    for (size_t k = 0; text && k < g->n;) {
        const hazard *h0 = &g->h[k];
        char at[1024];
        const vm_func *f = func_of(p, h0->first);
        vm_san_at(f, h0->first, at, sizeof at);
        size_t len = (size_t)snprintf(text, cap, "%s: Race reported between %s access at %s",
                                      h0->sev == SEV_ERROR ? "Error" : "Warning", kind_name[h0->fkind], at);
        size_t j = k;
        for (; j < g->n && g->h[j].first == h0->first && g->h[j].fkind == h0->fkind && g->h[j].sev == h0->sev; j++) {
            const hazard *h = &g->h[j];
            vm_san_at(func_of(p, h->second), h->second, at, sizeof at);
            char line[1200];
            int m = snprintf(line, sizeof line, "\n    and %s access at %s [%llu hazard%s]", kind_name[h->skind], at,
                             (unsigned long long)h->count, h->count == 1 ? "" : "s");
            if (m > 0 && len + (size_t)m + 1 < cap) {
                memcpy(text + len, line, (size_t)m + 1);
                len += (size_t)m;
            }
        }
        vm_san_hazard(s, text, h0->sev == SEV_WARNING);
        k = j;
    }
    free(text);
    free(g->h);
    pthread_mutex_destroy(&g->lock);
    free(g);
}
