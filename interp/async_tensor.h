/* async_tensor.h — the tensor map ptxi uses for the tensor forms of the bulk
 * asynchronous copies (cp.async.bulk.tensor, cp.reduce.async.bulk.tensor):
 * its 128-byte layout (the encoders: include/ptxi_private.h). Numeric fields
 * use the CUDA driver's enum values. */
#ifndef PTXI_ASYNC_TENSOR_H
#define PTXI_ASYNC_TENSOR_H

#include <stdint.h>

#include "ptxi_private.h"

#define VM_TMAP_MAGIC 0x544d4150u /* "PAMT" in memory: not a CUtensorMap of the real driver */

/* 128 bytes, 64-byte aligned like CUtensorMap. */
typedef struct vm_tmap {
    uint32_t magic;
    uint8_t rank, esz, dtype, interleave;
    uint8_t swizzle, l2promo, oobfill, mode; /* mode: VM_TMAP_TILE or VM_TMAP_IM2COL */
    uint32_t pad1;
    uint64_t base;              /* global address of element (0, ..., 0) */
    uint32_t dim_m1[5];         /* globalDim - 1 (a dimension may be 2^32) */
    uint32_t box[5];            /* boxDim; im2col: channelsPerPixel, pixelsPerColumn */
    uint64_t stride[4];         /* bytes between steps of dimensions 1 .. rank-1 */
    uint32_t estride[5];        /* elementStrides */
    int16_t lower[3], upper[3]; /* im2col: pixel box corners of dimensions 1 .. rank-2 */
} vm_tmap;

enum { VM_TMAP_TILE, VM_TMAP_IM2COL };

/* CUtensorMapDataType values up to TFLOAT32_FTZ. */
enum {
    VM_TM_U8,
    VM_TM_U16,
    VM_TM_U32,
    VM_TM_S32,
    VM_TM_U64,
    VM_TM_S64,
    VM_TM_F16,
    VM_TM_F32,
    VM_TM_F64,
    VM_TM_BF16,
    VM_TM_F32_FTZ,
    VM_TM_TF32,
    VM_TM_TF32_FTZ,
    VM_TM__COUNT
};

/* The encoders the runtime libraries call: ptxi_private.h. */

#endif
