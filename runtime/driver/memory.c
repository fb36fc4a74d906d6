/* memory.c — device, host, managed and pitched memory, copies and sets of every
 * form, pointer attributes and memory pools. Device pointers are host addresses
 * inside ptxi's arena, so every copy is a checked memcpy: a device side must lie
 * inside one live allocation of the context. Work on a stream runs when issued,
 * so the async forms are the blocking ones after their stream argument is checked. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"

enum { KIND_DEVICE, KIND_HOST, KIND_MANAGED, KIND_REGISTERED };

/* Allocations that are not plain device memory, by base address (driver-made ones;
 * the runtime's cudaMallocHost memory reads as device memory here). */
typedef struct host_alloc {
    uint64_t base;
    size_t size;
    int kind;
    unsigned flags;
    ptxi_ctx *ctx;
    struct host_alloc *next;
} host_alloc;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static host_alloc *allocs;

static void note(ptxi_ctx *ctx, uint64_t base, size_t size, int kind, unsigned flags) {
    host_alloc *a = malloc(sizeof *a);
    if (!a) return; /* the memory then reads as device memory */
    pthread_mutex_lock(&lock);
    *a = (host_alloc){base, size, kind, flags, ctx, allocs};
    allocs = a;
    pthread_mutex_unlock(&lock);
}

/* The note on the allocation holding p (copied out), removing it when `take`. */
static bool find_note(uint64_t p, bool take, host_alloc *out) {
    pthread_mutex_lock(&lock);
    host_alloc **q = &allocs;
    while (*q && !(p >= (*q)->base && p < (*q)->base + ((*q)->size ? (*q)->size : 1))) q = &(*q)->next;
    host_alloc *a = *q;
    if (a) {
        if (out) *out = *a;
        if (take) *q = a->next;
    }
    pthread_mutex_unlock(&lock);
    if (a && take) free(a);
    return a != NULL;
}

/* The context's memory is gone (destroyed, or the primary context reset). */
void cd_memory_forget(ptxi_ctx *c) {
    pthread_mutex_lock(&lock);
    for (host_alloc **q = &allocs; *q;) {
        host_alloc *a = *q;
        if (a->ctx == c) {
            *q = a->next;
            free(a);
        } else {
            q = &a->next;
        }
    }
    pthread_mutex_unlock(&lock);
}

/* ---- allocation ---- */

CD_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize) {
    CD_CTX(ctx);
    if (!dptr || !bytesize) return CUDA_ERROR_INVALID_VALUE;
    ptxi_dptr p = 0;
    CUresult r = cd_map(ptxi_mem_alloc(ctx, bytesize, &p));
    *dptr = (CUdeviceptr)p;
    return r;
}

CD_EXPORT CUresult cuMemFree_v2(CUdeviceptr dptr) {
    CD_CTX(ctx);
    if (!dptr) return CUDA_SUCCESS;
    int graph = cd_graph_mem_free(dptr);
    if (graph >= 0) return (CUresult)graph;
    host_alloc a;
    if (find_note(dptr, false, &a) && (a.kind == KIND_HOST || a.kind == KIND_REGISTERED))
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = cd_map(ptxi_mem_free(ctx, dptr));
    if (r == CUDA_SUCCESS) find_note(dptr, true, NULL);
    return r;
}

/* Rows aligned as an H100 aligns them (cuMemAllocPitch: 512 bytes, the texture pitch alignment). */
CD_EXPORT CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes, size_t Height,
                                      unsigned int ElementSizeBytes) {
    if (!dptr || !pPitch || !WidthInBytes || !Height ||
        (ElementSizeBytes != 4 && ElementSizeBytes != 8 && ElementSizeBytes != 16))
        return CUDA_ERROR_INVALID_VALUE;
    size_t pitch = (WidthInBytes + 511) & ~(size_t)511;
    CUresult r = cuMemAlloc_v2(dptr, pitch * Height);
    if (r == CUDA_SUCCESS) *pPitch = pitch;
    return r;
}

CD_EXPORT CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags) {
    CD_CTX(ctx);
    if (!dptr || !bytesize || (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST))
        return CUDA_ERROR_INVALID_VALUE;
    ptxi_dptr p = 0;
    CUresult r = cd_map(ptxi_mem_alloc_managed(ctx, bytesize, &p));
    if (r == CUDA_SUCCESS) note(ctx, p, bytesize, KIND_MANAGED, flags);
    *dptr = (CUdeviceptr)p;
    return r;
}

