/* launch.c — kernel launches (cuLaunchKernel, its Ex form with launch attributes,
 * cooperative launches), function and kernel attributes, cache configuration, the
 * occupancy calculator and tensor maps. A fault while a kernel runs is reported by
 * the next call, not by the launch, as on a GPU where the launch returns first. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "pgraph.h"

/* The kernel behind a CUfunction or CUkernel, checked against the current context:
 * a function of a module loaded in another context is an invalid handle there
 * (library kernels live in the primary context and may be used from any; the
 * runtime's, from cudaGetFuncBySymbol, are the context current when it was called). */
static CUresult kernel_in(ptxi_ctx *ctx, CUfunction f, ptxi_kernel **out) {
    ptxi_kernel *k = KERNEL(f);
    bool library = false;
    if (!cd_kernel_of_library(k, &library) && !pg_kernel_in(ctx, k)) return CUDA_ERROR_INVALID_HANDLE;
    if (ptxi_kernel_ctx(k) != ctx && !library) return CUDA_ERROR_INVALID_HANDLE;
    *out = k;
    return CUDA_SUCCESS;
}

typedef struct launch_args {
    ptxi_dim3 grid, block, cluster;
    size_t shared;
    unsigned flags;
    bool clustered;
} launch_args;

static CUresult launch(CUfunction f, launch_args a, CUstream h, void **params, void **extra) {
    CD_CTX(ctx);
    ptxi_kernel *k;
    CUresult r = kernel_in(ctx, f, &k);
    if (r != CUDA_SUCCESS) return r;
    ptxi_stream *s;
    if (!cd_stream(h, &s)) return CUDA_ERROR_INVALID_HANDLE;
    if (s && ptxi_stream_ctx(s) != ctx) return CUDA_ERROR_INVALID_HANDLE;
    if (params && extra) return CUDA_ERROR_INVALID_VALUE;
    if (cd_capturing(s)) {
        if (extra || a.clustered || a.flags) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
        return cd_capture_kernel(s, k, a.grid, a.block, (unsigned)a.shared, params);
    }
    if (a.flags & PTXI_LAUNCH_COOPERATIVE) {
        int per_sm = ptxi_kernel_max_active_blocks(k, (int)(a.block.x * a.block.y * a.block.z), a.shared), sms = 0;
        ptxi_device_attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &sms);
        unsigned long long blocks = (unsigned long long)a.grid.x * a.grid.y * a.grid.z;
        if (per_sm > 0 && blocks > (unsigned long long)per_sm * (unsigned)sms)
            return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
    }
    /* host functions queued before the launch run first: on a GPU the kernel waits for them */
    ptxi_stream_run_host_fns(ctx, s, UINT64_MAX);
    ptxi_status st;
    if (extra) {
        const void *buf = NULL;
        size_t size = 0;
        for (size_t i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
            if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) buf = extra[i + 1];
            else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) size = *(const size_t *)extra[i + 1];
            else return CUDA_ERROR_INVALID_VALUE;
        }
        if (a.clustered || a.flags) return CUDA_ERROR_INVALID_VALUE;
        st = ptxi_launch_packed(k, a.grid, a.block, a.shared, s, buf, size);
    } else if (a.clustered) {
        st = ptxi_launch_cluster(k, a.grid, a.block, a.cluster, a.shared, s, params, a.flags);
    } else {
        st = ptxi_launch_ex(k, a.grid, a.block, a.shared, s, params, a.flags);
    }
    if (st != PTXI_SUCCESS && ptxi_error_is_sticky(st)) return CUDA_SUCCESS; /* the next call reports it */
    return cd_map(st);
}

CD_EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                                  unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                                  unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra) {
    launch_args a = {
        {gridDimX, gridDimY, gridDimZ}, {blockDimX, blockDimY, blockDimZ}, {1, 1, 1}, sharedMemBytes, 0, false};
    return launch(f, a, hStream, kernelParams, extra);
}

CD_EXPORT CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                             unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                             unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                             void **kernelParams) {
    launch_args a = {{gridDimX, gridDimY, gridDimZ},
                     {blockDimX, blockDimY, blockDimZ},
                     {1, 1, 1},
                     sharedMemBytes,
                     PTXI_LAUNCH_COOPERATIVE,
                     false};
    return launch(f, a, hStream, kernelParams, NULL);
}

/* Launch attributes: a cluster shape and cooperative execution change what runs;
 * priorities, access policies, synchronisation domains, programmatic launch and the
 * other scheduling hints have nothing to act on in ptxi (work runs when issued, in
 * order) and are accepted. A launch-completion event is recorded after the kernel. */
