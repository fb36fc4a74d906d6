/* test_launch.c — cuLaunchKernel with kernelParams and with a packed buffer,
 * cuLaunchKernelEx's cluster and cooperative attributes, cuLaunchCooperativeKernel's
 * size limit, refused configurations, function attributes, the occupancy calculator
 * (an H100's limits: 2048 threads, 64K registers and 228 KiB of shared memory per SM,
 * 1 KiB of it reserved per block), and a fault: sticky until the primary context is reset. */
#include <stdlib.h>

#include "drv.h"

static CUfunction fn(CUmodule m, const char *name) {
    CUfunction f;
    CK(cuModuleGetFunction(&f, m, name));
    return f;
}

Test(launch, packed_parameter_buffer) {
    drv_setup();
    CUmodule m = drv_module();
    unsigned h[64];
    for (int i = 0; i < 64; i++) h[i] = (unsigned)i;
    CUdeviceptr d;
    CK(cuMemAlloc(&d, sizeof h));
    CK(cuMemcpyHtoD(d, h, sizeof h));
    struct {
        CUdeviceptr p;
        unsigned k, n;
    } params = {d, 3, 64};
    size_t size = sizeof params;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &params, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
    CK(cuLaunchKernel(fn(m, "scale"), 1, 1, 1, 64, 1, 1, 0, NULL, NULL, extra));
    CK(cuMemcpyDtoH(h, d, sizeof h));
    for (int i = 0; i < 64; i++) cr_expect_eq(h[i], 3u * (unsigned)i);
    void *args[] = {&d, &params.k, &params.n};
    cr_expect_eq(cuLaunchKernel(fn(m, "scale"), 1, 1, 1, 64, 1, 1, 0, NULL, args, extra), CUDA_ERROR_INVALID_VALUE);
}

Test(launch, cluster_dimension_attribute) {
    drv_setup();
    CUmodule m = drv_module();
    CUdeviceptr d;
    CK(cuMemAlloc(&d, 32 * 4));
    CK(cuMemsetD32(d, 0xffffffffu, 32));
    CUlaunchAttribute attr = {.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION};
    attr.value.clusterDim.x = 4, attr.value.clusterDim.y = 1, attr.value.clusterDim.z = 1;
    CUlaunchConfig cfg = {32, 1, 1, 32, 1, 1, 0, NULL, &attr, 1};
    void *args[] = {&d};
    CK(cuLaunchKernelEx(&cfg, fn(m, "rank"), args, NULL));
    unsigned r[32];
    CK(cuMemcpyDtoH(r, d, sizeof r));
    for (unsigned i = 0; i < 32; i++) cr_expect_eq(r[i], i % 4, "block %u: rank %u", i, r[i]);
    /* a grid that is no whole number of clusters */
    cfg.gridDimX = 30;
    cr_expect_neq(cuLaunchKernelEx(&cfg, fn(m, "rank"), args, NULL), CUDA_SUCCESS);
    /* cluster and cooperative together are refused */
    CUlaunchAttribute two[2] = {attr, {.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE}};
    two[1].value.cooperative = 1;
    CUlaunchConfig both = {32, 1, 1, 32, 1, 1, 0, NULL, two, 2};
    cr_expect_eq(cuLaunchKernelEx(&both, fn(m, "rank"), args, NULL), CUDA_ERROR_INVALID_VALUE);
}

/* Every block of a cooperative grid is resident at once: 2 blocks of 1024 threads per
 * SM, 132 SMs. */
Test(launch, cooperative_size_limit) {
    drv_setup();
    CUmodule m = drv_module();
    CUfunction e = fn(m, "empty");
    CK(cuLaunchCooperativeKernel(e, 264, 1, 1, 1024, 1, 1, 0, NULL, NULL));
    cr_expect_eq(cuLaunchCooperativeKernel(e, 265, 1, 1, 1024, 1, 1, 0, NULL, NULL),
                 CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);
    CUlaunchAttribute coop = {.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE};
    coop.value.cooperative = 1;
    CUlaunchConfig cfg = {265, 1, 1, 1024, 1, 1, 0, NULL, &coop, 1};
    cr_expect_eq(cuLaunchKernelEx(&cfg, e, NULL, NULL), CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);
    cfg.gridDimX = 132;
    CK(cuLaunchKernelEx(&cfg, e, NULL, NULL));
}

