// warpsum — one float sum per warp: each lane adds its 8 strided values in
// order, then a __shfl_xor_sync butterfly (offsets 16..1) leaves the sum in
// every lane; lane 0 stores it. No shared memory, no barrier: only shuffles.
extern "C" __global__ void warpsum(const float *in, float *out, int nwarps)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    if (warp >= nwarps)
        return;
    const float *p = in + (size_t)warp * 256 + lane;
    float s = p[0];
    for (int k = 1; k < 8; k++)
        s = __fadd_rn(s, p[32 * k]);
    for (int o = 16; o > 0; o >>= 1)
        s = __fadd_rn(s, __shfl_xor_sync(0xffffffffu, s, o));
    if (lane == 0)
        out[warp] = s;
}
