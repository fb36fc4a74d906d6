/* context.c — contexts: creation and reset, errors (last and sticky), limits,
 * the printf flush points, and the services the interpreter asks of the host
 * (vprintf, malloc/free, cross-module symbol resolution). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ffi_call.h"
#include "numparse.h"
#include "pgraph.h"
#include "rt.h"

#define DEFAULT_RESERVE ((uint64_t)64 << 30)
#define MIN_RESERVE ((uint64_t)256 << 20)

/* The arena: the device's memory, in twice as much address space (at least
 * 64 GiB) so that freed ranges wait long before they are reused. Where that
 * much address space cannot be had (ulimit -v), a smaller arena and a device
 * of half its size. The options may give the address space instead, and then
 * the device is no larger. */
static int arena_init(ptxi_ctx *ctx, void *hint) {
    uint64_t mem = rt_device_memory(), reserve = ctx->opt.global_reserve;
    if (reserve) return vm_arena_init_at(&ctx->arena, reserve, mem < reserve ? mem : reserve, hint);
    reserve = mem < DEFAULT_RESERVE / 2 ? DEFAULT_RESERVE : mem > UINT64_MAX / 4 ? mem : 2 * mem;
    for (; reserve >= MIN_RESERVE; reserve /= 2)
        if (!vm_arena_init_at(&ctx->arena, reserve, mem < reserve / 2 ? mem : reserve / 2, hint)) return 0;
    return -1;
}

ptxi_status rt_set_error(ptxi_ctx *ctx, ptxi_status s) {
    if (!ctx) return s;
    if (s) atomic_store(&ctx->last, s);
    ptxi_status none = PTXI_SUCCESS;
    if (ptxi_error_is_sticky(s)) atomic_compare_exchange_strong(&ctx->sticky, &none, s);
    return s;
}

void rt_detail(ptxi_ctx *ctx, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&ctx->lock);
    vsnprintf(ctx->detail, sizeof ctx->detail, fmt, ap);
    pthread_mutex_unlock(&ctx->lock);
    va_end(ap);
}

void rt_flush(ptxi_ctx *ctx) {
    FILE *out = atomic_load(&ctx->out), *err = atomic_load(&ctx->err);
    if (ctx->fifo) rt_fifo_flush(ctx->fifo, out);
    fflush(out);
    pthread_mutex_lock(&ctx->lock);
    char *pending = ctx->pending;
    ctx->pending = NULL;
    pthread_mutex_unlock(&ctx->lock);
    if (pending) {
        fputs(pending, err);
        fflush(err);
        free(pending);
    }
}

/* ---- services for the interpreter ---- */

static int svc_vprintf(void *c, uint64_t fmt, uint64_t args, int (*read)(void *, uint64_t, void *, size_t),
                       void *rctx) {
    ptxi_ctx *ctx = c;
    return rt_fifo_push(ctx->fifo, fmt, args, read, rctx);
}

int rt_ensure_heap(ptxi_ctx *ctx) {
    pthread_mutex_lock(&ctx->lock);
    int rc = 0;
    if (!atomic_load_explicit(&ctx->heap_ready, memory_order_relaxed)) {
        ctx->heap_base = vm_arena_alloc(&ctx->arena, ctx->heap_size, VM_SH_HEAP, "device heap");
        if (!ctx->heap_base || rt_heap_init(&ctx->heap, (void *)(uintptr_t)ctx->heap_base, ctx->heap_size) < 0) rc = -1;
        else atomic_store_explicit(&ctx->heap_ready, true, memory_order_release); /* the heap is set up before */
    }
    pthread_mutex_unlock(&ctx->lock);
    return rc;
}

static uint64_t svc_malloc(void *c, uint64_t size, uint64_t align) {
    ptxi_ctx *ctx = c;
    if (!atomic_load_explicit(&ctx->heap_ready, memory_order_acquire) && rt_ensure_heap(ctx) < 0) return 0;
    if (ctx->vmrt.san) return rt_sanitize_malloc(ctx, size, align);
    return (uint64_t)(uintptr_t)rt_heap_malloc(&ctx->heap, size, align);
}

/* 0, or the error an H100 reports: ILLEGAL_ADDRESS for a pointer outside the
 * heap, LAUNCH_FAILED for a double free inside it. */
static int svc_free(void *c, uint64_t p) {
    ptxi_ctx *ctx = c;
    if (!atomic_load_explicit(&ctx->heap_ready, memory_order_acquire)) return PTXI_ILLEGAL_ADDRESS;
    if (ctx->vmrt.san) return rt_sanitize_free(ctx, p);
    return rt_heap_free(&ctx->heap, (void *)(uintptr_t)p);
}

