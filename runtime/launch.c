/* launch.c — kernels (parameters, attributes), launch validation as a GPU
 * does it, the launch itself, device memory, and streams. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "initcheck.h"
#include "pool.h"
#include "rt.h"
#include "sanitize.h"

#define SHARED_DEFAULT_MAX (48 * 1024)
#define SHARED_OPTIN_MAX 232448 /* sm_90: 227 KiB per block with the opt-in */

/* ---- kernels ---- */

const char *ptxi_kernel_name(ptxi_kernel *k) { return k ? k->vf->ir->name : NULL; }
ptxi_ctx *ptxi_kernel_ctx(ptxi_kernel *k) { return k ? k->mod->ctx : NULL; }
unsigned ptxi_kernel_param_count(ptxi_kernel *k) { return k ? k->vf->ir->nparams : 0; }

ptxi_status ptxi_kernel_param_info(ptxi_kernel *k, unsigned i, size_t *size, size_t *align, size_t *offset) {
    if (!k || i >= k->vf->ir->nparams) return PTXI_INVALID_VALUE;
    const ir_var *p = k->vf->ir->params[i];
    if (size) *size = p->size;
    if (align) *align = p->align ? p->align : 1;
    if (offset) *offset = k->vf->param_off[i];
    return PTXI_SUCCESS;
}

static uint32_t block_limit(const ir_func *f) {
    const uint32_t *t = f->reqntid[0] ? f->reqntid : f->maxntid;
    if (!t[0]) return 1024;
    return t[0] * (t[1] ? t[1] : 1) * (t[2] ? t[2] : 1);
}

static uint32_t local_bytes(const ptxi_kernel *k) { return k->vf->local_size; }

/* The sum of of(g) over f and every function it calls directly (each once). */
static uint32_t sum_callees(const vm_func *f, uint32_t (*of)(const vm_func *), const vm_func **seen, unsigned *nseen) {
    for (unsigned k = 0; k < *nseen; k++)
        if (seen[k] == f) return 0;
    if (*nseen == 256) return 0;
    seen[(*nseen)++] = f;
    uint32_t n = of(f);
    for (uint32_t c = 0; f->code && c < f->ncode; c++)
        if (f->code[c].op == VM_CALL && ((const vm_callinfo *)f->code[c].p)->callee)
            n += sum_callees(((const vm_callinfo *)f->code[c].p)->callee, of, seen, nseen);
    return n;
}

static uint32_t kernel_sum(const ptxi_kernel *k, uint32_t (*of)(const vm_func *)) {
    const vm_func *seen[256];
    unsigned n = 0;
    return sum_callees(k->vf, of, seen, &n);
}

static uint32_t shared_bytes(const vm_func *f) { return f->shared_bytes; }
static uint32_t is_vprintf(const vm_func *f) { return !f->ir->has_body && !strcmp(f->ir->name, "vprintf"); }

/* The kernel's static shared memory: its own variables and its callees'.
 * (The CTA's shared window is laid out for the whole module, but limits are
 * checked per kernel, as a GPU does.) */
static uint32_t static_shared(const ptxi_kernel *k) { return kernel_sum(k, shared_bytes); }

/* The opt-in may be set by one thread while another launches the kernel. */
static int max_dyn_shared(const ptxi_kernel *k) { return __atomic_load_n(&k->max_dyn_shared, __ATOMIC_RELAXED); }

