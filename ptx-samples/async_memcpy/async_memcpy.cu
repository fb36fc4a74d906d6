// The CUDA guide's asynchronous data copy examples, with a deterministic
// compute(): each block stages batches of global memory through shared memory
//  - with cooperative_groups::memcpy_async + cooperative_groups::wait;
//  - with cuda::memcpy_async completing on a cuda::barrier;
//  - with a multi-stage cuda::pipeline (block scope, all threads producers
//    and consumers; and split into producer and consumer threads);
//  - with cuda::pipeline<thread_scope_thread> and __syncthreads;
//  - with the pipeline primitives (__pipeline_memcpy_async with zero-fill,
//    __pipeline_commit, __pipeline_wait_prior, __pipeline_arrive_on).
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_awbarrier_primitives.h>
#include <cuda_pipeline.h>
namespace cg = cooperative_groups;
#pragma nv_diag_suppress static_var_with_dynamic_init
// each kernel declares the dynamic shared array the guide names `shared`
#pragma nv_diag_suppress 1556

// Reads a neighbour's element too, so the whole batch must have arrived.
__device__ void compute(int *global_out, const int *shared_in)
{
    unsigned t = threadIdx.x, n = blockDim.x;
    global_out[t] = shared_in[t] * 3 + shared_in[(t + 1) % n];
}

extern "C" __global__ void with_memcpy_async(int *global_out, const int *global_in, size_t size, size_t batch_sz)
{
    auto grid = cg::this_grid();
    auto block = cg::this_thread_block();
    (void)size;   // size == batch_sz * grid.size()
    extern __shared__ int shared[];   // block.size() * sizeof(int) bytes
    for (size_t batch = 0; batch < batch_sz; ++batch) {
        size_t block_batch_idx = block.group_index().x * block.size() + grid.size() * batch;
        cg::memcpy_async(block, shared, global_in + block_batch_idx, sizeof(int) * block.size());
        cg::wait(block);   // joins all threads, waits for all copies to complete
        compute(global_out + block_batch_idx, shared);
        block.sync();
    }
}

extern "C" __global__ void with_barrier(int *global_out, const int *global_in, size_t size, size_t batch_sz)
{
    auto grid = cg::this_grid();
    auto block = cg::this_thread_block();
    (void)size;
    extern __shared__ int shared[];
    __shared__ cuda::barrier<cuda::thread_scope::thread_scope_block> barrier;
    if (block.thread_rank() == 0)
        init(&barrier, block.size());
    block.sync();
    for (size_t batch = 0; batch < batch_sz; ++batch) {
        size_t block_batch_idx = block.group_index().x * block.size() + grid.size() * batch;
        cuda::memcpy_async(block, shared, global_in + block_batch_idx, sizeof(int) * block.size(), barrier);
        barrier.arrive_and_wait();   // waits for all copies to complete
        compute(global_out + block_batch_idx, shared);
        block.sync();
    }
}

template <size_t stages_count>
__device__ void staging_unified(int *global_out, const int *global_in, size_t batch_sz)
{
    auto grid = cg::this_grid();
    auto block = cg::this_thread_block();
    extern __shared__ int shared[];   // stages_count * block.size() * sizeof(int) bytes
    size_t shared_offset[stages_count];
    for (int s = 0; s < stages_count; ++s)
        shared_offset[s] = s * block.size();
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope::thread_scope_block, stages_count> shared_state;
    auto pipeline = cuda::make_pipeline(block, &shared_state);
    auto block_batch = [&](size_t batch) -> int { return block.group_index().x * block.size() + grid.size() * batch; };
    for (size_t compute_batch = 0, fetch_batch = 0; compute_batch < batch_sz; ++compute_batch) {
        for (; fetch_batch < batch_sz && fetch_batch < (compute_batch + stages_count); ++fetch_batch) {
            pipeline.producer_acquire();
            size_t shared_idx = fetch_batch % stages_count;
            cuda::memcpy_async(block, shared + shared_offset[shared_idx], global_in + block_batch(fetch_batch),
                               sizeof(int) * block.size(), pipeline);
            pipeline.producer_commit();
        }
        pipeline.consumer_wait();
        int shared_idx = compute_batch % stages_count;
        compute(global_out + block_batch(compute_batch), shared + shared_offset[shared_idx]);
        pipeline.consumer_release();
    }
}

extern "C" __global__ void with_staging_unified(int *global_out, const int *global_in, size_t size, size_t batch_sz)
{
    (void)size;
    staging_unified<3>(global_out, global_in, batch_sz);
}

