/* pgraph.c — CUDA graphs for both libraries (pgraph.h): nodes and edges, copies
 * (cudaGraphClone, child graphs, executable graphs), instantiation in dependency order,
 * launches, executable-graph updates, conditional nodes, graph-owned memory and stream
 * capture across streams joined by events. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgraph.h"
#include "rt.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void unlock_and_destroy(void);

/* Live graphs, nodes, executable graphs and conditional handles, so that a stale or
 * made-up handle is an error, not a crash: open-addressed sets of pointers. */
typedef struct pset {
    uintptr_t *slots; /* 0 empty, 1 deleted */
    size_t cap, used; /* used: live and deleted slots */
} pset;
static pset graphs, execs, nodes, conds, uobjs;

static size_t slot_of(uintptr_t p, size_t cap) { return (size_t)((p >> 4) * 0x9e3779b97f4a7c15ull) & (cap - 1); }

static void remember(pset *set, const void *p) {
    uintptr_t v = (uintptr_t)p;
    if ((set->used + 1) * 2 > set->cap) {
        size_t cap = set->cap ? set->cap * 2 : 64;
        uintptr_t *fresh = calloc(cap, sizeof *fresh);
        if (!fresh) return;
        size_t used = 0;
        for (size_t i = 0; i < set->cap; i++)
            if (set->slots[i] > 1) {
                size_t k = slot_of(set->slots[i], cap);
                while (fresh[k]) k = (k + 1) & (cap - 1);
                fresh[k] = set->slots[i];
                used++;
            }
        free(set->slots);
        set->slots = fresh, set->cap = cap, set->used = used;
    }
    size_t k = slot_of(v, set->cap);
    while (set->slots[k] > 1) k = (k + 1) & (set->cap - 1);
    if (!set->slots[k]) set->used++;
    set->slots[k] = v;
}

static uintptr_t *find_slot(const pset *set, const void *p) {
    if (!set->cap || !p) return NULL;
    for (size_t k = slot_of((uintptr_t)p, set->cap), n = 0; set->slots[k] && n < set->cap;
         k = (k + 1) & (set->cap - 1), n++)
        if (set->slots[k] == (uintptr_t)p) return &set->slots[k];
    return NULL;
}

static void forget(pset *set, const void *p) {
    uintptr_t *at = find_slot(set, p);
    if (at) *at = 1;
}

static bool known(const pset *set, const void *p) { return find_slot(set, p) != NULL; }

struct ptxi_gexec {
    ptxi_graph *g; /* its own copy */
    size_t *order;
    unsigned long long flags;
    bool top; /* not a child's or a body's */
};

/* ---- graph memory ---- */

static pg_block *blocks;
static uint64_t used_high, reserved_high;

static void mem_totals(uint64_t *used, uint64_t *reserved) {
    *used = *reserved = 0;
    for (pg_block *b = blocks; b; b = b->next) {
        if (b->live || b->reserved) *used += b->size, *reserved += b->size;
    }
}

static void mem_note(void) {
    uint64_t used, reserved;
    mem_totals(&used, &reserved);
    if (used > used_high) used_high = used;
    if (reserved > reserved_high) reserved_high = reserved;
}

/* Memory no node names and no one uses goes back at once if it never ran, else at
 * the next trim (as CUDA keeps graph memory reserved until cudaDeviceGraphMemTrim). */
static void block_release(pg_block *b) {
    for (pg_block **p = &blocks; *p; p = &(*p)->next)
        if (*p == b) {
            *p = b->next;
            break;
        }
    ptxi_mem_free(b->ctx, b->p);
    free(b);
}

static void block_unref(pg_block *b) {
    if (!b || --b->refs > 0 || b->live || b->reserved) return;
    block_release(b);
}

static pg_block *block_at(ptxi_dptr p) {
    for (pg_block *b = blocks; b; b = b->next)
        if (b->p == p) return b;
    return NULL;
}

int pg_mem_free(ptxi_dptr p) {
    pthread_mutex_lock(&lock);
    pg_block *b = p ? block_at(p) : NULL;
    int e = !b ? -1 : b->live ? PG_OK : PG_INVALID_VALUE;
    if (b && b->live) {
        b->live = false;
        b->refs++;
        block_unref(b); /* gone if no node names it any more */
    }
    unlock_and_destroy();
    return e;
}

int pg_mem_attribute(int attr, uint64_t *value, int set) {
    if (!value || attr < 0 || attr > 3) return PG_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    uint64_t used, reserved;
    mem_totals(&used, &reserved);
    int e = PG_OK;
    if (set) {
        if ((attr != 1 && attr != 3) || *value != 0) e = PG_INVALID_VALUE;
        else if (attr == 1) used_high = used;
        else reserved_high = reserved;
    } else {
        *value = attr == 0 ? used : attr == 1 ? used_high : attr == 2 ? reserved : reserved_high;
    }
    unlock_and_destroy();
    return e;
}

int pg_mem_trim(void) {
    pthread_mutex_lock(&lock);
    for (pg_block *b = blocks, *next; b; b = next) {
        next = b->next;
        if (b->live) continue;
        b->reserved = false;
        if (b->refs <= 0) block_release(b);
    }
    unlock_and_destroy();
    return PG_OK;
}

/* ---- nodes ---- */

static void cond_unref(pg_cond *c) {
    if (c && atomic_fetch_sub(&c->refs, 1) == 1) {
        forget(&conds, c);
        free(c);
    }
}

/* ---- user objects ---- */

struct pg_uobj {
    void *ptr;
    void (*destroy)(void *);
    unsigned refs;
    pg_uobj *next_dead; /* to be destroyed once the lock is released */
};

static pg_uobj *dead;

/* Drops count references (under the lock); the last one queues the destructor. */
static void uobj_drop(pg_uobj *o, unsigned count) {
    o->refs = count >= o->refs ? 0 : o->refs - count;
    if (o->refs) return;
    forget(&uobjs, o);
    o->next_dead = dead;
    dead = o;
}

/* Unlocks, then runs the destructors of user objects whose last reference went. */
static void unlock_and_destroy(void) {
    pg_uobj *d = dead;
    dead = NULL;
    pthread_mutex_unlock(&lock);
    while (d) {
        pg_uobj *next = d->next_dead;
        if (d->destroy) d->destroy(d->ptr);
        free(d);
        d = next;
    }
}

static int graph_hold(ptxi_graph *g, pg_uobj *o, unsigned count) {
    for (size_t i = 0; i < g->nurefs; i++)
        if (g->urefs[i].o == o) {
            g->urefs[i].count += count;
            return PG_OK;
        }
    pg_uref *bigger = realloc(g->urefs, (g->nurefs + 1) * sizeof *bigger);
    if (!bigger) return PG_NO_MEMORY;
    g->urefs = bigger;
    g->urefs[g->nurefs++] = (pg_uref){o, count};
    return PG_OK;
}

static void graph_free(ptxi_graph *g);
static void exec_free(ptxi_gexec *x);

static void node_free(ptxi_gnode *n) {
    if (!n) return;
    forget(&nodes, n);
    for (unsigned i = 0; i < n->kernel.nargs; i++) free(n->kernel.args[i]);
    free(n->kernel.args);
    free(n->deps);
    if (n->child) graph_free(n->child);
    for (unsigned i = 0; n->bodies && i < n->cond_size; i++) graph_free(n->bodies[i]);
    free(n->bodies);
    unsigned nsubs = n->type == PG_GRAPH ? 1 : n->cond_size;
    for (unsigned i = 0; n->subs && i < nsubs; i++) exec_free(n->subs[i]);
    free(n->subs);
    cond_unref(n->cond);
    block_unref(n->block);
    free(n);
}

static int copy_args(pg_kernel *dst, void *const *args) {
    unsigned n = ptxi_kernel_param_count(dst->k);
    dst->nargs = 0;
    dst->args = calloc(n ? n : 1, sizeof *dst->args);
    if (!dst->args) return PG_NO_MEMORY;
    for (unsigned i = 0; i < n; i++) {
        size_t size, align, offset;
        if (!args || !args[i] || ptxi_kernel_param_info(dst->k, i, &size, &align, &offset) != PTXI_SUCCESS)
            return PG_INVALID_VALUE;
        if (!(dst->args[i] = malloc(size ? size : 1))) return PG_NO_MEMORY;
        dst->nargs = i + 1;
        memcpy(dst->args[i], args[i], size);
    }
    return PG_OK;
}

