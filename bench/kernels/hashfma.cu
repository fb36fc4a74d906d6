// hashfma — compute-bound: every thread runs the same loop of two integer hash
// streams feeding a few fused multiply-adds; no memory traffic until the end.
// The loop is kept rolled so one iteration is one fixed block of instructions.
extern "C" __global__ void hashfma(unsigned *out, int iters, unsigned seed)
{
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned h = seed ^ (tid * 0x9e3779b9u);
    unsigned g = ~seed + tid;
    float f = 1.0f, e = 0.5f;
#pragma unroll 1
    for (int k = 0; k < iters; k++) {
        h ^= h >> 16;
        h *= 0x7feb352du;
        h ^= h >> 15;
        h *= 0x846ca68bu;
        h ^= h >> 16;
        g += h + (unsigned)k;
        g = __funnelshift_l(g, g, 13) * 5u + 0xe6546b64u;
        g ^= g >> 7;
        float x = __fmul_rn(__uint2float_rn(h >> 8), 5.9604645e-8f);   /* [0, 1) */
        float y = __fmul_rn(__uint2float_rn(g & 0xffffffu), 5.9604645e-8f);
        f = __fmaf_rn(f, 0.5f, x);                                       /* stays in [0, 2) */
        e = __fmaf_rn(e, 0.25f, __fmul_rn(x, y));
        f = __fmaf_rn(e, 0.125f, f);
        e = __fmaf_rn(f, -0.0625f, __fadd_rn(e, 0.75f));
        h += __float_as_uint(f) >> 9;
    }
    out[tid] = h ^ g ^ __float_as_uint(f) ^ __float_as_uint(e);
}
