/* ptxi.h — the public C API of ptxi, a PTX interpreter and runtime.
 * Shaped like the CUDA driver API: a context owns device memory, modules and
 * streams; a module is PTX text; a kernel is an .entry of a module.
 * Every call returns a ptxi_status; handles are created and destroyed in pairs.
 * Threads: any number of host threads may call any function at once, on the
 * same context or not, except that nothing else may use a context while it is
 * destroyed or reset, a module while it is unloaded, or a stream while it is
 * destroyed. The last error, the error detail and the launch statistics are
 * the context's (the latest of any thread's). */
#ifndef PTXI_H
#define PTXI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Errors. X(ENUM, value, sticky, message). Sticky errors persist in the context
 * until ptxi_ctx_reset(), as CUDA's do; every later call returns them. A call
 * stack that overflows is an ILLEGAL_ADDRESS, as on an H100 (STACK_OVERFLOW is no
 * longer returned; the value stays reserved). */
#define PTXI_ERROR_LIST(X)                                                                 \
    X(SUCCESS, 0, 0, "no error")                                                           \
    X(INVALID_VALUE, 1, 0, "invalid argument")                                             \
    X(OUT_OF_MEMORY, 2, 0, "out of memory")                                                \
    X(NOT_INITIALIZED, 3, 0, "context not initialized")                                    \
    X(INVALID_CONTEXT, 4, 0, "invalid context")                                            \
    X(NOT_READY, 5, 0, "operation not yet complete")                                       \
    X(INVALID_PTX, 6, 0, "the PTX failed to parse or validate")                            \
    X(UNSUPPORTED_PTX, 7, 0, "the PTX uses an unsupported feature")                        \
    X(NOT_FOUND, 8, 0, "named symbol not found")                                           \
    X(INVALID_HANDLE, 9, 0, "invalid resource handle")                                     \
    X(INVALID_CONFIGURATION, 10, 0, "invalid launch configuration")                        \
    X(LAUNCH_OUT_OF_RESOURCES, 11, 0, "too many resources requested for launch")           \
    X(INVALID_PARAMETERS, 12, 0, "kernel parameters do not match the kernel's signature")  \
    X(UNRESOLVED_EXTERN, 13, 0, "an extern function or variable is not defined")           \
    X(NOT_SUPPORTED, 14, 0, "operation not supported")                                     \
    X(NOT_PERMITTED, 15, 0, "operation not permitted")                                     \
    X(IO, 16, 0, "file could not be read or written")                                      \
    X(ILLEGAL_ADDRESS, 100, 1, "an illegal memory access was encountered")                 \
    X(MISALIGNED_ADDRESS, 101, 1, "misaligned address")                                    \
    X(ASSERT, 102, 1, "device-side assert triggered")                                      \
    X(LAUNCH_FAILED, 103, 1, "unspecified launch failure")                                 \
    X(LAUNCH_TIMEOUT, 104, 1, "the launch timed out and was terminated")                   \
    X(ILLEGAL_INSTRUCTION, 105, 1, "an illegal instruction was encountered")               \
    X(STACK_OVERFLOW, 106, 1, "the call stack overflowed")                                 \
    X(BARRIER_DEADLOCK, 107, 1, "threads can never reach a barrier they are waited on at") \
    X(INVALID_ADDRESS_SPACE, 108, 1, "an operation was applied to the wrong address space")

typedef enum ptxi_status {
#define PTXI_X_(e, v, s, m) PTXI_##e = v,
    PTXI_ERROR_LIST(PTXI_X_)
#undef PTXI_X_
} ptxi_status;

const char *ptxi_error_name(ptxi_status s);   /* "PTXI_ILLEGAL_ADDRESS" */
const char *ptxi_error_string(ptxi_status s); /* "an illegal memory access was encountered" */
int ptxi_error_is_sticky(ptxi_status s);
/* Prints "ptxi: <what>" on stderr, once per distinct text in the process (after
 * flushing stdout): the CUDA libraries' notes, such as an entry point not implemented. */
void ptxi_warn_once(const char *what);