Test(launch, refused_configurations) {
    drv_setup();
    CUmodule m = drv_module();
    CUfunction e = fn(m, "empty");
    cr_expect_eq(cuLaunchKernel(e, 1, 1, 1, 2048, 1, 1, 0, NULL, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
    cr_expect_eq(cuLaunchKernel(e, 1, 1, 1, 32, 1, 1, 200000, NULL, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
    cr_expect_eq(cuLaunchKernel((CUfunction)&m, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL), CUDA_ERROR_INVALID_HANDLE);
    cr_expect_eq(cuLaunchKernel(e, 1, 1, 1, 32, 1, 1, 0, (CUstream)&m, NULL, NULL), CUDA_ERROR_INVALID_HANDLE);
    CK(cuLaunchKernel(e, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL)); /* still usable */
}

Test(launch, function_attributes) {
    drv_setup();
    CUmodule m = drv_module();
    CUfunction f = fn(m, "add");
    int v;
    CK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
    cr_expect_eq(v, 1024);
    CK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
    cr_expect_eq(v, 0);
    CK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_PTX_VERSION, f));
    cr_expect_eq(v, 80);
    CK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_BINARY_VERSION, f));
    cr_expect_eq(v, 90);
    CK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 100000));
    CK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f));
    cr_expect_eq(v, 100000);
    /* 227 KiB is the most a block may opt in to */
    cr_expect_eq(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 232449),
                 CUDA_ERROR_INVALID_VALUE);
    CK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, f));
    cr_expect_eq(v, -1);
    CK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 50));
    CK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, f));
    cr_expect_eq(v, 50);
    cr_expect_eq(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_NUM_REGS, 8), CUDA_ERROR_INVALID_VALUE);
    CK(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (CUkernel)f, 0));
    cr_expect_eq(v, 100000);
    CK(cuFuncSetCacheConfig(f, CU_FUNC_CACHE_PREFER_SHARED));
    size_t off, size;
    CK(cuFuncGetParamInfo(f, 3, &off, &size));
    cr_expect_eq(off, 24);
    cr_expect_eq(size, 4);
    cr_expect_eq(cuFuncGetParamInfo(f, 4, &off, &size), CUDA_ERROR_INVALID_VALUE);
}

Test(launch, occupancy) {
    drv_setup();
    CUmodule m = drv_module();
    CUfunction f = fn(m, "add");
    int n;
    CK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, 1024, 0));
    cr_expect_eq(n, 2); /* 2048 threads per SM */
    CK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, 128, 0));
    cr_expect_eq(n, 16);
    /* beyond the default 48 KiB of dynamic shared memory: none until opted in */
    CK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, 128, 100000));
    cr_expect_eq(n, 0);
    CK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 100000));
    CK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, 128, 100000));
    cr_expect_eq(n, 2); /* (100000 + 1024) rounded to 128 bytes, twice in 228 KiB */
    int grid, block;
    CK(cuOccupancyMaxPotentialBlockSize(&grid, &block, f, NULL, 0, 0));
    cr_expect_eq(block, 1024);
    cr_expect_eq(grid, 2 * 132);
    /* up to 96 threads: 96 fills 21 x 96 = 2016 thread slots of 2048 (3 warps per block,
     * 64 warps per SM), 64 fills all 2048 with 32 blocks, the per-SM block limit */
    CK(cuOccupancyMaxPotentialBlockSize(&grid, &block, f, NULL, 0, 96));
    cr_expect_eq(block, 64);
    cr_expect_eq(grid, 32 * 132);
    /* clusters of 4 blocks of 1024 threads: 2 blocks per SM, 264 in all, 66 clusters */
    CUlaunchAttribute attr = {.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION};
    attr.value.clusterDim.x = 4, attr.value.clusterDim.y = 1, attr.value.clusterDim.z = 1;
    CUlaunchConfig cfg = {4, 1, 1, 1024, 1, 1, 0, NULL, &attr, 1};
    CK(cuOccupancyMaxActiveClusters(&n, f, &cfg));
    cr_expect_eq(n, 66);
    attr.value.clusterDim.x = 16;
    cr_expect_eq(cuOccupancyMaxActiveClusters(&n, f, &cfg), CUDA_ERROR_INVALID_CLUSTER_SIZE);
    CK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1));
    CK(cuOccupancyMaxActiveClusters(&n, f, &cfg));
    cr_expect_eq(n, 16);
    size_t dyn;
    CK(cuOccupancyAvailableDynamicSMemPerBlock(&dyn, f, 2, 128));
    cr_expect_eq(dyn, 233472 / 2 - 1024);
}

