/* racecheck.c — `ptxi sanitize --tool racecheck`: shared-memory hazards between
 * threads of a CTA that no barrier orders, reported as compute-sanitizer's
 * racecheck reports them (its analysis mode, the default; the rules are in
 * tools/SANITIZER.md).
 *
 * Under racecheck every CTA's smem_size reads 0 (smem_full holds the size), so
 * every shared access misses the handlers' fast paths and reaches
 * vm_san_access, which hands it here. The accesses of a barrier phase are
 * logged, each with its warp's count of shared-access instructions so far (its
 * tick); when the phase ends they are replayed in the order warps running in
 * lockstep would make them — by tick, then warp, then lane — as the GPU
 * interleaves its warps, where ptxi runs one warp until it waits. In the
 * replay each byte of shared memory remembers its last write (and the value
 * written) and its last read since, of the current phase (the CTA's barrier
 * count): who, where, and the warp's __syncwarp count. An access conflicts
 * with a remembered one of another thread when one of the two writes; each
 * byte of each conflicting access counts one hazard for its pair of
 * instructions. At the end of the launch every pair is one record.
 *
 * The shadow is 20 bytes per byte of shared memory: instructions are numbered
 * per CTA slot (an intern table), threads and __syncwarp counts take 16 bits,
 * and one phase stamp serves both remembered accesses, since accesses of an
 * earlier phase never conflict (a cell stamped with another phase is empty). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "racecheck.h"

/* One access: its instruction's number (0: none), thread (linear index in
 * the CTA) and warp's __syncwarp phase (modulo 2^16: two accesses of one warp
 * 65536 __syncwarp()s apart in one barrier phase would look unordered). */
typedef struct acc {
    uint32_t ins;
    uint16_t tid, wphase;
} acc;

typedef struct cell {
    acc w, r;       /* last write, last read since that write */
    uint16_t phase; /* the CTA's barrier phase (modulo 2^16) of w and r */
    uint8_t wval;   /* the byte that write stored */
    bool wknown;    /* ... when known */
} cell;

/* One access of the phase, as logged. */
typedef struct logged {
    uint32_t ins;  /* the instruction's number */
    uint32_t tick; /* the warp's shared-access instructions before this one */
    uint32_t tid, wphase, addr;
    uint16_t n;
    uint8_t wr, known;
    uint8_t val[16]; /* a write's bytes (the first 16), when known */
} logged;

/* Where each warp is in the phase: its tick, and the instruction and lane of
 * its last access (a lane not above the last, or another instruction, starts
 * a new tick). */
typedef struct wpos {
    const vm_insn *i;
    uint32_t ins; /* i's number */
    uint32_t tick;
    int lane;
} wpos;

struct vm_race_cta {
    cell *sh; /* one per byte of shared memory */
    uint32_t size;
    const vm_insn **ins;   /* instruction numbers: ins[n - 1] is number n */
    uint32_t nins, capins;
    uint32_t *hash, hcap;  /* open addressing, instruction to number */
    uint32_t phase; /* barriers completed */
    uint32_t nwarps;
    uint32_t *wphase;     /* per warp: __syncwarp()s completed */
    wpos *pos;            /* per warp */
    logged *log;      /* the phase's accesses */
    uint32_t *sorted; /* the replay's order: indices into log */
    size_t nlog, caplog, capsorted;
    size_t *bucket, capkeys; /* the replay's counting sort */
};

/* Accesses logged at most before a phase is replayed early (order across the
 * cut is then ptxi's). */
#define LOG_MAX ((size_t)1 << 20)

enum { RD, WR };
enum { SEV_ERROR, SEV_WARNING };

/* The hazards between two instructions, a before b in code order. */
typedef struct hazard {
    const vm_insn *a, *b;
    uint8_t akind, bkind, sev;
    uint64_t count;
    long long ao, bo; /* code order of a and b (the report's) */
} hazard;

struct vm_race_grid {
    pthread_mutex_t lock;
    const vm_program *prog;
    hazard *h;
    size_t n, cap;
};

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

