/* device.c — device management: one device, an H100 as far as a program can ask
 * (cudaDeviceProp in the CUDA 13 layout, cudaDeviceGetAttribute), with the limits that
 * matter to execution (stack, printf FIFO, heap) held by the ptxi context. */
#include <stdio.h>
#include <string.h>

#include "cudart_internal.h"

static unsigned device_flags;

/* Values an H100 SXM5 80GB reports (recorded with the NVIDIA runtime); what ptxi's own
 * device description also says is taken from ptxi_device_get_props so the two agree. */
void cr_fill_props(struct cudaDeviceProp *p) {
    memset(p, 0, sizeof *p);
    ptxi_device_props d;
    if (ptxi_device_get_props(&d) != PTXI_SUCCESS) {
        memset(&d, 0, sizeof d);
        snprintf(d.name, sizeof d.name, "NVIDIA H100 80GB HBM3");
        d.major = 9, d.minor = 0;
        d.total_global_mem = 85017493504ull, d.shared_mem_per_block = 49152;
        d.shared_mem_per_block_optin = 232448, d.shared_mem_per_multiprocessor = 233472;
        d.total_const_mem = 65536, d.regs_per_block = 65536, d.warp_size = 32;
        d.max_threads_per_block = 1024;
        d.max_threads_dim[0] = 1024, d.max_threads_dim[1] = 1024, d.max_threads_dim[2] = 64;
        d.max_grid_size[0] = 2147483647, d.max_grid_size[1] = 65535, d.max_grid_size[2] = 65535;
        d.multiprocessor_count = 132, d.max_threads_per_multiprocessor = 2048;
        d.max_blocks_per_multiprocessor = 32, d.clock_rate_khz = 1980000;
        d.memory_clock_rate_khz = 2619000, d.memory_bus_width = 5120, d.l2_cache_size = 52428800;
    }
    memcpy(p->name, d.name, sizeof p->name);
    p->totalGlobalMem = d.total_global_mem;
    p->sharedMemPerBlock = d.shared_mem_per_block;
    p->regsPerBlock = d.regs_per_block;
    p->warpSize = d.warp_size;
    p->memPitch = 2147483647;
    p->maxThreadsPerBlock = d.max_threads_per_block;
    memcpy(p->maxThreadsDim, d.max_threads_dim, sizeof p->maxThreadsDim);
    memcpy(p->maxGridSize, d.max_grid_size, sizeof p->maxGridSize);
    p->totalConstMem = d.total_const_mem;
    p->major = d.major, p->minor = d.minor;
    p->textureAlignment = 512, p->texturePitchAlignment = 32;
    p->multiProcessorCount = d.multiprocessor_count;
    p->canMapHostMemory = 1;
    p->maxTexture1D = 131072, p->maxTexture1DMipmap = 32768;
    p->maxTexture2D[0] = 131072, p->maxTexture2D[1] = 65536;
    p->maxTexture2DMipmap[0] = 32768, p->maxTexture2DMipmap[1] = 32768;
    p->maxTexture2DLinear[0] = 131072, p->maxTexture2DLinear[1] = 65000, p->maxTexture2DLinear[2] = 2097120;
    p->maxTexture2DGather[0] = 32768, p->maxTexture2DGather[1] = 32768;
    p->maxTexture3D[0] = p->maxTexture3D[1] = p->maxTexture3D[2] = 16384;
    p->maxTexture3DAlt[0] = p->maxTexture3DAlt[1] = 8192, p->maxTexture3DAlt[2] = 32768;
    p->maxTextureCubemap = 32768;
    p->maxTexture1DLayered[0] = 32768, p->maxTexture1DLayered[1] = 2048;
    p->maxTexture2DLayered[0] = p->maxTexture2DLayered[1] = 32768, p->maxTexture2DLayered[2] = 2048;
    p->maxTextureCubemapLayered[0] = 32768, p->maxTextureCubemapLayered[1] = 2046;
    p->maxSurface1D = 32768;
    p->maxSurface2D[0] = 131072, p->maxSurface2D[1] = 65536;
    p->maxSurface3D[0] = p->maxSurface3D[1] = p->maxSurface3D[2] = 16384;
    p->maxSurface1DLayered[0] = 32768, p->maxSurface1DLayered[1] = 2048;
    p->maxSurface2DLayered[0] = p->maxSurface2DLayered[1] = 32768, p->maxSurface2DLayered[2] = 2048;
    p->maxSurfaceCubemap = 32768;
    p->maxSurfaceCubemapLayered[0] = 32768, p->maxSurfaceCubemapLayered[1] = 2046;
    p->surfaceAlignment = 512;
    p->concurrentKernels = 1, p->ECCEnabled = 1;
    p->asyncEngineCount = 3, p->unifiedAddressing = 1;
    p->memoryBusWidth = d.memory_bus_width;
    p->l2CacheSize = d.l2_cache_size;
    p->persistingL2CacheMaxSize = 32505856;
    p->maxThreadsPerMultiProcessor = d.max_threads_per_multiprocessor;
    p->streamPrioritiesSupported = 1, p->globalL1CacheSupported = 1, p->localL1CacheSupported = 1;
    p->sharedMemPerMultiprocessor = d.shared_mem_per_multiprocessor;
    p->regsPerMultiprocessor = 65536;
    p->managedMemory = 1, p->hostNativeAtomicSupported = 0;
    p->concurrentManagedAccess = 1, p->computePreemptionSupported = 1;
    p->canUseHostPointerForRegisteredMem = 1, p->cooperativeLaunch = 1;
    p->sharedMemPerBlockOptin = d.shared_mem_per_block_optin;
    p->maxBlocksPerMultiProcessor = d.max_blocks_per_multiprocessor;
    p->accessPolicyMaxWindowSize = 134213632;
    p->reservedSharedMemPerBlock = 1024;
    p->hostRegisterSupported = 1, p->sparseCudaArraySupported = 1, p->hostRegisterReadOnlySupported = 1;
    p->timelineSemaphoreInteropSupported = 1, p->memoryPoolsSupported = 1;
    p->gpuDirectRDMASupported = 1, p->gpuDirectRDMAFlushWritesOptions = 1;
    p->gpuDirectRDMAWritesOrdering = 100, p->memoryPoolSupportedHandleTypes = 9;
    p->deferredMappingCudaArraySupported = 1, p->ipcEventSupported = 1, p->clusterLaunch = 1;
    p->unifiedFunctionPointers = 1, p->deviceNumaId = -1, p->hostNumaId = -1;
}

