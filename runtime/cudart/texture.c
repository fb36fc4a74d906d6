/* texture.c — CUDA arrays, texture objects and surface objects. A CUDA array
 * is device memory laid out row by row (pitch = width × element size), slice
 * by slice; its cudaArray_t is a host record of that layout. Texture and
 * surface objects are ptxi_tex_create() handles (runtime/texture.c). */
#include <stdlib.h>
#include <string.h>

#include "cudart_internal.h"

struct cudaArray {
    ptxi_dptr base;
    struct cudaChannelFormatDesc desc;
    size_t w, h, d; /* as allocated: h and d may be 0 */
    unsigned flags;
    size_t esize, pitch, slice;
};

static size_t elem_size(const struct cudaChannelFormatDesc *d) { return (size_t)(d->x + d->y + d->z + d->w) / 8; }

static unsigned nchannels(const struct cudaChannelFormatDesc *d) {
    return (d->x > 0) + (d->y > 0) + (d->z > 0) + (d->w > 0);
}

static cudaError_t new_array(cudaArray_t *out, const struct cudaChannelFormatDesc *desc, size_t w, size_t h, size_t d,
                             unsigned flags) {
    CR_ENTER();
    if (!out || !desc || !w) return cr_ret(cudaErrorInvalidValue);
    unsigned n = nchannels(desc);
    if ((n != 1 && n != 2 && n != 4) || (desc->x != 8 && desc->x != 16 && desc->x != 32) ||
        (desc->y && desc->y != desc->x) || (desc->z && desc->z != desc->x) || (desc->w && desc->w != desc->x) ||
        desc->f > cudaChannelFormatKindFloat || (desc->f == cudaChannelFormatKindFloat && desc->x == 8))
        return cr_ret(cudaErrorInvalidChannelDescriptor);
    if ((flags & cudaArrayCubemap) && (w != h || d % 6 || !d)) return cr_ret(cudaErrorInvalidValue);
    struct cudaArray *a = calloc(1, sizeof *a);
    if (!a) return cr_ret(cudaErrorMemoryAllocation);
    a->desc = *desc, a->w = w, a->h = h, a->d = d, a->flags = flags;
    a->esize = elem_size(desc);
    a->pitch = w * a->esize;
    a->slice = a->pitch * (h ? h : 1);
    ptxi_status s = ptxi_mem_alloc(cr_ctx(), a->slice * (d ? d : 1), &a->base);
    if (s != PTXI_SUCCESS) {
        free(a);
        return cr_st(s);
    }
    ptxi_memset_d8(cr_ctx(), a->base, 0, a->slice * (d ? d : 1));
    *out = a;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                                      size_t height, unsigned int flags) {
    return new_array(array, desc, width, height, 0, flags);
}

CR_EXPORT cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                        struct cudaExtent extent, unsigned int flags) {
    return new_array(array, desc, extent.width, extent.height, extent.depth, flags);
}

CR_EXPORT cudaError_t cudaFreeArray(cudaArray_t array) {
    CR_ENTER();
    if (!array) return cudaSuccess;
    ptxi_status s = ptxi_mem_free(cr_ctx(), array->base);
    free(array);
    return s == PTXI_SUCCESS ? cudaSuccess : cr_st(s);
}

CR_EXPORT cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                                       unsigned int *flags, cudaArray_t array) {
    CR_ENTER();
    if (!array) return cr_ret(cudaErrorInvalidResourceHandle);
    if (desc) *desc = array->desc;
    if (extent) *extent = (struct cudaExtent){array->w, array->h, array->d};
    if (flags) *flags = array->flags;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array) {
    CR_ENTER();
    if (!desc || !array) return cr_ret(cudaErrorInvalidValue);
    *desc = array->desc;
    return cudaSuccess;
}

/* The array as pitched memory, for cudaMemcpy3D (memory.c). */
bool cr_array_pitched(cudaArray_const_t a, struct cudaPitchedPtr *p, size_t *esize) {
    if (!a) return false;
    *p = (struct cudaPitchedPtr){(void *)(uintptr_t)a->base, a->pitch, a->w, a->h ? a->h : 1};
    *esize = a->esize;
    return true;
}

