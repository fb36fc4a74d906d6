/* context.c — contexts: the primary context (libptxi's, shared with libcudart.so.13)
 * with its retain count, contexts of their own (cuCtxCreate: a separate ptxi context,
 * so a separate device address space as on a GPU), each thread's context stack, and
 * the context's limits and cache configuration. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int primary_refs;
static unsigned primary_flags;

static void forget(ptxi_ctx *c) {
    cd_modules_forget(c);
    cd_memory_forget(c);
    cd_vmm_forget(c);
    cd_arrays_forget(c);
}

static void on_primary_reset(void *arg) {
    (void)arg;
    forget(ptxi_primary_peek());
}

static pthread_once_t hooks_once = PTHREAD_ONCE_INIT;
static void install(void) { ptxi_primary_on_reset(on_primary_reset, NULL); }
void cd_install_hooks(void) { pthread_once(&hooks_once, install); }

/* The primary context, or one of cuCtxCreate not yet destroyed (libptxi knows which
 * contexts are live). */
bool cd_ctx_valid(ptxi_ctx *c) { return ptxi_ctx_live(c); }

/* The top of the calling thread's context stack (libptxi's, which the runtime
 * works in too): the runtime puts the primary context there on a thread that
 * calls it with nothing current, as NVIDIA's does; a thread that has done
 * neither has no context. */
static ptxi_ctx *current(void) { return ptxi_current_top(); }

CUresult cd_current(ptxi_ctx **out) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    cd_install_hooks();
    ptxi_ctx *c = current();
    if (!c || !cd_ctx_valid(c)) return CUDA_ERROR_INVALID_CONTEXT;
    ptxi_status st = ptxi_ctx_peek_last_error(c);
    if (ptxi_error_is_sticky(st)) {
        ptxi_ctx_synchronize(c); /* what the failed kernel printed comes out first */
        return cd_map(st);
    }
    *out = c;
    return CUDA_SUCCESS;
}

/* ---- the primary context ---- */

#define CD_DEVICE(dev)                                      \
    do {                                                    \
        if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED; \
        if ((dev) != 0) return CUDA_ERROR_INVALID_DEVICE;   \
    } while (0)

CD_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev) {
    CD_DEVICE(dev);
    if (!pctx) return CUDA_ERROR_INVALID_VALUE;
    ptxi_ctx *c;
    ptxi_status s = ptxi_primary_ctx(&c);
    if (s != PTXI_SUCCESS) return cd_map(s);
    pthread_mutex_lock(&lock);
    primary_refs++;
    pthread_mutex_unlock(&lock);
    *pctx = (CUcontext)c;
    return CUDA_SUCCESS;
}

/* The primary context is never destroyed: the runtime may be using it too. */
CD_EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev) {
    CD_DEVICE(dev);
    pthread_mutex_lock(&lock);
    CUresult r = primary_refs > 0 ? (primary_refs--, CUDA_SUCCESS) : CUDA_ERROR_INVALID_CONTEXT;
    pthread_mutex_unlock(&lock);
    return r;
}
CD_ALIAS(cuDevicePrimaryCtxRelease, cuDevicePrimaryCtxRelease_v2);

/* Frees everything the primary context holds and clears a sticky fault, as on a GPU. */
CD_EXPORT CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev) {
    CD_DEVICE(dev);
    return cd_map(ptxi_primary_reset());
}
CD_ALIAS(cuDevicePrimaryCtxReset, cuDevicePrimaryCtxReset_v2);

CD_EXPORT CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active) {
    CD_DEVICE(dev);
    if (!flags || !active) return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    *flags = primary_flags;
    *active = primary_refs > 0 || ptxi_primary_peek() != NULL;
    pthread_mutex_unlock(&lock);
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags) {
    CD_DEVICE(dev);
    if (flags & ~(unsigned)(CU_CTX_SCHED_MASK | CU_CTX_MAP_HOST | CU_CTX_LMEM_RESIZE_TO_MAX | CU_CTX_COREDUMP_ENABLE |
                            CU_CTX_USER_COREDUMP_ENABLE | CU_CTX_SYNC_MEMOPS))
        return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    primary_flags = flags;
    pthread_mutex_unlock(&lock);
    return CUDA_SUCCESS;
}
CD_ALIAS(cuDevicePrimaryCtxSetFlags, cuDevicePrimaryCtxSetFlags_v2);

