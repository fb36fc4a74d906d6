// vmm.cu — the driver's virtual memory management from a runtime program:
// granularity, physical allocations (cuMemCreate) mapped into reserved address
// ranges, access rights, kernels reading and writing through the mapping, contents
// kept by an allocation across unmap and a map at another address, handle
// retain/release, and the calls' answers to bad arguments.
#include <cuda.h>
#include "check.h"
#include <cstring>

__global__ void fill(unsigned *p, size_t n, unsigned seed) {
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        p[i] = (unsigned)i * 2654435761u + seed;
}

__global__ void sum(const unsigned *p, size_t n, unsigned long long *out) {
    unsigned long long s = 0;
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += p[i];
    atomicAdd(out, s);
}

static unsigned long long expect(size_t n, unsigned seed) {
    unsigned long long s = 0;
    for (size_t i = 0; i < n; i++) s += (unsigned)i * 2654435761u + seed;
    return s;
}

static unsigned long long *d_out;

static unsigned long long total(CUdeviceptr p, size_t bytes) {
    cudaMemset(d_out, 0, sizeof *d_out);
    sum<<<64, 256>>>((const unsigned *)p, bytes / 4, d_out);
    unsigned long long h = 0;
    cudaError_t e = cudaMemcpy(&h, d_out, sizeof h, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) printf("sum: %s\n", cudaGetErrorName(e));
    return h;
}

int main() {
    CHECK(cudaFree(0));
    CHECK(cudaMalloc(&d_out, sizeof *d_out));

    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    size_t gmin = 0, grec = 0;
    DRV(cuMemGetAllocationGranularity(&gmin, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    DRV(cuMemGetAllocationGranularity(&grec, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
    printf("granularity: minimum %zu recommended %zu\n", gmin, grec);
    CUmemAllocationProp bad = prop;
    bad.location.id = 7;
    size_t g = 0;
    DRV(cuMemGetAllocationGranularity(&g, &bad, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    bad = prop;
    bad.type = CU_MEM_ALLOCATION_TYPE_INVALID;
    DRV(cuMemGetAllocationGranularity(&g, &bad, CU_MEM_ALLOC_GRANULARITY_MINIMUM));

    const size_t G = gmin;
    CUmemGenericAllocationHandle h1 = 0, h2 = 0, h3 = 0;
    DRV(cuMemCreate(&h1, G + 4096, &prop, 0));
    DRV(cuMemCreate(&h1, 0, &prop, 0));
    DRV(cuMemCreate(&h1, G, &prop, 1));
    DRV(cuMemCreate(&h1, G, &prop, 0));
    DRV(cuMemCreate(&h2, 2 * G, &prop, 0));

    CUmemAllocationProp got;
    memset(&got, 0x5a, sizeof got);
    DRV(cuMemGetAllocationPropertiesFromHandle(&got, h2));
    printf("props: type %d location type %d id %d handle types %d\n", (int)got.type, (int)got.location.type,
           got.location.id, (int)got.requestedHandleTypes);

    CUdeviceptr va = 0, vb = 0;
    DRV(cuMemAddressReserve(&va, G + 4096, 0, 0, 0));
    DRV(cuMemAddressReserve(&va, 3 * G, 0, 0, 0));
    printf("reserved range aligned to the granularity: %d\n", (int)(va % G == 0));
    DRV(cuMemAddressReserve(&vb, 2 * G, 4 * G, 0, 0));
    printf("reserved range aligned to 4 x granularity: %d\n", (int)(vb % (4 * G) == 0));

    // map h1 at va, h2 right after it: one contiguous 3G range
    DRV(cuMemMap(va, G, 0, h1, 1));
    DRV(cuMemMap(va, G / 2, 0, h1, 0));
    DRV(cuMemMap(va, 2 * G, 0, h1, 0));
    DRV(cuMemMap(va, G, 0, h1, 0));
    DRV(cuMemMap(va, G, 0, h2, 0));
    DRV(cuMemMap(va + G, 2 * G, 0, h2, 0));

    CUmemAccessDesc acc;
    memset(&acc, 0, sizeof acc);
    acc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    acc.location.id = 0;
    acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    DRV(cuMemSetAccess(va, 3 * G, &acc, 1));
    unsigned long long flags = 99;
    DRV(cuMemGetAccess(&flags, &acc.location, va + G));
    printf("access flags: %llu\n", flags);
    DRV(cuMemSetAccess(vb, 2 * G, &acc, 1));

    fill<<<64, 256>>>((unsigned *)va, 3 * G / 4, 7);
    CHECK(cudaDeviceSynchronize());
    printf("sum over both allocations matches: %d\n", (int)(total(va, 3 * G) == expect(3 * G / 4, 7)));
    unsigned first[4] = {0};
    CHECK(cudaMemcpy(first, (void *)(va + G), sizeof first, cudaMemcpyDeviceToHost));
    printf("h2's first words: %u %u %u %u\n", first[0], first[1], first[2], first[3]);

    CUmemGenericAllocationHandle r = 0;
    DRV(cuMemRetainAllocationHandle(&r, (void *)(va + G + 4096)));
    printf("retained handle is h2: %d\n", (int)(r == h2));
    DRV(cuMemRelease(r));

    // move h2 to vb: its contents go with it
    DRV(cuMemUnmap(va + G, G));
    DRV(cuMemUnmap(va + G, 2 * G));
    DRV(cuMemUnmap(va + G, 2 * G));
    DRV(cuMemMap(vb, 2 * G, 0, h2, 0));
    DRV(cuMemSetAccess(vb, 2 * G, &acc, 1));
    CHECK(cudaMemcpy(first, (void *)vb, sizeof first, cudaMemcpyDeviceToHost));
    printf("h2's first words at its new address: %u %u %u %u\n", first[0], first[1], first[2], first[3]);
    unsigned long long moved = total(vb, 2 * G), want = 0;
    for (size_t i = G / 4; i < 3 * G / 4; i++) want += (unsigned)i * 2654435761u + 7;
    printf("h2's contents kept: %d\n", (int)(moved == want));

    // releasing a mapped allocation keeps it until it is unmapped
    DRV(cuMemRelease(h2));
    printf("still readable after release: %d\n", (int)(total(vb, 2 * G) == want));
    DRV(cuMemRelease(h2));
    DRV(cuMemUnmap(vb, 2 * G));
    DRV(cuMemAddressFree(vb, 2 * G));

    DRV(cuMemUnmap(va, G));
    DRV(cuMemRelease(h1));
    DRV(cuMemRelease(h1));
    DRV(cuMemAddressFree(va, G));
    DRV(cuMemAddressFree(va, 3 * G));
    DRV(cuMemCreate(&h3, G, &prop, 0));
    DRV(cuMemRelease(h3));
    CHECK(cudaFree(d_out));
    printf("done\n");
    return 0;
}
