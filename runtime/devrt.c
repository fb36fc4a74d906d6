/* devrt.c — the device runtime of dynamic parallelism (kernels launched from device code,
 * CDP2 as CUDA 12+ defines it). A launch from device code is queued on the launching grid
 * and runs after that grid's threads have all ended: first the grids launched into the
 * default, named and fire-and-forget streams, in the order they were launched (which keeps
 * each stream's order and every event wait), each with its own children, then the grid's
 * tail launches in order. The parent is complete only when all of them are. Device code
 * cannot wait for a child (CUDA 12+ has no device-side cudaDeviceSynchronize), so running
 * a child after its parent's threads is one of the orders a GPU may choose. A parent may
 * still spin on memory its child writes: a grid still running EARLY_START_MS after it
 * queued a launch (not a tail launch) has its queue run from then on by a second host
 * thread, in the same order, while its own threads go on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "initcheck.h"
#include "rt.h"

#define CUDA_ERROR_INVALID_VALUE 1
#define CUDA_ERROR_MEMORY_ALLOCATION 2
#define CUDA_ERROR_INVALID_CONFIGURATION 9
#define CUDA_ERROR_LAUNCH_MAX_DEPTH_EXCEEDED 65
#define CUDA_ERROR_LAUNCH_PENDING_COUNT_EXCEEDED 69
#define CUDA_ERROR_INVALID_DEVICE 101
#define CUDA_ERROR_UNSUPPORTED_LIMIT 215
#define STREAM_TAIL_LAUNCH 0x3
#define SHARED_DEFAULT_MAX (48 * 1024)
/* An H100 runs 30 levels of nesting without complaint (tests/cudart/programs/dynpar_limits.cu);
 * ptxi refuses launches far deeper than any program needs, before its own stack runs out. */
#define MAX_DEPTH 512
#define EARLY_START_MS 50

typedef struct devlaunch {
    int op;                   /* VM_DEV_LAUNCH, VM_DEV_MEMCPY or VM_DEV_MEMSET */
    uint64_t dst, src, bytes; /* a copy or fill */
    const vm_func *func;      /* NULL: a V1 buffer not yet launched */
    uint32_t g[3], b[3], shmem;
    uint64_t params;
    struct devlaunch *next;
} devlaunch;

typedef struct thread_error {
    uint64_t thread;
    int err;
} thread_error;

/* One grid's device launches (vm_launch_cfg.devq). */
typedef struct devq {
    ptxi_ctx *ctx;
    unsigned depth; /* 0: launched from the host */
    pthread_mutex_t lock;
    devlaunch *prepared;          /* parameter buffers handed out, not launched yet */
    devlaunch *run, **run_tail;   /* launched into the other streams, in order */
    devlaunch *tail, **tail_tail; /* tail launches, in order */
    thread_error *errs;           /* each thread's last error, those not cudaSuccess */
    size_t nerrs, cap;
    /* the queue's runner while the grid still runs (EARLY_START_MS) */
    const vm_launch_cfg *cfg;
    pthread_t runner;
    pthread_cond_t wake;
    bool runner_on, grid_done;
    int runner_rc;
    vm_stats runner_stats;
    vm_fault runner_fault;
} devq;

static _Atomic uint64_t next_handle = 0x100;

/* cudaGetErrorName and cudaGetErrorString in device code answer what the host's do. */
static const struct {
    int code;
    const char *name, *text;
} error_texts[] = {
#define X(v, n, t) {v, #n, t},
#include "cudart/errors.def"
#undef X
};
static const char unknown_error[] = "unrecognized error code";

/* The address of the device's copy of one name or message: every one of them, made
 * once per context in device memory, then the text for unknown codes. */
static uint64_t error_text(ptxi_ctx *ctx, int code, bool message) {
    size_t n = sizeof error_texts / sizeof error_texts[0], total = sizeof unknown_error;
    for (size_t k = 0; k < n; k++) total += strlen(error_texts[k].name) + strlen(error_texts[k].text) + 2;
    pthread_mutex_lock(&ctx->lock);
    uint64_t base = ctx->dev_error_texts;
    if (!base && (base = vm_arena_alloc(&ctx->arena, total, VM_SH_GLOBAL, "device error texts"))) {
        char *p = (char *)(uintptr_t)base;
        for (size_t k = 0; k < n; k++) {
            p = stpcpy(p, error_texts[k].name) + 1;
            p = stpcpy(p, error_texts[k].text) + 1;
        }
        strcpy(p, unknown_error);
        ctx->dev_error_texts = base;
    }
    pthread_mutex_unlock(&ctx->lock);
    if (!base) return 0;
    uint64_t off = 0;
    for (size_t k = 0; k < n; k++) {
        size_t ln = strlen(error_texts[k].name) + 1;
        if (error_texts[k].code == code) return base + off + (message ? ln : 0);
        off += ln + strlen(error_texts[k].text) + 1;
    }
    return base + off;
}

