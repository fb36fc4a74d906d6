/* pools.c — the memory pools of the stream-ordered allocator, shared by
 * libcudart (cudaMallocAsync, cudaMemPool*) and libcuda (cuMemAllocAsync,
 * cuMemPool*). Work on a stream runs when issued, so each library allocates and
 * frees at once with its own calls; a pool records which allocations are its
 * own and keeps its attributes and counts: the bytes in use, and the freed
 * bytes it keeps reserved up to its release threshold (as a GPU keeps them for
 * reuse, until cudaMemPoolTrimTo gives them back). */
#include <stdlib.h>

#include "rt.h"

struct ptxi_mempool {
    int reuse[3]; /* the three REUSE_* attributes, 1 by default */
    uint64_t threshold, used, used_high, kept, reserved_high;
    ptxi_mempool *next;
};

typedef struct pool_alloc {
    ptxi_dptr p;
    size_t size;
    ptxi_mempool *pool;
    ptxi_ctx *ctx;
    struct pool_alloc *next;
} pool_alloc;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static ptxi_mempool default_pool = {{1, 1, 1}, 0, 0, 0, 0, 0, NULL};
static ptxi_mempool *current = &default_pool, *pools = &default_pool;
static pool_alloc *allocs;

static bool valid(const ptxi_mempool *p) {
    const ptxi_mempool *q = pools;
    while (q && q != p) q = q->next;
    return p && q;
}

int ptxi_mempool_valid(ptxi_mempool *p) {
    pthread_mutex_lock(&lock);
    bool v = valid(p);
    pthread_mutex_unlock(&lock);
    return v;
}

ptxi_mempool *ptxi_mempool_default(void) { return &default_pool; }

ptxi_mempool *ptxi_mempool_current(void) {
    pthread_mutex_lock(&lock);
    ptxi_mempool *p = current;
    pthread_mutex_unlock(&lock);
    return p;
}

ptxi_status ptxi_mempool_set_current(ptxi_mempool *p) {
    pthread_mutex_lock(&lock);
    bool v = valid(p);
    if (v) current = p;
    pthread_mutex_unlock(&lock);
    return v ? PTXI_SUCCESS : PTXI_INVALID_VALUE;
}

ptxi_status ptxi_mempool_create(ptxi_mempool **out) {
    if (!out) return PTXI_INVALID_VALUE;
    ptxi_mempool *p = calloc(1, sizeof *p);
    if (!p) return PTXI_OUT_OF_MEMORY;
    p->reuse[0] = p->reuse[1] = p->reuse[2] = 1;
    pthread_mutex_lock(&lock);
    p->next = pools;
    pools = p;
    pthread_mutex_unlock(&lock);
    *out = p;
    return PTXI_SUCCESS;
}

/* Memory still allocated from a destroyed pool stays valid until freed, as on a GPU. */
ptxi_status ptxi_mempool_destroy(ptxi_mempool *p) {
    pthread_mutex_lock(&lock);
    if (p == &default_pool || !valid(p)) {
        pthread_mutex_unlock(&lock);
        return PTXI_INVALID_VALUE;
    }
    for (ptxi_mempool **q = &pools; *q; q = &(*q)->next)
        if (*q == p) {
            *q = p->next;
            break;
        }
    if (current == p) current = &default_pool;
    for (pool_alloc *a = allocs; a; a = a->next)
        if (a->pool == p) a->pool = NULL;
    pthread_mutex_unlock(&lock);
    free(p);
    return PTXI_SUCCESS;
}

static void note_reserved(ptxi_mempool *p) {
    if (p->used + p->kept > p->reserved_high) p->reserved_high = p->used + p->kept;
}

/* The attributes are CUDA's (cudaMemPoolAttr = CUmemPool_attribute, 1..8). The
 * high-water marks can only be reset, to the current value. */