vm_race_grid *vm_race_grid_new(const vm_program *p) {
    vm_race_grid *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    pthread_mutex_init(&g->lock, NULL);
    g->prog = p;
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
        r->pos = calloc(r->nwarps ? r->nwarps : 1, sizeof *r->pos);
        if (!r->sh || !r->wphase || !r->pos) {
            vm_race_cta_free(r);
            return NULL;
        }
    } else {
        memset(r->sh, 0, (size_t)r->size * sizeof *r->sh); /* the stamps of the CTA before */
        memset(r->wphase, 0, r->nwarps * sizeof *r->wphase);
        memset(r->pos, 0, r->nwarps * sizeof *r->pos);
    }
    r->phase = 0;
    r->nlog = 0;
    return r;
}

void vm_race_cta_free(vm_race_cta *r) {
    if (!r) return;
    free(r->sh);
    free(r->ins);
    free(r->hash);
    free(r->wphase);
    free(r->pos);
    free(r->log);
    free(r->sorted);
    free(r->bucket);
    free(r);
}

void vm_race_warp_sync(vm_race_cta *r, uint32_t warp) {
    if (r && warp < r->nwarps) r->wphase[warp]++;
}

/* A conflict of the access now with an earlier one: its pair of
 * instructions (in code order) and severity, and how many bytes. */
typedef struct found {
    const vm_insn *a, *b;
    uint8_t akind, bkind, sev;
    uint64_t bytes;
} found;

/* The earlier access e, of another thread, is not ordered before thread
 * tid's now; *sev: threads of different warps, or one instruction of one warp
 * (several lanes write one place at once), make an error, the rest of one warp
 * a warning (racecheck's "warp level programming"). */
static bool concurrent(const acc *e, const acc *now, uint8_t *sev) {
    if (!e->ins || e->tid == now->tid) return false;
    bool warp = e->tid / VM_LANES == now->tid / VM_LANES;
    if (warp && e->wphase != now->wphase) return false;
    *sev = warp && e->ins != now->ins ? SEV_WARNING : SEV_ERROR;
    return true;
}

static void note(vm_race_grid *g, const vm_race_cta *r, found *f, int *nf, const acc *e, uint8_t ekind,
                 const acc *now, uint8_t kind, uint8_t sev) {
    const vm_insn *ei = r->ins[e->ins - 1], *ni = r->ins[now->ins - 1];
    bool before = order(g->prog, ei) <= order(g->prog, ni);
    found x = before ? (found){ei, ni, ekind, kind, sev, 1} : (found){ni, ei, kind, ekind, sev, 1};
    for (int k = 0; k < *nf; k++)
        if (f[k].a == x.a && f[k].b == x.b && f[k].akind == x.akind && f[k].bkind == x.bkind) {
            f[k].bytes++;
            if (sev < f[k].sev) f[k].sev = sev;
            return;
        }
    if (*nf < 8) f[(*nf)++] = x;
}

/* Adds what one access found to the launch's pairs. */
static void count(vm_race_grid *g, const found *f, int nf) {
    pthread_mutex_lock(&g->lock);
    for (int q = 0; q < nf; q++) {
        size_t k = 0;
        while (k < g->n && !(g->h[k].a == f[q].a && g->h[k].b == f[q].b && g->h[k].akind == f[q].akind &&
                             g->h[k].bkind == f[q].bkind))
            k++;
        if (k == g->n) {
            if (g->n == g->cap) {
                size_t nc = g->cap ? g->cap * 2 : 16;
                hazard *nh = realloc(g->h, nc * sizeof *nh);
                if (!nh) break;
                g->h = nh;
                g->cap = nc;
            }
            g->h[g->n++] = (hazard){f[q].a, f[q].b, f[q].akind, f[q].bkind, f[q].sev, 0, 0, 0};
        }
        g->h[k].count += f[q].bytes;
        if (f[q].sev < g->h[k].sev) g->h[k].sev = f[q].sev;
    }
    pthread_mutex_unlock(&g->lock);
}