static int clock_khz(void) {
    ptxi_device_props d;
    return ptxi_device_get_props(&d) == PTXI_SUCCESS && d.clock_rate_khz ? d.clock_rate_khz : 1980000;
}

static int memory_clock_khz(void) {
    ptxi_device_props d;
    return ptxi_device_get_props(&d) == PTXI_SUCCESS && d.memory_clock_rate_khz ? d.memory_clock_rate_khz
                                                                                : 2619000;
}

/* attribute -> its value, most of them fields of cudaDeviceProp. */
#define CR_DEVICE_ATTRS(X, p)                                                            \
    X(cudaDevAttrMaxThreadsPerBlock, p.maxThreadsPerBlock)                               \
    X(cudaDevAttrMaxBlockDimX, p.maxThreadsDim[0])                                       \
    X(cudaDevAttrMaxBlockDimY, p.maxThreadsDim[1])                                       \
    X(cudaDevAttrMaxBlockDimZ, p.maxThreadsDim[2])                                       \
    X(cudaDevAttrMaxGridDimX, p.maxGridSize[0])                                          \
    X(cudaDevAttrMaxGridDimY, p.maxGridSize[1])                                          \
    X(cudaDevAttrMaxGridDimZ, p.maxGridSize[2])                                          \
    X(cudaDevAttrMaxSharedMemoryPerBlock, (int)p.sharedMemPerBlock)                      \
    X(cudaDevAttrTotalConstantMemory, (int)p.totalConstMem)                              \
    X(cudaDevAttrWarpSize, p.warpSize)                                                   \
    X(cudaDevAttrMaxPitch, (int)p.memPitch)                                              \
    X(cudaDevAttrMaxRegistersPerBlock, p.regsPerBlock)                                   \
    X(cudaDevAttrClockRate, clock_khz())                                                 \
    X(cudaDevAttrTextureAlignment, (int)p.textureAlignment)                              \
    X(cudaDevAttrGpuOverlap, 1)                                                          \
    X(cudaDevAttrMultiProcessorCount, p.multiProcessorCount)                             \
    X(cudaDevAttrKernelExecTimeout, 0)                                                   \
    X(cudaDevAttrIntegrated, p.integrated)                                               \
    X(cudaDevAttrCanMapHostMemory, p.canMapHostMemory)                                   \
    X(cudaDevAttrComputeMode, 0)                                                         \
    X(cudaDevAttrMaxTexture1DWidth, p.maxTexture1D)                                      \
    X(cudaDevAttrMaxTexture2DWidth, p.maxTexture2D[0])                                   \
    X(cudaDevAttrMaxTexture2DHeight, p.maxTexture2D[1])                                  \
    X(cudaDevAttrMaxTexture3DWidth, p.maxTexture3D[0])                                   \
    X(cudaDevAttrMaxTexture3DHeight, p.maxTexture3D[1])                                  \
    X(cudaDevAttrMaxTexture3DDepth, p.maxTexture3D[2])                                   \
    X(cudaDevAttrSurfaceAlignment, (int)p.surfaceAlignment)                              \
    X(cudaDevAttrConcurrentKernels, p.concurrentKernels)                                 \
    X(cudaDevAttrEccEnabled, p.ECCEnabled)                                               \
    X(cudaDevAttrPciBusId, p.pciBusID)                                                   \
    X(cudaDevAttrPciDeviceId, p.pciDeviceID)                                             \
    X(cudaDevAttrTccDriver, 0)                                                           \
    X(cudaDevAttrMemoryClockRate, memory_clock_khz())                                    \
    X(cudaDevAttrGlobalMemoryBusWidth, p.memoryBusWidth)                                 \
    X(cudaDevAttrL2CacheSize, p.l2CacheSize)                                             \
    X(cudaDevAttrMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor)             \
    X(cudaDevAttrAsyncEngineCount, p.asyncEngineCount)                                   \
    X(cudaDevAttrUnifiedAddressing, p.unifiedAddressing)                                 \
    X(cudaDevAttrPciDomainId, p.pciDomainID)                                             \
    X(cudaDevAttrTexturePitchAlignment, (int)p.texturePitchAlignment)                    \
    X(cudaDevAttrComputeCapabilityMajor, p.major)                                        \
    X(cudaDevAttrComputeCapabilityMinor, p.minor)                                        \
    X(cudaDevAttrStreamPrioritiesSupported, p.streamPrioritiesSupported)                 \
    X(cudaDevAttrGlobalL1CacheSupported, p.globalL1CacheSupported)                       \
    X(cudaDevAttrLocalL1CacheSupported, p.localL1CacheSupported)                         \
    X(cudaDevAttrMaxSharedMemoryPerMultiprocessor, (int)p.sharedMemPerMultiprocessor)    \
    X(cudaDevAttrMaxRegistersPerMultiprocessor, p.regsPerMultiprocessor)                 \
    X(cudaDevAttrManagedMemory, p.managedMemory)                                         \
    X(cudaDevAttrIsMultiGpuBoard, p.isMultiGpuBoard)                                     \
    X(cudaDevAttrMultiGpuBoardGroupID, p.multiGpuBoardGroupID)                           \
    X(cudaDevAttrHostNativeAtomicSupported, p.hostNativeAtomicSupported)                 \
    X(cudaDevAttrSingleToDoublePrecisionPerfRatio, 2)                                    \
    X(cudaDevAttrPageableMemoryAccess, p.pageableMemoryAccess)                           \
    X(cudaDevAttrConcurrentManagedAccess, p.concurrentManagedAccess)                     \
    X(cudaDevAttrComputePreemptionSupported, p.computePreemptionSupported)               \
    X(cudaDevAttrCanUseHostPointerForRegisteredMem, p.canUseHostPointerForRegisteredMem) \
    X(cudaDevAttrCooperativeLaunch, p.cooperativeLaunch)                                 \
    X(cudaDevAttrMaxSharedMemoryPerBlockOptin, (int)p.sharedMemPerBlockOptin)            \
    X(cudaDevAttrHostRegisterSupported, p.hostRegisterSupported)                         \
    X(cudaDevAttrPageableMemoryAccessUsesHostPageTables, p.pageableMemoryAccessUsesHostPageTables) \
    X(cudaDevAttrDirectManagedMemAccessFromHost, p.directManagedMemAccessFromHost)       \
    X(cudaDevAttrMaxBlocksPerMultiprocessor, p.maxBlocksPerMultiProcessor)               \
    X(cudaDevAttrMaxPersistingL2CacheSize, p.persistingL2CacheMaxSize)                   \
    X(cudaDevAttrMaxAccessPolicyWindowSize, p.accessPolicyMaxWindowSize)                 \
    X(cudaDevAttrReservedSharedMemoryPerBlock, (int)p.reservedSharedMemPerBlock)         \
    X(cudaDevAttrMemoryPoolsSupported, p.memoryPoolsSupported)                           \
    X(cudaDevAttrClusterLaunch, p.clusterLaunch)                                         \
    X(cudaDevAttrIpcEventSupport, p.ipcEventSupported)                                   \
    X(cudaDevAttrNumaConfig, p.deviceNumaConfig)                                         \
    X(cudaDevAttrNumaId, p.deviceNumaId)                                                 \
    X(cudaDevAttrHostNumaId, p.hostNumaId)

