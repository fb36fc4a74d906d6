// partial_warp.cu — warp collectives with the full member mask in blocks of 120
// threads, whose last warp has 24 lanes: lanes that do not exist count as exited
// on the GPU, so the collectives run. An inclusive scan with __shfl_up_sync, then
// the votes, reductions and matches of the partial warp.
#include "check.h"

__global__ void scan(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    int v = i < n ? in[i] : 0;
    for (int d = 1; d < 32; d <<= 1) {
        int t = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += t;
    }
    // block totals: the last lane of each warp into shared memory
    __shared__ int warp_sum[4];
    if (lane == 31 || threadIdx.x == blockDim.x - 1) warp_sum[threadIdx.x / 32] = v;
    __syncthreads();
    for (int w = 0; w < (int)threadIdx.x / 32; w++) v += warp_sum[w];
    if (i < n) out[i] = v;
}

__global__ void votes(unsigned *out) {
    unsigned lane = threadIdx.x & 31, w = threadIdx.x / 32, *o = out + 8 * w;
    unsigned b = __ballot_sync(0xffffffffu, lane & 1);
    int all = __all_sync(0xffffffffu, lane < 30), any = __any_sync(0xffffffffu, lane >= 23);
    unsigned red = __reduce_add_sync(0xffffffffu, lane + 1), mx = __reduce_max_sync(0xffffffffu, lane);
    unsigned m = __match_any_sync(0xffffffffu, lane / 8);
    __syncwarp();
    unsigned x = __shfl_xor_sync(0xffffffffu, lane * 3, 1);
    unsigned dn = __shfl_down_sync(0xffffffffu, lane * 5, 2, 8);   // within groups of 8: no lane past 23 read
    if (lane == 0) { o[0] = b; o[1] = all; o[2] = any; o[3] = red; o[4] = mx; }
    if (lane == 16) { o[5] = m; o[6] = x; o[7] = dn; }
}

int main() {
    const int B = 3, T = 120, N = B * T - 7;
    int h[B * T], *in, *out;
    for (int i = 0; i < N; i++) h[i] = (i * 7919) % 101 - 50;
    CHECK(cudaMalloc(&in, sizeof h));
    CHECK(cudaMalloc(&out, sizeof h));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    scan<<<B, T>>>(in, out, N);
    SHOW(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    printf("scan of %d values in blocks of %d:", N, T);
    for (int i = 0; i < N; i++) printf("%s%d", i % 20 ? " " : "\n  ", h[i]);
    printf("\n");
    unsigned *o, r[32];
    CHECK(cudaMalloc(&o, sizeof r));
    votes<<<1, T>>>(o);
    SHOW(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost));
    for (int w = 0; w < 4; w++)
        printf("warp %d: ballot %08x all %u any %u reduce_add %u reduce_max %u match %08x xor %u down %u\n", w,
               r[8 * w], r[8 * w + 1], r[8 * w + 2], r[8 * w + 3], r[8 * w + 4], r[8 * w + 5], r[8 * w + 6],
               r[8 * w + 7]);
    return 0;
}
