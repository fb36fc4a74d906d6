/* pools.c — memory pools of the stream-ordered allocator: the runtime's names for
 * libptxi's pools (runtime/pools.c), shared with libcuda.so.1, so that a
 * cudaMemPool_t is a valid CUmemoryPool. */
#include "cudart_internal.h"

#define POOL(p) ((ptxi_mempool *)(p))

CR_EXPORT cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device) {
    if (!memPool) return cr_ret(cudaErrorInvalidValue);
    if (device != 0) return cr_ret(cudaErrorInvalidDevice);
    *memPool = (cudaMemPool_t)ptxi_mempool_default();
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device) {
    if (!memPool) return cr_ret(cudaErrorInvalidValue);
    if (device != 0) return cr_ret(cudaErrorInvalidDevice);
    *memPool = (cudaMemPool_t)ptxi_mempool_current();
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool) {
    if (device != 0) return cr_ret(cudaErrorInvalidDevice);
    return cr_st(ptxi_mempool_set_current(POOL(memPool)));
}

CR_EXPORT cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps) {
    if (!memPool || !poolProps || poolProps->allocType != cudaMemAllocationTypePinned ||
        poolProps->location.type != cudaMemLocationTypeDevice || poolProps->location.id != 0)
        return cr_ret(cudaErrorInvalidValue);
    if (poolProps->handleTypes != cudaMemHandleTypeNone) return cr_ret(cudaErrorNotSupported);
    return cr_st(ptxi_mempool_create((ptxi_mempool **)memPool));
}

CR_EXPORT cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool) { return cr_st(ptxi_mempool_destroy(POOL(memPool))); }

CR_EXPORT cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value) {
    return cr_st(ptxi_mempool_attribute(POOL(memPool), (int)attr, value, 1));
}

CR_EXPORT cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value) {
    return cr_st(ptxi_mempool_attribute(POOL(memPool), (int)attr, value, 0));
}

CR_EXPORT cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep) {
    return cr_st(ptxi_mempool_trim(POOL(memPool), minBytesToKeep));
}

CR_EXPORT cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList,
                                           size_t count) {
    if (!ptxi_mempool_valid(POOL(memPool)) || (count && !descList)) return cr_ret(cudaErrorInvalidValue);
    for (size_t i = 0; i < count; i++) {
        int flags = (int)descList[i].flags;
        ptxi_status st = ptxi_mempool_access(POOL(memPool), descList[i].location.type == cudaMemLocationTypeDevice,
                                             descList[i].location.id, &flags, 1);
        if (st != PTXI_SUCCESS) return st == PTXI_NOT_PERMITTED ? cr_ret(cudaErrorInvalidDevice) : cr_st(st);
    }
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
                                           struct cudaMemLocation *location) {
    if (!flags || !location) return cr_ret(cudaErrorInvalidValue);
    int f = 0;
    ptxi_status st = ptxi_mempool_access(POOL(memPool), location->type == cudaMemLocationTypeDevice, location->id, &f,
                                         0);
    if (st == PTXI_SUCCESS) *flags = (enum cudaMemAccessFlags)f;
    return cr_st(st);
}