/* A fault makes the context's error sticky: every call answers it, until the primary
 * context is reset, which frees its memory and modules. */
Test(launch, sticky_fault_until_reset) {
    setenv("PTXI_QUIET", "1", 1);
    CUcontext ctx = drv_setup();
    CUmodule m = drv_module();
    CUdeviceptr bad = 16;
    void *args[] = {&bad};
    CK(cuLaunchKernel(fn(m, "fault"), 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
    cr_expect_eq(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
    CUdeviceptr d;
    cr_expect_eq(cuMemAlloc(&d, 16), CUDA_ERROR_ILLEGAL_ADDRESS);
    cr_expect_eq(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
    CK(cuDevicePrimaryCtxReset(0));
    CK(cuCtxSetCurrent(ctx));
    CK(cuCtxSynchronize());
    CK(cuMemAlloc(&d, 16));
    CUfunction f;
    cr_expect_eq(cuModuleGetFunction(&f, m, "add"), CUDA_ERROR_INVALID_HANDLE);
    m = drv_module();
    CK(cuLaunchKernel(fn(m, "empty"), 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL));
    CK(cuCtxSynchronize());
}

/* cuTensorMapEncodeTiled's rules (the driver API reference): a 16-byte aligned
 * address, strides multiples of 16, an inner box extent of a multiple of 16 bytes. */
Test(launch, tensor_maps) {
    drv_setup();
    CUdeviceptr d;
    CK(cuMemAlloc(&d, 64 * 64 * 4));
    CUtensorMap map;
    cuuint64_t dims[2] = {64, 64}, strides[1] = {64 * 4};
    cuuint32_t box[2] = {16, 8}, es[2] = {1, 1};
    CK(cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)d, dims, strides, box, es,
                              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                              CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    cr_expect_eq(cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)(d + 4), dims, strides, box,
                                        es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                        CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
                 CUDA_ERROR_INVALID_VALUE);
    CK(cuTensorMapReplaceAddress(&map, (void *)(d + 256)));
    cr_expect_eq(cuTensorMapReplaceAddress(&map, (void *)(d + 8)), CUDA_ERROR_INVALID_VALUE);
}

/* cuTensorMapEncodeIm2col is implemented (not the stub) and keeps its rules:
 * a 4-D NHWC map, then a corner outside [-128, 127] for rank 4. */
Test(launch, tensor_maps_im2col) {
    drv_setup();
    CUdeviceptr d;
    CK(cuMemAlloc(&d, 16 * 8 * 8 * 2 * 4));
    CUtensorMap map;
    cuuint64_t dims[4] = {16, 8, 8, 2}, strides[3] = {64, 512, 4096};
    int lo[2] = {-1, -1}, up[2] = {-1, -1}, bad[2] = {-129, -1};
    cuuint32_t es[4] = {1, 1, 1, 1};
    CK(cuTensorMapEncodeIm2col(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, (void *)d, dims, strides, lo, up, 16, 32, es,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                               CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    cr_expect_eq(cuTensorMapEncodeIm2col(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, (void *)d, dims, strides, bad, up,
                                         16, 32, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                         CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
                 CUDA_ERROR_INVALID_VALUE);
    void *fp = NULL;
    CUdriverProcAddressQueryResult q;
    CK(cuGetProcAddress("cuTensorMapEncodeIm2col", &fp, 12000, 0, &q));
    cr_expect_eq(fp, (void *)cuTensorMapEncodeIm2col);
}
