/* cudart_internal.h — shared state of the libcudart.so.13 replacement: the ptxi
 * contexts it works in (device 0's primary one, or one the driver made current), the
 * registry of what the program's host stubs registered, and the error bookkeeping
 * (per-thread last error, context-wide sticky error). */
#ifndef CR_INTERNAL_H
#define CR_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "ptxi.h"
#include "ptxi_private.h"

#define CR_EXPORT __attribute__((visibility("default")))

/* Makes NAME (e.g. cudaMemcpy_ptds) another name for TARGET: the per-thread default
 * stream variants behave like the legacy ones because ptxi runs work in order. */
#define CR_ALIAS(name, target) extern __typeof__(target) name __attribute__((alias(#target), visibility("default")))

/* ---- ptrmap.c ---- */
typedef struct cr_ptrmap {
    const void **keys;
    void **vals;
    size_t cap, n;
} cr_ptrmap;
void *cr_map_get(const cr_ptrmap *m, const void *key);
void cr_map_put(cr_ptrmap *m, const void *key, void *val);
void cr_map_free(cr_ptrmap *m); /* empties it */

/* ---- state.c ---- */
/* The context the calling thread works in: the one a driver call made current
 * (cuCtxCreate, cuCtxPushCurrent, cuCtxSetCurrent: the top of libptxi's stack of
 * the thread), else the primary context (NULL before it exists). */
ptxi_ctx *cr_ctx(void);

/* What the runtime keeps of each context it works in: the sticky error and the
 * program's modules, loaded into the context on its first use. */
typedef struct cr_space {
    ptxi_ctx *ctx;
    _Atomic cudaError_t sticky, pending;
    _Atomic unsigned long loaded; /* cr_registrations() when its modules were last loaded */
    /* under register.c's lock: a cr_fatbin's module, a cr_func's kernel, a cr_var's address */
    cr_ptrmap mods, kernels, addrs;
    struct cr_space *next;
} cr_space;
extern cr_space cr_primary;
/* The space of cr_ctx() (made on the context's first use); NULL when that context
 * was destroyed. */
cr_space *cr_space_here(void);

/* Creates the primary context and loads every registered module into it on first
 * use, and into the calling thread's context when it is another. Returns
 * cudaSuccess, the context's sticky error, or the reason initialisation failed
 * (cudaErrorDeviceUninitialized: the current context was destroyed). */
cudaError_t cr_init(void);
/* The same without bringing a launch's deferred fault to light (for launches). */
cudaError_t cr_init_ex(bool promote);
/* A fatbinary registered after the context exists (a shared object opened later, or a
 * static constructor that used the runtime first) is loaded at once. */
void cr_late_registration(void);
/* Records e as the calling thread's last error (unless success) and returns it. */
cudaError_t cr_ret(cudaError_t e);
/* Maps a ptxi status, makes a sticky one the context's sticky error, records it. */
cudaError_t cr_st(ptxi_status s);
cudaError_t cr_map(ptxi_status s);
/* A fault raised by a launch is reported by the next call that waits on the device,
 * as on a GPU where the launch returns before the kernel has run. */
void cr_defer_fault(ptxi_status s);
cudaError_t cr_sticky(void);
/* Prints "ptxi: <what>" on stderr, once per distinct text. */
void cr_warn_once(const char *what);

/* The API call running on this thread, for sanitize mode's records: set by
 * CR_ENTER in an API function, by CR_NAME in one that enters through a helper. */
extern _Thread_local const char *cr_api;
#define CR_NAME() (cr_api = __func__)

#define CR_ENTER()                                               \
    do {                                                         \
        if (__func__[0] == 'c' && __func__[1] == 'u') CR_NAME(); \
        cudaError_t e_ = cr_init();                              \
        if (e_ != cudaSuccess) return cr_ret(e_);                \
    } while (0)

/* ---- texture.c ---- */
/* A CUDA array as pitched device memory (rows of width × element size bytes). */
bool cr_array_pitched(cudaArray_const_t a, struct cudaPitchedPtr *p, size_t *esize);

/* ---- register.c ---- */
typedef struct cr_fatbin cr_fatbin;

typedef struct cr_func {
    const void *host_fun; /* the host stub's address: the key of <<<>>> */
    const char *name;     /* mangled .entry name */
    cr_fatbin *fb;
    int max_dyn_shared; /* cudaFuncAttributeMaxDynamicSharedMemorySize; -1: not set */
} cr_func;

typedef struct cr_var {
    const void *host_var; /* the host shadow (for managed: the pointer slot) */
    const char *name;
    cr_fatbin *fb;
    size_t size;
    bool constant, managed;
} cr_var;

/* Counts registrations: a space whose `loaded` is behind has fatbinaries to load. */
unsigned long cr_registrations(void);
/* Loads the PTX of every registered fatbinary not yet loaded into sp's context (by
 * cr_init, again after cudaDeviceReset, and for late registrations), and finds the
 * kernels and variables there. The primary's also sets the __managed__ variables'
 * host pointers. */
