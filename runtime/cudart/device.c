/* device.c — device management: one device, an H100 as far as a program can ask
 * (cudaDeviceProp in the CUDA 13 layout, cudaDeviceGetAttribute), with the limits that
 * matter to execution (stack, printf FIFO, heap) held by the ptxi context. */
#include <stdio.h>
#include <string.h>

#include "cudart_internal.h"

static unsigned device_flags;

/* The attribute table is libptxi's (device_attrs.def), shared with libcuda.so.1. */
static int dev_attr(int a) {
    int v = 0;
    ptxi_device_attribute(a, &v);
    return v;
}
#define A(name) dev_attr(cudaDevAttr##name)

/* The device is the H100 SXM5 80GB whose answers ptxi reproduces, as the NVIDIA
 * runtime describes it (recorded), so that programs print what they print there;
 * but its memory is what this host can back (ptxi_device_get_props). */
void cr_fill_props(struct cudaDeviceProp *p) {
    ptxi_device_props own;
    ptxi_device_get_props(&own);
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", ptxi_device_name());
    p->totalGlobalMem = own.total_global_mem;
    p->sharedMemPerBlock = (size_t)A(MaxSharedMemoryPerBlock);
    p->regsPerBlock = A(MaxRegistersPerBlock);
    p->warpSize = A(WarpSize);
    p->memPitch = (size_t)A(MaxPitch);
    p->maxThreadsPerBlock = A(MaxThreadsPerBlock);
    p->maxThreadsDim[0] = A(MaxBlockDimX), p->maxThreadsDim[1] = A(MaxBlockDimY), p->maxThreadsDim[2] = A(MaxBlockDimZ);
    p->maxGridSize[0] = A(MaxGridDimX), p->maxGridSize[1] = A(MaxGridDimY), p->maxGridSize[2] = A(MaxGridDimZ);
    p->totalConstMem = (size_t)A(TotalConstantMemory);
    p->major = A(ComputeCapabilityMajor), p->minor = A(ComputeCapabilityMinor);
    p->textureAlignment = (size_t)A(TextureAlignment);
    p->texturePitchAlignment = (size_t)A(TexturePitchAlignment);
    p->multiProcessorCount = A(MultiProcessorCount);
    p->integrated = A(Integrated);
    p->canMapHostMemory = A(CanMapHostMemory);
    p->maxTexture1D = A(MaxTexture1DWidth), p->maxTexture1DMipmap = A(MaxTexture1DMipmappedWidth);
    p->maxTexture2D[0] = A(MaxTexture2DWidth), p->maxTexture2D[1] = A(MaxTexture2DHeight);
    p->maxTexture2DMipmap[0] = A(MaxTexture2DMipmappedWidth), p->maxTexture2DMipmap[1] = A(MaxTexture2DMipmappedHeight);
    p->maxTexture2DLinear[0] = A(MaxTexture2DLinearWidth), p->maxTexture2DLinear[1] = A(MaxTexture2DLinearHeight);
    p->maxTexture2DLinear[2] = A(MaxTexture2DLinearPitch);
    p->maxTexture2DGather[0] = A(MaxTexture2DGatherWidth), p->maxTexture2DGather[1] = A(MaxTexture2DGatherHeight);
    p->maxTexture3D[0] = A(MaxTexture3DWidth), p->maxTexture3D[1] = A(MaxTexture3DHeight);
    p->maxTexture3D[2] = A(MaxTexture3DDepth);
    p->maxTexture3DAlt[0] = A(MaxTexture3DWidthAlt), p->maxTexture3DAlt[1] = A(MaxTexture3DHeightAlt);
    p->maxTexture3DAlt[2] = A(MaxTexture3DDepthAlt);
    p->maxTextureCubemap = A(MaxTextureCubemapWidth);
    p->maxTexture1DLayered[0] = A(MaxTexture1DLayeredWidth), p->maxTexture1DLayered[1] = A(MaxTexture1DLayeredLayers);
    p->maxTexture2DLayered[0] = A(MaxTexture2DLayeredWidth), p->maxTexture2DLayered[1] = A(MaxTexture2DLayeredHeight);
    p->maxTexture2DLayered[2] = A(MaxTexture2DLayeredLayers);
    p->maxTextureCubemapLayered[0] = A(MaxTextureCubemapLayeredWidth);
    p->maxTextureCubemapLayered[1] = A(MaxTextureCubemapLayeredLayers);
    p->maxSurface1D = A(MaxSurface1DWidth);
    p->maxSurface2D[0] = A(MaxSurface2DWidth), p->maxSurface2D[1] = A(MaxSurface2DHeight);
    p->maxSurface3D[0] = A(MaxSurface3DWidth), p->maxSurface3D[1] = A(MaxSurface3DHeight);
    p->maxSurface3D[2] = A(MaxSurface3DDepth);
    p->maxSurface1DLayered[0] = A(MaxSurface1DLayeredWidth), p->maxSurface1DLayered[1] = A(MaxSurface1DLayeredLayers);
    p->maxSurface2DLayered[0] = A(MaxSurface2DLayeredWidth), p->maxSurface2DLayered[1] = A(MaxSurface2DLayeredHeight);
    p->maxSurface2DLayered[2] = A(MaxSurface2DLayeredLayers);
    p->maxSurfaceCubemap = A(MaxSurfaceCubemapWidth);
    p->maxSurfaceCubemapLayered[0] = A(MaxSurfaceCubemapLayeredWidth);
    p->maxSurfaceCubemapLayered[1] = A(MaxSurfaceCubemapLayeredLayers);
    p->surfaceAlignment = (size_t)A(SurfaceAlignment);
    p->concurrentKernels = A(ConcurrentKernels);
    p->ECCEnabled = A(EccEnabled);
    p->pciBusID = A(PciBusId), p->pciDeviceID = A(PciDeviceId), p->pciDomainID = A(PciDomainId);
    p->tccDriver = A(TccDriver);
    p->asyncEngineCount = A(AsyncEngineCount);
    p->unifiedAddressing = A(UnifiedAddressing);
    p->memoryBusWidth = A(GlobalMemoryBusWidth);
    p->l2CacheSize = A(L2CacheSize);
    p->persistingL2CacheMaxSize = A(MaxPersistingL2CacheSize);
    p->maxThreadsPerMultiProcessor = A(MaxThreadsPerMultiProcessor);
    p->streamPrioritiesSupported = A(StreamPrioritiesSupported);
    p->globalL1CacheSupported = A(GlobalL1CacheSupported);
    p->localL1CacheSupported = A(LocalL1CacheSupported);
    p->sharedMemPerMultiprocessor = (size_t)A(MaxSharedMemoryPerMultiprocessor);
    p->regsPerMultiprocessor = A(MaxRegistersPerMultiprocessor);
    p->managedMemory = A(ManagedMemory);
    p->isMultiGpuBoard = A(IsMultiGpuBoard);
    p->multiGpuBoardGroupID = A(MultiGpuBoardGroupID);
    p->hostNativeAtomicSupported = A(HostNativeAtomicSupported);
    p->pageableMemoryAccess = A(PageableMemoryAccess);
    p->concurrentManagedAccess = A(ConcurrentManagedAccess);
    p->computePreemptionSupported = A(ComputePreemptionSupported);
    p->canUseHostPointerForRegisteredMem = A(CanUseHostPointerForRegisteredMem);
    p->cooperativeLaunch = A(CooperativeLaunch);
    p->sharedMemPerBlockOptin = (size_t)A(MaxSharedMemoryPerBlockOptin);
    p->pageableMemoryAccessUsesHostPageTables = A(PageableMemoryAccessUsesHostPageTables);
    p->directManagedMemAccessFromHost = A(DirectManagedMemAccessFromHost);
    p->maxBlocksPerMultiProcessor = A(MaxBlocksPerMultiprocessor);
    p->accessPolicyMaxWindowSize = A(MaxAccessPolicyWindowSize);
    p->reservedSharedMemPerBlock = (size_t)A(ReservedSharedMemoryPerBlock);
    p->hostRegisterSupported = A(HostRegisterSupported);
    p->sparseCudaArraySupported = A(SparseCudaArraySupported);
    p->hostRegisterReadOnlySupported = A(HostRegisterReadOnlySupported);
    p->timelineSemaphoreInteropSupported = A(TimelineSemaphoreInteropSupported);
    p->memoryPoolsSupported = A(MemoryPoolsSupported);
    p->gpuDirectRDMASupported = A(GPUDirectRDMASupported);
    p->gpuDirectRDMAFlushWritesOptions = (unsigned)A(GPUDirectRDMAFlushWritesOptions);
    p->gpuDirectRDMAWritesOrdering = A(GPUDirectRDMAWritesOrdering);
    p->memoryPoolSupportedHandleTypes = (unsigned)A(MemoryPoolSupportedHandleTypes);
    p->deferredMappingCudaArraySupported = A(DeferredMappingCudaArraySupported);
    p->ipcEventSupported = A(IpcEventSupport);
    p->clusterLaunch = A(ClusterLaunch);
    p->unifiedFunctionPointers = 1;
    p->deviceNumaConfig = A(NumaConfig), p->deviceNumaId = A(NumaId);
    p->mpsEnabled = A(MpsEnabled), p->hostNumaId = A(HostNumaId);
    p->gpuPciDeviceID = (unsigned)A(GpuPciDeviceId), p->gpuPciSubsystemID = (unsigned)A(GpuPciSubsystemId);
    p->hostNumaMultinodeIpcSupported = A(HostNumaMultinodeIpcSupported);
}