/* Page-locked host memory is memory both sides reach: managed memory of the arena. */
CD_EXPORT CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags) {
    CD_CTX(ctx);
    if (!pp || !bytesize ||
        Flags & ~(unsigned)(CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_WRITECOMBINED))
        return CUDA_ERROR_INVALID_VALUE;
    ptxi_dptr p = 0;
    CUresult r = cd_map(ptxi_mem_alloc_managed(ctx, bytesize, &p));
    if (r == CUDA_SUCCESS) note(ctx, p, bytesize, KIND_HOST, Flags);
    *pp = (void *)(uintptr_t)p;
    return r;
}

CD_EXPORT CUresult cuMemAllocHost_v2(void **pp, size_t bytesize) { return cuMemHostAlloc(pp, bytesize, 0); }

CD_EXPORT CUresult cuMemFreeHost(void *p) {
    CD_CTX(ctx);
    host_alloc a;
    if (!p || !find_note((uint64_t)(uintptr_t)p, false, &a) || a.kind != KIND_HOST || a.base != (uint64_t)(uintptr_t)p)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = cd_map(ptxi_mem_free(ctx, a.base));
    if (r == CUDA_SUCCESS) find_note(a.base, true, NULL);
    return r;
}

CD_EXPORT CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags) {
    CD_CTX(ctx);
    (void)ctx;
    host_alloc a;
    if (!pdptr || !p || Flags || !find_note((uint64_t)(uintptr_t)p, false, &a) ||
        (a.kind != KIND_HOST && a.kind != KIND_REGISTERED))
        return CUDA_ERROR_INVALID_VALUE;
    *pdptr = (CUdeviceptr)(uintptr_t)p; /* unified addressing: the same address */
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuMemHostGetFlags(unsigned int *pFlags, void *p) {
    CD_CTX(ctx);
    (void)ctx;
    host_alloc a;
    if (!pFlags || !find_note((uint64_t)(uintptr_t)p, false, &a) || (a.kind != KIND_HOST && a.kind != KIND_REGISTERED))
        return CUDA_ERROR_INVALID_VALUE;
    *pFlags = a.flags | CU_MEMHOSTALLOC_DEVICEMAP;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags) {
    CD_CTX(ctx);
    if (!p || !bytesize) return CUDA_ERROR_INVALID_VALUE;
    if (find_note((uint64_t)(uintptr_t)p, false, NULL)) return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    CUresult r = cd_map(ptxi_mem_register_host(ctx, p, bytesize));
    if (r == CUDA_SUCCESS) note(ctx, (uint64_t)(uintptr_t)p, bytesize, KIND_REGISTERED, Flags);
    return r;
}
CD_ALIAS(cuMemHostRegister, cuMemHostRegister_v2);

CD_EXPORT CUresult cuMemHostUnregister(void *p) {
    CD_CTX(ctx);
    host_alloc a;
    if (!p || !find_note((uint64_t)(uintptr_t)p, false, &a) || a.kind != KIND_REGISTERED ||
        a.base != (uint64_t)(uintptr_t)p)
        return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
    CUresult r = cd_map(ptxi_mem_unregister_host(ctx, p));
    if (r == CUDA_SUCCESS) find_note(a.base, true, NULL);
    return r;
}

CD_EXPORT CUresult cuMemGetInfo_v2(size_t *free, size_t *total) {
    CD_CTX(ctx);
    if (!free || !total) return CUDA_ERROR_INVALID_VALUE;
    return cd_map(ptxi_mem_get_info(ctx, free, total));
}

CD_EXPORT CUresult cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr) {
    CD_CTX(ctx);
    ptxi_dptr base;
    size_t size;
    if (ptxi_mem_get_range(ctx, dptr, &base, &size) != PTXI_SUCCESS) return CUDA_ERROR_NOT_FOUND;
    if (pbase) *pbase = (CUdeviceptr)base;
    if (psize) *psize = size;
    return CUDA_SUCCESS;
}

/* ---- copies ---- */

/* [p, p+n) inside one allocation of ctx's arena, or inside registered host memory. */
static bool device_span(ptxi_ctx *ctx, uint64_t p, size_t n) {
    ptxi_dptr base;
    size_t size;
    host_alloc a;
    if (ptxi_mem_get_range(ctx, p, &base, &size) != PTXI_SUCCESS) {
        if (!find_note(p, false, &a) || a.kind != KIND_REGISTERED) return false;
        base = a.base, size = a.size;
    }
    return p - base <= size && n <= size - (p - base);
}