static void free_args(pg_kernel *k) {
    for (unsigned i = 0; i < k->nargs; i++) free(k->args[i]);
    free(k->args);
    k->args = NULL, k->nargs = 0;
}

static int graph_copy(ptxi_graph *src, ptxi_graph **out);

/* Fills a new node of p's type from p (the graph and edges are set by the caller). */
static int node_fill(ptxi_gnode *n, pg_params *p) {
    n->type = p->type;
    n->enabled = true;
    switch (p->type) {
    case PG_KERNEL:
        if (!p->kernel.k) return PG_INVALID_VALUE;
        n->kernel = p->kernel;
        n->kernel.args = NULL;
        return copy_args(&n->kernel, p->kernel.args);
    case PG_MEMCPY: n->copy = p->copy; return PG_OK;
    case PG_MEMSET:
        if (p->set.elem != 1 && p->set.elem != 2 && p->set.elem != 4) return PG_INVALID_VALUE;
        if (!p->set.dst) return PG_INVALID_VALUE;
        n->set = p->set;
        return PG_OK;
    case PG_HOST:
        if (!p->host.fn) return PG_INVALID_VALUE;
        n->host = p->host;
        return PG_OK;
    case PG_EMPTY: return PG_OK;
    case PG_WAIT_EVENT:
    case PG_EVENT_RECORD:
        if (!p->event || !ptxi_event_live(p->event)) return PG_INVALID_HANDLE;
        n->event = p->event;
        return PG_OK;
    case PG_GRAPH: {
        if (!p->child || !known(&graphs, p->child)) return PG_INVALID_VALUE;
        for (size_t i = 0; i < p->child->n; i++) {
            int t = p->child->nodes[i]->type;
            if (t == PG_MEM_ALLOC || t == PG_MEM_FREE) return PG_NOT_SUPPORTED;
        }
        int e = graph_copy(p->child, &n->child);
        if (e == PG_OK) n->child->owner = n;
        return e;
    }
    case PG_MEM_ALLOC: {
        if (!p->bytes || !p->ctx) return PG_INVALID_VALUE;
        if (p->reuse) { /* freed before this node runs: the same memory (and address) again */
            n->block = p->reuse;
            n->block->refs++;
            p->dptr = n->block->p;
            return PG_OK;
        }
        pg_block *b = calloc(1, sizeof *b);
        if (!b) return PG_NO_MEMORY;
        if (ptxi_mem_alloc(p->ctx, p->bytes, &b->p) != PTXI_SUCCESS) {
            free(b);
            return PG_NO_MEMORY;
        }
        b->ctx = p->ctx, b->size = p->bytes, b->refs = 1;
        b->next = blocks, blocks = b;
        n->block = b;
        p->dptr = b->p;
        return PG_OK;
    }
    case PG_MEM_FREE:
        if (!p->dptr || !block_at(p->dptr)) return PG_INVALID_VALUE;
        n->free_ptr = p->dptr;
        return PG_OK;
    case PG_CONDITIONAL: {
        pg_cond *c = (pg_cond *)(uintptr_t)p->handle;
        unsigned size = p->cond_size;
        if (!known(&conds, c) || !size || (p->cond_type == PG_COND_WHILE && size != 1) ||
            (p->cond_type == PG_COND_IF && size > 2) || p->cond_type < 0 || p->cond_type > PG_COND_SWITCH)
            return PG_INVALID_VALUE;
        if (!(n->bodies = calloc(size, sizeof *n->bodies))) return PG_NO_MEMORY;
        n->cond_size = size, n->cond_type = p->cond_type;
        for (unsigned i = 0; i < size; i++) {
            if (!(n->bodies[i] = calloc(1, sizeof *n->bodies[i]))) return PG_NO_MEMORY;
            n->bodies[i]->owner = n;
            remember(&graphs, n->bodies[i]);
        }
        atomic_fetch_add(&c->refs, 1);
        n->cond = c;
        p->bodies = n->bodies;
        return PG_OK;
    }
    default: return PG_NOT_SUPPORTED;
    }
}

static int append(ptxi_graph *g, ptxi_gnode *n, ptxi_gnode *const *deps, size_t ndeps) {
    for (size_t i = 0; i < ndeps; i++)
        if (!deps[i] || deps[i]->graph != g) return PG_INVALID_VALUE;
    if (g->n == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 16;
        ptxi_gnode **bigger = realloc(g->nodes, cap * sizeof *bigger);
        if (!bigger) return PG_NO_MEMORY;
        g->nodes = bigger, g->cap = cap;
    }
    if (ndeps && !(n->deps = malloc(ndeps * sizeof *n->deps))) return PG_NO_MEMORY;
    if (ndeps) memcpy(n->deps, deps, ndeps * sizeof *n->deps);
    n->ndeps = ndeps;
    n->graph = g;
    remember(&nodes, n);
    n->index = g->n;
    g->nodes[g->n++] = n;
    return PG_OK;
}

static bool reaches(const ptxi_gnode *from, const ptxi_gnode *target);

/* Memory an allocation after deps can take over: a block of the graph at least as
 * large, freed by a free node that comes before deps, and not allocated again since. */
static pg_block *reusable(ptxi_graph *g, ptxi_gnode *const *deps, size_t ndeps, size_t bytes) {
    for (size_t i = 0; i < g->n; i++) {
        ptxi_gnode *f = g->nodes[i];
        pg_block *b = f->type == PG_MEM_FREE ? block_at(f->free_ptr) : NULL;
        if (!b || b->size < bytes) continue;
        bool mine = false, before = false, taken = false;
        for (size_t k = 0; k < g->n; k++) mine |= g->nodes[k]->block == b;
        for (size_t d = 0; d < ndeps && !before; d++) before = reaches(deps[d], f);
        for (size_t k = 0; k < g->n && !taken; k++)
            taken = g->nodes[k]->block == b && g->nodes[k]->type == PG_MEM_ALLOC && reaches(g->nodes[k], f);
        if (mine && before && !taken) return b;
    }
    return NULL;
}

static int add_locked(ptxi_graph *g, ptxi_gnode *const *deps, size_t ndeps, pg_params *p, ptxi_gnode **out) {
    if (!g || !known(&graphs, g) || !p || (ndeps && !deps)) return PG_INVALID_VALUE;
    if (g->owner && g->owner->type == PG_CONDITIONAL &&
        (p->type == PG_HOST || p->type == PG_MEM_ALLOC || p->type == PG_MEM_FREE || p->type == PG_WAIT_EVENT ||
         p->type == PG_EVENT_RECORD))
        return PG_INVALID_VALUE; /* not allowed in a conditional body */
    for (size_t i = 0; i < ndeps; i++)
        if (!known(&nodes, deps[i]) || deps[i]->graph != g) return PG_INVALID_VALUE;
    if (p->type == PG_MEM_ALLOC) p->reuse = reusable(g, deps, ndeps, p->bytes);
    ptxi_gnode *n = calloc(1, sizeof *n);
    if (!n) return PG_NO_MEMORY;
    int e = node_fill(n, p);
    if (e == PG_OK) e = append(g, n, deps, ndeps);
    if (e != PG_OK) {
        node_free(n);
        return e;
    }
    if (out) *out = n;
    return PG_OK;
}

int pg_add(ptxi_graph *g, ptxi_gnode *const *deps, size_t ndeps, pg_params *p, ptxi_gnode **out) {
    pthread_mutex_lock(&lock);
    int e = add_locked(g, deps, ndeps, p, out);
    unlock_and_destroy();
    return e;
}

/* A copy of node o (no edges): kernel arguments copied, child graphs and bodies
 * copied, the handle and the memory shared. */
static ptxi_gnode *node_copy(const ptxi_gnode *o) {
    ptxi_gnode *n = malloc(sizeof *n);
    if (!n) return NULL;
    *n = *o;
    n->deps = NULL, n->ndeps = 0, n->kernel.args = NULL, n->kernel.nargs = 0;
    n->child = NULL, n->bodies = NULL, n->subs = NULL, n->cond = NULL, n->block = NULL;
    n->origin = o;
    bool ok = true;
    if (o->type == PG_KERNEL) ok = copy_args(&n->kernel, o->kernel.args) == PG_OK;
    if (ok && o->child) {
        ok = graph_copy(o->child, &n->child) == PG_OK;
        if (ok) n->child->owner = n;
    }
    if (ok && o->bodies) {
        ok = (n->bodies = calloc(o->cond_size, sizeof *n->bodies)) != NULL;
        for (unsigned i = 0; ok && i < o->cond_size; i++) {
            ok = graph_copy(o->bodies[i], &n->bodies[i]) == PG_OK;
            if (ok) n->bodies[i]->owner = n;
        }
    }
    if (o->cond) atomic_fetch_add(&o->cond->refs, 1), n->cond = o->cond;
    if (o->block) o->block->refs++, n->block = o->block;
    if (!ok) {
        if (!n->bodies) n->cond_size = 0;
        node_free(n);
        return NULL;
    }
    return n;
}