/* ---- contexts of their own ---- */

static CUresult create(CUcontext *pctx, unsigned flags, CUdevice dev) {
    CD_DEVICE(dev);
    if (!pctx) return CUDA_ERROR_INVALID_VALUE;
    (void)flags;
    ptxi_ctx *c;
    ptxi_ctx *p;
    ptxi_status s = ptxi_primary_ctx(&p); /* takes the environment's options the same way */
    if (s != PTXI_SUCCESS) return cd_map(s);
    s = ptxi_ctx_create(&c, NULL);
    if (s != PTXI_SUCCESS) return cd_map(s);
    if (ptxi_current_push(c)) return CUDA_ERROR_INVALID_CONTEXT; /* the new context is made current */
    *pctx = (CUcontext)c;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags,
                                  CUdevice dev) {
    if (ctxCreateParams && (ctxCreateParams->numExecAffinityParams || ctxCreateParams->cigParams))
        return CUDA_ERROR_NOT_SUPPORTED;
    return create(pctx, flags, dev);
}

CD_EXPORT CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev) {
    return create(pctx, flags, dev);
}

CD_EXPORT CUresult cuCtxDestroy_v2(CUcontext ctx) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    ptxi_ctx *c = CTX(ctx);
    if (!c || !ptxi_ctx_live(c)) return CUDA_ERROR_INVALID_VALUE;
    if (c == ptxi_primary_peek()) return CUDA_ERROR_INVALID_CONTEXT;
    /* off this thread's stack too (other threads' stacks then name a dead context,
     * which cd_current refuses) */
    ptxi_current_remove(c);
    forget(c);
    ptxi_ctx_destroy(c);
    return CUDA_SUCCESS;
}
CD_ALIAS(cuCtxDestroy, cuCtxDestroy_v2);

CD_EXPORT CUresult cuCtxPushCurrent_v2(CUcontext ctx) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!cd_ctx_valid(CTX(ctx))) return CUDA_ERROR_INVALID_CONTEXT;
    return ptxi_current_push(CTX(ctx)) ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_SUCCESS;
}
CD_ALIAS(cuCtxPushCurrent, cuCtxPushCurrent_v2);

CD_EXPORT CUresult cuCtxPopCurrent_v2(CUcontext *pctx) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    ptxi_ctx *c = ptxi_current_pop();
    if (!c) return CUDA_ERROR_INVALID_CONTEXT;
    if (pctx) *pctx = (CUcontext)c;
    return CUDA_SUCCESS;
}
CD_ALIAS(cuCtxPopCurrent, cuCtxPopCurrent_v2);