static bool is_device(ptxi_ctx *ctx, uint64_t p) { return device_span(ctx, p, 0); }

/* A strided copy of depth × height rows of `width` bytes; a device side is checked
 * as one span from its first byte to its last. Flushes printf output first and
 * answers a sticky fault, as a blocking copy does on a GPU. */
typedef struct side {
    uint8_t *p;
    size_t pitch, slice; /* bytes between rows, between slices */
    bool device;
} side;

static CUresult copy3d(ptxi_ctx *ctx, side dst, side src, size_t width, size_t height, size_t depth) {
    ptxi_status st = ptxi_ctx_synchronize(ctx);
    if (st != PTXI_SUCCESS) return cd_map(st);
    if (!width || !height || !depth) return CUDA_SUCCESS;
    const side *sides[2] = {&dst, &src};
    for (int i = 0; i < 2; i++) {
        const side *s = sides[i];
        if (!s->p) return CUDA_ERROR_INVALID_VALUE;
        if (height > 1 && s->pitch < width) return CUDA_ERROR_INVALID_VALUE;
        size_t span = (depth - 1) * s->slice + (height - 1) * s->pitch + width;
        if (s->device && !device_span(ctx, (uint64_t)(uintptr_t)s->p, span)) return CUDA_ERROR_INVALID_VALUE;
    }
    for (size_t z = 0; z < depth; z++)
        for (size_t y = 0; y < height; y++) {
            const uint8_t *from = src.p + z * src.slice + y * src.pitch;
            if (src.device) ptxi_mem_host_read(ctx, (ptxi_dptr)(uintptr_t)from, width);
            memmove(dst.p + z * dst.slice + y * dst.pitch, from, width);
            if (dst.device) ptxi_mem_wrote(ctx, (ptxi_dptr)(uintptr_t)(dst.p + z * dst.slice + y * dst.pitch), width);
        }
    return CUDA_SUCCESS;
}

static side linear(const void *p, bool device) { return (side){(uint8_t *)(uintptr_t)p, 0, 0, device}; }

CD_EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount) {
    CD_CTX(ctx);
    return copy3d(ctx, linear((void *)(uintptr_t)dstDevice, true), linear(srcHost, false), ByteCount, 1, 1);
}

CD_EXPORT CUresult cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount) {
    CD_CTX(ctx);
    return copy3d(ctx, linear(dstHost, false), linear((void *)(uintptr_t)srcDevice, true), ByteCount, 1, 1);
}

CD_EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount) {
    CD_CTX(ctx);
    return copy3d(ctx, linear((void *)(uintptr_t)dstDevice, true), linear((void *)(uintptr_t)srcDevice, true),
                  ByteCount, 1, 1);
}

/* Unified addressing: each side is device memory when the context's arena holds it. */
CD_EXPORT CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount) {
    CD_CTX(ctx);
    return copy3d(ctx, linear((void *)(uintptr_t)dst, is_device(ctx, dst)),
                  linear((void *)(uintptr_t)src, is_device(ctx, src)), ByteCount, 1, 1);
}

/* Work on a capturing stream becomes a graph node. */
#define CAPTURED(stream, capture)                                       \
    do {                                                                \
        ptxi_stream *c_;                                                \
        if (cd_stream(stream, &c_) && cd_capturing(c_)) return capture; \
    } while (0)

#define ASYNC(call, stream)                                            \
    do {                                                               \
        ptxi_stream *s_;                                               \
        if (!cd_stream(stream, &s_)) return CUDA_ERROR_INVALID_HANDLE; \
        if (cd_capturing(s_)) return cd_capture_refuse(s_);            \
        return call;                                                   \
    } while (0)

