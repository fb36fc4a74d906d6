// Integer and float edge cases as the GPU defines them: division and
// remainder by zero, INT_MIN / -1, shift counts of 32 and more, float to
// integer conversion of NaN, infinities and out-of-range values (saturating),
// and the integer intrinsics at their boundaries. Inputs come from a file so
// nothing is folded at compile time.
#include <climits>

extern "C" __global__ void int_edge(const int *a, const int *b, unsigned *out)
{
    unsigned t = threadIdx.x;
    int x = a[t], y = b[t];
    unsigned ux = (unsigned)x, uy = (unsigned)y;
    long long lx = (long long)x << 20, ly = y;
    unsigned *o = out + 24 * t;
    o[0] = (unsigned)(x / y);             // y is 0 for some lanes
    o[1] = (unsigned)(x % y);
    o[2] = ux / uy;
    o[3] = ux % uy;
    o[4] = (unsigned)(lx / ly);
    o[5] = (unsigned)((unsigned long long)lx % (unsigned long long)ly);
    unsigned s = uy & 63;                 // shift counts 0..63
    o[6] = ux << s;
    o[7] = ux >> s;
    o[8] = (unsigned)(x >> s);
    o[9] = (unsigned)((unsigned long long)lx << (uy & 127));
    o[10] = (unsigned)(lx >> (uy & 127));
    o[11] = __umulhi(ux, uy);
    o[12] = (unsigned)__mulhi(x, y);
    o[13] = (unsigned)__mul24(x, y);
    o[14] = __sad(x, y, 7u);
    o[15] = __brev(ux);
    o[16] = (unsigned)__clz(x) | (unsigned)__ffs(x) << 8 | (unsigned)__popc(ux) << 16;
    o[17] = __byte_perm(ux, uy, 0x3715u);
    o[18] = __funnelshift_l(ux, uy, s);
    o[19] = __funnelshift_rc(ux, uy, s);
    o[20] = (unsigned)__hadd(x, y) ^ (unsigned)__rhadd(x, y) << 1;
    o[21] = (unsigned)abs(x) ^ (unsigned)(-x);
    o[22] = (unsigned)min(x, y) + (unsigned)max(ux, uy);
    o[23] = (unsigned)(__umul64hi((unsigned long long)lx, (unsigned long long)ly * 0x9e3779b97f4a7c15ull) >> 7);
}

extern "C" __global__ void float_edge(const float *a, const float *b, unsigned *out, unsigned long long *out64)
{
    unsigned t = threadIdx.x;
    float x = a[t], y = b[t];
    unsigned *o = out + 20 * t;
    o[0] = (unsigned)(int)x;              // NaN -> 0, out of range saturates
    o[1] = (unsigned)x;
    o[2] = (unsigned)__float2int_rn(x);
    o[3] = (unsigned)__float2int_rd(x);
    o[4] = __float2uint_ru(x);
    o[5] = (unsigned)(short)__float2int_rz(x);
    o[6] = __float_as_uint(x / y);        // includes 0/0, x/0, inf/inf
    o[7] = __float_as_uint(fminf(x, y));
    o[8] = __float_as_uint(fmaxf(x, y));
    o[9] = __float_as_uint(x * y);         // denormal results are kept (no ftz)
    o[10] = __float_as_uint(__fmaf_rn(x, y, 1.0f));
    o[11] = __float_as_uint(__fmul_rz(x, y));
    o[12] = __float_as_uint(__fadd_rd(x, y));
    o[13] = __float_as_uint(__fdiv_ru(x, y));
    o[14] = __float_as_uint(__frcp_rd(y));
    o[15] = __float_as_uint(__fsqrt_rd(x));
    o[16] = (x < y) | (x == y) << 1 | (x != y) << 2 | isnan(x) << 3 | isinf(y) << 4 | signbit(x) << 5;
    o[17] = __float_as_uint((float)(double)x * 3.0f);
    o[18] = __float_as_uint(__int2float_rn((int)__float_as_uint(y)));
    o[19] = __float_as_uint(__uint2float_rz(__float_as_uint(x)));
    unsigned long long *w = out64 + 6 * t;
    w[0] = (unsigned long long)(long long)x;
    w[1] = (unsigned long long)x;
    w[2] = (unsigned long long)__float2ll_rn(y);
    w[3] = __double_as_longlong((double)x / (double)y);
    w[4] = __double_as_longlong(__ll2double_rn((long long)__float_as_uint(x) << 32 | __float_as_uint(y)));
    w[5] = (unsigned long long)__double2ll_rz((double)x * 1e10);
}