static void graph_free(ptxi_graph *g) {
    if (!g) return;
    forget(&graphs, g);
    for (size_t i = 0; i < g->n; i++) node_free(g->nodes[i]);
    for (size_t i = 0; i < g->nconds; i++) cond_unref(g->conds[i]);
    free(g->conds);
    for (size_t i = 0; i < g->nurefs; i++) uobj_drop(g->urefs[i].o, g->urefs[i].count);
    free(g->urefs);
    free(g->nodes);
    free(g);
}

/* Nodes come after the nodes they depend on, so a copy's dependencies are copies
 * already made, at the same index. */
static int graph_copy(ptxi_graph *src, ptxi_graph **out) {
    ptxi_graph *g = calloc(1, sizeof *g);
    if (!g) return PG_NO_MEMORY;
    remember(&graphs, g);
    int e = PG_OK;
    if (src->nconds && !(g->conds = malloc(src->nconds * sizeof *g->conds))) e = PG_NO_MEMORY;
    for (size_t i = 0; e == PG_OK && i < src->nconds; i++) {
        g->conds[i] = src->conds[i];
        atomic_fetch_add(&g->conds[i]->refs, 1);
        g->nconds = i + 1;
    }
    for (size_t i = 0; e == PG_OK && i < src->nurefs; i++) {
        e = graph_hold(g, src->urefs[i].o, src->urefs[i].count);
        if (e == PG_OK) src->urefs[i].o->refs += src->urefs[i].count;
    }
    size_t n = src->n;
    ptxi_gnode **tmp = e == PG_OK ? calloc(n + 1, sizeof *tmp) : NULL;
    if (e == PG_OK && !tmp) e = PG_NO_MEMORY;
    /* copies at the original indices, so that an index names the same node */
    for (size_t i = 0; e == PG_OK && i < n; i++)
        if (!(tmp[i] = node_copy(src->nodes[i]))) e = PG_NO_MEMORY;
    if (e == PG_OK && n) {
        g->nodes = malloc(n * sizeof *g->nodes);
        if (!g->nodes) e = PG_NO_MEMORY;
        g->cap = n;
    }
    for (size_t i = 0; e == PG_OK && i < n; i++) {
        const ptxi_gnode *o = src->nodes[i];
        ptxi_gnode *c = tmp[i];
        if (o->ndeps && !(c->deps = malloc(o->ndeps * sizeof *c->deps))) {
            e = PG_NO_MEMORY;
            break;
        }
        for (size_t d = 0; d < o->ndeps; d++) c->deps[d] = tmp[o->deps[d]->index];
        c->ndeps = o->ndeps;
        c->graph = g;
        c->index = i;
        remember(&nodes, c);
    }
    if (e == PG_OK) {
        memcpy(g->nodes, tmp, n * sizeof *tmp);
        g->n = n;
    }
    for (size_t i = 0; tmp && e != PG_OK && i < n; i++) node_free(tmp[i]);
    free(tmp);
    if (e != PG_OK) {
        graph_free(g);
        return e;
    }
    *out = g;
    return PG_OK;
}

int pg_create(ptxi_graph **out) {
    if (!out) return PG_INVALID_VALUE;
    ptxi_graph *g = calloc(1, sizeof *g);
    if (!g) return PG_NO_MEMORY;
    pthread_mutex_lock(&lock);
    remember(&graphs, g);
    unlock_and_destroy();
    *out = g;
    return PG_OK;
}

int pg_destroy(ptxi_graph *g) {
    pthread_mutex_lock(&lock);
    int e = g && known(&graphs, g) && !g->owner ? PG_OK : PG_INVALID_VALUE;
    if (e == PG_OK) graph_free(g);
    unlock_and_destroy();
    return e;
}

bool pg_is_graph(const ptxi_graph *g) {
    pthread_mutex_lock(&lock);
    bool ok = g && known(&graphs, g);
    unlock_and_destroy();
    return ok;
}

static bool node_ok(const ptxi_gnode *n) {
    return known(&nodes, n) && n->graph && known(&graphs, n->graph) && n->index < n->graph->n &&
           n->graph->nodes[n->index] == n;
}

bool pg_is_node(const ptxi_gnode *n) {
    pthread_mutex_lock(&lock);
    bool ok = node_ok(n);
    unlock_and_destroy();
    return ok;
}

int pg_clone(ptxi_graph *src, ptxi_graph **out) {
    if (!out) return PG_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    int e = src && known(&graphs, src) ? PG_OK : PG_INVALID_VALUE;
    for (size_t i = 0; e == PG_OK && i < src->n; i++) /* as CUDA: not a graph with memory nodes */
        if (src->nodes[i]->type == PG_MEM_ALLOC || src->nodes[i]->type == PG_MEM_FREE) e = PG_NOT_SUPPORTED;
    if (e == PG_OK) e = graph_copy(src, out);
    unlock_and_destroy();
    return e;
}

ptxi_gnode *pg_find_in_clone(ptxi_graph *clone, const ptxi_gnode *orig) {
    ptxi_gnode *found = NULL;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; clone && known(&graphs, clone) && i < clone->n && !found; i++)
        if (clone->nodes[i]->origin == orig) found = clone->nodes[i];
    unlock_and_destroy();
    return found;
}

static void drop_edge(ptxi_gnode *to, const ptxi_gnode *from) {
    for (size_t d = 0; d < to->ndeps; d++)
        if (to->deps[d] == from) {
            to->deps[d] = to->deps[--to->ndeps];
            return;
        }
}

int pg_destroy_node(ptxi_gnode *n) {
    pthread_mutex_lock(&lock);
    int e = node_ok(n) ? PG_OK : PG_INVALID_VALUE;
    if (e == PG_OK) {
        ptxi_graph *g = n->graph;
        for (size_t i = 0; i < g->n; i++) {
            ptxi_gnode *m = g->nodes[i];
            for (size_t d = m->ndeps; d-- > 0;)
                if (m->deps[d] == n) drop_edge(m, n);
        }
        memmove(g->nodes + n->index, g->nodes + n->index + 1, (g->n - n->index - 1) * sizeof *g->nodes);
        g->n--;
        for (size_t i = n->index; i < g->n; i++) g->nodes[i]->index = i;
        node_free(n);
    }
    unlock_and_destroy();
    return e;
}

/* Replaces n's type-specific parameters by those of p (a node already filled). */
static void take_params(ptxi_gnode *n, ptxi_gnode *f) {
    switch (n->type) {
    case PG_KERNEL:
        free_args(&n->kernel);
        n->kernel = f->kernel;
        f->kernel.args = NULL, f->kernel.nargs = 0;
        break;
    case PG_MEMCPY: n->copy = f->copy; break;
    case PG_MEMSET: n->set = f->set; break;
    case PG_HOST: n->host = f->host; break;
    case PG_WAIT_EVENT:
    case PG_EVENT_RECORD: n->event = f->event; break;
    default: break;
    }
}

static int set_locked(ptxi_gnode *n, pg_params *p) {
    if (!p || p->type != n->type) return PG_INVALID_VALUE;
    if (n->type != PG_KERNEL && n->type != PG_MEMCPY && n->type != PG_MEMSET && n->type != PG_HOST &&
        n->type != PG_WAIT_EVENT && n->type != PG_EVENT_RECORD)
        return PG_INVALID_VALUE;
    ptxi_gnode f = {0};
    int e = node_fill(&f, p);
    if (e == PG_OK) take_params(n, &f);
    free_args(&f.kernel);
    return e;
}

int pg_set_params(ptxi_gnode *n, pg_params *p) {
    pthread_mutex_lock(&lock);
    int e = node_ok(n) ? set_locked(n, p) : PG_INVALID_VALUE;
    unlock_and_destroy();
    return e;
}

/* Lists into out (up to *count), or counts when out is NULL. */
static void list(ptxi_gnode **out, size_t *count, size_t *k, ptxi_gnode *n) {
    if (out && *k < *count) out[*k] = n;
    (*k)++;
}

static void list_end(ptxi_gnode **out, size_t *count, size_t k) {
    if (out && k < *count)
        for (size_t i = k; i < *count; i++) out[i] = NULL;
    if (!out || k < *count) *count = k;
}