CD_EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount,
                                        CUstream hStream) {
    CAPTURED(hStream, cd_capture_copy(c_, (void *)(uintptr_t)dstDevice, srcHost, ByteCount, 1));
    ASYNC(cuMemcpyHtoD_v2(dstDevice, srcHost, ByteCount), hStream);
}
CD_EXPORT CUresult cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream) {
    CAPTURED(hStream, cd_capture_copy(c_, dstHost, (const void *)(uintptr_t)srcDevice, ByteCount, 2));
    ASYNC(cuMemcpyDtoH_v2(dstHost, srcDevice, ByteCount), hStream);
}
CD_EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                                        CUstream hStream) {
    CAPTURED(hStream,
             cd_capture_copy(c_, (void *)(uintptr_t)dstDevice, (const void *)(uintptr_t)srcDevice, ByteCount, 3));
    ASYNC(cuMemcpyDtoD_v2(dstDevice, srcDevice, ByteCount), hStream);
}
CD_EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream) {
    CAPTURED(hStream, cd_capture_copy(c_, (void *)(uintptr_t)dst, (const void *)(uintptr_t)src, ByteCount, 4));
    ASYNC(cuMemcpy(dst, src, ByteCount), hStream);
}

CD_EXPORT CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                CUcontext srcContext, size_t ByteCount) {
    if (!cd_ctx_valid(CTX(dstContext)) || !cd_ctx_valid(CTX(srcContext))) return CUDA_ERROR_INVALID_CONTEXT;
    side d = linear((void *)(uintptr_t)dstDevice, true);
    side s = linear((void *)(uintptr_t)srcDevice, true);
    if (!device_span(CTX(dstContext), dstDevice, ByteCount) || !device_span(CTX(srcContext), srcDevice, ByteCount))
        return CUDA_ERROR_INVALID_VALUE;
    d.device = s.device = false; /* checked against their own contexts above */
    return copy3d(CTX(dstContext), d, s, ByteCount, 1, 1);
}

CD_EXPORT CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                     CUcontext srcContext, size_t ByteCount, CUstream hStream) {
    ASYNC(cuMemcpyPeer(dstDevice, dstContext, srcDevice, srcContext, ByteCount), hStream);
}

/* One side of a CUDA_MEMCPY2D/3D, at byte column x, row y, slice z; a CUDA array
 * side must hold the width × height × depth copied from there. */
static CUresult side_of(ptxi_ctx *ctx, CUmemorytype type, const void *host, CUdeviceptr dev, CUarray array, size_t x,
                        size_t y, size_t z, size_t pitch, size_t height, size_t w, size_t h, size_t d, side *out) {
    uint8_t *base;
    bool device;
    switch (type) {
    case CU_MEMORYTYPE_HOST: base = (uint8_t *)(uintptr_t)host, device = false; break;
    case CU_MEMORYTYPE_DEVICE: base = (uint8_t *)(uintptr_t)dev, device = true; break;
    case CU_MEMORYTYPE_UNIFIED: base = (uint8_t *)(uintptr_t)dev, device = is_device(ctx, dev); break;
    case CU_MEMORYTYPE_ARRAY: {
        cd_array_layout a;
        if (!cd_array_get(array, &a)) return CUDA_ERROR_INVALID_VALUE;
        if (x + w > a.pitch || y + h > a.rows || z + d > a.slices) return CUDA_ERROR_INVALID_VALUE;
        base = (uint8_t *)(uintptr_t)a.base, device = true, pitch = a.pitch, height = a.rows;
        break;
    }
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    if (!base) return CUDA_ERROR_INVALID_VALUE;
    *out = (side){base + z * pitch * height + y * pitch + x, pitch, pitch * height, device};
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *p) {
    CD_CTX(ctx);
    if (!p) return CUDA_ERROR_INVALID_VALUE;
    side d, s;
    CUresult r = side_of(ctx, p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes, p->dstY, 0,
                         p->dstPitch, 0, p->WidthInBytes, p->Height, 1, &d);
    if (r == CUDA_SUCCESS)
        r = side_of(ctx, p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes, p->srcY, 0,
                    p->srcPitch, 0, p->WidthInBytes, p->Height, 1, &s);
    return r == CUDA_SUCCESS ? copy3d(ctx, d, s, p->WidthInBytes, p->Height, 1) : r;
}
CD_ALIAS(cuMemcpy2DUnaligned_v2, cuMemcpy2D_v2);

CD_EXPORT CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *p, CUstream hStream) {
    if (p) {
        CUDA_MEMCPY3D c = {0};
        c.srcXInBytes = p->srcXInBytes, c.srcY = p->srcY, c.srcMemoryType = p->srcMemoryType;
        c.srcHost = p->srcHost, c.srcDevice = p->srcDevice, c.srcArray = p->srcArray, c.srcPitch = p->srcPitch;
        c.dstXInBytes = p->dstXInBytes, c.dstY = p->dstY, c.dstMemoryType = p->dstMemoryType;
        c.dstHost = p->dstHost, c.dstDevice = p->dstDevice, c.dstArray = p->dstArray, c.dstPitch = p->dstPitch;
        c.WidthInBytes = p->WidthInBytes, c.Height = p->Height, c.Depth = 1;
        CAPTURED(hStream, cd_capture_copy3d(c_, &c));
    }
    ASYNC(cuMemcpy2D_v2(p), hStream);
}