ptxi_status ptxi_kernel_get_attr(ptxi_kernel *k, ptxi_kernel_attr a, int *value) {
    if (!k || !value) return PTXI_INVALID_VALUE;
    const vm_program *p = k->vf->prog;
    switch (a) {
    case PTXI_KATTR_MAX_THREADS_PER_BLOCK: *value = (int)block_limit(k->vf->ir); break;
    case PTXI_KATTR_STATIC_SHARED_BYTES: *value = (int)static_shared(k); break;
    case PTXI_KATTR_LOCAL_BYTES: *value = (int)local_bytes(k); break;
    case PTXI_KATTR_CONST_BYTES: {
        uint64_t n = 0;
        for (uint32_t g = 0; g < p->ir->nglobals; g++)
            if (p->ir->globals[g]->space == IR_SPACE_CONST) n += p->ir->globals[g]->size;
        *value = (int)n;
        break;
    }
    case PTXI_KATTR_NUM_REGS:
        /* PTX names virtual registers, far more than ptxas allocates: report
         * .maxnreg when given, else at most 32 (what typical kernels get), so
         * occupancy computed from it stays plausible */
        *value = k->vf->ir->maxnreg ? (int)k->vf->ir->maxnreg : k->vf->ir->nregs < 32 ? (int)k->vf->ir->nregs : 32;
        break;
    case PTXI_KATTR_MAX_DYNAMIC_SHARED_BYTES: *value = max_dyn_shared(k) - (int)static_shared(k); break;
    case PTXI_KATTR_PTX_VERSION: *value = (int)(p->ir->version_major * 10 + p->ir->version_minor); break;
    case PTXI_KATTR_BINARY_VERSION: *value = (int)(p->ir->sm ? p->ir->sm : 90); break;
    default: return PTXI_INVALID_VALUE;
    }
    return PTXI_SUCCESS;
}

ptxi_status ptxi_kernel_set_attr(ptxi_kernel *k, ptxi_kernel_attr a, int value) {
    if (!k) return PTXI_INVALID_VALUE;
    if (a != PTXI_KATTR_MAX_DYNAMIC_SHARED_BYTES) return rt_set_error(k->mod->ctx, PTXI_INVALID_VALUE);
    if (value < 0 || (uint64_t)value + static_shared(k) > SHARED_OPTIN_MAX)
        return rt_set_error(k->mod->ctx, PTXI_INVALID_VALUE);
    __atomic_store_n(&k->max_dyn_shared, value + (int)static_shared(k), __ATOMIC_RELAXED);
    return PTXI_SUCCESS;
}

/* ---- launch ---- */

static ptxi_status config_error(ptxi_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static ptxi_status config_error(ptxi_ctx *ctx, const char *fmt, ...) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rt_detail(ctx, "launch rejected: %s", msg);
    return rt_set_error(ctx, PTXI_INVALID_VALUE);
}

/* Every configuration error is INVALID_VALUE, as cuLaunchKernel and CUDA 13's
 * cudaLaunchKernel report them on an H100 (ptx-samples/app_errors, launch_bounds);
 * the detail message says which limit was exceeded. */
/* The cluster shape of a launch: the one given (cl) or the kernel's
 * .reqnctapercluster, 1x1x1 without either; 0 when the two disagree. */
static bool cluster_shape(const ir_func *f, const uint32_t *cl, uint32_t c[3]) {
    for (int d = 0; d < 3; d++) {
        uint32_t k = f->reqnctapercluster[0] ? (f->reqnctapercluster[d] ? f->reqnctapercluster[d] : 1) : 0;
        c[d] = cl ? cl[d] : k ? k : 1;
        if (cl && k && cl[d] != k) return false;
    }
    return true;
}

