/* memory.c — device, managed and page-locked host memory, copies and sets (1D, 2D,
 * to and from symbols). Page-locked host memory is taken from ptxi's managed memory so
 * that kernels may reach it, as mapped memory is reached on a GPU with unified addressing. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cudart_internal.h"

/* KIND_REGISTERED: the program's own memory, registered with cudaHostRegister. */
enum { KIND_DEVICE, KIND_HOST, KIND_MANAGED, KIND_REGISTERED };

static pthread_mutex_t kinds_lock = PTHREAD_MUTEX_INITIALIZER;
static cr_ptrmap kinds; /* base -> KIND_x + 1 (absent: device or not ours) */

typedef struct registered {
    uintptr_t base;
    size_t size;
    unsigned flags;
    struct registered *next;
} registered;
static registered *regs; /* under kinds_lock */

static registered **find_registered(const void *p) {
    registered **r = &regs;
    while (*r && !((uintptr_t)p >= (*r)->base && (uintptr_t)p < (*r)->base + (*r)->size)) r = &(*r)->next;
    return r;
}

static void set_kind(ptxi_dptr base, int kind) {
    pthread_mutex_lock(&kinds_lock);
    cr_map_put(&kinds, (void *)(uintptr_t)base, kind ? (void *)(uintptr_t)(kind + 1) : NULL);
    pthread_mutex_unlock(&kinds_lock);
}

/* -1: the program's own host memory; KIND_REGISTERED: the same, registered; else
 * ptxi memory of kind KIND_x. */
static int kind_of(const void *p, ptxi_dptr *base, size_t *bytes) {
    ptxi_dptr b;
    size_t n;
    if (!p) return -1;
    if (ptxi_mem_get_range(cr_ctx(), (ptxi_dptr)(uintptr_t)p, &b, &n) != PTXI_SUCCESS) {
        pthread_mutex_lock(&kinds_lock);
        bool reg = *find_registered(p) != NULL;
        pthread_mutex_unlock(&kinds_lock);
        return reg ? KIND_REGISTERED : -1;
    }
    if (base) *base = b;
    if (bytes) *bytes = n;
    pthread_mutex_lock(&kinds_lock);
    uintptr_t k = (uintptr_t)cr_map_get(&kinds, (void *)(uintptr_t)b);
    pthread_mutex_unlock(&kinds_lock);
    return k ? (int)k - 1 : KIND_DEVICE;
}

static cudaError_t alloc(void **p, size_t size, int kind) {
    CR_ENTER();
    if (!p) return cr_ret(cudaErrorInvalidValue);
    *p = NULL;
    if (!size) return cudaSuccess;
    ptxi_dptr d;
    ptxi_status s = kind == KIND_DEVICE ? ptxi_mem_alloc(cr_ctx(), size, &d) : ptxi_mem_alloc_managed(cr_ctx(), size, &d);
    if (s != PTXI_SUCCESS) return cr_st(s);
    set_kind(d, kind);
    *p = (void *)(uintptr_t)d;
    return cudaSuccess;
}

static cudaError_t release(void *p, int want) {
    CR_ENTER();
    if (!p) return cudaSuccess;
    int graph = want == KIND_DEVICE ? cr_graph_mem_free(p) : -1;
    if (graph >= 0) return graph ? cr_ret((cudaError_t)graph) : cudaSuccess;
    ptxi_dptr base;
    int kind = kind_of(p, &base, NULL);
    if (kind < 0 || kind == KIND_REGISTERED || base != (ptxi_dptr)(uintptr_t)p ||
        (want == KIND_HOST) != (kind == KIND_HOST))
        return cr_ret(cudaErrorInvalidValue);
    ptxi_status s = ptxi_ctx_synchronize(cr_ctx()); /* cudaFree waits for the device */
    if (s == PTXI_SUCCESS) s = ptxi_mem_free(cr_ctx(), base);
    if (s == PTXI_SUCCESS) set_kind(base, KIND_DEVICE);
    return cr_st(s);
}

