// Bulk asynchronous copies and reductions (sm_90), written as inline PTX:
// one thread per block stores shared memory to global memory with
// cp.async.bulk and reduces it into global memory with cp.reduce.async.bulk
// (add/min/max on u32, s32, u64, f32), every block into the same arrays, then
// waits with cp.async.bulk.commit_group / wait_group.read; the data was
// loaded with a bulk copy that completes on an mbarrier's transaction count.
#include <cstdint>

__device__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

extern "C" __global__ void bulk_store_reduce(const int *in, int *copy, unsigned *add, int *mn, float *fadd,
                                             unsigned long long *mx)
{
    __shared__ alignas(128) int ld[256];
    __shared__ alignas(128) int buf[256];
    __shared__ alignas(128) float fbuf[256];
    __shared__ alignas(128) unsigned long long lbuf[128];
    __shared__ alignas(8) uint64_t bar;
    unsigned t = threadIdx.x, b = blockIdx.x;
    if (t == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(&bar)));
        asm volatile("fence.mbarrier_init.release.cluster;");
    }
    __syncthreads();
    if (t == 0) {
        asm volatile("cp.async.bulk.prefetch.L2.global [%0], 1024;" ::"l"(in));
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 1024;" ::"r"(smem(&bar)));
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 1024, [%2];"
                     ::"r"(smem(ld)), "l"(in), "r"(smem(&bar)) : "memory");
    }
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(smem(&bar)) : "memory");
    int v = ld[t];
    buf[t] = v * 3 - (int)(t * b);
    fbuf[t] = (float)(v % 64) * 0.25f + (float)b;
    if (t < 128)
        lbuf[t] = (unsigned long long)(unsigned)v * (unsigned)(ld[t + 128] + b) + ((unsigned long long)b << 40);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");   // generic writes, then the async proxy reads
    __syncthreads();
    if (t == 0) {
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 1024;" ::"l"(copy + b * 256), "r"(smem(buf))
                     : "memory");
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], 1024;" ::"l"(add), "r"(smem(buf))
                     : "memory");
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.min.s32 [%0], [%1], 1024;" ::"l"(mn), "r"(smem(buf))
                     : "memory");
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], 1024;" ::"l"(fadd), "r"(smem(fbuf))
                     : "memory");
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.max.u64 [%0], [%1], 1024;" ::"l"(mx), "r"(smem(lbuf))
                     : "memory");
        asm volatile("cp.async.bulk.commit_group;");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");   // shared memory may be reused
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");        // the writes are done
        asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(smem(&bar)));
    }
}