static ptxi_status validate(ptxi_kernel *k, ptxi_dim3 g, ptxi_dim3 b, size_t dyn, const uint32_t *cl) {
    ptxi_ctx *ctx = k->mod->ctx;
    const ir_func *f = k->vf->ir;
    if (!b.x || !b.y || !b.z || b.x > 1024 || b.y > 1024 || b.z > 64)
        return config_error(ctx, "block (%u,%u,%u) is outside (1..1024, 1..1024, 1..64)", b.x, b.y, b.z);
    uint64_t nt = (uint64_t)b.x * b.y * b.z;
    if (nt > 1024) return config_error(ctx, "%llu threads per block exceed 1024", (unsigned long long)nt);
    if (!g.x || !g.y || !g.z || g.x > 0x7fffffffu || g.y > 65535 || g.z > 65535)
        return config_error(ctx, "grid (%u,%u,%u) is outside (1..2^31-1, 1..65535, 1..65535)", g.x, g.y, g.z);
    if (f->reqntid[0] && (b.x != f->reqntid[0] || b.y != (f->reqntid[1] ? f->reqntid[1] : 1) ||
                          b.z != (f->reqntid[2] ? f->reqntid[2] : 1)))
        return config_error(ctx, "block of %llu threads differs from .reqntid (%u)", (unsigned long long)nt,
                            block_limit(f));
    if (nt > block_limit(f))
        return config_error(ctx, "%llu threads per block exceed .maxntid (%u)", (unsigned long long)nt, block_limit(f));
    uint32_t c[3], gd[3] = {g.x, g.y, g.z};
    if (!cluster_shape(f, cl, c))
        return config_error(ctx, "cluster %u x %u x %u differs from the kernel's .reqnctapercluster", cl[0], cl[1],
                            cl[2]);
    uint64_t cn = (uint64_t)c[0] * c[1] * c[2];
    if (cn != 1) {
        if (!cn || cn > 8)
            return config_error(ctx, "a cluster of %u x %u x %u blocks is not 1 to 8 blocks", c[0], c[1], c[2]);
        for (int d = 0; d < 3; d++)
            if (gd[d] % c[d])
                return config_error(ctx, "grid (%u,%u,%u) is not a whole number of %u x %u x %u clusters", g.x, g.y,
                                    g.z, c[0], c[1], c[2]);
    }
    uint64_t shared = static_shared(k) + dyn;
    uint64_t optin = (uint64_t)max_dyn_shared(k), limit = optin > SHARED_DEFAULT_MAX ? optin : SHARED_DEFAULT_MAX;
    if (shared > limit)
        return config_error(ctx, "%llu bytes of shared memory exceed the %llu-byte limit", (unsigned long long)shared,
                            (unsigned long long)limit);
    return PTXI_SUCCESS;
}

/* A launch's parameter buffer of n bytes. Allocated and freed with each
 * launch, it gave its page back to the host at every free (madvise), whose
 * TLB shootdown interrupted every CPU running one of the process's threads:
 * 30 us a launch on two CPUs with the pool's threads spinning (bench/README.md,
 * round 14). Finished launches' buffers are kept, a few, for the next launch
 * of the same size. */
static uint64_t params_take(ptxi_ctx *ctx, size_t n) {
    uint64_t got = 0;
    pthread_mutex_lock(&ctx->lock);
    for (size_t i = 0; i < RT_PARAMS_KEPT && !got; i++)
        if (ctx->params_kept[i].size == n) {
            got = ctx->params_kept[i].addr;
            ctx->params_kept[i].size = 0;
        }
    pthread_mutex_unlock(&ctx->lock);
    return got ? got : vm_arena_alloc(&ctx->arena, n, VM_SH_PARAM, "kernel parameters");
}

static void params_give(ptxi_ctx *ctx, uint64_t p, size_t n) {
    pthread_mutex_lock(&ctx->lock);
    for (size_t i = 0; i < RT_PARAMS_KEPT && p; i++)
        if (!ctx->params_kept[i].size) {
            ctx->params_kept[i].addr = p, ctx->params_kept[i].size = n;
            p = 0;
        }
    pthread_mutex_unlock(&ctx->lock);
    if (p) vm_arena_free(&ctx->arena, p);
}

