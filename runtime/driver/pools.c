/* pools.c — stream-ordered allocation (cuMemAllocAsync, cuMemFreeAsync) and memory
 * pools: libptxi's pools (runtime/pools.c, shared with libcudart), a CUmemoryPool
 * being a ptxi_mempool. Work on a stream runs when issued, so an asynchronous
 * allocation is an allocation from the context at once, tracked in its pool. */
#include "driver.h"

#define POOL(p) ((ptxi_mempool *)(p))

CD_EXPORT CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!pool_out) return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    *pool_out = (CUmemoryPool)ptxi_mempool_default();
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!pool) return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    *pool = (CUmemoryPool)ptxi_mempool_current();
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    return cd_map(ptxi_mempool_set_current(POOL(pool)));
}

CD_EXPORT CUresult cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *poolProps) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!pool || !poolProps || poolProps->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
        poolProps->location.type != CU_MEM_LOCATION_TYPE_DEVICE || poolProps->location.id != 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (poolProps->handleTypes != CU_MEM_HANDLE_TYPE_NONE) return CUDA_ERROR_NOT_SUPPORTED;
    return cd_map(ptxi_mempool_create((ptxi_mempool **)pool));
}

CD_EXPORT CUresult cuMemPoolDestroy(CUmemoryPool pool) { return cd_map(ptxi_mempool_destroy(POOL(pool))); }

CD_EXPORT CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value) {
    return cd_map(ptxi_mempool_attribute(POOL(pool), (int)attr, value, 1));
}

CD_EXPORT CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value) {
    return cd_map(ptxi_mempool_attribute(POOL(pool), (int)attr, value, 0));
}

CD_EXPORT CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep) {
    return cd_map(ptxi_mempool_trim(POOL(pool), minBytesToKeep));
}

CD_EXPORT CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream) {
    ptxi_stream *s;
    if (!cd_stream(hStream, &s)) return CUDA_ERROR_INVALID_HANDLE;
    if (!ptxi_mempool_valid(POOL(pool))) return CUDA_ERROR_INVALID_VALUE;
    if (cd_capturing(s)) return cd_capture_alloc(s, dptr, bytesize);
    CUresult r = cuMemAlloc_v2(dptr, bytesize);
    ptxi_ctx *ctx = NULL;
    if (r == CUDA_SUCCESS) r = cd_current(&ctx);
    if (r == CUDA_SUCCESS) r = cd_map(ptxi_mempool_track(POOL(pool), ctx, *dptr, bytesize));
    return r;
}

CD_EXPORT CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream) {
    return cuMemAllocFromPoolAsync(dptr, bytesize, (CUmemoryPool)ptxi_mempool_current(), hStream);
}

/* Frees memory from cuMemAlloc too, as the driver allows. */
CD_EXPORT CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream) {
    ptxi_stream *s;
    if (!cd_stream(hStream, &s)) return CUDA_ERROR_INVALID_HANDLE;
    if (cd_capturing(s)) return cd_capture_free(s, dptr);
    CUresult r = cuMemFree_v2(dptr);
    if (r == CUDA_SUCCESS) ptxi_mempool_untrack(dptr);
    return r;
}

CD_ALIAS(cuMemAllocAsync_ptsz, cuMemAllocAsync);
CD_ALIAS(cuMemAllocFromPoolAsync_ptsz, cuMemAllocFromPoolAsync);
CD_ALIAS(cuMemFreeAsync_ptsz, cuMemFreeAsync);

CD_EXPORT CUresult cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *map, size_t count) {
    if (!ptxi_mempool_valid(POOL(pool)) || (count && !map)) return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < count; i++) {
        int flags = (int)map[i].flags;
        ptxi_status st = ptxi_mempool_access(POOL(pool), map[i].location.type == CU_MEM_LOCATION_TYPE_DEVICE,
                                             map[i].location.id, &flags, 1);
        if (st != PTXI_SUCCESS) return st == PTXI_NOT_PERMITTED ? CUDA_ERROR_INVALID_DEVICE : cd_map(st);
    }
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuMemPoolGetAccess(CUmemAccess_flags *flags, CUmemoryPool memPool, CUmemLocation *location) {
    if (!flags || !location) return CUDA_ERROR_INVALID_VALUE;
    int f = 0;
    CUresult r = cd_map(
        ptxi_mempool_access(POOL(memPool), location->type == CU_MEM_LOCATION_TYPE_DEVICE, location->id, &f, 0));
    if (r == CUDA_SUCCESS) *flags = (CUmemAccess_flags)f;
    return r;
}
