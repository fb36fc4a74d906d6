// Vector loads and stores: float4 and int2 through global and shared memory,
// which nvcc emits as ld/st .v4.f32 and .v2.s32.
extern "C" __global__ void vector_ldst(const float4 *a, const int2 *b, float4 *fa, int2 *ib)
{
    __shared__ float4 sf[64];
    __shared__ int2 si[64];
    unsigned t = threadIdx.x;
    float4 x = a[t];
    int2 y = b[t];
    sf[t] = make_float4(x.w * 2.0f, x.z + 1.0f, x.y - x.x, x.x * x.y);
    si[t] = make_int2(y.y ^ y.x, y.x - y.y);
    __syncthreads();
    float4 u = sf[(t + 1) & 63];
    int2 v = si[63 - t];
    fa[t] = make_float4(u.x + x.x, u.y, u.z, u.w + (float)v.x);
    ib[t] = make_int2(v.x + y.x, v.y * 3);
}
