/* driver.h — libcuda.so.1 on ptxi: the CUDA driver API as a mapping onto libptxi's
 * process-wide device. Handles ARE libptxi objects (README.md says why):
 * CUcontext = ptxi_ctx, CUstream = ptxi_stream, CUevent = ptxi_event,
 * CUmodule = CUlibrary = ptxi_module, CUfunction = CUkernel = ptxi_kernel,
 * CUdeviceptr = the device address. */
#ifndef CD_DRIVER_H
#define CD_DRIVER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

#include "entry_points.h"
#include "ptxi.h"
#include "ptxi_private.h"

#define CD_EXPORT __attribute__((visibility("default")))
/* Another exported name for the same function (a _ptds/_ptsz form, or a legacy
 * name whose ABI did not change). `name` is taken literally, not through cuda.h's
 * renaming macros (cuCtxDestroy would otherwise become cuCtxDestroy_v2). */
#define CD_ALIAS(name, target) \
    extern __typeof__(target) cd_alias_##name __asm__(#name) __attribute__((alias(#target), visibility("default")))

#define CTX(c) ((ptxi_ctx *)(c))
#define STREAM(s) ((ptxi_stream *)(s))
#define KERNEL(f) ((ptxi_kernel *)(f))
#define MODULE(m) ((ptxi_module *)(m))

/* ---- init.c ---- */
extern _Atomic bool cd_initialized;
/* cuInit was called, or the runtime has set up the device (it initialises the
 * driver for the program, as NVIDIA's runtime does). */
static inline bool cd_ready(void) { return cd_initialized || ptxi_primary_peek() != NULL; }
CUresult cd_map(ptxi_status s);

/* ---- context.c ---- */
/* The calling thread's current context, or CUDA_ERROR_NOT_INITIALIZED / INVALID_CONTEXT;
 * a context with a sticky fault answers that fault. */
CUresult cd_current(ptxi_ctx **out);
bool cd_ctx_valid(ptxi_ctx *c);

/* Every entry that works on the current context starts with this. */
#define CD_CTX(ctx)                        \
    ptxi_ctx *ctx = NULL;                  \
    do {                                   \
        CUresult r_ = cd_current(&ctx);    \
        if (r_ != CUDA_SUCCESS) return r_; \
    } while (0)

/* What the driver notes about a context (module handles, host and managed
 * allocations, pool use) is dropped when the context's memory and modules go:
 * cuCtxDestroy, and a reset of the primary context (a hook cuInit installs). */
void cd_modules_forget(ptxi_ctx *c);
void cd_memory_forget(ptxi_ctx *c);
void cd_vmm_forget(ptxi_ctx *c);
void cd_install_hooks(void);

/* ---- stream.c ---- */
/* A stream argument: 0, CU_STREAM_LEGACY and CU_STREAM_PER_THREAD are the default
 * stream (NULL); others must be live. */
bool cd_stream(CUstream h, ptxi_stream **out);

/* ---- array.c ---- */
/* A CUDA array's memory: rows of `pitch` bytes (width × element size), `rows`
 * rows a slice (1 for a 1D array), `slices` slices (layers, cube faces; 1 for a
 * 2D array). False for a handle that is not a live array. */
typedef struct {
    uint64_t base;
    size_t pitch, rows, slices;
} cd_array_layout;
bool cd_array_get(CUarray h, cd_array_layout *out);
void cd_arrays_forget(ptxi_ctx *c);

/* ---- module.c ---- */
/* A live function: of a module loaded through the driver, or one of the
 * runtime's kernels (cudaGetFuncBySymbol) in the current context. */
bool cd_kernel_valid(ptxi_kernel *k);
/* Whether k is a live function, and whether it comes from a library (cuLibrary*). */
bool cd_kernel_of_library(ptxi_kernel *k, bool *library);

/* ---- fatbin.c / ptxlink.c (shared with libcudart, in runtime/cudart/) ---- */
/* The best PTX of a fatbinary image (a fatbin header or nvcc's wrapper); 0 or a
 * cudaError_t with an explanation in msg. */
int cr_fatbin_image_ptx(const void *image, char **ptx, size_t *len, unsigned *arch, char *msg, size_t msg_size);
char *cr_ptx_link(char *const *units, size_t n, size_t *len);

/* ---- graph.c: work issued on a capturing stream becomes a graph node ---- */
bool cd_capturing(ptxi_stream *s);
CUresult cd_capture_kernel(ptxi_stream *s, ptxi_kernel *k, ptxi_dim3 g, ptxi_dim3 b, unsigned shared, void **args);
CUresult cd_capture_copy(ptxi_stream *s, void *dst, const void *src, size_t n, int kind); /* kind: cudaMemcpyKind */
CUresult cd_capture_set(ptxi_stream *s, CUdeviceptr dst, size_t pitch, unsigned value, unsigned elem, size_t w,
                        size_t h);
CUresult cd_capture_host(ptxi_stream *s, void (*fn)(void *), void *user);
CUresult cd_capture_copy3d(ptxi_stream *s, const CUDA_MEMCPY3D *p);
/* Work a capture cannot record: the capture is invalidated, the call refused. */
CUresult cd_capture_refuse(ptxi_stream *s);
CUresult cd_capture_alloc(ptxi_stream *s, CUdeviceptr *dptr, size_t bytes);
CUresult cd_capture_free(ptxi_stream *s, CUdeviceptr dptr);
/* An event recorded in, or waited on into, a capture: 0 or an error; -1 for none. */
int cd_capture_record(ptxi_event *e, ptxi_stream *s);
int cd_capture_wait(ptxi_stream *s, ptxi_event *e);
void cd_capture_info(ptxi_stream *s, int *status, cuuint64_t *id, CUgraph *graph, const CUgraphNode **deps,
                     size_t *ndeps);
/* Frees graph-allocated memory: 0 or an error; -1 when p is not graph memory. */
int cd_graph_mem_free(CUdeviceptr p);

#endif