CR_EXPORT cudaError_t cudaMalloc(void **devPtr, size_t size) {
    CR_NAME();
    return alloc(devPtr, size, KIND_DEVICE);
}
CR_EXPORT cudaError_t cudaFree(void *devPtr) {
    CR_NAME();
    return release(devPtr, KIND_DEVICE);
}
CR_EXPORT cudaError_t cudaMallocHost(void **ptr, size_t size) {
    CR_NAME();
    return alloc(ptr, size, KIND_HOST);
}
CR_EXPORT cudaError_t cudaFreeHost(void *ptr) {
    CR_NAME();
    return release(ptr, KIND_HOST);
}

CR_EXPORT cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags) {
    CR_NAME();
    (void)flags;
    return alloc(pHost, size, KIND_HOST);
}

CR_EXPORT cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags) {
    CR_NAME();
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost) return cr_ret(cudaErrorInvalidValue);
    return alloc(devPtr, size, KIND_MANAGED);
}

/* Stream-ordered allocation: device memory at once (work on a stream runs when
 * issued), tracked in its pool (libptxi's, shared with libcuda). */
CR_EXPORT cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
    if (cr_capturing(stream)) return cr_capture_alloc(ptr, size, stream);
    CR_STREAM_WORK(stream);
    if (!ptxi_mempool_valid((ptxi_mempool *)memPool)) return cr_ret(cudaErrorInvalidValue);
    cudaError_t e = alloc(ptr, size, KIND_DEVICE);
    if (e != cudaSuccess || !*ptr) return e;
    ptxi_status st = ptxi_mempool_track((ptxi_mempool *)memPool, cr_ctx(), (ptxi_dptr)(uintptr_t)*ptr, size);
    if (st != PTXI_SUCCESS) {
        release(*ptr, KIND_DEVICE);
        *ptr = NULL;
        return cr_st(st);
    }
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream) {
    return cudaMallocFromPoolAsync(devPtr, size, (cudaMemPool_t)ptxi_mempool_current(), hStream);
}

CR_EXPORT cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream) {
    CR_NAME();
    if (cr_capturing(hStream)) return cr_capture_free(devPtr, hStream);
    CR_STREAM_WORK(hStream);
    cudaError_t e = release(devPtr, KIND_DEVICE);
    if (e == cudaSuccess && devPtr) ptxi_mempool_untrack((ptxi_dptr)(uintptr_t)devPtr);
    return e;
}

/* Rows are padded to a multiple of 512 bytes, the pitch alignment of sm_90. */
CR_EXPORT cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height) {
    CR_NAME();
    if (!pitch) return cr_ret(cudaErrorInvalidValue);
    *pitch = (width + 511) & ~(size_t)511;
    return alloc(devPtr, *pitch * height, KIND_DEVICE);
}

CR_EXPORT cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags) {
    CR_ENTER();
    if (!pDevice || flags) return cr_ret(cudaErrorInvalidValue);
    int kind = kind_of(pHost, NULL, NULL);
    if (kind != KIND_HOST && kind != KIND_REGISTERED) return cr_ret(cudaErrorInvalidValue);
    *pDevice = pHost;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost) {
    CR_ENTER();
    int kind = pFlags ? kind_of(pHost, NULL, NULL) : -1;
    if (kind != KIND_HOST && kind != KIND_REGISTERED) return cr_ret(cudaErrorInvalidValue);
    *pFlags = cudaHostAllocMapped;
    if (kind == KIND_REGISTERED) {
        pthread_mutex_lock(&kinds_lock);
        *pFlags = (*find_registered(pHost))->flags | cudaHostRegisterMapped;
        pthread_mutex_unlock(&kinds_lock);
    }
    return cudaSuccess;
}

/* Page-locking changes nothing here, so copies from registered memory just work. ptxi
 * cannot let a kernel reach memory outside its arena: a kernel that dereferences
 * registered memory gets an illegal-address report. */