CD_EXPORT CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *p) {
    CD_CTX(ctx);
    if (!p || p->srcLOD || p->dstLOD || p->reserved0 || p->reserved1) return CUDA_ERROR_INVALID_VALUE;
    side d, s;
    CUresult r = side_of(ctx, p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes, p->dstY, p->dstZ,
                         p->dstPitch, p->dstHeight, p->WidthInBytes, p->Height, p->Depth, &d);
    if (r == CUDA_SUCCESS)
        r = side_of(ctx, p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes, p->srcY, p->srcZ,
                    p->srcPitch, p->srcHeight, p->WidthInBytes, p->Height, p->Depth, &s);
    if (r != CUDA_SUCCESS) return r;
    if (p->Depth > 1 && ((p->dstMemoryType != CU_MEMORYTYPE_ARRAY && p->dstHeight < p->Height) ||
                         (p->srcMemoryType != CU_MEMORYTYPE_ARRAY && p->srcHeight < p->Height)))
        return CUDA_ERROR_INVALID_VALUE;
    return copy3d(ctx, d, s, p->WidthInBytes, p->Height, p->Depth);
}

CD_EXPORT CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *p, CUstream hStream) {
    CAPTURED(hStream, cd_capture_copy3d(c_, p));
    ASYNC(cuMemcpy3D_v2(p), hStream);
}

/* ---- sets ---- */

/* Writes `count` elements of `size` bytes in each of `height` rows `pitch` apart. */
static CUresult set2d(CUdeviceptr dst, size_t pitch, uint32_t value, unsigned size, size_t count, size_t height) {
    CD_CTX(ctx);
    ptxi_status st = ptxi_ctx_synchronize(ctx);
    if (st != PTXI_SUCCESS) return cd_map(st);
    if (!count || !height) return CUDA_SUCCESS;
    if (dst % size || (height > 1 && pitch < count * size)) return CUDA_ERROR_INVALID_VALUE;
    if (!device_span(ctx, dst, (height - 1) * pitch + count * size)) return CUDA_ERROR_INVALID_VALUE;
    for (size_t y = 0; y < height; y++) {
        uint8_t *row = (uint8_t *)(uintptr_t)(dst + y * pitch);
        if (size == 1) memset(row, (int)value, count);
        for (size_t i = 0; size == 2 && i < count; i++) ((uint16_t *)row)[i] = (uint16_t)value;
        for (size_t i = 0; size == 4 && i < count; i++) ((uint32_t *)row)[i] = value;
        ptxi_mem_wrote(ctx, (ptxi_dptr)(uintptr_t)row, count * size);
    }
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N) {
    return set2d(dstDevice, 0, uc, 1, N, 1);
}
CD_EXPORT CUresult cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N) {
    return set2d(dstDevice, 0, us, 2, N, 1);
}
CD_EXPORT CUresult cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N) {
    return set2d(dstDevice, 0, ui, 4, N, 1);
}
CD_EXPORT CUresult cuMemsetD2D8_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width,
                                   size_t Height) {
    return set2d(dstDevice, dstPitch, uc, 1, Width, Height);
}
CD_EXPORT CUresult cuMemsetD2D16_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width,
                                    size_t Height) {
    return set2d(dstDevice, dstPitch, us, 2, Width, Height);
}
CD_EXPORT CUresult cuMemsetD2D32_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width,
                                    size_t Height) {
    return set2d(dstDevice, dstPitch, ui, 4, Width, Height);
}
CD_EXPORT CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream) {
    CAPTURED(hStream, cd_capture_set(c_, dstDevice, 0, uc, 1, N, 1));
    ASYNC(cuMemsetD8_v2(dstDevice, uc, N), hStream);
}
CD_EXPORT CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream) {
    CAPTURED(hStream, cd_capture_set(c_, dstDevice, 0, us, 2, N, 1));
    ASYNC(cuMemsetD16_v2(dstDevice, us, N), hStream);
}
CD_EXPORT CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream) {
    CAPTURED(hStream, cd_capture_set(c_, dstDevice, 0, ui, 4, N, 1));
    ASYNC(cuMemsetD32_v2(dstDevice, ui, N), hStream);
}
CD_EXPORT CUresult cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width,
                                     size_t Height, CUstream hStream) {
    CAPTURED(hStream, cd_capture_set(c_, dstDevice, dstPitch, uc, 1, Width, Height));
    ASYNC(cuMemsetD2D8_v2(dstDevice, dstPitch, uc, Width, Height), hStream);
}
CD_EXPORT CUresult cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width,
                                      size_t Height, CUstream hStream) {
    CAPTURED(hStream, cd_capture_set(c_, dstDevice, dstPitch, us, 2, Width, Height));
    ASYNC(cuMemsetD2D16_v2(dstDevice, dstPitch, us, Width, Height), hStream);
}
CD_EXPORT CUresult cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width,
                                      size_t Height, CUstream hStream) {
    CAPTURED(hStream, cd_capture_set(c_, dstDevice, dstPitch, ui, 4, Width, Height));
    ASYNC(cuMemsetD2D32_v2(dstDevice, dstPitch, ui, Width, Height), hStream);
}