int pg_edges(ptxi_graph *g, ptxi_gnode **from, ptxi_gnode **to, size_t *count) {
    if (!count || (!from) != (!to)) return PG_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    int e = g && known(&graphs, g) ? PG_OK : PG_INVALID_VALUE;
    size_t k = 0;
    for (size_t i = 0; e == PG_OK && i < g->n; i++)
        for (size_t d = 0; d < g->nodes[i]->ndeps; d++) {
            if (to && k < *count) to[k] = g->nodes[i];
            list(from, count, &k, g->nodes[i]->deps[d]);
        }
    if (e == PG_OK) {
        if (to && k < *count)
            for (size_t i = k; i < *count; i++) to[i] = NULL;
        list_end(from, count, k);
    }
    unlock_and_destroy();
    return e;
}

int pg_deps(ptxi_gnode *n, ptxi_gnode **out, size_t *count, bool dependents) {
    if (!count) return PG_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    int e = node_ok(n) ? PG_OK : PG_INVALID_VALUE;
    size_t k = 0;
    if (e == PG_OK && !dependents)
        for (size_t d = 0; d < n->ndeps; d++) list(out, count, &k, n->deps[d]);
    for (size_t i = 0; e == PG_OK && dependents && i < n->graph->n; i++)
        for (size_t d = 0; d < n->graph->nodes[i]->ndeps; d++)
            if (n->graph->nodes[i]->deps[d] == n) list(out, count, &k, n->graph->nodes[i]);
    if (e == PG_OK) list_end(out, count, k);
    unlock_and_destroy();
    return e;
}

int pg_roots(ptxi_graph *g, ptxi_gnode **out, size_t *count) {
    if (!count) return PG_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    int e = g && known(&graphs, g) ? PG_OK : PG_INVALID_VALUE;
    size_t k = 0;
    for (size_t i = 0; e == PG_OK && i < g->n; i++)
        if (!g->nodes[i]->ndeps) list(out, count, &k, g->nodes[i]);
    if (e == PG_OK) list_end(out, count, k);
    unlock_and_destroy();
    return e;
}

int pg_nodes(ptxi_graph *g, ptxi_gnode **out, size_t *count) {
    if (!count) return PG_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    int e = g && known(&graphs, g) ? PG_OK : PG_INVALID_VALUE;
    size_t k = 0;
    for (size_t i = 0; e == PG_OK && i < g->n; i++) list(out, count, &k, g->nodes[i]);
    if (e == PG_OK) list_end(out, count, k);
    unlock_and_destroy();
    return e;
}

static bool has_edge(const ptxi_gnode *to, const ptxi_gnode *from) {
    for (size_t d = 0; d < to->ndeps; d++)
        if (to->deps[d] == from) return true;
    return false;
}

int pg_link(ptxi_graph *g, ptxi_gnode *const *from, ptxi_gnode *const *to, size_t n, bool add) {
    if (n && (!from || !to)) return PG_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    int e = g && known(&graphs, g) ? PG_OK : PG_INVALID_VALUE;
    for (size_t i = 0; e == PG_OK && i < n; i++)
        if (!node_ok(from[i]) || !node_ok(to[i]) || from[i]->graph != g || to[i]->graph != g || from[i] == to[i] ||
            has_edge(to[i], from[i]) != !add)
            e = PG_INVALID_VALUE;
    for (size_t i = 0; e == PG_OK && i < n; i++) {
        ptxi_gnode *t = to[i];
        if (!add) {
            drop_edge(t, from[i]);
            continue;
        }
        ptxi_gnode **bigger = realloc(t->deps, (t->ndeps + 1) * sizeof *bigger);
        if (!bigger) {
            e = PG_NO_MEMORY;
            break;
        }
        t->deps = bigger;
        t->deps[t->ndeps++] = from[i];
    }
    unlock_and_destroy();
    return e;
}

int pg_cond_create(ptxi_graph *g, unsigned dflt, unsigned flags, uint64_t *handle) {
    if (!handle || (flags & ~(unsigned)PG_COND_ASSIGN_DEFAULT)) return PG_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    int e = g && known(&graphs, g) ? PG_OK : PG_INVALID_VALUE;
    pg_cond *c = NULL, **bigger = NULL;
    if (e == PG_OK &&
        (!(c = calloc(1, sizeof *c)) || !(bigger = realloc(g->conds, (g->nconds + 1) * sizeof *bigger)))) {
        free(c);
        e = PG_NO_MEMORY;
    }
    if (e == PG_OK) {
        atomic_init(&c->value, dflt);
        atomic_init(&c->refs, 1);
        c->dflt = dflt, c->flags = flags;
        remember(&conds, c);
        g->conds = bigger;
        g->conds[g->nconds++] = c;
        *handle = (uint64_t)(uintptr_t)c;
    }
    unlock_and_destroy();
    return e;
}

/* A handle that is no live handle changes nothing. */
void pg_set_conditional(uint64_t handle, unsigned value) {
    pg_cond *c = (pg_cond *)(uintptr_t)handle;
    pthread_mutex_lock(&lock);
    if (known(&conds, c)) atomic_store(&c->value, value);
    unlock_and_destroy();
}

/* ---- executable graphs ---- */

static void exec_free(ptxi_gexec *x) {
    if (!x) return;
    if (x->top) {
        forget(&execs, x);
        for (size_t i = 0; x->g && i < x->g->n; i++)
            if (x->g->nodes[i]->block) x->g->nodes[i]->block->instantiated = false;
    }
    if (x->top) graph_free(x->g);
    free(x->order);
    free(x);
}

static int exec_build(ptxi_graph *g, ptxi_gexec **out, bool copy);

/* Dependency order (Kahn's algorithm), child graphs and bodies built too. */
static int exec_prepare(ptxi_gexec *x) {
    ptxi_graph *g = x->g;
    size_t n = g->n, done = 0, *pending = calloc(n + 1, sizeof *pending);
    x->order = calloc(n + 1, sizeof *x->order);
    int e = pending && x->order ? PG_OK : PG_NO_MEMORY;
    for (size_t i = 0; e == PG_OK && i < n; i++) pending[i] = g->nodes[i]->ndeps;
    while (e == PG_OK && done < n) {
        size_t before = done;
        for (size_t i = 0; i < n; i++) {
            if (pending[i] != 0) continue;
            pending[i] = (size_t)-1;
            x->order[done++] = i;
            for (size_t j = 0; j < n; j++)
                for (size_t d = 0; d < g->nodes[j]->ndeps; d++)
                    if (g->nodes[j]->deps[d] == g->nodes[i] && pending[j] != (size_t)-1) pending[j]--;
        }
        if (done == before) e = PG_INVALID_VALUE; /* a cycle */
    }
    free(pending);
    for (size_t i = 0; e == PG_OK && i < n; i++) {
        ptxi_gnode *m = g->nodes[i];
        unsigned subs = m->type == PG_GRAPH ? 1 : m->type == PG_CONDITIONAL ? m->cond_size : 0;
        if (!subs) continue;
        if (!(m->subs = calloc(subs, sizeof *m->subs))) e = PG_NO_MEMORY;
        for (unsigned k = 0; e == PG_OK && k < subs; k++)
            e = exec_build(m->type == PG_GRAPH ? m->child : m->bodies[k], &m->subs[k], false);
    }
    return e;
}

/* An executable graph of g: of a copy of g (top level), or of g itself (a child graph
 * or body, already the executable graph's own copy). */
static int exec_build(ptxi_graph *g, ptxi_gexec **out, bool copy) {
    ptxi_gexec *x = calloc(1, sizeof *x);
    if (!x) return PG_NO_MEMORY;
    x->top = copy;
    int e = copy ? graph_copy(g, &x->g) : PG_OK;
    if (!copy) x->g = g; /* its owner frees it */
    if (e == PG_OK) e = exec_prepare(x);
    if (e != PG_OK) {
        exec_free(x);
        return e;
    }
    *out = x;
    return PG_OK;
}

int pg_instantiate(ptxi_graph *g, unsigned long long flags, ptxi_gexec **out, ptxi_gnode **err_node) {
    if (!out) return PG_INVALID_VALUE;
    if (err_node) *err_node = NULL;
    pthread_mutex_lock(&lock);
    int e = g && known(&graphs, g) && !g->owner ? PG_OK : PG_INVALID_VALUE;
    for (size_t i = 0; e == PG_OK && i < g->n; i++)
        if (g->nodes[i]->block && g->nodes[i]->block->instantiated) e = PG_NOT_SUPPORTED;
    ptxi_gexec *x = NULL;
    if (e == PG_OK) e = exec_build(g, &x, true);
    if (e == PG_OK) {
        x->flags = flags;
        remember(&execs, x);
        for (size_t i = 0; i < x->g->n; i++)
            if (x->g->nodes[i]->block) x->g->nodes[i]->block->instantiated = true;
        *out = x;
    }
    unlock_and_destroy();
    return e;
}