typedef struct ptxi_ctx ptxi_ctx;
typedef struct ptxi_module ptxi_module;
typedef struct ptxi_kernel ptxi_kernel;
typedef struct ptxi_stream ptxi_stream;
typedef uint64_t ptxi_dptr; /* a device address (0 = NULL) */

typedef struct ptxi_dim3 {
    uint32_t x, y, z;
} ptxi_dim3;

/* Context options; zero-initialised means defaults. */
typedef struct ptxi_ctx_options {
    unsigned threads;      /* host threads running CTAs; 0 = $PTXI_THREADS if set, else one per core */
    double timeout_s;      /* watchdog per launch; 0 = none */
    size_t global_reserve; /* bytes of address space for device memory (also a cap on the device's
                                  memory); 0 = default (twice the device's memory, at least 64 GiB) */
    int deterministic;     /* run CTAs and warps in a fixed order (implies threads = 1) */
    int no_contract;       /* run mul/add/sub as written; by default a mul used only by add/sub of
                                  its basic block is contracted into fma as ptxas does ($PTXI_CONTRACT=0
                                  sets this for every context) */
} ptxi_ctx_options;

ptxi_status ptxi_ctx_create(ptxi_ctx **out, const ptxi_ctx_options *opt);
ptxi_status ptxi_ctx_destroy(ptxi_ctx *ctx); /* flushes printf output, frees everything */
/* Frees modules, memory and streams, clears a sticky error; the context stays usable. */
ptxi_status ptxi_ctx_reset(ptxi_ctx *ctx);
ptxi_status ptxi_ctx_synchronize(ptxi_ctx *ctx); /* waits for all streams; a flush point */
/* Last error of any call, then cleared (unless sticky); peek leaves it. */
ptxi_status ptxi_ctx_get_last_error(ptxi_ctx *ctx);
ptxi_status ptxi_ctx_peek_last_error(ptxi_ctx *ctx);
/* Text of the last failure: parse diagnostics, or a fault report naming kernel,
 * PTX line, .cu line, block, thread and address. A copy owned by the calling
 * thread, valid until its next call of this function. */
const char *ptxi_ctx_error_detail(ptxi_ctx *ctx);
/* Where printf output and fault reports go (default stdout / stderr). */
void ptxi_ctx_set_output(ptxi_ctx *ctx, FILE *printf_out, FILE *report_out);
/* Whether faults other than a device assert are reported on report_out
 * (default 1). The assert message is always written, as a GPU writes it;
 * ptxi_ctx_error_detail() has the report either way. */
void ptxi_ctx_set_fault_reports(ptxi_ctx *ctx, int on);

/* Limits, as cudaLimit. */
typedef enum ptxi_limit {
    PTXI_LIMIT_STACK_SIZE,       /* bytes of local memory per thread */
    PTXI_LIMIT_PRINTF_FIFO_SIZE, /* bytes of the printf FIFO; settable until a kernel that calls printf is launched */
    PTXI_LIMIT_MALLOC_HEAP_SIZE, /* bytes of the device heap; settable until the first launch */
    PTXI_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, /* device-side launches queued and not yet started */
} ptxi_limit;
ptxi_status ptxi_ctx_set_limit(ptxi_ctx *ctx, ptxi_limit which, size_t value);
ptxi_status ptxi_ctx_get_limit(ptxi_ctx *ctx, ptxi_limit which, size_t *value);

/* A plausible sm_90 device. total_global_mem is what this host can back: its
 * physical memory or its cgroup's memory limit, whichever is smaller, unless
 * $PTXI_DEVICE_MEMORY gives a byte count (digits, optionally K, M, G or T). */
typedef struct ptxi_device_props {
    char name[256];
    int major, minor;
    size_t total_global_mem, shared_mem_per_block, shared_mem_per_block_optin;
    size_t shared_mem_per_multiprocessor, total_const_mem;
    int regs_per_block, warp_size, max_threads_per_block;
    int max_threads_dim[3], max_grid_size[3];
    int multiprocessor_count, max_threads_per_multiprocessor, max_blocks_per_multiprocessor;
    int clock_rate_khz, memory_clock_rate_khz, memory_bus_width, l2_cache_size;
} ptxi_device_props;
ptxi_status ptxi_device_get_props(ptxi_device_props *out);