/* The per-thread-default-stream forms are the same functions: work runs when issued. */
CD_ALIAS(cuMemcpyHtoD_v2_ptds, cuMemcpyHtoD_v2);
CD_ALIAS(cuMemcpyDtoH_v2_ptds, cuMemcpyDtoH_v2);
CD_ALIAS(cuMemcpyDtoD_v2_ptds, cuMemcpyDtoD_v2);
CD_ALIAS(cuMemcpy_ptds, cuMemcpy);
CD_ALIAS(cuMemcpyPeer_ptds, cuMemcpyPeer);
CD_ALIAS(cuMemcpy2D_v2_ptds, cuMemcpy2D_v2);
CD_ALIAS(cuMemcpy2DUnaligned_v2_ptds, cuMemcpy2D_v2);
CD_ALIAS(cuMemcpy3D_v2_ptds, cuMemcpy3D_v2);
CD_ALIAS(cuMemcpyHtoDAsync_v2_ptsz, cuMemcpyHtoDAsync_v2);
CD_ALIAS(cuMemcpyDtoHAsync_v2_ptsz, cuMemcpyDtoHAsync_v2);
CD_ALIAS(cuMemcpyDtoDAsync_v2_ptsz, cuMemcpyDtoDAsync_v2);
CD_ALIAS(cuMemcpyAsync_ptsz, cuMemcpyAsync);
CD_ALIAS(cuMemcpyPeerAsync_ptsz, cuMemcpyPeerAsync);
CD_ALIAS(cuMemcpy2DAsync_v2_ptsz, cuMemcpy2DAsync_v2);
CD_ALIAS(cuMemcpy3DAsync_v2_ptsz, cuMemcpy3DAsync_v2);
CD_ALIAS(cuMemsetD8_v2_ptds, cuMemsetD8_v2);
CD_ALIAS(cuMemsetD16_v2_ptds, cuMemsetD16_v2);
CD_ALIAS(cuMemsetD32_v2_ptds, cuMemsetD32_v2);
CD_ALIAS(cuMemsetD2D8_v2_ptds, cuMemsetD2D8_v2);
CD_ALIAS(cuMemsetD2D16_v2_ptds, cuMemsetD2D16_v2);
CD_ALIAS(cuMemsetD2D32_v2_ptds, cuMemsetD2D32_v2);
CD_ALIAS(cuMemsetD8Async_ptsz, cuMemsetD8Async);
CD_ALIAS(cuMemsetD16Async_ptsz, cuMemsetD16Async);
CD_ALIAS(cuMemsetD32Async_ptsz, cuMemsetD32Async);
CD_ALIAS(cuMemsetD2D8Async_ptsz, cuMemsetD2D8Async);
CD_ALIAS(cuMemsetD2D16Async_ptsz, cuMemsetD2D16Async);
CD_ALIAS(cuMemsetD2D32Async_ptsz, cuMemsetD2D32Async);

/* ---- pointer attributes ---- */

