/* array.c — CUDA arrays, texture objects and surface objects of the driver API.
 * A CUDA array is device memory laid out row by row (pitch = width × element
 * size), slice by slice, as the runtime lays out its cudaArray (runtime/cudart/
 * texture.c); its CUarray is a host record of that layout. Texture and surface
 * objects are libptxi's handles (ptxi_tex_create), with the descriptors they were
 * made from kept for cuTexObjectGetResourceDesc and friends. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"

struct CUarray_st {
    CUDA_ARRAY3D_DESCRIPTOR desc;
    cd_array_layout mem;
    size_t esize;
    ptxi_ctx *ctx;
    struct CUarray_st *next;
};

typedef struct tex_obj {
    uint64_t handle;
    bool surface;
    CUDA_RESOURCE_DESC res;
    CUDA_TEXTURE_DESC tex;
    ptxi_ctx *ctx;
    struct tex_obj *next;
} tex_obj;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct CUarray_st *arrays;
static tex_obj *objects;

/* Bits per channel and the kind of a format; 0 for one ptxi does not have. */
static unsigned format_bits(CUarray_format f, ptxi_tex_format *kind) {
    switch (f) {
    case CU_AD_FORMAT_UNSIGNED_INT8: *kind = PTXI_TEX_UNSIGNED; return 8;
    case CU_AD_FORMAT_UNSIGNED_INT16: *kind = PTXI_TEX_UNSIGNED; return 16;
    case CU_AD_FORMAT_UNSIGNED_INT32: *kind = PTXI_TEX_UNSIGNED; return 32;
    case CU_AD_FORMAT_SIGNED_INT8: *kind = PTXI_TEX_SIGNED; return 8;
    case CU_AD_FORMAT_SIGNED_INT16: *kind = PTXI_TEX_SIGNED; return 16;
    case CU_AD_FORMAT_SIGNED_INT32: *kind = PTXI_TEX_SIGNED; return 32;
    case CU_AD_FORMAT_HALF: *kind = PTXI_TEX_FLOAT; return 16;
    case CU_AD_FORMAT_FLOAT: *kind = PTXI_TEX_FLOAT; return 32;
    default: return 0;
    }
}

bool cd_array_get(CUarray h, cd_array_layout *out) {
    pthread_mutex_lock(&lock);
    struct CUarray_st *a = arrays;
    while (a && a != h) a = a->next;
    if (a && out) *out = a->mem;
    pthread_mutex_unlock(&lock);
    return a != NULL;
}

/* A copy of the live array h, or false. */
static bool array_copy(CUarray h, struct CUarray_st *out) {
    pthread_mutex_lock(&lock);
    struct CUarray_st *a = arrays;
    while (a && a != h) a = a->next;
    if (a) *out = *a;
    pthread_mutex_unlock(&lock);
    return a != NULL;
}

static const unsigned KNOWN_FLAGS = CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_CUBEMAP |
                                    CUDA_ARRAY3D_TEXTURE_GATHER;