static void drop(ptxi_ctx *ctx, devlaunch *l) {
    if (l->params) vm_arena_free(&ctx->arena, l->params);
    free(l);
}

static thread_error *error_of(devq *q, uint64_t thread) {
    for (size_t k = 0; k < q->nerrs; k++)
        if (q->errs[k].thread == thread) return &q->errs[k];
    return NULL;
}

static int set_error(devq *q, uint64_t thread, int err) {
    thread_error *t = error_of(q, thread);
    if (t) {
        t->err = err;
        return 0;
    }
    if (!err) return 0;
    if (q->nerrs == q->cap) {
        size_t cap = q->cap ? q->cap * 2 : 16;
        thread_error *n = realloc(q->errs, cap * sizeof *n);
        if (!n) return CUDA_ERROR_MEMORY_ALLOCATION;
        q->errs = n, q->cap = cap;
    }
    q->errs[q->nerrs++] = (thread_error){thread, err};
    return 0;
}

static bool config_ok(const vm_func *f, const uint32_t g[3], const uint32_t b[3], uint32_t shmem) {
    uint64_t nt = (uint64_t)b[0] * b[1] * b[2];
    const uint32_t *lim = f->ir->reqntid[0] ? f->ir->reqntid : f->ir->maxntid;
    uint64_t most = lim[0] ? (uint64_t)lim[0] * (lim[1] ? lim[1] : 1) * (lim[2] ? lim[2] : 1) : 1024;
    return b[0] && b[1] && b[2] && b[0] <= 1024 && b[1] <= 1024 && b[2] <= 64 && nt <= 1024 && nt <= most && g[0] &&
           g[1] && g[2] && g[0] <= 0x7fffffffu && g[1] <= 65535 && g[2] <= 65535 &&
           (uint64_t)f->shared_bytes + shmem <= SHARED_DEFAULT_MAX;
}

static int param_buffer(devq *q, vm_devcall *c) {
    ptxi_ctx *ctx = q->ctx;
    uint64_t size = c->func ? c->func->param_size : c->a[1];
    devlaunch *l = calloc(1, sizeof *l);
    if (!l) return CUDA_ERROR_MEMORY_ALLOCATION;
    l->params = vm_arena_alloc(&ctx->arena, size ? size : 1, VM_SH_GLOBAL, "device launch parameters");
    if (!l->params) {
        free(l);
        return CUDA_ERROR_MEMORY_ALLOCATION;
    }
    if (c->func) {
        l->func = c->func;
        memcpy(l->g, c->g, sizeof l->g);
        memcpy(l->b, c->b, sizeof l->b);
        l->shmem = c->shmem;
    }
    l->op = VM_DEV_LAUNCH;
    l->next = q->prepared;
    q->prepared = l;
    c->out = l->params;
    return 0;
}

/* Queues l, already counted as pending. */
static void *runner_main(void *arg);

static void enqueue(devq *q, devlaunch *l, uint64_t stream) {
    if (stream == STREAM_TAIL_LAUNCH) {
        *q->tail_tail = l;
        q->tail_tail = &l->next;
    } else {
        *q->run_tail = l;
        q->run_tail = &l->next;
        if (!q->runner_on) q->runner_on = pthread_create(&q->runner, NULL, runner_main, q) == 0;
        pthread_cond_signal(&q->wake);
    }
}

/* A copy or fill in a device-side stream: ordered with the launches around it. */
static int transfer(devq *q, const vm_devcall *c) {
    vm_arena *ar = &q->ctx->arena;
    uint64_t n = c->a[2];
    if (n &&
        (!vm_arena_ok_any(ar, c->a[0], n, true) || (c->op == VM_DEV_MEMCPY && !vm_arena_ok_any(ar, c->a[1], n, false))))
        return CUDA_ERROR_INVALID_VALUE;
    devlaunch *l = calloc(1, sizeof *l);
    if (!l) return CUDA_ERROR_MEMORY_ALLOCATION;
    *l = (devlaunch){.op = c->op, .dst = c->a[0], .src = c->a[1], .bytes = n};
    atomic_fetch_add(&q->ctx->dev_pending, 1);
    enqueue(q, l, c->a[3]);
    return 0;
}