CD_EXPORT CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra) {
    if (!config || (config->numAttrs && !config->attrs)) return CUDA_ERROR_INVALID_VALUE;
    launch_args a = {{config->gridDimX, config->gridDimY, config->gridDimZ},
                     {config->blockDimX, config->blockDimY, config->blockDimZ},
                     {1, 1, 1},
                     config->sharedMemBytes,
                     0,
                     false};
    CUevent done = NULL;
    for (unsigned i = 0; i < config->numAttrs; i++) {
        const CUlaunchAttribute *at = &config->attrs[i];
        switch (at->id) {
        case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
            if (at->value.cooperative) a.flags |= PTXI_LAUNCH_COOPERATIVE;
            break;
        case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
            a.cluster = (ptxi_dim3){at->value.clusterDim.x, at->value.clusterDim.y, at->value.clusterDim.z};
            a.clustered = true;
            break;
        case CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT: done = at->value.launchCompletionEvent.event; break;
        case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT: done = at->value.programmaticEvent.event; break;
        case CU_LAUNCH_ATTRIBUTE_IGNORE:
        case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
        case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
        case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION:
        case CU_LAUNCH_ATTRIBUTE_PRIORITY:
        case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
        case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
        case CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION:
        case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        case CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING: break;
        default: return CUDA_ERROR_INVALID_VALUE;
        }
    }
    if (a.clustered && (a.flags & PTXI_LAUNCH_COOPERATIVE)) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = launch(f, a, config->hStream, kernelParams, extra);
    ptxi_stream *s;
    if (r == CUDA_SUCCESS && done && cd_stream(config->hStream, &s))
        r = cd_map(ptxi_event_record((ptxi_event *)done, s));
    return r;
}

CD_ALIAS(cuLaunchKernel_ptsz, cuLaunchKernel);
CD_ALIAS(cuLaunchCooperativeKernel_ptsz, cuLaunchCooperativeKernel);
CD_ALIAS(cuLaunchKernelEx_ptsz, cuLaunchKernelEx);

/* ---- attributes ---- */

/* What ptxi keeps for a kernel beyond libptxi's attributes: the carveout and
 * cluster preferences a program set. */
typedef struct kextra {
    ptxi_kernel *k;
    int carveout, non_portable, policy;
    struct kextra *next;
} kextra;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static kextra *extras;

static kextra get_extra(ptxi_kernel *k) {
    kextra e = {k, -1, 0, 0, NULL};
    pthread_mutex_lock(&lock);
    for (kextra *p = extras; p; p = p->next)
        if (p->k == k) e = *p;
    pthread_mutex_unlock(&lock);
    return e;
}

static CUresult set_extra(ptxi_kernel *k, CUfunction_attribute attrib, int value) {
    pthread_mutex_lock(&lock);
    kextra *p = extras;
    while (p && p->k != k) p = p->next;
    if (!p && (p = malloc(sizeof *p))) {
        *p = (kextra){k, -1, 0, 0, extras};
        extras = p;
    }
    if (p) {
        if (attrib == CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT) p->carveout = value;
        else if (attrib == CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED) p->non_portable = value;
        else p->policy = value;
    }
    pthread_mutex_unlock(&lock);
    return p ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

static int kattr(ptxi_kernel *k, ptxi_kernel_attr a) {
    int v = 0;
    ptxi_kernel_get_attr(k, a, &v);
    return v;
}

static CUresult get_attr(int *pi, CUfunction_attribute attrib, ptxi_kernel *k) {
    if (!pi) return CUDA_ERROR_INVALID_VALUE;
    if (!cd_kernel_valid(k)) return CUDA_ERROR_INVALID_HANDLE;
    kextra e = get_extra(k);
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = kattr(k, PTXI_KATTR_MAX_THREADS_PER_BLOCK); break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = kattr(k, PTXI_KATTR_STATIC_SHARED_BYTES); break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *pi = kattr(k, PTXI_KATTR_CONST_BYTES); break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = kattr(k, PTXI_KATTR_LOCAL_BYTES); break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = kattr(k, PTXI_KATTR_NUM_REGS); break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: *pi = kattr(k, PTXI_KATTR_PTX_VERSION); break;
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = kattr(k, PTXI_KATTR_BINARY_VERSION); break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *pi = 0; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *pi = kattr(k, PTXI_KATTR_MAX_DYNAMIC_SHARED_BYTES); break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *pi = e.carveout; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH: *pi = 0; break;
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED: *pi = e.non_portable; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE: *pi = e.policy; break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

static CUresult set_attr(CUfunction_attribute attrib, int value, ptxi_kernel *k) {
    if (!cd_kernel_valid(k)) return CUDA_ERROR_INVALID_HANDLE;
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
        return ptxi_kernel_set_attr(k, PTXI_KATTR_MAX_DYNAMIC_SHARED_BYTES, value) == PTXI_SUCCESS
                   ? CUDA_SUCCESS
                   : CUDA_ERROR_INVALID_VALUE;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        if (value < -1 || value > 100) return CUDA_ERROR_INVALID_VALUE;
        return set_extra(k, attrib, value);
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
        if (value != 0 && value != 1) return CUDA_ERROR_INVALID_VALUE;
        return set_extra(k, attrib, value);
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        if (value < CU_CLUSTER_SCHEDULING_POLICY_DEFAULT || value > CU_CLUSTER_SCHEDULING_POLICY_LOAD_BALANCING)
            return CUDA_ERROR_INVALID_VALUE;
        return set_extra(k, attrib, value);
    default: return CUDA_ERROR_INVALID_VALUE;
    }
}

CD_EXPORT CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc) {
    return get_attr(pi, attrib, KERNEL(hfunc));
}