static void svc_call_host(void *c, const vm_func *f, void **args, void *ret) {
    (void)c;
    rt_ffi_call(f->ffi, f->host_fn, args, ret);
}

/* The two resolvers run while a module loads, with ctx->mod_lock held. */
static vm_func *svc_resolve_func(void *c, const char *name) {
    ptxi_ctx *ctx = c;
    for (ptxi_module *m = ctx->modules; m; m = m->next)
        for (uint32_t k = 0; k < m->prog.nfuncs; k++)
            if (m->prog.funcs[k].ir->has_body && m->prog.funcs[k].ir->linkage != IR_LINK_NONE &&
                !strcmp(m->prog.funcs[k].ir->name, name))
                return &m->prog.funcs[k];
    return NULL;
}

static uint64_t svc_resolve_var(void *c, const char *name) {
    ptxi_ctx *ctx = c;
    for (ptxi_module *m = ctx->modules; m; m = m->next)
        for (uint32_t k = 0; k < m->ir->nglobals; k++)
            if (m->prog.gaddr[k] && m->ir->globals[k]->linkage != IR_LINK_EXTERN &&
                !strcmp(m->ir->globals[k]->name, name))
                return m->prog.gaddr[k];
    return 0;
}

/* ---- live contexts, and what is called when one is destroyed ---- */

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static ptxi_ctx **live;
static size_t nlive, caplive;

typedef struct destroy_hook {
    void (*fn)(ptxi_ctx *, void *);
    void *arg;
    struct destroy_hook *next;
} destroy_hook;
static destroy_hook *destroy_hooks; /* only ever prepended */

static bool live_add(ptxi_ctx *c) {
    pthread_mutex_lock(&live_lock);
    if (nlive == caplive) {
        size_t cap = caplive ? 2 * caplive : 8;
        ptxi_ctx **l = realloc(live, cap * sizeof *l);
        if (!l) {
            pthread_mutex_unlock(&live_lock);
            return false;
        }
        live = l, caplive = cap;
    }
    live[nlive++] = c;
    pthread_mutex_unlock(&live_lock);
    return true;
}

static void live_remove(ptxi_ctx *c) {
    pthread_mutex_lock(&live_lock);
    for (size_t i = 0; i < nlive; i++)
        if (live[i] == c) {
            live[i] = live[--nlive];
            break;
        }
    pthread_mutex_unlock(&live_lock);
}

int ptxi_ctx_live(ptxi_ctx *c) {
    pthread_mutex_lock(&live_lock);
    size_t i = 0;
    while (c && i < nlive && live[i] != c) i++;
    int found = c && i < nlive;
    pthread_mutex_unlock(&live_lock);
    return found;
}

ptxi_status ptxi_ctx_on_destroy(void (*fn)(ptxi_ctx *, void *), void *arg) {
    if (!fn) return PTXI_INVALID_VALUE;
    destroy_hook *h = malloc(sizeof *h);
    if (!h) return PTXI_OUT_OF_MEMORY;
    pthread_mutex_lock(&live_lock);
    *h = (destroy_hook){fn, arg, destroy_hooks};
    destroy_hooks = h;
    pthread_mutex_unlock(&live_lock);
    return PTXI_SUCCESS;
}

/* ---- the context ---- */