CR_EXPORT cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device) {
    if (!value) return cr_ret(cudaErrorInvalidValue);
    if (device != 0) return cr_ret(cudaErrorInvalidDevice);
    return ptxi_device_attribute((int)attr, value) == PTXI_SUCCESS ? cudaSuccess : cr_ret(cudaErrorInvalidValue);
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
    __atomic_store_n(&device_flags, flags, __ATOMIC_RELAXED); /* any thread may ask meanwhile */
    return cudaSuccess;
}

/* As the NVIDIA runtime answers: the flags set, with host mapping always on. */
CR_EXPORT cudaError_t cudaGetDeviceFlags(unsigned int *flags) {
    if (!flags) return cr_ret(cudaErrorInvalidValue);
    *flags = __atomic_load_n(&device_flags, __ATOMIC_RELAXED) | cudaDeviceMapHost;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaDeviceSynchronize(void) {
    CR_ENTER();
    cudaError_t e = cr_st(ptxi_ctx_synchronize(cr_ctx()));
    cr_run_callbacks(NULL, ~0ul);
    return e;
}

/* Defaults as an H100 reports them; the device-runtime sync depth is refused there too. */
static size_t other_limits[cudaLimitPersistingL2CacheSize + 1] = {
    [cudaLimitMaxL2FetchGranularity] = 64,
    [cudaLimitPersistingL2CacheSize] = 9830400,
};

static int ptxi_limit_of(enum cudaLimit l) {
    switch (l) {
    case cudaLimitStackSize: return PTXI_LIMIT_STACK_SIZE;
    case cudaLimitPrintfFifoSize: return PTXI_LIMIT_PRINTF_FIFO_SIZE;
    case cudaLimitMallocHeapSize: return PTXI_LIMIT_MALLOC_HEAP_SIZE;
    case cudaLimitDevRuntimePendingLaunchCount: return PTXI_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT;
    default: return -1;
    }
}

CR_EXPORT cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value) {
    CR_ENTER();
    int pl = ptxi_limit_of(limit);
    if (pl >= 0) {
        /* A limit that can no longer change (heap, FIFO after a launch) is "invalid value" on an H100. */
        ptxi_status s = ptxi_ctx_set_limit(cr_ctx(), (ptxi_limit)pl, value);
        return s == PTXI_SUCCESS || ptxi_error_is_sticky(s) ? cr_st(s) : cr_ret(cudaErrorInvalidValue);
    }
    if ((unsigned)limit >= sizeof other_limits / sizeof other_limits[0] || limit == cudaLimitDevRuntimeSyncDepth)
        return cr_ret(cudaErrorUnsupportedLimit);
    __atomic_store_n(&other_limits[limit], value, __ATOMIC_RELAXED);
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit) {
    CR_ENTER();
    if (!pValue) return cr_ret(cudaErrorInvalidValue);
    int pl = ptxi_limit_of(limit);
    if (pl >= 0) return cr_st(ptxi_ctx_get_limit(cr_ctx(), (ptxi_limit)pl, pValue));
    if ((unsigned)limit >= sizeof other_limits / sizeof other_limits[0] || limit == cudaLimitDevRuntimeSyncDepth)
        return cr_ret(cudaErrorUnsupportedLimit);
    *pValue = __atomic_load_n(&other_limits[limit], __ATOMIC_RELAXED);
    return cudaSuccess;
}

static enum cudaFuncCache cache_config = cudaFuncCachePreferNone;

CR_EXPORT cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig) {
    __atomic_store_n(&cache_config, cacheConfig, __ATOMIC_RELAXED);
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig) {
    if (!pCacheConfig) return cr_ret(cudaErrorInvalidValue);
    *pCacheConfig = __atomic_load_n(&cache_config, __ATOMIC_RELAXED);
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

/* Returned by value, so it must not fall to the generic "not implemented" stub. */
CR_EXPORT struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f) {
    return (struct cudaChannelFormatDesc){x, y, z, w, f};
}

CR_EXPORT cudaError_t cudaCtxResetPersistingL2Cache(void) { return cudaSuccess; }

CR_EXPORT cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device) {
    if (!pciBusId || len <= 0) return cr_ret(cudaErrorInvalidValue);
    if (device != 0) return cr_ret(cudaErrorInvalidDevice);
    snprintf(pciBusId, (size_t)len, "%04X:%02X:%02X.0", A(PciDomainId), A(PciBusId), A(PciDeviceId));
    return cudaSuccess;
}