int pg_exec_destroy(ptxi_gexec *x) {
    pthread_mutex_lock(&lock);
    int e = x && known(&execs, x) ? PG_OK : PG_INVALID_VALUE;
    if (e == PG_OK) exec_free(x);
    unlock_and_destroy();
    return e;
}

bool pg_is_exec(const ptxi_gexec *x) {
    pthread_mutex_lock(&lock);
    bool ok = x && known(&execs, x);
    unlock_and_destroy();
    return ok;
}

unsigned long long pg_exec_flags(ptxi_gexec *x) { return x ? x->flags : 0; }

static ptxi_gnode *exec_node(ptxi_gexec *x, const ptxi_gnode *n) {
    if (!x || !known(&execs, x) || !n) return NULL;
    ptxi_graph *g = x->g;
    if (n->index < g->n && g->nodes[n->index]->origin == n) return g->nodes[n->index];
    for (size_t i = 0; i < g->n; i++)
        if (g->nodes[i]->origin == n) return g->nodes[i];
    return NULL;
}

ptxi_gnode *pg_exec_node(ptxi_gexec *x, const ptxi_gnode *n) {
    pthread_mutex_lock(&lock);
    ptxi_gnode *m = exec_node(x, n);
    unlock_and_destroy();
    return m;
}

int pg_exec_set_params(ptxi_gexec *x, const ptxi_gnode *n, pg_params *p) {
    pthread_mutex_lock(&lock);
    ptxi_gnode *m = exec_node(x, n);
    int e = m ? set_locked(m, p) : PG_INVALID_VALUE;
    unlock_and_destroy();
    return e;
}

/* Same shape: node types and edges by index, recursively. */
static int same_shape(const ptxi_graph *a, const ptxi_graph *b, const ptxi_gnode **bad_a, const ptxi_gnode **bad_b,
                      int *why) {
    if (a->n != b->n) {
        *why = PG_UPD_TOPOLOGY;
        return 0;
    }
    /* a node of another type: CUDA names the last one of the new graph, and no node of
     * the old (an H100's answer, tests/cudart/programs/graph_update.cu) */
    for (size_t i = a->n; i-- > 0;)
        if (a->nodes[i]->type != b->nodes[i]->type) {
            *bad_a = NULL, *bad_b = b->nodes[i];
            *why = PG_UPD_TYPE;
            return 0;
        }
    for (size_t i = 0; i < a->n; i++) {
        const ptxi_gnode *x = a->nodes[i], *y = b->nodes[i];
        *bad_a = x, *bad_b = y;
        if (x->ndeps != y->ndeps) {
            *why = PG_UPD_TOPOLOGY;
            return 0;
        }
        for (size_t d = 0; d < x->ndeps; d++) {
            bool found = false;
            for (size_t k = 0; k < y->ndeps && !found; k++) found = y->deps[k]->index == x->deps[d]->index;
            if (!found) {
                *why = PG_UPD_TOPOLOGY;
                return 0;
            }
        }
        if (x->type == PG_KERNEL && ptxi_kernel_ctx(x->kernel.k) != ptxi_kernel_ctx(y->kernel.k)) {
            *why = PG_UPD_UNSUPPORTED_FUNCTION;
            return 0;
        }
        if (x->type == PG_MEM_ALLOC && (x->block != y->block)) {
            *why = PG_UPD_PARAMETERS;
            return 0;
        }
        if (x->type == PG_MEM_FREE && x->free_ptr != y->free_ptr) {
            *why = PG_UPD_PARAMETERS;
            return 0;
        }
        if (x->type == PG_GRAPH && !same_shape(x->child, y->child, bad_a, bad_b, why)) return 0;
        if (x->type == PG_CONDITIONAL) {
            if (x->cond_type != y->cond_type || x->cond_size != y->cond_size || x->cond != y->cond) {
                *why = PG_UPD_PARAMETERS;
                *bad_a = x, *bad_b = y;
                return 0;
            }
            for (unsigned k = 0; k < x->cond_size; k++)
                if (!same_shape(x->bodies[k], y->bodies[k], bad_a, bad_b, why)) return 0;
        }
    }
    return 1;
}

/* Takes b's parameters into a's nodes (a: an executable graph's copy, same shape). */
static int take_all(ptxi_graph *a, const ptxi_graph *b) {
    for (size_t i = 0; i < a->n; i++) {
        ptxi_gnode *x = a->nodes[i];
        const ptxi_gnode *y = b->nodes[i];
        if (x->type == PG_KERNEL) {
            pg_kernel k = y->kernel;
            k.args = NULL;
            if (copy_args(&k, y->kernel.args) != PG_OK) {
                free_args(&k);
                return PG_NO_MEMORY;
            }
            free_args(&x->kernel);
            x->kernel = k;
        } else if (x->type == PG_MEMCPY) x->copy = y->copy;
        else if (x->type == PG_MEMSET) x->set = y->set;
        else if (x->type == PG_HOST) x->host = y->host;
        else if (x->type == PG_WAIT_EVENT || x->type == PG_EVENT_RECORD) x->event = y->event;
        else if (x->type == PG_GRAPH) {
            int e = take_all(x->child, y->child);
            if (e != PG_OK) return e;
        } else if (x->type == PG_CONDITIONAL)
            for (unsigned k = 0; k < x->cond_size; k++) {
                int e = take_all(x->bodies[k], y->bodies[k]);
                if (e != PG_OK) return e;
            }
    }
    return PG_OK;
}

int pg_exec_child(ptxi_gexec *x, const ptxi_gnode *n, ptxi_graph *child) {
    pthread_mutex_lock(&lock);
    ptxi_gnode *m = exec_node(x, n);
    int e = m && m->type == PG_GRAPH && child && known(&graphs, child) ? PG_OK : PG_INVALID_VALUE;
    const ptxi_gnode *ba, *bb;
    int why;
    if (e == PG_OK && !same_shape(m->child, child, &ba, &bb, &why)) e = PG_INVALID_VALUE;
    if (e == PG_OK) e = take_all(m->child, child);
    unlock_and_destroy();
    return e;
}

int pg_exec_enable(ptxi_gexec *x, const ptxi_gnode *n, int set, unsigned *enabled) {
    pthread_mutex_lock(&lock);
    ptxi_gnode *m = exec_node(x, n);
    int e = m ? PG_OK : PG_INVALID_VALUE;
    if (e == PG_OK && m->type != PG_KERNEL && m->type != PG_MEMCPY && m->type != PG_MEMSET) e = PG_INVALID_VALUE;
    if (e == PG_OK) {
        if (set) m->enabled = *enabled != 0;
        else *enabled = m->enabled;
    }
    unlock_and_destroy();
    return e;
}

int pg_exec_update(ptxi_gexec *x, ptxi_graph *g, int *result, ptxi_gnode **err_node, ptxi_gnode **err_from) {
    int r = PG_UPD_ERROR;
    const ptxi_gnode *ba = NULL, *bb = NULL;
    pthread_mutex_lock(&lock);
    int e = x && known(&execs, x) && g && known(&graphs, g) ? PG_OK : PG_INVALID_VALUE;
    if (e == PG_OK) {
        if (same_shape(x->g, g, &ba, &bb, &r)) {
            e = take_all(x->g, g);
            r = e == PG_OK ? PG_UPD_SUCCESS : PG_UPD_ERROR;
            ba = bb = NULL;
        } else {
            e = PG_UPDATE_FAILURE;
        }
    }
    if (result) *result = r;
    if (err_node) *err_node = (ptxi_gnode *)bb;
    if (err_from) *err_from = ba ? (ptxi_gnode *)ba->origin : NULL;
    unlock_and_destroy();
    return e;
}

/* ---- launching ---- */

static bool device_addr(ptxi_ctx *ctx, const void *p) {
    ptxi_dptr base;
    size_t bytes;
    return ptxi_mem_get_range(ctx, (ptxi_dptr)(uintptr_t)p, &base, &bytes) == PTXI_SUCCESS;
}