ptxi_status ptxi_ctx_create(ptxi_ctx **out, const ptxi_ctx_options *opt) {
    if (!out) return PTXI_INVALID_VALUE;
    ptxi_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return PTXI_OUT_OF_MEMORY;
    if (opt) ctx->opt = *opt;
    if (ctx->opt.deterministic) ctx->opt.threads = 1;
    /* PTXI_CONTRACT=0 runs every context's mul/add/sub as written (no fma contraction) */
    const char *contract = getenv("PTXI_CONTRACT");
    if (contract && !strcmp(contract, "0")) ctx->opt.no_contract = 1;
    /* PTXI_THREADS fills in an unset thread count, so that a whole test suite or
     * program can be run on one thread or on many without changing it. */
    uint64_t env_threads = 0;
    if (!num_env_u64("PTXI_THREADS", 65536, &env_threads)) {
        free(ctx);
        return PTXI_INVALID_VALUE;
    }
    if (!ctx->opt.threads) ctx->opt.threads = (unsigned)env_threads;
    if (!ctx->opt.threads) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        ctx->opt.threads = n > 0 ? (unsigned)n : 1;
    }
    if (arena_init(ctx, NULL) < 0) {
        free(ctx);
        return PTXI_OUT_OF_MEMORY;
    }
    pthread_mutex_init(&ctx->lock, NULL);
    pthread_mutex_init(&ctx->mod_lock, NULL);
    ctx->out = stdout;
    ctx->err = stderr;
    ctx->stack_size = rt_default_limit(PTXI_LIMIT_STACK_SIZE);
    ctx->fifo_size = rt_default_limit(PTXI_LIMIT_PRINTF_FIFO_SIZE);
    ctx->heap_size = rt_default_limit(PTXI_LIMIT_MALLOC_HEAP_SIZE);
    ctx->dev_pending_limit = rt_default_limit(PTXI_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT);
    ctx->fifo = rt_fifo_create(ctx->fifo_size);
    ctx->vmrt = (vm_runtime){
        &ctx->arena, ctx,  svc_vprintf,   svc_malloc,    svc_free, svc_resolve_func, svc_resolve_var, NULL,
        NULL,        NULL, svc_call_host, rt_devrt_call, NULL};
    rt_sanitize_ctx(ctx);
    ctx->null_stream.ctx = ctx;
    if (!ctx->fifo) {
        vm_arena_destroy(&ctx->arena);
        pthread_mutex_destroy(&ctx->lock);
        pthread_mutex_destroy(&ctx->mod_lock);
        free(ctx);
        return PTXI_OUT_OF_MEMORY;
    }
    /* device code sets a graph's conditional handle (pgraph.c) */
    ptxi_ctx_bind_extern(ctx, "cudaGraphSetConditional", (void (*)(void))pg_set_conditional);
    if (!live_add(ctx)) {
        ptxi_ctx_destroy(ctx);
        return PTXI_OUT_OF_MEMORY;
    }
    *out = ctx;
    return PTXI_SUCCESS;
}

/* Destroy and reset: no other call on the context may run meanwhile. */
static void release_all(ptxi_ctx *ctx) {
    rt_streams_release(ctx);
    ptxi_mempool_forget_ctx(ctx);
    while (ctx->modules) ptxi_module_unload(ctx->modules);
    rt_kept_free(ctx->kept); /* their memory goes with the arena */
    ctx->kept = NULL;
    if (ctx->heap_ready) rt_heap_fini(&ctx->heap);
    ctx->heap_ready = false;
    ctx->fifo_fixed = false;
    memset(ctx->params_kept, 0, sizeof ctx->params_kept); /* in the arena */
    vm_arena_destroy(&ctx->arena);
}

ptxi_status ptxi_ctx_destroy(ptxi_ctx *ctx) {
    if (!ctx) return PTXI_INVALID_CONTEXT;
    live_remove(ctx);
    pthread_mutex_lock(&live_lock);
    destroy_hook *h = destroy_hooks;
    pthread_mutex_unlock(&live_lock);
    for (; h; h = h->next) h->fn(ctx, h->arg);
    rt_flush(ctx);
    rt_sanitize_ctx_end(ctx);
    release_all(ctx);
    rt_fifo_destroy(ctx->fifo);
    for (rt_bind *b = ctx->binds, *n; b; b = n) {
        n = b->next;
        free(b->name);
        free(b);
    }
    pthread_mutex_destroy(&ctx->lock);
    pthread_mutex_destroy(&ctx->mod_lock);
    free(ctx);
    return PTXI_SUCCESS;
}

/* The runtime's __managed__ variables outlive the reset, at the same
 * addresses (other contexts' modules share them) with their values, when the
 * new arena can be had at the old one's base. */
ptxi_status ptxi_ctx_reset(ptxi_ctx *ctx) {
    if (!ctx) return PTXI_INVALID_CONTEXT;
    rt_flush(ctx);
    rt_kept *kept = rt_keep_managed(ctx);
    void *base = ctx->arena.base;
    release_all(ctx);
    if (arena_init(ctx, base) < 0) {
        rt_kept_free(kept);
        return PTXI_OUT_OF_MEMORY;
    }
    if (ctx->arena.base == base) rt_kept_place(ctx, kept);
    else rt_kept_free(kept);
    ctx->dev_error_texts = 0; /* it was in the arena */
    if (ctx->vmrt.san) rt_sanitize_arena(ctx);
    ctx->sticky = ctx->last = PTXI_SUCCESS;
    pthread_mutex_lock(&ctx->lock);
    ctx->detail[0] = 0;
    pthread_mutex_unlock(&ctx->lock);
    return PTXI_SUCCESS;
}

ptxi_status ptxi_ctx_synchronize(ptxi_ctx *ctx) {
    if (!ctx) return PTXI_INVALID_CONTEXT;
    rt_flush(ctx);
    ptxi_stream_run_host_fns(ctx, NULL, UINT64_MAX);
    return ctx->sticky;
}

ptxi_status ptxi_ctx_get_last_error(ptxi_ctx *ctx) {
    if (!ctx) return PTXI_INVALID_CONTEXT;
    ptxi_status last = atomic_exchange(&ctx->last, PTXI_SUCCESS), sticky = ctx->sticky;
    return sticky ? sticky : last;
}