/* One access of the replay against the shadow. */
static inline __attribute__((always_inline)) void check(vm_race_grid *g, vm_race_cta *r, const logged *e) {
    acc now = {e->ins, (uint16_t)e->tid, (uint16_t)e->wphase};
    uint16_t phase = (uint16_t)r->phase;
    found f[8];
    int nf = 0;
    uint8_t sev;
    for (unsigned b = 0; b < e->n; b++) {
        cell *c = &r->sh[e->addr + b];
        if (c->phase != phase) { /* what it remembers is of an earlier phase */
            c->phase = phase;
            c->w.ins = c->r.ins = 0;
        }
        if (!e->wr) {
            if (concurrent(&c->w, &now, &sev)) note(g, r, f, &nf, &c->w, WR, &now, RD, sev);
            c->r = now;
            continue;
        }
        if (concurrent(&c->r, &now, &sev)) note(g, r, f, &nf, &c->r, RD, &now, WR, sev);
        /* a write of the value the byte holds changes nothing: no hazard */
        bool known = e->known && b < sizeof e->val;
        if ((!known || !c->wknown || e->val[b] != c->wval) && concurrent(&c->w, &now, &sev))
            note(g, r, f, &nf, &c->w, WR, &now, WR, sev);
        c->w = now;
        c->wval = known ? e->val[b] : 0;
        c->wknown = known;
        c->r.ins = 0;
    }
    if (nf) count(g, f, nf);
}

/* Where e goes in the replay: by tick, then the higher warp first (what the
 * GPU showed where warps tie: gpu/jobs/sanrace-checks2 race_probe2 a and b),
 * then as logged (lane order). */
static size_t replay_key(const vm_race_cta *r, const logged *e) {
    return (size_t)e->tick * r->nwarps + (r->nwarps - 1 - e->tid / VM_LANES);
}

/* Replays the phase's log in lockstep order (replay_key). A counting sort:
 * ticks are small and the log is in order within each warp. */
static void replay(vm_race_grid *g, vm_race_cta *r) {
    if (!r || !r->nlog) return;
    uint32_t maxt = 0;
    for (size_t k = 0; k < r->nlog; k++)
        if (r->log[k].tick > maxt) maxt = r->log[k].tick;
    size_t nkeys = ((size_t)maxt + 1) * r->nwarps + 1;
    if (nkeys > r->capkeys) {
        size_t *nb = realloc(r->bucket, nkeys * sizeof *nb);
        if (!nb) {
            r->nlog = 0;
            return;
        }
        r->bucket = nb;
        r->capkeys = nkeys;
    }
    if (r->capsorted < r->nlog) {
        uint32_t *ns = realloc(r->sorted, r->caplog * sizeof *ns);
        if (!ns) {
            r->nlog = 0;
            return;
        }
        r->sorted = ns;
        r->capsorted = r->caplog;
    }
    memset(r->bucket, 0, nkeys * sizeof *r->bucket);
    for (size_t k = 0; k < r->nlog; k++) r->bucket[replay_key(r, &r->log[k]) + 1]++;
    for (size_t k = 1; k < nkeys; k++) r->bucket[k] += r->bucket[k - 1];
    for (size_t k = 0; k < r->nlog; k++) r->sorted[r->bucket[replay_key(r, &r->log[k])]++] = (uint32_t)k;
    for (size_t k = 0; k < r->nlog; k++) check(g, r, &r->log[r->sorted[k]]);
    r->nlog = 0;
    memset(r->pos, 0, r->nwarps * sizeof *r->pos);
}

void vm_race_barrier(vm_race_grid *g, vm_race_cta *r) {
    if (!r) return;
    replay(g, r);
    /* stamps are 16 bits: where they wrap, the cells of 65536 phases ago are cleared */
    if (!(uint16_t)++r->phase) memset(r->sh, 0, (size_t)r->size * sizeof *r->sh);
}