CR_EXPORT cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags) {
    CR_ENTER();
    if (!ptr || !size) return cr_ret(cudaErrorInvalidValue);
    if (kind_of(ptr, NULL, NULL) >= 0 || kind_of((char *)ptr + size - 1, NULL, NULL) >= 0)
        return cr_ret(cudaErrorHostMemoryAlreadyRegistered);
    registered *r = malloc(sizeof *r);
    if (!r) return cr_ret(cudaErrorMemoryAllocation);
    if (ptxi_mem_register_host(cr_ctx(), ptr, size) != PTXI_SUCCESS) { /* kernels may use it too */
        free(r);
        return cr_ret(cudaErrorHostMemoryAlreadyRegistered);
    }
    pthread_mutex_lock(&kinds_lock);
    *r = (registered){(uintptr_t)ptr, size, flags, regs};
    regs = r;
    pthread_mutex_unlock(&kinds_lock);
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaHostUnregister(void *ptr) {
    CR_ENTER();
    pthread_mutex_lock(&kinds_lock);
    registered **r = find_registered(ptr), *gone = *r;
    if (gone && gone->base == (uintptr_t)ptr) *r = gone->next;
    else gone = NULL;
    pthread_mutex_unlock(&kinds_lock);
    if (gone) ptxi_mem_unregister_host(cr_ctx(), ptr);
    free(gone);
    return gone ? cudaSuccess : cr_ret(cudaErrorHostMemoryNotRegistered);
}

CR_EXPORT cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes) {
    CR_ENTER();
    size_t f = 0, t = 0;
    ptxi_status s = ptxi_mem_get_info(cr_ctx(), &f, &t);
    if (free_bytes) *free_bytes = f;
    if (total_bytes) *total_bytes = t;
    return cr_st(s);
}

CR_EXPORT cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr) {
    CR_ENTER();
    if (!attributes) return cr_ret(cudaErrorInvalidValue);
    memset(attributes, 0, sizeof *attributes);
    int kind = kind_of(ptr, NULL, NULL);
    static const enum cudaMemoryType types[] = {cudaMemoryTypeDevice, cudaMemoryTypeHost, cudaMemoryTypeManaged,
                                                cudaMemoryTypeHost};
    attributes->type = kind < 0 ? cudaMemoryTypeUnregistered : types[kind];
    attributes->device = kind < 0 ? -2 : 0;
    attributes->devicePointer = kind < 0 ? NULL : (void *)ptr;
    attributes->hostPointer = kind == KIND_DEVICE ? NULL : (void *)ptr;
    return cudaSuccess;
}

/* ---- copies ---- */

/* cudaMemcpyDefault: the direction follows from where the pointers live. */
static enum cudaMemcpyKind resolve(enum cudaMemcpyKind kind, const void *dst, const void *src) {
    if (kind != cudaMemcpyDefault) return kind;
    int kd = kind_of(dst, NULL, NULL), ks = kind_of(src, NULL, NULL);
    bool d = kd >= 0 && kd != KIND_REGISTERED, s = ks >= 0 && ks != KIND_REGISTERED;
    return d ? (s ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
             : (s ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
}

static bool in_device(const void *p, size_t n) {
    ptxi_dptr base;
    size_t bytes;
    int kind = kind_of(p, &base, &bytes);
    return kind >= 0 && kind != KIND_REGISTERED && (ptxi_dptr)(uintptr_t)p + n <= base + bytes;
}

static ptxi_status copy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind) {
    ptxi_dptr d = (ptxi_dptr)(uintptr_t)dst, s = (ptxi_dptr)(uintptr_t)src;
    if (kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice) ptxi_mem_host_read(cr_ctx(), s, n);
    switch (kind) {
    case cudaMemcpyHostToDevice: return ptxi_memcpy_htod(cr_ctx(), d, src, n);
    case cudaMemcpyDeviceToHost: return ptxi_memcpy_dtoh(cr_ctx(), dst, s, n);
    case cudaMemcpyDeviceToDevice: return ptxi_memcpy_dtod(cr_ctx(), d, s, n);
    default: {
        ptxi_status st = ptxi_ctx_synchronize(cr_ctx());
        if (st == PTXI_SUCCESS) memmove(dst, src, n);
        if (st == PTXI_SUCCESS) ptxi_mem_wrote(cr_ctx(), d, n);
        return st;
    }
    }
}

static cudaError_t check_copy(void *dst, const void *src, size_t n, enum cudaMemcpyKind *kind) {
    if ((unsigned)*kind > cudaMemcpyDefault) return cudaErrorInvalidMemcpyDirection;
    if (!n) return cudaSuccess;
    if (!dst || !src) return cudaErrorInvalidValue;
    *kind = resolve(*kind, dst, src);
    bool dev_dst = *kind == cudaMemcpyHostToDevice || *kind == cudaMemcpyDeviceToDevice;
    bool dev_src = *kind == cudaMemcpyDeviceToHost || *kind == cudaMemcpyDeviceToDevice;
    if ((dev_dst && !in_device(dst, n)) || (dev_src && !in_device(src, n))) return cudaErrorInvalidValue;
    return cudaSuccess;
}

static cudaError_t memcpy_any(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
    CR_ENTER();
    CR_STREAM_WORK(0);
    cudaError_t e = check_copy(dst, src, count, &kind);
    if (e != cudaSuccess || !count) return cr_ret(e);
    return cr_st(copy(dst, src, count, kind));
}

/* A blocking copy waits for the device, so the host callbacks queued before it run. */
CR_EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
    CR_NAME();
    cudaError_t e = memcpy_any(dst, src, count, kind);
    if (e == cudaSuccess) cr_run_callbacks(NULL, ~0ul);
    return e;
}