CD_EXPORT CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value) {
    return set_attr(attrib, value, KERNEL(hfunc));
}

CD_EXPORT CUresult cuKernelGetAttribute(int *pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev) {
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    return get_attr(pi, attrib, KERNEL(kernel));
}

CD_EXPORT CUresult cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel, CUdevice dev) {
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    return set_attr(attrib, val, KERNEL(kernel));
}

/* The L1/shared split is a hint a GPU may ignore; ptxi has no L1 to split. */
CD_EXPORT CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config) {
    if (!cd_kernel_valid(KERNEL(hfunc))) return CUDA_ERROR_INVALID_HANDLE;
    return (unsigned)config <= CU_FUNC_CACHE_PREFER_EQUAL ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CD_EXPORT CUresult cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev) {
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    return cuFuncSetCacheConfig((CUfunction)kernel, config);
}

/* ---- occupancy ---- */

static CUresult occ_kernel(CUfunction f, ptxi_kernel **k) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    *k = KERNEL(f);
    return cd_kernel_valid(*k) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

static int active_blocks(ptxi_kernel *k, int block_size, size_t dyn_shared) {
    if (dyn_shared > (size_t)kattr(k, PTXI_KATTR_MAX_DYNAMIC_SHARED_BYTES)) return 0;
    return ptxi_kernel_max_active_blocks(k, block_size, dyn_shared);
}

CD_EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, CUfunction func, int blockSize,
                                                                        size_t dynamicSMemSize, unsigned int flags) {
    (void)flags;
    ptxi_kernel *k;
    CUresult r = occ_kernel(func, &k);
    if (r != CUDA_SUCCESS) return r;
    if (!numBlocks) return CUDA_ERROR_INVALID_VALUE;
    *numBlocks = active_blocks(k, blockSize, dynamicSMemSize);
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func, int blockSize,
                                                               size_t dynamicSMemSize) {
    return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

/* The block size (a multiple of the warp size) giving the most resident threads
 * per SM, the largest such on a tie; the grid that fills the device with it. */
CD_EXPORT CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, CUfunction func,
                                                             CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                             size_t dynamicSMemSize, int blockSizeLimit,
                                                             unsigned int flags) {
    (void)flags;
    ptxi_kernel *k;
    CUresult r = occ_kernel(func, &k);
    if (r != CUDA_SUCCESS) return r;
    if (!minGridSize || !blockSize) return CUDA_ERROR_INVALID_VALUE;
    int limit = kattr(k, PTXI_KATTR_MAX_THREADS_PER_BLOCK), sms = 0;
    if (blockSizeLimit > 0 && blockSizeLimit < limit) limit = blockSizeLimit;
    ptxi_device_attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &sms);
    int best = 0, best_blocks = 0, best_threads = 0;
    for (int b = (limit + 31) / 32 * 32; b > 0; b -= 32) {
        int size = b > limit ? limit : b;
        size_t dyn = blockSizeToDynamicSMemSize ? blockSizeToDynamicSMemSize(size) : dynamicSMemSize;
        int n = active_blocks(k, size, dyn);
        if (n * size > best_threads) best = size, best_blocks = n, best_threads = n * size;
    }
    *blockSize = best;
    *minGridSize = best_blocks * sms;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction func,
                                                    CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                    size_t dynamicSMemSize, int blockSizeLimit) {
    return cuOccupancyMaxPotentialBlockSizeWithFlags(minGridSize, blockSize, func, blockSizeToDynamicSMemSize,
                                                     dynamicSMemSize, blockSizeLimit, 0);
}

