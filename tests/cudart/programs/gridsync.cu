// gridsync.cu — grid-wide synchronization of a cooperative launch: a multi-block
// reduction (264 blocks of 1024 threads, two blocks per SM of an H100) that meets at
// grid.sync() between its phases, launched several times, and a ring exchange in which
// every block reads what its neighbour wrote before the barrier.
#include "check.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void reduce(const float *in, float *partial, float *out, int n) {
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ float s[1024];
    float v = 0;
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) v += in[i];
    s[block.thread_rank()] = v;
    block.sync();
    for (unsigned w = block.size() / 2; w > 0; w /= 2) {
        if (block.thread_rank() < w) s[block.thread_rank()] += s[block.thread_rank() + w];
        block.sync();
    }
    if (block.thread_rank() == 0) partial[blockIdx.x] = s[0];
    grid.sync();
    if (blockIdx.x == 0) {
        float t = 0;
        for (unsigned i = block.thread_rank(); i < gridDim.x; i += block.size()) t += partial[i];
        s[block.thread_rank()] = t;
        block.sync();
        for (unsigned w = block.size() / 2; w > 0; w /= 2) {
            if (block.thread_rank() < w) s[block.thread_rank()] += s[block.thread_rank() + w];
            block.sync();
        }
        if (block.thread_rank() == 0) *out = s[0];
    }
}

__global__ void ring(int *slot, int *seen, int rounds) {
    cg::grid_group grid = cg::this_grid();
    unsigned b = blockIdx.x, nb = gridDim.x;
    for (int r = 0; r < rounds; r++) {
        if (threadIdx.x == 0) slot[b] = r * 1000 + (int)b;
        grid.sync();
        if (threadIdx.x == 0 && slot[(b + 1) % nb] != r * 1000 + (int)((b + 1) % nb)) atomicAdd(seen, 1);
        grid.sync();
    }
}

int main() {
    int dev = 0, coop = 0, sms = 0, per_sm = 0;
    CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce, 1024, 0));
    printf("cooperative launch %d, %d SMs, %d blocks of 1024 per SM\n", coop, sms, per_sm);
    const int n = 1 << 20;
    float *h = new float[n];
    for (int i = 0; i < n; i++) h[i] = (float)(i % 17);
    float *in, *partial, *out;
    CHECK(cudaMalloc(&in, n * sizeof(float)));
    CHECK(cudaMalloc(&partial, 1024 * sizeof(float)));
    CHECK(cudaMalloc(&out, sizeof(float)));
    CHECK(cudaMemcpy(in, h, n * sizeof(float), cudaMemcpyHostToDevice));
    int blocks = sms * per_sm, nn = n;
    void *args[] = {&in, &partial, &out, &nn};
    for (int it = 0; it < 3; it++) {
        CHECK(cudaMemset(out, 0, sizeof(float)));
        CHECK(cudaLaunchCooperativeKernel((void *)reduce, blocks, 1024, args, 0, 0));
        CHECK(cudaDeviceSynchronize());
        float r;
        CHECK(cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost));
        printf("launch %d on %d blocks: sum %.1f\n", it, blocks, r);
    }
    int *slot, *seen;
    CHECK(cudaMalloc(&slot, blocks * sizeof(int)));
    CHECK(cudaMalloc(&seen, sizeof(int)));
    CHECK(cudaMemset(seen, 0, sizeof(int)));
    int rounds = 20;
    void *rargs[] = {&slot, &seen, &rounds};
    CHECK(cudaLaunchCooperativeKernel((void *)ring, blocks, 64, rargs, 0, 0));
    CHECK(cudaDeviceSynchronize());
    int bad;
    CHECK(cudaMemcpy(&bad, seen, sizeof bad, cudaMemcpyDeviceToHost));
    printf("ring over %d blocks, %d rounds: %d stale reads\n", blocks, rounds, bad);
    SHOW(cudaLaunchCooperativeKernel((void *)reduce, blocks + 1, 1024, args, 0, 0));
    delete[] h;
    return 0;
}