CD_EXPORT CUresult cuArray3DCreate_v2(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *d) {
    CD_CTX(ctx);
    ptxi_tex_format kind;
    if (!pHandle || !d || !d->Width) return CUDA_ERROR_INVALID_VALUE;
    unsigned bits = format_bits(d->Format, &kind);
    if (!bits || (d->NumChannels != 1 && d->NumChannels != 2 && d->NumChannels != 4)) return CUDA_ERROR_INVALID_VALUE;
    if (d->Flags & ~KNOWN_FLAGS) return CUDA_ERROR_INVALID_VALUE;
    if ((d->Flags & CUDA_ARRAY3D_CUBEMAP) &&
        (d->Width != d->Height || !d->Depth || d->Depth % 6 || (!(d->Flags & CUDA_ARRAY3D_LAYERED) && d->Depth != 6)))
        return CUDA_ERROR_INVALID_VALUE;
    if ((d->Flags & CUDA_ARRAY3D_LAYERED) && !d->Depth) return CUDA_ERROR_INVALID_VALUE;
    if (d->Depth && !d->Height && !(d->Flags & CUDA_ARRAY3D_LAYERED)) return CUDA_ERROR_INVALID_VALUE;
    struct CUarray_st *a = calloc(1, sizeof *a);
    if (!a) return CUDA_ERROR_OUT_OF_MEMORY;
    a->desc = *d;
    a->esize = bits / 8 * d->NumChannels;
    a->mem.pitch = d->Width * a->esize;
    a->mem.rows = d->Height ? d->Height : 1;
    a->mem.slices = d->Depth ? d->Depth : 1;
    a->ctx = ctx;
    size_t bytes = a->mem.pitch * a->mem.rows * a->mem.slices;
    CUresult r = cd_map(ptxi_mem_alloc(ctx, bytes, &a->mem.base));
    if (r == CUDA_SUCCESS) r = cd_map(ptxi_memset_d8(ctx, a->mem.base, 0, bytes));
    if (r != CUDA_SUCCESS) {
        if (a->mem.base) ptxi_mem_free(ctx, a->mem.base);
        free(a);
        return r;
    }
    pthread_mutex_lock(&lock);
    a->next = arrays;
    arrays = a;
    pthread_mutex_unlock(&lock);
    *pHandle = a;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuArrayCreate_v2(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *d) {
    if (!d) return CUDA_ERROR_INVALID_VALUE;
    CUDA_ARRAY3D_DESCRIPTOR d3 = {d->Width, d->Height, 0, d->Format, d->NumChannels, 0};
    return cuArray3DCreate_v2(pHandle, &d3);
}

CD_EXPORT CUresult cuArrayDestroy(CUarray hArray) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    pthread_mutex_lock(&lock);
    struct CUarray_st **q = &arrays;
    while (*q && *q != hArray) q = &(*q)->next;
    struct CUarray_st *a = *q;
    if (a) *q = a->next;
    pthread_mutex_unlock(&lock);
    if (!a) return CUDA_ERROR_INVALID_HANDLE;
    ptxi_mem_free(a->ctx, a->mem.base);
    free(a);
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *d, CUarray hArray) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    struct CUarray_st a;
    if (!d) return CUDA_ERROR_INVALID_VALUE;
    if (!array_copy(hArray, &a)) return CUDA_ERROR_INVALID_HANDLE;
    *d = a.desc;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *d, CUarray hArray) {
    CUDA_ARRAY3D_DESCRIPTOR d3;
    if (!d) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = cuArray3DGetDescriptor_v2(&d3, hArray);
    if (r != CUDA_SUCCESS) return r;
    *d = (CUDA_ARRAY_DESCRIPTOR){d3.Width, d3.Height, d3.Format, d3.NumChannels};
    return CUDA_SUCCESS;
}

/* ---- linear copies to and from arrays ---- */

/* The device address of bytes [offset, offset + n) of array h, or 0. The copies see
 * an array as 1D: an H100 refuses any that leaves the first row. */
static uint64_t array_span(CUarray h, size_t offset, size_t n) {
    cd_array_layout a;
    if (!cd_array_get(h, &a)) return 0;
    return offset <= a.pitch && n <= a.pitch - offset ? a.base + offset : 0;
}

CD_EXPORT CUresult cuMemcpyHtoA_v2(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount) {
    CD_CTX(ctx);
    uint64_t d = array_span(dstArray, dstOffset, ByteCount);
    if (!d || !srcHost) return CUDA_ERROR_INVALID_VALUE;
    return cd_map(ptxi_memcpy_htod(ctx, d, srcHost, ByteCount));
}

CD_EXPORT CUresult cuMemcpyAtoH_v2(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount) {
    CD_CTX(ctx);
    uint64_t s = array_span(srcArray, srcOffset, ByteCount);
    if (!s || !dstHost) return CUDA_ERROR_INVALID_VALUE;
    return cd_map(ptxi_memcpy_dtoh(ctx, dstHost, s, ByteCount));
}

CD_EXPORT CUresult cuMemcpyDtoA_v2(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount) {
    CD_CTX(ctx);
    uint64_t d = array_span(dstArray, dstOffset, ByteCount);
    if (!d) return CUDA_ERROR_INVALID_VALUE;
    return cd_map(ptxi_memcpy_dtod(ctx, d, srcDevice, ByteCount));
}

CD_EXPORT CUresult cuMemcpyAtoD_v2(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount) {
    CD_CTX(ctx);
    uint64_t s = array_span(srcArray, srcOffset, ByteCount);
    if (!s) return CUDA_ERROR_INVALID_VALUE;
    return cd_map(ptxi_memcpy_dtod(ctx, dstDevice, s, ByteCount));
}

CD_EXPORT CUresult cuMemcpyAtoA_v2(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset,
                                   size_t ByteCount) {
    CD_CTX(ctx);
    uint64_t d = array_span(dstArray, dstOffset, ByteCount), s = array_span(srcArray, srcOffset, ByteCount);
    if (!d || !s) return CUDA_ERROR_INVALID_VALUE;
    return cd_map(ptxi_memcpy_dtod(ctx, d, s, ByteCount));
}