CD_EXPORT CUresult cuCtxSetCurrent(CUcontext ctx) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (ctx && !cd_ctx_valid(CTX(ctx))) return CUDA_ERROR_INVALID_CONTEXT;
    ptxi_current_set(CTX(ctx));
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuCtxGetCurrent(CUcontext *pctx) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!pctx) return CUDA_ERROR_INVALID_VALUE;
    *pctx = (CUcontext)current();
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuCtxGetDevice(CUdevice *device) {
    CD_CTX(ctx);
    (void)ctx;
    if (!device) return CUDA_ERROR_INVALID_VALUE;
    *device = 0;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx) {
    if (!ctx) return cuCtxGetDevice(device);
    if (!cd_ctx_valid(CTX(ctx))) return CUDA_ERROR_INVALID_CONTEXT;
    if (!device) return CUDA_ERROR_INVALID_VALUE;
    *device = 0;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuCtxGetFlags(unsigned int *flags) {
    CD_CTX(ctx);
    if (!flags) return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    *flags = ctx == ptxi_primary_peek() ? primary_flags : 0;
    pthread_mutex_unlock(&lock);
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuCtxGetId(CUcontext ctx, unsigned long long *ctxId) {
    if (!ctxId) return CUDA_ERROR_INVALID_VALUE;
    ptxi_ctx *c = ctx ? CTX(ctx) : current();
    if (!cd_ctx_valid(c)) return CUDA_ERROR_INVALID_CONTEXT;
    *ctxId = (unsigned long long)(uintptr_t)c;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version) {
    if (!version) return CUDA_ERROR_INVALID_VALUE;
    ptxi_ctx *c = ctx ? CTX(ctx) : current();
    if (!cd_ctx_valid(c)) return CUDA_ERROR_INVALID_CONTEXT;
    *version = 3020; /* the ABI of every context since CUDA 3.2 */
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuCtxSynchronize(void) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    ptxi_ctx *c = current();
    if (!c || !cd_ctx_valid(c)) return CUDA_ERROR_INVALID_CONTEXT;
    return cd_map(ptxi_ctx_synchronize(c));
}

CD_EXPORT CUresult cuCtxSynchronize_v2(CUcontext ctx) {
    if (!ctx) return cuCtxSynchronize();
    if (!cd_ctx_valid(CTX(ctx))) return CUDA_ERROR_INVALID_CONTEXT;
    return cd_map(ptxi_ctx_synchronize(CTX(ctx)));
}

/* ---- limits and configuration ---- */

/* Limits a GPU keeps that ptxi only stores, with an H100's defaults. */
static size_t other_limits[CU_LIMIT_PERSISTING_L2_CACHE_SIZE + 1] = {
    [CU_LIMIT_MAX_L2_FETCH_GRANULARITY] = 64,
    [CU_LIMIT_PERSISTING_L2_CACHE_SIZE] = 9830400,
};

static int ptxi_limit_of(CUlimit l) {
    switch (l) {
    case CU_LIMIT_STACK_SIZE: return PTXI_LIMIT_STACK_SIZE;
    case CU_LIMIT_PRINTF_FIFO_SIZE: return PTXI_LIMIT_PRINTF_FIFO_SIZE;
    case CU_LIMIT_MALLOC_HEAP_SIZE: return PTXI_LIMIT_MALLOC_HEAP_SIZE;
    case CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT: return PTXI_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT;
    default: return -1;
    }
}

CD_EXPORT CUresult cuCtxSetLimit(CUlimit limit, size_t value) {
    CD_CTX(ctx);
    int pl = ptxi_limit_of(limit);
    if (pl >= 0) return cd_map(ptxi_ctx_set_limit(ctx, (ptxi_limit)pl, value));
    if ((unsigned)limit >= sizeof other_limits / sizeof other_limits[0] || limit == CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH)
        return CUDA_ERROR_UNSUPPORTED_LIMIT;
    pthread_mutex_lock(&lock);
    other_limits[limit] = value;
    pthread_mutex_unlock(&lock);
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuCtxGetLimit(size_t *pvalue, CUlimit limit) {
    CD_CTX(ctx);
    if (!pvalue) return CUDA_ERROR_INVALID_VALUE;
    int pl = ptxi_limit_of(limit);
    if (pl >= 0) return cd_map(ptxi_ctx_get_limit(ctx, (ptxi_limit)pl, pvalue));
    if ((unsigned)limit >= sizeof other_limits / sizeof other_limits[0] || limit == CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH)
        return CUDA_ERROR_UNSUPPORTED_LIMIT;
    pthread_mutex_lock(&lock);
    *pvalue = other_limits[limit];
    pthread_mutex_unlock(&lock);
    return CUDA_SUCCESS;
}

static _Atomic CUfunc_cache cache_config = CU_FUNC_CACHE_PREFER_NONE;

CD_EXPORT CUresult cuCtxSetCacheConfig(CUfunc_cache config) {
    CD_CTX(ctx);
    (void)ctx;
    if ((unsigned)config > CU_FUNC_CACHE_PREFER_EQUAL) return CUDA_ERROR_INVALID_VALUE;
    cache_config = config;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuCtxGetCacheConfig(CUfunc_cache *pconfig) {
    CD_CTX(ctx);
    (void)ctx;
    if (!pconfig) return CUDA_ERROR_INVALID_VALUE;
    *pconfig = cache_config;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority) {
    CD_CTX(ctx);
    (void)ctx;
    if (leastPriority) *leastPriority = 0;
    if (greatestPriority) *greatestPriority = -5;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuCtxResetPersistingL2Cache(void) {
    CD_CTX(ctx);
    (void)ctx;
    return CUDA_SUCCESS;
}
