// reduce — per-block sum of unsigned words (mod 2^32): a short grid-stride loop,
// then a __shfl_down_sync tree inside each warp, the warp sums through shared
// memory, and a second shuffle tree in warp 0. One partial sum per block.
extern "C" __global__ void reduce(const unsigned *in, unsigned *partial, int n)
{
    __shared__ unsigned warp_sum[32];
    unsigned s = 0;
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        s += in[i];
    for (int o = 16; o > 0; o >>= 1)
        s += __shfl_down_sync(0xffffffffu, s, o);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0)
        warp_sum[warp] = s;
    __syncthreads();
    if (warp == 0) {
        s = lane < (int)(blockDim.x >> 5) ? warp_sum[lane] : 0;
        for (int o = 16; o > 0; o >>= 1)
            s += __shfl_down_sync(0xffffffffu, s, o);
        if (lane == 0)
            partial[blockIdx.x] = s;
    }
}