static ptxi_status launch(ptxi_kernel *k, ptxi_dim3 grid, ptxi_dim3 block, size_t dyn_shared, const void *params,
                          size_t params_size, unsigned flags, const uint32_t *cluster) {
    if (!k) return PTXI_INVALID_HANDLE;
    ptxi_ctx *ctx = k->mod->ctx;
    RT_CHECK_STICKY(ctx);
    ptxi_status st = validate(k, grid, block, dyn_shared, cluster);
    if (st) return st;
    if (params_size != k->vf->param_size || (params_size && !params)) {
        rt_detail(ctx, "kernel '%s' takes %u bytes of parameters, %zu given", k->vf->ir->name, k->vf->param_size,
                  params_size);
        return rt_set_error(ctx, PTXI_INVALID_PARAMETERS);
    }
    rt_flush(ctx);
    /* the printf FIFO's size is fixed by the first launch of a kernel that
     * calls printf (on an H100 a launch of one that does not leaves it free:
     * tests/cudart/programs/nan_limits.cu, gpu/jobs/rt_defaults) */
    if (!ctx->fifo_fixed && kernel_sum(k, is_vprintf)) ctx->fifo_fixed = true;
    size_t psize = params_size ? params_size : 1;
    uint64_t pbuf = params_take(ctx, psize);
    if (!pbuf) return rt_set_error(ctx, PTXI_OUT_OF_MEMORY);
    memcpy((void *)(uintptr_t)pbuf, params, params_size);
    pthread_mutex_lock(&ctx->lock);
    uint32_t stack_size = (uint32_t)ctx->stack_size;
    pthread_mutex_unlock(&ctx->lock);
    vm_launch_cfg cfg = {
        .kernel = k->vf,
        .grid = {grid.x, grid.y, grid.z},
        .block = {block.x, block.y, block.z},
        .dyn_shared = (uint32_t)dyn_shared,
        .params = pbuf,
        .threads = ctx->opt.threads,
        .timeout_s = ctx->opt.timeout_s,
        .stack_size = stack_size,
    };
    cluster_shape(k->vf->ir, cluster, cfg.cluster);
    uint64_t ncta = (uint64_t)grid.x * grid.y * grid.z, work = 0;
    if (flags & PTXI_LAUNCH_COOPERATIVE) {
        /* every CTA resident at once; grid.sync() counts arrivals in a zeroed
         * workspace whose address cooperative groups build as %envreg1:%envreg2
         * (high:low, a bfi.b64 in their PTX) */
        unsigned th = ctx->opt.threads ? ctx->opt.threads : 1;
        cfg.resident = (uint32_t)((ncta + th - 1) / th);
        if (cfg.resident < 8) cfg.resident = 8;
        work = vm_arena_alloc(&ctx->arena, 64, VM_SH_GLOBAL, "grid workspace");
        if (!work) {
            params_give(ctx, pbuf, psize);
            return rt_set_error(ctx, PTXI_OUT_OF_MEMORY);
        }
        cfg.envreg[1] = (uint32_t)(work >> 32);
        cfg.envreg[2] = (uint32_t)work;
    }
    vm_stats stats = {0};
    vm_fault fault = {0};
    vm_san *san = ctx->vmrt.san;
    uint64_t errors = san ? atomic_load(&san->errors) : 0;
    double t0 = vm_now();
    int rc = rt_run_grid(ctx, &cfg, &stats, &fault);
    /* sanitize mode: the kernel ran to its end past its bad accesses, each
     * recorded; then it fails as under compute-sanitizer */
    bool san_failed = san && san->tool != VM_SAN_INITCHECK && !rc && atomic_load(&san->errors) != errors;
    if (san_failed) {
        rc = PTXI_LAUNCH_FAILED;
        snprintf(fault.msg, sizeof fault.msg, "%s", ptxi_error_string(PTXI_LAUNCH_FAILED));
    } else if (san && san->tool == VM_SAN_MEMCHECK && rc == PTXI_ASSERT) {
        rt_sanitize_asserts(fault.asserts);
    } else if (san && san->tool == VM_SAN_MEMCHECK && rc && rc != PTXI_ASSERT && atomic_load(&san->errors) == errors) {
        /* a fault memcheck has no record kind for yet (a bad free, a trap, a
         * deadlock): ptxi's own report, counted as an error (racecheck and
         * synccheck report none: the program sees the error) */
        vm_san_record(san, fault.msg);
    }
    double seconds = vm_now() - t0;
    if (stats.threads > 1)
        atomic_store_explicit(&ctx->launched_ns, (uint64_t)((t0 + seconds) * 1e9), memory_order_relaxed);
    pthread_mutex_lock(&ctx->lock);
    ctx->stats.seconds = seconds;
    ctx->stats.thread_insns = stats.thread_insns;
    ctx->stats.warp_insns = stats.warp_insns;
    ctx->stats.jit_warp_insns = stats.jit_warp_insns;
    memcpy(ctx->stats.pmevents, stats.pmevents, sizeof stats.pmevents);
    ctx->stats.host_threads = stats.threads;
    ctx->stats.late_start_seconds = stats.late_s;
    ctx->stats.busy_seconds = stats.busy_s;
    ctx->stats.tail_seconds = stats.tail_s;
    pthread_mutex_unlock(&ctx->lock);
    params_give(ctx, pbuf, psize);
    if (work) vm_arena_free(&ctx->arena, work);
    if (!rc) {
        free(fault.asserts);
        return PTXI_SUCCESS;
    }
    rt_detail(ctx, "%s", fault.msg);
    if (rc == PTXI_ASSERT && fault.asserts) {
        /* the GPU prints every failed assertion at the next flush point */
        pthread_mutex_lock(&ctx->lock);
        size_t n = ctx->pending ? strlen(ctx->pending) : 0, m = fault.asserts_len;
        char *p = realloc(ctx->pending, n + m + 1);
        if (p) {
            memcpy(p + n, fault.asserts, m + 1); /* one line per failed assert, each ending in \n */
            ctx->pending = p;
        }
        pthread_mutex_unlock(&ctx->lock);
    } else if (rc != PTXI_ASSERT && !ctx->quiet_faults && !san) { /* sanitize mode: recorded above */
        FILE *err = ctx->err;
        fprintf(err, "%s\n", fault.msg);
        fflush(err);
    }
    free(fault.asserts);
    return rt_set_error(ctx, (ptxi_status)rc);
}