static ptxi_status copy_row(ptxi_ctx *ctx, void *dst, const void *src, size_t n, int kind) {
    if (kind == PG_DEFAULT) {
        bool d = device_addr(ctx, dst), s = device_addr(ctx, src);
        kind = d && s ? PG_D2D : d ? PG_H2D : s ? PG_D2H : PG_H2H;
    }
    switch (kind) {
    case PG_H2D: return ptxi_memcpy_htod(ctx, (ptxi_dptr)(uintptr_t)dst, src, n);
    case PG_D2H: return ptxi_memcpy_dtoh(ctx, dst, (ptxi_dptr)(uintptr_t)src, n);
    case PG_D2D: return ptxi_memcpy_dtod(ctx, (ptxi_dptr)(uintptr_t)dst, (ptxi_dptr)(uintptr_t)src, n);
    default: memmove(dst, src, n); return PTXI_SUCCESS;
    }
}

static ptxi_status run_copy(ptxi_ctx *ctx, const pg_copy *c) {
    for (size_t z = 0; z < c->depth; z++)
        for (size_t y = 0; y < c->height; y++) {
            const char *s = (const char *)c->src + ((c->sz + z) * c->sheight + c->sy + y) * c->spitch + c->sx;
            char *d = (char *)c->dst + ((c->dz + z) * c->dheight + c->dy + y) * c->dpitch + c->dx;
            ptxi_status st = copy_row(ctx, d, s, c->width, c->kind);
            if (st != PTXI_SUCCESS) return st;
        }
    return PTXI_SUCCESS;
}

static ptxi_status run_set(ptxi_ctx *ctx, const pg_set *p) {
    for (size_t r = 0; r < p->height; r++) {
        ptxi_dptr row = p->dst + r * p->pitch;
        ptxi_status st = PTXI_SUCCESS;
        if (p->elem == 1) st = ptxi_memset_d8(ctx, row, (uint8_t)p->value, p->width);
        else if (p->elem == 4) st = ptxi_memset_d32(ctx, row, p->value, p->width);
        else {
            uint16_t *pattern = malloc(p->width * 2 + 2);
            if (!pattern) return PTXI_OUT_OF_MEMORY;
            for (size_t i = 0; i < p->width; i++) pattern[i] = (uint16_t)p->value;
            st = ptxi_memcpy_htod(ctx, row, pattern, p->width * 2);
            free(pattern);
        }
        if (st != PTXI_SUCCESS) return st;
    }
    return PTXI_SUCCESS;
}

static int run_exec(ptxi_gexec *x, ptxi_ctx *ctx, ptxi_stream *s, const pg_ops *ops);

static int run_node(ptxi_gnode *n, ptxi_ctx *ctx, ptxi_stream *s, const pg_ops *ops) {
    ptxi_status st = PTXI_SUCCESS;
    switch (n->type) {
    case PG_KERNEL: return ops->kernel(&n->kernel, s);
    case PG_MEMCPY: st = run_copy(ctx, &n->copy); break;
    case PG_MEMSET: st = run_set(ctx, &n->set); break;
    case PG_HOST: n->host.fn(n->host.user); break;
    case PG_GRAPH: return run_exec(n->subs[0], ctx, s, ops);
    case PG_EVENT_RECORD: st = ptxi_event_record(n->event, s); break;
    case PG_WAIT_EVENT: st = ptxi_stream_wait_event(ctx, s, n->event); break;
    case PG_MEM_ALLOC: {
        pthread_mutex_lock(&lock);
        int e = n->block->live ? PG_INVALID_VALUE : PG_OK;
        if (e == PG_OK) n->block->live = n->block->reserved = true, mem_note();
        unlock_and_destroy();
        return e;
    }
    case PG_MEM_FREE: {
        int e = pg_mem_free(n->free_ptr);
        return e < 0 ? PG_INVALID_VALUE : e;
    }
    case PG_CONDITIONAL: {
        pg_cond *c = n->cond;
        unsigned v = atomic_load(&c->value);
        if (n->cond_type == PG_COND_WHILE) {
            while (v) {
                int e = run_exec(n->subs[0], ctx, s, ops);
                if (e != PG_OK) return e;
                v = atomic_load(&c->value);
            }
            return PG_OK;
        }
        unsigned k = n->cond_type == PG_COND_IF ? (v ? 0 : 1) : v;
        return k < n->cond_size ? run_exec(n->subs[k], ctx, s, ops) : PG_OK;
    }
    default: break;
    }
    return st == PTXI_SUCCESS ? PG_OK : ops->status(st);
}

static int run_exec(ptxi_gexec *x, ptxi_ctx *ctx, ptxi_stream *s, const pg_ops *ops) {
    for (size_t i = 0; i < x->g->nconds; i++)
        if (x->g->conds[i]->flags & PG_COND_ASSIGN_DEFAULT) atomic_store(&x->g->conds[i]->value, x->g->conds[i]->dflt);
    for (size_t i = 0; i < x->g->n; i++) {
        ptxi_gnode *n = x->g->nodes[x->order[i]];
        if (!n->enabled) continue;
        int e = run_node(n, ctx, s, ops);
        if (e != PG_OK) return e;
    }
    return PG_OK;
}

int pg_launch(ptxi_gexec *x, ptxi_ctx *ctx, ptxi_stream *s, const pg_ops *ops) {
    if (!pg_is_exec(x) || !ops) return PG_INVALID_VALUE;
    /* a graph's allocation still live at its next launch: freed first with
     * cudaGraphInstantiateFlagAutoFreeOnLaunch (1), else the launch is refused */
    pthread_mutex_lock(&lock);
    int e = PG_OK;
    for (size_t i = 0; i < x->g->n; i++) {
        pg_block *b = x->g->nodes[i]->block;
        if (b && b->live) {
            if (x->flags & 1) b->live = false;
            else e = PG_INVALID_VALUE;
        }
    }
    unlock_and_destroy();
    return e == PG_OK ? run_exec(x, ctx, s, ops) : e;
}

/* ---- stream capture ---- */

typedef struct cstream {
    ptxi_stream *s;
    ptxi_gnode **front; /* what the stream's next work depends on */
    size_t nfront;
} cstream;

typedef struct capture {
    uint64_t id;
    ptxi_graph *g;
    bool into; /* cudaStreamBeginCaptureToGraph: the caller's graph */
    bool invalid;
    int mode;
    cstream *streams; /* [0]: where the capture began */
    size_t nstreams;
    struct capture *next;
} capture;

typedef struct cevent {
    ptxi_event *e;
    uint64_t id;
    ptxi_gnode **front;
    size_t nfront;
    struct cevent *next;
} cevent;

static capture *captures;
static cevent *cevents;
static uint64_t capture_ids;

static capture *capture_of(ptxi_stream *s, cstream **cs) {
    uint64_t id = ptxi_stream_capture(s, NULL);
    if (!id) return NULL;
    for (capture *c = captures; c; c = c->next)
        if (c->id == id)
            for (size_t i = 0; i < c->nstreams; i++)
                if (c->streams[i].s == s) {
                    if (cs) *cs = &c->streams[i];
                    return c;
                }
    return NULL;
}

static int set_front(cstream *cs, ptxi_gnode *const *nodes, size_t n) {
    ptxi_gnode **f = n ? malloc(n * sizeof *f) : NULL;
    if (n && !f) return PG_NO_MEMORY;
    if (n) memcpy(f, nodes, n * sizeof *f);
    free(cs->front);
    cs->front = f, cs->nfront = n;
    return PG_OK;
}

static int join(capture *c, ptxi_stream *s, cstream **out) {
    cstream *bigger = realloc(c->streams, (c->nstreams + 1) * sizeof *bigger);
    if (!bigger) return PG_NO_MEMORY;
    c->streams = bigger;
    cstream *cs = &c->streams[c->nstreams++];
    *cs = (cstream){s, NULL, 0};
    ptxi_stream_set_capture(s, c->id, c->g);
    *out = cs;
    return PG_OK;
}

bool pg_capturing(ptxi_stream *s) { return ptxi_stream_capture(s, NULL) != 0; }