CR_EXPORT cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device) {
    if (!value || device != 0) return cr_ret(device != 0 ? cudaErrorInvalidDevice : cudaErrorInvalidValue);
    struct cudaDeviceProp p;
    cr_fill_props(&p);
    switch ((int)attr) {
#define X(a, v) case a: *value = (v); return cudaSuccess;
        CR_DEVICE_ATTRS(X, p)
#undef X
    }
    *value = 0;
    return attr > 0 && attr < 160 ? cudaSuccess : cr_ret(cudaErrorInvalidValue);
}

CR_EXPORT cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device) {
    if (!prop) return cr_ret(cudaErrorInvalidValue);
    if (device != 0) return cr_ret(cudaErrorInvalidDevice);
    cr_fill_props(prop);
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGetDeviceCount(int *count) {
    if (!count) return cr_ret(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGetDevice(int *device) {
    if (!device) return cr_ret(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaSetDevice(int device) {
    if (device != 0) return cr_ret(cudaErrorInvalidDevice);
    return cr_ret(cr_init());
}

CR_EXPORT cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags) {
    (void)deviceFlags, (void)flags;
    return cudaSetDevice(device);
}

CR_EXPORT cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop) {
    if (!device || !prop) return cr_ret(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaSetDeviceFlags(unsigned int flags) {
    device_flags = flags;
    return cudaSuccess;
}

/* As the NVIDIA runtime answers: the flags set, with host mapping always on. */
CR_EXPORT cudaError_t cudaGetDeviceFlags(unsigned int *flags) {
    if (!flags) return cr_ret(cudaErrorInvalidValue);
    *flags = device_flags | cudaDeviceMapHost;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaDeviceSynchronize(void) {
    CR_ENTER();
    return cr_st(ptxi_ctx_synchronize(cr_ctx));
}

/* Defaults as an H100 reports them; the device-runtime sync depth is refused there too. */
static size_t other_limits[cudaLimitPersistingL2CacheSize + 1] = {
    [cudaLimitDevRuntimePendingLaunchCount] = 2048,
    [cudaLimitMaxL2FetchGranularity] = 64,
    [cudaLimitPersistingL2CacheSize] = 9830400,
};

static int ptxi_limit_of(enum cudaLimit l) {
    switch (l) {
    case cudaLimitStackSize: return PTXI_LIMIT_STACK_SIZE;
    case cudaLimitPrintfFifoSize: return PTXI_LIMIT_PRINTF_FIFO_SIZE;
    case cudaLimitMallocHeapSize: return PTXI_LIMIT_MALLOC_HEAP_SIZE;
    default: return -1;
    }
}

CR_EXPORT cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value) {
    CR_ENTER();
    int pl = ptxi_limit_of(limit);
    if (pl >= 0) {
        /* A limit that can no longer change (heap, FIFO after a launch) is "invalid value" on an H100. */
        ptxi_status s = ptxi_ctx_set_limit(cr_ctx, (ptxi_limit)pl, value);
        return s == PTXI_SUCCESS || ptxi_error_is_sticky(s) ? cr_st(s) : cr_ret(cudaErrorInvalidValue);
    }
    if ((unsigned)limit >= sizeof other_limits / sizeof other_limits[0] || limit == cudaLimitDevRuntimeSyncDepth)
        return cr_ret(cudaErrorUnsupportedLimit);
    other_limits[limit] = value;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit) {
    CR_ENTER();
    if (!pValue) return cr_ret(cudaErrorInvalidValue);
    int pl = ptxi_limit_of(limit);
    if (pl >= 0) return cr_st(ptxi_ctx_get_limit(cr_ctx, (ptxi_limit)pl, pValue));
    if ((unsigned)limit >= sizeof other_limits / sizeof other_limits[0] || limit == cudaLimitDevRuntimeSyncDepth)
        return cr_ret(cudaErrorUnsupportedLimit);
    *pValue = other_limits[limit];
    return cudaSuccess;
}

static enum cudaFuncCache cache_config = cudaFuncCachePreferNone;

CR_EXPORT cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig) {
    cache_config = cacheConfig;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig) {
    if (!pCacheConfig) return cr_ret(cudaErrorInvalidValue);
    *pCacheConfig = cache_config;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority) {
    if (leastPriority) *leastPriority = 0;
    if (greatestPriority) *greatestPriority = -5;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice) {
    if (!canAccessPeer) return cr_ret(cudaErrorInvalidValue);
    if (device != 0 || peerDevice != 0) return cr_ret(cudaErrorInvalidDevice);
    *canAccessPeer = 0;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
CR_EXPORT cudaError_t cudaProfilerStop(void) { return cudaSuccess; }