/* A launch runs to completion when issued, once the host functions queued before
 * it on its stream are done (stream.c): so every stream is in order. */
static void after_host_fns(ptxi_kernel *k, ptxi_stream *s) {
    if (k) ptxi_stream_run_host_fns(k->mod->ctx, s, UINT64_MAX);
}

ptxi_status ptxi_launch_packed(ptxi_kernel *k, ptxi_dim3 grid, ptxi_dim3 block, size_t dyn_shared, ptxi_stream *s,
                               const void *params, size_t params_size) {
    after_host_fns(k, s);
    return launch(k, grid, block, dyn_shared, params, params_size, 0, NULL);
}

ptxi_status ptxi_launch(ptxi_kernel *k, ptxi_dim3 grid, ptxi_dim3 block, size_t dyn_shared, ptxi_stream *s,
                        void **args) {
    return ptxi_launch_ex(k, grid, block, dyn_shared, s, args, 0);
}

/* Packs one argument pointer per parameter into the parameter buffer and launches. */
static ptxi_status launch_args(ptxi_kernel *k, ptxi_dim3 grid, ptxi_dim3 block, size_t dyn_shared, void **args,
                               unsigned flags, const uint32_t *cluster) {
    if (!k) return PTXI_INVALID_HANDLE;
    const vm_func *f = k->vf;
    uint8_t *buf = calloc(1, f->param_size + 1);
    if (!buf) return rt_set_error(k->mod->ctx, PTXI_OUT_OF_MEMORY);
    for (uint32_t i = 0; i < f->ir->nparams; i++) {
        if (!args || !args[i]) {
            free(buf);
            return rt_set_error(k->mod->ctx, PTXI_INVALID_PARAMETERS);
        }
        memcpy(buf + f->param_off[i], args[i], f->ir->params[i]->size);
    }
    ptxi_status st = launch(k, grid, block, dyn_shared, buf, f->param_size, flags, cluster);
    free(buf);
    return st;
}

ptxi_status ptxi_launch_ex(ptxi_kernel *k, ptxi_dim3 grid, ptxi_dim3 block, size_t dyn_shared, ptxi_stream *s,
                           void **args, unsigned flags) {
    after_host_fns(k, s);
    return launch_args(k, grid, block, dyn_shared, args, flags, NULL);
}

ptxi_status ptxi_launch_cluster(ptxi_kernel *k, ptxi_dim3 grid, ptxi_dim3 block, ptxi_dim3 cluster, size_t dyn_shared,
                                ptxi_stream *s, void **args, unsigned flags) {
    after_host_fns(k, s);
    uint32_t c[3] = {cluster.x, cluster.y, cluster.z};
    return launch_args(k, grid, block, dyn_shared, args, flags, c);
}

/* ---- device memory ---- */

ptxi_status ptxi_mem_alloc(ptxi_ctx *ctx, size_t bytes, ptxi_dptr *out) {
    RT_CHECK_STICKY(ctx);
    if (!out) return rt_set_error(ctx, PTXI_INVALID_VALUE);
    *out = bytes ? vm_arena_alloc(&ctx->arena, bytes, VM_SH_GLOBAL, NULL) : 0;
    return bytes && !*out ? rt_set_error(ctx, PTXI_OUT_OF_MEMORY) : PTXI_SUCCESS;
}