/* Work runs in order, so an asynchronous copy is done by the time it returns. */
CR_EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                      cudaStream_t stream) {
    if (cr_capturing(stream)) return cr_capture_copy(dst, src, count, kind, stream);
    CR_STREAM_WORK(stream);
    return memcpy_any(dst, src, count, kind);
}

CR_EXPORT cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                   size_t height, enum cudaMemcpyKind kind) {
    CR_ENTER();
    CR_STREAM_WORK(0);
    if (!width || !height) return cudaSuccess;
    if (width > dpitch || width > spitch) return cr_ret(cudaErrorInvalidPitchValue);
    /* Direction from the first bytes, then the whole pitched spans must be in place. */
    cudaError_t e = check_copy(dst, src, width, &kind);
    size_t span_d = dpitch * (height - 1) + width, span_s = spitch * (height - 1) + width;
    bool dev_dst = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool dev_src = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if (e == cudaSuccess && ((dev_dst && !in_device(dst, span_d)) || (dev_src && !in_device(src, span_s))))
        e = cudaErrorInvalidValue;
    if (e != cudaSuccess) return cr_ret(e);
    for (size_t r = 0; r < height; r++) {
        ptxi_status s = copy((char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind);
        if (s != PTXI_SUCCESS) return cr_st(s);
    }
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                        size_t height, enum cudaMemcpyKind kind, cudaStream_t stream) {
    if (cr_capturing(stream)) {
        struct cudaMemcpy3DParms p = {0};
        p.srcPtr = (struct cudaPitchedPtr){(void *)src, spitch, width, height};
        p.dstPtr = (struct cudaPitchedPtr){dst, dpitch, width, height};
        p.extent = (struct cudaExtent){width, height, 1};
        p.kind = kind;
        return cr_capture_copy3d(&p, stream);
    }
    CR_STREAM_WORK(stream);
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

CR_EXPORT cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count) {
    if (dstDevice || srcDevice) return cr_ret(cudaErrorInvalidDevice);
    return cudaMemcpy(dst, src, count, cudaMemcpyDeviceToDevice);
}

CR_EXPORT cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                                          cudaStream_t stream) {
    CR_STREAM_WORK(stream);
    if (dstDevice || srcDevice) return cr_ret(cudaErrorInvalidDevice);
    return memcpy_any(dst, src, count, cudaMemcpyDeviceToDevice);
}

CR_EXPORT cudaError_t cudaMemset(void *devPtr, int value, size_t count) {
    CR_ENTER();
    CR_STREAM_WORK(0);
    if (!count) return cudaSuccess;
    if (!in_device(devPtr, count)) return cr_ret(cudaErrorInvalidValue);
    return cr_st(ptxi_memset_d8(cr_ctx(), (ptxi_dptr)(uintptr_t)devPtr, (uint8_t)value, count));
}

CR_EXPORT cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream) {
    if (cr_capturing(stream)) return cr_capture_set(devPtr, value, count, stream);
    CR_STREAM_WORK(stream);
    return cudaMemset(devPtr, value, count);
}

