// Asynchronous barriers and copies (sm_90 PTX: mbarrier, cp.async):
//  - cuda::barrier arrive/wait around cuda::memcpy_async into shared memory;
//  - cooperative_groups::memcpy_async with cg::wait;
//  - __pipeline_memcpy_async with zero-fill (src smaller than dst), commit
//    and wait_prior, double-buffered;
//  - a bulk copy (cuda::memcpy_async of a 16-byte aligned size, issued by one
//    thread: cp.async.bulk with mbarrier transaction counts on sm_90);
//  - a producer/consumer pipeline: one warp fills a ring of shared buffers,
//    the others consume, synchronized by "full" and "empty" barriers.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda_pipeline.h>
namespace cg = cooperative_groups;
using barrier = cuda::barrier<cuda::thread_scope_block>;
// Barriers in __shared__ are initialized by init() at run time, as the guide does.
#pragma nv_diag_suppress static_var_with_dynamic_init

extern "C" __global__ void barrier_copy(const int *in, int *out)
{
    __shared__ int buf[256];
    __shared__ barrier bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, buf, in, sizeof(buf), bar);
    bar.arrive_and_wait();
    unsigned t = threadIdx.x;
    int v = buf[t] + buf[255 - t];
    // A split arrive/wait: the token from arrive() is waited on later.
    auto token = bar.arrive();
    v *= 2;
    bar.wait(std::move(token));
    out[t] = v;
}

extern "C" __global__ void bulk_copy(const int4 *in, int *out)
{
    __shared__ alignas(128) int4 buf[128];
    __shared__ barrier bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    if (block.thread_rank() == 0)
        cuda::memcpy_async(buf, in, cuda::aligned_size_t<16>(sizeof(buf)), bar);
    bar.arrive_and_wait();
    int4 v = buf[127 - threadIdx.x];
    out[threadIdx.x] = v.x + v.y * 3 + v.z * 5 + v.w * 7;
}

extern "C" __global__ void cg_copy(const float *in, float *out)
{
    __shared__ float tile[2][128];
    auto block = cg::this_thread_block();
    unsigned t = threadIdx.x;
    cg::memcpy_async(block, tile[0], in, sizeof(float) * 128);
    cg::memcpy_async(block, tile[1], in + 128, sizeof(float) * 128);
    cg::wait_prior<1>(block);            // the first copy is complete
    float a = tile[0][(t * 5) & 127];
    cg::wait(block);
    out[t] = a * 2.0f + tile[1][127 - t];
}

extern "C" __global__ void pipeline_copy(const int *in, int *out, unsigned nchunks)
{
    __shared__ alignas(16) int stage[2][64][4];
    unsigned t = threadIdx.x;     // 64 threads, 16 bytes each per chunk
    int acc = 0;
    // Prime stage 0, then overlap the copy of chunk k+1 with the use of chunk k.
    // Odd threads copy only 8 of their 16 bytes: the rest must read as zero.
    __pipeline_memcpy_async(&stage[0][t][0], &in[t * 4], 16, (t & 1) ? 8 : 0);
    __pipeline_commit();
    for (unsigned k = 0; k < nchunks; k++) {
        if (k + 1 < nchunks) {
            __pipeline_memcpy_async(&stage[(k + 1) & 1][t][0], &in[(k + 1) * 256 + t * 4], 16, (t & 1) ? 8 : 0);
        }
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        int *s = stage[k & 1][(t + k) & 63];
        acc += s[0] * 1 + s[1] * 10 + s[2] * 100 + s[3] * 1000;
        __syncthreads();
    }
    out[t] = acc;
}

#define RING 4
extern "C" __global__ void producer_consumer(const int *in, int *out, unsigned nitems)
{
    __shared__ int ring[RING][64];
    __shared__ barrier full[RING], empty[RING];
    unsigned t = threadIdx.x, warp = t / 32;        // warp 0 produces, warps 1-2 consume
    if (t < RING) {
        init(&full[t], 32 + 64);
        init(&empty[t], 32 + 64);
    }
    __syncthreads();
    if (warp == 0) {
        for (unsigned i = 0; i < nitems; i++) {
            unsigned slot = i % RING;
            if (i >= RING)
                empty[slot].arrive_and_wait();            // wait until consumers freed it
            ring[slot][t] = in[i * 64 + t] + 1;
            ring[slot][t + 32] = in[i * 64 + t + 32] - 1;
            (void)full[slot].arrive();
        }
    } else {
        unsigned c = t - 32;
        int acc = 0;
        for (unsigned i = 0; i < nitems; i++) {
            unsigned slot = i % RING;
            full[slot].arrive_and_wait();
            acc = acc * 3 + ring[slot][c];
            if (i + RING < nitems)
                (void)empty[slot].arrive();
        }
        out[c] = acc;
    }
}
