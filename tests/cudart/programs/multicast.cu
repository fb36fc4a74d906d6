// multicast.cu — bulk copies with .multicast::cluster: one CTA's copy lands in
// the shared memory of every CTA named by ctaMask (at the same offset) and
// completes its bytes on each of those CTAs' mbarriers (same offset too).
// Bulk copies in clusters of 4 CTAs.
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>

#include "check.h"

#define N 256                        // words per plain copy

__device__ unsigned rank_in_cluster() {
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}
__device__ void cluster_sync() {
    asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
}
__device__ void wait_phase0(uint32_t bar) {
    asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0; @!p bra W; }"
                 :: "r"(bar) : "memory");
}

// mask[r]: ctaMask of the copy CTA r issues (0: none); CTA r expects bytes[r].
__global__ void __cluster_dims__(4, 1, 1) bulk_mc(const unsigned *src, unsigned *out, const unsigned *mask,
                                                   const unsigned *expect) {
    __shared__ __align__(128) unsigned buf[N];
    __shared__ __align__(8) uint64_t bar;
    unsigned r = rank_in_cluster(), t = threadIdx.x;
    for (unsigned k = t; k < N; k += blockDim.x) buf[k] = 0xEE000000u | r << 16 | k;
    uint32_t sb = (uint32_t)__cvta_generic_to_shared(&bar), sd = (uint32_t)__cvta_generic_to_shared(buf);
    if (t == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(sb) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        if (expect[r])
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(sb), "r"(expect[r]) : "memory");
        else
            asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(sb) : "memory");
    }
    __syncthreads();
    cluster_sync();
    if (t == 0 && mask[r]) {
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                     " [%0], [%1], %2, [%3], %4;"
                     :: "r"(sd), "l"(src + r * 64), "r"(64u * 4), "r"(sb), "h"((unsigned short)mask[r]) : "memory");
    }
    wait_phase0(sb);
    for (unsigned k = t; k < N; k += blockDim.x) out[(blockIdx.x * N) + k] = buf[k];
    cluster_sync();                      // peers may still be writing into this CTA's memory until here
}

static int run_bulk(const char *what, const unsigned mask[8], const unsigned expect[8]) {
    unsigned *src, *out, *dm, *de, h[8 * N];
    CHECK(cudaMalloc(&src, 8 * 64 * 4));
    CHECK(cudaMalloc(&out, sizeof h));
    CHECK(cudaMalloc(&dm, 32));
    CHECK(cudaMalloc(&de, 32));
    unsigned s[8 * 64];
    for (unsigned k = 0; k < 8 * 64; k++) s[k] = 0xA0000000u | k;
    CHECK(cudaMemcpy(src, s, sizeof s, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dm, mask, 32, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(de, expect, 32, cudaMemcpyHostToDevice));
    bulk_mc<<<4, 64>>>(src, out, dm, de);
    SHOW(cudaGetLastError());
    SHOW(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, out, 4 * N * 4, cudaMemcpyDeviceToHost));
    printf("%s\n", what);
    for (int b = 0; b < 4; b++) {
        printf(" cta %d:", b);
        for (int k = 0; k < N; k += 32) printf(" %08x", h[b * N + k]);
        printf(" %08x\n", h[b * N + 63]);
    }
    cudaFree(src), cudaFree(out), cudaFree(dm), cudaFree(de);
    return 0;
}

int main() {
    // CTA 0 multicasts to 0, 1 and 3; CTA 2 keeps its own contents.
    unsigned m1[8] = {0xB, 0, 0, 0}, e1[8] = {256, 256, 0, 256};
    if (run_bulk("bulk: cta 0 -> {0,1,3}", m1, e1)) return 1;
    // CTA 1 and CTA 2 multicast to disjoint pairs, at the same offset: {2,3} gets CTA 1's words, {0,1} CTA 2's.
    unsigned m2[8] = {0, 0xC, 0x3, 0}, e2[8] = {256, 256, 256, 256};
    if (run_bulk("bulk: cta 1 -> {2,3}, cta 2 -> {0,1}", m2, e2)) return 1;

    return 0;
}