int pg_capture_begin(ptxi_stream *s, int mode, ptxi_graph *into, ptxi_gnode *const *deps, size_t ndeps) {
    if (!s) return PG_CAPTURE_UNSUPPORTED;
    if (ndeps && !deps) return PG_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    int e = ptxi_stream_capture(s, NULL) ? PG_ILLEGAL_STATE : PG_OK;
    if (e == PG_OK && into && !known(&graphs, into)) e = PG_INVALID_VALUE;
    for (size_t i = 0; e == PG_OK && i < ndeps; i++)
        if (!node_ok(deps[i]) || deps[i]->graph != into) e = PG_INVALID_VALUE;
    capture *c = e == PG_OK ? calloc(1, sizeof *c) : NULL;
    if (e == PG_OK && !c) e = PG_NO_MEMORY;
    if (e == PG_OK) {
        c->id = ++capture_ids;
        c->mode = mode;
        c->into = into != NULL;
        if (into) c->g = into;
        else if (!(c->g = calloc(1, sizeof *c->g))) e = PG_NO_MEMORY;
        else remember(&graphs, c->g);
        cstream *cs;
        if (e == PG_OK) e = join(c, s, &cs);
        if (e == PG_OK) e = set_front(cs, deps, ndeps);
        if (e == PG_OK) c->next = captures, captures = c;
        else {
            if (c->nstreams) ptxi_stream_set_capture(s, 0, NULL);
            if (!c->into && c->g) graph_free(c->g);
            free(c->streams);
            free(c);
        }
    }
    unlock_and_destroy();
    return e;
}

/* Whether node n is `target` or comes before it. */
static bool reaches(const ptxi_gnode *from, const ptxi_gnode *target) {
    if (from == target) return true;
    const ptxi_graph *g = from->graph;
    if (!g || g != target->graph) return false;
    /* depth first over the dependencies, each node once */
    bool *seen = calloc(g->n + 1, sizeof *seen);
    const ptxi_gnode **stack = malloc((g->n + 1) * sizeof *stack);
    bool found = false;
    size_t top = 0;
    if (seen && stack) stack[top++] = from, seen[from->index] = true;
    while (top && !found) {
        const ptxi_gnode *n = stack[--top];
        for (size_t d = 0; d < n->ndeps && !found; d++) {
            const ptxi_gnode *m = n->deps[d];
            found = m == target;
            if (!seen[m->index]) seen[m->index] = true, stack[top++] = m;
        }
    }
    free(seen);
    free(stack);
    return found;
}

/* Whether all of a stream's work comes before the origin stream's next work. */
static bool joined_back(const capture *c, const cstream *cs) {
    for (size_t f = 0; f < cs->nfront; f++) {
        bool reached = false;
        for (size_t k = 0; k < c->streams[0].nfront && !reached; k++)
            reached = reaches(c->streams[0].front[k], cs->front[f]);
        if (!reached) return false;
    }
    return true;
}

static void capture_free(capture *c) {
    for (size_t i = 0; i < c->nstreams; i++) {
        if (c->streams[i].s) ptxi_stream_set_capture(c->streams[i].s, 0, NULL);
        free(c->streams[i].front);
    }
    for (cevent **p = &cevents; *p;) {
        cevent *ev = *p;
        if (ev->id == c->id) {
            *p = ev->next;
            free(ev->front);
            free(ev);
        } else {
            p = &ev->next;
        }
    }
    free(c->streams);
    free(c);
}

int pg_capture_end(ptxi_stream *s, ptxi_graph **out) {
    pthread_mutex_lock(&lock);
    cstream *cs = NULL;
    capture *c = capture_of(s, &cs);
    /* a capture into the caller's graph need not give it back */
    int e = !c                     ? (out ? PG_ILLEGAL_STATE : PG_INVALID_VALUE)
            : !out && !c->into     ? PG_INVALID_VALUE
            : cs != &c->streams[0] ? PG_CAPTURE_UNMATCHED
                                   : PG_OK;
    if (e == PG_OK) {
        for (capture **p = &captures; *p; p = &(*p)->next)
            if (*p == c) {
                *p = c->next;
                break;
            }
        /* every stream that joined must have joined back */
        for (size_t i = 1; i < c->nstreams && !c->invalid; i++)
            if (!joined_back(c, &c->streams[i])) e = PG_CAPTURE_UNJOINED;
        if (c->invalid) e = PG_CAPTURE_INVALIDATED;
        if (out) *out = e == PG_OK ? c->g : NULL;
        if (e != PG_OK && !c->into) graph_free(c->g);
        capture_free(c);
    }
    unlock_and_destroy();
    return e;
}

int pg_capture_add(ptxi_stream *s, pg_params *p, ptxi_gnode **out) {
    pthread_mutex_lock(&lock);
    cstream *cs = NULL;
    capture *c = capture_of(s, &cs);
    int e = !c ? PG_ILLEGAL_STATE : c->invalid ? PG_CAPTURE_INVALIDATED : PG_OK;
    ptxi_gnode *n = NULL;
    if (e == PG_OK) e = add_locked(c->g, cs->front, cs->nfront, p, &n);
    if (e == PG_OK) e = set_front(cs, &n, 1);
    if (e == PG_OK && out) *out = n;
    unlock_and_destroy();
    return e;
}

int pg_capture_record(ptxi_event *ev, ptxi_stream *s) {
    pthread_mutex_lock(&lock);
    cstream *cs = NULL;
    capture *c = capture_of(s, &cs);
    int e = c ? PG_OK : -1;
    if (c) {
        cevent *r = NULL;
        for (cevent *x = cevents; x && !r; x = x->next)
            if (x->e == ev) r = x;
        if (!r && (r = calloc(1, sizeof *r))) r->e = ev, r->next = cevents, cevents = r;
        if (!r) e = PG_NO_MEMORY;
        else {
            ptxi_gnode **f = cs->nfront ? malloc(cs->nfront * sizeof *f) : NULL;
            if (cs->nfront && !f) e = PG_NO_MEMORY;
            else {
                if (cs->nfront) memcpy(f, cs->front, cs->nfront * sizeof *f);
                free(r->front);
                r->front = f, r->nfront = cs->nfront, r->id = c->id;
            }
        }
    }
    unlock_and_destroy();
    return e;
}

int pg_capture_wait(ptxi_stream *s, ptxi_event *ev) {
    pthread_mutex_lock(&lock);
    cevent *r = NULL;
    for (cevent *x = cevents; x && !r; x = x->next)
        if (x->e == ev) r = x;
    cstream *cs = NULL;
    capture *c = capture_of(s, &cs), *rc = NULL;
    for (capture *x = captures; r && x && !rc; x = x->next)
        if (x->id == r->id) rc = x;
    int e = PG_OK;
    if (!rc) e = c ? PG_OK : -1;                 /* an event of no capture: nothing to order in one */
    else if (c && c != rc) e = PG_INVALID_VALUE; /* two captures cannot merge here */
    else {
        if (!c) e = join(rc, s, &cs);
        if (e == PG_OK) {
            /* the stream's next work depends on what it had and on the event's */
            size_t n = cs->nfront + r->nfront;
            ptxi_gnode **f = n ? malloc(n * sizeof *f) : NULL;
            if (n && !f) e = PG_NO_MEMORY;
            else {
                size_t k = 0;
                for (size_t i = 0; i < cs->nfront; i++) f[k++] = cs->front[i];
                for (size_t i = 0; i < r->nfront; i++) {
                    bool dup = false;
                    for (size_t j = 0; j < k && !dup; j++) dup = f[j] == r->front[i];
                    if (!dup) f[k++] = r->front[i];
                }
                free(cs->front);
                cs->front = f, cs->nfront = k;
            }
        }
    }
    unlock_and_destroy();
    return e;
}

int pg_capture_info(ptxi_stream *s, int *status, uint64_t *id, ptxi_graph **g, ptxi_gnode *const **deps,
                    size_t *ndeps) {
    pthread_mutex_lock(&lock);
    cstream *cs = NULL;
    capture *c = capture_of(s, &cs);
    if (status) *status = !c ? 0 : c->invalid ? 2 : 1; /* cudaStreamCaptureStatus */
    if (c) { /* not capturing: the rest is left as it was, as CUDA leaves it */
        if (id) *id = c->id;
        if (g) *g = c->g;
        if (deps) *deps = cs->front;
        if (ndeps) *ndeps = cs->nfront;
    }
    unlock_and_destroy();
    return PG_OK;
}

int pg_capture_update_deps(ptxi_stream *s, ptxi_gnode *const *deps, size_t n, int set) {
    if (n && !deps) return PG_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    cstream *cs = NULL;
    capture *c = capture_of(s, &cs);
    int e = c ? PG_OK : PG_ILLEGAL_STATE;
    for (size_t i = 0; e == PG_OK && i < n; i++)
        if (!node_ok(deps[i]) || deps[i]->graph != c->g) e = PG_INVALID_VALUE;
    if (e == PG_OK && set) e = set_front(cs, deps, n);
    else if (e == PG_OK) {
        ptxi_gnode **f = realloc(cs->front, (cs->nfront + n + 1) * sizeof *f);
        if (!f) e = PG_NO_MEMORY;
        else {
            memcpy(f + cs->nfront, deps, n * sizeof *f);
            cs->front = f, cs->nfront += n;
        }
    }
    unlock_and_destroy();
    return e;
}

