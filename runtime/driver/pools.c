/* pools.c — stream-ordered allocation (cuMemAllocAsync, cuMemFreeAsync) and memory
 * pools. Work on a stream runs when issued, so an asynchronous allocation is an
 * allocation from the context at once; a pool keeps its attributes and counts the
 * bytes in use from it. Freed memory goes back at once (nothing is reserved past
 * use), so a pool's reserved bytes are its used bytes. */
#include <pthread.h>
#include <stdlib.h>

#include "driver.h"

struct CUmemPoolHandle_st {
    int reuse[3];                   /* the three REUSE_* attributes, 1 by default */
    uint64_t threshold, used, used_high;
    struct CUmemPoolHandle_st *next;
};

typedef struct pool_alloc {
    CUdeviceptr p;
    size_t size;
    CUmemoryPool pool;
    ptxi_ctx *ctx;
    struct pool_alloc *next;
} pool_alloc;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct CUmemPoolHandle_st default_pool = {{1, 1, 1}, 0, 0, 0, NULL};
static CUmemoryPool current_pool = &default_pool;
static CUmemoryPool pools = &default_pool;
static pool_alloc *allocs;

static bool pool_valid(CUmemoryPool p) {
    pthread_mutex_lock(&lock);
    CUmemoryPool q = pools;
    while (q && q != p) q = q->next;
    pthread_mutex_unlock(&lock);
    return p && q;
}

/* The context's memory is gone: its allocations no longer count as any pool's. */
void cd_pools_forget(ptxi_ctx *c) {
    pthread_mutex_lock(&lock);
    for (pool_alloc **q = &allocs; *q;) {
        pool_alloc *a = *q;
        if (a->ctx == c) {
            if (a->pool) a->pool->used -= a->size;
            *q = a->next;
            free(a);
        } else {
            q = &a->next;
        }
    }
    pthread_mutex_unlock(&lock);
}

CD_EXPORT CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!pool_out) return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    *pool_out = &default_pool;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!pool) return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    pthread_mutex_lock(&lock);
    *pool = current_pool;
    pthread_mutex_unlock(&lock);
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    if (!pool_valid(pool)) return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    current_pool = pool;
    pthread_mutex_unlock(&lock);
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *poolProps) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!pool || !poolProps || poolProps->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
        poolProps->location.type != CU_MEM_LOCATION_TYPE_DEVICE || poolProps->location.id != 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (poolProps->handleTypes != CU_MEM_HANDLE_TYPE_NONE) return CUDA_ERROR_NOT_SUPPORTED;
    CUmemoryPool p = calloc(1, sizeof *p);
    if (!p) return CUDA_ERROR_OUT_OF_MEMORY;
    p->reuse[0] = p->reuse[1] = p->reuse[2] = 1;
    pthread_mutex_lock(&lock);
    p->next = pools;
    pools = p;
    pthread_mutex_unlock(&lock);
    *pool = p;
    return CUDA_SUCCESS;
}

/* Memory still allocated from a destroyed pool stays valid until freed, as on a GPU. */
CD_EXPORT CUresult cuMemPoolDestroy(CUmemoryPool pool) {
    if (pool == &default_pool || !pool_valid(pool)) return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    for (CUmemoryPool *q = &pools; *q; q = &(*q)->next)
        if (*q == pool) {
            *q = pool->next;
            break;
        }
    if (current_pool == pool) current_pool = &default_pool;
    for (pool_alloc *a = allocs; a; a = a->next)
        if (a->pool == pool) a->pool = NULL;
    pthread_mutex_unlock(&lock);
    free(pool);
    return CUDA_SUCCESS;
}

/* Reads (set = false) or writes one attribute. The high-water marks can only be
 * reset, to the current value; reserved memory is used memory here. */
