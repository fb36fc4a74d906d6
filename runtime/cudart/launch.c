/* launch.c — kernel launches: the <<<>>> configuration stack of nvcc's stubs,
 * __cudaLaunchKernel, cudaLaunchKernel / Cooperative / ExC, kernel attributes and the
 * occupancy calculator. A fault during a kernel is reported by the next call that
 * waits for the device, not by the launch, as on a GPU. */
#include <string.h>

#include "cudart_internal.h"

/* <<<g, b, s, st>>> pushes, the stub pops; nesting comes from launches inside arguments. */
typedef struct {
    dim3 grid, block;
    size_t shared;
    cudaStream_t stream;
} launch_config;

static _Thread_local launch_config configs[32];
static _Thread_local unsigned depth;

CR_EXPORT unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                               struct CUstream_st *stream) {
    if (depth >= sizeof configs / sizeof configs[0]) return 1;
    configs[depth++] = (launch_config){gridDim, blockDim, sharedMem, stream};
    return 0;
}

CR_EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream) {
    if (!depth) return cudaErrorMissingConfiguration;
    launch_config *c = &configs[--depth];
    *gridDim = c->grid;
    *blockDim = c->block;
    *sharedMem = c->shared;
    *(cudaStream_t *)stream = c->stream;
    return cudaSuccess;
}

static cudaError_t launch(cudaError_t found, ptxi_kernel *k, dim3 g, dim3 b, void **args, size_t shared,
                          cudaStream_t stream, unsigned flags, const dim3 *cluster) {
    cudaError_t e = cr_init_ex(false);
    if (e != cudaSuccess) return cr_ret(e);
    if (found != cudaSuccess) return cr_ret(found);
    if (cr_capturing(stream)) return cr_capture_kernel(k, g, b, args, shared, stream);
    CR_STREAM_WORK(stream);
    if (cr_debugging) cr_debug_launch(k, g, b);
    ptxi_status s = cluster ? ptxi_launch_cluster(k, (ptxi_dim3){g.x, g.y, g.z}, (ptxi_dim3){b.x, b.y, b.z},
                                                  (ptxi_dim3){cluster->x, cluster->y, cluster->z}, shared,
                                                  cr_stream(stream), args, flags)
                            : ptxi_launch_ex(k, (ptxi_dim3){g.x, g.y, g.z}, (ptxi_dim3){b.x, b.y, b.z}, shared,
                                             cr_stream(stream), args, flags);
    if (cr_debugging) cr_debug_launch_end();
    if (s != PTXI_SUCCESS && ptxi_error_is_sticky(s)) {
        cr_defer_fault(s);
        return cudaSuccess;
    }
    /* CUDA 13 on an H100 answers every refused configuration (block or grid size,
     * launch bounds, shared memory) with cudaErrorInvalidValue (ptx-samples/app_errors). */
    if (s == PTXI_INVALID_CONFIGURATION || s == PTXI_LAUNCH_OUT_OF_RESOURCES) return cr_ret(cudaErrorInvalidValue);
    return cr_st(s);
}

cudaError_t cr_launch(ptxi_kernel *k, dim3 g, dim3 b, void **args, size_t shared, cudaStream_t s) {
    return launch(cudaSuccess, k, g, b, args, shared, s, 0, NULL);
}

CR_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                         size_t sharedMem, cudaStream_t stream) {
    cudaError_t e = cr_init_ex(false);
    if (e != cudaSuccess) return cr_ret(e);
    ptxi_kernel *k = NULL;
    cudaError_t found = cr_kernel_of_handle(kernel, &k);
    return launch(found, k, gridDim, blockDim, args, sharedMem, stream, 0, NULL);
}

CR_EXPORT cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                       cudaStream_t stream) {
    cudaError_t e = cr_init_ex(false);
    if (e != cudaSuccess) return cr_ret(e);
    ptxi_kernel *k = NULL;
    cudaError_t found = cr_kernel_of(func, &k);
    return launch(found, k, gridDim, blockDim, args, sharedMem, stream, 0, NULL);
}

static int max_active_blocks(cr_func *f, ptxi_kernel *k, int block_size, size_t dyn_shared);

