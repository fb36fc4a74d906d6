/* ptxi_private.h — what libptxi.so exports beyond ptxi.h, for ptxi's own
 * libraries only (libcudart.so.13, libcuda.so.1 and the debugger inside
 * them): not installed, no stability promised. libptxi.so exports ptxi_ names
 * only (ptxi.map), so these carry the prefix too. */
#ifndef PTXI_PRIVATE_H
#define PTXI_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ptxi.h"

/* ---- tensor maps (interp/async_tensor.c) ----
 * cuTensorMapEncodeTiled: fills *map (128 bytes). Returns 0, or 1
 * (CUDA_ERROR_INVALID_VALUE) when an argument breaks the driver's rules:
 * rank 1..5, address 16-aligned, dimensions 1..2^32, strides multiples of 16
 * below 2^40, box 1..256 with its inner extent a multiple of 16 bytes (and at
 * most the swizzle span), element strides 1..8. Numeric arguments use the
 * CUDA driver's enum values. */
int ptxi_tmap_encode_tiled(void *map, unsigned dtype, unsigned rank, uint64_t gaddr, const uint64_t *dims,
                           const uint64_t *strides, const uint32_t *box, const uint32_t *estrides, unsigned interleave,
                           unsigned swizzle, unsigned l2promo, unsigned oobfill);
/* cuTensorMapEncodeIm2col: as ptxi_tmap_encode_tiled, for a tensor of rank
 * 3..5 (channels, rank-2 spatial dimensions, batch). Its own rules: corners
 * of the spatial dimensions within [-2^15, 2^15) (rank 3), [-2^7, 2^7) (rank
 * 4) or [-2^4, 2^4) (rank 5), a bounding box of non-zero extent in each,
 * channelsPerPixel 1..256 (its bytes a multiple of 16 and at most the swizzle
 * span), pixelsPerColumn 1..1024. */
int ptxi_tmap_encode_im2col(void *map, unsigned dtype, unsigned rank, uint64_t gaddr, const uint64_t *dims,
                            const uint64_t *strides, const int *lower, const int *upper, uint32_t channels,
                            uint32_t pixels, const uint32_t *estrides, unsigned interleave, unsigned swizzle,
                            unsigned l2promo, unsigned oobfill);
/* cuTensorMapReplaceAddress: 0, or 1 when map is not a ptxi tensor map or the
 * address is not 16-byte aligned. */
int ptxi_tmap_replace_address(void *map, uint64_t gaddr);

/* ---- sanitize mode (runtime/sanitize.c) ----
 * The process's sanitizer (NULL in a normal run), and the record of an API
 * call that failed. */
struct vm_san *ptxi_sanitizer(void);
void ptxi_sanitize_api_error(const char *api, const char *err_name, int code, const char *msg);
/* What a sanitizer found: its tool (a nonzero number, ptxi_sanitize_tool's),
 * the records, racecheck's error and warning records (not in errors), and
 * how many records it prints at most (0: all). */
typedef struct ptxi_san_counts {
    int tool;
    uint64_t errors, hazards[2], print_limit;
} ptxi_san_counts;
/* The tool a --tool name names; 0 for none ptxi has. */
int ptxi_sanitize_tool(const char *name);
/* The process's sanitizer's counts so far; false in a normal run. */
bool ptxi_sanitize_counts(ptxi_san_counts *c);
/* compute-sanitizer's closing lines for c on f: "Target application returned
 * an error" when failed, the summary (racecheck's of hazards, else of
 * errors), and how many records were not printed. */
void ptxi_sanitize_close(FILE *f, const ptxi_san_counts *c, bool failed);

/* ---- the debugger's hooks (runtime/debug_attach.c) ----
 * The per-instruction hook goes into the context's interpreter runtime, which
 * modules loaded afterwards lower with, so it must precede module loads; the
 * fault hook is called with the warp intact at a fault. */
struct vm_warp;
struct vm_insn;
void ptxi_attach_debugger(ptxi_ctx *ctx, int (*fn)(void *, struct vm_warp *, const struct vm_insn *), void *data);
void ptxi_attach_fault_hook(ptxi_ctx *ctx,
                            void (*fn)(void *, struct vm_warp *, const struct vm_insn *, int, int, const char *));

/* ---- the calling thread's current context (runtime/primary.c) ----
 * One stack per host thread, shared by libcuda.so.1 (cuCtxPushCurrent,
 * cuCtxPopCurrent, cuCtxSetCurrent, cuCtxCreate) and libcudart.so.13, which works
 * in the context on top, or in the primary context while the stack is empty. */
ptxi_ctx *ptxi_current_top(void);    /* NULL: the stack is empty */
int ptxi_current_push(ptxi_ctx *c);  /* 0, or -1 when the stack is full */
ptxi_ctx *ptxi_current_pop(void);    /* the context popped; NULL: the stack was empty */
void ptxi_current_set(ptxi_ctx *c);  /* replaces the top (an empty stack takes c); NULL pops */
void ptxi_current_remove(ptxi_ctx *c); /* takes c off the calling thread's stack */

/* ---- live contexts (runtime/context.c) ----
 * Whether c is a context created and not yet destroyed; fn(c, arg) is called by
 * ptxi_ctx_destroy when c is no longer live and before its memory, modules and
 * streams go (a library drops what it keeps about c). */
int ptxi_ctx_live(ptxi_ctx *c);
ptxi_status ptxi_ctx_on_destroy(void (*fn)(ptxi_ctx *, void *), void *arg);

/* ---- one image in several contexts (runtime/module.c) ----
 * ptxi_module_load_data of the PTX that twin, a module of another context, was
 * loaded from: its .managed variables are twin's, for a __managed__ variable is
 * one object in the process on a GPU. (Without a match, as ptxi_module_load_data.) */
ptxi_status ptxi_module_load_twin(ptxi_ctx *ctx, const char *text, size_t len, const char *name, const ptxi_module *twin,
                                  ptxi_module **out);

#endif