ptxi_status ptxi_ctx_peek_last_error(ptxi_ctx *ctx) {
    if (!ctx) return PTXI_INVALID_CONTEXT;
    ptxi_status sticky = ctx->sticky;
    return sticky ? sticky : ctx->last;
}

/* A copy in the calling thread's own buffer: another thread's failure may
 * rewrite the context's text while the caller reads it. */
const char *ptxi_ctx_error_detail(ptxi_ctx *ctx) {
    static _Thread_local char copy[sizeof ctx->detail];
    if (!ctx) return "";
    pthread_mutex_lock(&ctx->lock);
    memcpy(copy, ctx->detail, sizeof copy);
    pthread_mutex_unlock(&ctx->lock);
    return copy;
}

void ptxi_ctx_set_output(ptxi_ctx *ctx, FILE *printf_out, FILE *report_out) {
    if (!ctx) return;
    if (printf_out) ctx->out = printf_out;
    if (report_out) ctx->err = report_out;
}

void ptxi_ctx_set_fault_reports(ptxi_ctx *ctx, int on) {
    if (ctx) ctx->quiet_faults = !on;
}

ptxi_status ptxi_ctx_set_limit(ptxi_ctx *ctx, ptxi_limit which, size_t value) {
    RT_CHECK_STICKY(ctx);
    ptxi_status st = PTXI_SUCCESS;
    pthread_mutex_lock(&ctx->lock);
    switch (which) {
    case PTXI_LIMIT_STACK_SIZE:
        if (value > (1u << 20)) st = PTXI_INVALID_VALUE;
        else ctx->stack_size = (value + 15) & ~(size_t)15;
        break;
    case PTXI_LIMIT_PRINTF_FIFO_SIZE:
        if (ctx->fifo_fixed) st = PTXI_INVALID_VALUE; /* as on the GPU */
        else if (rt_fifo_resize(ctx->fifo, value < 64 ? 64 : value) < 0) st = PTXI_OUT_OF_MEMORY;
        else ctx->fifo_size = value;
        break;
    case PTXI_LIMIT_MALLOC_HEAP_SIZE:
        /* As on the GPU: fixed once a launch has created the heap. */
        if (ctx->heap_ready) st = PTXI_INVALID_VALUE;
        else ctx->heap_size = value;
        break;
    case PTXI_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT: ctx->dev_pending_limit = value; break;
    default: st = PTXI_INVALID_VALUE;
    }
    pthread_mutex_unlock(&ctx->lock);
    return st ? rt_set_error(ctx, st) : PTXI_SUCCESS;
}

ptxi_status ptxi_ctx_get_limit(ptxi_ctx *ctx, ptxi_limit which, size_t *value) {
    if (!ctx) return PTXI_INVALID_CONTEXT;
    if (!value) return PTXI_INVALID_VALUE;
    ptxi_status st = PTXI_SUCCESS;
    pthread_mutex_lock(&ctx->lock);
    switch (which) {
    case PTXI_LIMIT_STACK_SIZE: *value = ctx->stack_size; break;
    case PTXI_LIMIT_PRINTF_FIFO_SIZE: *value = ctx->fifo_size; break;
    case PTXI_LIMIT_MALLOC_HEAP_SIZE: *value = ctx->heap_size; break;
    case PTXI_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT: *value = ctx->dev_pending_limit; break;
    default: st = PTXI_INVALID_VALUE;
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

ptxi_status ptxi_ctx_bind_extern(ptxi_ctx *ctx, const char *name, void (*fn)(void)) {
    RT_CHECK_STICKY(ctx);
    if (!name || !fn) return rt_set_error(ctx, PTXI_INVALID_VALUE);
    rt_bind *b = calloc(1, sizeof *b);
    if (!b || !(b->name = strdup(name))) {
        free(b);
        return rt_set_error(ctx, PTXI_OUT_OF_MEMORY);
    }
    b->fn = fn;
    pthread_mutex_lock(&ctx->mod_lock);
    b->next = ctx->binds;
    ctx->binds = b;
    pthread_mutex_unlock(&ctx->mod_lock);
    return PTXI_SUCCESS;
}

ptxi_status ptxi_ctx_last_launch_stats(ptxi_ctx *ctx, ptxi_launch_stats *out) {
    if (!ctx) return PTXI_INVALID_CONTEXT;
    if (!out) return PTXI_INVALID_VALUE;
    pthread_mutex_lock(&ctx->lock);
    *out = ctx->stats;
    pthread_mutex_unlock(&ctx->lock);
    return PTXI_SUCCESS;
}