/* All blocks of a cooperative grid must be resident at once, as on the GPU. */
static cudaError_t launch_cooperative(const void *func, dim3 g, dim3 b, void **args, size_t shared,
                                      cudaStream_t stream) {
    cudaError_t e = cr_init_ex(false);
    if (e != cudaSuccess) return cr_ret(e);
    ptxi_kernel *k = NULL;
    cudaError_t found = cr_kernel_of(func, &k);
    if (found == cudaSuccess) {
        struct cudaDeviceProp p;
        cr_fill_props(&p);
        unsigned long long blocks = (unsigned long long)g.x * g.y * g.z;
        int per_sm = max_active_blocks(cr_find_func(func), k, (int)(b.x * b.y * b.z), shared);
        if (per_sm > 0 && blocks > (unsigned long long)per_sm * (unsigned)p.multiProcessorCount)
            return cr_ret(cudaErrorCooperativeLaunchTooLarge);
    }
    return launch(found, k, g, b, args, shared, stream, PTXI_LAUNCH_COOPERATIVE, NULL);
}

CR_EXPORT cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                                  size_t sharedMem, cudaStream_t stream) {
    return launch_cooperative(func, gridDim, blockDim, args, sharedMem, stream);
}

/* Launch attributes: cooperative, and a cluster shape (run as the kernel's
 * __cluster_dims__ would be; a cooperative launch in clusters is refused). */
CR_EXPORT cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args) {
    if (!config) return cr_ret(cudaErrorInvalidValue);
    bool cooperative = false;
    dim3 shape;
    const dim3 *cluster = NULL;
    for (unsigned i = 0; i < config->numAttrs; i++) {
        const cudaLaunchAttribute *a = &config->attrs[i];
        if (a->id == cudaLaunchAttributeCooperative) cooperative = a->val.cooperative != 0;
        if (a->id == cudaLaunchAttributeClusterDimension &&
            (uint64_t)a->val.clusterDim.x * a->val.clusterDim.y * a->val.clusterDim.z != 1) {
            shape.x = a->val.clusterDim.x, shape.y = a->val.clusterDim.y, shape.z = a->val.clusterDim.z;
            cluster = &shape;
        }
    }
    if (cluster && cooperative) {
        cr_warn_once("a cooperative launch in clusters is not supported");
        return cr_ret(cudaErrorNotSupported);
    }
    if (cooperative)
        return launch_cooperative(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
                                  config->stream);
    if (!cluster)
        return cudaLaunchKernel(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
                                config->stream);
    cudaError_t e = cr_init_ex(false);
    if (e != cudaSuccess) return cr_ret(e);
    ptxi_kernel *k = NULL;
    cudaError_t found = cr_kernel_of(func, &k);
    return launch(found, k, config->gridDim, config->blockDim, args, config->dynamicSmemBytes, config->stream, 0,
                  cluster);
}

CR_ALIAS(__cudaLaunchKernel_ptsz, __cudaLaunchKernel);
CR_ALIAS(cudaLaunchKernel_ptsz, cudaLaunchKernel);
CR_ALIAS(cudaLaunchCooperativeKernel_ptsz, cudaLaunchCooperativeKernel);
CR_ALIAS(cudaLaunchKernelExC_ptsz, cudaLaunchKernelExC);

/* ---- kernel attributes ---- */

static int kattr(ptxi_kernel *k, ptxi_kernel_attr a, int dflt) {
    int v;
    return ptxi_kernel_get_attr(k, a, &v) == PTXI_SUCCESS ? v : dflt;
}

/* The kernel behind a host function for the attribute calls, which answer
 * cudaErrorInvalidResourceHandle for an address that is no kernel (as on an H100). */
static cudaError_t attr_kernel(const void *func, cr_func **f, ptxi_kernel **k) {
    *f = cr_find_func(func);
    if (!*f) return cudaErrorInvalidResourceHandle;
    return cr_kernel_of(func, k);
}

/* Without the opt-in, dynamic shared memory may fill what static leaves of 48 KiB. */
static int max_dyn_shared(cr_func *f, ptxi_kernel *k) {
    int set = __atomic_load_n(&f->max_dyn_shared, __ATOMIC_RELAXED); /* another thread may set it */
    if (set >= 0) return set;
    return 49152 - kattr(k, PTXI_KATTR_STATIC_SHARED_BYTES, 0);
}