/* One attribute of ptr into data (whose size the attribute fixes). */
static CUresult pointer_attr(ptxi_ctx *ctx, void *data, CUpointer_attribute attribute, CUdeviceptr ptr) {
    ptxi_dptr base = 0;
    size_t size = 0;
    host_alloc a;
    bool noted = find_note(ptr, false, &a);
    bool ours = ptxi_mem_get_range(ctx, ptr, &base, &size) == PTXI_SUCCESS;
    if (noted && !ours) base = a.base, size = a.size, ours = true;
    int kind = noted ? a.kind : ptxi_mem_is_managed_var(ctx, ptr) ? KIND_MANAGED : KIND_DEVICE;
    if (!ours && attribute != CU_POINTER_ATTRIBUTE_IS_MANAGED && attribute != CU_POINTER_ATTRIBUTE_MAPPED)
        return CUDA_ERROR_INVALID_VALUE;
    switch (attribute) {
    case CU_POINTER_ATTRIBUTE_CONTEXT: {
        ptxi_ctx *owner = noted ? NULL : ptxi_mem_get_context(ctx, ptr); /* another context's memory (unified addressing) */
        *(CUcontext *)data = (CUcontext)(owner ? owner : ctx);
        break;
    }
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        *(unsigned *)data = kind == KIND_HOST || kind == KIND_REGISTERED ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
        break;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER: *(CUdeviceptr *)data = ptr; break;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        if (kind == KIND_DEVICE) return CUDA_ERROR_INVALID_VALUE;
        *(void **)data = (void *)(uintptr_t)ptr;
        break;
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: *(int *)data = 1; break;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID: *(unsigned long long *)data = base; break;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED: *(int *)data = ours && kind == KIND_MANAGED; break;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *(int *)data = 0; break;
    case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE: *(int *)data = 0; break;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: *(CUdeviceptr *)data = base; break;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE: *(size_t *)data = size; break;
    case CU_POINTER_ATTRIBUTE_MAPPED: *(int *)data = ours; break;
    case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES: *(unsigned long long *)data = 0; break;
    case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE: *(int *)data = 0; break;
    case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS: *(unsigned *)data = CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE; break;
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE: *(CUmemoryPool *)data = NULL; break;
    case CU_POINTER_ATTRIBUTE_MAPPING_SIZE: *(size_t *)data = size; break;
    case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR: *(void **)data = (void *)(uintptr_t)base; break;
    case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID: *(unsigned long long *)data = base; break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr) {
    CD_CTX(ctx);
    if (!data) return CUDA_ERROR_INVALID_VALUE;
    return pointer_attr(ctx, data, attribute, ptr);
}

/* As on a GPU, a pointer ptxi does not know is no error here: its memory type reads
 * 0 and its other attributes zero. */
CD_EXPORT CUresult cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes, void **data,
                                          CUdeviceptr ptr) {
    CD_CTX(ctx);
    if (!attributes || !data) return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < numAttributes; i++) {
        if (!data[i]) return CUDA_ERROR_INVALID_VALUE;
        if (pointer_attr(ctx, data[i], attributes[i], ptr) == CUDA_SUCCESS) continue;
        switch (attributes[i]) {
        case CU_POINTER_ATTRIBUTE_CONTEXT: *(CUcontext *)data[i] = NULL; break;
        case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
        case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: *(CUdeviceptr *)data[i] = 0; break;
        case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR: *(void **)data[i] = NULL; break;
        case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *(int *)data[i] = -2; break;
        case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
        case CU_POINTER_ATTRIBUTE_MAPPING_SIZE: *(size_t *)data[i] = 0; break;
        case CU_POINTER_ATTRIBUTE_BUFFER_ID:
        case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
        case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID: *(unsigned long long *)data[i] = 0; break;
        case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE: *(void **)data[i] = NULL; break;
        default: *(unsigned *)data[i] = 0; break;
        }
    }
    return CUDA_SUCCESS;
}

/* Managed memory is the host's own here: prefetches and advice have nothing to move. */
CD_EXPORT CUresult cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags,
                                         CUstream hStream) {
    (void)location, (void)flags;
    CD_CTX(ctx);
    ptxi_stream *s;
    if (!cd_stream(hStream, &s)) return CUDA_ERROR_INVALID_HANDLE;
    return device_span(ctx, devPtr, count) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
CD_ALIAS(cuMemPrefetchAsync_v2_ptsz, cuMemPrefetchAsync_v2);

CD_EXPORT CUresult cuMemAdvise_v2(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUmemLocation location) {
    (void)advice, (void)location;
    CD_CTX(ctx);
    return device_span(ctx, devPtr, count) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