/* Modules. The text is copied; `name` is used in diagnostics. Loading is a
 * printf flush point. On INVALID_PTX, ptxi_ctx_error_detail() holds the diagnostics. */
ptxi_status ptxi_module_load_file(ptxi_ctx *ctx, const char *path, ptxi_module **out);
ptxi_status ptxi_module_load_data(ptxi_ctx *ctx, const char *text, size_t len, const char *name, ptxi_module **out);
ptxi_status ptxi_module_unload(ptxi_module *m);
ptxi_status ptxi_module_get_kernel(ptxi_module *m, const char *name, ptxi_kernel **out);
unsigned ptxi_module_kernel_count(ptxi_module *m);
ptxi_kernel *ptxi_module_kernel_at(ptxi_module *m, unsigned i);
/* Address and size of a module-scope variable (.global, .const, managed). */
ptxi_status ptxi_module_get_global(ptxi_module *m, const char *name, ptxi_dptr *addr, size_t *bytes);

/* Host implementations of .extern .func declarations, bound by name before the
 * module that declares them is loaded. The signature is taken from the PTX
 * declaration; params/returns map to C types by size (.b32 -> uint32_t, .f32 -> float...). */
ptxi_status ptxi_ctx_bind_extern(ptxi_ctx *ctx, const char *name, void (*fn)(void));

/* Kernels. */
const char *ptxi_kernel_name(ptxi_kernel *k);
ptxi_ctx *ptxi_kernel_ctx(ptxi_kernel *k); /* the context its module was loaded into */
unsigned ptxi_kernel_param_count(ptxi_kernel *k);
/* Size, alignment and offset in the parameter buffer of parameter i; is_ptr set for .ptr params. */
ptxi_status ptxi_kernel_param_info(ptxi_kernel *k, unsigned i, size_t *size, size_t *align, size_t *offset);
typedef enum ptxi_kernel_attr {
    PTXI_KATTR_MAX_THREADS_PER_BLOCK,    /* get: from .maxntid/.reqntid, else 1024 */
    PTXI_KATTR_STATIC_SHARED_BYTES,      /* get */
    PTXI_KATTR_LOCAL_BYTES,              /* get: per-thread local (stack frame) bytes */
    PTXI_KATTR_CONST_BYTES,              /* get */
    PTXI_KATTR_NUM_REGS,                 /* get */
    PTXI_KATTR_MAX_DYNAMIC_SHARED_BYTES, /* get/set: the opt-in for > 48 KiB */
    PTXI_KATTR_PTX_VERSION,              /* get: e.g. 90 */
    PTXI_KATTR_BINARY_VERSION,           /* get: target SM, e.g. 90 */
} ptxi_kernel_attr;
ptxi_status ptxi_kernel_get_attr(ptxi_kernel *k, ptxi_kernel_attr a, int *value);
ptxi_status ptxi_kernel_set_attr(ptxi_kernel *k, ptxi_kernel_attr a, int value);
/* Occupancy on the presented device: blocks of `block_size` threads and `dyn_shared`
 * bytes of dynamic shared memory that fit on one SM (0: none, or a block larger than
 * the kernel allows); the dynamic shared memory each of `num_blocks` blocks on one SM
 * can have. The caller checks dyn_shared against the kernel's opt-in. */
int ptxi_kernel_max_active_blocks(ptxi_kernel *k, int block_size, size_t dyn_shared);
size_t ptxi_kernel_available_dyn_shared(ptxi_kernel *k, int num_blocks);

/* Device memory. Device pointers are host addresses inside ptxi's arena;
 * managed memory may be dereferenced by the host directly. All contexts are
 * contexts of one device and see each other's memory (unified addressing):
 * the functions below, and kernels, take device pointers of any live context;
 * a free, a copy or a memset acts on the memory of the context it belongs to. */
ptxi_status ptxi_mem_alloc(ptxi_ctx *ctx, size_t bytes, ptxi_dptr *out);
ptxi_status ptxi_mem_alloc_managed(ptxi_ctx *ctx, size_t bytes, ptxi_dptr *out);
ptxi_status ptxi_mem_free(ptxi_ctx *ctx, ptxi_dptr p);
/* Lets kernels access [p, p+bytes) of the caller's own memory as global memory
 * (cudaHostRegister); INVALID_VALUE when it overlaps a registered range. */