CD_EXPORT CUresult cuMemcpyHtoAAsync_v2(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount,
                                        CUstream hStream) {
    ptxi_stream *s;
    if (!cd_stream(hStream, &s)) return CUDA_ERROR_INVALID_HANDLE;
    return cuMemcpyHtoA_v2(dstArray, dstOffset, srcHost, ByteCount);
}

CD_EXPORT CUresult cuMemcpyAtoHAsync_v2(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount,
                                        CUstream hStream) {
    ptxi_stream *s;
    if (!cd_stream(hStream, &s)) return CUDA_ERROR_INVALID_HANDLE;
    return cuMemcpyAtoH_v2(dstHost, srcArray, srcOffset, ByteCount);
}

/* ---- texture and surface objects ---- */

static CUresult resource(const CUDA_RESOURCE_DESC *r, ptxi_tex_desc *t) {
    memset(t, 0, sizeof *t);
    ptxi_tex_format kind = PTXI_TEX_UNSIGNED;
    switch (r->resType) {
    case CU_RESOURCE_TYPE_ARRAY: {
        struct CUarray_st a;
        if (!array_copy(r->res.array.hArray, &a)) return CUDA_ERROR_INVALID_HANDLE;
        t->channel_bits = format_bits(a.desc.Format, &kind);
        t->channels = a.desc.NumChannels;
        t->format = kind;
        ptxi_tex_layout_array(t, a.mem.base, a.desc.Width, a.desc.Height, a.desc.Depth, a.mem.pitch,
                              a.mem.pitch * a.mem.rows, (a.desc.Flags & CUDA_ARRAY3D_LAYERED) != 0,
                              (a.desc.Flags & CUDA_ARRAY3D_CUBEMAP) != 0);
        return CUDA_SUCCESS;
    }
    case CU_RESOURCE_TYPE_LINEAR:
        t->channel_bits = format_bits(r->res.linear.format, &kind);
        t->channels = r->res.linear.numChannels;
        t->format = kind;
        if (!r->res.linear.devPtr || !t->channel_bits) return CUDA_ERROR_INVALID_VALUE;
        t->base = r->res.linear.devPtr;
        t->dims = 1, t->linear = 1;
        t->width = t->channels ? (unsigned)(r->res.linear.sizeInBytes / (t->channels * t->channel_bits / 8)) : 0;
        return t->width ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    case CU_RESOURCE_TYPE_PITCH2D:
        t->channel_bits = format_bits(r->res.pitch2D.format, &kind);
        t->channels = r->res.pitch2D.numChannels;
        t->format = kind;
        if (!r->res.pitch2D.devPtr || !t->channel_bits) return CUDA_ERROR_INVALID_VALUE;
        t->base = r->res.pitch2D.devPtr;
        t->dims = 2, t->width = (unsigned)r->res.pitch2D.width, t->height = (unsigned)r->res.pitch2D.height;
        t->pitch = r->res.pitch2D.pitchInBytes;
        return CUDA_SUCCESS;
    default: ptxi_warn_once("mipmapped arrays are not supported"); return CUDA_ERROR_NOT_SUPPORTED;
    }
}

