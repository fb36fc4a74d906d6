/* tex.h — texture and surface objects as the device sees them. A handle
 * (cudaTextureObject_t / cudaSurfaceObject_t) is the device address of a
 * vm_texdesc in global memory: the runtime writes it (runtime/texture.c), the
 * tex/tld4/txq/suld/sust/suq instructions read it (tex.c), so a kernel can
 * receive handles in any way a program passes 64-bit values. */
#ifndef PTXI_TEX_H
#define PTXI_TEX_H

#include <stdint.h>

#define VM_TEX_MAGIC 0x31584554u /* "TEX1": a handle that does not point at one faults */

enum { VM_TEXF_UINT, VM_TEXF_SINT, VM_TEXF_FLOAT };                   /* channel format */
enum { VM_TEXA_WRAP, VM_TEXA_CLAMP, VM_TEXA_MIRROR, VM_TEXA_BORDER }; /* = cudaTextureAddressMode */

typedef struct vm_texdesc {
    uint32_t magic;
    uint8_t surface; /* a surface object (suld/sust), else a texture object */
    uint8_t dims;    /* 1, 2 or 3 (a cubemap: 2, its faces are layers) */
    uint8_t layered, cubemap;
    uint8_t linear;            /* 1D linear memory (tex1Dfetch): fetches outside give 0 */
    uint8_t nchan, cbits, fmt; /* 1, 2 or 4 channels of 8, 16 or 32 bits; VM_TEXF_* */
    uint8_t esize;             /* bytes per element */
    uint8_t filter;            /* 1: linear filtering */
    uint8_t readnorm;          /* integer channels read as normalized floats */
    uint8_t normcoords;        /* coordinates in [0, 1) */
    uint8_t addr[3];           /* VM_TEXA_* per dimension */
    uint8_t pad;
    uint32_t w, h, d, layers; /* h, d: 1 when the dimension is absent; layers: 0 = not layered */
    uint64_t pitch, slice;    /* bytes between rows, and between 2D slices (or layers) */
    uint64_t base;            /* device address of element (0, 0, 0) */
    float border[4];
} vm_texdesc;

#endif