ptxi_status ptxi_mem_register_host(ptxi_ctx *ctx, void *p, size_t bytes);
ptxi_status ptxi_mem_unregister_host(ptxi_ctx *ctx, void *p);
/* Base and size of the allocation containing p (NOT_FOUND when none). */
ptxi_status ptxi_mem_get_range(ptxi_ctx *ctx, ptxi_dptr p, ptxi_dptr *base, size_t *bytes);
/* The live context whose memory holds p (ctx when it is its own), or NULL. */
ptxi_ctx *ptxi_mem_get_context(ptxi_ctx *ctx, ptxi_dptr p);
/* Whether p lies in a module-scope variable declared .managed (__managed__). */
int ptxi_mem_is_managed_var(ptxi_ctx *ctx, ptxi_dptr p);
/* total: the device's memory (ptxi_device_props.total_global_mem; at most the
 * context's global_reserve, or half the address space it could reserve under
 * ulimit -v); free: total less what is allocated. An allocation that does not
 * fit in free returns OUT_OF_MEMORY (not sticky). */
ptxi_status ptxi_mem_get_info(ptxi_ctx *ctx, size_t *free_bytes, size_t *total_bytes);
/* Blocking copies (flush points); they wait for pending launches first. */
ptxi_status ptxi_memcpy_htod(ptxi_ctx *ctx, ptxi_dptr dst, const void *src, size_t n);
ptxi_status ptxi_memcpy_dtoh(ptxi_ctx *ctx, void *dst, ptxi_dptr src, size_t n);
ptxi_status ptxi_memcpy_dtod(ptxi_ctx *ctx, ptxi_dptr dst, ptxi_dptr src, size_t n);
ptxi_status ptxi_memset_d8(ptxi_ctx *ctx, ptxi_dptr dst, uint8_t value, size_t n);
ptxi_status ptxi_memset_d32(ptxi_ctx *ctx, ptxi_dptr dst, uint32_t value, size_t count);
/* The caller wrote [p, p+n) of device memory itself (a copy or a set of its
 * own): initcheck (`ptxi sanitize --tool initcheck`) counts it as written. */
void ptxi_mem_wrote(ptxi_ctx *ctx, ptxi_dptr p, size_t n);
/* The host reads [p, p+n) of device memory (a copy's source): initcheck
 * records the bytes nothing wrote. */
void ptxi_mem_host_read(ptxi_ctx *ctx, ptxi_dptr p, size_t n);
/* Copies to/from a module-scope variable by name, at a byte offset. */
ptxi_status ptxi_memcpy_to_symbol(ptxi_module *m, const char *name, size_t offset, const void *src, size_t n);
ptxi_status ptxi_memcpy_from_symbol(ptxi_module *m, const char *name, size_t offset, void *dst, size_t n);

/* Texture and surface objects (cudaTextureObject_t / cudaSurfaceObject_t): a
 * handle is a 64-bit value kernels receive as a parameter. The element data is
 * device memory the caller owns (a CUDA array is plain device memory with a
 * row pitch and a slice pitch). */
typedef enum { PTXI_TEX_UNSIGNED, PTXI_TEX_SIGNED, PTXI_TEX_FLOAT } ptxi_tex_format;
typedef enum { PTXI_TEX_WRAP, PTXI_TEX_CLAMP, PTXI_TEX_MIRROR, PTXI_TEX_BORDER } ptxi_tex_address;
typedef struct ptxi_tex_desc {
    int surface;                   /* a surface object, else a texture object */
    ptxi_dptr base;                /* element (0, 0, 0) */
    unsigned dims;                 /* 1, 2 or 3; a cubemap is 2 with 6 faces per layer */
    unsigned width, height, depth; /* elements; 0 for an absent dimension */
    unsigned layers;               /* layered: the number of layers (cubemap: of cubes), else 0 */
    int layered, cubemap;
    int linear;            /* 1D linear memory (tex1Dfetch): fetches outside read 0 */
    size_t pitch, slice;   /* bytes between rows, and between 2D slices / layers / faces */
    unsigned channels;     /* 1, 2 or 4 */
    unsigned channel_bits; /* 8, 16 or 32 (16-bit float: half) */
    ptxi_tex_format format;
    int filter_linear, read_normalized, normalized_coords;
    ptxi_tex_address address[3];
    float border[4];
} ptxi_tex_desc;
/* Fills the layout fields of t (base, dims, sizes, layers, pitches) for a CUDA
 * array of w × h × d elements at base (h, d 0 when absent), rows `pitch` bytes
 * apart and 2D slices `slice` bytes apart: a layered array's d is its number of
 * layers, a cubemap's d its faces (6 a cube). */
