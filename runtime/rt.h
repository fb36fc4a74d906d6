/* rt.h — the host runtime's internal objects behind the opaque handles of
 * ptxi.h: a context owns the device arena, the device heap, the printf FIFO,
 * modules and streams. Launches run synchronously on the calling thread
 * (spread over the context's worker threads), so streams are in order. */
#ifndef PTXI_RT_H
#define PTXI_RT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "heap.h"
#include "printf_fifo.h"
#include "ptxi.h"
#include "ptxi_private.h"
#include "vm.h"

typedef struct rt_bind {
    char *name;
    void (*fn)(void);
    struct rt_bind *next;
} rt_bind;

struct ptxi_kernel {
    ptxi_module *mod;
    vm_func *vf;
    int max_dyn_shared; /* the opt-in attribute */
};

struct ptxi_module {
    ptxi_ctx *ctx;
    ir_module *ir;
    vm_program prog;
    unsigned nkernels;
    ptxi_kernel *kernels;
    char *path;
    bool runtime; /* loaded for the runtime's registered code (ptxi_module_load_twin) */
    ptxi_module *next;
};

/* A __managed__ variable of the runtime's code that a reset of its context
 * keeps, as a GPU does: its address (allocated again there in the new
 * arena, its bytes copied back) until the module is loaded again and takes
 * it (module.c). */
typedef struct rt_kept {
    char *name;
    uint64_t sig, addr, size; /* sig: the module's globals, by name (module.c) */
    uint8_t *bytes;           /* its value, between the two arenas */
    struct rt_kept *next;
} rt_kept;

/* The launch attributes set on a stream (ptxi_stream_set_attr): bit id of `set`
 * says whether value[id] holds one. */
typedef struct {
    uint32_t set;
    unsigned char value[PTXI_STREAM_ATTRS][PTXI_STREAM_ATTR_SIZE];
} rt_stream_attrs;

struct ptxi_stream {
    ptxi_ctx *ctx;
    unsigned flags;
    _Atomic int priority;     /* set at creation, or by the priority attribute */
    _Atomic uint64_t capture; /* the runtime's capture under way (its id), else 0 */
    void *capture_graph;      /* that capture's graph (read while capture is set) */
    ptxi_stream *next;        /* the context's live streams (stream.c) */
    rt_stream_attrs attrs;    /* launch attributes set on it (stream.c) */
};

struct ptxi_event {
    ptxi_ctx *ctx;
    double t; /* seconds, CLOCK_MONOTONIC, when recorded */
    bool recorded;
    unsigned flags;
    ptxi_stream *stream; /* where it was last recorded */
    uint64_t seq;        /* host functions queued before it have a smaller seq */
    ptxi_event *next;
};

/* An entry of a context's host queue (stream.c): a host function, or (call NULL)
 * a stream's wait for an event, done once the entries of wait_ctx queued on
 * wait_stream before wait_seq are. */
typedef struct rt_host_fn {
    ptxi_host_call call;
    void *fn, *user;
    ptxi_stream *stream;
    bool nonblocking; /* the stream's flag, kept: the stream may be destroyed first */
    uint64_t seq;
    bool running;
    ptxi_ctx *wait_ctx;
    ptxi_stream *wait_stream;
    uint64_t wait_seq;
    struct rt_host_fn *next;
} rt_host_fn;

/* Any number of host threads may use a context at once. What they share is
 * guarded as follows: `lock` the error detail, the pending reports, the
 * limits, the heap's creation and the launch statistics; `mod_lock` the module
 * list and the host bindings (held across a whole load, which resolves
 * .extern symbols against that list); atomics the error codes and the flags
 * read on every call. The arena, the heap and the FIFO lock themselves. */
enum { RT_PARAMS_KEPT = 4 }; /* finished launches' parameter buffers a context keeps */