ptxi_status ptxi_mem_alloc_managed(ptxi_ctx *ctx, size_t bytes, ptxi_dptr *out) {
    RT_CHECK_STICKY(ctx);
    if (!out || !bytes) return rt_set_error(ctx, PTXI_INVALID_VALUE);
    *out = vm_arena_alloc(&ctx->arena, bytes, VM_SH_MANAGED, NULL);
    return *out ? PTXI_SUCCESS : rt_set_error(ctx, PTXI_OUT_OF_MEMORY);
}

ptxi_status ptxi_mem_free(ptxi_ctx *ctx, ptxi_dptr p) {
    RT_CHECK_STICKY(ctx);
    if (!p) return PTXI_SUCCESS;
    vm_arenas_lock();
    vm_arena *o = vm_arena_owner(&ctx->arena, p);
    int rc = o ? vm_arena_free_kind(o, p, VM_KIND(VM_SH_GLOBAL) | VM_KIND(VM_SH_MANAGED)) : -1;
    vm_arenas_unlock();
    return rc ? rt_set_error(ctx, PTXI_INVALID_VALUE) : PTXI_SUCCESS;
}

ptxi_status ptxi_mem_register_host(ptxi_ctx *ctx, void *p, size_t bytes) {
    RT_CHECK_STICKY(ctx);
    if (!p || !bytes || vm_arena_register(&ctx->arena, (uint64_t)(uintptr_t)p, bytes) < 0)
        return rt_set_error(ctx, PTXI_INVALID_VALUE);
    return PTXI_SUCCESS;
}

ptxi_status ptxi_mem_unregister_host(ptxi_ctx *ctx, void *p) {
    RT_CHECK_STICKY(ctx);
    return vm_arena_unregister(&ctx->arena, (uint64_t)(uintptr_t)p) < 0 ? rt_set_error(ctx, PTXI_INVALID_VALUE)
                                                                        : PTXI_SUCCESS;
}

/* The live allocation holding p, in whichever context's memory it is; *owner
 * (when asked) that context. */
static bool find_alloc(ptxi_ctx *ctx, ptxi_dptr p, vm_alloc *a, ptxi_ctx **owner) {
    vm_arenas_lock();
    vm_arena *o = vm_arena_owner(&ctx->arena, p);
    bool found = o && vm_arena_find(o, p, a);
    if (owner) *owner = found ? (ptxi_ctx *)(void *)((char *)o - offsetof(ptxi_ctx, arena)) : NULL;
    vm_arenas_unlock();
    return found;
}

ptxi_status ptxi_mem_get_range(ptxi_ctx *ctx, ptxi_dptr p, ptxi_dptr *base, size_t *bytes) {
    if (!ctx) return PTXI_INVALID_CONTEXT;
    vm_alloc a;
    if (!find_alloc(ctx, p, &a, NULL)) return PTXI_NOT_FOUND;
    if (base) *base = a.addr;
    if (bytes) *bytes = a.size;
    return PTXI_SUCCESS;
}

ptxi_ctx *ptxi_mem_get_context(ptxi_ctx *ctx, ptxi_dptr p) {
    vm_alloc a;
    ptxi_ctx *owner = NULL;
    return ctx && find_alloc(ctx, p, &a, &owner) ? owner : NULL;
}

int ptxi_mem_is_managed_var(ptxi_ctx *ctx, ptxi_dptr p) {
    vm_alloc a;
    /* module variables are the arena's named allocations */
    return ctx && find_alloc(ctx, p, &a, NULL) && a.kind == VM_SH_MANAGED && a.what;
}

ptxi_status ptxi_mem_get_info(ptxi_ctx *ctx, size_t *free_bytes, size_t *total_bytes) {
    if (!ctx) return PTXI_INVALID_CONTEXT;
    uint64_t total = ctx->arena.limit, used = vm_arena_in_use(&ctx->arena);
    if (total_bytes) *total_bytes = total;
    if (free_bytes) *free_bytes = total > used ? total - used : 0;
    return PTXI_SUCCESS;
}

/* The arena of the live allocation that holds [p, p+n) (a range the host
 * may copy): the context's own, or another context's (unified addressing);
 * NULL when there is none. With vm_arenas_lock held, which keeps that
 * context's memory while the copy runs. n = 0: the context's own. */