CR_EXPORT cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func) {
    CR_ENTER();
    if (!attr) return cr_ret(cudaErrorInvalidValue);
    cr_func *f;
    ptxi_kernel *k;
    cudaError_t e = attr_kernel(func, &f, &k);
    if (e != cudaSuccess) return cr_ret(e);
    memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = (size_t)kattr(k, PTXI_KATTR_STATIC_SHARED_BYTES, 0);
    attr->constSizeBytes = (size_t)kattr(k, PTXI_KATTR_CONST_BYTES, 0);
    attr->localSizeBytes = (size_t)kattr(k, PTXI_KATTR_LOCAL_BYTES, 0);
    attr->maxThreadsPerBlock = kattr(k, PTXI_KATTR_MAX_THREADS_PER_BLOCK, 1024);
    attr->numRegs = kattr(k, PTXI_KATTR_NUM_REGS, 32);
    attr->ptxVersion = kattr(k, PTXI_KATTR_PTX_VERSION, 90);
    attr->binaryVersion = kattr(k, PTXI_KATTR_BINARY_VERSION, 90);
    attr->maxDynamicSharedSizeBytes = max_dyn_shared(f, k);
    attr->preferredShmemCarveout = -1;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value) {
    CR_ENTER();
    cr_func *f;
    ptxi_kernel *k;
    cudaError_t e = attr_kernel(func, &f, &k);
    if (e != cudaSuccess) return cr_ret(e);
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        struct cudaDeviceProp p;
        cr_fill_props(&p);
        if (value < 0 || (size_t)value + (size_t)kattr(k, PTXI_KATTR_STATIC_SHARED_BYTES, 0) > p.sharedMemPerBlockOptin)
            return cr_ret(cudaErrorInvalidValue);
        ptxi_status s = ptxi_kernel_set_attr(k, PTXI_KATTR_MAX_DYNAMIC_SHARED_BYTES, value);
        if (s == PTXI_SUCCESS) __atomic_store_n(&f->max_dyn_shared, value, __ATOMIC_RELAXED);
        return cr_st(s);
    }
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout && (value < -1 || value > 100))
        return cr_ret(cudaErrorInvalidValue);
    return cudaSuccess; /* placement hints change nothing here */
}

CR_EXPORT cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig) {
    (void)cacheConfig;
    CR_ENTER();
    cr_func *f;
    ptxi_kernel *k;
    return cr_ret(attr_kernel(func, &f, &k));
}

CR_EXPORT cudaError_t cudaFuncGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset,
                                           size_t *paramSize) {
    CR_ENTER();
    cr_func *f;
    ptxi_kernel *k;
    cudaError_t e = attr_kernel(func, &f, &k);
    if (e != cudaSuccess) return cr_ret(e);
    size_t size, align, offset;
    if (paramIndex >= ptxi_kernel_param_count(k) ||
        ptxi_kernel_param_info(k, (unsigned)paramIndex, &size, &align, &offset) != PTXI_SUCCESS)
        return cr_ret(cudaErrorInvalidValue);
    if (paramOffset) *paramOffset = offset;
    if (paramSize) *paramSize = size;
    return cudaSuccess;
}

/* ---- occupancy, with sm_90's per-SM resources ---- */

static int max_active_blocks(cr_func *f, ptxi_kernel *k, int block_size, size_t dyn_shared) {
    if (dyn_shared > (size_t)max_dyn_shared(f, k)) return 0;
    return ptxi_kernel_max_active_blocks(k, block_size, dyn_shared);
}

CR_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func,
                                                                             int blockSize, size_t dynamicSMemSize,
                                                                             unsigned int flags) {
    (void)flags;
    CR_ENTER();
    if (!numBlocks) return cr_ret(cudaErrorInvalidValue);
    cr_func *f;
    ptxi_kernel *k;
    cudaError_t e = attr_kernel(func, &f, &k);
    if (e != cudaSuccess) return cr_ret(e);
    *numBlocks = max_active_blocks(f, k, blockSize, dynamicSMemSize);
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize,
                                                                    size_t dynamicSMemSize) {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

CR_EXPORT cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func,
                                                                int numBlocks, int blockSize) {
    CR_ENTER();
    if (!dynamicSmemSize || numBlocks <= 0) return cr_ret(cudaErrorInvalidValue);
    cr_func *f;
    ptxi_kernel *k;
    cudaError_t e = attr_kernel(func, &f, &k);
    if (e != cudaSuccess) return cr_ret(e);
    (void)blockSize;
    *dynamicSmemSize = ptxi_kernel_available_dyn_shared(k, numBlocks);
    return cudaSuccess;
}