void ptxi_tex_layout_array(ptxi_tex_desc *t, ptxi_dptr base, size_t w, size_t h, size_t d, size_t pitch, size_t slice,
                           int layered, int cubemap);
ptxi_status ptxi_tex_create(ptxi_ctx *ctx, const ptxi_tex_desc *d, uint64_t *handle);
ptxi_status ptxi_tex_destroy(ptxi_ctx *ctx, uint64_t handle);

/* Streams: work on one stream runs in order. NULL = the default stream. A
 * stream belongs to its context, which destroys it on reset. */
ptxi_status ptxi_stream_create(ptxi_ctx *ctx, ptxi_stream **out);
/* With the caller's flags (kept, not interpreted) and a priority clamped to the
 * device's range [-5, 0]. */
ptxi_status ptxi_stream_create_ex(ptxi_ctx *ctx, unsigned flags, int priority, ptxi_stream **out);
/* Runs the host functions still queued on s first. INVALID_HANDLE for a stream that is not live. */
ptxi_status ptxi_stream_destroy(ptxi_stream *s);
/* Waits for s's work and runs its queued host functions. */
ptxi_status ptxi_stream_synchronize(ptxi_stream *s);
ptxi_status ptxi_stream_query(ptxi_stream *s); /* SUCCESS or NOT_READY */
/* Whether s is a live stream (NULL, the default stream, is); its context, flags, priority. */
int ptxi_stream_live(ptxi_stream *s);
ptxi_ctx *ptxi_stream_ctx(ptxi_stream *s);
unsigned ptxi_stream_flags(ptxi_stream *s);
int ptxi_stream_priority(ptxi_stream *s);
/* Stream capture is the runtime's (cudaStreamBeginCapture): it marks the stream with
 * the capture's id (0: none) and graph, so the driver's capture queries see it. */
void ptxi_stream_set_capture(ptxi_stream *s, uint64_t id, void *graph);
uint64_t ptxi_stream_capture(ptxi_stream *s, void **graph);
/* The launch attributes a stream carries (cuStreamSetAttribute,
 * cudaStreamSetAttribute; ids and values as CUlaunchAttributeID and
 * CUlaunchAttributeValue, whose 64 bytes cudaLaunchAttributeValue shares): the
 * access policy window (1: its hit ratio within [0, 1], at most the device's
 * largest window), synchronization policy (3), memory synchronization domain map
 * (9) and domain (10) are kept and read back (zeros until set, the policy -1);
 * the priority (8) is the stream's own (ptxi_stream_priority), set within the
 * device's range. ptxi acts on none of them. s NULL
 * is ctx's default stream. INVALID_VALUE for another id or a bad value,
 * INVALID_HANDLE for a stream that is not live. */
#define PTXI_STREAM_ATTRS 16
#define PTXI_STREAM_ATTR_SIZE 64
ptxi_status ptxi_stream_set_attr(ptxi_ctx *ctx, ptxi_stream *s, unsigned id, const void *val);
ptxi_status ptxi_stream_get_attr(ptxi_ctx *ctx, ptxi_stream *s, unsigned id, void *val);

/* Host functions (cudaLaunchHostFunc, cuLaunchHostFunc, stream callbacks) run on
 * a worker thread of the process, one at a time, as soon as the work queued
 * before them on their stream (host functions and event waits; launches are done
 * when issued) is done: `call(fn, user, s, status)` with the context's sticky
 * status (each library passes its own trampoline for its callback signature). */