void pg_capture_forget_event(ptxi_event *ev) {
    pthread_mutex_lock(&lock);
    for (cevent **p = &cevents; *p; p = &(*p)->next)
        if ((*p)->e == ev) {
            cevent *d = *p;
            *p = d->next;
            free(d->front);
            free(d);
            break;
        }
    unlock_and_destroy();
}

bool pg_kernel_in(ptxi_ctx *ctx, const ptxi_kernel *k) {
    if (!ctx || !k) return false;
    bool found = false;
    pthread_mutex_lock(&ctx->mod_lock);
    for (ptxi_module *m = ctx->modules; m && !found; m = m->next)
        found = m->nkernels && k >= m->kernels && k < m->kernels + m->nkernels;
    pthread_mutex_unlock(&ctx->mod_lock);
    return found;
}

void pg_capture_invalidate(ptxi_stream *s) {
    pthread_mutex_lock(&lock);
    capture *c = capture_of(s, NULL);
    if (c) c->invalid = true;
    unlock_and_destroy();
}

static const char *type_name(int t) {
    static const char *names[] = {"KERNEL",    "MEMCPY",     "MEMSET",       "HOST",       "GRAPH",
                                  "EMPTY",     "WAIT_EVENT", "EVENT_RECORD", "SEM_SIGNAL", "SEM_WAIT",
                                  "MEM_ALLOC", "MEM_FREE",   "MEM_OP",       "CONDITIONAL"};
    return t >= 0 && t <= PG_CONDITIONAL ? names[t] : "?";
}

static void dot_graph(FILE *f, const ptxi_graph *g, const char *prefix) {
    for (size_t i = 0; i < g->n; i++) {
        const ptxi_gnode *n = g->nodes[i];
        fprintf(f, "  \"%s%zu\" [label=\"%s%zu %s", prefix, i, prefix, i, type_name(n->type));
        if (n->type == PG_KERNEL)
            fprintf(f, "\\n%s <<<(%u,%u,%u),(%u,%u,%u),%u>>>", ptxi_kernel_name(n->kernel.k), n->kernel.grid.x,
                    n->kernel.grid.y, n->kernel.grid.z, n->kernel.block.x, n->kernel.block.y, n->kernel.block.z,
                    n->kernel.shared);
        fprintf(f, "\"];\n");
        for (size_t d = 0; d < n->ndeps; d++)
            fprintf(f, "  \"%s%zu\" -> \"%s%zu\";\n", prefix, n->deps[d]->index, prefix, i);
        unsigned subs = n->type == PG_GRAPH ? 1 : n->type == PG_CONDITIONAL ? n->cond_size : 0;
        for (unsigned k = 0; k < subs; k++) {
            char inner[256];
            snprintf(inner, sizeof inner, "%s%zu.%u.", prefix, i, k);
            const ptxi_graph *c = n->type == PG_GRAPH ? n->child : n->bodies[k];
            dot_graph(f, c, inner);
            for (size_t r = 0; r < c->n; r++)
                if (!c->nodes[r]->ndeps) fprintf(f, "  \"%s%zu\" -> \"%s%zu\" [style=dashed];\n", prefix, i, inner, r);
        }
    }
}

int pg_dot(ptxi_graph *g, const char *path) {
    if (!path) return PG_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    int e = known(&graphs, g) ? PG_OK : PG_INVALID_VALUE;
    FILE *f = e == PG_OK ? fopen(path, "w") : NULL;
    if (e == PG_OK && !f) e = PG_INVALID_VALUE;
    if (f) {
        fprintf(f, "digraph dot {\n");
        dot_graph(f, g, "");
        fprintf(f, "}\n");
        if (fclose(f) != 0) e = PG_INVALID_VALUE;
    }
    unlock_and_destroy();
    return e;
}

int pg_kernel_attr(ptxi_gnode *n, int id, void *value, size_t size, int set) {
    if (!value || size > sizeof n->attrs[0].value) return PG_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    int e = node_ok(n) && n->type == PG_KERNEL ? PG_OK : PG_INVALID_VALUE;
    unsigned k = 0;
    while (e == PG_OK && k < n->nattrs && n->attrs[k].id != id) k++;
    if (e == PG_OK && set) {
        if (k == n->nattrs && n->nattrs == PG_MAX_ATTRS) e = PG_NOT_SUPPORTED;
        else {
            if (k == n->nattrs) n->nattrs++;
            n->attrs[k].id = id;
            memset(n->attrs[k].value, 0, sizeof n->attrs[k].value);
            memcpy(n->attrs[k].value, value, size);
        }
    } else if (e == PG_OK) {
        memset(value, 0, size);
        if (k < n->nattrs) memcpy(value, n->attrs[k].value, size);
    }
    unlock_and_destroy();
    return e;
}

int pg_kernel_attrs_copy(ptxi_gnode *dst, ptxi_gnode *src) {
    pthread_mutex_lock(&lock);
    int e = node_ok(dst) && node_ok(src) && dst->type == PG_KERNEL && src->type == PG_KERNEL ? PG_OK : PG_INVALID_VALUE;
    if (e == PG_OK) {
        memcpy(dst->attrs, src->attrs, sizeof dst->attrs);
        dst->nattrs = src->nattrs;
    }
    unlock_and_destroy();
    return e;
}

/* A stream that joined a capture may go once its work has joined back (as NVIDIA's
 * graphMemoryNodes sample does); otherwise, or when it is where the capture began,
 * the capture is invalidated. */
void pg_capture_forget_stream(ptxi_stream *s) {
    pthread_mutex_lock(&lock);
    for (capture *c = captures; c; c = c->next)
        for (size_t i = 0; i < c->nstreams; i++) {
            cstream *cs = &c->streams[i];
            if (cs->s != s) continue;
            if (i == 0 || !joined_back(c, cs)) c->invalid = true;
            free(cs->front);
            *cs = (cstream){NULL, NULL, 0};
        }
    unlock_and_destroy();
}

int pg_uobj_create(pg_uobj **out, void *ptr, void (*destroy)(void *), unsigned refs, unsigned flags) {
    if (!out || !destroy || !refs || flags != 1) return PG_INVALID_VALUE;
    pg_uobj *o = calloc(1, sizeof *o);
    if (!o) return PG_NO_MEMORY;
    o->ptr = ptr, o->destroy = destroy, o->refs = refs;
    pthread_mutex_lock(&lock);
    remember(&uobjs, o);
    unlock_and_destroy();
    *out = o;
    return PG_OK;
}

int pg_uobj_retain(pg_uobj *o, unsigned count) {
    pthread_mutex_lock(&lock);
    int e = known(&uobjs, o) && count ? PG_OK : PG_INVALID_VALUE;
    if (e == PG_OK) o->refs += count;
    unlock_and_destroy();
    return e;
}

int pg_uobj_release(pg_uobj *o, unsigned count) {
    pthread_mutex_lock(&lock);
    int e = known(&uobjs, o) && count ? PG_OK : PG_INVALID_VALUE;
    if (e == PG_OK) uobj_drop(o, count);
    unlock_and_destroy();
    return e;
}

int pg_graph_retain(ptxi_graph *g, pg_uobj *o, unsigned count, unsigned flags) {
    if (!count || flags > 1) return PG_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    int e = known(&graphs, g) && known(&uobjs, o) ? PG_OK : PG_INVALID_VALUE;
    if (e == PG_OK) e = graph_hold(g, o, count);
    if (e == PG_OK && !flags) o->refs += count; /* with move, the caller's references become the graph's */
    unlock_and_destroy();
    return e;
}

int pg_graph_release(ptxi_graph *g, pg_uobj *o, unsigned count) {
    pthread_mutex_lock(&lock);
    int e = PG_INVALID_VALUE;
    for (size_t i = 0; count && known(&graphs, g) && i < g->nurefs; i++)
        if (g->urefs[i].o == o && g->urefs[i].count >= count) {
            g->urefs[i].count -= count;
            if (!g->urefs[i].count) g->urefs[i] = g->urefs[--g->nurefs];
            uobj_drop(o, count);
            e = PG_OK;
            break;
        }
    unlock_and_destroy();
    return e;
}
