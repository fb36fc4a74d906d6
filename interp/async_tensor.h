/* async_tensor.h — the tensor map ptxi uses for the tensor forms of the bulk
 * asynchronous copies (cp.async.bulk.tensor, cp.reduce.async.bulk.tensor):
 * its 128-byte layout, and the encoder the runtime's cuTensorMapEncodeTiled
 * is to call. Numeric arguments use the CUDA driver's enum values. */
#ifndef PTXI_ASYNC_TENSOR_H
#define PTXI_ASYNC_TENSOR_H

#include <stdint.h>

#define VM_TMAP_MAGIC 0x544d4150u  /* "PAMT" in memory: not a CUtensorMap of the real driver */

/* 128 bytes, 64-byte aligned like CUtensorMap. */
typedef struct vm_tmap {
    uint32_t magic;
    uint8_t rank, esz, dtype, interleave;
    uint8_t swizzle, l2promo, oobfill, mode;   /* mode: VM_TMAP_TILE or VM_TMAP_IM2COL */
    uint32_t pad1;
    uint64_t base;             /* global address of element (0, ..., 0) */
    uint32_t dim_m1[5];        /* globalDim - 1 (a dimension may be 2^32) */
    uint32_t box[5];           /* boxDim; im2col: channelsPerPixel, pixelsPerColumn */
    uint64_t stride[4];        /* bytes between steps of dimensions 1 .. rank-1 */
    uint32_t estride[5];       /* elementStrides */
    int16_t lower[3], upper[3]; /* im2col: pixel box corners of dimensions 1 .. rank-2 */
} vm_tmap;

enum { VM_TMAP_TILE, VM_TMAP_IM2COL };

/* CUtensorMapDataType values up to TFLOAT32_FTZ. */
enum { VM_TM_U8, VM_TM_U16, VM_TM_U32, VM_TM_S32, VM_TM_U64, VM_TM_S64, VM_TM_F16, VM_TM_F32, VM_TM_F64,
       VM_TM_BF16, VM_TM_F32_FTZ, VM_TM_TF32, VM_TM_TF32_FTZ, VM_TM__COUNT };

/* cuTensorMapEncodeTiled: fills *map (128 bytes). Returns 0, or 1
 * (CUDA_ERROR_INVALID_VALUE) when an argument breaks the driver's rules:
 * rank 1..5, address 16-aligned, dimensions 1..2^32, strides multiples of 16
 * below 2^40, box 1..256 with its inner extent a multiple of 16 bytes (and at
 * most the swizzle span), element strides 1..8. */
int vm_tmap_encode_tiled(void *map, unsigned dtype, unsigned rank, uint64_t gaddr, const uint64_t *dims,
                         const uint64_t *strides, const uint32_t *box, const uint32_t *estrides, unsigned interleave,
                         unsigned swizzle, unsigned l2promo, unsigned oobfill);

/* cuTensorMapEncodeIm2col: as vm_tmap_encode_tiled, for a tensor of rank
 * 3..5 (channels, rank-2 spatial dimensions, batch). Its own rules: corners
 * of the spatial dimensions within [-2^15, 2^15) (rank 3), [-2^7, 2^7) (rank
 * 4) or [-2^4, 2^4) (rank 5), a bounding box of non-zero extent in each,
 * channelsPerPixel 1..256 (its bytes a multiple of 16 and at most the swizzle
 * span), pixelsPerColumn 1..1024. */
int vm_tmap_encode_im2col(void *map, unsigned dtype, unsigned rank, uint64_t gaddr, const uint64_t *dims,
                          const uint64_t *strides, const int *lower, const int *upper, uint32_t channels,
                          uint32_t pixels, const uint32_t *estrides, unsigned interleave, unsigned swizzle,
                          unsigned l2promo, unsigned oobfill);

#endif