/* n bytes between array memory at `at` and host or device memory at m. */
static cudaError_t copy_bytes(ptxi_dptr at, void *m, size_t n, enum cudaMemcpyKind kind, bool to_array) {
    ptxi_dptr b;
    size_t sz;
    bool dev = kind == cudaMemcpyDeviceToDevice ||
               (kind == cudaMemcpyDefault &&
                ptxi_mem_get_range(cr_ctx(), (ptxi_dptr)(uintptr_t)m, &b, &sz) == PTXI_SUCCESS);
    ptxi_status s;
    if (dev)
        s = to_array ? ptxi_memcpy_dtod(cr_ctx(), at, (ptxi_dptr)(uintptr_t)m, n)
                     : ptxi_memcpy_dtod(cr_ctx(), (ptxi_dptr)(uintptr_t)m, at, n);
    else s = to_array ? ptxi_memcpy_htod(cr_ctx(), at, m, n) : ptxi_memcpy_dtoh(cr_ctx(), m, at, n);
    return s == PTXI_SUCCESS ? cudaSuccess : cr_st(s);
}

/* 2D copies between an array (at byte column wOffset, row hOffset) and memory. */
static cudaError_t copy2d(cudaArray_const_t a, size_t wOffset, size_t hOffset, void *mem, size_t mpitch, size_t width,
                          size_t height, enum cudaMemcpyKind kind, bool to_array) {
    CR_ENTER();
    if (!a) return cr_ret(cudaErrorInvalidResourceHandle);
    size_t rows = a->h ? a->h : 1;
    if (wOffset + width > a->pitch || hOffset + height > rows * (a->d ? a->d : 1) || width > mpitch)
        return cr_ret(cudaErrorInvalidValue);
    for (size_t y = 0; y < height; y++) {
        cudaError_t e = copy_bytes(a->base + (hOffset + y) * a->pitch + wOffset, (char *)mem + y * mpitch, width, kind,
                                   to_array);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                          size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind) {
    return copy2d(dst, wOffset, hOffset, (void *)src, spitch, width, height, kind, true);
}

CR_EXPORT cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                            size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind) {
    return copy2d(src, wOffset, hOffset, dst, dpitch, width, height, kind, false);
}

CR_EXPORT cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                               size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind,
                                               cudaStream_t stream) {
    (void)stream;
    return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}

CR_EXPORT cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                                 size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind,
                                                 cudaStream_t stream) {
    (void)stream;
    return cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}

/* The deprecated linear forms: count bytes from (wOffset, hOffset) on, row after row. */
static cudaError_t copy_linear(cudaArray_const_t a, size_t wOffset, size_t hOffset, void *mem, size_t count,
                               enum cudaMemcpyKind kind, bool to_array) {
    CR_ENTER();
    if (!a) return cr_ret(cudaErrorInvalidResourceHandle);
    size_t start = hOffset * a->pitch + wOffset, total = a->slice * (a->d ? a->d : 1);
    if (start + count > total) return cr_ret(cudaErrorInvalidValue);
    return copy_bytes(a->base + start, mem, count, kind, to_array);
}

CR_EXPORT cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                                        enum cudaMemcpyKind kind) {
    return copy_linear(dst, wOffset, hOffset, (void *)src, count, kind, true);
}

CR_EXPORT cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                          size_t count, enum cudaMemcpyKind kind) {
    return copy_linear(src, wOffset, hOffset, dst, count, kind, false);
}

/* ---- texture and surface objects ---- */

static void format_of(const struct cudaChannelFormatDesc *c, ptxi_tex_desc *t) {
    t->channels = nchannels(c);
    t->channel_bits = (unsigned)c->x;
    t->format = c->f == cudaChannelFormatKindFloat    ? PTXI_TEX_FLOAT
                : c->f == cudaChannelFormatKindSigned ? PTXI_TEX_SIGNED
                                                      : PTXI_TEX_UNSIGNED;
}