static int launch(devq *q, vm_devcall *c) {
    ptxi_ctx *ctx = q->ctx;
    devlaunch **p = &q->prepared;
    while (*p && (*p)->params != c->a[0]) p = &(*p)->next;
    devlaunch *l = *p;
    if (!l) return CUDA_ERROR_INVALID_VALUE; /* not a parameter buffer of this grid */
    if (c->func) {                           /* V1: the configuration comes now */
        l->func = c->func;
        memcpy(l->g, c->g, sizeof l->g);
        memcpy(l->b, c->b, sizeof l->b);
        l->shmem = c->shmem;
    }
    if (!l->func) return CUDA_ERROR_INVALID_VALUE;
    *p = l->next;
    l->next = NULL;
    int e = !config_ok(l->func, l->g, l->b, l->shmem) ? CUDA_ERROR_INVALID_CONFIGURATION
            : q->depth + 1 >= MAX_DEPTH               ? CUDA_ERROR_LAUNCH_MAX_DEPTH_EXCEEDED
                                                      : 0;
    /* grids of other threads and other parents count too: reserve a place, or give it back */
    if (!e && atomic_fetch_add(&ctx->dev_pending, 1) >= __atomic_load_n(&ctx->dev_pending_limit, __ATOMIC_RELAXED)) {
        atomic_fetch_sub(&ctx->dev_pending, 1);
        e = CUDA_ERROR_LAUNCH_PENDING_COUNT_EXCEEDED;
    }
    if (e) {
        drop(ctx, l);
        return e;
    }
    enqueue(q, l, c->a[1]);
    return 0;
}

int rt_devrt_call(void *c_, vm_devcall *c) {
    (void)c_;
    devq *q = c->grid;
    ptxi_ctx *ctx = q->ctx;
    int e = 0;
    switch (c->op) {
    case VM_DEV_ATTRIBUTE: {
        int v;
        if (c->a[1] != 0) return CUDA_ERROR_INVALID_DEVICE;
        if (ptxi_device_attribute((int)c->a[0], &v) != PTXI_SUCCESS) return CUDA_ERROR_INVALID_VALUE;
        c->out = (uint64_t)(int64_t)v;
        return 0;
    }
    case VM_DEV_LIMIT: {
        static const int of[] = {PTXI_LIMIT_STACK_SIZE, PTXI_LIMIT_PRINTF_FIFO_SIZE, PTXI_LIMIT_MALLOC_HEAP_SIZE, -1,
                                 PTXI_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT};
        size_t v;
        if (c->a[0] >= sizeof of / sizeof of[0] || of[c->a[0]] < 0) return CUDA_ERROR_UNSUPPORTED_LIMIT;
        if (ptxi_ctx_get_limit(ctx, (ptxi_limit)of[c->a[0]], &v) != PTXI_SUCCESS) return CUDA_ERROR_INVALID_VALUE;
        c->out = v;
        return 0;
    }
    case VM_DEV_HANDLE: c->out = atomic_fetch_add(&next_handle, 0x10); return 0;
    case VM_DEV_ERROR_TEXT: c->out = error_text(ctx, (int)c->a[0], c->a[1] != 0); return 0;
    default: break;
    }
    pthread_mutex_lock(&q->lock);
    switch (c->op) {
    case VM_DEV_PARAM_BUFFER: e = param_buffer(q, c); break;
    case VM_DEV_LAUNCH: e = launch(q, c); break;
    case VM_DEV_MEMCPY:
    case VM_DEV_MEMSET: e = transfer(q, c); break;
    case VM_DEV_LAST_ERROR: {
        thread_error *t = error_of(q, c->thread);
        c->out = t ? (uint64_t)t->err : 0;
        if (t && c->a[0]) t->err = 0;
        break;
    }
    case VM_DEV_SET_ERROR: e = set_error(q, c->thread, (int)c->a[0]); break;
    default: e = CUDA_ERROR_INVALID_VALUE;
    }
    pthread_mutex_unlock(&q->lock);
    return e;
}

/* Runs the queued grids of one list in order; the first failure ends the rest unrun. */
static int run_grid(ptxi_ctx *ctx, vm_launch_cfg *cfg, unsigned depth, vm_stats *stats, vm_fault *fault);