struct ptxi_ctx {
    ptxi_ctx_options opt;
    vm_arena arena;
    vm_runtime vmrt;
    pthread_mutex_t lock, mod_lock;
    _Atomic ptxi_status last, sticky;
    char detail[8192];
    _Atomic(FILE *) out, err;
    _Atomic bool quiet_faults; /* ptxi_ctx_set_fault_reports(ctx, 0) */
    rt_fifo *fifo;
    size_t fifo_size, heap_size, stack_size;
    rt_heap heap;
    uint64_t heap_base;
    _Atomic bool heap_ready; /* the heap exists: its size is fixed from now on */
    _Atomic bool fifo_fixed; /* a kernel that calls printf was launched: the FIFO's size is fixed */
    char *pending;           /* reports (assert lines) printed at the next flush */
    ptxi_module *modules;
    rt_kept *kept; /* under mod_lock */
    rt_bind *binds;
    ptxi_launch_stats stats;
    _Atomic uint64_t launched_ns; /* vm_now() in ns as the last launch on many threads ended */
    /* parameter buffers of finished launches, kept for the next of the same
     * size (launch.c params_take), under lock; size 0: none */
    struct {
        uint64_t addr;
        size_t size;
    } params_kept[RT_PARAMS_KEPT];
    struct ptxi_stream null_stream;
    ptxi_stream *streams; /* live streams and events, destroyed by a reset */
    ptxi_event *events;
    rt_host_fn *host_fns, **host_fns_tail;
    uint64_t host_seq;
    size_t dev_pending_limit;   /* PTXI_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT */
    _Atomic size_t dev_pending; /* device-side launches queued and not yet started (devrt.c) */
    uint64_t dev_error_texts;   /* device copy of the error names and messages (devrt.c), under `lock` */
    _Atomic uint64_t san_heap;  /* sanitize mode: bytes of device-heap blocks live (sanitize.c) */
};

/* The device runtime (devrt.c): the vm_runtime.devrt service, and a grid's run with
 * the child grids its threads launch. */
int rt_devrt_call(void *ctx, vm_devcall *c);
int rt_run_grid(ptxi_ctx *ctx, vm_launch_cfg *cfg, vm_stats *stats, vm_fault *fault);

/* A reset keeps the runtime's __managed__ variables (module.c): rt_keep_managed
 * before the arena goes, rt_kept_place once the new one is at the same base,
 * rt_kept_free otherwise and when the context goes. */
rt_kept *rt_keep_managed(ptxi_ctx *ctx);
void rt_kept_place(ptxi_ctx *ctx, rt_kept *kept);
void rt_kept_free(rt_kept *kept);

/* Destroys the context's streams and events, running pending host functions (stream.c). */
void rt_streams_release(ptxi_ctx *ctx);

/* Records an error as the last error (and as the sticky one when it is). */
ptxi_status rt_set_error(ptxi_ctx *ctx, ptxi_status s);

/* Sanitize mode (sanitize.c; the sanitizer itself and the record of a failed
 * API call: ptxi_private.h): turning it on for a new context. */
void rt_sanitize_ctx(ptxi_ctx *ctx);
void rt_sanitize_ctx_end(ptxi_ctx *ctx); /* before its memory goes: the leak check */
/* Sanitize mode: the arena's checks (at creation and after a reset), and
 * device malloc and free, whose blocks are allocations of their own there
 * (byte-exact bounds, a quarantine, a leak check). */
void rt_sanitize_arena(ptxi_ctx *ctx);
/* memcheck's record of each failed assert (the lines of vm_fault.asserts). */
void rt_sanitize_asserts(const char *lines);
/* A module that launches kernels from the device was loaded: racecheck,
 * synccheck and initcheck do not follow child grids on the GPU, and
 * compute-sanitizer says so once. */
void rt_sanitize_dynpar(ptxi_ctx *ctx);
uint64_t rt_sanitize_malloc(ptxi_ctx *ctx, uint64_t size, uint64_t align);
int rt_sanitize_free(ptxi_ctx *ctx, uint64_t p);
/* Writes pending printf records and reports: the flush points call this. */
void rt_flush(ptxi_ctx *ctx);
void rt_detail(ptxi_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int rt_ensure_heap(ptxi_ctx *ctx);
/* Defaults of the limits as CUDA reports them on an H100 (props.c). */
size_t rt_default_limit(ptxi_limit which);
/* Bytes of device memory: what the host can back, or $PTXI_DEVICE_MEMORY (props.c). */
uint64_t rt_device_memory(void);

/* Every API call on a context with a sticky error returns that error, after
 * writing what the failed kernel printed (and its assertion) as a GPU does. */
#define RT_CHECK_STICKY(ctx)                     \
    do {                                         \
        if (!(ctx)) return PTXI_INVALID_CONTEXT; \
        if ((ctx)->sticky) {                     \
            rt_flush(ctx);                       \
            return (ctx)->sticky;                \
        }                                        \
    } while (0)

#endif