/* The resource part of a descriptor (shared by textures and surfaces). */
static cudaError_t resource(const struct cudaResourceDesc *r, ptxi_tex_desc *t) {
    memset(t, 0, sizeof *t);
    switch (r->resType) {
    case cudaResourceTypeArray: {
        const struct cudaArray *a = r->res.array.array;
        if (!a) return cudaErrorInvalidResourceHandle;
        format_of(&a->desc, t);
        ptxi_tex_layout_array(t, a->base, a->w, a->h, a->d, a->pitch, a->slice, (a->flags & cudaArrayLayered) != 0,
                              (a->flags & cudaArrayCubemap) != 0);
        return cudaSuccess;
    }
    case cudaResourceTypeLinear:
        if (!r->res.linear.devPtr) return cudaErrorInvalidValue;
        format_of(&r->res.linear.desc, t);
        if (!t->channels || !t->channel_bits) return cudaErrorInvalidChannelDescriptor;
        t->base = (ptxi_dptr)(uintptr_t)r->res.linear.devPtr;
        t->dims = 1, t->linear = 1;
        t->width = (unsigned)(r->res.linear.sizeInBytes / (t->channels * t->channel_bits / 8));
        return t->width ? cudaSuccess : cudaErrorInvalidValue;
    case cudaResourceTypePitch2D:
        if (!r->res.pitch2D.devPtr) return cudaErrorInvalidValue;
        format_of(&r->res.pitch2D.desc, t);
        t->base = (ptxi_dptr)(uintptr_t)r->res.pitch2D.devPtr;
        t->dims = 2, t->width = (unsigned)r->res.pitch2D.width, t->height = (unsigned)r->res.pitch2D.height;
        t->pitch = r->res.pitch2D.pitchInBytes;
        return cudaSuccess;
    default: cr_warn_once("mipmapped arrays are not supported"); return cudaErrorNotSupported;
    }
}

CR_EXPORT cudaError_t cudaCreateTextureObject(cudaTextureObject_t *out, const struct cudaResourceDesc *r,
                                              const struct cudaTextureDesc *td,
                                              const struct cudaResourceViewDesc *view) {
    CR_ENTER();
    if (!out || !r || !td) return cr_ret(cudaErrorInvalidValue);
    if (view) cr_warn_once("resource views of texture objects are ignored");
    ptxi_tex_desc t;
    cudaError_t e = resource(r, &t);
    if (e != cudaSuccess) return cr_ret(e);
    t.filter_linear = td->filterMode == cudaFilterModeLinear;
    t.read_normalized = td->readMode == cudaReadModeNormalizedFloat && t.format != PTXI_TEX_FLOAT;
    t.normalized_coords = td->normalizedCoords != 0;
    for (int k = 0; k < 3; k++) t.address[k] = (ptxi_tex_address)td->addressMode[k];
    memcpy(t.border, td->borderColor, sizeof t.border);
    uint64_t h;
    ptxi_status s = ptxi_tex_create(cr_ctx(), &t, &h);
    if (s != PTXI_SUCCESS) return cr_st(s);
    *out = h;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *out, const struct cudaResourceDesc *r) {
    CR_ENTER();
    if (!out || !r) return cr_ret(cudaErrorInvalidValue);
    if (r->resType != cudaResourceTypeArray) return cr_ret(cudaErrorInvalidValue);
    ptxi_tex_desc t;
    cudaError_t e = resource(r, &t);
    if (e != cudaSuccess) return cr_ret(e);
    if (!(r->res.array.array->flags & cudaArraySurfaceLoadStore)) return cr_ret(cudaErrorInvalidValue);
    t.surface = 1;
    uint64_t h;
    ptxi_status s = ptxi_tex_create(cr_ctx(), &t, &h);
    if (s != PTXI_SUCCESS) return cr_st(s);
    *out = h;
    return cudaSuccess;
}

static cudaError_t destroy(uint64_t h) {
    CR_ENTER();
    return h ? cr_st(ptxi_tex_destroy(cr_ctx(), h)) : cudaSuccess;
}

CR_EXPORT cudaError_t cudaDestroyTextureObject(cudaTextureObject_t t) {
    CR_NAME();
    return destroy(t);
}
CR_EXPORT cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t s) {
    CR_NAME();
    return destroy(s);
}