CR_EXPORT cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height) {
    CR_ENTER();
    CR_STREAM_WORK(0);
    if (!width || !height) return cudaSuccess;
    if (width > pitch) return cr_ret(cudaErrorInvalidPitchValue);
    if (!in_device(devPtr, pitch * (height - 1) + width)) return cr_ret(cudaErrorInvalidValue);
    for (size_t r = 0; r < height; r++) {
        ptxi_status s = ptxi_memset_d8(cr_ctx(), (ptxi_dptr)(uintptr_t)devPtr + r * pitch, (uint8_t)value, width);
        if (s != PTXI_SUCCESS) return cr_st(s);
    }
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                                        cudaStream_t stream) {
    if (cr_capturing(stream)) return cr_capture_set2d(devPtr, pitch, value, width, height, stream);
    CR_STREAM_WORK(stream);
    return cudaMemset2D(devPtr, pitch, value, width, height);
}

/* ---- pitched 3D linear memory (CUDA arrays are not implemented) ---- */

CR_EXPORT cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent) {
    CR_NAME();
    if (!pitchedDevPtr) return cr_ret(cudaErrorInvalidValue);
    size_t pitch = (extent.width + 511) & ~(size_t)511;
    void *p = NULL;
    cudaError_t e = alloc(&p, pitch * extent.height * extent.depth, KIND_DEVICE);
    if (e == cudaSuccess) *pitchedDevPtr = (struct cudaPitchedPtr){p, pitch, extent.width, extent.height};
    return e;
}

/* Byte address of (x bytes, y, z) in pitched memory. */
static char *at(struct cudaPitchedPtr p, size_t x, size_t y, size_t z) {
    return (char *)p.ptr + (z * p.ysize + y) * p.pitch + x;
}

CR_EXPORT cudaError_t cudaMemset3D(struct cudaPitchedPtr p, int value, struct cudaExtent extent) {
    CR_ENTER();
    CR_STREAM_WORK(0);
    if (!extent.width || !extent.height || !extent.depth) return cudaSuccess;
    if (extent.width > p.pitch) return cr_ret(cudaErrorInvalidValue);
    if (!in_device(p.ptr, (size_t)(at(p, extent.width, extent.height - 1, extent.depth - 1) - (char *)p.ptr)))
        return cr_ret(cudaErrorInvalidValue);
    for (size_t z = 0; z < extent.depth; z++)
        for (size_t y = 0; y < extent.height; y++) {
            ptxi_status s = ptxi_memset_d8(cr_ctx(), (ptxi_dptr)(uintptr_t)at(p, 0, y, z), (uint8_t)value, extent.width);
            if (s != PTXI_SUCCESS) return cr_st(s);
        }
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr p, int value, struct cudaExtent extent,
                                        cudaStream_t stream) {
    CR_STREAM_WORK(stream);
    return cudaMemset3D(p, value, extent);
}