static vm_arena *dev_range(ptxi_ctx *ctx, ptxi_dptr p, size_t n) {
    if (!n) return &ctx->arena;
    vm_alloc a;
    vm_arena *o = vm_arena_owner(&ctx->arena, p);
    return o && vm_arena_find(o, p, &a) && n <= a.addr + (a.size ? a.size : 1) - p ? o : NULL;
}

/* The end of a copy or memset the host ran with the arenas locked (dev_range):
 * INVALID_VALUE when its ranges were not memory. */
static ptxi_status copy_end(ptxi_ctx *ctx, bool ok) {
    vm_arenas_unlock();
    return ok ? PTXI_SUCCESS : rt_set_error(ctx, PTXI_INVALID_VALUE);
}

/* The start of a blocking copy or memset. It is a flush point: what launches
 * printed comes out first. And on a context whose launches ran on many host
 * threads, the last within LAUNCHES_NEAR seconds, another launch is likely to
 * follow soon: the pool's threads are woken now, to spin (vm_pool_heads_up),
 * so that it does not wait for them to wake. */
#define LAUNCHES_NEAR 0.1
static void copy_begin(ptxi_ctx *ctx) {
    rt_flush(ctx);
    uint64_t at = atomic_load_explicit(&ctx->launched_ns, memory_order_relaxed);
    if (at && vm_now() * 1e9 - (double)at < LAUNCHES_NEAR * 1e9) vm_pool_heads_up();
}

ptxi_status ptxi_memcpy_htod(ptxi_ctx *ctx, ptxi_dptr dst, const void *src, size_t n) {
    RT_CHECK_STICKY(ctx);
    vm_arenas_lock();
    vm_arena *d = dev_range(ctx, dst, n);
    bool ok = (src || !n) && d;
    if (ok) {
        copy_begin(ctx);
        vm_pool_copy((void *)(uintptr_t)dst, src, 0, n, ctx->opt.threads);
        vm_init_wrote(d, dst, n);
    }
    return copy_end(ctx, ok);
}

ptxi_status ptxi_memcpy_dtoh(ptxi_ctx *ctx, void *dst, ptxi_dptr src, size_t n) {
    RT_CHECK_STICKY(ctx);
    vm_arenas_lock();
    bool ok = (dst || !n) && dev_range(ctx, src, n);
    if (ok) {
        copy_begin(ctx);
        vm_pool_copy(dst, (const void *)(uintptr_t)src, 0, n, ctx->opt.threads);
    }
    return copy_end(ctx, ok);
}

ptxi_status ptxi_memcpy_dtod(ptxi_ctx *ctx, ptxi_dptr dst, ptxi_dptr src, size_t n) {
    RT_CHECK_STICKY(ctx);
    vm_arenas_lock();
    vm_arena *d = dev_range(ctx, dst, n);
    bool ok = d && dev_range(ctx, src, n);
    if (ok) {
        copy_begin(ctx);
        vm_pool_copy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, 0, n, ctx->opt.threads);
        vm_init_wrote(d, dst, n);
    }
    return copy_end(ctx, ok);
}

/* count values of `width` bytes (1 or 4) at dst */
static ptxi_status memset_n(ptxi_ctx *ctx, ptxi_dptr dst, uint32_t value, size_t count, unsigned width) {
    RT_CHECK_STICKY(ctx);
    vm_arenas_lock();
    vm_arena *d = dev_range(ctx, dst, count * width);
    bool ok = !(dst & (width - 1)) && d;
    if (ok) {
        copy_begin(ctx);
        if (width == 1) vm_pool_copy((void *)(uintptr_t)dst, NULL, (int)value, count, ctx->opt.threads);
        else
            for (size_t i = 0; i < count; i++) ((uint32_t *)(uintptr_t)dst)[i] = value;
        vm_init_wrote(d, dst, count * width);
    }
    return copy_end(ctx, ok);
}

ptxi_status ptxi_memset_d8(ptxi_ctx *ctx, ptxi_dptr dst, uint8_t value, size_t n) {
    return memset_n(ctx, dst, value, n, 1);
}

ptxi_status ptxi_memset_d32(ptxi_ctx *ctx, ptxi_dptr dst, uint32_t value, size_t count) {
    return memset_n(ctx, dst, value, count, 4);
}
