// libdevice math over a wide input range, written as raw bits: float
// functions (precise versions), double functions, and the fast hardware
// approximations (__sinf, __expf ... : sin.approx, ex2.approx) in a file of
// their own so that a mismatch there is told apart from one in libdevice.
#define F1(X) X(sinf) X(cosf) X(tanf) X(expf) X(exp2f) X(logf) X(log2f) X(log10f) X(sqrtf) X(rsqrtf) \
    X(erff) X(erfcf) X(tgammaf) X(lgammaf) X(atanf) X(asinf) X(sinhf) X(tanhf) X(cbrtf) X(expm1f)       \
    X(log1pf) X(floorf) X(ceilf) X(roundf) X(truncf) X(rintf) X(erfinvf) X(j0f) X(normcdff) X(sinpif)
#define F2(X) X(powf) X(atan2f) X(fmodf) X(hypotf) X(fminf) X(fmaxf) X(remainderf) X(fdimf) X(copysignf) X(nextafterf)
#define D1(X) X(sin) X(cos) X(tan) X(exp) X(log) X(log2) X(sqrt) X(erf) X(tgamma) X(atan) X(cbrt) X(expm1) X(log1p) X(asinh) X(rsqrt)
#define D2(X) X(atan2) X(pow) X(fmod) X(hypot) X(remainder)
#define FAST(X) X(__sinf) X(__cosf) X(__expf) X(__exp10f) X(__logf) X(__log2f) X(__tanf) X(__frsqrt_rn) X(__fsqrt_rn) X(__frcp_rn)

#define CNT(f) +1

extern "C" __global__ void math_f(const float *in, unsigned *out)
{
    unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
    float x = in[2 * t], y = in[2 * t + 1];
    unsigned *o = out + t * (0 F1(CNT) F2(CNT) + 3);
    int k = 0;
#define A1(f) o[k++] = __float_as_uint(f(x));
#define A2(f) o[k++] = __float_as_uint(f(x, y));
    F1(A1)
    F2(A2)
    int e;
    o[k++] = __float_as_uint(frexpf(x, &e));
    o[k++] = (unsigned)e;
    o[k++] = __float_as_uint(fmaf(x, y, -x));
}

extern "C" __global__ void math_d(const double *in, unsigned long long *out)
{
    unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
    double x = in[2 * t], y = in[2 * t + 1];
    unsigned long long *o = out + t * (0 D1(CNT) D2(CNT));
    int k = 0;
#define B1(f) o[k++] = __double_as_longlong(f(x));
#define B2(f) o[k++] = __double_as_longlong(f(x, y));
    D1(B1)
    D2(B2)
}

extern "C" __global__ void math_fast(const float *in, unsigned *out)
{
    unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
    float x = in[2 * t], y = in[2 * t + 1];
    unsigned *o = out + t * (0 FAST(CNT) + 3);
    int k = 0;
    FAST(A1)
    o[k++] = __float_as_uint(__powf(x, y));
    o[k++] = __float_as_uint(__fdividef(x, y));
    o[k++] = __float_as_uint(__saturatef(x));
}