CR_EXPORT cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p) {
    CR_ENTER();
    CR_STREAM_WORK(0);
    if (!p) return cr_ret(cudaErrorInvalidValue);
    struct cudaMemcpy3DParms q = *p;
    size_t esize = 1;
    /* a CUDA array is pitched memory whose positions and extent count elements */
    if ((p->srcArray && !cr_array_pitched(p->srcArray, &q.srcPtr, &esize)) ||
        (p->dstArray && !cr_array_pitched(p->dstArray, &q.dstPtr, &esize)))
        return cr_ret(cudaErrorInvalidResourceHandle);
    if (p->srcArray || p->dstArray) {
        q.extent.width *= esize;
        if (p->srcArray) q.srcPos.x *= esize;
        if (p->dstArray) q.dstPos.x *= esize;
        if (q.kind == cudaMemcpyDefault)
            q.kind = p->srcArray && p->dstArray ? cudaMemcpyDeviceToDevice : cudaMemcpyDefault;
    }
    p = &q;
    const struct cudaExtent e = p->extent;
    if (!e.width || !e.height || !e.depth) return cudaSuccess;
    if (p->srcPos.x + e.width > p->srcPtr.pitch || p->dstPos.x + e.width > p->dstPtr.pitch)
        return cr_ret(cudaErrorInvalidValue); /* not InvalidPitchValue as for 2D (recorded) */
    enum cudaMemcpyKind kind = p->kind;
    char *d0 = at(p->dstPtr, p->dstPos.x, p->dstPos.y, p->dstPos.z);
    const char *s0 = at(p->srcPtr, p->srcPos.x, p->srcPos.y, p->srcPos.z);
    cudaError_t err = check_copy(d0, s0, e.width, &kind);
    char *dl = at(p->dstPtr, p->dstPos.x + e.width, p->dstPos.y + e.height - 1, p->dstPos.z + e.depth - 1);
    const char *sl = at(p->srcPtr, p->srcPos.x + e.width, p->srcPos.y + e.height - 1, p->srcPos.z + e.depth - 1);
    bool dev_dst = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool dev_src = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if (err == cudaSuccess &&
        ((dev_dst && !in_device(d0, (size_t)(dl - d0))) || (dev_src && !in_device(s0, (size_t)(sl - s0)))))
        err = cudaErrorInvalidValue;
    if (err != cudaSuccess) return cr_ret(err);
    for (size_t z = 0; z < e.depth; z++)
        for (size_t y = 0; y < e.height; y++) {
            ptxi_status s = copy(at(p->dstPtr, p->dstPos.x, p->dstPos.y + y, p->dstPos.z + z),
                                 at(p->srcPtr, p->srcPos.x, p->srcPos.y + y, p->srcPos.z + z), e.width, kind);
            if (s != PTXI_SUCCESS) return cr_st(s);
        }
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream) {
    if (cr_capturing(stream)) return cr_capture_copy3d(p, stream);
    CR_STREAM_WORK(stream);
    return cudaMemcpy3D(p);
}

/* ---- symbols: the host shadow's address names the variable ---- */

static cudaError_t symbol(const void *sym, size_t offset, size_t count, cr_var **out) {
    cr_var *v = cr_find_var(sym);
    if (!v || !cr_var_module(v)) return cudaErrorInvalidSymbol;
    if (offset > v->size || count > v->size - offset) return cudaErrorInvalidValue;
    *out = v;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t count, size_t offset,
                                         enum cudaMemcpyKind kind) {
    CR_ENTER();
    cr_var *v;
    cudaError_t e = symbol(sym, offset, count, &v);
    if (e == cudaSuccess && kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        e = cudaErrorInvalidMemcpyDirection;
    if (e != cudaSuccess || !count) return cr_ret(e);
    if (kind == cudaMemcpyDefault) kind = in_device(src, 1) ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice;
    const void *from = src;
    void *tmp = NULL;
    ptxi_status s = PTXI_SUCCESS;
    if (kind == cudaMemcpyDeviceToDevice) {
        if (!in_device(src, count)) return cr_ret(cudaErrorInvalidValue);
        if (!(from = tmp = malloc(count))) return cr_ret(cudaErrorMemoryAllocation);
        ptxi_mem_host_read(cr_ctx(), (ptxi_dptr)(uintptr_t)src, count);
        s = ptxi_memcpy_dtoh(cr_ctx(), tmp, (ptxi_dptr)(uintptr_t)src, count);
    }
    if (s == PTXI_SUCCESS) s = ptxi_memcpy_to_symbol(cr_var_module(v), v->name, offset, from, count);
    free(tmp);
    return cr_st(s);
}

CR_EXPORT cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t count, size_t offset,
                                           enum cudaMemcpyKind kind) {
    CR_ENTER();
    cr_var *v;
    cudaError_t e = symbol(sym, offset, count, &v);
    if (e == cudaSuccess && kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        e = cudaErrorInvalidMemcpyDirection;
    if (e != cudaSuccess || !count) return cr_ret(e);
    if (kind == cudaMemcpyDefault) kind = in_device(dst, 1) ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost;
    if (kind == cudaMemcpyDeviceToHost)
        return cr_st(ptxi_memcpy_from_symbol(cr_var_module(v), v->name, offset, dst, count));
    if (!in_device(dst, count)) return cr_ret(cudaErrorInvalidValue);
    void *tmp = malloc(count);
    if (!tmp) return cr_ret(cudaErrorMemoryAllocation);
    ptxi_status s = ptxi_memcpy_from_symbol(cr_var_module(v), v->name, offset, tmp, count);
    if (s == PTXI_SUCCESS) s = ptxi_memcpy_htod(cr_ctx(), (ptxi_dptr)(uintptr_t)dst, tmp, count);
    free(tmp);
    return cr_st(s);
}

CR_EXPORT cudaError_t cudaMemcpyToSymbolAsync(const void *sym, const void *src, size_t count, size_t offset,
                                              enum cudaMemcpyKind kind, cudaStream_t stream) {
    CR_STREAM_WORK(stream);
    return cudaMemcpyToSymbol(sym, src, count, offset, kind);
}

CR_EXPORT cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *sym, size_t count, size_t offset,
                                                enum cudaMemcpyKind kind, cudaStream_t stream) {
    CR_STREAM_WORK(stream);
    return cudaMemcpyFromSymbol(dst, sym, count, offset, kind);
}

