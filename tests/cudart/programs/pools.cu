// pools.cu — the stream-ordered allocator: the default and the current memory pool,
// cudaMallocAsync/cudaFreeAsync, pool attributes (release threshold, reserved and used
// memory and their high-water marks), cudaMemPoolTrimTo, pools of one's own with
// cudaMallocFromPoolAsync, pool access, and the errors of each call.
#include "check.h"
#include <cstdint>

__global__ void fill(int *p, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v + i;
}

static unsigned long long attr(cudaMemPool_t p, cudaMemPoolAttr a) {
    unsigned long long v = 12345;
    cudaError_t e = cudaMemPoolGetAttribute(p, a, &v);
    return e == cudaSuccess ? v : ~0ull;
}

int main() {
    cudaMemPool_t def = nullptr, cur = nullptr;
    SHOW(cudaDeviceGetDefaultMemPool(&def, 0));
    SHOW(cudaDeviceGetMemPool(&cur, 0));
    printf("current is default: %s\n", def == cur ? "yes" : "no");
    SHOW(cudaDeviceGetDefaultMemPool(&def, 5));
    printf("release threshold %llu\n", attr(def, cudaMemPoolAttrReleaseThreshold));
    int reuse = -1;
    SHOW(cudaMemPoolGetAttribute(def, cudaMemPoolReuseAllowOpportunistic, &reuse));
    printf("reuse opportunistic %d\n", reuse);

    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    const int n = 1 << 18;   // 1 MiB of ints
    int *d = nullptr;
    SHOW(cudaMallocAsync((void **)&d, n * sizeof(int), s));
    fill<<<n / 256, 256, 0, s>>>(d, n, 5);
    int h[4];
    CHECK(cudaMemcpyAsync(h, d + 1000, sizeof h, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    printf("values %d %d %d %d\n", h[0], h[1], h[2], h[3]);
    unsigned long long used = attr(def, cudaMemPoolAttrUsedMemCurrent),
                       reserved = attr(def, cudaMemPoolAttrReservedMemCurrent);
    printf("in use: used >= 1 MiB %s, reserved >= used %s\n", used >= (1u << 20) ? "yes" : "no",
           reserved >= used ? "yes" : "no");
    SHOW(cudaFreeAsync(d, s));
    CHECK(cudaStreamSynchronize(s));
    printf("after free: used %llu, used high >= 1 MiB %s\n", attr(def, cudaMemPoolAttrUsedMemCurrent),
           attr(def, cudaMemPoolAttrUsedMemHigh) >= (1u << 20) ? "yes" : "no");
    printf("after free with threshold 0: reserved %llu\n", attr(def, cudaMemPoolAttrReservedMemCurrent));

    // a threshold keeps freed memory reserved; TrimTo gives it back
    unsigned long long big = UINT64_MAX;
    SHOW(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &big));
    printf("release threshold %llu\n", attr(def, cudaMemPoolAttrReleaseThreshold));
    CHECK(cudaMallocAsync((void **)&d, n * sizeof(int), s));
    CHECK(cudaFreeAsync(d, s));
    CHECK(cudaStreamSynchronize(s));
    printf("kept after free: %s, used %llu\n", attr(def, cudaMemPoolAttrReservedMemCurrent) >= (1u << 20) ? "yes" : "no",
           attr(def, cudaMemPoolAttrUsedMemCurrent));
    SHOW(cudaMemPoolTrimTo(def, 0));
    printf("after trim: reserved %llu\n", attr(def, cudaMemPoolAttrReservedMemCurrent));
    unsigned long long zero = 0, one = 1;
    SHOW(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &zero));
    SHOW(cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemHigh, &zero));
    printf("used high after reset %llu\n", attr(def, cudaMemPoolAttrUsedMemHigh));
    SHOW(cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemHigh, &one));
    SHOW(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReservedMemHigh, &zero));
    SHOW(cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemCurrent, &zero));

    // a pool of one's own
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t mine = nullptr;
    SHOW(cudaMemPoolCreate(&mine, &props));
    int *a = nullptr, *b = nullptr;
    SHOW(cudaMallocFromPoolAsync((void **)&a, 4096, mine, s));
    printf("own pool used >= 4096: %s, default pool used %llu\n",
           attr(mine, cudaMemPoolAttrUsedMemCurrent) >= 4096 ? "yes" : "no", attr(def, cudaMemPoolAttrUsedMemCurrent));
    SHOW(cudaDeviceSetMemPool(0, mine));
    SHOW(cudaDeviceGetMemPool(&cur, 0));
    printf("current is mine: %s\n", cur == mine ? "yes" : "no");
    SHOW(cudaMallocAsync((void **)&b, 4096, s));
    fill<<<16, 256, 0, s>>>(b, 4096 / 4, 1);
    fill<<<16, 256, 0, s>>>(a, 4096 / 4, 2);
    CHECK(cudaMemcpyAsync(h, b, sizeof h, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    printf("from the current pool %d %d, used >= 8192: %s\n", h[0], h[3],
           attr(mine, cudaMemPoolAttrUsedMemCurrent) >= 8192 ? "yes" : "no");
    cudaMemLocation loc = {};
    loc.type = cudaMemLocationTypeDevice;
    loc.id = 0;
    cudaMemAccessFlags fl = cudaMemAccessFlagsProtNone;
    SHOW(cudaMemPoolGetAccess(&fl, mine, &loc));
    printf("access from device 0: %d\n", (int)fl);
    cudaMemAccessDesc desc = {};
    desc.location = loc;
    desc.flags = cudaMemAccessFlagsProtReadWrite;
    SHOW(cudaMemPoolSetAccess(mine, &desc, 1));
    loc.id = 3;
    SHOW(cudaMemPoolGetAccess(&fl, mine, &loc));
    SHOW(cudaFreeAsync(a, s));
    SHOW(cudaFreeAsync(b, s));
    CHECK(cudaStreamSynchronize(s));
    printf("own pool used after free %llu\n", attr(mine, cudaMemPoolAttrUsedMemCurrent));
    SHOW(cudaMemPoolDestroy(def));
    SHOW(cudaMemPoolDestroy(mine));
    SHOW(cudaDeviceGetMemPool(&cur, 0));
    printf("current is default again: %s\n", cur == def ? "yes" : "no");

    // errors
    SHOW(cudaMallocAsync(nullptr, 16, s));
    SHOW(cudaMallocAsync((void **)&a, 0, s));
    printf("zero-size pointer %s\n", a ? "non-null" : "null");
    SHOW(cudaFreeAsync(nullptr, s));
    props.location.id = 7;
    SHOW(cudaMemPoolCreate(&mine, &props));
    SHOW(cudaMallocAsync((void **)&a, 16, (cudaStream_t)0));
    SHOW(cudaFreeAsync(a, 0));
    SHOW(cudaDeviceSynchronize());
    return 0;
}