ptxi_status ptxi_mempool_attribute(ptxi_mempool *p, int attr, void *value, int set) {
    if (!value) return PTXI_INVALID_VALUE;
    uint64_t *u64 = value;
    int *i32 = value;
    ptxi_status r = PTXI_SUCCESS;
    pthread_mutex_lock(&lock);
    if (!valid(p)) attr = 0;
    switch (attr) {
    case 1:
    case 2:
    case 3: /* REUSE_FOLLOW_EVENT_DEPENDENCIES, _ALLOW_OPPORTUNISTIC, _ALLOW_INTERNAL_DEPENDENCIES */
        if (set) p->reuse[attr - 1] = *i32 != 0;
        else *i32 = p->reuse[attr - 1];
        break;
    case 4: /* RELEASE_THRESHOLD */
        if (set) p->threshold = *u64;
        else *u64 = p->threshold;
        break;
    case 5: /* RESERVED_MEM_CURRENT */
        if (set) r = PTXI_INVALID_VALUE;
        else *u64 = p->used + p->kept;
        break;
    case 6: /* RESERVED_MEM_HIGH */
        if (!set) *u64 = p->reserved_high;
        else if (*u64) r = PTXI_INVALID_VALUE;
        else p->reserved_high = p->used + p->kept;
        break;
    case 7: /* USED_MEM_CURRENT */
        if (set) r = PTXI_INVALID_VALUE;
        else *u64 = p->used;
        break;
    case 8: /* USED_MEM_HIGH */
        if (!set) *u64 = p->used_high;
        else if (*u64) r = PTXI_INVALID_VALUE;
        else p->used_high = p->used;
        break;
    default: r = PTXI_INVALID_VALUE;
    }
    pthread_mutex_unlock(&lock);
    return r;
}

ptxi_status ptxi_mempool_trim(ptxi_mempool *p, size_t keep) {
    pthread_mutex_lock(&lock);
    bool v = valid(p);
    if (v) {
        uint64_t over = p->used + p->kept > keep ? p->used + p->kept - keep : 0;
        p->kept -= over < p->kept ? over : p->kept;
    }
    pthread_mutex_unlock(&lock);
    return v ? PTXI_SUCCESS : PTXI_INVALID_VALUE;
}

ptxi_status ptxi_mempool_track(ptxi_mempool *p, ptxi_ctx *ctx, ptxi_dptr ptr, size_t size) {
    pool_alloc *a = malloc(sizeof *a);
    if (!a) return PTXI_OUT_OF_MEMORY;
    pthread_mutex_lock(&lock);
    if (!valid(p)) {
        pthread_mutex_unlock(&lock);
        free(a);
        return PTXI_INVALID_VALUE;
    }
    *a = (pool_alloc){ptr, size, p, ctx, allocs};
    allocs = a;
    p->used += size;
    p->kept -= size < p->kept ? size : p->kept; /* reused from what the pool kept */
    if (p->used > p->used_high) p->used_high = p->used;
    note_reserved(p);
    pthread_mutex_unlock(&lock);
    return PTXI_SUCCESS;
}

static void give_back(pool_alloc *a) {
    ptxi_mempool *p = a->pool;
    if (!p) return;
    p->used -= a->size;
    p->kept += a->size;
    if (p->kept > p->threshold) p->kept = p->threshold;
}

void ptxi_mempool_untrack(ptxi_dptr ptr) {
    pthread_mutex_lock(&lock);
    for (pool_alloc **q = &allocs; *q; q = &(*q)->next)
        if ((*q)->p == ptr) {
            pool_alloc *a = *q;
            *q = a->next;
            give_back(a);
            free(a);
            break;
        }
    pthread_mutex_unlock(&lock);
}

void ptxi_mempool_forget_ctx(ptxi_ctx *ctx) {
    pthread_mutex_lock(&lock);
    for (pool_alloc **q = &allocs; *q;) {
        pool_alloc *a = *q;
        if (a->ctx == ctx) {
            give_back(a);
            *q = a->next;
            free(a);
        } else {
            q = &a->next;
        }
    }
    pthread_mutex_unlock(&lock);
}

/* One device: it reads and writes every pool's memory, and that cannot be taken
 * away. `device`: the location is a device (not the host), numbered id. */
ptxi_status ptxi_mempool_access(ptxi_mempool *p, int device, int id, int *flags, int set) {
    if (!ptxi_mempool_valid(p) || !flags) return PTXI_INVALID_VALUE;
    if (!set) {
        if (!device || id != 0) return PTXI_INVALID_VALUE;
        *flags = 3; /* PROT_READWRITE */
        return PTXI_SUCCESS;
    }
    return device && id == 0 && *flags == 3 ? PTXI_SUCCESS : PTXI_NOT_PERMITTED; /* the libraries' invalid device */
}