void cr_load_modules(cr_space *sp);
void cr_forget_modules(cr_space *sp); /* its context freed them (reset, destroyed) */
cr_func *cr_find_func(const void *host_fun);
cr_var *cr_find_var(const void *host_var);
/* The kernel behind a host stub, or an error code (cudaErrorInvalidDeviceFunction,
 * cudaErrorNoKernelImageForDevice...). */
cudaError_t cr_kernel_of(const void *host_fun, ptxi_kernel **out);
cudaError_t cr_kernel_of_handle(cudaKernel_t h, ptxi_kernel **out);
/* A variable's module and address in the calling thread's context (NULL, 0: none). */
ptxi_module *cr_var_module(const cr_var *v);
ptxi_dptr cr_var_addr(const cr_var *v);

/* ---- fatbin.c ---- */
/* Finds the best PTX for sm_90 in the fatbinary that a __fatBinC_Wrapper_t points to.
 * On success *ptx is malloc'd NUL-terminated text and *arch its compute_XX. On failure
 * returns a cudaError_t and writes an explanation into msg. */
cudaError_t cr_fatbin_ptx(const void *wrapper, char **ptx, size_t *len, unsigned *arch, char *msg, size_t msg_size);
int cr_fatbin_image_ptx(const void *image, char **ptx, size_t *len, unsigned *arch, char *msg, size_t msg_size);

/* ---- ptxlink.c ---- */
/* Joins the PTX of n translation units of relocatable device code into one module's
 * text (malloc'd). */
char *cr_ptx_link(char *const *units, size_t n, size_t *len);

/* ---- stream.c ---- */
ptxi_stream *cr_stream(cudaStream_t s);
bool cr_stream_valid(cudaStream_t s);
/* Runs host callbacks queued on `stream` (all streams for the default stream) before
 * sequence number `upto` (~0ul: all): at the points where the host waits. */
void cr_run_callbacks(cudaStream_t stream, unsigned long upto);

/* Work issued on `stream` (0: the legacy default stream): the handle must be valid, and
 * host callbacks queued before it run first, since on a GPU the work waits for them. */
#define CR_STREAM_WORK(stream)                                                       \
    do {                                                                             \
        if (!cr_stream_valid(stream)) return cr_ret(cudaErrorInvalidResourceHandle); \
        if (cr_capturing(stream)) return cr_capture_refuse(stream);                  \
        cr_run_callbacks(stream, ~0ul);                                              \
    } while (0)

/* ---- graph.c: stream capture records work instead of running it ---- */
bool cr_capturing(cudaStream_t s);
enum cudaStreamCaptureStatus cr_capture_status(cudaStream_t s);
/* Work a capture cannot record: the capture is invalidated, the call refused. */
cudaError_t cr_capture_refuse(cudaStream_t s);
cudaError_t cr_capture_copy3d(const struct cudaMemcpy3DParms *p, cudaStream_t s);
cudaError_t cr_capture_set2d(void *dst, size_t pitch, int value, size_t width, size_t height, cudaStream_t s);
cudaError_t cr_capture_kernel(ptxi_kernel *k, dim3 g, dim3 b, void **args, size_t shared, cudaStream_t s);
cudaError_t cr_capture_copy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t s);
cudaError_t cr_capture_set(void *dst, int value, size_t count, cudaStream_t s);
cudaError_t cr_capture_host(cudaHostFn_t fn, void *user, cudaStream_t s);
cudaError_t cr_capture_alloc(void **ptr, size_t size, cudaStream_t s);
cudaError_t cr_capture_free(void *ptr, cudaStream_t s);
cudaError_t cr_capture_record(cudaEvent_t e, cudaStream_t s);
/* A wait on an event recorded in a capture joins the stream to it: 0 (or an error);
 * -1 when the wait is an ordinary one. */
int cr_capture_wait(cudaStream_t s, cudaEvent_t e);
/* Frees graph-allocated memory: 0 (or an error), -1 when p is not graph memory. */
int cr_graph_mem_free(const void *p);

/* ---- launch.c ---- */
cudaError_t cr_launch(ptxi_kernel *k, dim3 g, dim3 b, void **args, size_t shared, cudaStream_t s);

/* ---- debug_hook.c: `ptxi debug -- PROGRAM` (calls do nothing unless cr_debugging) ---- */
extern bool cr_debugging;
void cr_debug_attach(ptxi_ctx *ctx);
void cr_debug_module(ptxi_module *m, const char *ptx, size_t len);
void cr_debug_loaded(void);
void cr_debug_launch(ptxi_kernel *k, dim3 g, dim3 b);
void cr_debug_launch_end(void);

/* ---- device.c ---- */
void cr_fill_props(struct cudaDeviceProp *p);

#endif