/* The number of instruction i in r (from 1), or 0 without memory. */
static uint32_t ins_number(vm_race_cta *r, const vm_insn *i) {
    if (r->nins * 2 >= r->hcap) {
        uint32_t nc = r->hcap ? 2 * r->hcap : 256, *nh = calloc(nc, sizeof *nh);
        if (!nh) return 0;
        for (uint32_t k = 0; k < r->nins; k++) {
            uint32_t h = (uint32_t)((uintptr_t)r->ins[k] >> 4) * 2654435761u & (nc - 1);
            while (nh[h]) h = (h + 1) & (nc - 1);
            nh[h] = k + 1;
        }
        free(r->hash);
        r->hash = nh;
        r->hcap = nc;
    }
    uint32_t h = (uint32_t)((uintptr_t)i >> 4) * 2654435761u & (r->hcap - 1);
    for (; r->hash[h]; h = (h + 1) & (r->hcap - 1))
        if (r->ins[r->hash[h] - 1] == i) return r->hash[h];
    if (r->nins == r->capins) {
        uint32_t nc = r->capins ? 2 * r->capins : 64;
        const vm_insn **ni = realloc(r->ins, nc * sizeof *ni);
        if (!ni) return 0;
        r->ins = ni;
        r->capins = nc;
    }
    r->ins[r->nins++] = i;
    return r->hash[h] = r->nins;
}

void vm_race_cta_end(vm_race_grid *g, vm_race_cta *r) { replay(g, r); }

void vm_race_access(vm_race_grid *g, vm_race_cta *r, const vm_warp *w, const vm_insn *i, int lane, uint32_t a,
                    unsigned n, bool wr, const uint8_t *val) {
    if (!r || !g || (uint64_t)a + n > r->size) return;
    if (r->nlog == r->caplog) {
        if (r->nlog >= LOG_MAX) replay(g, r);
        else {
            size_t nc = r->caplog ? 2 * r->caplog : 1024;
            logged *nl = realloc(r->log, nc * sizeof *nl);
            if (!nl) return;
            r->log = nl;
            r->caplog = nc;
        }
    }
    wpos *p = &r->pos[w->id];
    uint32_t ins = p->i == i && p->ins ? p->ins : ins_number(r, i);
    if (!ins) return;
    if (p->i != i || lane <= p->lane) {
        if (p->i) p->tick++;
        p->i = i;
        p->ins = ins;
    }
    p->lane = lane;
    logged *e = &r->log[r->nlog];
    *e = (logged){ins, p->tick, w->id * VM_LANES + (uint32_t)lane, r->wphase[w->id], a, (uint16_t)n, wr, val != NULL,
                  {0}};
    if (val) memcpy(e->val, val, n < sizeof e->val ? n : sizeof e->val);
    r->nlog++;
}

/* ---- the report ---- */

/* By the first instruction in code order, then the second. */
static int by_code(const void *x, const void *y) {
    const hazard *a = x, *b = y;
    if (a->ao != b->ao) return a->ao < b->ao ? -1 : 1;
    if (a->akind != b->akind) return a->akind - b->akind;
    if (a->bo != b->bo) return a->bo < b->bo ? -1 : 1;
    return a->bkind - b->bkind;
}

static const char *const kind_name[] = {"Read", "Write"};

void vm_race_report(vm_race_grid *g, vm_san *s) {
    if (!g) return;
    const vm_program *p = g->prog;
    for (size_t k = 0; k < g->n; k++) g->h[k].ao = order(p, g->h[k].a), g->h[k].bo = order(p, g->h[k].b);
    if (g->n) qsort(g->h, g->n, sizeof *g->h, by_code); /* g->h is NULL without hazards */
    size_t cap = 8192;
    char *text = malloc(cap);
    /* one record per first access (and severity), each second access on a line of its own */
    for (size_t k = 0; text && k < g->n;) {
        const hazard *h0 = &g->h[k];
        char at[1024];
        vm_san_at(func_of(p, h0->a), h0->a, at, sizeof at, NULL, 0);
        size_t len = (size_t)snprintf(text, cap, "%s: Race reported between %s access at %s",
                                      h0->sev == SEV_ERROR ? "Error" : "Warning", kind_name[h0->akind], at);
        size_t j = k;
        for (; j < g->n && g->h[j].a == h0->a && g->h[j].akind == h0->akind && g->h[j].sev == h0->sev; j++) {
            const hazard *h = &g->h[j];
            vm_san_at(func_of(p, h->b), h->b, at, sizeof at, NULL, 0);
            char line[1200];
            int m = snprintf(line, sizeof line, "\n    and %s access at %s [%llu hazard%s]", kind_name[h->bkind], at,
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