static int run_list(ptxi_ctx *ctx, const vm_launch_cfg *parent, unsigned depth, devlaunch *l, int rc, vm_stats *stats,
                    vm_fault *fault) {
    while (l) {
        devlaunch *next = l->next;
        atomic_fetch_sub(&ctx->dev_pending, 1);
        if (!rc && l->op != VM_DEV_LAUNCH) {
            /* the memory may have been freed since the call */
            vm_arena *ar = &ctx->arena;
            if (l->bytes && (!vm_arena_ok_any(ar, l->dst, l->bytes, true) ||
                             (l->op == VM_DEV_MEMCPY && !vm_arena_ok_any(ar, l->src, l->bytes, false)))) {
                snprintf(fault->msg, sizeof fault->msg,
                         "a device-side %s of %llu bytes reaches memory no longer allocated",
                         l->op == VM_DEV_MEMCPY ? "cudaMemcpyAsync" : "cudaMemsetAsync", (unsigned long long)l->bytes);
                rc = PTXI_ILLEGAL_ADDRESS;
            } else if (l->op == VM_DEV_MEMCPY) {
                memmove((void *)(uintptr_t)l->dst, (const void *)(uintptr_t)l->src, l->bytes);
                vm_init_wrote(ar, l->dst, l->bytes);
            } else {
                memset((void *)(uintptr_t)l->dst, (int)l->src, l->bytes);
                vm_init_wrote(ar, l->dst, l->bytes);
            }
        } else if (!rc) {
            vm_launch_cfg cfg = {
                .kernel = (vm_func *)l->func,
                .grid = {l->g[0], l->g[1], l->g[2]},
                .block = {l->b[0], l->b[1], l->b[2]},
                .dyn_shared = l->shmem,
                .params = l->params,
                .threads = parent->threads,
                .timeout_s = parent->timeout_s,
                .stack_size = parent->stack_size,
            };
            for (int d = 0; d < 3; d++) {
                const uint32_t *r = l->func->ir->reqnctapercluster;
                cfg.cluster[d] = r[0] ? (r[d] ? r[d] : 1) : 1;
            }
            vm_stats s;
            rc = run_grid(ctx, &cfg, depth, &s, fault);
            stats->thread_insns += s.thread_insns;
            stats->warp_insns += s.warp_insns;
            stats->jit_warp_insns += s.jit_warp_insns;
        }
        drop(ctx, l);
        l = next;
    }
    return rc;
}

/* Runs the grid's queue while the grid still runs: each launch after it has waited
 * EARLY_START_MS for the grid to end (the common case, where children run after their
 * parent's threads, as before), one at a time in queue order. */
static void *runner_main(void *arg) {
    devq *q = arg;
    pthread_mutex_lock(&q->lock);
    while (!q->grid_done) {
        if (!q->run) {
            pthread_cond_wait(&q->wake, &q->lock);
            continue;
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += EARLY_START_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
        int w = 0;
        while (!q->grid_done && w == 0) w = pthread_cond_timedwait(&q->wake, &q->lock, &until);
        /* the grid still runs: it may be waiting for its children */
        while (!q->grid_done && q->run) {
            devlaunch *l = q->run;
            q->run = l->next;
            if (!q->run) q->run_tail = &q->run;
            l->next = NULL;
            pthread_mutex_unlock(&q->lock);
            vm_stats st = {0};
            int rc = run_list(q->ctx, q->cfg, q->depth + 1, l, q->runner_rc, &st, &q->runner_fault);
            pthread_mutex_lock(&q->lock);
            q->runner_rc = rc;
            q->runner_stats.thread_insns += st.thread_insns;
            q->runner_stats.warp_insns += st.warp_insns;
            q->runner_stats.jit_warp_insns += st.jit_warp_insns;
        }
    }
    pthread_mutex_unlock(&q->lock);
    return NULL;
}

static int run_grid(ptxi_ctx *ctx, vm_launch_cfg *cfg, unsigned depth, vm_stats *stats, vm_fault *fault) {
    devq *q = calloc(1, sizeof *q);
    if (!q) return PTXI_OUT_OF_MEMORY;
    q->ctx = ctx;
    q->depth = depth;
    q->cfg = cfg;
    pthread_mutex_init(&q->lock, NULL);
    pthread_cond_init(&q->wake, NULL);
    q->run_tail = &q->run;
    q->tail_tail = &q->tail;
    cfg->devq = q;
    int rc = vm_launch(cfg, stats, fault);
    pthread_mutex_lock(&q->lock);
    q->grid_done = true;
    pthread_cond_signal(&q->wake);
    bool joined = q->runner_on;
    pthread_mutex_unlock(&q->lock);
    if (joined) {
        pthread_join(q->runner, NULL);
        stats->thread_insns += q->runner_stats.thread_insns;
        stats->warp_insns += q->runner_stats.warp_insns;
        stats->jit_warp_insns += q->runner_stats.jit_warp_insns;
        if (!rc && q->runner_rc) {
            rc = q->runner_rc;
            fault->status = q->runner_fault.status;
            memcpy(fault->msg, q->runner_fault.msg, sizeof fault->msg);
        }
        free(q->runner_fault.asserts);
    }
    rc = run_list(ctx, cfg, depth + 1, q->run, rc, stats, fault);
    rc = run_list(ctx, cfg, depth + 1, q->tail, rc, stats, fault);
    while (q->prepared) { /* buffers never launched */
        devlaunch *n = q->prepared->next;
        drop(ctx, q->prepared);
        q->prepared = n;
    }
    pthread_cond_destroy(&q->wake);
    pthread_mutex_destroy(&q->lock);
    free(q->errs);
    free(q);
    return rc;
}

int rt_run_grid(ptxi_ctx *ctx, vm_launch_cfg *cfg, vm_stats *stats, vm_fault *fault) {
    return run_grid(ctx, cfg, 0, stats, fault);
}
