// device.cu — device management: count, selection, the properties structure, device
// attributes, limits, flags, versions, kernel attributes and the occupancy calculator.
#include "check.h"

__global__ void small(int *p) { p[threadIdx.x] = threadIdx.x; }

__global__ void with_shared(int *p) {
    __shared__ int buf[1000];
    buf[threadIdx.x] = threadIdx.x;
    __syncthreads();
    p[threadIdx.x] = buf[999 - threadIdx.x];
}

__global__ void __launch_bounds__(128) bounded(int *p) { p[threadIdx.x] = 0; }

int main() {
    int count = -1, dev = -1;
    SHOW(cudaGetDeviceCount(&count));
    SHOW(cudaGetDevice(&dev));
    printf("count=%d device=%d\n", count, dev);
    int rt = 0;
    SHOW(cudaRuntimeGetVersion(&rt));
    printf("runtime=%d\n", rt);
    int drv = 0;
    SHOW(cudaDriverGetVersion(&drv));
    printf("driver>=13000: %d\n", drv >= 13000);

    cudaDeviceProp p;
    SHOW(cudaGetDeviceProperties(&p, 0));
    printf("name=%s cc=%d.%d sms=%d warp=%d\n", p.name, p.major, p.minor, p.multiProcessorCount, p.warpSize);
    printf("smem/block=%zu optin=%zu smem/sm=%zu reserved=%zu const=%zu\n", p.sharedMemPerBlock,
           p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor, p.reservedSharedMemPerBlock, p.totalConstMem);
    printf("regs/block=%d regs/sm=%d threads/block=%d threads/sm=%d blocks/sm=%d\n", p.regsPerBlock,
           p.regsPerMultiprocessor, p.maxThreadsPerBlock, p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor);
    printf("block dims %d %d %d grid dims %d %d %d\n", p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2],
           p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
    printf("l2=%d bus=%d managed=%d unified=%d concurrent=%d coop=%d cluster=%d canmap=%d pitch=%zu texalign=%zu\n",
           p.l2CacheSize, p.memoryBusWidth, p.managedMemory, p.unifiedAddressing, p.concurrentKernels,
           p.cooperativeLaunch, p.clusterLaunch, p.canMapHostMemory, p.memPitch, p.textureAlignment);
    printf("global memory > 70 GiB: %d\n", p.totalGlobalMem > (70ull << 30));
    SHOW(cudaGetDeviceProperties(&p, 1));

    const cudaDeviceAttr attrs[] = {cudaDevAttrMaxThreadsPerBlock, cudaDevAttrMaxBlockDimZ, cudaDevAttrMaxGridDimX,
                                    cudaDevAttrMaxSharedMemoryPerBlock, cudaDevAttrWarpSize,
                                    cudaDevAttrMultiProcessorCount, cudaDevAttrComputeCapabilityMajor,
                                    cudaDevAttrComputeCapabilityMinor, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                    cudaDevAttrMaxRegistersPerMultiprocessor, cudaDevAttrClockRate,
                                    cudaDevAttrConcurrentManagedAccess, cudaDevAttrCooperativeLaunch,
                                    cudaDevAttrMaxBlocksPerMultiprocessor, cudaDevAttrL2CacheSize};
    for (cudaDeviceAttr a : attrs) {
        int v = -1;
        cudaError_t e = cudaDeviceGetAttribute(&v, a, 0);
        printf("attr %d = %d (%s)\n", (int)a, v, cudaGetErrorName(e));
    }
    int v;
    SHOW(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 3));

    size_t lim = 0;
    SHOW(cudaDeviceGetLimit(&lim, cudaLimitStackSize));
    printf("stack=%zu\n", lim);
    SHOW(cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize));
    printf("heap=%zu\n", lim);
    SHOW(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32 << 20));
    SHOW(cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize));
    printf("heap=%zu\n", lim);
    SHOW(cudaDeviceSetLimit(cudaLimitStackSize, 2048));
    SHOW(cudaDeviceGetLimit(&lim, cudaLimitStackSize));
    printf("stack=%zu\n", lim);
    SHOW(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
    unsigned fl = 0;
    SHOW(cudaGetDeviceFlags(&fl));
    printf("flags=0x%x\n", fl);

    cudaFuncAttributes fa;
    SHOW(cudaFuncGetAttributes(&fa, with_shared));
    printf("with_shared: shared=%zu maxThreads=%d maxDyn=%d ptx=%d\n", fa.sharedSizeBytes, fa.maxThreadsPerBlock,
           fa.maxDynamicSharedSizeBytes, fa.ptxVersion);
    SHOW(cudaFuncGetAttributes(&fa, bounded));
    printf("bounded: shared=%zu maxThreads=%d\n", fa.sharedSizeBytes, fa.maxThreadsPerBlock);
    SHOW(cudaFuncGetAttributes(&fa, (const void *)&main));
    int blocks = -1;
    SHOW(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, small, 1024, 0));
    printf("occupancy small/1024=%d\n", blocks);
    SHOW(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, small, 32, 0));
    printf("occupancy small/32=%d\n", blocks);
    SHOW(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, small, 256, 100 * 1024));
    printf("occupancy small/256/100KiB=%d\n", blocks);
    int *d;
    CHECK(cudaMalloc(&d, 4096));
    small<<<1, 32>>>(d);
    SHOW(cudaDeviceSynchronize());
    SHOW(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 << 20));
    SHOW(cudaGetLastError());
    SHOW(cudaDeviceReset());
    return 0;
}