typedef void (*ptxi_host_call)(void *fn, void *user, ptxi_stream *s, ptxi_status status);
ptxi_status ptxi_stream_add_host_fn(ptxi_ctx *ctx, ptxi_stream *s, ptxi_host_call call, void *fn, void *user);
/* Waits until the host functions of s (of every stream when s is NULL) queued
 * before `upto` (UINT64_MAX: all) are done; work issued on s calls this first.
 * Called from a host function, it returns at once. */
void ptxi_stream_run_host_fns(ptxi_ctx *ctx, ptxi_stream *s, uint64_t upto);
/* Whether nothing is left on s (on any stream when s is NULL). */
int ptxi_stream_idle(ptxi_ctx *ctx, ptxi_stream *s);

/* Memory pools of the stream-ordered allocator (one device: the default pool and
 * the device's current pool are process-wide). A library allocates with its own
 * call and tracks the allocation in a pool; freeing untracks it. Attributes are
 * CUDA's cudaMemPoolAttr numbers (value: int for 1..3, uint64_t for 4..8). */
typedef struct ptxi_mempool ptxi_mempool;
ptxi_mempool *ptxi_mempool_default(void);
ptxi_mempool *ptxi_mempool_current(void);
ptxi_status ptxi_mempool_set_current(ptxi_mempool *p); /* INVALID_VALUE for no pool */
int ptxi_mempool_valid(ptxi_mempool *p);
ptxi_status ptxi_mempool_create(ptxi_mempool **out);
ptxi_status ptxi_mempool_destroy(ptxi_mempool *p); /* not the default pool */
ptxi_status ptxi_mempool_attribute(ptxi_mempool *p, int attr, void *value, int set);
ptxi_status ptxi_mempool_trim(ptxi_mempool *p, size_t keep);
ptxi_status ptxi_mempool_track(ptxi_mempool *p, ptxi_ctx *ctx, ptxi_dptr ptr, size_t size);
void ptxi_mempool_untrack(ptxi_dptr ptr);    /* no-op for memory of no pool */
void ptxi_mempool_forget_ctx(ptxi_ctx *ctx); /* ctx's memory is gone */
/* Reads or sets (flags: 3 = read-write) access to p from device `id` (device = 0: the host).
 * Setting anything but read-write from device 0 is NOT_PERMITTED (CUDA: invalid device). */
ptxi_status ptxi_mempool_access(ptxi_mempool *p, int device, int id, int *flags, int set);

/* Events: the time the work before them on a stream was done. Flags as CUDA's
 * (bit 1: timing disabled). An event belongs to its context. */
typedef struct ptxi_event ptxi_event;
enum { PTXI_EVENT_DISABLE_TIMING = 2 };
ptxi_status ptxi_event_create(ptxi_ctx *ctx, unsigned flags, ptxi_event **out);
ptxi_status ptxi_event_destroy(ptxi_event *e);
ptxi_status ptxi_event_record(ptxi_event *e, ptxi_stream *s);
/* Waits for the host functions queued before the event; SUCCESS. */
ptxi_status ptxi_event_synchronize(ptxi_event *e);
/* NOT_READY while host functions queued before the event are left, else SUCCESS. */
ptxi_status ptxi_event_query(ptxi_event *e);
/* Work queued on s (of ctx) from now on waits for e's last record (cudaStreamWaitEvent). */
ptxi_status ptxi_stream_wait_event(ptxi_ctx *ctx, ptxi_stream *s, ptxi_event *e);
/* Milliseconds from a to b; INVALID_HANDLE when either is unrecorded or has timing disabled. */
ptxi_status ptxi_event_elapsed(float *ms, ptxi_event *a, ptxi_event *b);
int ptxi_event_live(ptxi_event *e);

/* Launch. `args` is like cuLaunchKernel's kernelParams: args[i] points at the
 * value of parameter i, whose size comes from the PTX. Validation errors
 * (INVALID_CONFIGURATION, LAUNCH_OUT_OF_RESOURCES, INVALID_PARAMETERS) are
 * returned at once; faults during execution (ILLEGAL_ADDRESS, ASSERT, ...) are
 * returned by the launch or the next synchronizing call, and are sticky. */
