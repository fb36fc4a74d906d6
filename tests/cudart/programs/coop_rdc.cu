// coop_rdc.cu — a cooperative grid-wide sync (cooperative_groups this_grid().sync()) in a
// program built with -rdc=true -lcudadevrt.
#include <cooperative_groups.h>
#include "check.h"
namespace cg = cooperative_groups;

__global__ void reduce(const int *in, int *partial, int *out, int n) {
    cg::grid_group g = cg::this_grid();
    int s = 0;
    for (int i = g.thread_rank(); i < n; i += g.size()) s += in[i];
    atomicAdd(&partial[blockIdx.x], s);
    g.sync();
    if (g.thread_rank() == 0) {
        int t = 0;
        for (unsigned b = 0; b < gridDim.x; b++) t += partial[b];
        *out = t;
    }
    g.sync();
    if (threadIdx.x == 0) partial[blockIdx.x] = *out;   // every block sees the total
}

int main() {
    const int n = 100000, blocks = 8, threads = 128;
    int *in, *partial, *out, h[blocks];
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&partial, blocks * sizeof(int)));
    CHECK(cudaMalloc(&out, sizeof(int)));
    int *hin = new int[n];
    for (int i = 0; i < n; i++) hin[i] = i % 7;
    CHECK(cudaMemcpy(in, hin, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(partial, 0, blocks * sizeof(int)));
    int nn = n;
    void *args[] = {&in, &partial, &out, &nn};
    SHOW(cudaLaunchCooperativeKernel((void *)reduce, blocks, threads, args, 0, 0));
    SHOW(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, partial, sizeof h, cudaMemcpyDeviceToHost));
    printf("total %d, blocks saw %d %d\n", h[0], h[1], h[blocks - 1]);
    delete[] hin;
    return 0;
}
