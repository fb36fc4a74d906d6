// The CUDA guide's asynchronous-barrier examples (cuda::barrier, the
// __mbarrier_* primitives), with deterministic work in place of compute():
//  - split arrive/wait: data written before arrive() is read after wait();
//  - warp specialization: warp 0 produces into two buffers, the other warps
//    consume, synchronized by four barriers (ready[2], filled[2]);
//  - early exit: threads leave with arrive_and_drop() and the rest go on;
//  - the memory barrier primitives, their tokens and phases on one thread.
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda_awbarrier_primitives.h>
namespace cg = cooperative_groups;
using barrier = cuda::barrier<cuda::thread_scope_block>;
#pragma nv_diag_suppress static_var_with_dynamic_init

// data: 2 * blockDim.x floats in, blockDim.x floats out (in data[0..n)).
extern "C" __global__ void split_arrive_wait(int iteration_count, float *data)
{
    __shared__ barrier bar;
    __shared__ float stage[2][256];
    auto block = cg::this_thread_block();
    unsigned t = block.thread_rank(), n = block.size();
    if (t == 0)
        init(&bar, n);
    block.sync();
    float mine = data[t], acc = 0.0f;
    for (int it = 0; it < iteration_count; ++it) {
        stage[it & 1][t] = mine;                       // before arrive: read after wait
        barrier::arrival_token token = bar.arrive();
        mine = mine * 0.5f + data[n + t] + (float)it;  // compute(): this thread's own data
        bar.wait(std::move(token));
        acc += stage[it & 1][(t + 1 + it) % n] - stage[it & 1][(t + n - 1) % n];
    }
    data[t] = mine + acc;
}

__device__ void producer(barrier ready[], barrier filled[], float *buffer, const float *in, int N, int buffer_len)
{
    for (int i = 0; i < (N / buffer_len); ++i) {
        ready[i % 2].arrive_and_wait();               // wait for buffer_(i%2) to be ready to be filled
        float *b = buffer + (i % 2) * buffer_len;
        for (int j = threadIdx.x; j < buffer_len; j += warpSize)
            b[j] = in[i * buffer_len + j] * 1.5f + (float)i;
        barrier::arrival_token token = filled[i % 2].arrive();   // buffer_(i%2) is filled
        (void)token;
    }
}

__device__ void consumer(barrier ready[], barrier filled[], const float *buffer, float *out, int N, int buffer_len)
{
    unsigned c = threadIdx.x - warpSize, nc = blockDim.x - warpSize;
    barrier::arrival_token token1 = ready[0].arrive();   // buffer_0 is ready for initial fill
    barrier::arrival_token token2 = ready[1].arrive();   // buffer_1 is ready for initial fill
    (void)token1;
    (void)token2;
    for (int i = 0; i < (N / buffer_len); ++i) {
        filled[i % 2].arrive_and_wait();                 // wait for buffer_(i%2) to be filled
        const float *b = buffer + (i % 2) * buffer_len;
        for (int j = c; j < buffer_len; j += nc)
            out[i * buffer_len + j] = b[j] * 2.0f - b[(j + 1) % buffer_len];
        barrier::arrival_token token = ready[i % 2].arrive();    // buffer_(i%2) is ready to be re-filled
        (void)token;
    }
}

// N is the total number of float elements in arrays in and out.
extern "C" __global__ void producer_consumer_pattern(int N, int buffer_len, const float *in, float *out)
{
    // 2 * buffer_len floats: buffer_0 = buffer, buffer_1 = buffer + buffer_len
    extern __shared__ float buffer[];
    // bar[0], bar[1]: buffers ready to be filled; bar[2], bar[3]: buffers filled
    __shared__ barrier bar[4];
    auto block = cg::this_thread_block();
    if (block.thread_rank() < 4)
        init(bar + block.thread_rank(), block.size());
    block.sync();
    if (block.thread_rank() < warpSize)
        producer(bar, bar + 2, buffer, in, N, buffer_len);
    else
        consumer(bar, bar + 2, buffer, out, N, buffer_len);
}

// out[t]: the sum over the iterations thread t took part in of (threads
// still taking part) * (iteration + 1); threads leave at a pattern of (t, i).
extern "C" __global__ void early_exit_kernel(int N, int *out)
{
    __shared__ barrier bar;
    __shared__ int alive[64];
    auto block = cg::this_thread_block();
    unsigned t = block.thread_rank();
    if (t < 64)
        alive[t] = 0;
    if (t == 0)
        init(&bar, block.size());
    block.sync();
    int acc = 0;
    out[t] = -1;
    for (int i = 0; i < N; ++i) {
        if ((t * 7 + i * 3) % 11 == 0 && i > 0) {     // condition_check()
            bar.arrive_and_drop();
            out[t] = acc * 100 + i;
            return;
        }
        atomicAdd(&alive[i], 1);
        barrier::arrival_token token = bar.arrive();
        acc += i;
        bar.wait(std::move(token));                    // every remaining thread has counted itself
        acc += alive[i] * (i + 1);
    }
    out[t] = acc * 100 + N;
}

// __mbarrier_pending_count() is gone from the headers; the PTX it used:
__device__ unsigned pending_count(__mbarrier_token_t token)
{
    unsigned n;
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(n) : "l"(token));
    return n;
}

// The primitives on one thread, where each step's result is defined, then a
// whole block arriving on a barrier of blockDim.x.
extern "C" __global__ void mbarrier_primitives(unsigned *out)
{
    __shared__ __mbarrier_t bar, all;
    unsigned t = threadIdx.x;
    if (t == 0) {
        out[0] = __mbarrier_maximum_count();
        __mbarrier_init(&bar, 3);
        __mbarrier_token_t t1 = __mbarrier_arrive(&bar);
        out[1] = __mbarrier_test_wait(&bar, t1);           // 2 of 3 pending: not done
        __mbarrier_token_t t2 = __mbarrier_arrive(&bar);
        out[2] = __mbarrier_test_wait(&bar, t2);
        __mbarrier_token_t t3 = __mbarrier_arrive_and_drop(&bar);   // completes phase 0; 2 expected from now on
        out[3] = __mbarrier_test_wait(&bar, t3);
        out[4] = __mbarrier_test_wait(&bar, t1);           // a token of the previous phase
        __mbarrier_token_t t4 = __mbarrier_arrive(&bar);
        out[5] = __mbarrier_test_wait(&bar, t4);           // 1 of 2 pending
        __mbarrier_token_t t5 = __mbarrier_arrive(&bar);   // completes phase 1
        out[6] = __mbarrier_test_wait(&bar, t4);
        out[7] = __mbarrier_test_wait(&bar, t5);
        __mbarrier_token_t t6 = __mbarrier_arrive(&bar);   // phase 2: 1 of 2 pending
        out[8] = __mbarrier_test_wait(&bar, t6);
        out[9] = __mbarrier_test_wait(&bar, t5);           // phase 1 completed: true
        out[10] = pending_count(t1);
        out[11] = pending_count(t2);
        out[12] = pending_count(t4);
        out[13] = pending_count(t6);
        __mbarrier_inval(&bar);
        __mbarrier_init(&all, blockDim.x);
    }
    __syncthreads();
    __mbarrier_token_t tok = __mbarrier_arrive(&all);
    while (!__mbarrier_test_wait(&all, tok))
        ;
    out[16 + t] = __mbarrier_test_wait(&all, tok) + 10 * t;
    __syncthreads();
    if (t == 0)
        __mbarrier_inval(&all);
}