CR_EXPORT cudaError_t cudaGetSymbolAddress(void **devPtr, const void *sym) {
    CR_ENTER();
    cr_var *v;
    cudaError_t e = symbol(sym, 0, 0, &v);
    if (e != cudaSuccess) return cr_ret(e);
    if (!devPtr) return cr_ret(cudaErrorInvalidValue);
    *devPtr = (void *)(uintptr_t)cr_var_addr(v);
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGetSymbolSize(size_t *size, const void *sym) {
    CR_ENTER();
    cr_var *v;
    cudaError_t e = symbol(sym, 0, 0, &v);
    if (e != cudaSuccess) return cr_ret(e);
    if (!size) return cr_ret(cudaErrorInvalidValue);
    *size = v->size;
    return cudaSuccess;
}

/* Hints about where managed memory should live change nothing here. */
CR_EXPORT cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                           unsigned int flags, cudaStream_t stream) {
    (void)location, (void)flags;
    CR_ENTER();
    CR_STREAM_WORK(stream);
    return in_device(devPtr, count) ? cudaSuccess : cr_ret(cudaErrorInvalidValue);
}

CR_EXPORT cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                                    struct cudaMemLocation location) {
    (void)advice, (void)location;
    CR_ENTER();
    return in_device(devPtr, count) ? cudaSuccess : cr_ret(cudaErrorInvalidValue);
}

CR_ALIAS(cudaMemcpy_ptds, cudaMemcpy);
CR_ALIAS(cudaMemcpyAsync_ptsz, cudaMemcpyAsync);
CR_ALIAS(cudaMemcpy2D_ptds, cudaMemcpy2D);
CR_ALIAS(cudaMemcpy2DAsync_ptsz, cudaMemcpy2DAsync);
CR_ALIAS(cudaMemset_ptds, cudaMemset);
CR_ALIAS(cudaMemsetAsync_ptsz, cudaMemsetAsync);
CR_ALIAS(cudaMemset2D_ptds, cudaMemset2D);
CR_ALIAS(cudaMemset2DAsync_ptsz, cudaMemset2DAsync);
CR_ALIAS(cudaMemcpyToSymbol_ptds, cudaMemcpyToSymbol);
CR_ALIAS(cudaMemcpyFromSymbol_ptds, cudaMemcpyFromSymbol);
CR_ALIAS(cudaMemcpyToSymbolAsync_ptsz, cudaMemcpyToSymbolAsync);
CR_ALIAS(cudaMemcpyFromSymbolAsync_ptsz, cudaMemcpyFromSymbolAsync);
CR_ALIAS(cudaMallocAsync_ptsz, cudaMallocAsync);
CR_ALIAS(cudaFreeAsync_ptsz, cudaFreeAsync);
CR_ALIAS(cudaMallocFromPoolAsync_ptsz, cudaMallocFromPoolAsync);
CR_ALIAS(cudaMemPrefetchAsync_ptsz, cudaMemPrefetchAsync);
CR_ALIAS(cudaMemset3D_ptds, cudaMemset3D);
CR_ALIAS(cudaMemset3DAsync_ptsz, cudaMemset3DAsync);
CR_ALIAS(cudaMemcpy3D_ptds, cudaMemcpy3D);
CR_ALIAS(cudaMemcpy3DAsync_ptsz, cudaMemcpy3DAsync);