CD_EXPORT CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, CUfunction func, int numBlocks,
                                                           int blockSize) {
    (void)blockSize;
    ptxi_kernel *k;
    CUresult r = occ_kernel(func, &k);
    if (r != CUDA_SUCCESS) return r;
    if (!dynamicSmemSize || numBlocks <= 0) return CUDA_ERROR_INVALID_VALUE;
    *dynamicSmemSize = ptxi_kernel_available_dyn_shared(k, numBlocks);
    return CUDA_SUCCESS;
}

/* Clusters of the config's shape that can be resident at once: the blocks that fit on
 * every SM, in whole clusters. (A GPU also keeps each cluster inside one GPC, which
 * can leave SMs over; this is the bound without that.) */
CD_EXPORT CUresult cuOccupancyMaxActiveClusters(int *numClusters, CUfunction func, const CUlaunchConfig *config) {
    ptxi_kernel *k;
    CUresult r = occ_kernel(func, &k);
    if (r != CUDA_SUCCESS) return r;
    if (!numClusters || !config || (config->numAttrs && !config->attrs)) return CUDA_ERROR_INVALID_VALUE;
    unsigned size = 0;
    for (unsigned i = 0; i < config->numAttrs; i++)
        if (config->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
            size = config->attrs[i].value.clusterDim.x * config->attrs[i].value.clusterDim.y *
                   config->attrs[i].value.clusterDim.z;
    unsigned most = get_extra(k).non_portable ? 16 : 8;
    if (!size || size > most) return CUDA_ERROR_INVALID_CLUSTER_SIZE;
    int sms = 0;
    ptxi_device_attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &sms);
    int per_sm = active_blocks(k, (int)(config->blockDimX * config->blockDimY * config->blockDimZ),
                               config->sharedMemBytes);
    *numClusters = per_sm * sms / (int)size;
    return CUDA_SUCCESS;
}

/* ---- tensor maps (the sm_90 bulk tensor copies: Triton's TMA) ---- */

CD_EXPORT CUresult cuTensorMapEncodeTiled(CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
                                          cuuint32_t tensorRank, void *globalAddress, const cuuint64_t *globalDim,
                                          const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
                                          const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
                                          CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
                                          CUtensorMapFloatOOBfill oobFill) {
    if (!tensorMap || !globalDim || !boxDim || !elementStrides || (tensorRank > 1 && !globalStrides))
        return CUDA_ERROR_INVALID_VALUE;
    return ptxi_tmap_encode_tiled(tensorMap, (unsigned)tensorDataType, tensorRank, (uint64_t)(uintptr_t)globalAddress,
                                  globalDim, globalStrides, boxDim, elementStrides, (unsigned)interleave,
                                  (unsigned)swizzle, (unsigned)l2Promotion, (unsigned)oobFill)
               ? CUDA_ERROR_INVALID_VALUE
               : CUDA_SUCCESS;
}

CD_EXPORT CUresult cuTensorMapEncodeIm2col(CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
                                           cuuint32_t tensorRank, void *globalAddress, const cuuint64_t *globalDim,
                                           const cuuint64_t *globalStrides, const int *pixelBoxLowerCorner,
                                           const int *pixelBoxUpperCorner, cuuint32_t channelsPerPixel,
                                           cuuint32_t pixelsPerColumn, const cuuint32_t *elementStrides,
                                           CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                                           CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill) {
    return ptxi_tmap_encode_im2col(tensorMap, (unsigned)tensorDataType, tensorRank, (uint64_t)(uintptr_t)globalAddress,
                                   globalDim, globalStrides, pixelBoxLowerCorner, pixelBoxUpperCorner, channelsPerPixel,
                                   pixelsPerColumn, elementStrides, (unsigned)interleave, (unsigned)swizzle,
                                   (unsigned)l2Promotion, (unsigned)oobFill)
               ? CUDA_ERROR_INVALID_VALUE
               : CUDA_SUCCESS;
}

/* The map's global address, checked as cuTensorMapEncodeTiled checks it (16-byte aligned). */
CD_EXPORT CUresult cuTensorMapReplaceAddress(CUtensorMap *tensorMap, void *globalAddress) {
    return ptxi_tmap_replace_address(tensorMap, (uint64_t)(uintptr_t)globalAddress) ? CUDA_ERROR_INVALID_VALUE
                                                                                    : CUDA_SUCCESS;
}