static CUresult pool_attr(CUmemoryPool pool, CUmemPool_attribute attr, void *value, bool set) {
    if (!value || !pool_valid(pool)) return CUDA_ERROR_INVALID_VALUE;
    cuuint64_t *u64 = value;
    int *i32 = value;
    CUresult r = CUDA_SUCCESS;
    pthread_mutex_lock(&lock);
    switch (attr) {
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES: case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES: {
        int *slot = &pool->reuse[attr - CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES];
        if (set) *slot = *i32 != 0;
        else *i32 = *slot;
        break;
    }
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
        if (set) pool->threshold = *u64;
        else *u64 = pool->threshold;
        break;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT: case CU_MEMPOOL_ATTR_USED_MEM_CURRENT:
        if (set) r = CUDA_ERROR_INVALID_VALUE;
        else *u64 = pool->used;
        break;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH: case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
        if (!set) *u64 = pool->used_high;
        else if (*u64) r = CUDA_ERROR_INVALID_VALUE;
        else pool->used_high = pool->used;
        break;
    default: r = CUDA_ERROR_INVALID_VALUE;
    }
    pthread_mutex_unlock(&lock);
    return r;
}

CD_EXPORT CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value) {
    return pool_attr(pool, attr, value, true);
}

CD_EXPORT CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value) {
    return pool_attr(pool, attr, value, false);
}

CD_EXPORT CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep) {
    (void)minBytesToKeep;
    return pool_valid(pool) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CD_EXPORT CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream) {
    ptxi_stream *s;
    if (!cd_stream(hStream, &s)) return CUDA_ERROR_INVALID_HANDLE;
    if (!pool_valid(pool)) return CUDA_ERROR_INVALID_VALUE;
    pool_alloc *a = malloc(sizeof *a);
    if (!a) return CUDA_ERROR_OUT_OF_MEMORY;
    CUresult r = cuMemAlloc_v2(dptr, bytesize);
    ptxi_ctx *ctx = NULL;
    if (r == CUDA_SUCCESS) r = cd_current(&ctx);
    if (r != CUDA_SUCCESS) {
        free(a);
        return r;
    }
    pthread_mutex_lock(&lock);
    *a = (pool_alloc){*dptr, bytesize, pool, ctx, allocs};
    allocs = a;
    pool->used += bytesize;
    if (pool->used > pool->used_high) pool->used_high = pool->used;
    pthread_mutex_unlock(&lock);
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream) {
    CUmemoryPool pool;
    CUresult r = cuDeviceGetMemPool(&pool, 0);
    return r == CUDA_SUCCESS ? cuMemAllocFromPoolAsync(dptr, bytesize, pool, hStream) : r;
}

/* Frees memory from cuMemAlloc too, as the driver allows. */
CD_EXPORT CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream) {
    ptxi_stream *s;
    if (!cd_stream(hStream, &s)) return CUDA_ERROR_INVALID_HANDLE;
    CUresult r = cuMemFree_v2(dptr);
    if (r != CUDA_SUCCESS) return r;
    pthread_mutex_lock(&lock);
    for (pool_alloc **q = &allocs; *q; q = &(*q)->next)
        if ((*q)->p == dptr) {
            pool_alloc *a = *q;
            *q = a->next;
            if (a->pool) a->pool->used -= a->size;
            free(a);
            break;
        }
    pthread_mutex_unlock(&lock);
    return CUDA_SUCCESS;
}

CD_ALIAS(cuMemAllocAsync_ptsz, cuMemAllocAsync);
CD_ALIAS(cuMemAllocFromPoolAsync_ptsz, cuMemAllocFromPoolAsync);
CD_ALIAS(cuMemFreeAsync_ptsz, cuMemFreeAsync);

/* One device: it reads and writes every pool's memory, and that cannot be taken away. */
CD_EXPORT CUresult cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *map, size_t count) {
    if (!pool_valid(pool) || (count && !map)) return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < count; i++)
        if (map[i].location.type != CU_MEM_LOCATION_TYPE_DEVICE || map[i].location.id != 0 ||
            map[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
            return CUDA_ERROR_INVALID_DEVICE;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuMemPoolGetAccess(CUmemAccess_flags *flags, CUmemoryPool memPool, CUmemLocation *location) {
    if (!flags || !location || !pool_valid(memPool)) return CUDA_ERROR_INVALID_VALUE;
    *flags = location->type == CU_MEM_LOCATION_TYPE_DEVICE && location->id == 0 ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE
                                                                                 : CU_MEM_ACCESS_FLAGS_PROT_NONE;
    return CUDA_SUCCESS;
}