// Even threads produce, odd threads consume; an element per thread pair.
template <size_t stages_count>
__device__ void specialized_staging_unified(int *global_out, const int *global_in, size_t size, size_t batch_sz)
{
    auto grid = cg::this_grid();
    auto block = cg::this_thread_block();
    const cuda::pipeline_role thread_role =
        block.thread_rank() % 2 == 0 ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
    const int thread_idx = block.thread_rank() / 2;
    auto elements_per_batch = size / batch_sz;
    auto elements_per_batch_per_block = elements_per_batch / grid.group_dim().x;
    extern __shared__ int shared[];   // stages_count * elements_per_batch_per_block * sizeof(int) bytes
    size_t shared_offset[stages_count];
    for (int s = 0; s < stages_count; ++s)
        shared_offset[s] = s * elements_per_batch_per_block;
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope::thread_scope_block, stages_count> shared_state;
    cuda::pipeline pipeline = cuda::make_pipeline(block, &shared_state, thread_role);
    auto block_batch = [&](size_t batch) -> int {
        return elements_per_batch * batch + elements_per_batch_per_block * blockIdx.x;
    };
    for (size_t compute_batch = 0, fetch_batch = 0; compute_batch < batch_sz; ++compute_batch) {
        for (; fetch_batch < batch_sz && fetch_batch < (compute_batch + stages_count); ++fetch_batch) {
            if (thread_role == cuda::pipeline_role::producer) {
                pipeline.producer_acquire();
                size_t shared_idx = fetch_batch % stages_count;
                size_t global_batch_idx = block_batch(fetch_batch) + thread_idx;
                size_t shared_batch_idx = shared_offset[shared_idx] + thread_idx;
                cuda::memcpy_async(shared + shared_batch_idx, global_in + global_batch_idx, sizeof(int), pipeline);
                pipeline.producer_commit();
            }
        }
        if (thread_role == cuda::pipeline_role::consumer) {
            pipeline.consumer_wait();
            size_t shared_idx = compute_batch % stages_count;
            size_t global_batch_idx = block_batch(compute_batch) + thread_idx;
            size_t shared_batch_idx = shared_offset[shared_idx] + thread_idx;
            global_out[global_batch_idx] = shared[shared_batch_idx] * 5 + (int)compute_batch;
            pipeline.consumer_release();
        }
    }
}

extern "C" __global__ void with_specialized_staging_unified(int *global_out, const int *global_in, size_t size,
                                                            size_t batch_sz)
{
    specialized_staging_unified<2>(global_out, global_in, size, batch_sz);
}

extern "C" __global__ void with_staging_scope_thread(int *global_out, const int *global_in, size_t size,
                                                     size_t batch_sz)
{
    constexpr size_t stages_count = 2;
    auto grid = cg::this_grid();
    auto block = cg::this_thread_block();
    auto thread = cg::this_thread();
    (void)size;
    extern __shared__ int shared[];   // stages_count * block.size() * sizeof(int) bytes
    size_t shared_offset[stages_count];
    for (int s = 0; s < stages_count; ++s)
        shared_offset[s] = s * block.size();
    cuda::pipeline<cuda::thread_scope_thread> pipeline = cuda::make_pipeline();
    auto block_batch = [&](size_t batch) -> int { return block.group_index().x * block.size() + grid.size() * batch; };
    for (size_t compute_batch = 0, fetch_batch = 0; compute_batch < batch_sz; ++compute_batch) {
        for (; fetch_batch < batch_sz && fetch_batch < (compute_batch + stages_count); ++fetch_batch) {
            pipeline.producer_acquire();
            size_t shared_idx = fetch_batch % stages_count;
            size_t thread_batch_idx = block_batch(fetch_batch) + threadIdx.x;
            cuda::memcpy_async(thread, shared + shared_offset[shared_idx] + threadIdx.x, global_in + thread_batch_idx,
                               sizeof(int), pipeline);
            pipeline.producer_commit();
        }
        pipeline.consumer_wait();
        block.sync();   // all threads' copies for this stage are complete here
        int shared_idx = compute_batch % stages_count;
        compute(global_out + block_batch(compute_batch), shared + shared_offset[shared_idx]);
        pipeline.consumer_release();
        block.sync();   // nobody refills a stage a neighbour still reads
    }
}

// The primitives in a 3-stage loop: each thread copies 16 bytes per batch,
// the last `zfill` of them zero-filled (it varies with the thread); batches are
// waited for with __pipeline_wait_prior, and additionally through an mbarrier
// that every thread's copies arrive on (__pipeline_arrive_on).
extern "C" __global__ void pipeline_primitives(int *global_out, const int4 *global_in, unsigned nbatches)
{
    constexpr unsigned stages = 3;
    __shared__ int4 stage[stages][128];
    __shared__ __mbarrier_t bar;
    unsigned t = threadIdx.x, n = blockDim.x;
    if (t == 0)
        __mbarrier_init(&bar, n);
    __syncthreads();
    size_t zfill = (t % 4) * 4;
    int acc = 0;
    for (unsigned k = 0; k < stages - 1 && k < nbatches; k++) {
        __pipeline_memcpy_async(&stage[k][t], &global_in[k * n + t], 16, zfill);
        __pipeline_commit();
    }
    for (unsigned k = 0; k < nbatches; k++) {
        unsigned f = k + stages - 1;
        if (f < nbatches)
            __pipeline_memcpy_async(&stage[f % stages][t], &global_in[f * n + t], 16, zfill);
        __pipeline_commit();             // an empty batch at the end keeps the count regular
        __pipeline_wait_prior(stages - 1);
        __pipeline_arrive_on(&bar);      // net zero on the arrival count
        __mbarrier_token_t tok = __mbarrier_arrive(&bar);
        while (!__mbarrier_test_wait(&bar, tok))
            ;
        int4 v = stage[k % stages][(t + k) % n];   // another thread's copy
        acc = acc * 7 + v.x + 2 * v.y + 3 * v.z + 4 * v.w;
        __syncthreads();                 // the slot is refilled next iteration
    }
    global_out[t] = acc;
}