ptxi_status ptxi_launch(ptxi_kernel *k, ptxi_dim3 grid, ptxi_dim3 block, size_t dyn_shared, ptxi_stream *s,
                        void **args);
/* Launch flags. COOPERATIVE: every CTA of the grid is resident at once and the
 * grid-wide barrier of cooperative groups (grid.sync()) works, as
 * cuLaunchCooperativeKernel. */
enum { PTXI_LAUNCH_COOPERATIVE = 1 };
ptxi_status ptxi_launch_ex(ptxi_kernel *k, ptxi_dim3 grid, ptxi_dim3 block, size_t dyn_shared, ptxi_stream *s,
                           void **args, unsigned flags);
/* A launch in thread-block clusters of the given shape (at most 8 CTAs; the
 * grid a whole number of them), as cudaLaunchKernelEx with a cluster
 * dimension; a kernel that declares .reqnctapercluster must be given that shape. */
ptxi_status ptxi_launch_cluster(ptxi_kernel *k, ptxi_dim3 grid, ptxi_dim3 block, ptxi_dim3 cluster, size_t dyn_shared,
                                ptxi_stream *s, void **args, unsigned flags);
/* The same with an already packed parameter buffer of exactly the kernel's parameter size. */
ptxi_status ptxi_launch_packed(ptxi_kernel *k, ptxi_dim3 grid, ptxi_dim3 block, size_t dyn_shared, ptxi_stream *s,
                               const void *params, size_t params_size);

/* ---- The process-wide device: one primary context for every library in the
 * process (libcudart.so.13 and libcuda.so.1 both map their handles onto it). ---- */

/* The primary context, created on first use with options from the environment:
 * PTXI_THREADS, PTXI_DETERMINISTIC, PTXI_TIMEOUT (seconds), PTXI_QUIET (no fault
 * reports on stderr). Owned by the process; never destroyed. */
ptxi_status ptxi_primary_ctx(ptxi_ctx **out);
/* The primary context if it exists, else NULL (creates nothing). */
ptxi_ctx *ptxi_primary_peek(void);
/* Resets the primary context (ptxi_ctx_reset: memory, modules, streams, events,
 * sticky error), then calls every hook registered with ptxi_primary_on_reset. */
ptxi_status ptxi_primary_reset(void);
ptxi_status ptxi_primary_on_reset(void (*hook)(void *), void *arg);

/* A device attribute, numbered as CUdevice_attribute and cudaDeviceAttr (they
 * agree): an H100 SXM5's answers, or an A100's compute capability 8.0 when
 * PTXI_DEVICE_SM=80 (Triton then emits mma.sync instead of wgmma).
 * INVALID_VALUE for an attribute the device does not have. */
ptxi_status ptxi_device_attribute(int attr, int *value);
/* "NVIDIA H100 80GB HBM3", or the A100's name under PTXI_DEVICE_SM=80. */
const char *ptxi_device_name(void);

/* Counters of the last launch on the context. */
typedef struct ptxi_launch_stats {
    uint64_t thread_insns; /* instructions executed, summed over threads */
    uint64_t warp_insns;   /* instructions executed, counted once per warp */
    /* Of warp_insns, those run as compiled code (the template JIT: on by
     * default on AVX-512 hosts, off with PTXI_JIT=0 and under a debugger or
     * sanitizer); the rest ran in the interpreter. */
    uint64_t jit_warp_insns;
    double seconds;        /* wall time of the launch */
    uint64_t pmevents[16]; /* pmevent counters */
    /* How the launch filled the host threads that ran it: their number, the
     * last one's start after the launch began, the seconds they ran summed
     * (busy_seconds / (host_threads * seconds) is the share of the launch
     * they were busy), and the first one's end to the last one's. */
    unsigned host_threads;
    double late_start_seconds, busy_seconds, tail_seconds;
} ptxi_launch_stats;
ptxi_status ptxi_ctx_last_launch_stats(ptxi_ctx *ctx, ptxi_launch_stats *out);

#ifdef __cplusplus
}
#endif
#endif