static CUresult keep(ptxi_ctx *ctx, uint64_t handle, bool surface, const CUDA_RESOURCE_DESC *r,
                     const CUDA_TEXTURE_DESC *td) {
    tex_obj *o = calloc(1, sizeof *o);
    if (!o) {
        ptxi_tex_destroy(ctx, handle);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *o = (tex_obj){.handle = handle, .surface = surface, .res = *r, .ctx = ctx};
    if (td) o->tex = *td;
    pthread_mutex_lock(&lock);
    o->next = objects;
    objects = o;
    pthread_mutex_unlock(&lock);
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc,
                                     const CUDA_TEXTURE_DESC *pTexDesc, const CUDA_RESOURCE_VIEW_DESC *pResViewDesc) {
    CD_CTX(ctx);
    if (!pTexObject || !pResDesc || !pTexDesc) return CUDA_ERROR_INVALID_VALUE;
    if (pResViewDesc) ptxi_warn_once("resource views of texture objects are ignored");
    ptxi_tex_desc t;
    CUresult r = resource(pResDesc, &t);
    if (r != CUDA_SUCCESS) return r;
    t.filter_linear = pTexDesc->filterMode == CU_TR_FILTER_MODE_LINEAR;
    /* without CU_TRSF_READ_AS_INTEGER, 8- and 16-bit integers read as normalized floats */
    t.read_normalized = !(pTexDesc->flags & CU_TRSF_READ_AS_INTEGER) && t.format != PTXI_TEX_FLOAT &&
                        t.channel_bits < 32;
    t.normalized_coords = (pTexDesc->flags & CU_TRSF_NORMALIZED_COORDINATES) != 0;
    for (int k = 0; k < 3; k++) t.address[k] = (ptxi_tex_address)pTexDesc->addressMode[k];
    memcpy(t.border, pTexDesc->borderColor, sizeof t.border);
    uint64_t h;
    r = cd_map(ptxi_tex_create(ctx, &t, &h));
    if (r != CUDA_SUCCESS) return r;
    r = keep(ctx, h, false, pResDesc, pTexDesc);
    if (r == CUDA_SUCCESS) *pTexObject = h;
    return r;
}

CD_EXPORT CUresult cuSurfObjectCreate(CUsurfObject *pSurfObject, const CUDA_RESOURCE_DESC *pResDesc) {
    CD_CTX(ctx);
    if (!pSurfObject || !pResDesc || pResDesc->resType != CU_RESOURCE_TYPE_ARRAY) return CUDA_ERROR_INVALID_VALUE;
    /* an H100 takes any array, with or without CUDA_ARRAY3D_SURFACE_LDST */
    ptxi_tex_desc t;
    CUresult r = resource(pResDesc, &t);
    if (r != CUDA_SUCCESS) return r;
    t.surface = 1;
    uint64_t h;
    r = cd_map(ptxi_tex_create(ctx, &t, &h));
    if (r != CUDA_SUCCESS) return r;
    r = keep(ctx, h, true, pResDesc, NULL);
    if (r == CUDA_SUCCESS) *pSurfObject = h;
    return r;
}

/* Removes the record of handle (of the given kind) and destroys the object. */
static CUresult destroy(uint64_t handle, bool surface) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    pthread_mutex_lock(&lock);
    tex_obj **q = &objects;
    while (*q && !((*q)->handle == handle && (*q)->surface == surface)) q = &(*q)->next;
    tex_obj *o = *q;
    if (o) *q = o->next;
    pthread_mutex_unlock(&lock);
    if (!o) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = cd_map(ptxi_tex_destroy(o->ctx, handle));
    free(o);
    return r;
}

CD_EXPORT CUresult cuTexObjectDestroy(CUtexObject texObject) { return destroy(texObject, false); }
CD_EXPORT CUresult cuSurfObjectDestroy(CUsurfObject surfObject) { return destroy(surfObject, true); }

/* The descriptors object `handle` was made from. */
static CUresult descs(uint64_t handle, bool surface, CUDA_RESOURCE_DESC *res, CUDA_TEXTURE_DESC *tex) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!res && !tex) return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    tex_obj *o = objects;
    while (o && !(o->handle == handle && o->surface == surface)) o = o->next;
    if (o && res) *res = o->res;
    if (o && tex) *tex = o->tex;
    pthread_mutex_unlock(&lock);
    return o ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CD_EXPORT CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUtexObject texObject) {
    return pResDesc ? descs(texObject, false, pResDesc, NULL) : CUDA_ERROR_INVALID_VALUE;
}

CD_EXPORT CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *pTexDesc, CUtexObject texObject) {
    return pTexDesc ? descs(texObject, false, NULL, pTexDesc) : CUDA_ERROR_INVALID_VALUE;
}

CD_EXPORT CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUsurfObject surfObject) {
    return pResDesc ? descs(surfObject, true, pResDesc, NULL) : CUDA_ERROR_INVALID_VALUE;
}

/* The context's memory is gone: its arrays and objects with it. */
void cd_arrays_forget(ptxi_ctx *c) {
    pthread_mutex_lock(&lock);
    for (struct CUarray_st **q = &arrays; *q;) {
        struct CUarray_st *a = *q;
        if (a->ctx == c) {
            *q = a->next;
            free(a);
        } else {
            q = &a->next;
        }
    }
    for (tex_obj **q = &objects; *q;) {
        tex_obj *o = *q;
        if (o->ctx == c) {
            *q = o->next;
            free(o);
        } else {
            q = &o->next;
        }
    }
    pthread_mutex_unlock(&lock);
}
