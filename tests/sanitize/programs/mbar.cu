// mbar.cu MODE: mbarrier use under synccheck, one pattern per MODE (64 threads, one block).
//  1  cuda::memcpy_async(block, ..., bar) then bar.arrive_and_wait() (the ptx-sample async_copy)
//  2  the same in PTX: cp.async, cp.async.mbarrier.arrive, mbarrier.arrive, wait
//  3  cp.async, cp.async.mbarrier.arrive.noinc (count 2n), mbarrier.arrive, wait
//  4  cp.async, cp.async.mbarrier.arrive.noinc (count n), wait on the phase's parity, no arrive
//  5  cp.async.mbarrier.arrive with no copy in flight, mbarrier.arrive, wait
//  6  two mbarrier.arrive by each thread in one phase (count 2n), then wait
//  7  arrive without waiting, bar.sync, arrive and wait on the next phase
//  8  arrive, never wait, exit
//  9  clean: three phases of arrive and wait
// 10  cp.async, cp.async.wait_all, cp.async.mbarrier.arrive, mbarrier.arrive, wait
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cuda/barrier>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;
#pragma nv_diag_suppress static_var_with_dynamic_init

typedef unsigned long long u64;

__device__ __forceinline__ unsigned sa(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void mb_init(u64 *b, unsigned n) {
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(sa(b)), "r"(n) : "memory");
}

__device__ __forceinline__ u64 mb_arrive(u64 *b) {
    u64 t;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(t) : "r"(sa(b)) : "memory");
    return t;
}

// Waits for the phase of token t, or (parity) for the phase of parity t.
__device__ __forceinline__ void mb_wait(u64 *b, u64 t, bool parity = false) {
    unsigned r;
    do {
        if (parity)
            asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                         : "=r"(r)
                         : "r"(sa(b)), "r"((unsigned)t)
                         : "memory");
        else
            asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                         : "=r"(r)
                         : "r"(sa(b)), "l"(t)
                         : "memory");
    } while (!r);
}

__device__ __forceinline__ void cp4(int *dst, const int *src) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(sa(dst)), "l"(src) : "memory");
}

__global__ void sample(const int *in, int *out) {
    __shared__ int buf[64];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, buf, in, sizeof(buf), bar);
    bar.arrive_and_wait();
    out[threadIdx.x] = buf[63 - threadIdx.x];
}

__global__ void probe(const int *in, int *out, int mode) {
    __shared__ int buf[64];
    __shared__ u64 bar;
    unsigned t = threadIdx.x, n = blockDim.x;
    if (t == 0) mb_init(&bar, mode == 3 || mode == 6 ? 2 * n : n);
    __syncthreads();
    switch (mode) {
    case 2:
        cp4(&buf[t], &in[t]);
        asm volatile("cp.async.mbarrier.arrive.shared.b64 [%0];" ::"r"(sa(&bar)) : "memory");
        mb_wait(&bar, mb_arrive(&bar));
        break;
    case 3:
        cp4(&buf[t], &in[t]);
        asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" ::"r"(sa(&bar)) : "memory");
        mb_wait(&bar, mb_arrive(&bar));
        break;
    case 4:
        cp4(&buf[t], &in[t]);
        asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" ::"r"(sa(&bar)) : "memory");
        mb_wait(&bar, 0, true);
        break;
    case 5:
        buf[t] = in[t];
        asm volatile("cp.async.mbarrier.arrive.shared.b64 [%0];" ::"r"(sa(&bar)) : "memory");
        mb_wait(&bar, mb_arrive(&bar));
        break;
    case 6: {
        buf[t] = in[t];
        (void)mb_arrive(&bar);
        mb_wait(&bar, mb_arrive(&bar));
        break;
    }
    case 7:
        buf[t] = in[t];
        (void)mb_arrive(&bar);
        __syncthreads();
        mb_wait(&bar, mb_arrive(&bar));
        break;
    case 8:
        buf[t] = in[t];
        (void)mb_arrive(&bar);
        out[t] = 1;
        return;
    case 9:
        for (int k = 0; k < 3; k++) {
            buf[t] = in[t] + k;
            mb_wait(&bar, mb_arrive(&bar));
        }
        break;
    case 10:
        cp4(&buf[t], &in[t]);
        asm volatile("cp.async.wait_all;" ::: "memory");
        asm volatile("cp.async.mbarrier.arrive.shared.b64 [%0];" ::"r"(sa(&bar)) : "memory");
        mb_wait(&bar, mb_arrive(&bar));
        break;
    }
    __syncthreads();
    out[t] = buf[(t + 1) % n];
}

int main(int argc, char **argv) {
    int mode = argc > 1 ? atoi(argv[1]) : 9;
    int *in, *out, h[64];
    for (int i = 0; i < 64; i++) h[i] = i * 3;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof h);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    if (mode == 1)
        sample<<<1, 64>>>(in, out);
    else
        probe<<<1, 64>>>(in, out, mode);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    if (e == cudaSuccess) {
        cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
        printf("out: %d %d %d\n", h[0], h[1], h[63]);
    }
    cudaFree(in);
    cudaFree(out);
    return 0;
}
